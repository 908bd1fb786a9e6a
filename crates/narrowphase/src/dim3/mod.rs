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
//! Single-shape queries: [`cast_ray3`] and [`project_point3`] (exact for
//! the three built-in shapes; a 3D user shape answers through its own
//! `as_ray_cast` / `as_point_query`, there is no 3D support-map fallback).
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
pub mod cast3;
mod contact3;
mod cuboid_aabb3;
mod cuboid_cuboid;
mod dispatch3;
mod manifold3;
mod sphere_aabb3;
mod sphere_cuboid;
mod sphere_sphere;

pub use crate::closest_points::ClosestPoints3;
pub use crate::single::{cast_ray3, project_point3};
pub use aabb3_aabb3::{aabb3_aabb3, aabb3_aabb3_closest_points, aabb3_aabb3_contact};
pub use contact3::Contact3;
pub use cuboid_aabb3::{cuboid_aabb3, cuboid_aabb3_closest_points, cuboid_aabb3_contact};
pub use cuboid_cuboid::{cuboid_cuboid, cuboid_cuboid_closest_points, cuboid_cuboid_contact};
pub use dispatch3::{ClosestPointsFn3, ContactFn3, Dim3, DispatchTable3, IntersectsFn3};
pub use manifold3::{
    aabb3_aabb3_manifold, cuboid_aabb3_manifold, cuboid_cuboid_manifold, sphere_aabb3_manifold,
    sphere_cuboid_manifold, sphere_sphere_manifold,
};
pub use sphere_aabb3::{sphere_aabb3, sphere_aabb3_closest_points, sphere_aabb3_contact};
pub use sphere_cuboid::{sphere_cuboid, sphere_cuboid_closest_points, sphere_cuboid_contact};
pub use sphere_sphere::{sphere_sphere, sphere_sphere_closest_points, sphere_sphere_contact};

use nalgebra::{Isometry3, Vector3};
use shape::{Real, Shape3};

use crate::DispatchError;
use crate::manifold::Manifold3;
use crate::queries::{ClosestPointsQuery, ContactQuery, IntersectsQuery, ManifoldQuery};
use crate::table::PairQuery;

/// Whether two 3D shapes intersect, through the built-in kernels (as a
/// [`DispatchTable3::new`] table answers, with nothing to look up).
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
    builtin_query::<IntersectsQuery, _>(a, pose_a, b, pose_b, ())
}

/// The contact of two 3D shapes in world space (normal from `a` to `b`),
/// through the built-in kernels.
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
    builtin_query::<ContactQuery, _>(a, pose_a, b, pose_b, ())
}

/// The closest points of two 3D shapes in world space within
/// `max_distance`, through the built-in kernels (see
/// [`crate::closest_points`] for the contract).
///
/// # Errors
/// As [`DispatchTable3::closest_points`].
///
/// ```
/// use nalgebra::Isometry3;
/// let s = shape::Sphere::new(1.0_f64).unwrap();
/// let (o, p) = (Isometry3::identity(), Isometry3::translation(0.0, 3.0, 0.0));
/// let cp = narrowphase::dim3::closest_points3(&s, &o, &s, &p, f64::INFINITY).unwrap();
/// assert_eq!(cp.distance(), Some(1.0));
/// ```
pub fn closest_points3<T: Real>(
    a: &dyn Shape3<T>,
    pose_a: &Isometry3<T>,
    b: &dyn Shape3<T>,
    pose_b: &Isometry3<T>,
    max_distance: T,
) -> Result<ClosestPoints3<T>, DispatchError> {
    builtin_query::<ClosestPointsQuery, _>(a, pose_a, b, pose_b, max_distance)
}

/// The contact manifold of two 3D shapes (world frame): one unit normal from
/// A to B and up to 4 points (4 for two boxes resting face to face), each
/// with a point on each shape, its separation along the normal (negative
/// when penetrating, positive for a speculative point within `prediction`)
/// and the features that made it; `None` when the shapes are farther apart
/// than `prediction`. The normal and the least separation are exactly those
/// of [`contact3`] (or of [`closest_points3`] when apart); see
/// [`crate::manifold`] for the method and the box numbering in the features.
///
/// # Errors
/// [`DispatchError::InvalidPrediction`] for a NaN or negative `prediction`
/// (`+∞` is allowed), and as [`DispatchTable3::intersects`].
///
/// ```
/// use nalgebra::{Isometry3, Vector3};
/// use narrowphase::Feature;
/// use shape::Cuboid;
///
/// // A unit cube resting on a 10 × 10 slab, sunk by 0.01.
/// let slab = Cuboid::<f64>::new(Vector3::new(5.0, 5.0, 0.5)).unwrap();
/// let cube = Cuboid::new(Vector3::new(0.5, 0.5, 0.5)).unwrap();
/// let m = narrowphase::dim3::contact_manifold3(
///     &slab, &Isometry3::identity(),
///     &cube, &Isometry3::translation(0.0, 0.0, 0.99),
///     0.0,
/// ).unwrap().expect("touching");
/// assert_eq!(m.normal().into_inner(), Vector3::z());
/// let deepest = m.deepest();
/// assert!((deepest.separation + 0.01).abs() < 1e-12);
/// assert_eq!(deepest.id.a, Feature::Face(5)); // the slab's +z face
/// ```
pub fn contact_manifold3<T: Real>(
    a: &dyn Shape3<T>,
    pose_a: &Isometry3<T>,
    b: &dyn Shape3<T>,
    pose_b: &Isometry3<T>,
    prediction: T,
) -> Result<Option<Manifold3<T>>, DispatchError> {
    builtin_query::<ManifoldQuery, _>(a, pose_a, b, pose_b, prediction)
}

