//! Every tolerance kasanari uses, in one place.
//!
//! kasanari's geometry is exact up to floating point: queries use no slop, and
//! touching shapes collide. Tolerances appear only where a *decision about the
//! input* must be robust to rounding, and each one is relative to the scale of the
//! numbers it compares, so that a shape a million units wide is judged like one a
//! unit wide.
//!
//! | where | tolerance | f32 | f64 |
//! |---|---|---|---|
//! | polygon/triangle construction: a corner whose turn has `|sin θ| ≤ s` is collinear | [`collinear_sine`] = 16 ε | 1.9e-6 | 3.6e-15 |
//! | axes shorter than this (relative to the shapes' scale) are skipped by the generic SAT | [`axis_length_squared`] = (16 ε)² | 3.6e-12 | 1.3e-29 |

use crate::Real;

/// Sine of the smallest turn that construction accepts as a corner: `16 ε` of `T`.
///
/// Three vertices `a, b, c` are collinear when
/// `|(b − a) × (c − b)| ≤ collinear_sine · |b − a| · |c − b|`.
#[must_use]
#[inline]
pub fn collinear_sine<T: Real>() -> T {
    T::epsilon() * T::lit(16.0)
}

/// An axis `v` with `|v|² ≤ axis_length_squared · scale²` is treated as zero by
/// the generic separating-axis test and skipped (it carries no direction).
#[must_use]
#[inline]
pub fn axis_length_squared<T: Real>() -> T {
    let s = T::epsilon() * T::lit(16.0);
    s * s
}
