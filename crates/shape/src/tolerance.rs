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
//! | GJK/EPA fallback: shapes closer than `gjk · scale` may be reported touching; curved EPA depths are accurate to it | [`gjk`] = 64 ε | 7.6e-6 | 1.4e-14 |
//! | exact touching: a separating-axis gap below `touch_rounding · scale` is re-decided by exact orientation predicates (a trigger, not a slop: the answer is exact) | [`touch_rounding`] = 64 ε | 7.6e-6 | 1.4e-14 |
//! | ellipse contacts: directions whose overlaps differ by less than `ellipse_tie · scale` are ties (the smallest angle from +x wins) | [`ellipse_tie`] = 8 ε | 9.5e-7 | 1.8e-15 |
//! | construction: the largest size or local coordinate a shape may have (a limit, not a tolerance) | [`max_size`] = √MAX / 16 | 1.2e18 | 8.4e152 |
//! | ray casts and point projections: the farthest a ray origin or query point may be from the shape's position, per coordinate (a limit) | [`max_query_coordinate`] = √MAX / 4 | 4.6e18 | 3.4e153 |
//!
//! The exact kernels (everything the dispatch table registers for built-in
//! pairs) use no tolerance: their decisions are comparisons of computed
//! quantities, wrong only within rounding of tangency. The GJK/EPA fallback
//! (user shapes with a support function only) and the numerical minimisation
//! behind ellipse contacts converge to the tolerances above.

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

/// Relative tolerance of the GJK/EPA fallback: `64 ε` of `T`. Multiplied by the
/// shapes' scale (their largest absolute coordinate) it bounds how close two
/// shapes may be while reported touching, and the error of curved EPA depths.
#[must_use]
#[inline]
pub fn gjk<T: Real>() -> T {
    T::epsilon() * T::lit(64.0)
}

/// How far apart a floating-point separating-axis test may find two cores
/// (points, segments, polygons) that touch exactly: `64 ε` of `T` times the
/// largest coordinate involved. A smaller gap is decided again by exact
/// orientation predicates (`narrowphase`'s `sat/exact.rs`), so shapes that
/// share a vertex or an edge exactly touch; it changes no answer that exact
/// arithmetic would not give.
#[must_use]
#[inline]
pub fn touch_rounding<T: Real>() -> T {
    T::epsilon() * T::lit(64.0)
}

/// Relative tolerance under which two candidate directions of an ellipse
/// contact count as tied: `8 ε` of `T` (times the pair's scale).
#[must_use]
#[inline]
pub fn ellipse_tie<T: Real>() -> T {
    T::epsilon() * T::lit(8.0)
}

/// The largest size (radius, half extent) or local coordinate (a vertex, an
/// end point) that construction accepts: `√MAX / 16` of `T` (f32: 1.2e18,
/// f64: 8.4e152). Beyond it, the squares of sizes that the kernels compute
/// overflow, and their answers would be wrong; constructors return
/// [`ShapeError::TooLarge`](crate::ShapeError::TooLarge). Poses are not
/// limited: shapes can sit anywhere up to the float limits.
#[must_use]
#[inline]
pub fn max_size<T: Real>() -> T {
    num_traits::Float::sqrt(<T as num_traits::Float>::max_value()) * T::lit(1.0 / 16.0)
}

/// The largest coordinate, relative to the shape's position (its pose's
/// translation), of a ray origin or a query point that the single-shape
/// queries accept: `√MAX / 4` of `T` (f32: 4.6e18, f64: 3.4e153).
///
/// The built-in ray casts and projections multiply such offsets by the
/// shape's sizes (at most [`max_size`]) and square them; below this limit
/// neither overflows. Farther away the narrow phase answers a ray that misses
/// the shape's bounding box (no hit) and refuses the rest
/// (`narrowphase::DispatchError::QueryOutOfRange`).
#[must_use]
#[inline]
pub fn max_query_coordinate<T: Real>() -> T {
    num_traits::Float::sqrt(<T as num_traits::Float>::max_value()) * T::lit(0.25)
}
