//! # kasanari (重なり, "overlap")
//!
//! Exact collision detection for games, generic over `f32` and `f64`. This facade
//! re-exports the three crates kasanari is made of:
//!
//! - [`shape`]: the [`Real`](shape::Real) scalar, the [`Shape`](shape::Shape) and
//!   [`SupportSeparatingAxes`](shape::SupportSeparatingAxes) traits, the built-in
//!   2D and 3D shapes;
//! - [`narrowphase`]: the pair dispatch table and an exact kernel per pair;
//! - [`broadphase`]: the uniform grid and the world.
//!
//! ```
//! use kasanari::prelude::*;
//! use kasanari::nalgebra::{Isometry2, Vector2};
//!
//! type R = f32; // switch to f64 here, nothing else changes
//! let boxy = Obb::<R>::new(Vector2::new(3.0, 1.0)).unwrap();
//! let ball = Circle::<R>::new(1.0).unwrap();
//! let at = |x: R, y: R| Isometry2::translation(x, y);
//! assert!(intersects(&boxy, &at(0.0, 5.0), &ball, &at(0.0, 7.0)).unwrap()); // touching
//! assert!(!intersects(&boxy, &at(0.0, 5.0), &ball, &at(0.0, 7.5)).unwrap());
//! ```

#[doc = include_str!("../../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

pub use broadphase;
#[cfg(feature = "serde")]
#[doc(hidden)]
pub mod demo;
#[cfg(feature = "serde")]
pub mod scene;
pub use nalgebra;
pub use narrowphase;
#[cfg(feature = "serde")]
pub use serde_json;
pub use shape;

/// One import for users: the shapes, the traits, the scalar trait, the
/// queries and the world.
pub mod prelude {
    pub use broadphase::{
        Collisions, Filter, Handle, MoveHit, MoveOptions, Moved, PairContact, PairManifold, Parts,
        QueryFilter, World, World3, WorldError,
    };
    pub use narrowphase::cast::ShapeCastHit3;
    pub use narrowphase::dim3::{
        ClosestPoints3, Contact3, DispatchTable3, cast_ray3, cast_shapes3, closest_points3,
        distance3, project_point3, signed_distance3,
    };
    pub use narrowphase::{
        ClosestPoints, Contact, DispatchError, DispatchTable, ShapeCastHit, ShapeCastOptions,
        ShapeCastStatus, cast_ray, cast_shapes, closest_points, contact, distance, intersects,
        project_point, sat_contact, sat_intersects, signed_distance,
    };
    pub use narrowphase::{
        Feature, FeatureId, Manifold, Manifold3, ManifoldPoint, ManifoldPoint3, contact_manifold,
    };
    pub use shape::prelude::*;
}
