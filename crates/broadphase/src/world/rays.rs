//! World ray casts: the first hit over every object a filter accepts
//! ([`World::cast_ray`]), every hit in order ([`World::cast_ray_with`], which
//! can stop early, and [`World::cast_ray_all`]).
//!
//! Frame: world coordinates; times in units of the ray's direction, as the
//! narrow phase's (`docs/conventions.md`, "Ray casts").
//!
//! Method:
//!
//! 1. **Check the input** (the ray by [`Ray::is_valid`], then `max_toi`):
//!    a typed error before anything is looked at.
//! 2. **Walk the grid** ([`Grid::walk_ray`](crate::Grid::walk_ray)): every
//!    object whose cells the ray crosses, each once, in nondecreasing order
//!    of its *walk entry* `e` (a time at or before the first time the exact
//!    ray can be in one of the object's cells).
//! 3. **Test the object's box**: the slab time `t_in` at which the ray
//!    enters the object's stored bounding box grown by
//!    `m = 32 ε (‖o‖∞ + ‖box‖∞)` (`Caster::box_entry`, conservative by a few ulps);
//!    the object is skipped if the ray misses it or enters it after the
//!    bound. This spares the narrow phase the objects that only share a cell
//!    with the ray. Then the filter.
//! 4. **Ask the narrow phase** (`narrowphase::cast_ray`, `cast_ray3`) with
//!    the caller's `max_toi` and `solid`: the very call brute force makes,
//!    so every hit is the brute-force number bit for bit. A hit at `t` is
//!    kept if it agrees with where the ray can be: `e ≤ reach(t)` and
//!    `t_in ≤ widen(reach(t))` (below, "Hits off the ray").
//! 5. **Stop** once the walk's next entry is later than the bound:
//!    `reach(best)` (`best`: the earliest hit so far, ties by handle), or
//!    `reach(max_toi)` before any hit. For the ordered forms, a hit at `t`
//!    is held in a small heap and handed out once the walk's entry passes
//!    `reach(t)`: an object met later cannot then have a kept hit at or
//!    before `t`, so hits come out in order of (time, handle).
//!
//! **The slack.** An object `X` whose narrow-phase hit `t'` is at or before
//! the best must be tested, or the answer (and the tie by handle) would
//! differ from brute force. The walk reaches `X` at an entry at most the
//! exact time `t` at which the ray enters `X`'s cells, hence its box, and
//! the box test passes it once its computed box entry is at most
//! `widen(bound)` (`widen(t) = t (1 + 4 ε) + MIN_POSITIVE` covers the
//! computed slab times, `Caster::box_entry`); so it suffices that
//! `t ≤ t' + slack(t')`. The narrow phase computes `t'` in `X`'s frame: it
//! moves the origin there (`R⁻¹ (o − c)`: a rounding error of a few
//! `ε ‖o − c‖` in position), solves there (a few `ε` relative to the local
//! numbers), and the time inherits the position error divided by the ray's
//! speed across the boundary:
//!
//! ```text
//! |t' − t_exact| ≲ 8 ε (t' + ‖o − c‖ / ‖d‖)          (meeting the boundary head-on)
//! ‖c‖ ≤ ‖o‖ + t' ‖d‖ + extent    ⇒    ‖o − c‖ / ‖d‖ ≤ 2 ‖o‖ / ‖d‖ + t' + extent / ‖d‖
//! ```
//!
//! and the shape lies inside its stored box (widened by the rounding margin
//! of [`Space::bounding_box`]), so `t ≤ t_exact`. With max-norms
//! (`‖o‖₂ ≤ √D ‖o‖∞`, `‖d‖₂ ≥ ‖d‖∞`) we take
//!
//! ```text
//! slack(t) = 64 ε (t + ‖o‖∞ / ‖d‖∞),        reach(t) = widen(t + slack(t))
//! ```
//!
//! (at least four times the estimate for a shape no larger than the distance
//! travelled). It costs nothing measurable: it reaches only objects whose
//! cells the ray enters within a few float spacings of the best hit.
//!
//! **The box margin** `m` answers the same rounding in space: the narrow
//! phase's hit is the exact hit of a ray moved by a few `ε (‖o‖ + ‖c‖)`, so
//! a ray passing that close outside a shape's box may be reported hitting
//! it (a graze decided by rounding, typical of f32 rays from 1e5 away);
//! `32 ε (‖o‖∞ + ‖box‖∞)` covers it, and the walk's cell margins (at least
//! `16 ε (|boundary| + |o|)` per axis) and the cells' own extent cover the
//! same band along the axes the ray moves on.
//!
//! **Hits off the ray.** A narrow-phase answer can also be wrong beyond
//! rounding: an f32 sliver triangle seen from 1e5 away is reported hit up
//! to units away from its box, because its edge crossings are
//! ill-conditioned there; a user's own ray cast may answer anything. The
//! world keeps a hit at `t` only if the walk's entry and the box entry allow
//! it (`e ≤ reach(t)`, `t_in ≤ widen(reach(t))`): a hit claimed before the
//! ray can reach the object is not reported, which keeps the order of
//! hits. So the answers are:
//!
//! - equal to brute force over every object through the same narrow phase
//!   (first hit, ties by handle; every hit in order) whenever every
//!   narrow-phase hit lies within the rounding above of its object's box,
//!   which is every answer of the built-in shapes in f64 and in f32 up to
//!   about 1e4 (tested on random worlds, `tests/suite/queries.rs`);
//! - otherwise brute force's hits in order, without some of the hits off
//!   the ray (which of them depends on the cells).
//!
//! **Errors.** An object the narrow phase cannot answer fails the query if
//! it could have a kept hit at or before the first hit: the walk reaches it
//! by the final bound, and its box entry is at most `widen(bound)`. Among
//! several, the earliest box entry, ties by handle. [`World::cast_ray_with`]
//! first hands out the hits certainly before every such object (no kept hit
//! of it could be at or before them).

