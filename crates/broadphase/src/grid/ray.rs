//! The ray walk: the objects whose grid cells a ray crosses, each once, in
//! the order the ray reaches their cells, until a bound the caller may lower
//! as it goes (the nearest hit so far).
//!
//! Frame: world coordinates. Times are in units of the ray's direction: the
//! point at time `t` is `origin + t · dir`.
//!
//! Method (Amanatides and Woo's voxel traversal, "A fast voxel traversal
//! algorithm for ray tracing", Eurographics 1987, made conservative so that
//! rounding never loses a cell, and bounded):
//!
//! 1. **Per-axis times.** Along an axis where the ray moves, it may be in
//!    cell `k` during `[gain(k), loss(k)]`: the times it crosses the cell's
//!    near and far boundary, both pushed outward by a margin `δ` (below).
//!    Along a still axis (`dir = 0`) it stays in the cell of its origin.
//! 2. **Clip to the occupied box.** The ray is in the box of occupied cells
//!    during `[t₀, t₁]`: the latest gain of the box's first cells and the
//!    earliest loss of its last ones (`t₀ ≥ 0`). Cells outside hold nothing,
//!    so a ray starting far away costs nothing to get there.
//! 3. **Start.** At `t₀`, the keys active along each axis (one, or two
//!    where the margins overlap) give the first cells, visited at `t₀`.
//! 4. **Walk.** Take the next event in time: a gain (the ray reaches the next
//!    key along an axis) or a loss (it leaves the trailing one); at equal
//!    times gains first, so that closed cells are kept. A gain visits the
//!    cells made of the new key on its axis and the active keys of the others
//!    (one cell, or up to `2^(D−1)` near an edge or a corner). Stop when the
//!    next gain is later than the bound, or a loss leaves no active key
//!    inside the box (the ray has left it). A cell is visited at
//!    `max(t₀, max over axes of gain)`, the first time all its keys are
//!    active, so entries never decrease.
//! 5. **Each object once, without memory.** An object is filed in a box of
//!    cells (its range: the cells of its fat box, which contains its box, so
//!    what follows holds for the box too). The times at which every axis has
//!    an active key in the range form one interval (an intersection of intervals), so the
//!    walk meets the range in one run of events, and the first event of the
//!    run is recognised from the state alone: it is the start, or a gain of
//!    the range's entry key along that axis (the key before it was outside
//!    the range). Among the cells of the range visited at that event, the
//!    object is handed out at one: the first active key inside the range
//!    along every other axis. Its entry time is then the time the ray reaches
//!    its range, `max over axes of gain(entry key)`, the same number a scan
//!    computes.
//! 6. **Bounded cost.** After `occupied cells + 64` steps, the walk stops at
//!    the next change of time `t` and the rest is answered by a scan: every
//!    object whose range the ray reaches at or after `t`, sorted by entry
//!    time (ties by id). The walk also hands over to the scan when it reaches
//!    a cell whose margins exceed a quarter of a cell (cells smaller than a
//!    few float spacings of their coordinates: f32 cells of side 1 beyond
//!    about 1.3e5, or cells at the saturated keys `±2⁶²`). A ray therefore
//!    costs at most about the smaller of the cells it crosses and the cells
//!    the grid holds, and never loops: every event moves a key inside the
//!    bounded box.
//! 7. **Oversize objects** (not filed in cells) get the same entry time from
//!    their cell range and are merged into the stream in order.
//!
//! Why it is conservative: cell `k` along an axis holds the points `x` with
//! `⌊fl(x · (1/s))⌋ = k` (saturated at `±2⁶²`). Such a point satisfies
//! `k s (1 − 3u) ≤ x ≤ (k + 1) s (1 + 3u)` (`u = ε/2`: one rounding of the
//! product, one in `1/s`, one in `k s`), and the computed crossing time
//! `t' = fl(fl(b − o) · fl(1/d))` of a boundary `b` (or `fl(fl(b − o) / d)`
//! where `1/d` is not a normal number) places the ray at
//! `o + t' d = b ± 6u (|b| + |o|) ± |d| · (smallest subnormal)` (a relative
//! error in the subtraction, the reciprocal and the product, and an
//! absolute one when the product underflows). With the margin
//! `δ = 16 ε (|b| + |o|) + ε s + 4 |d| · (smallest subnormal)` every gain is
//! at or before the first time the exact ray can be in the cell, and every
//! loss at or after the last. An object whose box the exact ray meets at
//! time `t` has a point of its range's cells there, so it is visited with an
//! entry time `≤ t`, before the walk stops at a bound `≥ t`.
//!
//! A ray starting inside the box of occupied cells (the usual case) starts
//! at time 0 with the keys whose fattened extent holds the origin, decided
//! by comparing the origin with the fattened boundaries: the same keys as
//! `gain ≤ 0 ≤ loss` but where a quotient underflows to zero, and such a key
//! is one the exact ray never enters (it moves away from it) or one the
//! gain event at time 0 adds.
//!
//! Degenerate cases: an axis with `dir = 0` keeps one key; a ray parallel to
//! every axis but one walks a single row; a ray through a cell corner visits
//! every cell the margins touch there; `max_toi = +∞` ends where the ray
//! leaves the occupied box; times that overflow are `±∞` (never reached, or
//! reached from the start), never NaN.

