//! The ring search: the objects near a point, handed out ring of cells by
//! ring of cells outward, each once, until the rings are farther than a bound
//! the caller may lower as it goes (the nearest distance so far).
//!
//! Frame: world coordinates; distances are Euclidean.
//!
//! Method:
//!
//! 1. **Rings.** Let `c` be the key of the point's cell. Ring `r` is the set
//!    of cells at Chebyshev distance `r` from `c` (`max over axes of
//!    |kᵢ − cᵢ| = r`); ring 0 is `c` itself.
//! 2. **Ring bound.** A point whose cell is on ring `r` or beyond has, along
//!    some axis, a key `≥ cᵢ + r` or `≤ cᵢ − r`, so it is at least
//!    `bound(r) = min over axes of (lower boundary of cell cᵢ + r) − pᵢ and
//!    pᵢ − (upper boundary of cell cᵢ − r)` away from `p`. The boundaries are
//!    pushed outward by the walk's margin (`16 ε (|b| + |p|) + ε s`, see
//!    `grid/ray.rs`), and the result is scaled by `1 − 4 ε`, so that rounding
//!    never makes it exceed the true distance. `bound` never decreases with
//!    `r`.
//! 3. **Walk outward.** Rings run from the first that meets the box of
//!    occupied cells to the last; the search stops before the first ring
//!    whose bound exceeds the caller's bound. Only the part of a ring inside
//!    the occupied box is enumerated (an odometer over the clipped cube that
//!    takes only the two end cells of a row lying inside the ring's
//!    interior).
//! 4. **Each object once, without memory.** An object is filed in a box of
//!    cells (its range: those of its fat box, which contains its box) at Chebyshev distance `R` from `c`. The range meets
//!    the cube of radius `R` but not the one of radius `R − 1`, so its cells
//!    in the cube of radius `R` all lie on ring `R`; the object is handed out
//!    at the lowest of them, the cell `max(loᵢ, cᵢ − R)` along every axis,
//!    and skipped in its other cells.
//! 5. **Pruning.** An object is handed out with the distance from `p` to its
//!    box scaled by `1 − 8 ε` (a lower bound on the distance to the shape,
//!    which lies in its box), and skipped when that exceeds the bound.
//! 6. **Bounded cost.** When a ring would take the search past
//!    `occupied cells + 64` look-ups, the rest is a scan of the occupied
//!    cells (same rule for each object, in no particular order).
//! 7. **Oversize objects** come first, each once, by their box.
//!
//! Why it is correct: every object at distance `ρ ≤` the bound from `p` has
//! a point in one of its cells, on some ring `r` with `bound(r) ≤ ρ`, and its
//! box bound is `≤ ρ`; the search reaches ring `R ≤ r` of the object before
//! stopping, and hands it out there.

use nalgebra::Point;
use num_traits::Float;
use shape::{BoundingBox, Real};

use super::cells::Cells;
use super::ray::EXTRA_STEPS;
use super::{COORD_LIMIT, Grid, Key, WalkStats, is_limit};

/// A lower bound on the distance from `p` to the closed box `b`: the
/// Euclidean norm of the per-axis gaps, scaled by the largest gap first (no
/// overflow or underflow of the squares), times `1 − 8 ε` for rounding.
#[inline]
pub(crate) fn box_distance_bound<T: Real, const D: usize>(
    p: &Point<T, D>,
    b: &BoundingBox<T, D>,
) -> T {
    let gaps: [T; D] = core::array::from_fn(|i| {
        Float::max(Float::max(b.min[i] - p[i], p[i] - b.max[i]), T::zero())
    });
    let m = gaps.iter().fold(T::zero(), |m, g| Float::max(m, *g));
    if m == T::zero() || !Float::is_finite(m) {
        return m;
    }
    let sum = gaps.iter().fold(T::zero(), |s, g| s + (*g / m) * (*g / m));
    m * Float::sqrt(sum) * (T::one() - T::lit(8.0) * T::epsilon())
}

/// The Chebyshev gap from key `c` to the interval `lo..=hi` along one axis.
#[inline]
fn gap(c: i64, lo: i64, hi: i64) -> i128 {
    if c < lo {
        i128::from(lo) - i128::from(c)
    } else if c > hi {
        i128::from(c) - i128::from(hi)
    } else {
        0
    }
}

/// The Chebyshev distance from key `c` to the box of keys `lo..=hi`.
#[inline]
fn ring_of<const D: usize>(c: &Key<D>, lo: &Key<D>, hi: &Key<D>) -> i128 {
    (0..D).map(|i| gap(c[i], lo[i], hi[i])).max().unwrap_or(0)
}

