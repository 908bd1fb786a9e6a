//! # narrowphase
//!
//! Given two shapes and their poses, decides whether they collide and how to push
//! them apart: a [`DispatchTable`] keyed by the two shapes' kinds sends each
//! pair to an exact kernel chosen for it (see `docs/algorithms.md`), mirrored
//! pairs are answered by the same kernel with the contact flipped, and pairs
//! without a kernel fall back to the generic separating-axis test or to
//! GJK/EPA.
//!
//! Single-shape queries, [`cast_ray`] and [`project_point`], answer a ray
//! cast or a point projection for one shape (exact for every built-in shape,
//! by a support-function fallback for user shapes).
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

#![cfg_attr(not(feature = "std"), no_std)]

#[cfg(not(any(feature = "std", feature = "libm")))]
compile_error!(
    "the narrowphase crate needs its `std` feature (the default) or, without the standard library, its `libm` feature for the float functions"
);

extern crate alloc;

pub mod cast;
pub mod circle;
mod closest_points;
pub mod composite;
mod contact;
pub mod dim3;
pub mod dispatch;
pub mod ellipse;
mod error;
pub mod gjk;
pub mod manifold;
pub mod point;
pub mod polygonal;
pub mod queries;
pub mod sat;
mod single;
pub mod table;
pub mod toi;

pub use cast::{ShapeCastArgs, ShapeCastHit, ShapeCastOptions, ShapeCastStatus};
pub use closest_points::{ClosestPoints, ClosestPoints3};
pub use contact::Contact;
pub use dispatch::{ClosestPointsFn, ContactFn, Dim2, DispatchTable, IntersectsFn, Route};
pub use error::DispatchError;
pub use manifold::{
    Feature, FeatureId, MAX_MANIFOLD_POINTS, Manifold, Manifold3, ManifoldPoint, ManifoldPoint3,
    ManifoldSlots, ManifoldStorage,
};
pub use queries::{
    ClosestPointsQuery, ContactQuery, IntersectsQuery, ManifoldQuery, ShapeCastQuery,
};
pub use shape::sat::{Penetration, sat_contact, sat_intersects};
pub use single::{cast_ray, project_point};
pub use table::{PairQuery, Table};
pub use toi::{
    Sweep, Sweep3, ToiOptions, ToiOutput, ToiOutput3, ToiStatus, time_of_impact, time_of_impact3,
};

use nalgebra::{Isometry2, Vector2};
use shape::{Real, Shape};

/// Whether two shapes intersect (closed sets: touching counts), through the
/// built-in kernels and the fallbacks: what a [`DispatchTable::new`] table
/// answers, with nothing to look up and no lock.
///
/// # Errors
/// As [`DispatchTable::intersects`].
pub fn intersects<T: Real>(
    a: &dyn Shape<T>,
    pose_a: &Isometry2<T>,
    b: &dyn Shape<T>,
    pose_b: &Isometry2<T>,
) -> Result<bool, DispatchError> {
    builtin_query::<IntersectsQuery, T>(a, pose_a, b, pose_b, ())
}

/// The contact of two shapes in world space (normal from `a` to `b`), or
/// `None` when they do not intersect; through the built-in kernels and the
/// fallbacks.
///
/// # Errors
/// As [`DispatchTable::contact`].
pub fn contact<T: Real>(
    a: &dyn Shape<T>,
    pose_a: &Isometry2<T>,
    b: &dyn Shape<T>,
    pose_b: &Isometry2<T>,
) -> Result<Option<Contact<T>>, DispatchError> {
    builtin_query::<ContactQuery, T>(a, pose_a, b, pose_b, ())
}

/// Whether two shapes intersect, or their closest points (one on each shape,
/// world frame, unit normal from A to B) when they are at most `max_distance`
/// apart, or [`ClosestPoints::Farther`]. `max_distance` may be `+∞`; the
/// contract is in `docs/conventions.md` ("Distance and closest points").
///
/// # Errors
/// As [`DispatchTable::closest_points`]: a NaN or negative `max_distance` is
/// [`DispatchError::InvalidMaxDistance`].
///
/// ```
/// use nalgebra::{Isometry2, Point2, Vector2};
/// use narrowphase::ClosestPoints;
/// use shape::{Circle, Obb};
/// let wall = Obb::new(Vector2::new(1.0, 3.0)).unwrap();
/// let ball = Circle::new(0.5).unwrap();
/// let (o, p) = (Isometry2::identity(), Isometry2::translation(4.0, 1.0));
/// let ClosestPoints::WithinMargin { distance, point_a, point_b, normal } =
///     narrowphase::closest_points(&wall, &o, &ball, &p, 10.0).unwrap() else { panic!() };
/// assert_eq!((distance, point_a, point_b), (2.5, Point2::new(1.0, 1.0), Point2::new(3.5, 1.0)));
/// assert_eq!(normal.into_inner(), Vector2::x());
/// assert_eq!(narrowphase::closest_points(&wall, &o, &ball, &p, 1.0), Ok(ClosestPoints::Farther));
/// ```
pub fn closest_points<T: Real>(
    a: &dyn Shape<T>,
    pose_a: &Isometry2<T>,
    b: &dyn Shape<T>,
    pose_b: &Isometry2<T>,
    max_distance: T,
) -> Result<ClosestPoints<T>, DispatchError> {
    builtin_query::<ClosestPointsQuery, T>(a, pose_a, b, pose_b, max_distance)
}