use core::cmp::Ordering;
use core::ops::ControlFlow;

use num_traits::Float;
use shape::{Ray, Real};

use super::cells::{Cells, Member};
use super::{COORD_LIMIT, Grid, IN_CELLS, Key, is_limit};

/// Counts describing one walk of the grid (a ray walk or a ring search): what
/// it cost, for tests and benchmarks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct WalkStats {
    /// Steps taken: events of the walk, cells looked up, and objects and
    /// cells examined by a scan.
    pub steps: usize,
    /// Occupied cells visited.
    pub cells: usize,
    /// Objects handed to the visitor.
    pub objects: usize,
    /// Whether the answer was finished by a scan of the occupied cells (or of
    /// the objects) instead of the walk (module notes, step 6).
    pub scanned: bool,
}

/// Extra look-ups a walk may make beyond the number of occupied cells before
/// it switches to a scan.
pub(super) const EXTRA_STEPS: usize = 64;

/// The smallest positive subnormal number.
#[inline]
fn tiny<T: Real>() -> T {
    T::min_positive_value() * T::epsilon()
}

/// The ray as the walk sees it, with what every crossing time needs
/// computed once.
pub(super) struct RayWalk<'g, T: Real, const D: usize> {
    grid: &'g Grid<T, D>,
    cells: &'g Cells<T, D>,
    o: [T; D],
    d: [T; D],
    /// `1 / d` where it is a normal number (crossing times are then
    /// `(b − o) · inv`), else 0 (they are divided by `d`).
    inv: [T; D],
    /// The part of each axis's margin that does not depend on the boundary:
    /// `16 ε |o| + ε s + 4 |d| · (smallest subnormal)`.
    margin0: [T; D],
    /// Boundaries of magnitude at most this have margins of at most a
    /// quarter cell (module notes, step 6).
    fine_below: [T; D],
    /// `+1` or `−1`: the direction of travel along the axis; `0`: still.
    step: [i64; D],
    /// The key of the origin (the only key along a still axis).
    still: Key<D>,
}

/// The keys active along each axis, `lo[i]..=hi[i]`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Active<const D: usize> {
    lo: Key<D>,
    hi: Key<D>,
}

/// What a walk hands its cells to.
trait Sink<T: Real, const D: usize> {
    /// An occupied cell first reached at `entry`, by a gain along `axis`
    /// (`None`: a cell of the start), with the active keys after the event.
    /// Returns the bound: the walk stops at the first entry later than it.
    #[allow(clippy::too_many_arguments)]
    fn cell(
        &mut self,
        walk: &RayWalk<'_, T, D>,
        key: &Key<D>,
        members: &[Member<T, D>],
        entry: T,
        axis: Option<usize>,
        active: &Active<D>,
        bound: T,
    ) -> T;

    /// Hands out whatever is reached at or before `upto` and not yet handed
    /// out apart from cells (the oversize objects); returns the bound.
    fn flush(&mut self, upto: T, bound: T) -> T;

    /// Finishes by a scan: everything not yet handed out, reached at or after
    /// `from` (`t0`: the entry into the occupied box).
    fn scan(&mut self, walk: &RayWalk<'_, T, D>, t0: T, from: T, bound: T, stats: &mut WalkStats);
}

impl<'g, T: Real, const D: usize> RayWalk<'g, T, D> {
    fn new(grid: &'g Grid<T, D>, cells: &'g Cells<T, D>, ray: &Ray<T, D>) -> Self {
        let o: [T; D] = core::array::from_fn(|i| ray.origin[i]);
        let d: [T; D] = core::array::from_fn(|i| ray.dir[i]);
        let eps = T::epsilon();
        let s = grid.cell_size;
        let margin0: [T; D] = core::array::from_fn(|i| {
            T::lit(16.0) * eps * Float::abs(o[i])
                + eps * s
                + T::lit(4.0) * Float::abs(d[i]) * tiny::<T>()
        });
        Self {
            grid,
            cells,
            o,
            d,
            inv: d.map(|v| {
                let r = T::one() / v;
                if Float::is_normal(r) { r } else { T::zero() }
            }),
            margin0,
            fine_below: margin0.map(|m| (s * T::lit(0.25) - m) / (T::lit(16.0) * eps)),
            step: d.map(|v| {
                if v > T::zero() {
                    1
                } else if v < T::zero() {
                    -1
                } else {
                    0
                }
            }),
            still: core::array::from_fn(|i| grid.coord(o[i])),
        }
    }

