//! The published ellipse–ellipse test of seed 004 (Hwang & Tsai 1999): an
//! APPROXIMATION, kept only to compare against the exact
//! [`ellipse_ellipse`](super::ellipse_ellipse). Works in A's local frame.
//!
//! 1. Map the plane so that B becomes the unit circle at the origin:
//!    `x ↦ diag(1/rxB, 1/ryB)·R_Bᵀ·(x − t)`. A becomes a conic
//!    `Ax² + By² + Dxy + Ex + Fy + G = 0` (substitute the inverse map into A's
//!    equation `(p.x/rxA)² + (p.y/ryA)² = 1`).
//! 2. Its centre `(h, k)` solves `∇ = 0`; the conic's value there is `K < 0`.
//! 3. The rotation `θ = ½·atan2(D, A − B)` diagonalises the quadratic part into
//!    `A'`, `B'`; the radii are `√(−K/A')` and `√(−K/B')`.
//! 4. Add 1 to both radii and report a collision when the origin (the unit
//!    circle shrunk to a point) lies in the enlarged ellipse.
//!
//! Where it fails: step 4 replaces "A′ grown by the unit disk" (the Minkowski
//! sum, whose boundary is the offset curve at distance 1) by "A′ with both radii
//! plus 1". The enlarged ellipse lies inside the Minkowski sum (its boundary
//! point `((ρ1 + 1) cos φ, (ρ2 + 1) sin φ)` is the unit vector `(cos φ, sin φ)`
//! away from A′'s point `(ρ1 cos φ, ρ2 sin φ)`), and the two agree only at the
//! four vertices. So the test never reports a false collision (up to rounding;
//! a property test checks this) but misses true ones near contact, worst for
//! elongated ellipses touching near their flanks: a unit circle and a `10 × 1`
//! ellipse centred at `(10.1, 0.8)` overlap by about 0.33, yet this test says
//! `false`.
//!
//! Reference: K.-S. Hwang and M.-D. Tsai, "On-Line Collision-Avoidance
//! Trajectory Planning of Two Planar Robots Based on Geometric Modeling",
//! J. Information Science and Engineering 15 (1999) 131–152, §3; seed 004.
//!
//! Degenerate cases: no division by zero for valid ellipses (the conic's
//! quadratic part is positive definite, `4AB − D² > 0`); should rounding make
//! a denominator vanish the test answers `false` rather than NaN, and a
//! positive `K` (rounding) is clamped to 0 as in the seed's code.

use nalgebra::{Isometry2, Vector2};
use num_traits::Float;
use shape::{Ellipse, Real};

/// Seed 004's approximate ellipse–ellipse test (Hwang & Tsai): **not exact**.
///
/// It can miss collisions of elongated ellipses near contact (see the module
/// note) and never reports one that [`ellipse_ellipse`](super::ellipse_ellipse)
/// denies, up to rounding. Kept for comparison; use `ellipse_ellipse`.
///
/// ```
/// use nalgebra::{Isometry2, Vector2};
/// use narrowphase::ellipse::{ellipse_ellipse, ellipse_ellipse_approx_hwang_tsai};
/// use shape::Ellipse;
///
/// let disk = Ellipse::new(Vector2::new(1.0, 1.0)).unwrap();
/// let long = Ellipse::new(Vector2::new(10.0, 1.0)).unwrap();
/// let pose = Isometry2::translation(10.1, 0.8);
/// assert!(ellipse_ellipse(&disk, &long, &pose)); // they do overlap...
/// assert!(!ellipse_ellipse_approx_hwang_tsai(&disk, &long, &pose)); // ...missed
/// assert!(ellipse_ellipse_approx_hwang_tsai(&disk, &long, &Isometry2::translation(5.0, 1.5)));
/// ```
#[must_use]
pub fn ellipse_ellipse_approx_hwang_tsai<T: Real>(
    a: &Ellipse<T>,
    b: &Ellipse<T>,
    b_in_a: &Isometry2<T>,
) -> bool {
    judge_value(a, b, b_in_a).is_some_and(|v| v <= T::one())
}

/// The seed's `JudgeValue`: the origin's value in the enlarged ellipse's
/// equation (`≤ 1` inside); `None` if rounding broke the conic.
fn judge_value<T: Real>(a: &Ellipse<T>, b: &Ellipse<T>, b_in_a: &Isometry2<T>) -> Option<T> {
    let ra = a.radii();
    let rb = b.radii();
    let t = b_in_a.translation.vector;
    let (c, s) = (b_in_a.rotation.cos_angle(), b_in_a.rotation.sin_angle());
    // Step 1: p = t + M·x with M = R_B·diag(rb) maps the unit-circle frame back
    // to A's frame; columns m1 = rxB·(c, s), m2 = ryB·(−s, c).
    let m1 = Vector2::new(rb.x * c, rb.x * s);
    let m2 = Vector2::new(-rb.y * s, rb.y * c);
    let (wx, wy) = (T::one() / (ra.x * ra.x), T::one() / (ra.y * ra.y));
    // (p.x)²/rxA² + (p.y)²/ryA² − 1 with p.x = m1.x x + m2.x y + t.x, etc.
    let qa = wx * m1.x * m1.x + wy * m1.y * m1.y;
    let qb = wx * m2.x * m2.x + wy * m2.y * m2.y;
    let qd = T::two() * (wx * m1.x * m2.x + wy * m1.y * m2.y);
    let qe = T::two() * (wx * m1.x * t.x + wy * m1.y * t.y);
    let qf = T::two() * (wx * m2.x * t.x + wy * m2.y * t.y);
    let qg = wx * t.x * t.x + wy * t.y * t.y - T::one();
    // A NaN anywhere flows to a non-finite value and `None` below.
    // Step 2: centre from 2A h + D k + E = 0, D h + 2B k + F = 0.
    let det = T::lit(4.0) * qa * qb - qd * qd;
    if det <= T::zero() {
        return None;
    }
    let h = (qd * qf - T::two() * qb * qe) / det;
    let k = (qd * qe - T::two() * qa * qf) / det;
    // The conic's value at its centre: G + (E h + F k) / 2.
    let kk = Float::min(qg + (qe * h + qf * k) * T::half(), T::zero());
    // Step 3: rotate by θ to kill the xy term.
    let theta = Float::atan2(qd, qa - qb) * T::half();
    let (ct, st) = (Float::cos(theta), Float::sin(theta));
    let a1 = qa * ct * ct + qb * st * st + qd * ct * st;
    let b1 = qa * st * st + qb * ct * ct - qd * ct * st;
    if a1 <= T::zero() || b1 <= T::zero() {
        return None;
    }
    // Step 4: radii plus one; the origin relative to the centre is −(h, k).
    let rx = Float::sqrt(-kk / a1) + T::one();
    let ry = Float::sqrt(-kk / b1) + T::one();
    let u = -(ct * h + st * k);
    let v = -(-st * h + ct * k);
    let value = (u / rx) * (u / rx) + (v / ry) * (v / ry);
    value.is_finite().then_some(value)
}