/// The cube of radius `r` around `c`, clipped to `blo..=bhi`, or `None` when
/// empty.
#[inline]
fn clipped_cube<const D: usize>(
    c: &Key<D>,
    r: i128,
    blo: &Key<D>,
    bhi: &Key<D>,
) -> Option<(Key<D>, Key<D>)> {
    if r < 0 {
        return None;
    }
    // Within i64: the bounds are keys.
    let lo: Key<D> =
        core::array::from_fn(|i| (i128::from(c[i]) - r).max(i128::from(blo[i])) as i64);
    let hi: Key<D> =
        core::array::from_fn(|i| (i128::from(c[i]) + r).min(i128::from(bhi[i])) as i64);
    (0..D).all(|i| lo[i] <= hi[i]).then_some((lo, hi))
}

/// The number of cells of a box of keys.
#[inline]
fn count<const D: usize>(b: Option<(Key<D>, Key<D>)>) -> u128 {
    b.map_or(0, |(lo, hi)| {
        (0..D).fold(1u128, |n, i| {
            n.saturating_mul((i128::from(hi[i]) - i128::from(lo[i]) + 1) as u128)
        })
    })
}

/// Calls `f` with every cell of ring `r` around `c` inside `blo..=bhi`.
fn for_each_ring_cell<const D: usize>(
    c: &Key<D>,
    r: i128,
    blo: &Key<D>,
    bhi: &Key<D>,
    mut f: impl FnMut(&Key<D>),
) {
    let Some((lo, hi)) = clipped_cube(c, r, blo, bhi) else {
        return;
    };
    let on_ring = |k: &Key<D>, i: usize| (i128::from(k[i]) - i128::from(c[i])).abs() == r;
    let mut k = lo;
    loop {
        // Axis 0 varies fastest: a whole row when another axis is on the
        // ring, else only the row's two end cells (the rest is interior).
        if (1..D).any(|i| on_ring(&k, i)) {
            for x in lo[0]..=hi[0] {
                k[0] = x;
                f(&k);
            }
        } else {
            let (a, b) = (i128::from(c[0]) - r, i128::from(c[0]) + r);
            for x in [a, b].into_iter().take(if r == 0 { 1 } else { 2 }) {
                if i128::from(lo[0]) <= x && x <= i128::from(hi[0]) {
                    k[0] = x as i64;
                    f(&k);
                }
            }
        }
        k[0] = lo[0];
        let mut i = 1;
        loop {
            if i >= D {
                return;
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

impl<T: Real, const D: usize> Grid<T, D> {
    /// A lower bound on the distance from `p` (in cell `c`) to any point in a
    /// cell of ring `r` or beyond (module notes, step 2).
    fn ring_bound(&self, p: &Point<T, D>, c: &Key<D>, r: i128) -> T {
        if r <= 0 {
            return T::zero();
        }
        let limit = i128::from(COORD_LIMIT);
        let mut least = T::infinity();
        for j in 0..D {
            let up = i128::from(c[j]) + r;
            if up <= limit {
                let b = self.boundary(up as i64);
                let b = if Float::is_finite(b) {
                    b - self.rounding_margin(b, p[j])
                } else {
                    b
                };
                least = Float::min(least, b - p[j]);
            }
            let down = i128::from(c[j]) - r;
            if down >= -limit {
                let b = self.boundary(down as i64 + 1);
                let b = if Float::is_finite(b) {
                    b + self.rounding_margin(b, p[j])
                } else {
                    b
                };
                least = Float::min(least, p[j] - b);
            }
        }
        Float::max(least * (T::one() - T::lit(4.0) * T::epsilon()), T::zero())
    }

    /// Hands the objects of cell `key` (on ring `r`) whose turn it is to
    /// `visit` (module notes, steps 4 and 5).
    #[allow(clippy::too_many_arguments)]
    fn ring_cell(
        &self,
        cells: &Cells<T, D>,
        p: &Point<T, D>,
        c: &Key<D>,
        r: i128,
        key: &Key<D>,
        bound: &mut T,
        visit: &mut impl FnMut(u32, T) -> T,
        stats: &mut WalkStats,
    ) {
        let Some(ms) = cells.get(key) else {
            return;
        };
        stats.cells += 1;
        for m in ms {
            let (lo, hi) = (m.lo(key), m.hi(key));
            if ring_of(c, &lo, &hi) != r
                || (0..D)
                    .any(|i| i128::from(key[i]) != (i128::from(c[i]) - r).max(i128::from(lo[i])))
            {
                continue;
            }
            let id = m.id;
            let lb = box_distance_bound(p, &self.boxes[id as usize]);
            if lb <= *bound {
                stats.objects += 1;
                *bound = visit(id, lb);
            }
        }
    }

    /// Hands every object whose box may lie within `max_distance` of `p` to
    /// `visit`, once, with a lower bound on its distance from `p` (the
    /// distance to its box, less a few ulps). `visit` returns the bound for
    /// the rest of the search, usually the nearest distance found so far:
    /// objects whose lower bound exceeds it are skipped, and the search stops
    /// at the first ring of cells wholly beyond it (return a negative number
    /// to stop at once).
    ///
    /// Oversize objects come first, then the cells ring by ring outward from
    /// the point's cell (module notes in `grid/rings.rs`), so the search
    /// costs the rings up to the nearest object, not the grid's size; a
    /// search that would look at more cells than the grid holds finishes by
    /// a scan (`WalkStats::scanned`). Objects are not handed out in order of
    /// distance.
    ///
    /// A point with a NaN or infinite coordinate, or a `max_distance` that is
    /// NaN or negative, visits nothing.
    ///
    /// ```
    /// use nalgebra::Point2;
    /// use broadphase::Grid;
    /// use shape::BoundingBox2;
    ///
    /// let b = |x0: f64, y0: f64, x1: f64, y1: f64| BoundingBox2::new(Point2::new(x0, y0), Point2::new(x1, y1));
    /// let mut grid = Grid::new(1.0).unwrap();
    /// grid.insert(0, b(3.0, 0.0, 4.0, 1.0)).unwrap();
    /// grid.insert(1, b(-2.0, 0.0, -1.5, 1.0)).unwrap();
    /// grid.insert(2, b(40.0, 0.0, 41.0, 1.0)).unwrap();
    /// // The nearest box to (0, 0.5), stopping once the rings are farther.
    /// let mut nearest = (u32::MAX, f64::INFINITY);
    /// let stats = grid.walk_rings(&Point2::new(0.0, 0.5), f64::INFINITY, |id, lower| {
    ///     let bx = grid.bounds(id).unwrap();
    ///     let d = bx.min.x.max(-bx.max.x); // the distance to the box, here
    ///     assert!(lower <= d);
    ///     if d < nearest.1 { nearest = (id, d); }
    ///     nearest.1
    /// });
    /// assert_eq!(nearest, (1, 1.5));
    /// assert_eq!(stats.objects, 1); // the rings stop before box 0's
    /// ```
    pub fn walk_rings(
        &self,
        p: &Point<T, D>,
        max_distance: T,
        mut visit: impl FnMut(u32, T) -> T,
    ) -> WalkStats {
        let mut stats = WalkStats::default();
        if !p.iter().all(|x| Float::is_finite(*x)) || !is_limit(max_distance) {
            return stats;
        }
        let mut bound = max_distance;
        for &id in &self.oversize {
            stats.steps += 1;
            let lb = box_distance_bound(p, &self.boxes[id as usize]);
            if lb <= bound {
                stats.objects += 1;
                bound = visit(id, lb);
            }
        }
        let cells = self.cells();
        let Some((blo, bhi)) = cells.occupied() else {
            return stats;
        };
        let c = self.key(p);
        let last = (0..D)
            .map(|i| {
                (i128::from(c[i]) - i128::from(blo[i])).max(i128::from(bhi[i]) - i128::from(c[i]))
            })
            .max()
            .unwrap_or(0);
        let budget = (cells.count() + EXTRA_STEPS) as u128;
        let mut r = ring_of(&c, &blo, &bhi);
        while r <= last {
            if self.ring_bound(p, &c, r) > bound {
                return stats;
            }
            let size =
                count(clipped_cube(&c, r, &blo, &bhi)) - count(clipped_cube(&c, r - 1, &blo, &bhi));
            if stats.steps as u128 + size > budget {
                stats.scanned = true;
                self.scan_rings(cells, p, &c, r, &mut bound, &mut visit, &mut stats);
                return stats;
            }
            for_each_ring_cell(&c, r, &blo, &bhi, |key| {
                stats.steps += 1;
                self.ring_cell(cells, p, &c, r, key, &mut bound, &mut visit, &mut stats);
            });
            r += 1;
        }
        stats
    }

    /// The rest of a ring search from ring `from` on, by a scan of the
    /// occupied cells.
    #[allow(clippy::too_many_arguments)]
    fn scan_rings(
        &self,
        cells: &Cells<T, D>,
        p: &Point<T, D>,
        c: &Key<D>,
        from: i128,
        bound: &mut T,
        visit: &mut impl FnMut(u32, T) -> T,
        stats: &mut WalkStats,
    ) {
        cells.each(|key, _| {
            stats.steps += 1;
            let r = ring_of(c, key, key);
            if r >= from && self.ring_bound(p, c, r) <= *bound {
                self.ring_cell(cells, p, c, r, key, bound, visit, stats);
            }
        });
    }
}
