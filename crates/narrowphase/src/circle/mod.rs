//! Circle kernels: circle–circle by squared distance (seed 003), circle–box by
//! clamping, circle–polygon by seed 001's edge tests, a round point against a
//! round segment (circle–segment, circle–capsule, point–capsule) by the foot
//! of the perpendicular.

mod circle_box;
pub(crate) mod circle_box_world;
mod circle_circle;
pub(crate) mod circle_circle_world;
mod circle_polygon;
pub(crate) mod circle_polygon_world;
mod circle_segment;

pub use circle_box::{
    circle_aabb, circle_aabb_closest_points, circle_aabb_contact, circle_obb,
    circle_obb_closest_points, circle_obb_contact,
};
pub use circle_circle::{circle_circle, circle_circle_closest_points, circle_circle_contact};
pub use circle_polygon::{
    circle_polygon, circle_polygon_closest_points, circle_polygon_contact, circle_triangle,
    circle_triangle_closest_points, circle_triangle_contact,
};
pub use circle_segment::{
    circle_capsule, circle_capsule_closest_points, circle_capsule_contact, point_capsule,
    point_capsule_closest_points, point_capsule_contact, segment_circle,
    segment_circle_closest_points, segment_circle_contact,
};
