//! 3D narrow phase: exact kernels for the built-in 3D shapes and the 3D
//! dispatch table.
//!
//! The 3D game of seed 003 moves cubes on a grid, rotating them about all
//! three axes, among spheres. Kernels, named in the canonical kind order
//! sphere < cuboid < aabb3:
//!
//! | pair | method |
//! |---|---|
//! | [`sphere_sphere`] | squared distance of the centres (no square root on the boolean path) |
//! | [`sphere_cuboid`], [`sphere_aabb3`] | clamp the centre into the box; inside: nearest face |
//! | [`cuboid_cuboid`], [`cuboid_aabb3`] | 15-axis separating-axis test, axis-aligned fast path |
//! | [`aabb3_aabb3`] | three interval tests with early outs |
//!
//! Each has a `_contact` variant returning a [`Contact3`]. Kernels take B's pose
//! in A's frame (`b_in_a`) and answer in A's frame; [`DispatchTable3`] routes
//! `dyn Shape3` pairs in world space.
//!
//! ```
//! use nalgebra::{Isometry3, Vector3};
//! use shape::prelude::*;
//!
//! let cube = Cuboid::<f64>::new(Vector3::new(0.5, 0.5, 0.5)).unwrap();
//! let ball = Sphere::new(0.5).unwrap();
//! let at = |x: f64, y: f64, z: f64| Isometry3::translation(x, y, z);
//! assert!(narrowphase::dim3::intersects3(&cube, &at(0.0, 0.0, 0.0), &ball, &at(0.0, 0.0, 1.0)).unwrap());
//! let c = narrowphase::dim3::contact3(&cube, &at(0.0, 0.0, 0.0), &ball, &at(0.0, 0.0, 0.75)).unwrap().unwrap();
//! assert_eq!((c.depth, c.normal.into_inner()), (0.25, Vector3::z()));
//! ```

mod aabb3_aabb3;
mod contact3;
mod cuboid_aabb3;
mod cuboid_cuboid;
mod dispatch3;
mod sphere_aabb3;
mod sphere_cuboid;
mod sphere_sphere;

pub use aabb3_aabb3::{aabb3_aabb3, aabb3_aabb3_contact};
pub use contact3::Contact3;
pub use cuboid_aabb3::{cuboid_aabb3, cuboid_aabb3_contact};
pub use cuboid_cuboid::{cuboid_cuboid, cuboid_cuboid_contact};
pub use dispatch3::{ContactFn3, Dim3, DispatchTable3, IntersectsFn3, register_builtin_pairs3};
pub use sphere_aabb3::{sphere_aabb3, sphere_aabb3_contact};
pub use sphere_cuboid::{sphere_cuboid, sphere_cuboid_contact};
pub use sphere_sphere::{sphere_sphere, sphere_sphere_contact};

use nalgebra::Isometry3;
use shape::{Real, Shape3};

use crate::DispatchError;

/// Whether two 3D shapes intersect, through the shared built-in table
/// ([`DispatchTable3::shared`]).
///
/// # Errors
/// As [`DispatchTable3::intersects`].
///
/// ```
/// use nalgebra::Isometry3;
/// let s = shape::Sphere::new(1.0_f32).unwrap();
/// let (o, p) = (Isometry3::identity(), Isometry3::translation(2.0, 0.0, 0.0));
/// assert!(narrowphase::dim3::intersects3(&s, &o, &s, &p).unwrap()); // touching
/// ```
pub fn intersects3<T: Real>(
    a: &dyn Shape3<T>,
    pose_a: &Isometry3<T>,
    b: &dyn Shape3<T>,
    pose_b: &Isometry3<T>,
) -> Result<bool, DispatchError> {
    DispatchTable3::shared().intersects(a, pose_a, b, pose_b)
}

/// The contact of two 3D shapes in world space, through the shared built-in
/// table.
///
/// # Errors
/// As [`DispatchTable3::contact`].
///
/// ```
/// use nalgebra::Isometry3;
/// let s = shape::Sphere::new(1.0_f32).unwrap();
/// let (o, p) = (Isometry3::identity(), Isometry3::translation(2.5, 0.0, 0.0));
/// assert_eq!(narrowphase::dim3::contact3(&s, &o, &s, &p), Ok(None));
/// ```
pub fn contact3<T: Real>(
    a: &dyn Shape3<T>,
    pose_a: &Isometry3<T>,
    b: &dyn Shape3<T>,
    pose_b: &Isometry3<T>,
) -> Result<Option<Contact3<T>>, DispatchError> {
    DispatchTable3::shared().contact(a, pose_a, b, pose_b)
}