    #[inline]
    fn boundary(&self, k: i64) -> T {
        self.grid.boundary(k)
    }

    /// The margin `δ` of boundary `b` along axis `j` (module notes):
    /// `16 ε (|b| + |o|) + ε s + 4 |d| · (smallest subnormal)`.
    #[inline]
    fn margin(&self, j: usize, b: T) -> T {
        T::lit(16.0) * T::epsilon() * Float::abs(b) + self.margin0[j]
    }

    /// The time the ray crosses coordinate `b` along moving axis `j`:
    /// `(b − o) / d`, by the reciprocal when it is a normal number (one more
    /// rounding, within the margin; module notes).
    #[inline]
    fn time(&self, j: usize, b: T) -> T {
        if self.inv[j] == T::zero() {
            (b - self.o[j]) / self.d[j]
        } else {
            (b - self.o[j]) * self.inv[j]
        }
    }

    /// Boundary `b` pushed outward by its margin: down (`up = false`) or up.
    #[inline]
    fn fat(&self, j: usize, b: T, up: bool) -> T {
        if !Float::is_finite(b) {
            return b;
        }
        let m = self.margin(j, b);
        if up { b + m } else { b - m }
    }

    /// The earliest time the ray may be in cell `k` along moving axis `j`.
    #[inline]
    fn gain(&self, j: usize, k: i64) -> T {
        let b = if self.step[j] > 0 {
            self.fat(j, self.boundary(k), false)
        } else {
            self.fat(j, self.boundary(k + 1), true)
        };
        self.time(j, b)
    }

    /// The latest time the ray may be in cell `k` along moving axis `j`.
    #[inline]
    fn loss(&self, j: usize, k: i64) -> T {
        let b = if self.step[j] > 0 {
            self.fat(j, self.boundary(k + 1), true)
        } else {
            self.fat(j, self.boundary(k), false)
        };
        self.time(j, b)
    }

    /// Whether the origin lies in cell `k`'s extent along moving axis `j`,
    /// both boundaries pushed outward by their margins: `gain(k) ≤ 0 ≤
    /// loss(k)` decided without dividing (the quotients have the signs of
    /// the differences, so the two agree but where a quotient underflows to
    /// zero, and there the origin is outside the fattened cell and stays
    /// outside: the ray moves away or the gain event at time 0 adds it).
    #[inline]
    fn holds_origin(&self, j: usize, k: i64) -> bool {
        let lo = self.fat(j, self.boundary(k), false);
        let hi = self.fat(j, self.boundary(k + 1), true);
        lo <= self.o[j] && self.o[j] <= hi
    }

    /// Whether the origin lies in the box of cells `lo..=hi`, fattened as in
    /// [`holds_origin`](Self::holds_origin): then the walk starts at time 0
    /// and [`span`](Self::span) need not divide.
    #[inline]
    fn starts_inside(&self, lo: &Key<D>, hi: &Key<D>) -> bool {
        (0..D).all(|j| {
            if self.step[j] == 0 {
                lo[j] <= self.still[j] && self.still[j] <= hi[j]
            } else {
                self.fat(j, self.boundary(lo[j]), false) <= self.o[j]
                    && self.o[j] <= self.fat(j, self.boundary(hi[j] + 1), true)
            }
        })
    }

    /// The keys active along moving axis `j` at time 0: the origin's key and
    /// its neighbours whose fattened extent holds the origin (`None` past
    /// four either way, as [`active_at`](Self::active_at)).
    fn active_at_start(&self, j: usize) -> Option<(i64, i64)> {
        let k = self.grid.coord(self.o[j]);
        if !self.holds_origin(j, k) {
            return self.active_at(j, T::zero());
        }
        // A key below holds the origin when its fattened upper boundary
        // reaches it (its lower one is a cell farther down); a key above,
        // when its fattened lower boundary does.
        let (mut a, mut b) = (k, k);
        while a > -COORD_LIMIT && self.o[j] <= self.fat(j, self.boundary(a), true) {
            if k - a >= 4 {
                return None;
            }
            a -= 1;
        }
        while b < COORD_LIMIT && self.fat(j, self.boundary(b + 1), false) <= self.o[j] {
            if b - k >= 4 {
                return None;
            }
            b += 1;
        }
        Some((a, b))
    }