use core::cmp::Ordering;
use core::ops::ControlFlow;

use num_traits::Float;
use shape::{BoundingBox, Ray, RayHit, Real};

use super::{Handle, QueryFilter, World, WorldError};
use crate::grid::is_limit;
use crate::space::{Dim, Space};

/// `slack(t)` of the module notes, for one ray.
#[derive(Debug, Clone, Copy)]
struct Slack<T> {
    /// `‖o‖∞ / ‖d‖∞`: the time the ray takes to travel the origin's size.
    scale: T,
}

impl<T: Real> Slack<T> {
    fn new<const D: usize>(ray: &Ray<T, D>) -> Self {
        Self {
            scale: ray.origin.coords.amax() / ray.dir.amax(),
        }
    }

    /// `t + slack(t)` (`+∞` stays `+∞`; NaN stays NaN).
    #[inline]
    fn after(self, t: T) -> T {
        t + T::lit(64.0) * T::epsilon() * (t + self.scale)
    }

    /// `widen(t + slack(t))`: the latest walk entry of an object whose hit
    /// at `t` the world accepts, and the walk's bound past a hit at `t`.
    #[inline]
    fn reach(self, t: T) -> T {
        widen(self.after(t))
    }
}

/// Orders times, NaN last (a user's own ray cast may answer NaN; the
/// built-in ones never do).
#[inline]
fn order<T: Real>(a: T, b: T) -> Ordering {
    a.partial_cmp(&b)
        .unwrap_or_else(|| a.is_nan().cmp(&b.is_nan()))
}

/// A hit of object `id`.
#[derive(Debug, Clone, Copy)]
struct Found<T: Real, const D: usize> {
    id: u32,
    hit: RayHit<T, D>,
}

impl<T: Real, const D: usize> Found<T, D> {
    /// Whether `self` comes before `other`: by time, then by id (the handle's
    /// order within a world).
    #[inline]
    fn before(&self, other: &Self) -> bool {
        order(self.hit.toi, other.hit.toi).then(self.id.cmp(&other.id)) == Ordering::Less
    }
}

/// Pending hits a heap holds without allocating.
const INLINE_HITS: usize = 16;

/// Hits held until they are certain to come next: a binary min-heap by
/// (time, id), its first [`INLINE_HITS`] entries kept inline so that a ray
/// with few pending hits allocates nothing.
struct HitHeap<T: Real, const D: usize> {
    /// Filled on the first push (with copies of that entry).
    inline: Option<[Found<T, D>; INLINE_HITS]>,
    len: usize,
    /// Every entry, once more than `INLINE` are held at once.
    spill: Vec<Found<T, D>>,
}

