//! The pair queries the table serves, as marker types for
//! [`Table::query`](crate::table::Table::query) and
//! [`Table::register_query`](crate::table::Table::register_query).
//!
//! Each implements [`PairQuery`](crate::table::PairQuery) once per dimension,
//! beside that dimension's register block (`dispatch.rs` for 2D,
//! `dim3/dispatch3.rs` for 3D): what its kernels take and answer, how an
//! answer is mirrored and moved to the world, which built-in kernel answers
//! each pair and which fallback answers the rest.
//!
//! | query | slot | arguments | answer (2D) | fallback (2D) |
//! |---|---|---|---|---|
//! | [`IntersectsQuery`] | 0 | none | `bool` | SAT, else GJK |
//! | [`ContactQuery`] | 1 | none | `Option<Contact>` | SAT, else GJK/EPA |
//! | [`ClosestPointsQuery`] | 2 | `max_distance` | [`ClosestPoints`](crate::ClosestPoints) | the boolean fallback, then GJK distance |
//! | [`ShapeCastQuery`] | 3 | [`ShapeCastArgs`](crate::cast::ShapeCastArgs) (velocities, `max_toi`, options) | `Option<`[`ShapeCastHit`](crate::cast::ShapeCastHit)`>` | conservative advancement on the closest-points fallback |
//! | [`ManifoldQuery`] | 4 | `prediction` (`≥ 0`, may be `+∞`) | `Option<`[`Manifold`](crate::manifold::Manifold)`>` | one point from the contact or closest-points fallback |
//!
//! In 3D (`dim3/dispatch3.rs`) the answers are the 3D types
//! ([`Manifold3`](crate::manifold::Manifold3) for the manifold) and no query
//! has a fallback: a pair without a kernel is unsupported.
//!
//! One more query is internal: `DistanceQuery` (slot 5), the scalar
//! distance behind [`distance`](crate::distance) and
//! [`signed_distance`](crate::signed_distance) for two built-in shapes. It
//! is the closest-points query with nothing to map to the world (see its
//! notes); a composite answers it with the least distance of its pieces
//! (`composite::distance`), and user kinds with the closest-points
//! fallback's distance.
//!
//! Slots 6 and up are free for the next queries.

/// Whether two shapes intersect (touching counts): `bool`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IntersectsQuery;

/// The contact of two intersecting shapes: `Option<Contact>` (`Some` exactly
/// when they intersect).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ContactQuery;

/// The closest points of two shapes within a maximum distance:
/// [`ClosestPoints`](crate::ClosestPoints) (`Intersecting` exactly when they
/// intersect). Its argument is the maximum distance (`≥ 0`, may be `+∞`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClosestPointsQuery;

/// The first time two shapes moving at constant velocities touch:
/// `Option<ShapeCastHit>` (`None` when they do not touch by `max_toi`). Its
/// argument is [`ShapeCastArgs`](crate::cast::ShapeCastArgs); a kernel sees A
/// at rest and B moving at the relative velocity, in A's frame (see
/// [`cast`](crate::cast)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShapeCastQuery;

/// The contact manifold of two shapes within a `prediction` distance:
/// `Option<Manifold>` (`None` when they are farther apart than
/// `prediction`). Its argument is the prediction (`≥ 0`, may be `+∞`); see
/// [`manifold`](crate::manifold).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ManifoldQuery;

/// The distance of two shapes, `T` (`0` when they intersect): exactly
/// [`ClosestPointsQuery`]'s distance with `max_distance = +∞`, from the same
/// kernels in the same (canonical) order, with nothing mapped to the world
/// (a distance is the same in every frame) and nothing flipped (the same
/// from either shape). Internal: [`distance`](crate::distance) and
/// [`signed_distance`](crate::signed_distance) use it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct DistanceQuery;

/// The slots of the queries above, in one place so that no two share one.
pub(crate) mod slot {
    /// [`IntersectsQuery`](super::IntersectsQuery).
    pub const INTERSECTS: usize = 0;
    /// [`ContactQuery`](super::ContactQuery).
    pub const CONTACT: usize = 1;
    /// [`ClosestPointsQuery`](super::ClosestPointsQuery).
    pub const CLOSEST_POINTS: usize = 2;
    /// [`ShapeCastQuery`](super::ShapeCastQuery).
    pub const SHAPE_CAST: usize = 3;
    /// [`ManifoldQuery`](super::ManifoldQuery).
    pub const MANIFOLD: usize = 4;
    /// [`DistanceQuery`](super::DistanceQuery) (internal: never registered).
    pub const DISTANCE: usize = 5;
}