    /// The times `(enter, exit)` during which the ray may be in the box of
    /// cells `lo..=hi` (`0 ≤ enter ≤ exit`), or `None` when it never is.
    pub(super) fn span(&self, lo: &Key<D>, hi: &Key<D>) -> Option<(T, T)> {
        let (mut enter, mut exit) = (T::zero(), T::infinity());
        for j in 0..D {
            let (first, last) = match self.step[j] {
                0 => {
                    if self.still[j] < lo[j] || self.still[j] > hi[j] {
                        return None;
                    }
                    continue;
                }
                1 => (lo[j], hi[j]),
                _ => (hi[j], lo[j]),
            };
            enter = Float::max(enter, self.gain(j, first));
            exit = Float::min(exit, self.loss(j, last));
        }
        (enter <= exit).then_some((enter, exit))
    }

    /// Whether the margins of cell `k`'s boundaries along moving axis `j` are
    /// narrow enough for the walk: at most a quarter of a cell, so that gains
    /// and losses increase with the key and at most two keys are active
    /// (false for cells smaller than a few float spacings of their
    /// coordinates, or at the saturated keys, whose far boundary is infinite).
    #[inline]
    fn fine(&self, j: usize, k: i64) -> bool {
        // `margin(j, b) ≤ s / 4` ⟺ `|b| ≤ (s / 4 − margin0) / (16 ε)`,
        // up to the rounding of that threshold (a heuristic switch).
        let b = Float::max(
            Float::abs(self.boundary(k)),
            Float::abs(self.boundary(k + 1)),
        );
        b <= self.fine_below[j]
    }

    /// The keys active along moving axis `j` at time `t`: those with
    /// `gain ≤ t ≤ loss`, found from the key of the ray's point at `t`; `None`
    /// if the search does not settle within a few keys (a scan answers).
    fn active_at(&self, j: usize, t: T) -> Option<(i64, i64)> {
        let active = |k: i64| self.gain(j, k) <= t && t <= self.loss(j, k);
        let clamp = |k: i64| k.clamp(-COORD_LIMIT, COORD_LIMIT);
        let mut k = self.grid.coord(self.o[j] + t * self.d[j]);
        let mut found = false;
        for _ in 0..5 {
            if active(k) {
                found = true;
                break;
            }
            // Not reached yet: step back; already left: step on.
            k = clamp(if self.gain(j, k) > t {
                k - self.step[j]
            } else {
                k + self.step[j]
            });
        }
        if !found {
            return None;
        }
        // The neighbours that are active too (usually none, one near a
        // boundary); more than four either way: too wide for the walk.
        let (mut a, mut b) = (k, k);
        while a > -COORD_LIMIT && active(a - 1) {
            if k - a >= 4 {
                return None;
            }
            a -= 1;
        }
        while b < COORD_LIMIT && active(b + 1) {
            if b - k >= 4 {
                return None;
            }
            b += 1;
        }
        Some((a, b))
    }

    /// The next key along moving axis `j` and the time it is gained, if it
    /// lies in the box `lo..=hi`.
    #[inline]
    fn next_gain(&self, j: usize, active: &Active<D>, lo: &Key<D>, hi: &Key<D>) -> Option<T> {
        let k = if self.step[j] > 0 {
            active.hi[j] + 1
        } else {
            active.lo[j] - 1
        };
        (lo[j] <= k && k <= hi[j]).then(|| self.gain(j, k))
    }

    /// The time the trailing key along moving axis `j` is lost.
    #[inline]
    fn next_loss(&self, j: usize, active: &Active<D>) -> T {
        let k = if self.step[j] > 0 {
            active.lo[j]
        } else {
            active.hi[j]
        };
        self.loss(j, k)
    }

    /// Whether the object of record `m` is handed out at cell `key` (module
    /// notes, step 5): along the gain's axis the cell must be the range's
    /// entry key; along every other axis the first active key inside the
    /// range, which, the cell's key being active, is the cell itself when
    /// it is the first active key or the range's first key (read from the
    /// record's offsets).
    #[inline]
    fn first_visit(
        &self,
        key: &Key<D>,
        m: &Member<T, D>,
        axis: Option<usize>,
        active: &Active<D>,
    ) -> bool {
        (0..D).all(|j| {
            let (below, above) = m.extent_from(j);
            if Some(j) == axis {
                if self.step[j] > 0 {
                    below == 0
                } else {
                    above == 0
                }
            } else if self.step[j] >= 0 {
                below == 0 || key[j] == active.lo[j]
            } else {
                above == 0 || key[j] == active.hi[j]
            }
        })
    }

