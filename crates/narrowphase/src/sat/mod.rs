//! Separating-axis kernels: boxes (seed 000, seed 003) and the general
//! rounded-core kernel that serves every pair of polygonal, segment, point and
//! rounded shapes.

mod aabb_aabb;
mod box_segment;
mod core;
mod core_pairs;
pub(crate) mod descent;
mod exact;
pub(crate) mod lanes;
pub(crate) mod linear;
mod obb_obb;

pub use aabb_aabb::{aabb_aabb, aabb_aabb_closest_points, aabb_aabb_contact};
pub(crate) use core::{ContactFace, core_apart, core_contact_face};
pub use core::{core_closest_points, core_contact, core_intersects};
pub use core_pairs::*;
pub use obb_obb::{
    aabb_obb, aabb_obb_closest_points, aabb_obb_contact, obb_obb, obb_obb_closest_points,
    obb_obb_contact,
};
