//! Contact manifolds in the world (2D and 3D), kept from frame to frame: with
//! [`World::set_manifolds`] on, [`World::collisions`] also answers every
//! pair's contact manifold (`narrowphase::Manifold<T, D>`, from the
//! dimension's dispatch table) within a prediction, and
//! matches each manifold point to the point of the pair's manifold at the
//! previous query that has the same feature id, for a solver to carry its
//! accumulated impulses over (warm starting).
//!
//! # Method
//!
//! 1. **Speculative pairs are candidates.** A pair has a manifold when its
//!    shapes are apart by at most the prediction `p`, so the broad phase must
//!    hand out every such pair. The grid's candidate pairs are the pairs
//!    whose *filed* boxes overlap (its fat boxes and margin only save
//!    re-filing: `Grid::candidate_pairs` filters the fat pairs by the filed
//!    boxes, so growing the grid's margin alone would add no candidate).
//!    With manifolds on, each object is therefore filed by its bounding box
//!    grown by `r = p/2` on every side (rounded up: `r + r ≥ p`), clamped
//!    to the finite numbers and widened by
//!    [`rounding_margin`](crate::space::rounding_margin) so that the
//!    rounding of the growth never shrinks it. Why that suffices: if two
//!    shapes are apart by a distance `d ≤ p`, their boxes are apart by at
//!    most `d` along every axis (the gap between boxes along an axis is at
//!    most the distance between any point of one shape and any point of the
//!    other), so the boxes grown by `p/2` each overlap. With `p = 0` the
//!    manifold pairs are the touching pairs, which the plain boxes already
//!    find: nothing is grown. Every other use of the filed boxes (region,
//!    point, ray, cast and sweep queries) only needs them to contain the
//!    shape, which the grown boxes do; those queries stay exact.
//! 2. **The narrow phase.** Each candidate pair that passes the filters gets
//!    its contact, exactly as with manifolds off (so `pairs`, `started`,
//!    `stopped` and `swept` do not change), and its manifold from the
//!    dispatch table (`Table::contact_manifold`, built-in pairs by their
//!    types: the same answer), in pair order, serially or on all cores (the
//!    `rayon` feature computes the same answers and records them in the same
//!    order, so the output is identical bit for bit).
//! 3. **Matching.** The world keeps the previous query's manifold ids: one
//!    entry per pair, sorted by handles as the manifolds are. Both lists
//!    are sorted, so one merge walk finds each pair's previous ids, and
//!    point `i`'s match is the index of the first previous point with the
//!    same `FeatureId` (ids name the vertex, edge or face of each shape that
//!    made the point, intrinsic to the geometry, so they survive the small
//!    motions of a resting contact). The list is then overwritten with this
//!    query's ids, in a buffer kept from frame to frame (no allocation once
//!    warm).
//! 4. **Forgetting.** A removed object's handle is never handed out again
//!    (the slot's generation changes), so its entries can never match and
//!    are dropped at the next query; replacing a shape drops its entries at
//!    once (the same handle, new features); turning manifolds off drops
//!    them all.
//!
//! With manifolds off the frame is unchanged: one branch in
//! [`World::collisions`] and one in the bounds of `insert`, `set_pose` and
//! `replace_shape`, nothing allocated.

use narrowphase::{DispatchError, Feature, FeatureId, MAX_MANIFOLD_POINTS};
use num_traits::Float;
use shape::{BoundingBox, Real};

use super::{Frame, Handle, Parts, World, WorldError};
use crate::space::{ContactType, Dim, Space, rounding_margin};

/// The manifold type of dimension `D` (`narrowphase::Manifold<T, D>`).
type ManifoldOf<T, const D: usize> = <<Dim<D> as Space<T, D>>::Contact as ContactType>::Manifold;