/// The contact manifold of two shapes (world frame): one unit normal from A
/// to B and up to 2 points, each with a point on each shape, its separation
/// along the normal (negative when penetrating) and the features that made
/// it; `None` when the shapes are farther apart than `prediction`. Points up
/// to `prediction` apart are reported with a positive separation
/// (speculative contacts). The normal and the least separation are exactly
/// those of [`contact`] (or of [`closest_points`] when apart); the contract
/// is in `docs/conventions.md` ("Contact manifolds").
///
/// # Errors
/// [`DispatchError::InvalidPrediction`] for a NaN or negative `prediction`
/// (`+∞` is allowed), and as [`DispatchTable::intersects`].
///
/// ```
/// use nalgebra::{Isometry2, Vector2};
/// use narrowphase::Feature;
/// use shape::Obb;
///
/// // A box tilted by 0.1 rad, its lowest corner 0.05 into a floor.
/// let floor = Obb::new(Vector2::new(10.0, 1.0)).unwrap();
/// let crate_ = Obb::new(Vector2::new(1.0, 1.0)).unwrap();
/// let (s, c) = (0.1f64.sin(), 0.1f64.cos());
/// let lift = 1.0 + c + s - 0.05; // centre height: floor top + half-diagonal drop
/// let pose = Isometry2::new(Vector2::new(0.0, lift), 0.1);
/// let m = narrowphase::contact_manifold(&floor, &Isometry2::identity(), &crate_, &pose, 0.5)
///     .unwrap()
///     .expect("within the prediction");
/// assert_eq!(m.len(), 2);
/// let (deep, high) = (&m.points()[0], &m.points()[1]);
/// assert!((deep.separation + 0.05).abs() < 1e-12); // the corner in the floor
/// assert!((high.separation - (2.0 * s - 0.05)).abs() < 1e-12); // the other, speculative
/// assert_eq!(deep.id.a, Feature::Edge(2)); // the floor's top edge...
/// assert!(matches!(deep.id.b, Feature::Vertex(_))); // ...under a corner of the crate
/// ```
pub fn contact_manifold<T: Real>(
    a: &dyn Shape<T>,
    pose_a: &Isometry2<T>,
    b: &dyn Shape<T>,
    pose_b: &Isometry2<T>,
    prediction: T,
) -> Result<Option<Manifold<T>>, DispatchError> {
    builtin_query::<ManifoldQuery, T>(a, pose_a, b, pose_b, prediction)
}

/// The Euclidean distance between two closed shapes: 0 exactly when they
/// touch or overlap ([`intersects`] is `true`).
///
/// # Errors
/// As [`DispatchTable::closest_points`].
///
/// ```
/// use nalgebra::{Isometry2, Point2};
/// use shape::{Capsule, Circle};
/// let pill = Capsule::new(Point2::new(-2.0, 0.0), Point2::new(2.0, 0.0), 1.0).unwrap();
/// let ball = Circle::new(1.0).unwrap();
/// let d = narrowphase::distance(&pill, &Isometry2::identity(), &ball, &Isometry2::translation(1.0, 5.0));
/// assert_eq!(d, Ok(3.0));
/// ```
pub fn distance<T: Real>(
    a: &dyn Shape<T>,
    pose_a: &Isometry2<T>,
    b: &dyn Shape<T>,
    pose_b: &Isometry2<T>,
) -> Result<T, DispatchError> {
    // The scalar form of the closest points (`queries::DistanceQuery`): the
    // same kernels, nothing mapped to the world; a composite takes the
    // least of its pieces' distances, user kinds the closest-points
    // fallback's distance.
    if let (Some(x), Some(y)) = (a.as_builtin(), b.as_builtin()) {
        return dispatch::builtin_distance(x, pose_a, y, pose_b, ());
    }
    builtin_query::<queries::DistanceQuery, T>(a, pose_a, b, pose_b, ())
}