impl<T: Real, const D: usize> HitHeap<T, D> {
    fn new() -> Self {
        Self {
            inline: None,
            len: 0,
            spill: Vec::new(),
        }
    }

    fn entries(&mut self) -> &mut [Found<T, D>] {
        if !self.spill.is_empty() {
            &mut self.spill
        } else if let Some(a) = self.inline.as_mut() {
            &mut a[..self.len]
        } else {
            &mut []
        }
    }

    fn peek(&self) -> Option<&Found<T, D>> {
        if self.spill.is_empty() {
            self.inline.as_ref().and_then(|a| a[..self.len].first())
        } else {
            self.spill.first()
        }
    }

    fn push(&mut self, e: Found<T, D>) {
        if self.spill.is_empty() && self.len < INLINE_HITS {
            let a = self.inline.get_or_insert([e; INLINE_HITS]);
            a[self.len] = e;
        } else {
            if self.spill.is_empty() {
                if let Some(a) = &self.inline {
                    self.spill.extend_from_slice(&a[..self.len]);
                }
            }
            self.spill.push(e);
        }
        self.len += 1;
        // Sift up.
        let h = self.entries();
        let mut i = h.len() - 1;
        while i > 0 {
            let parent = (i - 1) / 2;
            if !h[i].before(&h[parent]) {
                break;
            }
            h.swap(i, parent);
            i = parent;
        }
    }

    fn pop(&mut self) -> Option<Found<T, D>> {
        let h = self.entries();
        let n = h.len();
        if n == 0 {
            return None;
        }
        h.swap(0, n - 1);
        let top = h[n - 1];
        // Sift down over the first n − 1.
        let h = &mut h[..n - 1];
        let mut i = 0;
        loop {
            let (l, r) = (2 * i + 1, 2 * i + 2);
            let mut m = i;
            if l < h.len() && h[l].before(&h[m]) {
                m = l;
            }
            if r < h.len() && h[r].before(&h[m]) {
                m = r;
            }
            if m == i {
                break;
            }
            h.swap(i, m);
            i = m;
        }
        if !self.spill.is_empty() {
            self.spill.pop();
        }
        self.len -= 1;
        Some(top)
    }
}

/// The objects met by the walk that the narrow phase could not answer
/// (module notes, "Errors"). Empty, it holds no allocation.
struct Failures<T: Real> {
    /// `(box entry, walk entry, id, error)`, in walk order.
    list: Vec<(T, T, u32, narrowphase::DispatchError)>,
}

impl<T: Real> Failures<T> {
    fn new() -> Self {
        Self { list: Vec::new() }
    }

    #[cold]
    fn push(&mut self, t_in: T, entry: T, id: u32, e: narrowphase::DispatchError) {
        self.list.push((t_in, entry, id, e));
    }

    /// Whether a hit whose `reach` is `r` is certainly before every failed
    /// object: none of them could have had a hit the world accepts at or
    /// before it (one needs its walk entry at most `r` and its box entry at
    /// most `widen(r)`).
    #[inline]
    fn before_all(&self, r: T) -> bool {
        self.list.iter().all(|f| r < f.1 || widen(r) < f.0)
    }

    /// The failure to report once the walk's bound is `bound`: among the
    /// objects the walk met no later than `bound` whose box the ray enters
    /// by `widen(bound)` (they could hit first), the earliest box entry,
    /// ties by handle.
    fn reported(self, bound: T) -> Option<(u32, narrowphase::DispatchError)> {
        self.list
            .into_iter()
            .filter(|f| f.1 <= bound && f.0 <= widen(bound))
            .min_by(|a, b| order(a.0, b.0).then(a.2.cmp(&b.2)))
            .map(|f| (f.2, f.3))
    }
}

/// `t` widened by the rounding of a computed box entry: `t (1 + 4 ε)` plus
/// the smallest normal number (`+∞` stays `+∞`).
#[inline]
fn widen<T: Real>(t: T) -> T {
    t + T::lit(4.0) * T::epsilon() * t + T::min_positive_value()
}

