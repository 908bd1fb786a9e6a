//! World shape casts: the first object a shape moving at a constant velocity
//! touches ([`World::cast_shape`], [`World::cast_shape_with_options`]).
//!
//! Frame: world coordinates; times in units of the velocity (the shape is at
//! `pose` moved by `vel·t`), as the narrow phase's (`docs/conventions.md`,
//! "Shape casts").
//!
//! Method:
//!
//! 1. **Check the input**: the pose (finite, with a finite bounding box), the
//!    velocity (finite), then `max_toi` (a number `≥ 0`, `+∞` allowed): a
//!    typed error before anything is looked at.
//! 2. **Bound the motion.** The time after which the moving box `B + vel·t`
//!    (`B`: the shape's box at `pose`) can no longer meet the box of the
//!    occupied cells (and oversize objects) is, per axis with `vel_j ≠ 0`,
//!    the slab exit time; the walk ends at `t_end = min(max_toi, exit)`. This
//!    makes an infinite `max_toi` a finite walk.
//! 3. **Walk the swept box in time order.** `[0, t_end]` is cut into pieces
//!    over which the shape moves at most one cell along every axis
//!    (`dt = cell / ‖vel‖∞`). Piece `k`, over `[t_k, t_{k+1}]`, covers the
//!    box `B + vel·t_k ∪ B + vel·t_{k+1}`, padded by
//!    `64 ε (‖corner‖∞ + ‖B‖ extent)` for rounding: the shape at every time
//!    of the piece lies in it. The grid's region query
//!    ([`Grid::query_region`](crate::Grid::query_region): cells, then the
//!    exact box test, oversize objects included) hands out its objects; an
//!    object whose box also meets the previous piece's box was already cast
//!    against and is skipped. This skips exactly the objects met before:
//!    along every axis the pieces' intervals move monotonically, so a box
//!    meeting pieces `j < k` meets every piece in between, in particular
//!    `k − 1`. Each candidate is thus cast against once.
//! 4. **Ask the narrow phase** (`Table::cast_shapes` through
//!    [`Space::cast_shapes`]) with the caller's velocity, `max_toi` and
//!    options, the object at rest: the very call brute force makes. The
//!    earliest hit is kept, ties by handle.
//! 5. **Stop** after the piece `[t_k, t_{k+1}]` once the best time of
//!    impact is `≤ t_{k+1}`: an object not yet met has its box outside every
//!    piece so far, hence apart from the shape at every time up to
//!    `t_{k+1}`, and cannot have an earlier hit (nor an equal one, which
//!    would need it to touch the shape at that time).
//!
//! **Cost.** The pieces up to the first hit and the objects in their
//! cells, whatever the world's size: a short cast reads a few cells. A cast
//! across empty space ends at the occupied box (step 2).
//!
//! **What equals brute force.** Every object whose (padded) box the shape's
//! exact path meets is cast against, so the answer is brute force's over
//! every object through the same narrow phase, but for one case: the
//! advancement of the narrow phase may stop within its touch tolerance
//! (`32 ε` times the two shapes' sizes) of an object, before the exact
//! contact; for an object much larger than the cast shape and near the edge
//! of the path, that early hit may fall outside the padding and be found
//! only later or not at all (its exact contact, later, is still found).
//!
//! **Errors.** An object the narrow phase cannot answer in one of the pieces
//! walked fails the query (the smallest handle among them) rather than an
//! answer without it.

use nalgebra::SVector;
use narrowphase::{ShapeCastArgs, ShapeCastHit, ShapeCastOptions};
use num_traits::Float;
use shape::{BoundingBox, Real};

use super::{Handle, Parts, QueryFilter, World, WorldError};
use crate::grid::is_limit;
use crate::space::{Dim, Space};

/// Pieces beyond this many are not walked one by one: the whole swept box
/// is one region (a cast across the float range with a tiny cell).
const MAX_PIECES: usize = 1 << 22;

/// `b` moved by `v·t` (an axis at rest stays: no `0·∞`).
#[inline]
fn moved<T: Real, const D: usize>(
    b: &BoundingBox<T, D>,
    v: &SVector<T, D>,
    t: T,
) -> BoundingBox<T, D> {
    let mut out = *b;
    for j in 0..D {
        if v[j] != T::zero() {
            let s = v[j] * t;
            out.min[j] += s;
            out.max[j] += s;
        }
    }
    out
}