/// A pair with a contact manifold (normal from `a` to `b`) and the matches of
/// its points to the pair's manifold at the previous query. `M` is
/// `narrowphase::Manifold<T, D>`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairManifold<M> {
    /// The object with the smaller index.
    pub a: Handle,
    /// The other object.
    pub b: Handle,
    /// Their manifold within the prediction, in world space.
    pub manifold: M,
    /// `matched[i]` is the index of the point of this pair's manifold at the
    /// previous [`World::collisions`] call with the same
    /// [`FeatureId`](narrowphase::FeatureId) as point `i` (the first such
    /// point), or `None` when the pair had no manifold then, had no point
    /// with that id, or its history was forgotten (an object's shape
    /// replaced, manifolds turned off since). Entries past the manifold's
    /// points are `None`.
    pub matched: [Option<u8>; MAX_MANIFOLD_POINTS],
    /// For a pair where a shape is a composite: the parts of `a` and `b`
    /// of the deepest part pair, whose manifold the others' points were
    /// merged into (`Table::query_parts`); [`Parts::NONE`] for every other
    /// pair. The matches above follow feature ids, which for a composite
    /// are the parts' own features.
    pub parts: Parts,
}

/// A pair's feature ids at the previous query.
#[derive(Debug, Clone, Copy)]
struct PairIds {
    a: Handle,
    b: Handle,
    len: u8,
    ids: [FeatureId; MAX_MANIFOLD_POINTS],
}

impl PairIds {
    fn of<C: ContactType>(p: &PairManifold<C::Manifold>) -> Self {
        let mut ids = [FeatureId {
            a: Feature::Surface,
            b: Feature::Surface,
        }; MAX_MANIFOLD_POINTS];
        let mut len = 0;
        for (slot, id) in ids.iter_mut().zip(C::manifold_ids(&p.manifold)) {
            *slot = id;
            len += 1;
        }
        Self {
            a: p.a,
            b: p.b,
            // A manifold holds at most `MAX_MANIFOLD_POINTS` (4) points.
            len,
            ids,
        }
    }
}

/// One candidate pair's manifold: `None` when the filters reject it, else the
/// manifold (or none) or the table's error.
type PairManifoldResult<T, const D: usize> =
    Option<Result<(Option<ManifoldOf<T, D>>, Parts), DispatchError>>;

/// The world's manifold settings and history.
pub(super) struct ManifoldState<T: Real, const D: usize>
where
    Dim<D>: Space<T, D>,
{
    /// `None` with manifolds off.
    prediction: Option<T>,
    /// How far each filed box is grown: half the prediction (rounded up),
    /// `0` when off or for a zero prediction.
    reach: T,
    /// The previous query's ids, sorted by handles.
    history: Vec<PairIds>,
    /// The parallel narrow phase's per-pair answers, kept between frames.
    #[cfg(feature = "rayon")]
    results: std::sync::Mutex<Vec<PairManifoldResult<T, D>>>,
}

impl<T: Real, const D: usize> Default for ManifoldState<T, D>
where
    Dim<D>: Space<T, D>,
{
    fn default() -> Self {
        Self {
            prediction: None,
            reach: T::zero(),
            history: Vec::new(),
            #[cfg(feature = "rayon")]
            results: std::sync::Mutex::default(),
        }
    }
}

impl<T: Real, const D: usize> ManifoldState<T, D>
where
    Dim<D>: Space<T, D>,
{
    /// The prediction, `None` with manifolds off.
    #[inline]
    pub(super) fn prediction(&self) -> Option<T> {
        self.prediction
    }

    /// A bounding box as the grid files it: grown by the reach when it is
    /// positive (module notes, step 1), else as it is.
    #[inline]
    pub(super) fn grown(&self, b: BoundingBox<T, D>) -> BoundingBox<T, D> {
        if self.reach > T::zero() {
            grow(b, self.reach)
        } else {
            b
        }
    }

    /// Drops every history entry of `h`'s pairs.
    pub(super) fn forget(&mut self, h: Handle) {
        self.history.retain(|e| e.a != h && e.b != h);
    }

    /// Fills `matched` of this query's manifolds (sorted by handles) from the
    /// previous query's ids by a merge walk, then remembers this query's ids.
    fn match_previous(&mut self, now: &mut [PairManifold<ManifoldOf<T, D>>]) {
        let prev = &self.history;
        let mut j = 0;
        for pm in now.iter_mut() {
            let key = (pm.a, pm.b);
            while j < prev.len() && (prev[j].a, prev[j].b) < key {
                j += 1;
            }
            let Some(e) = prev.get(j).filter(|e| (e.a, e.b) == key) else {
                continue;
            };
            let ids = &e.ids[..usize::from(e.len)];
            let now_ids =
                <<Dim<D> as Space<T, D>>::Contact as ContactType>::manifold_ids(&pm.manifold);
            for (m, now_id) in pm.matched.iter_mut().zip(now_ids) {
                // Fewer than `MAX_MANIFOLD_POINTS` (4) ids: the index fits.
                *m = ids.iter().position(|id| *id == now_id).map(|k| k as u8);
            }
        }
        self.history.clear();
        self.history.extend(
            now.iter()
                .map(PairIds::of::<<Dim<D> as Space<T, D>>::Contact>),
        );
    }
}