    /// Visits the occupied cells among the keys `lo..=hi` ∩ the box; `false`
    /// when the bound fell below `entry` (the walk stops).
    #[allow(clippy::too_many_arguments)]
    fn visit_cells<S: Sink<T, D>>(
        &self,
        sink: &mut S,
        keys: (&Key<D>, &Key<D>),
        bounds: (&Key<D>, &Key<D>),
        entry: T,
        axis: Option<usize>,
        active: &Active<D>,
        bound: &mut T,
        stats: &mut WalkStats,
    ) -> bool {
        let lo: Key<D> = core::array::from_fn(|i| keys.0[i].max(bounds.0[i]));
        let hi: Key<D> = core::array::from_fn(|i| keys.1[i].min(bounds.1[i]));
        if (0..D).any(|i| lo[i] > hi[i]) {
            return true;
        }
        let mut k = lo;
        loop {
            stats.steps += 1;
            if let Some(ms) = self.cells.get(&k) {
                stats.cells += 1;
                *bound = sink.cell(self, &k, ms, entry, axis, active, *bound);
                if entry > *bound {
                    return false;
                }
            }
            // Odometer over the axes.
            let mut i = 0;
            loop {
                if i == D {
                    return true;
                }
                if k[i] < hi[i] {
                    k[i] += 1;
                    break;
                }
                k[i] = lo[i];
                i += 1;
            }
        }
    }

    /// The walk (module notes, steps 2 to 7).
    fn run<S: Sink<T, D>>(&self, max_toi: T, sink: &mut S) -> WalkStats {
        let mut stats = WalkStats::default();
        let mut bound = max_toi;
        let Some((blo, bhi)) = self.cells.occupied() else {
            sink.flush(T::infinity(), bound);
            return stats;
        };
        // A ray starting in the occupied box (the usual case) enters it at
        // time 0: no division.
        let t0 = if self.starts_inside(&blo, &bhi) {
            T::zero()
        } else if let Some((t0, _)) = self.span(&blo, &bhi) {
            t0
        } else {
            sink.flush(T::infinity(), bound);
            return stats;
        };
        if !Float::is_finite(t0) || t0 > bound {
            sink.flush(T::infinity(), bound);
            return stats;
        }
        // Step 3: the keys active at the entry.
        let mut active = Active {
            lo: self.still,
            hi: self.still,
        };
        let mut walkable = true;
        for j in 0..D {
            if self.step[j] != 0 && walkable {
                let keys = if t0 == T::zero() {
                    self.active_at_start(j)
                } else {
                    self.active_at(j, t0)
                };
                match keys {
                    Some((a, b)) if self.fine(j, a) && self.fine(j, b) => {
                        (active.lo[j], active.hi[j]) = (a, b);
                    }
                    _ => walkable = false,
                }
            }
        }
        if !walkable {
            stats.scanned = true;
            sink.scan(self, t0, T::neg_infinity(), bound, &mut stats);
            return stats;
        }
        bound = sink.flush(t0, bound);
        if t0 > bound {
            return stats;
        }
        let (lo, hi) = (active.lo, active.hi);
        if !self.visit_cells(
            sink,
            (&lo, &hi),
            (&blo, &bhi),
            t0,
            None,
            &active,
            &mut bound,
            &mut stats,
        ) {
            return stats;
        }
        // Step 4: the events.
        let budget = self.cells.count() + EXTRA_STEPS;
        let mut gains: [Option<T>; D] = [None; D];
        let mut losses: [Option<T>; D] = [None; D];
        for j in 0..D {
            if self.step[j] != 0 {
                gains[j] = self.next_gain(j, &active, &blo, &bhi);
                losses[j] = Some(self.next_loss(j, &active));
            }
        }
        let mut last = t0;
        // Set when the walk reaches a cell whose margins are too wide: it
        // then switches to a scan at the next change of time (one more key
        // is safe: gains stay increasing until margins of several cells).
        let mut coarse = false;
        while let Some((a, tg)) = earliest(&gains) {
            // Losses strictly before the gain (at equal times, gains first).
            while let Some((b, tl)) = earliest(&losses) {
                if tl >= tg {
                    break;
                }
                stats.steps += 1;
                if self.step[b] > 0 {
                    active.lo[b] += 1;
                } else {
                    active.hi[b] -= 1;
                }
                if active.lo[b].max(blo[b]) > active.hi[b].min(bhi[b]) {
                    // No active key left inside the box: the ray has left it.
                    sink.flush(T::infinity(), bound);
                    return stats;
                }
                losses[b] = Some(self.next_loss(b, &active));
            }
            // A gain at `+∞` is never reached (a direction so small that
            // the next boundary's time overflows): the walk is over, even
            // under an unbounded `max_toi` (`∞ > ∞` is false).
            if tg > bound || !Float::is_finite(tg) {
                break;
            }
            stats.steps += 1;
            if tg > last && (coarse || stats.steps > budget) {
                stats.scanned = true;
                sink.scan(self, t0, tg, bound, &mut stats);
                return stats;
            }
            last = tg;
            bound = sink.flush(tg, bound);
            if tg > bound {
                return stats;
            }
            let k = if self.step[a] > 0 {
                active.hi[a] += 1;
                active.hi[a]
            } else {
                active.lo[a] -= 1;
                active.lo[a]
            };
            gains[a] = self.next_gain(a, &active, &blo, &bhi);
            coarse |= !self.fine(a, k);
            let mut lo = active.lo;
            let mut hi = active.hi;
            (lo[a], hi[a]) = (k, k);
            if !self.visit_cells(
                sink,
                (&lo, &hi),
                (&blo, &bhi),
                tg,
                Some(a),
                &active,
                &mut bound,
                &mut stats,
            ) {
                return stats;
            }
        }
        sink.flush(T::infinity(), bound);
        stats
    }
}

/// The earliest of the given times and its axis (the lowest axis at ties).
#[inline]
fn earliest<T: Real, const D: usize>(times: &[Option<T>; D]) -> Option<(usize, T)> {
    let mut best: Option<(usize, T)> = None;
    for (j, t) in times.iter().enumerate() {
        if let Some(t) = *t {
            if best.is_none_or(|(_, b)| t < b) {
                best = Some((j, t));
            }
        }
    }
    best
}

/// Orders `(time, id)` entries by time, then id (times are never NaN).
#[inline]
fn by_time<T: Real, K: Ord>(a: &(T, K), b: &(T, K)) -> Ordering {
    a.0.partial_cmp(&b.0)
        .unwrap_or(Ordering::Equal)
        .then_with(|| a.1.cmp(&b.1))
}

/// A short list of `(entry, id)` kept inline up to eight entries (the
/// oversize objects on a ray: usually a few), so that a walk allocates
/// nothing in the common case.
struct Pending<T: Real> {
    inline: [(T, u32); 8],
    len: usize,
    spill: Vec<(T, u32)>,
    next: usize,
}

impl<T: Real> Pending<T> {
    fn new() -> Self {
        Self {
            inline: [(T::zero(), 0); 8],
            len: 0,
            spill: Vec::new(),
            next: 0,
        }
    }

