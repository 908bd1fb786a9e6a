//! World queries beyond overlap: the objects within a distance of a shape.
//!
//! The contract, shared by every query here:
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
//! - answers are exact up to the narrow phase's rounding: every object the
//!   narrow phase would report is reported (the grid's margins are
//!   conservative), and ties are broken by handle;
//! - an object the narrow phase cannot answer (a user shape with no kernel
//!   and no fallback) fails the query with
//!   [`WorldError::Narrowphase`] naming it (the one with the smallest handle
//!   among those the query had to ask), rather than an answer silently
//!   without it.

use shape::Real;

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
                &o.shape,
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
}
