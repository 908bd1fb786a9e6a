//! # narrowphase
//!
//! Given two shapes and their poses, decides whether they collide and how to push
//! them apart: a [`DispatchTable`] keyed by the two shapes' kinds sends each
//! pair to an exact kernel chosen for it (see `docs/algorithms.md`), mirrored
//! pairs are answered by the same kernel with the contact flipped, and pairs
//! without a kernel fall back to the generic separating-axis test or to
//! GJK/EPA.
//!
//! Every typed kernel is public, named `<a>_<b>` in kasanari's canonical kind
//! order (`circle_polygon`, `obb_obb`), with a `_contact` variant; kernels take
//! B's pose in A's frame (`b_in_a`) and answer in A's frame.
//!
//! ```
//! use nalgebra::{Isometry2, Vector2};
//! use shape::prelude::*;
//!
//! let wall = Obb::<f64>::new(Vector2::new(3.0, 1.0)).unwrap();
//! let ball = Circle::new(0.5).unwrap();
//! let at = |x: f64, y: f64| Isometry2::translation(x, y);
//! assert!(narrowphase::intersects(&wall, &at(0.0, 0.0), &ball, &at(0.0, 1.5)).unwrap());
//! let c = narrowphase::contact(&wall, &at(0.0, 0.0), &ball, &at(0.0, 1.25)).unwrap().unwrap();
//! assert!((c.depth - 0.25).abs() < 1e-12);
//! assert_eq!(c.normal.into_inner(), Vector2::new(0.0, 1.0)); // from the wall to the ball
//! ```

pub mod circle;
mod closest_points;
mod contact;
pub mod dim3;
pub mod dispatch;
pub mod ellipse;
mod error;
pub mod gjk;
pub mod point;
pub mod polygonal;
pub mod sat;
pub mod table;

pub use closest_points::{ClosestPoints, ClosestPoints3};
pub use contact::Contact;
pub use dispatch::{Dim2, DispatchTable, Route};
pub use error::DispatchError;
pub use shape::sat::{Penetration, sat_contact, sat_intersects};

use nalgebra::Isometry2;
use shape::{Real, Shape};

/// Whether two shapes intersect, through the shared built-in table
/// ([`DispatchTable::shared`]).
///
/// # Errors
/// As [`DispatchTable::intersects`].
pub fn intersects<T: Real>(
    a: &dyn Shape<T>,
    pose_a: &Isometry2<T>,
    b: &dyn Shape<T>,
    pose_b: &Isometry2<T>,
) -> Result<bool, DispatchError> {
    DispatchTable::shared().intersects(a, pose_a, b, pose_b)
}

/// The contact of two shapes in world space, through the shared built-in
/// table.
///
/// # Errors
/// As [`DispatchTable::contact`].
pub fn contact<T: Real>(
    a: &dyn Shape<T>,
    pose_a: &Isometry2<T>,
    b: &dyn Shape<T>,
    pose_b: &Isometry2<T>,
) -> Result<Option<Contact<T>>, DispatchError> {
    DispatchTable::shared().contact(a, pose_a, b, pose_b)
}