    fn push(&mut self, x: (T, u32)) {
        if self.len < self.inline.len() {
            self.inline[self.len] = x;
        } else {
            if self.spill.is_empty() {
                self.spill.extend_from_slice(&self.inline);
            }
            self.spill.push(x);
        }
        self.len += 1;
    }

    fn as_mut_slice(&mut self) -> &mut [(T, u32)] {
        if self.len <= self.inline.len() {
            &mut self.inline[..self.len]
        } else {
            &mut self.spill
        }
    }

    /// The entries not yet handed out.
    fn rest(&mut self) -> &[(T, u32)] {
        let next = self.next;
        &self.as_mut_slice()[next..]
    }
}

/// The object-level sink: each object once, with the time the ray reaches its
/// range.
struct Objects<T: Real, F> {
    visit: F,
    oversize: Pending<T>,
    objects: usize,
}

impl<T: Real, F: FnMut(u32, T) -> T> Objects<T, F> {
    #[inline]
    fn hand_out(&mut self, id: u32, entry: T) -> T {
        self.objects += 1;
        (self.visit)(id, entry)
    }
}

impl<T: Real, const D: usize, F: FnMut(u32, T) -> T> Sink<T, D> for Objects<T, F> {
    #[inline]
    fn cell(
        &mut self,
        walk: &RayWalk<'_, T, D>,
        key: &Key<D>,
        members: &[Member<T, D>],
        entry: T,
        axis: Option<usize>,
        active: &Active<D>,
        mut bound: T,
    ) -> T {
        for m in members {
            if walk.first_visit(key, m, axis, active) {
                bound = self.hand_out(m.id, entry);
                if entry > bound {
                    break;
                }
            }
        }
        bound
    }

    fn flush(&mut self, upto: T, mut bound: T) -> T {
        while let Some(&(t, id)) = self.oversize.rest().first() {
            if t > upto || t > bound {
                break;
            }
            self.oversize.next += 1;
            bound = self.hand_out(id, t);
        }
        bound
    }