/// The union of two boxes, padded per axis by `64 ε (max |coordinate| +
/// size)` and clamped to the finite numbers.
#[inline]
fn piece<T: Real, const D: usize>(
    a: &BoundingBox<T, D>,
    b: &BoundingBox<T, D>,
    size: T,
) -> BoundingBox<T, D> {
    let k = T::lit(64.0) * T::epsilon();
    let mut out = BoundingBox::new(a.min.inf(&b.min), a.max.sup(&b.max));
    for j in 0..D {
        let (lo, hi) = (out.min[j], out.max[j]);
        let pad = k * (Float::max(Float::abs(lo), Float::abs(hi)) + size);
        out.min[j] = Float::max(lo - pad, -<T as Float>::max_value());
        out.max[j] = Float::min(hi + pad, <T as Float>::max_value());
    }
    out
}

/// The earliest hit so far: `(toi, id, hit, parts)`.
type Best<T, const D: usize> = Option<(T, u32, ShapeCastHit<T, D>, Parts)>;

/// Whether `(t, id)` comes before the best so far: by time (NaN last), then
/// by id.
#[inline]
fn before<T: Real, const D: usize>(t: T, id: u32, best: &Best<T, D>) -> bool {
    match best {
        None => true,
        Some((bt, bid, _, _)) => match t.partial_cmp(bt) {
            Some(core::cmp::Ordering::Less) => true,
            Some(core::cmp::Ordering::Equal) => id < *bid,
            Some(core::cmp::Ordering::Greater) => false,
            None => bt.is_nan() && (!t.is_nan() || id < *bid),
        },
    }
}

