//! World queries beyond overlap: the objects within a distance of a shape
//! ([`World::query_distance`]) and the object nearest a point
//! ([`World::project_point`]); ray casts are in `world/rays.rs`. The
//! contract of every world query (`docs/conventions.md`, "World queries"):
//!
//! - a query takes `&self`: the world is never changed by it;
//! - bad input (a NaN or infinite ray, a zero direction, a NaN or negative
//!   `max_toi` or `max_distance`, a NaN or infinite point or pose) is a typed
//!   [`WorldError`], checked before anything else;
//! - a [`QueryFilter`] selects the objects looked at: its `groups` are
//!   tested against each object's [`Filter`] with [`Filter::accepts`] (both
//!   ways, as between two objects), its `exclude` handle is skipped, and
//!   `solid` says how rays and point projections treat a start inside a
//!   shape;
//! - answers are the narrow phase's, object by object, and equal brute force
//!   over every object: the grid's part is conservative (it may hand out a
//!   few objects too many, never one the narrow phase would report within
//!   rounding of its bounding box); ties are broken by handle;
//! - an object the narrow phase cannot answer (a user shape with no kernel
//!   and no fallback) fails the query with [`WorldError::Narrowphase`] when
//!   it could change the answer, rather than an answer silently without it:
//!   for [`World::query_distance`] any such object within reach (the
//!   smallest handle), for [`World::project_point`] one whose bounding box
//!   is no farther than the nearest distance found (the nearest such box,
//!   ties by handle), for ray casts one the ray reaches before its first hit
//!   is certain (`world/rays.rs`).
//!
//! [`World::project_point`] searches rings of cells outward from the
//! point's cell ([`Grid::walk_rings`](crate::Grid::walk_rings)), asks the
//! narrow phase's `project_point` about every object whose box may be
//! within the bound, and lowers the bound to the nearest distance found plus
//! a slack, `64 ε (d + ‖p‖∞)`: the narrow phase works in the shape's frame
//! and maps the projection back (`c + R q`), so its distance may come out
//! below the exact one by a few `ε (d + ‖c‖)`, with `‖c‖ ≤ ‖p‖ + d +
//! extent`; the slack keeps every object whose computed distance is at most
//! the nearest (and every tie, for the handle order) within the search.

use nalgebra::Point;
use num_traits::Float;
use shape::{PointProjection, Real};

use super::{Filter, Handle, World, WorldError};
use crate::grid::is_limit;
use crate::space::{Dim, Space, rounding_margin};

/// Which objects a world query looks at, and how rays and projections treat
/// shapes (Box2D's query filter, with parry's `solid` flag).
///
/// - `groups`: tested against each object's [`Filter`] with
///   [`Filter::accepts`], exactly as two objects test each other: an object is
///   looked at when its membership shares a bit with `groups.mask` and its
///   mask shares a bit with `groups.membership`;
/// - `exclude`: an object never looked at (the caster itself);
/// - `solid`: for ray casts and point projections, whether a shape is solid
///   (a ray starting inside hits at time 0, a point inside projects to
///   itself) or hollow (the ray hits where it leaves, the point projects to
///   the boundary). Distances between shapes ignore it.
///
/// The default looks at every object, excludes none, and treats shapes as
/// solid.
///
/// ```
/// use broadphase::{Filter, QueryFilter};
/// const WALLS: u32 = 1;
/// const ENEMIES: u32 = 2;
/// // Line of sight: only walls block it.
/// let sight = QueryFilter::default().with_groups(Filter::new(u32::MAX, WALLS));
/// assert!(sight.groups.accepts(&Filter::new(WALLS, u32::MAX)));
/// assert!(!sight.groups.accepts(&Filter::new(ENEMIES, u32::MAX)));
/// let hollow = QueryFilter::default().with_solid(false);
/// assert!(!hollow.solid && QueryFilter::default().solid);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct QueryFilter {
    /// Groups tested against each object's filter (both ways).
    pub groups: Filter,
    /// An object to skip.
    pub exclude: Option<Handle>,
    /// Whether shapes are solid for rays and point projections.
    pub solid: bool,
}

impl Default for QueryFilter {
    fn default() -> Self {
        Self::new()
    }
}

impl QueryFilter {
    /// Every object, none excluded, solid shapes.
    #[must_use]
    pub const fn new() -> Self {
        Self {
            groups: Filter::ALL,
            exclude: None,
            solid: true,
        }
    }

    /// The same filter with other groups.
    #[must_use]
    pub const fn with_groups(self, groups: Filter) -> Self {
        Self { groups, ..self }
    }

    /// The same filter, also skipping `handle`.
    #[must_use]
    pub const fn excluding(self, handle: Handle) -> Self {
        Self {
            exclude: Some(handle),
            ..self
        }
    }