    fn scan(
        &mut self,
        walk: &RayWalk<'_, T, D>,
        _t0: T,
        from: T,
        mut bound: T,
        stats: &mut WalkStats,
    ) {
        let mut list: Vec<(T, u32)> = self.oversize.rest().to_vec();
        for (id, f) in walk.grid.filings.iter().enumerate() {
            if f.slot != IN_CELLS {
                continue;
            }
            stats.steps += 1;
            if let Some((enter, _)) = walk.span(&f.lo, &f.hi()) {
                if enter >= from && enter <= bound {
                    list.push((enter, id as u32));
                }
            }
        }
        list.sort_unstable_by(by_time);
        for (t, id) in list {
            if t > bound {
                break;
            }
            bound = self.hand_out(id, t);
        }
    }
}

/// The cell-level sink: every occupied cell the ray may cross, with its entry
/// time.
struct CellSink<F> {
    visit: F,
}

impl<T: Real, const D: usize, F: FnMut(Key<D>, T) -> ControlFlow<()>> Sink<T, D> for CellSink<F> {
    fn cell(
        &mut self,
        _walk: &RayWalk<'_, T, D>,
        key: &Key<D>,
        _members: &[Member<T, D>],
        entry: T,
        _axis: Option<usize>,
        _active: &Active<D>,
        bound: T,
    ) -> T {
        match (self.visit)(*key, entry) {
            ControlFlow::Continue(()) => bound,
            ControlFlow::Break(()) => T::neg_infinity(),
        }
    }

    fn flush(&mut self, _upto: T, bound: T) -> T {
        bound
    }

    fn scan(&mut self, walk: &RayWalk<'_, T, D>, t0: T, from: T, bound: T, stats: &mut WalkStats) {
        let mut list: Vec<(T, Key<D>)> = Vec::new();
        walk.cells.each(|key, _| {
            stats.steps += 1;
            if let Some((enter, exit)) = walk.span(key, key) {
                let entry = Float::max(enter, t0);
                if entry >= from && entry <= exit && entry <= bound {
                    list.push((entry, *key));
                }
            }
        });
        list.sort_unstable_by(by_time);
        for (t, key) in list {
            stats.cells += 1;
            if (self.visit)(key, t).is_break() {
                return;
            }
        }
    }
}

impl<T: Real, const D: usize> Grid<T, D> {
    /// The lower boundary of cell `k` along an axis, `k · s` (`−∞` for the
    /// lowest cell, `+∞` above the highest).
    #[inline]
    pub(super) fn boundary(&self, k: i64) -> T {
        if k <= -COORD_LIMIT {
            T::neg_infinity()
        } else if k > COORD_LIMIT {
            T::infinity()
        } else {
            T::lit(k as f64) * self.cell_size
        }
    }

    /// The margin by which a cell boundary `b` is pushed outward so that the
    /// cell keys of points near a query coordinate `q` are never misjudged:
    /// `16 ε (|b| + |q|) + ε s` (module notes).
    #[inline]
    pub(super) fn rounding_margin(&self, b: T, q: T) -> T {
        let eps = T::epsilon();
        T::lit(16.0) * eps * (Float::abs(b) + Float::abs(q)) + eps * self.cell_size
    }