/// The distance between two 3D shapes (0 when they touch or overlap).
///
/// # Errors
/// As [`DispatchTable3::closest_points`].
///
/// ```
/// use nalgebra::{Isometry3, Vector3};
/// let cube = shape::Cuboid::new(Vector3::new(1.0_f32, 1.0, 1.0)).unwrap();
/// let ball = shape::Sphere::new(1.0).unwrap();
/// let d = narrowphase::dim3::distance3(&cube, &Isometry3::identity(), &ball, &Isometry3::translation(0.0, 0.0, 5.0));
/// assert_eq!(d, Ok(3.0));
/// ```
pub fn distance3<T: Real>(
    a: &dyn Shape3<T>,
    pose_a: &Isometry3<T>,
    b: &dyn Shape3<T>,
    pose_b: &Isometry3<T>,
) -> Result<T, DispatchError> {
    closest_points3(a, pose_a, b, pose_b, T::infinity())
        .map(|c| c.distance().unwrap_or(T::infinity()))
}

/// The signed distance between two 3D shapes: the distance when apart, minus
/// the penetration depth (the [`contact3`] depth) when they intersect.
///
/// # Errors
/// As [`DispatchTable3::closest_points`].
///
/// ```
/// use nalgebra::Isometry3;
/// let s = shape::Sphere::new(1.0_f64).unwrap();
/// let (o, p) = (Isometry3::identity(), Isometry3::translation(1.5, 0.0, 0.0));
/// assert_eq!(narrowphase::dim3::signed_distance3(&s, &o, &s, &p), Ok(-0.5));
/// ```
pub fn signed_distance3<T: Real>(
    a: &dyn Shape3<T>,
    pose_a: &Isometry3<T>,
    b: &dyn Shape3<T>,
    pose_b: &Isometry3<T>,
) -> Result<T, DispatchError> {
    match closest_points3(a, pose_a, b, pose_b, T::infinity())? {
        ClosestPoints3::Intersecting => {
            Ok(-contact3(a, pose_a, b, pose_b)?.map_or(T::zero(), |c| c.depth))
        }
        other => Ok(other.distance().unwrap_or(T::infinity())),
    }
}

/// The first time in `[0, max_toi]` at which two 3D shapes moving at
/// constant velocities touch (see [`crate::cast_shapes`] for the contract).
///
/// # Errors
/// As [`crate::cast_shapes`].
///
/// ```
/// use nalgebra::{Isometry3, Vector3};
/// use narrowphase::ShapeCastOptions;
/// let s = shape::Sphere::new(1.0_f64).unwrap();
/// let (o, p) = (Isometry3::identity(), Isometry3::translation(0.0, 0.0, 10.0));
/// let hit = narrowphase::dim3::cast_shapes3(
///     &s, &o, &Vector3::new(0.0, 0.0, 2.0), &s, &p, &Vector3::zeros(), 100.0,
///     ShapeCastOptions::default(),
/// ).unwrap().unwrap();
/// assert!((hit.toi - 4.0).abs() < 1e-12); // a gap of 8 closed at 2 per second
/// assert!((hit.normal.z - 1.0).abs() < 1e-12);
/// ```
#[allow(clippy::too_many_arguments)] // two shapes, two poses, two velocities
pub fn cast_shapes3<T: Real>(
    a: &dyn Shape3<T>,
    pose_a: &Isometry3<T>,
    vel_a: &Vector3<T>,
    b: &dyn Shape3<T>,
    pose_b: &Isometry3<T>,
    vel_b: &Vector3<T>,
    max_toi: T,
    options: crate::ShapeCastOptions,
) -> Result<Option<crate::cast::ShapeCastHit3<T>>, DispatchError> {
    let args = crate::cast::ShapeCastArgs3 {
        vel_a: *vel_a,
        vel_b: *vel_b,
        max_toi,
        options,
    };
    builtin_query::<crate::ShapeCastQuery, _>(a, pose_a, b, pose_b, args)
}

#[inline]
fn builtin_query<Q: PairQuery<T, Dim3>, T: Real>(
    a: &dyn Shape3<T>,
    pose_a: &Isometry3<T>,
    b: &dyn Shape3<T>,
    pose_b: &Isometry3<T>,
    args: Q::Args,
) -> Result<Q::Answer, DispatchError> {
    crate::table::query_with::<T, Dim3, Q>(
        true,
        &crate::table::NO_USER_PAIRS,
        || None,
        a,
        pose_a,
        b,
        pose_b,
        args,
    )
}
