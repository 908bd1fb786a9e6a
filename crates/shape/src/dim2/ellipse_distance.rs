//! The distance from a point to an ellipse and the nearest point, exact up to
//! floating point (Eberly's method): the one root finder behind the ellipse's
//! point projection and every exact ellipse kernel of the narrow phase.
//!
//! For an ellipse `(x/e0)² + (y/e1)² = 1` with `e0 ≥ e1 > 0` and a point
//! `y = (y0, y1)` with `y0, y1 ≥ 0` (other quadrants by symmetry), the nearest
//! boundary point is `xᵢ = eᵢ² yᵢ / (τ + eᵢ²)` where `τ` is the root of
//!
//! ```text
//! F(τ) = Σ (eᵢ yᵢ / (τ + eᵢ²))² − 1
//! ```
//!
//! on `τ > −e1²`: the Lagrange condition `y − x = τ · ∇(Σ xᵢ²/eᵢ²)/2` solved for
//! `x`, put into the ellipse's equation. `F` is convex and strictly decreasing
//! there and goes from `+∞` to `−1`, so the root is unique: `τ > 0` for a point
//! outside, `τ < 0` inside. It is found by Newton's method inside a guaranteed
//! bracket (bisection whenever a step would leave it), started from the
//! point's radial projection onto the ellipse taken as the nearest point
//! (exact to first order in the distance): Newton on a convex decreasing
//! function never passes the root from its left, and a step from its right
//! lands left of it, so after at most one step the iterates climb to the
//! root and stop when they no longer move (the last bit).
//! Points on an axis have closed forms (Eberly's special cases).
//!
//! Reference: D. Eberly, "Distance from a Point to an Ellipse, an Ellipsoid, or
//! a Hyperellipsoid" (Geometric Tools, 2013).

use nalgebra::{Point2, Vector2};
use num_traits::Float;

use crate::Real;

/// Most iterations of the root finder; Newton converges in a handful, the cap
/// only bounds pathological inputs (it is never reached in the tests).
const MAX_ROOT_ITERATIONS: usize = 200;

/// The root of `F(τ) = (s0 / (τ + 1))² + (k s1 / (τ + k²))² − 1` in the bracket
/// `[lo, hi]` (`F(lo) ≥ 0 ≥ F(hi)`), for the point `(s0, s1) > 0` and radii
/// `(1, k)`, `k ≤ 1` (everything normalised by the major radius). Newton's
/// method inside the bracket; the result is the bracket's lower end, so the
/// nearest point errs towards the query point.
fn root_in<T: Real>(s0: T, s1: T, k: T, lo: T, hi: T) -> T {
    root_shifted(
        s0,
        s1,
        k,
        (T::one(), k * k),
        lo,
        hi,
        radial_guess(s0, s1, k),
    )
}

/// A first iterate for the root `τ`: the point's radial projection onto the
/// ellipse, `x̃ = s/ρ` with `ρ = |(s0, s1/k)|`, taken as the nearest point.
/// Its normal is `g = (x̃0, x̃1/k²)`, and `s − x̃ = τ g` projected on `g`
/// gives `τ ≈ (s − x̃)·g/|g|² = (ρ − 1) ρ² / (s0² + (s1/k²)²)` (with
/// `s·g = ρ`): exact to first order in the distance. Any value is safe:
/// the iteration keeps its bracket, and a start right of the root is moved
/// left of it by the first Newton step (`F` convex).
#[inline]
fn radial_guess<T: Real>(s0: T, s1: T, k: T) -> T {
    let rho2 = s0 * s0 + (s1 / k) * (s1 / k);
    let q = s1 / (k * k);
    (Float::sqrt(rho2) - T::one()) * rho2 / (s0 * s0 + q * q)
}