/// The signed distance between two shapes: the distance when they are
/// apart, zero when they touch, and minus the penetration depth (exactly
/// [`contact`]'s depth) when they overlap.
///
/// # Errors
/// As [`DispatchTable::closest_points`].
///
/// ```
/// use nalgebra::Isometry2;
/// use shape::Circle;
/// let c = Circle::new(1.0).unwrap();
/// let o = Isometry2::identity();
/// assert_eq!(narrowphase::signed_distance(&c, &o, &c, &Isometry2::translation(1.5, 0.0)), Ok(-0.5));
/// assert_eq!(narrowphase::signed_distance(&c, &o, &c, &Isometry2::translation(3.0, 0.0)), Ok(1.0));
/// ```
pub fn signed_distance<T: Real>(
    a: &dyn Shape<T>,
    pose_a: &Isometry2<T>,
    b: &dyn Shape<T>,
    pose_b: &Isometry2<T>,
) -> Result<T, DispatchError> {
    // Zero exactly when they intersect (an apart distance is at least the
    // smallest positive number).
    let d = distance(a, pose_a, b, pose_b)?;
    if d > T::zero() {
        return Ok(d);
    }
    Ok(-contact(a, pose_a, b, pose_b)?.map_or(T::zero(), |c| c.depth))
}

/// The first time in `[0, max_toi]` at which A, moving at `vel_a`, and B,
/// moving at `vel_b` (world frame, distance per unit of time, no rotation),
/// touch: the time, the unit normal from A to B and a witness point on each
/// shape at that time (world frame); `None` when they do not touch by
/// `max_toi`. Shapes that touch at time 0 are a hit at time 0 with status
/// [`ShapeCastStatus::Penetrating`] (see [`ShapeCastOptions`] to ignore a
/// start in contact). The contract is in `docs/conventions.md` ("Shape
/// casts").
///
/// # Errors
/// [`DispatchError::NonFiniteVelocity`], [`DispatchError::InvalidMaxToi`]
/// (NaN or negative; `+∞` is allowed), and as [`DispatchTable::intersects`].
///
/// ```
/// use nalgebra::{Isometry2, Point2, Vector2};
/// use narrowphase::{ShapeCastOptions, ShapeCastStatus};
/// use shape::{Circle, Obb};
///
/// // A ball 10 units left of a wall, flying right at 4 units per second.
/// let ball = Circle::<f64>::new(0.5).unwrap();
/// let wall = Obb::new(Vector2::new(0.5, 5.0)).unwrap();
/// let hit = narrowphase::cast_shapes(
///     &ball, &Isometry2::translation(-10.0, 0.0), &Vector2::new(4.0, 0.0),
///     &wall, &Isometry2::identity(), &Vector2::zeros(),
///     10.0, ShapeCastOptions::default(),
/// ).unwrap().unwrap();
/// assert!((hit.toi - 2.25).abs() < 1e-12); // 9 units of gap at 4 per second
/// assert_eq!(hit.status, ShapeCastStatus::Hit);
/// assert!((hit.normal.x - 1.0).abs() < 1e-12); // from the ball to the wall
/// assert!((hit.point_b - Point2::new(-0.5, 0.0)).norm() < 1e-9);
/// ```
#[allow(clippy::too_many_arguments)] // two shapes, two poses, two velocities
pub fn cast_shapes<T: Real>(
    a: &dyn Shape<T>,
    pose_a: &Isometry2<T>,
    vel_a: &Vector2<T>,
    b: &dyn Shape<T>,
    pose_b: &Isometry2<T>,
    vel_b: &Vector2<T>,
    max_toi: T,
    options: ShapeCastOptions,
) -> Result<Option<ShapeCastHit<T>>, DispatchError> {
    let args = ShapeCastArgs {
        vel_a: *vel_a,
        vel_b: *vel_b,
        max_toi,
        options,
    };
    builtin_query::<ShapeCastQuery, T>(a, pose_a, b, pose_b, args)
}

#[inline]
fn builtin_query<Q: PairQuery<T, Dim2>, T: Real>(
    a: &dyn Shape<T>,
    pose_a: &Isometry2<T>,
    b: &dyn Shape<T>,
    pose_b: &Isometry2<T>,
    args: Q::Args,
) -> Result<Q::Answer, DispatchError> {
    crate::table::query_with::<T, Dim2, Q>(
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
