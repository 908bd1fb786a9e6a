//! The separating-axis scan of a small core, several axes at once.
//!
//! **What it computes.** For up to [`LANES`] axes `l₀ … l₇` (in the core's
//! own frame) the least projection of the core's vertices on each,
//! `min_j v_j · l_k`: the core's support against every axis, as the
//! separating-axis test of two polygons (`core.rs`, `polygon_sat`) and the
//! shape cast's sweep (`cast/polygonal.rs`) ask for it.
//!
//! **Why it is faster.** Asked axis by axis, each answer is a reduction over
//! the vertices, and `Float::min`'s NaN rule keeps the compiler to one
//! scalar step of about fourteen instructions per vertex. Turned round,
//! vertex by vertex, each step updates every axis's running minimum at once:
//! the lanes are independent (no reduction, no carried order), so the
//! compiler issues vector multiplies, adds and minimums (`minps`/`minpd`)
//! across them. For the 6- to 8-vertex polygons of the benchmarks that is
//! about a quarter of the instructions of the axis-by-axis scan.
//!
//! **Why it is the same answer.** Each lane computes `v.x·l.x + v.y·l.y`,
//! the very products and sum of `Vector2::dot`, and keeps the least of the
//! same values, so every answer is bit for bit the axis-by-axis scan's. A NaN
//! projection never replaces the running minimum (`d < low` is false), as
//! `Float::min` ignores a NaN beside a number; the minimum starts at `+∞`.
//! Lanes past the axes given hold the zero axis and are not read.
//!
//! Used for cores of at most `SCAN_UP_TO` vertices; a bigger core's
//! projections climb from the last extreme instead (`linear.rs`).

use nalgebra::Vector2;
use shape::Real;

use crate::polygonal::Polygonal;

/// Axes per pass: eight `f32` lanes are two SSE registers, eight `f64`
/// lanes four; the three arrays of a pass stay in registers either way.
pub(crate) const LANES: usize = 8;

/// Up to [`LANES`] axes, structure of arrays (the zero axis in unused lanes).
#[derive(Clone, Copy)]
pub(crate) struct Axes<T> {
    x: [T; LANES],
    y: [T; LANES],
}

impl<T: Real> Axes<T> {
    /// The axes `axis(k)` for `k < count` (at most [`LANES`]).
    #[inline(always)]
    pub(crate) fn new(count: usize, mut axis: impl FnMut(usize) -> Vector2<T>) -> Self {
        let mut out = Self {
            x: [T::zero(); LANES],
            y: [T::zero(); LANES],
        };
        for k in 0..count.min(LANES) {
            let l = axis(k);
            out.x[k] = l.x;
            out.y[k] = l.y;
        }
        out
    }

    /// The least projection of `p`'s core vertices on each axis (in `p`'s
    /// frame): lane `k` is `min_j p.core_vertex(j) · axis(k)`, `+∞` for a
    /// core without vertices.
    #[inline(always)]
    pub(crate) fn least<P: Polygonal<T>>(&self, p: &P) -> [T; LANES] {
        let mut low = [T::infinity(); LANES];
        for j in 0..p.core_vertex_count() {
            let v = p.core_vertex(j);
            for ((low, x), y) in low.iter_mut().zip(&self.x).zip(&self.y) {
                let d = v.x * *x + v.y * *y;
                if d < *low {
                    *low = d;
                }
            }
        }
        low
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::Point2;
    use num_traits::Float;
    use shape::ConvexPolygon;

    /// Bit for bit the axis-by-axis scan, on a polygon and eight turning
    /// axes (a wrong lane, a skipped vertex or a different sum fails).
    fn same_as_scan<T: Real>() {
        let vs: Vec<Point2<T>> = (0..7)
            .map(|i| {
                let t = 0.3 + 0.9 * f64::from(i);
                Point2::new(T::lit(1.3 * t.cos() + 0.1), T::lit(0.8 * t.sin() - 0.2))
            })
            .collect();
        let p = ConvexPolygon::new(&vs).unwrap();
        let axis = |k: usize| {
            let t = 0.7 * k as f64 + 0.11;
            Vector2::new(T::lit(t.cos()), T::lit(t.sin()))
        };
        for count in 1..=LANES {
            let low = Axes::new(count, axis).least(&p);
            for (k, got) in low.iter().enumerate().take(count) {
                let l = axis(k);
                let mut want = T::infinity();
                for j in 0..p.core_vertex_count() {
                    want = Float::min(want, p.core_vertex(j).coords.dot(&l));
                }
                assert_eq!(*got, want, "lane {k} of {count}");
            }
        }
    }

    #[test]
    fn same_as_scan_f32() {
        same_as_scan::<f32>();
    }

    #[test]
    fn same_as_scan_f64() {
        same_as_scan::<f64>();
    }
}
