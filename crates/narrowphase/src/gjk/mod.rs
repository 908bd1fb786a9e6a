//! The support-map fallback: GJK and EPA over [`shape::Convex`], and the
//! single-shape queries on support functions ([`gjk_cast_ray`],
//! [`gjk_project_point`]).
//!
//! Pairs of shapes without a dedicated kernel (a user's convex shape against an
//! ellipse, say) are decided by [`gjk_intersects`], measured by
//! [`gjk_distance`] when apart and by [`epa_contact`] when overlapping. All
//! three need only the shapes' support functions, work in the world frame the
//! poses map into, and share one GJK iteration, so they always agree on
//! whether the shapes meet. Touching counts as intersecting, up to the
//! tolerance `δ = gjk_tolerance · scale` ([`gjk_tolerance`]: `64 ε`, scale the
//! largest absolute coordinate of the two shapes): shapes that touch always
//! intersect, shapes more than `δ` apart never do.
//!
//! ```
//! use nalgebra::{Isometry2, Vector2};
//! use shape::prelude::*;
//! use narrowphase::gjk::{epa_contact, gjk_distance, gjk_intersects};
//! let a = Ellipse::new(Vector2::new(2.0, 1.0)).unwrap();
//! let b = Obb::new(Vector2::new(0.5, 0.5)).unwrap();
//! let id = Isometry2::identity();
//! let near = Isometry2::translation(0.0, 1.25);
//! assert!(gjk_intersects(&a, &id, &b, &near));
//! let c = epa_contact(&a, &id, &b, &near).unwrap();
//! assert!((c.depth - 0.25f64).abs() < 1e-9 && (c.normal.y - 1.0).abs() < 1e-6);
//! let far = Isometry2::translation(0.0, 2.0);
//! assert!((gjk_distance(&a, &id, &b, &far).distance() - 0.5f64).abs() < 1e-9);
//! ```

mod epa;
// The family folder and its GJK file share the name the brief and the other
// families use (`sat/`, `circle/`); the inner module stays private.
#[allow(clippy::module_inception)]
mod gjk;
mod ray_cast;

#[cfg(test)]
mod properties;

pub use epa::epa_contact;
pub use gjk::{GjkResult, gjk_distance, gjk_intersects, gjk_tolerance};
pub use ray_cast::{gjk_cast_ray, gjk_project_point};