    /// The same filter with solid (`true`) or hollow (`false`) shapes.
    #[must_use]
    pub const fn with_solid(self, solid: bool) -> Self {
        Self { solid, ..self }
    }

    /// Whether the object `handle` with collision filter `filter` is looked
    /// at.
    #[must_use]
    pub fn accepts(&self, handle: Handle, filter: &Filter) -> bool {
        self.exclude != Some(handle) && self.groups.accepts(filter)
    }
}

impl<T: Real, const D: usize> World<T, D>
where
    Dim<D>: Space<T, D>,
{
    /// Every object within `max_distance` of `shape` placed at `pose`, with
    /// its distance (0 when they touch or overlap), sorted by handle. Through
    /// the grid (the shape's box grown by `max_distance`) and the narrow
    /// phase's closest points; `max_distance` may be `+∞` (every object).
    /// The filter's `solid` flag plays no part.
    ///
    /// # Errors
    /// [`WorldError::InvalidMaxDistance`] for a NaN or negative
    /// `max_distance`; [`WorldError::NonFinitePose`] and
    /// [`WorldError::NonFiniteBounds`] for the query shape;
    /// [`WorldError::Narrowphase`] for the first object (by handle) the narrow
    /// phase cannot answer.
    ///
    /// ```
    /// use nalgebra::{Isometry2, Vector2};
    /// use broadphase::{QueryFilter, World};
    /// use shape::{Circle, Obb};
    ///
    /// let mut world = World::<f64>::new(2.0).unwrap();
    /// let wall = world.insert(Obb::new(Vector2::new(1.0, 5.0)).unwrap(), Isometry2::identity(), Default::default()).unwrap();
    /// let coin = world.insert(Circle::new(0.5).unwrap(), Isometry2::translation(10.0, 0.0), Default::default()).unwrap();
    /// let probe = Circle::new(1.0).unwrap();
    /// let near = world.query_distance(&probe, &Isometry2::translation(4.0, 0.0), 3.0, QueryFilter::default()).unwrap();
    /// assert_eq!(near, vec![(wall, 2.0)]); // the coin is 4.5 away
    /// let all = world.query_distance(&probe, &Isometry2::translation(4.0, 0.0), f64::INFINITY, QueryFilter::default()).unwrap();
    /// assert_eq!(all, vec![(wall, 2.0), (coin, 4.5)]);
    /// ```
    pub fn query_distance(
        &self,
        shape: &<Dim<D> as Space<T, D>>::Shape,
        pose: &<Dim<D> as Space<T, D>>::Pose,
        max_distance: T,
        filter: QueryFilter,
    ) -> Result<Vec<(Handle, T)>, WorldError> {
        if !is_limit(max_distance) {
            return Err(WorldError::InvalidMaxDistance);
        }
        let bounds = Self::checked_bounds(shape, pose)?;
        // The shape's box grown by max_distance along every axis (an L∞ bound
        // on the Euclidean one), widened by the rounding margin so that the
        // rounding of the sums never cuts off an object at the limit.
        let mut region = bounds;
        for i in 0..D {
            region.min[i] = bounds.min[i] - max_distance;
            region.max[i] = bounds.max[i] + max_distance;
        }
        let region = rounding_margin(region);
        let mut ids = Vec::new();
        self.grid.query_region(&region, &mut ids);
        let mut out = Vec::new();
        for id in ids {
            let handle = self.handle(id);
            let o = self.object(id);
            if !filter.accepts(handle, &o.filter) {
                continue;
            }
            let cp = <Dim<D> as Space<T, D>>::closest_points(
                &self.table,
                shape,
                pose,
                o.shape(),
                &o.pose,
                max_distance,
            )
            .map_err(|error| WorldError::Narrowphase { handle, error })?;
            if let Some(d) = cp.distance() {
                out.push((handle, d));
            }
        }
        Ok(out)
    }

    /// The object nearest `point` among those `filter` accepts, within
    /// `max_distance` (which may be `+∞`), and the point of its shape nearest
    /// `point` (the narrow phase's `project_point`, with `filter.solid`);
    /// ties by handle. Equal to brute force over every object.
    ///
    /// **The distance** from `point` to an object is `0` when `point` lies in
    /// the closed shape (`is_inside`), solid or hollow, and otherwise the
    /// Euclidean length of `projection.point − point` (computed scaled by the
    /// largest component, so it neither overflows nor underflows). For a
    /// hollow query (`filter.solid == false`) of a point inside a shape the
    /// distance is therefore `0` while `projection.point` is the nearest
    /// point of the shape's boundary, as the narrow phase answers it: among
    /// several shapes holding the point, the smallest handle is the answer.
    ///
    /// Through the ring search ([`Grid::walk_rings`](crate::Grid::walk_rings)):
    /// it costs the rings of cells out to the nearest object, whatever the
    /// world's size; no allocation.
    ///
    /// # Errors
    /// [`WorldError::NonFinitePoint`] for a NaN or infinite coordinate, then
    /// [`WorldError::InvalidMaxDistance`] for a NaN or negative
    /// `max_distance`; [`WorldError::Narrowphase`] when an object the narrow
    /// phase cannot answer could be the nearest (its bounding box is no
    /// farther than the nearest distance found): among several, the nearest
    /// by bounding box, ties by handle. The world is never changed.
    ///
    /// ```
    /// use nalgebra::{Isometry2, Point2, Vector2};
    /// use broadphase::{QueryFilter, World};
    /// use shape::{Circle, Obb};
    ///
    /// let mut world = World::<f64>::new(2.0).unwrap();
    /// let wall = world.insert(Obb::new(Vector2::new(1.0, 5.0)).unwrap(), Isometry2::identity(), Default::default()).unwrap();
    /// let coin = world.insert(Circle::new(0.5).unwrap(), Isometry2::translation(6.0, 0.0), Default::default()).unwrap();
    /// let f = QueryFilter::default();
    /// let (h, p) = world.project_point(&Point2::new(4.0, 0.0), f64::INFINITY, f).unwrap().unwrap();
    /// assert_eq!((h, p.point, p.is_inside), (coin, Point2::new(5.5, 0.0), false));
    /// assert_eq!(world.project_point(&Point2::new(4.0, 0.0), 1.0, f), Ok(None));
    /// // Inside the wall: distance 0; hollow, the nearest boundary point.
    /// let (h, p) = world.project_point(&Point2::new(0.5, 1.0), 1.0, f.with_solid(false)).unwrap().unwrap();
    /// assert_eq!((h, p.point, p.is_inside), (wall, Point2::new(1.0, 1.0), true));
    /// ```
    pub fn project_point(
        &self,
        point: &Point<T, D>,
        max_distance: T,
        filter: QueryFilter,
    ) -> Result<Option<(Handle, PointProjection<T, D>)>, WorldError> {
        if !point.iter().all(|x| Float::is_finite(*x)) {
            return Err(WorldError::NonFinitePoint);
        }
        if !is_limit(max_distance) {
            return Err(WorldError::InvalidMaxDistance);
        }
        // The slack: the narrow phase computes the projection in the shape's
        // frame and maps it back (`c + R q`), so the computed distance may be
        // below the exact one by a few `ε (d + ‖c‖)`, with
        // `‖c‖ ≤ ‖p‖ + d + extent`; the ring search hands out every object
        // whose box lies within its bound, so a bound of
        // `d + 64 ε (d + ‖p‖∞)` reaches every object whose computed distance
        // is `≤ d` (and every tie, for the handle order).
        let scale = point.coords.amax();
        let after = |d: T| d + T::lit(64.0) * T::epsilon() * (d + scale);
        let limit = after(max_distance);
        // (distance, id, projection) of the nearest so far.
        let mut best: Option<(T, u32, PointProjection<T, D>)> = None;
        // (box lower bound, id, error) of the nearest object that failed.
        let mut failed: Option<(T, u32, narrowphase::DispatchError)> = None;
        self.grid.walk_rings(point, limit, |id, lower| {
            let handle = self.handle(id);
            let o = self.object(id);
            if filter.accepts(handle, &o.filter) {
                match <Dim<D> as Space<T, D>>::project_point(
                    o.shape(),
                    &o.pose,
                    point,
                    filter.solid,
                ) {
                    Ok(p) => {
                        let d = if p.is_inside {
                            T::zero()
                        } else {
                            distance(&p.point, point)
                        };
                        if d <= max_distance
                            && best.is_none_or(|b| d < b.0 || (d == b.0 && id < b.1))
                        {
                            best = Some((d, id, p));
                        }
                    }
                    Err(e) => {
                        if failed
                            .as_ref()
                            .is_none_or(|f| lower < f.0 || (lower == f.0 && id < f.1))
                        {
                            failed = Some((lower, id, e));
                        }
                    }
                }
            }
            best.map_or(limit, |b| after(b.0))
        });
        let bound = best.map_or(limit, |b| after(b.0));
        if let Some((lower, id, error)) = failed {
            if lower <= bound {
                return Err(WorldError::Narrowphase {
                    handle: self.handle(id),
                    error,
                });
            }
        }
        Ok(best.map(|(_, id, p)| (self.handle(id), p)))
    }
}

/// `|a − b|`, scaled by the largest component first (no overflow or
/// underflow of the squares).
#[inline]
fn distance<T: Real, const D: usize>(a: &Point<T, D>, b: &Point<T, D>) -> T {
    let v = a - b;
    let m = v.amax();
    if m == T::zero() || !Float::is_finite(m) {
        return m;
    }
    (v / m).norm() * m
}