/// [`root_in`] for `F` written in a shifted unknown `σ = τ + c`: the
/// denominators are `σ + shift.0` and `σ + shift.1` (`(1, k²)` for `τ`
/// itself, `(1 − k², 0)` for `σ = τ + k²`, which keeps the small
/// denominator `τ + k²` of points near the major axis without cancellation).
fn root_shifted<T: Real>(s0: T, s1: T, k: T, shift: (T, T), mut lo: T, mut hi: T, start: T) -> T {
    let eval = |tau: T| {
        let d0 = tau + shift.0;
        let d1 = tau + shift.1;
        let (g0, g1) = (s0 / d0, k * s1 / d1);
        let f = g0 * g0 + g1 * g1 - T::one();
        let df = -T::two() * (g0 * g0 / d0 + g1 * g1 / d1);
        (f, df)
    };
    // From `start` when it is inside the bracket (a better first iterate),
    // else from the bracket's left end.
    let mut tau = if start > lo && start < hi { start } else { lo };
    for _ in 0..MAX_ROOT_ITERATIONS {
        let (f, df) = eval(tau);
        if f > T::zero() {
            lo = tau;
        } else if f < T::zero() {
            hi = tau;
        } else {
            lo = tau;
            break;
        }
        // F is convex and decreasing, so a Newton step from the left never
        // passes the root; one from the right lands left of it. Either way the
        // step stays in the bracket unless rounding says otherwise.
        let newton = tau - f / df;
        let next = if newton.is_finite() && newton > lo && newton < hi {
            newton
        } else {
            lo + (hi - lo) * T::half()
        };
        if next == tau || next <= lo || next >= hi {
            break;
        }
        tau = next;
    }
    lo
}

/// The root `τ ≥ 0` of `F` (module notes, normalised by the major radius: the
/// point `(s0, s1) > 0`, radii `(1, k)`, `k ≤ 1`) for a point outside the
/// ellipse. Bracket: `F ≥ 0` where one term alone reaches 1, `F ≤ 0` at
/// `|s|` (each term is then at most `sᵢ / |s|`).
#[must_use]
pub fn eberly_root<T: Real>(s0: T, s1: T, k: T) -> T {
    let lo = Float::max(T::zero(), Float::max(s0 - T::one(), k * s1 - k * k));
    root_in(s0, s1, k, lo, crate::math::hypot(s0, s1))
}

/// The distance from `(y0, y1)` to the filled ellipse `(x/e0)² + (y/e1)² ≤ 1`,
/// for `e0 ≥ e1 > 0` and `y0, y1 ≥ 0`; zero inside.
///
/// ```
/// use shape::dim2::ellipse_distance::distance_to_filled_ellipse;
/// assert_eq!(distance_to_filled_ellipse(2.0, 1.0, 5.0, 0.0), 3.0);
/// assert_eq!(distance_to_filled_ellipse(2.0, 1.0, 0.5, 0.5), 0.0);
/// let d = distance_to_filled_ellipse(1.0f64, 1.0, 3.0, 4.0); // a circle
/// assert!((d - 4.0).abs() < 1e-15);
/// ```
#[must_use]
pub fn distance_to_filled_ellipse<T: Real>(e0: T, e1: T, y0: T, y1: T) -> T {
    let (u, w) = (y0 / e0, y1 / e1);
    if u * u + w * w <= T::one() {
        return T::zero();
    }
    // Outside and on an axis: the closest point is the vertex on that axis.
    if y1 == T::zero() {
        return y0 - e0;
    }
    if y0 == T::zero() {
        return y1 - e1;
    }
    let (s0, s1) = (y0 / e0, y1 / e0);
    let k = e1 / e0;
    let k2 = k * k;
    let tau = eberly_root(s0, s1, k);
    if tau <= T::zero() {
        return T::zero();
    }
    // y − x = τ·(yᵢ / (τ + eᵢ²)): no cancellation.
    e0 * tau * crate::math::hypot(s0 / (tau + T::one()), s1 / (tau + k2))
}

/// The ellipse's radii sorted (major first), the point's absolute coordinates
/// in that order, and whether the axes were swapped.
#[inline]
fn canonical<T: Real>(radii: Vector2<T>, q: &Point2<T>) -> (T, T, T, T, bool) {
    if radii.x < radii.y {
        (radii.y, radii.x, Float::abs(q.y), Float::abs(q.x), true)
    } else {
        (radii.x, radii.y, Float::abs(q.x), Float::abs(q.y), false)
    }
}

/// Puts the signs and the axis order of `q` back on a first-quadrant answer.
#[inline]
fn restore<T: Real>(x0: T, x1: T, q: &Point2<T>, swap: bool) -> Point2<T> {
    let (qx, qy) = if swap { (q.y, q.x) } else { (q.x, q.y) };
    let x0 = if qx < T::zero() { -x0 } else { x0 };
    let x1 = if qy < T::zero() { -x1 } else { x1 };
    if swap {
        Point2::new(x1, x0)
    } else {
        Point2::new(x0, x1)
    }
}