    /// Hands every object whose cells `ray` may cross at a time `≤ max_toi`
    /// to `visit`, once, with that time (its *entry*: the earliest time the
    /// ray may be in one of the object's cells, those its fat box covers, in
    /// units of `ray.dir`), in
    /// nondecreasing entry order (ties in no set order). `visit` returns the
    /// bound for the rest of the walk, usually the nearest hit found so far:
    /// the walk stops at the first entry later than it (return a negative
    /// number to stop at once).
    ///
    /// This is the broad phase of a ray cast: every object whose box the ray
    /// meets at a time `t ≤` the bound is handed out with an entry `≤ t`
    /// (conservative by a margin of a few float spacings; module notes in
    /// `grid/ray.rs`). The walk visits only the cells the ray crosses inside
    /// the box of occupied cells, so a ray costs what it crosses, not the
    /// grid's size; a walk that would cross more cells than the grid holds
    /// finishes by a scan of the objects instead (`WalkStats::scanned`).
    /// Objects in the oversize list are handed out in the same order.
    ///
    /// A ray that is not valid ([`Ray::is_valid`]) or a `max_toi` that is
    /// NaN or negative visits nothing.
    ///
    /// ```
    /// use nalgebra::{Point2, Vector2};
    /// use broadphase::Grid;
    /// use shape::{BoundingBox2, Ray};
    ///
    /// let b = |x0: f64, y0: f64, x1: f64, y1: f64| BoundingBox2::new(Point2::new(x0, y0), Point2::new(x1, y1));
    /// // Margin 0: each object is filed by its own box (a fat box would make
    /// // entries earlier, by up to the margin).
    /// let mut grid = Grid::with_margin(1.0, 0.0).unwrap();
    /// grid.insert(0, b(5.0, -0.5, 6.0, 0.5)).unwrap();
    /// grid.insert(1, b(2.0, -0.5, 3.5, 0.5)).unwrap(); // spans two cells, handed out once
    /// grid.insert(2, b(2.0, 4.0, 3.0, 5.0)).unwrap(); // off the ray
    /// let ray = Ray::new(Point2::new(0.0, 0.25), Vector2::new(1.0, 0.0));
    /// let mut seen = Vec::new();
    /// grid.walk_ray(&ray, f64::INFINITY, |id, entry| {
    ///     seen.push((id, entry));
    ///     f64::INFINITY // keep going
    /// });
    /// assert_eq!(seen.iter().map(|s| s.0).collect::<Vec<_>>(), vec![1, 0]);
    /// assert!(seen[0].1 <= 2.0 && seen[0].1 > 1.99); // the cell at x = 2
    /// // A bound stops the walk: nothing beyond time 4.
    /// let mut near = Vec::new();
    /// grid.walk_ray(&ray, 4.0, |id, _| { near.push(id); 4.0 });
    /// assert_eq!(near, vec![1]);
    /// ```
    pub fn walk_ray(
        &self,
        ray: &Ray<T, D>,
        max_toi: T,
        visit: impl FnMut(u32, T) -> T,
    ) -> WalkStats {
        if !ray.is_valid() || !is_limit(max_toi) {
            return WalkStats::default();
        }
        let walk = RayWalk::new(self, self.cells(), ray);
        let mut oversize = Pending::new();
        for &id in &self.oversize {
            if let Some(f) = self.filing(id) {
                let (lo, hi) = self.range(id, f);
                if let Some((enter, _)) = walk.span(&lo, &hi) {
                    if enter <= max_toi {
                        oversize.push((enter, id));
                    }
                }
            }
        }
        oversize.as_mut_slice().sort_unstable_by(by_time);
        let mut sink = Objects {
            visit,
            oversize,
            objects: 0,
        };
        let mut stats = walk.run(max_toi, &mut sink);
        stats.steps += self.oversize.len();
        stats.objects = sink.objects;
        stats
    }

    /// Calls `visit` with every occupied cell (its key, see
    /// [`Grid::cell_of`]) that `ray` may cross at a time `≤ max_toi`, and the
    /// earliest time it may be there, in nondecreasing time order (ties by
    /// key), each once, until `visit` breaks. The cells of
    /// [`walk_ray`](Self::walk_ray), for tests and pictures; oversize objects
    /// are not in cells.
    ///
    /// ```
    /// use core::ops::ControlFlow;
    /// use nalgebra::{Point2, Vector2};
    /// use broadphase::Grid;
    /// use shape::{BoundingBox2, Ray};
    /// let b = |x0: f64, y0: f64, x1: f64, y1: f64| BoundingBox2::new(Point2::new(x0, y0), Point2::new(x1, y1));
    /// let mut grid = Grid::new(2.0).unwrap();
    /// grid.insert(0, b(0.5, 0.5, 2.5, 1.0)).unwrap(); // cells (0, 0) and (1, 0)
    /// grid.insert(1, b(4.5, 4.5, 5.0, 5.0)).unwrap(); // cell (2, 2)
    /// let ray = Ray::new(Point2::new(-1.0, 0.5), Vector2::new(1.0, 0.0));
    /// let mut cells = Vec::new();
    /// grid.ray_cells(&ray, 100.0, |key, _| { cells.push(key); ControlFlow::Continue(()) });
    /// assert_eq!(cells, vec![[0, 0], [1, 0]]);
    /// ```
    pub fn ray_cells(
        &self,
        ray: &Ray<T, D>,
        max_toi: T,
        visit: impl FnMut([i64; D], T) -> ControlFlow<()>,
    ) -> WalkStats {
        if !ray.is_valid() || !is_limit(max_toi) {
            return WalkStats::default();
        }
        RayWalk::new(self, self.cells(), ray).run(max_toi, &mut CellSink { visit })
    }

    /// The key of the cell holding `p` (each coordinate `⌊x / s⌋`, saturated
    /// at `±2⁶²`).
    ///
    /// ```
    /// use nalgebra::Point2;
    /// let grid = broadphase::Grid::<f64, 2>::new(2.0).unwrap();
    /// assert_eq!(grid.cell_of(&Point2::new(3.0, -0.5)), [1, -1]);
    /// ```
    #[must_use]
    pub fn cell_of(&self, p: &nalgebra::Point<T, D>) -> [i64; D] {
        self.key(p)
    }
}