/// One ray cast's fixed numbers: the ray, the caller's `max_toi` and filter,
/// the slack, and what the box test needs.
struct Caster<'r, T: Real, const D: usize> {
    ray: &'r Ray<T, D>,
    max_toi: T,
    filter: QueryFilter,
    slack: Slack<T>,
    /// `‖o‖∞`.
    origin_norm: T,
    /// `1 / d` where it is a normal number, else 0 (then a slab time is
    /// divided by `d`).
    inv: [T; D],
    /// `32 ε`.
    k32: T,
}

impl<'r, T: Real, const D: usize> Caster<'r, T, D> {
    fn new(ray: &'r Ray<T, D>, max_toi: T, filter: QueryFilter) -> Self {
        Self {
            ray,
            max_toi,
            filter,
            slack: Slack::new(ray),
            origin_norm: ray.origin.coords.amax(),
            inv: core::array::from_fn(|j| {
                let r = T::one() / ray.dir[j];
                if Float::is_normal(r) { r } else { T::zero() }
            }),
            k32: T::lit(32.0) * T::epsilon(),
        }
    }

    /// The margin by which [`box_entry`](Self::box_entry) grows an object's
    /// box: `32 ε (‖o‖∞ + ‖b‖∞)` (module notes, "The box margin"). Box
    /// coordinates are finite (plain comparisons stand for `max`).
    #[inline]
    fn box_margin(&self, b: &BoundingBox<T, D>) -> T {
        let mut size = T::zero();
        for j in 0..D {
            for x in [Float::abs(b.min[j]), Float::abs(b.max[j])] {
                if x > size {
                    size = x;
                }
            }
        }
        self.k32 * (self.origin_norm + size)
    }

    /// The time at which the ray enters the closed box `b` grown by `m` on
    /// every side (0 if it starts inside), by the slab method, or `None`
    /// when it misses; conservative: a box the exact ray meets is never
    /// missed.
    ///
    /// Each slab time `(b ∓ m − o) · (1 / d)` is computed with one
    /// subtraction and one product by the rounded reciprocal (or one
    /// division, where the reciprocal is not a normal number); the grown
    /// bound's own rounding is far below `m`. The time's sign is exact (a
    /// rounded difference keeps its sign) and its value within `3u`
    /// relative of the exact one, or within the smallest normal number once
    /// it underflows; so an exact overlap `t_in ≤ t_out` shows as
    /// `t_in ≤ widen(t_out)` (`(1 + 3u) / (1 − 3u) < 1 + 4 ε`), and the
    /// computed `t_in` is at most `widen` of the exact one and at least the
    /// exact one shrunk by as much. Overflowing differences give `±∞` (never
    /// NaN: the still axes are tested without dividing).
    #[inline]
    fn box_entry(&self, b: &BoundingBox<T, D>, m: T) -> Option<T> {
        let (mut t_in, mut t_out) = (T::zero(), T::infinity());
        for j in 0..D {
            let (o, d) = (self.ray.origin[j], self.ray.dir[j]);
            let (lo, hi) = (b.min[j] - m, b.max[j] + m);
            if d == T::zero() {
                if o < lo || o > hi {
                    return None;
                }
                continue;
            }
            let (ta, tb) = if self.inv[j] == T::zero() {
                ((lo - o) / d, (hi - o) / d)
            } else {
                ((lo - o) * self.inv[j], (hi - o) * self.inv[j])
            };
            // Never NaN (module notes): comparisons stand for `min` and
            // `max`.
            let (near, far) = if ta <= tb { (ta, tb) } else { (tb, ta) };
            if near > t_in {
                t_in = near;
            }
            if far < t_out {
                t_out = far;
            }
        }
        (t_in <= widen(t_out)).then_some(t_in)
    }
}

/// What one object makes of the ray.
enum Met<T: Real, const D: usize> {
    /// Nothing: its box is off the ray or beyond the bound, the filter
    /// rejects it, or the narrow phase finds no hit.
    Miss,
    /// The narrow phase's hit.
    Hit(RayHit<T, D>),
    /// The narrow phase cannot answer; the ray enters the object's (grown)
    /// box at this time.
    Fail(T, narrowphase::DispatchError),
}

