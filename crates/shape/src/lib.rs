//! # shape
//!
//! The geometric foundation of kasanari: the scalar trait [`Real`], the traits
//! every collidable thing implements ([`Shape`], [`SupportSeparatingAxes`],
//! [`Convex`]; [`Shape3`] and [`Convex3`] in 3D), and the built-in shapes.
//!
//! Shapes live in their own local frame and are placed in the world by a pose
//! (`nalgebra::Isometry2` / `Isometry3`). Every constructor validates its input
//! and returns `Result<Self, ShapeError>`; every query is exact up to floating
//! point, and sets are closed (the boundary belongs to the shape).
//!
//! ```
//! use nalgebra::{Isometry2, Point2, Vector2};
//! use shape::prelude::*;
//!
//! type R = f64; // one alias switches the precision
//! let hexagon = ConvexPolygon::<R>::from_hull(&[
//!     Point2::new(1.0, 0.0), Point2::new(0.5, 0.866), Point2::new(-0.5, 0.866),
//!     Point2::new(-1.0, 0.0), Point2::new(-0.5, -0.866), Point2::new(0.5, -0.866),
//! ]).unwrap();
//! let pose = Isometry2::new(Vector2::new(5.0, 0.0), 0.0);
//! assert!(hexagon.contains_point(&pose, &Point2::new(5.9, 0.0)));
//! assert_eq!(hexagon.bounding_box(&pose).max.x, 6.0);
//! assert_eq!(
//!     ConvexPolygon::<R>::new(&[Point2::new(0.0, 0.0), Point2::new(1.0, 0.0)]).unwrap_err(),
//!     ShapeError::TooFewVertices { count: 2, min: 3 },
//! );
//! ```

#![cfg_attr(not(feature = "std"), no_std)]

#[cfg(not(any(feature = "std", feature = "libm")))]
compile_error!(
    "the shape crate needs its `std` feature (the default) or, without the standard library, its `libm` feature for the float functions"
);

extern crate alloc;

mod bounding;
mod error;
mod kind;
pub mod math;
mod query;
mod real;
mod shape_ref;
mod single;
mod traits;

pub mod dim2;
pub mod dim3;
#[cfg(feature = "mint")]
pub mod interop;
pub mod sat;
#[cfg(feature = "serde")]
mod serde_impls;
pub mod tolerance;

#[doc(hidden)]
#[cfg(feature = "std")]
pub mod testing;

pub use bounding::{BoundingBox, BoundingBox2, BoundingBox3};
pub use dim2::{
    Aabb, Capsule, Circle, Compound, ConcavePolygon, ConvexPart, ConvexPolygon, Ellipse, Obb,
    Point, Polyline, RoundedPolygon, Segment, TileMap, Triangle,
};
pub use dim3::{Aabb3, Convex3, Cuboid, Shape3, Sphere};
pub use error::ShapeError;
pub use kind::ShapeKind;
pub use query::{
    PointProjection, PointProjection3, PointQuery, PointQuery3, Ray, Ray3, RayCast, RayCast3,
    RayHit, RayHit3, hit_at_origin,
};
pub use real::Real;
pub use shape_ref::{ShapeRef, ShapeRef3};
pub use traits::{Convex, Interval, Shape, SupportSeparatingAxes};

/// Everything a user of the shapes needs, in one import.
pub mod prelude {
    pub use crate::{
        Aabb, Aabb3, BoundingBox2, BoundingBox3, Capsule, Circle, Compound, ConcavePolygon, Convex,
        Convex3, ConvexPart, ConvexPolygon, Cuboid, Ellipse, Interval, Obb, Point, PointProjection,
        PointProjection3, PointQuery, PointQuery3, Polyline, Ray, Ray3, RayCast, RayCast3, RayHit,
        RayHit3, Real, RoundedPolygon, Segment, Shape, Shape3, ShapeError, ShapeKind, ShapeRef,
        ShapeRef3, Sphere, SupportSeparatingAxes, TileMap, Triangle,
    };
}