/// The point of the filled ellipse with radii `radii` (its own frame) nearest
/// `q`: `q` itself inside, else the nearest boundary point.
///
/// ```
/// use nalgebra::{Point2, Vector2};
/// use shape::dim2::ellipse_distance::closest_point_on_filled_ellipse;
/// let r = Vector2::new(2.0, 1.0);
/// assert_eq!(closest_point_on_filled_ellipse(r, &Point2::new(0.0, 3.0)), Point2::new(0.0, 1.0));
/// assert_eq!(closest_point_on_filled_ellipse(r, &Point2::new(0.5, 0.5)), Point2::new(0.5, 0.5));
/// ```
#[must_use]
pub fn closest_point_on_filled_ellipse<T: Real>(radii: Vector2<T>, q: &Point2<T>) -> Point2<T> {
    let (e0, e1, y0, y1, swap) = canonical(radii, q);
    let (u, w) = (y0 / e0, y1 / e1);
    if u * u + w * w <= T::one() {
        return *q;
    }
    let (x0, x1) = outside_nearest(e0, e1, y0, y1);
    restore(x0, x1, q, swap)
}

/// The nearest boundary point, first quadrant, for a point outside.
#[inline]
fn outside_nearest<T: Real>(e0: T, e1: T, y0: T, y1: T) -> (T, T) {
    if y1 == T::zero() {
        (e0, T::zero())
    } else if y0 == T::zero() {
        (T::zero(), e1)
    } else {
        let (s0, s1) = (y0 / e0, y1 / e0);
        let k = e1 / e0;
        let k2 = k * k;
        let tau = eberly_root(s0, s1, k);
        (e0 * s0 / (tau + T::one()), e0 * k2 * s1 / (tau + k2))
    }
}

/// The point of the ellipse's *boundary* nearest `q`, inside or outside.
///
/// Inside, the root is `τ ∈ (−e1², 0)`, bracketed by `−e1² + e1·y1` (where the
/// second term alone reaches 1) and `0` (where `F` is the point's negative
/// level `u² + w² − 1`). On the major axis, inside, the nearest point is
/// `(e0² y0 / (e0² − e1²), e1 √(1 − (x0/e0)²))` while `e0 y0 < e0² − e1²`
/// (past the evolute's cusp it is the vertex `(e0, 0)`); on the minor axis it
/// is the co-vertex `(0, e1)`. Ties (the centre of an ellipse, points on the
/// major axis of a circle) take the positive side.
///
/// ```
/// use nalgebra::{Point2, Vector2};
/// use shape::dim2::ellipse_distance::nearest_boundary_point;
/// let r = Vector2::new(2.0, 1.0);
/// assert_eq!(nearest_boundary_point(r, &Point2::new(0.0, 0.0)), Point2::new(0.0, 1.0));
/// assert_eq!(nearest_boundary_point(r, &Point2::new(1.9, 0.0)), Point2::new(2.0, 0.0));
/// let p = nearest_boundary_point(r, &Point2::new(0.3, -0.2f64));
/// assert!((p.x * p.x / 4.0 + p.y * p.y - 1.0).abs() < 1e-14 && p.y < 0.0);
/// ```
#[must_use]
pub fn nearest_boundary_point<T: Real>(radii: Vector2<T>, q: &Point2<T>) -> Point2<T> {
    let (e0, e1, y0, y1, swap) = canonical(radii, q);
    let (u, w) = (y0 / e0, y1 / e1);
    let level = u * u + w * w - T::one();
    let (x0, x1) = if level > T::zero() {
        outside_nearest(e0, e1, y0, y1)
    } else if level == T::zero() {
        (y0, y1)
    } else if y1 == T::zero() {
        inside_on_major_axis(e0, e1, y0)
    } else if y0 == T::zero() {
        (T::zero(), e1)
    } else {
        // Solved for σ = τ + k² ∈ [k s1, k²]: near the major axis σ is tiny
        // and `τ + k²` would lose it to cancellation (x1 = e0 k² s1 / σ).
        let (s0, s1) = (y0 / e0, y1 / e0);
        let k = e1 / e0;
        let k2 = k * k;
        let lo = k * s1;
        if lo == T::zero() {
            // s1 underflows against k: the point is on the major axis.
            inside_on_major_axis(e0, e1, y0)
        } else {
            let c0 = (T::one() - k) * (T::one() + k);
            let start = radial_guess(s0, s1, k) + k2;
            let sigma = root_shifted(s0, s1, k, (c0, T::zero()), lo, k2, start);
            (e0 * s0 / (sigma + c0), e0 * k2 * s1 / sigma)
        }
    };
    restore(x0, x1, q, swap)
}