impl<T: Real, const D: usize> World<T, D>
where
    Dim<D>: Space<T, D>,
{
    /// Step 1: the ray, then `max_toi`.
    fn check_ray(ray: &Ray<T, D>, max_toi: T) -> Result<(), WorldError> {
        if !ray.is_valid() {
            return Err(WorldError::InvalidRay);
        }
        if !is_limit(max_toi) {
            return Err(WorldError::InvalidMaxToi);
        }
        Ok(())
    }

    /// Whether a hit whose `reach` is `r` agrees with the walk's entry and
    /// the box entry of its object (module notes, "Hits off the ray").
    #[inline]
    fn consistent(entry: T, t_in: T, r: T) -> bool {
        entry <= r && t_in <= widen(r)
    }

    /// Steps 3 and 4 for object `id`, handed out by the walk at `entry`: its
    /// stored box against the ray (up to `bound`), the filter, then the
    /// narrow phase with the caller's `max_toi` and `solid`; a hit earlier
    /// than the walk's entry or the box allows is set aside (module notes,
    /// "Hits off the ray").
    #[inline]
    fn meet(&self, c: &Caster<'_, T, D>, id: u32, entry: T, bound: T) -> Met<T, D> {
        // Ids from the walk are filed in the grid.
        let b = self.grid.filed_box(id);
        let Some(t_in) = c.box_entry(b, c.box_margin(b)) else {
            return Met::Miss;
        };
        if t_in > widen(bound) {
            return Met::Miss;
        }
        let o = self.object(id);
        if !c.filter.groups.accepts(&o.filter)
            || c.filter.exclude.is_some_and(|h| h == self.handle(id))
        {
            return Met::Miss;
        }
        let hit =
            <Dim<D> as Space<T, D>>::cast_ray(o.shape(), &o.pose, c.ray, c.max_toi, c.filter.solid);
        match hit {
            Ok(Some(hit)) if Self::consistent(entry, t_in, c.slack.reach(hit.toi)) => Met::Hit(hit),
            Ok(_) => Met::Miss,
            Err(e) => Met::Fail(t_in, e),
        }
    }

    /// The first hit of `ray` (up to `max_toi`, which may be `+∞`) over every
    /// object `filter` accepts, and its object: the least time of impact,
    /// ties by handle. Equal to brute force over every object through the
    /// narrow phase's `cast_ray`, except that a hit the ray cannot have (the
    /// ray reaches the object's bounding box only later; an ill-conditioned
    /// narrow-phase answer or a faulty user ray cast) is not reported
    /// (`docs/conventions.md`, "World queries"). `filter.solid` says
    /// whether a ray starting inside a shape hits at time 0 (solid) or where
    /// it leaves (hollow).
    ///
    /// Cost: the grid cells the ray crosses up to the first hit and the
    /// objects in them, whatever the world's size; no allocation (but for
    /// an error).
    ///
    /// # Errors
    /// [`WorldError::InvalidRay`] for a NaN or infinite origin or direction
    /// or a zero direction; [`WorldError::InvalidMaxToi`] for a NaN or
    /// negative `max_toi`; [`WorldError::Narrowphase`] for an object the
    /// narrow phase cannot answer that the ray reaches before its first hit
    /// is certain. The world is never changed.
    ///
    /// ```
    /// use nalgebra::{Isometry2, Point2, Vector2};
    /// use broadphase::{QueryFilter, World};
    /// use shape::{Circle, Obb, Ray};
    ///
    /// let mut world = World::<f64>::new(2.0).unwrap();
    /// let wall = world.insert(Obb::new(Vector2::new(1.0, 5.0)).unwrap(), Isometry2::translation(10.0, 0.0), Default::default()).unwrap();
    /// let coin = world.insert(Circle::new(1.0).unwrap(), Isometry2::translation(4.0, 0.0), Default::default()).unwrap();
    /// let ray = Ray::new(Point2::new(0.0, 0.0), Vector2::new(1.0, 0.0));
    /// let (first, hit) = world.cast_ray(&ray, f64::INFINITY, QueryFilter::default()).unwrap().unwrap();
    /// assert_eq!((first, hit.toi, hit.point), (coin, 3.0, Point2::new(3.0, 0.0)));
    /// // Looking past the coin.
    /// let (next, hit) = world.cast_ray(&ray, 100.0, QueryFilter::default().excluding(coin)).unwrap().unwrap();
    /// assert_eq!((next, hit.toi, hit.normal.x), (wall, 9.0, -1.0));
    /// assert_eq!(world.cast_ray(&ray, 2.5, QueryFilter::default()), Ok(None));
    /// ```
    pub fn cast_ray(
        &self,
        ray: &Ray<T, D>,
        max_toi: T,
        filter: QueryFilter,
    ) -> Result<Option<(Handle, RayHit<T, D>)>, WorldError> {
        Self::check_ray(ray, max_toi)?;
        let c = Caster::new(ray, max_toi, filter);
        let slack = c.slack;
        let limit = slack.reach(max_toi);
        let mut best: Option<Found<T, D>> = None;
        let mut failures = Failures::new();
        let bound =
            |best: &Option<Found<T, D>>| best.as_ref().map_or(limit, |b| slack.reach(b.hit.toi));
        self.grid.walk_ray(ray, limit, |id, entry| {
            match self.meet(&c, id, entry, bound(&best)) {
                Met::Hit(hit) => {
                    let found = Found { id, hit };
                    if best.as_ref().is_none_or(|b| found.before(b)) {
                        best = Some(found);
                    }
                }
                Met::Fail(t_in, e) => failures.push(t_in, entry, id, e),
                Met::Miss => {}
            }
            bound(&best)
        });
        if let Some((id, error)) = failures.reported(bound(&best)) {
            return Err(WorldError::Narrowphase {
                handle: self.handle(id),
                error,
            });
        }
        Ok(best.map(|b| (self.handle(b.id), b.hit)))
    }

    /// [`cast_ray`](Self::cast_ray) with the part of the object hit when
    /// that object is a composite shape (`Compound`, `Polyline`,
    /// `ConcavePolygon`, `TileMap`, or a user type through
    /// `Shape::as_composite`): the part id its `Composite::cast_ray_part`
    /// names for the same ray (the earliest part hit, ties to the lower
    /// id), `None` for any other shape. The hit is
    /// [`cast_ray`](Self::cast_ray)'s; the part costs one more ray cast
    /// against the object hit.
    ///
    /// # Errors
    /// As [`cast_ray`](Self::cast_ray).
    ///
    /// ```
    /// use nalgebra::{Isometry2, Point2, Vector2};
    /// use broadphase::{QueryFilter, World};
    /// use shape::{Ray, TileMap};
    ///
    /// let mut world = World::<f64>::new(2.0).unwrap();
    /// // Two rows, top first: a step on the right.
    /// let map = TileMap::from_rows(Vector2::new(1.0, 1.0), &[[false, false, true], [true, true, true]]).unwrap();
    /// let level = world.insert(map, Isometry2::identity(), Default::default()).unwrap();
    /// let down = Ray::new(Point2::new(2.5, 5.0), Vector2::new(0.0, -1.0));
    /// let (h, hit, part) = world.cast_ray_part(&down, f64::INFINITY, QueryFilter::default()).unwrap().unwrap();
    /// // The top of the step: tile (col 2, row 1), id row · width + col = 5.
    /// assert_eq!((h, hit.toi, part), (level, 3.0, Some(5)));
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn cast_ray_part(
        &self,
        ray: &Ray<T, D>,
        max_toi: T,
        filter: QueryFilter,
    ) -> Result<Option<(Handle, RayHit<T, D>, Option<u32>)>, WorldError> {
        let Some((h, hit)) = self.cast_ray(ray, max_toi, filter)? else {
            return Ok(None);
        };
        let part = self.ray_part(h, ray, max_toi, filter.solid)?;
        Ok(Some((h, hit, part)))
    }

    /// The part of object `h` that `ray`'s first hit on it (up to
    /// `max_toi`, solid or hollow) is on, when the object is a composite
    /// shape (`Composite::cast_ray_part`); `None` for any other shape, or when the
    /// ray misses it. For the hits of [`cast_ray_with`](Self::cast_ray_with)
    /// and [`cast_ray_all`](Self::cast_ray_all).
    ///
    /// # Errors
    /// [`WorldError::InvalidRay`], [`WorldError::InvalidMaxToi`] as for
    /// [`cast_ray`](Self::cast_ray); [`WorldError::StaleHandle`] or
    /// [`WorldError::ForeignHandle`] for a handle that names no object here.
    pub fn ray_part(
        &self,
        h: Handle,
        ray: &Ray<T, D>,
        max_toi: T,
        solid: bool,
    ) -> Result<Option<u32>, WorldError> {
        Self::check_ray(ray, max_toi)?;
        let o = self.get(h)?;
        Ok(<Dim<D> as Space<T, D>>::ray_part(
            o.shape(),
            o.pose(),
            ray,
            max_toi,
            solid,
        ))
    }

    /// Every hit of `ray` (up to `max_toi`) over the objects `filter`
    /// accepts, handed to `callback` in nondecreasing time of impact, ties by
    /// handle, until it returns [`ControlFlow::Break`]. The hits are the
    /// narrow phase's (`cast_ray`), one per object, as in
    /// [`cast_ray_all`](Self::cast_ray_all).
    ///
    /// A hit is handed out as soon as the walk is past it (module notes in
    /// `world/rays.rs`), so breaking early costs only the cells up to the
    /// last hit handed out. Hits found but not yet certain to come next are
    /// held in a heap whose first 16 entries live on the stack: a call
    /// allocates nothing unless more than 16 hits are pending at once (hits
    /// of objects whose cells the ray has reached but whose shapes it meets
    /// later than the walk's position; a handful in a world whose cells are
    /// about an object's size), or an object fails.
    ///
    /// # Errors
    /// As [`cast_ray`](Self::cast_ray); for an object the narrow phase cannot
    /// answer, the hits certainly before it have been handed to `callback`
    /// when the error is returned.
    ///
    /// ```
    /// use core::ops::ControlFlow;
    /// use nalgebra::{Isometry2, Point2, Vector2};
    /// use broadphase::{QueryFilter, World};
    /// use shape::{Circle, Ray};
    ///
    /// let mut world = World::<f32>::new(1.0).unwrap();
    /// let balls: Vec<_> = (1..=5)
    ///     .map(|i| world.insert(Circle::new(0.25).unwrap(), Isometry2::translation(i as f32, 0.0), Default::default()).unwrap())
    ///     .collect();
    /// let ray = Ray::new(Point2::new(0.0, 0.0), Vector2::new(1.0, 0.0));
    /// // A bullet that goes through two targets.
    /// let mut pierced = Vec::new();
    /// world.cast_ray_with(&ray, f32::INFINITY, QueryFilter::default(), |h, hit| {
    ///     pierced.push((h, hit.toi));
    ///     if pierced.len() == 2 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    /// }).unwrap();
    /// assert_eq!(pierced, vec![(balls[0], 0.75), (balls[1], 1.75)]);
    /// ```
    pub fn cast_ray_with(
        &self,
        ray: &Ray<T, D>,
        max_toi: T,
        filter: QueryFilter,
        mut callback: impl FnMut(Handle, &RayHit<T, D>) -> ControlFlow<()>,
    ) -> Result<(), WorldError> {
        Self::check_ray(ray, max_toi)?;
        let c = Caster::new(ray, max_toi, filter);
        let slack = c.slack;
        let limit = slack.reach(max_toi);
        let mut pending = HitHeap::<T, D>::new();
        let mut stopped = false;
        let mut failures = Failures::new();
        self.grid.walk_ray(ray, limit, |id, entry| {
            if stopped {
                return T::neg_infinity();
            }
            // Hand out every pending hit the walk is past: an object met at
            // `entry` or later (or a failed object) cannot hit earlier.
            while let Some(top) = pending.peek() {
                let r = slack.reach(top.hit.toi);
                if !(r < entry && failures.before_all(r)) {
                    break;
                }
                let Some(top) = pending.pop() else { break };
                if callback(self.handle(top.id), &top.hit).is_break() {
                    stopped = true;
                    return T::neg_infinity();
                }
            }
            match self.meet(&c, id, entry, limit) {
                Met::Hit(hit) => pending.push(Found { id, hit }),
                Met::Fail(t_in, e) => failures.push(t_in, entry, id, e),
                Met::Miss => {}
            }
            limit
        });
        if stopped {
            return Ok(());
        }
        while let Some(top) = pending.peek() {
            if !failures.before_all(slack.reach(top.hit.toi)) {
                break;
            }
            let Some(top) = pending.pop() else { break };
            if callback(self.handle(top.id), &top.hit).is_break() {
                return Ok(());
            }
        }
        if let Some((id, error)) = failures.reported(limit) {
            return Err(WorldError::Narrowphase {
                handle: self.handle(id),
                error,
            });
        }
        Ok(())
    }

    /// Every hit of `ray` (up to `max_toi`) over the objects `filter`
    /// accepts, one per object (the narrow phase's first hit of it), sorted
    /// by time of impact, ties by handle. Equal to brute force over every
    /// object, sorted (but for the hits off the ray noted in
    /// [`cast_ray`](Self::cast_ray)).
    ///
    /// # Errors
    /// As [`cast_ray`](Self::cast_ray): any object on the ray the narrow
    /// phase cannot answer fails the query.
    ///
    /// ```
    /// use nalgebra::{Isometry2, Point2, Vector2};
    /// use broadphase::{QueryFilter, World};
    /// use shape::{Aabb, Ray};
    ///
    /// let mut world = World::<f64>::new(1.0).unwrap();
    /// let crate_ = Aabb::new(Point2::new(-0.5, -0.5), Point2::new(0.5, 0.5)).unwrap();
    /// let far = world.insert(crate_, Isometry2::translation(0.0, 6.0), Default::default()).unwrap();
    /// let near = world.insert(crate_, Isometry2::translation(0.0, 3.0), Default::default()).unwrap();
    /// world.insert(crate_, Isometry2::translation(4.0, 3.0), Default::default()).unwrap(); // off the ray
    /// let up = Ray::new(Point2::new(0.0, 0.0), Vector2::new(0.0, 1.0));
    /// let hits = world.cast_ray_all(&up, f64::INFINITY, QueryFilter::default()).unwrap();
    /// let order: Vec<_> = hits.iter().map(|(h, hit)| (*h, hit.toi)).collect();
    /// assert_eq!(order, vec![(near, 2.5), (far, 5.5)]);
    /// ```
    pub fn cast_ray_all(
        &self,
        ray: &Ray<T, D>,
        max_toi: T,
        filter: QueryFilter,
    ) -> Result<Vec<(Handle, RayHit<T, D>)>, WorldError> {
        let mut out = Vec::new();
        self.cast_ray_with(ray, max_toi, filter, |h, hit| {
            out.push((h, *hit));
            ControlFlow::Continue(())
        })?;
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Point2, Unit, Vector2};

    fn found(id: u32, toi: f64) -> Found<f64, 2> {
        Found {
            id,
            hit: RayHit {
                toi,
                point: Point2::origin(),
                normal: Unit::new_unchecked(Vector2::x()),
            },
        }
    }

    /// The heap gives its entries back by (time, id), NaN last, inline and
    /// spilled, with pops interleaved.
    #[test]
    fn heap_order() {
        let mut heap = HitHeap::<f64, 2>::new();
        assert!(heap.pop().is_none() && heap.peek().is_none());
        let mut want = Vec::new();
        let mut x = 12_345u64;
        for round in 0..3 {
            for i in 0..(10 + 20 * round) {
                x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                let toi = if i % 17 == 5 {
                    f64::NAN
                } else {
                    (x >> 60) as f64 // many ties
                };
                let id = (x >> 33) as u32 % 1000;
                heap.push(found(id, toi));
                want.push((toi, id));
            }
            want.sort_by(|a, b| order(a.0, b.0).then(a.1.cmp(&b.1)));
            // Pop half, then push more.
            for _ in 0..want.len() / 2 {
                let peeked = heap.peek().map(|f| (f.hit.toi, f.id));
                let got = heap.pop().map(|f| (f.hit.toi, f.id));
                assert_eq!(format!("{peeked:?}"), format!("{got:?}"));
                let w = want.remove(0);
                assert_eq!(format!("{got:?}"), format!("{:?}", Some(w)));
            }
        }
        while let Some(f) = heap.pop() {
            let w = want.remove(0);
            assert_eq!(format!("{:?}", (f.hit.toi, f.id)), format!("{w:?}"));
        }
        assert!(want.is_empty());
        // Back to inline after spilling.
        heap.push(found(3, 1.0));
        heap.push(found(2, 1.0));
        assert_eq!(heap.pop().map(|f| f.id), Some(2));
        assert_eq!(heap.pop().map(|f| f.id), Some(3));
        assert!(heap.pop().is_none());
    }
}