impl<T: Real, const D: usize> World<T, D>
where
    Dim<D>: Space<T, D>,
{
    /// The first object `shape` touches when it moves from `pose` at the
    /// constant velocity `vel` for times `t ∈ [0, max_toi]` (`max_toi` may be
    /// `+∞`), among the objects `filter` accepts (its `solid` flag plays no
    /// part), and the narrow phase's hit: the least time of impact, ties by
    /// handle. The hit's normal points from `shape` to the object; its points
    /// are where the two touch, in the world at the time of impact. A shape
    /// already touching an object at `pose` hits it at time 0
    /// ([`ShapeCastStatus::Penetrating`](narrowphase::ShapeCastStatus)); see
    /// [`cast_shape_with_options`](Self::cast_shape_with_options) to let it
    /// slide away.
    ///
    /// Through the cells the swept box covers, in time order, stopping at
    /// the first hit (module notes in `world/cast.rs`): the cost does not
    /// grow with the world's size.
    ///
    /// # Errors
    /// [`WorldError::NonFinitePose`] and [`WorldError::NonFiniteBounds`] for
    /// the pose; [`WorldError::NonFiniteVelocity`] for a NaN or infinite
    /// velocity; [`WorldError::InvalidMaxToi`] for a NaN or negative
    /// `max_toi`; [`WorldError::Narrowphase`] for an object the narrow phase
    /// cannot answer on the way (the smallest handle). The world is never
    /// changed.
    ///
    /// ```
    /// use nalgebra::{Isometry2, Vector2};
    /// use broadphase::{QueryFilter, World};
    /// use shape::{Circle, Obb};
    ///
    /// let mut world = World::<f64>::new(2.0).unwrap();
    /// let wall = world.insert(Obb::new(Vector2::new(0.5, 5.0)).unwrap(), Isometry2::translation(10.0, 0.0), Default::default()).unwrap();
    /// let ball = Circle::new(1.0).unwrap();
    /// let vel = Vector2::new(2.0, 0.0);
    /// let (h, hit) = world.cast_shape(&ball, &Isometry2::identity(), &vel, f64::INFINITY, QueryFilter::default()).unwrap().unwrap();
    /// // The ball's edge (x = 1 + 2t) meets the wall's face (x = 9.5) at t = 4.25.
    /// assert_eq!(h, wall);
    /// assert!((hit.toi - 4.25).abs() < 1e-9 && (hit.normal.x - 1.0).abs() < 1e-9);
    /// assert_eq!(world.cast_shape(&ball, &Isometry2::identity(), &vel, 4.0, QueryFilter::default()), Ok(None));
    /// ```
    pub fn cast_shape(
        &self,
        shape: &<Dim<D> as Space<T, D>>::Shape,
        pose: &<Dim<D> as Space<T, D>>::Pose,
        vel: &SVector<T, D>,
        max_toi: T,
        filter: QueryFilter,
    ) -> Result<Option<(Handle, ShapeCastHit<T, D>)>, WorldError> {
        self.cast_shape_with_options(
            shape,
            pose,
            vel,
            max_toi,
            filter,
            ShapeCastOptions::default(),
        )
    }

    /// [`cast_shape`](Self::cast_shape) with the narrow phase's options:
    /// with `stop_at_penetration == false`, an object the shape already
    /// touches at `pose` is a hit only when the motion drives the shape
    /// deeper into it (a character touching a wall can slide along it or
    /// move away).
    ///
    /// # Errors
    /// As [`cast_shape`](Self::cast_shape).
    ///
    /// ```
    /// use nalgebra::{Isometry2, Vector2};
    /// use broadphase::{QueryFilter, World};
    /// use narrowphase::ShapeCastOptions;
    /// use shape::{Circle, Obb};
    ///
    /// let mut world = World::<f64>::new(2.0).unwrap();
    /// let floor = world.insert(Obb::new(Vector2::new(50.0, 0.5)).unwrap(), Isometry2::identity(), Default::default()).unwrap();
    /// let ball = Circle::new(0.5).unwrap();
    /// let resting = Isometry2::translation(0.0, 1.0); // touching the floor
    /// let along = Vector2::new(1.0, 0.0);
    /// let slide = ShapeCastOptions { stop_at_penetration: false };
    /// assert_eq!(world.cast_shape_with_options(&ball, &resting, &along, 10.0, QueryFilter::default(), slide), Ok(None));
    /// let (h, hit) = world.cast_shape(&ball, &resting, &along, 10.0, QueryFilter::default()).unwrap().unwrap();
    /// assert_eq!((h, hit.toi), (floor, 0.0));
    /// ```
    pub fn cast_shape_with_options(
        &self,
        shape: &<Dim<D> as Space<T, D>>::Shape,
        pose: &<Dim<D> as Space<T, D>>::Pose,
        vel: &SVector<T, D>,
        max_toi: T,
        filter: QueryFilter,
        options: ShapeCastOptions,
    ) -> Result<Option<(Handle, ShapeCastHit<T, D>)>, WorldError> {
        self.cast_shape_parts(shape, pose, vel, max_toi, filter, options)
            .map(|found| found.map(|(h, hit, _)| (h, hit)))
    }

    /// [`cast_shape_with_options`](Self::cast_shape_with_options) with the
    /// parts that the hit is on when the shape or the object hit is a
    /// composite ([`Parts`]: `a` the cast shape's part, `b` the object's;
    /// [`Parts::NONE`] otherwise): the same hit, found by the same walk.
    ///
    /// # Errors
    /// As [`cast_shape`](Self::cast_shape).
    ///
    /// ```
    /// use nalgebra::{Isometry2, Point2, Vector2};
    /// use broadphase::{QueryFilter, World};
    /// use narrowphase::ShapeCastOptions;
    /// use shape::{Circle, Polyline};
    ///
    /// let mut world = World::<f64>::new(2.0).unwrap();
    /// let p = |x, y| Point2::new(x, y);
    /// let ground = Polyline::new(&[p(0.0, 0.0), p(4.0, 0.0), p(8.0, 0.0)], false).unwrap();
    /// let floor = world.insert(ground, Isometry2::identity(), Default::default()).unwrap();
    /// let ball = Circle::new(0.5).unwrap();
    /// let down = Vector2::new(0.0, -1.0);
    /// let (h, hit, parts) = world
    ///     .cast_shape_parts(&ball, &Isometry2::translation(6.0, 3.0), &down, 10.0, QueryFilter::default(), ShapeCastOptions::default())
    ///     .unwrap()
    ///     .unwrap();
    /// assert_eq!((h, parts.a, parts.b), (floor, None, Some(1))); // the second segment
    /// assert!((hit.toi - 2.5).abs() < 1e-9);
    /// ```
    pub fn cast_shape_parts(
        &self,
        shape: &<Dim<D> as Space<T, D>>::Shape,
        pose: &<Dim<D> as Space<T, D>>::Pose,
        vel: &SVector<T, D>,
        max_toi: T,
        filter: QueryFilter,
        options: ShapeCastOptions,
    ) -> Result<Option<(Handle, ShapeCastHit<T, D>, Parts)>, WorldError> {
        let bounds = Self::checked_bounds(shape, pose)?;
        if !vel.iter().all(|x| Float::is_finite(*x)) {
            return Err(WorldError::NonFiniteVelocity);
        }
        if !is_limit(max_toi) {
            return Err(WorldError::InvalidMaxToi);
        }
        let Some(occupied) = self.grid.occupied_bounds() else {
            return Ok(None);
        };
        let args = ShapeCastArgs {
            vel_a: *vel,
            vel_b: SVector::zeros(),
            max_toi,
            options,
        };
        // Step 2: the walk's end.
        let mut exit = T::infinity();
        for j in 0..D {
            let v = vel[j];
            let t = if v > T::zero() {
                (occupied.max[j] - bounds.min[j]) / v
            } else if v < T::zero() {
                (occupied.min[j] - bounds.max[j]) / v
            } else {
                continue;
            };
            if t < exit {
                exit = t;
            }
        }
        // Widened for the rounding of the quotient; at least 0.
        let exit = Float::max(exit + T::lit(4.0) * T::epsilon() * exit, T::zero());
        let t_end = if exit < max_toi { exit } else { max_toi };
        let speed = vel.amax();
        let size = (0..D).fold(T::zero(), |m, j| {
            Float::max(m, bounds.max[j] - bounds.min[j])
        });
        // Step 3: the pieces.
        let dt = self.grid.cell_size() / speed;
        let count = t_end / dt;
        let few = count.partial_cmp(&T::lit(MAX_PIECES as f64)) == Some(core::cmp::Ordering::Less);
        let pieces = if speed == T::zero() || !few {
            1
        } else {
            // `count` is finite and small: the cast to usize is exact enough.
            num_traits::ToPrimitive::to_usize(&Float::ceil(count))
                .unwrap_or(1)
                .max(1)
        };
        let mut ids = Vec::new();
        let mut best: Best<T, D> = None;
        let mut failed: Option<(u32, narrowphase::DispatchError)> = None;
        let mut previous: Option<BoundingBox<T, D>> = None;
        for k in 0..pieces {
            let t0 = if k == 0 {
                T::zero()
            } else {
                dt * T::lit(k as f64)
            };
            let t1 = if k + 1 == pieces {
                t_end
            } else {
                dt * T::lit((k + 1) as f64)
            };
            let region = piece(&moved(&bounds, vel, t0), &moved(&bounds, vel, t1), size);
            self.grid.query_region(&region, &mut ids);
            for &id in &ids {
                if previous.is_some_and(|p| self.grid.filed_box(id).intersects(&p)) {
                    continue;
                }
                let handle = self.handle(id);
                let o = self.object(id);
                if !filter.accepts(handle, &o.filter) {
                    continue;
                }
                match <Dim<D> as Space<T, D>>::cast_shapes_with_parts(
                    &self.table,
                    shape,
                    pose,
                    o.shape(),
                    &o.pose,
                    args,
                ) {
                    Ok((Some(hit), parts)) => {
                        if before(hit.toi, id, &best) {
                            best = Some((hit.toi, id, hit, parts));
                        }
                    }
                    Ok((None, _)) => {}
                    Err(e) => {
                        if failed.as_ref().is_none_or(|f| id < f.0) {
                            failed = Some((id, e));
                        }
                    }
                }
            }
            previous = Some(region);
            // Step 5.
            if best.as_ref().is_some_and(|b| b.0 <= t1) {
                break;
            }
        }
        if let Some((id, error)) = failed {
            return Err(WorldError::Narrowphase {
                handle: self.handle(id),
                error,
            });
        }
        Ok(best.map(|(_, id, hit, parts)| (self.handle(id), hit, parts)))
    }
}