/// Half the prediction, rounded up so that `r + r ≥ p` (only a subnormal `p`
/// rounds; then the whole of `p`).
fn reach_of<T: Real>(p: T) -> T {
    let r = p * T::half();
    if r + r < p { p } else { r }
}

/// `b` grown by `r ≥ 0` on every side, clamped to the finite numbers, then
/// widened by [`rounding_margin`]: it contains the exact grown box (each
/// rounded `min − r` is within half an ulp of the exact one, which the
/// margin's `8 ε·|coordinate|` covers). Out of line: the frame with
/// manifolds off only pays the test that skips it.
#[inline(never)]
fn grow<T: Real, const D: usize>(b: BoundingBox<T, D>, r: T) -> BoundingBox<T, D> {
    let max = <T as Float>::max_value();
    let mut g = b;
    for i in 0..D {
        g.min[i] = Float::max(b.min[i] - r, -max);
        g.max[i] = Float::min(b.max[i] + r, max);
    }
    rounding_margin(g)
}

impl<T: Real, const D: usize> World<T, D>
where
    Dim<D>: Space<T, D>,
{
    /// Turns contact manifolds on with prediction `p` (`Some(p)`, `p` finite
    /// and `≥ 0`) or off (`None`, the default).
    ///
    /// With manifolds on, [`collisions`](Self::collisions) also fills
    /// [`Collisions::manifolds`](crate::Collisions::manifolds): every pair
    /// that passes the filters and whose shapes are apart by at most `p`
    /// (touching or *speculative*), with its contact manifold
    /// (`Table::contact_manifold` with prediction `p`, the dimension's
    /// table: `DispatchTable` in 2D, `DispatchTable3` in 3D) and the matches of
    /// its points to the pair's manifold at the previous query
    /// ([`PairManifold::matched`]), for a solver to warm-start. `pairs`,
    /// `started`, `stopped` and `swept` stay those of the touching pairs.
    ///
    /// So that no speculative pair is missed, each object is filed in the
    /// grid by its bounding box grown by `p/2` on every side (two shapes
    /// apart by at most `p` then have overlapping filed boxes; the grid's
    /// candidates are the pairs whose filed boxes overlap, whatever its
    /// margin): with `p > 0`, [`candidate_pairs`](Self::candidate_pairs)
    /// and the candidate counts of [`Stats`](crate::Stats) include the pairs
    /// whose boxes are within `p`, and every other query is answered as
    /// before. Changing `p` re-files every object.
    ///
    /// Turning manifolds off forgets every pair's history and empties
    /// `manifolds`; changing the prediction while on keeps the history.
    /// Replacing an object's shape forgets its pairs' history; a removed
    /// object's handle never matches again.
    ///
    /// ```
    /// use nalgebra::{Isometry2, Vector2};
    /// use broadphase::{Filter, World};
    /// use shape::Obb;
    ///
    /// let mut world = World::<f64>::new(2.0).unwrap();
    /// let floor = world.insert(Obb::new(Vector2::new(5.0, 0.5)).unwrap(), Isometry2::identity(), Filter::ALL).unwrap();
    /// // A 2×2 box resting on the floor, sunk by 0.01.
    /// let crate_ = world.insert(Obb::new(Vector2::new(1.0, 1.0)).unwrap(), Isometry2::translation(0.0, 1.49), Filter::ALL).unwrap();
    /// world.set_manifolds(Some(0.05)).unwrap();
    /// let frame = world.collisions();
    /// assert_eq!(frame.manifolds.len(), 1);
    /// let pm = &frame.manifolds[0];
    /// assert_eq!((pm.a, pm.b), (floor, crate_));
    /// assert_eq!(pm.manifold.len(), 2); // both bottom corners
    /// assert_eq!(pm.matched, [None; 4]); // the first frame: nothing to match
    ///
    /// // The next frame, after a tiny move: both points keep their features.
    /// world.set_pose(crate_, Isometry2::new(Vector2::new(0.002, 1.491), 0.001)).unwrap();
    /// let pm = &world.collisions().manifolds[0];
    /// assert_eq!(pm.manifold.len(), 2);
    /// assert_eq!(pm.matched, [Some(0), Some(1), None, None]);
    /// ```
    ///
    /// # Errors
    /// [`WorldError::InvalidPrediction`] for a NaN, infinite or negative
    /// `p`; the world is unchanged on error.
    pub fn set_manifolds(&mut self, prediction: Option<T>) -> Result<(), WorldError> {
        if let Some(p) = prediction {
            if !(Float::is_finite(p) && p >= T::zero()) {
                return Err(WorldError::InvalidPrediction);
            }
        }
        let reach = prediction.map_or_else(T::zero, reach_of);
        if reach != self.manifolds.reach {
            // Every box is computed before anything changes (none can fail:
            // each was valid when filed, and growing clamps).
            let mut boxes = Vec::with_capacity(self.len);
            for (i, s) in self.slots.iter().enumerate() {
                if let Some(o) = &s.object {
                    let b = <Dim<D> as Space<T, D>>::bounding_box(o.shape(), &o.pose);
                    let b = if reach > T::zero() { grow(b, reach) } else { b };
                    if !b.is_valid() {
                        return Err(WorldError::NonFiniteBounds);
                    }
                    boxes.push((i as u32, b));
                }
            }
            for (id, b) in boxes {
                self.grid.update(id, b)?;
            }
            self.manifolds.reach = reach;
        }
        if prediction.is_none() {
            self.manifolds.history.clear();
            self.out.manifolds.clear();
        }
        self.manifolds.prediction = prediction;
        Ok(())
    }

    /// The manifold prediction: `None` with manifolds off
    /// ([`set_manifolds`](Self::set_manifolds)).
    #[must_use]
    pub fn manifold_prediction(&self) -> Option<T> {
        self.manifolds.prediction
    }

    /// A shape's bounding box at a pose as the grid files it (grown with
    /// manifolds on), checked.
    #[inline]
    pub(super) fn filed_bounds(
        &self,
        shape: &<Dim<D> as Space<T, D>>::Shape,
        pose: &<Dim<D> as Space<T, D>>::Pose,
    ) -> Result<BoundingBox<T, D>, WorldError> {
        let mut bounds = Self::checked_bounds(shape, pose)?;
        if self.manifolds.reach > T::zero() {
            bounds = grow(bounds, self.manifolds.reach);
        }
        Ok(bounds)
    }

    /// The manifold pass, after the contacts (`narrow_phase`, unchanged):
    /// each candidate pair's filters, then its manifold within `prediction`,
    /// recorded in pair order; then the matches against the previous query's
    /// ids. A second pass rather than a second query in the contact loop, so
    /// that the frame with manifolds off runs the very same code as without
    /// them.
    pub(super) fn collide_with_manifolds(
        &mut self,
        pairs: &[(u32, u32)],
        prediction: T,
        out: &mut Frame<T, D>,
    ) {
        out.manifolds.clear();
        self.manifold_pass(pairs, prediction, out);
        self.manifolds.match_previous(&mut out.manifolds);
    }

    #[cfg(not(feature = "rayon"))]
    fn manifold_pass(&self, pairs: &[(u32, u32)], prediction: T, out: &mut Frame<T, D>) {
        let mut failed = FailedContacts::new(out);
        for (i, &(a, b)) in pairs.iter().enumerate() {
            if let Some(&(pa, pb)) = pairs.get(i + super::LOOK_AHEAD) {
                self.touch(pa);
                self.touch(pb);
            }
            if let Some(manifold) = self.pair_manifold(a, b, prediction) {
                self.record_manifold(a, b, manifold, &mut failed, out);
            }
        }
    }

    /// On all cores, then recorded in pair order: identical to the serial
    /// pass.
    #[cfg(feature = "rayon")]
    fn manifold_pass(&self, pairs: &[(u32, u32)], prediction: T, out: &mut Frame<T, D>) {
        use rayon::prelude::*;
        let mut results = self
            .manifolds
            .results
            .lock()
            .map(|mut r| core::mem::take(&mut *r))
            .unwrap_or_default();
        pairs
            .par_iter()
            .map(|&(a, b)| self.pair_manifold(a, b, prediction))
            .collect_into_vec(&mut results);
        let mut failed = FailedContacts::new(out);
        for (&(a, b), r) in pairs.iter().zip(results.drain(..)) {
            if let Some(manifold) = r {
                self.record_manifold(a, b, manifold, &mut failed, out);
            }
        }
        if let Ok(mut r) = self.manifolds.results.lock() {
            *r = results;
        }
    }

    /// The manifold of a candidate pair, or `None` when the filters reject
    /// it.
    #[inline]
    fn pair_manifold(&self, a: u32, b: u32, prediction: T) -> PairManifoldResult<T, D> {
        let (oa, ob) = (self.object(a), self.object(b));
        if !oa.filter.accepts(&ob.filter) {
            return None;
        }
        Some(<Dim<D> as Space<T, D>>::contact_manifold_stored(
            &self.table,
            &oa.shape,
            &oa.pose,
            &ob.shape,
            &ob.pose,
            prediction,
        ))
    }

    /// Records a pair's manifold, unmatched, or its error unless its contact
    /// failed too (a pair is reported once).
    #[inline]
    fn record_manifold(
        &self,
        a: u32,
        b: u32,
        manifold: Result<(Option<ManifoldOf<T, D>>, Parts), DispatchError>,
        failed: &mut FailedContacts,
        out: &mut Frame<T, D>,
    ) {
        match manifold {
            Ok((Some(manifold), parts)) => out.manifolds.push(PairManifold {
                a: self.handle(a),
                b: self.handle(b),
                manifold,
                matched: [None; MAX_MANIFOLD_POINTS],
                parts,
            }),
            Ok((None, _)) => {}
            Err(e) => {
                let (ha, hb) = (self.handle(a), self.handle(b));
                if !failed.contains(out, ha, hb) {
                    out.errors.push((ha, hb, e));
                }
            }
        }
    }
}

/// The contact pass's errors (the first entries of `errors`, in pair order),
/// walked alongside the manifold pass, which visits the pairs in the same
/// order.
struct FailedContacts {
    /// How many of `errors` the contact pass wrote.
    len: usize,
    /// The next of them not yet passed.
    next: usize,
}

impl FailedContacts {
    fn new<C: crate::space::ContactType, H>(out: &crate::Collisions<C, H>) -> Self {
        Self {
            len: out.errors.len(),
            next: 0,
        }
    }

    /// Whether the contact of pair `(a, b)` failed; pairs are asked in
    /// increasing order.
    fn contains<C: crate::space::ContactType, H>(
        &mut self,
        out: &crate::Collisions<C, H>,
        a: Handle,
        b: Handle,
    ) -> bool {
        while self.next < self.len && (out.errors[self.next].0, out.errors[self.next].1) < (a, b) {
            self.next += 1;
        }
        self.next < self.len && (out.errors[self.next].0, out.errors[self.next].1) == (a, b)
    }
}
