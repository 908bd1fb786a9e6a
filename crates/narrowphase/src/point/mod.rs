//! Point kernels with a closed form: the point moved into the other shape's
//! frame (seed 002), or compared by squared distance.

mod point_aabb;
mod point_circle;
mod point_obb;

pub use point_aabb::{point_aabb, point_aabb_closest_points, point_aabb_contact};
pub use point_circle::{point_circle, point_circle_closest_points, point_circle_contact};
pub use point_obb::{
    point_obb, point_obb_closest_points, point_obb_contact, point_obb_cross_product,
};