/// The nearest boundary point, first quadrant, of a point `(y0, 0)` inside
/// on the major axis (module notes of [`nearest_boundary_point`]).
#[inline]
fn inside_on_major_axis<T: Real>(e0: T, e1: T, y0: T) -> (T, T) {
    let (numer, denom) = (e0 * y0, (e0 - e1) * (e0 + e1));
    if numer < denom {
        let xde0 = numer / denom;
        let x0 = e0 * xde0;
        let x1 = e1 * Float::sqrt(Float::max(T::zero(), T::one() - xde0 * xde0));
        (x0, x1)
    } else {
        (e0, T::zero())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::for_each_precision;

    /// The nearest boundary point is on the ellipse, and no sampled boundary
    /// point is nearer, for points inside and outside.
    fn nearest_points<T: Real>() {
        let radii = [(2.0, 1.0), (1.0, 3.0), (5.0, 0.2), (1.0, 1.0)];
        let tol = crate::testing::test_tolerance::<T>(T::lit(10.0)).as_f64() * 8.0;
        for (rx, ry) in radii {
            let r = Vector2::new(T::lit(rx), T::lit(ry));
            for i in 0..40 {
                for j in 0..40 {
                    let q = [(i as f64 - 20.0) * 0.17, (j as f64 - 20.0) * 0.11];
                    let qp = Point2::new(T::lit(q[0]), T::lit(q[1]));
                    let p = nearest_boundary_point(r, &qp);
                    let (px, py) = (p.x.as_f64(), p.y.as_f64());
                    let on = (px / rx).powi(2) + (py / ry).powi(2) - 1.0;
                    assert!(on.abs() < tol * 4.0, "off the ellipse: {on} for {q:?}");
                    let d = ((px - q[0]).powi(2) + (py - q[1]).powi(2)).sqrt();
                    let best = (0..4000)
                        .map(|k| {
                            let a = core::f64::consts::TAU * k as f64 / 4000.0;
                            let (bx, by) = (rx * a.cos(), ry * a.sin());
                            ((bx - q[0]).powi(2) + (by - q[1]).powi(2)).sqrt()
                        })
                        .fold(f64::INFINITY, f64::min);
                    assert!(d <= best + tol * 4.0, "{d} > {best} for {q:?} in {rx}x{ry}");
                    let c = closest_point_on_filled_ellipse(r, &qp);
                    let level = (q[0] / rx).powi(2) + (q[1] / ry).powi(2) - 1.0;
                    if level > tol {
                        assert!((c - p).norm().as_f64() < tol * 4.0);
                    } else if level < -tol {
                        assert_eq!(c, qp);
                    }
                }
            }
        }
    }
    for_each_precision!(nearest, nearest_points);

    /// Regressions (found by the projection property test): points very
    /// near the major axis of a thin ellipse, inside, solved in `τ` lost the
    /// small `τ + k²` to cancellation: an infinite coordinate for the first
    /// (the bracket on the pole), a point 8% off the ellipse for the second.
    fn near_the_centre<T: Real>() {
        let r = Vector2::new(T::lit(0.007603921291359693), T::lit(0.05));
        let tol = crate::testing::test_tolerance::<T>(T::one());
        for (q, side) in [
            ((-1.2705494208814505e-19, 3.589725630463725e-18), -1.0),
            ((3.6945259676398505e-18, 1.8549392042938332e-17), 1.0),
            ((1e-9, 0.01), 1.0),
        ] {
            let q = Point2::new(T::lit(q.0), T::lit(q.1));
            let p = nearest_boundary_point(r, &q);
            // Near the centre: near the co-vertex on q's side of the minor axis.
            let level = (p.x / r.x) * (p.x / r.x) + (p.y / r.y) * (p.y / r.y) - T::one();
            assert!(Float::abs(level) < tol, "{p:?} off the ellipse");
            assert!(Float::abs(p.x - T::lit(side) * r.x) < T::lit(1e-3), "{p:?}");
        }
    }
    for_each_precision!(near_centre, near_the_centre);
}
