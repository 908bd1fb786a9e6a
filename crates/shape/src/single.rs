//! What every built-in ray cast and point projection shares: the ray with its
//! direction rescaled, the parameter interval of a line through a convex
//! shape and how it becomes a hit, and that interval for the three families
//! of boundaries (planes: slabs and Cyrus–Beck clipping; quadrics: the
//! quadratic). Each shape's file calls these in its own frame; the contracts
//! are in [`crate::query`] and `docs/conventions.md` ("Ray casts", "Point
//! projection"), the methods in `docs/algorithms.md`.
//!
//! **The method of a convex solid's ray cast**, in the shape's frame:
//! 1. Rescale the direction by a power of two `s` so that its largest
//!    component lies in `[1/2, 2]` ([`ScaledRay`]): exact, so times of impact
//!    are `s · t` with no rounding, and the squares and products below neither
//!    overflow (huge directions) nor underflow (subnormal directions).
//! 2. Intersect the whole line `o + t d`, `t ∈ ℝ`, with the closed shape: an
//!    interval `[t_in, t_out]` ([`Span`]), with the outward normals of the
//!    boundary where the line enters and leaves, or nothing.
//! 3. Decide whether the origin lies in the closed shape with the shape's own
//!    containment test (the same arithmetic as its `contains_point`, so a ray
//!    cast and a containment test never disagree about the start).
//! 4. [`resolve`]: origin inside and solid → the hit at the origin (time 0,
//!    normal `−dir/|dir|`); origin inside and hollow → where the line leaves,
//!    `t_out`, with the *inward* normal there; origin outside → where it
//!    enters, `t_in`, with the outward normal, if `t_out ≥ 0` (else the shape
//!    is behind the ray). A convex set meets a line in one interval, so this
//!    is the first point of the shape on the ray (solid) or the first point
//!    of its boundary (hollow, from outside), or the exit (hollow, from
//!    inside).
//! 5. Keep the hit only if its time `s · t` is finite and at most `max_toi`.
//!
//! **Why the rescaling is exact**: multiplying by a power of two changes only
//! the exponent, so `s · t` and `d · s` are the exact products unless they
//! leave the float range; a time of impact that overflows the float type
//! (possible only for directions far below one) is reported as no hit.
//!
//! **Fast paths.** The common case, an origin outside the shape and a ray
//! that enters it or misses, is answered without the whole span: the entry
//! alone ([`ball_entry`] for balls, [`slab_entry`] for boxes,
//! [`polygon_entry`] for polygons), with its normal unit already or made unit
//! once, and nothing computed for the exit.
//! Everything else (an origin inside or on the boundary, sizes near the ends
//! of the float range, whatever rounding leaves ambiguous) takes the careful
//! path above, kept `#[cold]`. Whether the origin is outside is decided by
//! the containment test's own arithmetic, so the two paths never disagree
//! about where a ray starts; both are exact to rounding.

use core::any::Any;

use nalgebra::{AbstractRotation, Isometry, Point, Point2, SVector, Unit, Vector2};
use num_traits::Float;

use crate::query::unit_vector;
use crate::{Ray, RayHit, Real, hit_at_origin};

/// A ray whose direction has been multiplied by a power of two `s` so that
/// its largest absolute component lies in `[1/2, 2]`: a time `t` along the
/// scaled direction is the time `s · t` along the caller's.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ScaledRay<T: Real, const D: usize> {
    /// Where the ray starts.
    pub(crate) origin: Point<T, D>,
    /// The scaled direction.
    pub(crate) dir: SVector<T, D>,
    /// `s` as two factors, each a representable power of two (`s` itself may
    /// not be: `2¹⁴⁹` for the smallest f32 direction).
    scale: (T, T),
}

impl<T: Real, const D: usize> ScaledRay<T, D> {
    /// The ray with its direction rescaled (a valid ray: finite, non-zero
    /// direction; anything else is kept as it is, without panicking).
    ///
    /// The largest component `m` lands in `[1, 2)`: `s = 2^−e` with
    /// `e = ⌊log₂ m⌋` read from the bits of `m` (no logarithm, no branch on
    /// the size of the direction).
    #[inline]
    pub(crate) fn new(ray: &Ray<T, D>) -> Self {
        let m = ray
            .dir
            .iter()
            .fold(T::zero(), |m, v| Float::max(m, Float::abs(*v)));
        match pow2_scale(m) {
            Some(scale) => Self {
                origin: ray.origin,
                dir: ray.dir * scale.0 * scale.1,
                scale,
            },
            None => Self {
                origin: ray.origin,
                dir: ray.dir,
                scale: (T::one(), T::one()),
            },
        }
    }

    /// The caller's time of impact for a time `t` along the scaled direction.
    #[inline]
    pub(crate) fn toi(&self, t: T) -> T {
        t * self.scale.0 * self.scale.1
    }

    /// The ray seen from the frame that `pose` places, the origin mapped by
    /// `inverse_transform_point` exactly as the shapes' `contains_point` maps
    /// points.
    #[inline]
    pub(crate) fn inverse_transformed<R: AbstractRotation<T, D>>(
        &self,
        pose: &Isometry<T, R, D>,
    ) -> Self {
        Self {
            origin: pose.inverse_transform_point(&self.origin),
            dir: pose.inverse_transform_vector(&self.dir),
            scale: self.scale,
        }
    }

    /// The ray with its origin moved by `−by` (a frame that only translates).
    #[inline]
    pub(crate) fn translated_back(&self, by: &SVector<T, D>) -> Self {
        Self {
            origin: self.origin - by,
            dir: self.dir,
            scale: self.scale,
        }
    }
}

/// `2^−e` for `2^e ≤ m < 2^(e+1)`, as two factors that are each a
/// representable power of two on the same side of 1 (so that applying them
/// one after the other never overflows or underflows on the way), or `None`
/// for `m` zero, infinite or NaN.
#[inline(always)]
fn pow2_scale<T: Real>(m: T) -> Option<(T, T)> {
    match pow2_inverse(m) {
        Some(s) => Some((s, T::one())),
        None => pow2_scale_decoded(m),
    }
}

/// The common case of [`pow2_scale`]: `2^−e` read off the exponent bits of
/// an `f32` or `f64` `m` by one integer subtraction, when `m` and `2^−e` are
/// both normal (biased exponent `b` of `m` in `[1, 2·bias − 1]`; `2^−e` has
/// biased exponent `2·bias − b`). `None` for anything else, including other
/// float types. (`Any` picks the type; the test folds away when the
/// function is instantiated.)
#[inline(always)]
fn pow2_inverse<T: Real>(m: T) -> Option<T> {
    let any: &dyn Any = &m;
    if let Some(x) = any.downcast_ref::<f32>() {
        let b = x.to_bits() & 0x7F80_0000;
        if b != 0 && b <= 253 << 23 {
            let s = f32::from_bits((254 << 23) - b);
            return (&s as &dyn Any).downcast_ref::<T>().copied();
        }
    } else if let Some(x) = any.downcast_ref::<f64>() {
        let b = x.to_bits() & 0x7FF0_0000_0000_0000;
        if b != 0 && b <= 2045 << 52 {
            let s = f64::from_bits((2046 << 52) - b);
            return (&s as &dyn Any).downcast_ref::<T>().copied();
        }
    }
    None
}

/// The general case of [`pow2_scale`] (subnormal or huge `m`, other float
/// types): `integer_decode` gives `m = mantissa · 2^exponent` exactly
/// (subnormals included), so `e` is `exponent` plus the position of the
/// mantissa's leading bit; `e` is at least `−1074` and at most `1023`
/// (f64), so each half of `−e` is a normal f64 power of two, and converting
/// it to `T` is exact for f32 too (`|e| ≤ 149` there).
#[cold]
fn pow2_scale_decoded<T: Real>(m: T) -> Option<(T, T)> {
    if !(m > T::zero() && m <= <T as Float>::max_value()) {
        return None;
    }
    let (mantissa, exponent, _) = Float::integer_decode(m);
    #[allow(clippy::cast_possible_wrap)] // at most 64
    let lead = 63 - mantissa.leading_zeros() as i32;
    let e = i32::from(exponent) + lead;
    let (e1, e2) = (e / 2, e - e / 2);
    Some((T::lit(pow2(-e1)), T::lit(pow2(-e2))))
}

/// `2^k` for `|k| ≤ 1022`, from its bits.
#[inline]
fn pow2(k: i32) -> f64 {
    #[allow(clippy::cast_sign_loss)] // 1023 + k ≥ 1
    let biased = (1023 + k) as u64;
    f64::from_bits(biased << 52)
}

/// Where a line `o + t d` (all `t ∈ ℝ`) meets a closed convex shape: the
/// interval `[t_in, t_out]`, with the outward normals of the boundary at both
/// ends (any length; zero when unknown, and [`resolve`] then falls back to
/// `−dir`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Span<T: Real, const D: usize> {
    pub(crate) t_in: T,
    pub(crate) n_in: SVector<T, D>,
    pub(crate) t_out: T,
    pub(crate) n_out: SVector<T, D>,
}

impl<T: Real, const D: usize> Span<T, D> {
    /// Whether `t = 0` lies in the interval: the ray's origin is in the shape
    /// (exactly so for the slabs and Cyrus–Beck spans, whose bounds carry the
    /// exact sign of the containment tests).
    #[inline]
    pub(crate) fn holds_origin(&self) -> bool {
        self.t_in <= T::zero() && self.t_out >= T::zero()
    }
}

/// Whether a time of impact `toi ≥ 0` (or NaN) is reported: finite and at
/// most `max_toi` (two comparisons: NaN fails the first).
#[inline]
pub(crate) fn within<T: Real>(toi: T, max_toi: T) -> bool {
    (toi <= max_toi) & (toi < T::infinity())
}

/// `n / |n|`, or `−dir / |dir|` when `n` is zero or not finite.
#[inline]
pub(crate) fn unit_or_back<T: Real, const D: usize>(
    n: &SVector<T, D>,
    dir: &SVector<T, D>,
) -> SVector<T, D> {
    if n.iter().all(|v| Float::is_finite(*v)) && n.amax() > T::zero() {
        unit_vector(n)
    } else {
        -unit_vector(dir)
    }
}

/// Steps 4 and 5 of the module notes: the hit of a solid or hollow convex
/// shape from the line's interval (`span`, in `local`'s frame and scaled
/// time) and whether the origin is in the shape; `pose` maps the local frame
/// to the world. The hit at the origin is the caller's origin exactly.
#[inline]
#[allow(clippy::too_many_arguments)]
pub(crate) fn resolve<T: Real, R: AbstractRotation<T, D>, const D: usize>(
    world: &Ray<T, D>,
    local: &ScaledRay<T, D>,
    span: Option<Span<T, D>>,
    origin_inside: bool,
    max_toi: T,
    solid: bool,
    pose: &Isometry<T, R, D>,
) -> Option<RayHit<T, D>> {
    let (t, n) = if origin_inside {
        if solid {
            return Some(hit_at_origin(world));
        }
        // The exit, with the inward normal. A span lost to rounding (the
        // origin on the boundary, the line tangent) leaves at once.
        match span {
            Some(s) if s.t_out > T::zero() => (s.t_out, -s.n_out),
            Some(s) => (T::zero(), -s.n_out),
            None => (T::zero(), SVector::zeros()),
        }
    } else {
        let s = span?;
        if s.t_out < T::zero() {
            return None;
        }
        // `t_in < 0` here only by rounding (the origin on the boundary).
        let t = if s.t_in > T::zero() {
            s.t_in
        } else {
            T::zero()
        };
        (t, s.n_in)
    };
    let toi = local.toi(t);
    if !within(toi, max_toi) {
        return None;
    }
    let point = local.origin + local.dir * t;
    if !point.iter().all(|v| Float::is_finite(*v)) {
        return None;
    }
    let normal = unit_or_back(&n, &local.dir);
    Some(RayHit {
        toi,
        point: pose.transform_point(&point),
        normal: Unit::new_unchecked(pose.transform_vector(&normal)),
    })
}

/// The slab method (Kay and Kajiya; Ericson §5.3.3): the line `o + t d`
/// through the closed box `[lo, hi]`, one axis at a time. Along axis `i` with
/// `dᵢ ≠ 0` the line is between the two planes for `t` between
/// `(loᵢ − oᵢ)/dᵢ` and `(hiᵢ − oᵢ)/dᵢ`; the span is the intersection over the
/// axes. An axis with `dᵢ = 0` holds the whole line or none of it
/// (`loᵢ ≤ oᵢ ≤ hiᵢ`, closed): no division, so no `0 · ∞`. The bounds are
/// quotients of exactly signed differences, so `t = 0` is in the span exactly
/// when the origin is in the box. Ties (a corner) keep the lowest axis.
#[inline]
pub(crate) fn slab_span<T: Real, const D: usize>(
    o: &Point<T, D>,
    d: &SVector<T, D>,
    lo: &Point<T, D>,
    hi: &Point<T, D>,
) -> Option<Span<T, D>> {
    let mut span = Span {
        t_in: T::neg_infinity(),
        n_in: SVector::zeros(),
        t_out: T::infinity(),
        n_out: SVector::zeros(),
    };
    for i in 0..D {
        let di = d[i];
        if di == T::zero() {
            if o[i] < lo[i] || o[i] > hi[i] {
                return None;
            }
            continue;
        }
        let to_lo = (lo[i] - o[i]) / di;
        let to_hi = (hi[i] - o[i]) / di;
        // Going up the axis the line enters through `lo` (outward normal
        // −eᵢ) and leaves through `hi` (+eᵢ); going down, the reverse.
        let (near, far, side) = if di > T::zero() {
            (to_lo, to_hi, -T::one())
        } else {
            (to_hi, to_lo, T::one())
        };
        if near > span.t_in {
            span.t_in = near;
            span.n_in = SVector::zeros();
            span.n_in[i] = side;
        }
        if far < span.t_out {
            span.t_out = far;
            span.n_out = SVector::zeros();
            span.n_out[i] = -side;
        }
    }
    (span.t_in <= span.t_out).then_some(span)
}

/// What the fast path of a box's ray cast found ([`slab_entry`]).
#[derive(Debug, Clone, Copy)]
pub(crate) enum SlabEntry<T> {
    /// The line enters the box at time `t > 0` through a face of axis
    /// `axis`, whose outward normal is `side · e_axis` (`side = ±1`).
    At { t: T, axis: usize, side: T },
    /// The ray misses the box or the box is behind it.
    Miss,
    /// The origin is in the box, or the direction has a zero component:
    /// take the careful path ([`slab_span`]).
    Careful,
}

/// The fast path of [`slab_span`] for an origin outside the box, in the
/// units of `d` as given (no rescaling): the slab bounds `(lo − o)/d` and
/// `(hi − o)/d` are quotients, so scaling `d` by a power of two scales them
/// exactly, and a bound too large or too small for the float range is one
/// whose time of impact is too (the box's own hit point `o + t d` is the
/// same product either way). The bounds carry the exact sign of `lo − o`
/// and `hi − o`, so "`t = 0` in the span" is the containment test: an
/// origin outside has the whole span ahead (entry `t_in > 0`) or behind
/// (exit `< 0`). Ties (a corner) keep the lowest axis, as [`slab_span`].
#[inline(always)]
pub(crate) fn slab_entry<T: Real, const D: usize>(
    o: &Point<T, D>,
    d: &SVector<T, D>,
    lo: &Point<T, D>,
    hi: &Point<T, D>,
) -> SlabEntry<T> {
    let (mut t_in, mut t_out) = (T::neg_infinity(), T::infinity());
    let (mut axis, mut side) = (0, T::zero());
    let mut flat = false;
    for i in 0..D {
        let di = d[i];
        // A zero component divides by zero: garbage, thrown away below.
        flat |= di == T::zero();
        let to_lo = (lo[i] - o[i]) / di;
        let to_hi = (hi[i] - o[i]) / di;
        let up = di > T::zero();
        let (near, far) = if up { (to_lo, to_hi) } else { (to_hi, to_lo) };
        if near > t_in {
            t_in = near;
            axis = i;
            side = if up { -T::one() } else { T::one() };
        }
        if far < t_out {
            t_out = far;
        }
    }
    if flat {
        SlabEntry::Careful
    } else if t_in > T::zero() && t_in <= t_out {
        SlabEntry::At {
            t: t_in,
            axis,
            side,
        }
    } else if t_in > t_out || t_out < T::zero() {
        SlabEntry::Miss
    } else {
        SlabEntry::Careful
    }
}

/// The roots `t₀ ≤ t₁` of `|o + t d| = r` (a ball of radius `r` centred on the
/// origin), or `None` when the line misses it.
///
/// With `a = d·d`, `b = o·d`, `c = o·o − r²` the roots of `a t² + 2 b t + c`
/// are `(−b ∓ √(b² − a c)) / a`. Two refinements (Haines et al., "Precision
/// improvements for ray/sphere intersection", *Ray Tracing Gems*, 2019):
/// - the discriminant is computed as `a (r² − |f|²)` with `f = o − (b/a) d`
///   the foot of the perpendicular from the centre (`|f|² = |o|² − b²/a`), so
///   a grazing line loses no digits to `b² − a c` and a far origin does not
///   overflow `b²`;
/// - the root of larger magnitude is `q / a` with `q = −(b + sign(b) √disc)`
///   (no cancellation) and the other `c / q` (Vieta), or, when `c` overflows
///   (an origin so far that `|o|²` does), `(−b ± √disc) / a` directly, which
///   then has no cancellation either (`|b| ≫ √disc`).
///
/// `inside` (`c ≤ 0`, the caller's containment test) forces a non-negative
/// discriminant, so that rounding cannot lose the line through a ball that
/// holds its origin.
#[inline]
pub(crate) fn ball_roots<T: Real, const D: usize>(
    o: &SVector<T, D>,
    d: &SVector<T, D>,
    r: T,
    inside: bool,
) -> Option<(T, T)> {
    let a = d.norm_squared();
    let b = o.dot(d);
    let f = o - d * (b / a);
    let mut h2 = r * r - f.norm_squared();
    if inside {
        h2 = Float::max(h2, T::zero());
    }
    // (Written so that a NaN, from an origin beyond the supported range,
    // also misses.)
    if h2.partial_cmp(&T::zero()).is_none_or(|o| o.is_lt()) {
        return None;
    }
    let s = Float::sqrt(a * h2);
    let q = if b >= T::zero() { -(b + s) } else { s - b };
    if q == T::zero() {
        // b = 0 and a tangent line: the origin is the point of contact.
        return Some((T::zero(), T::zero()));
    }
    let c = o.norm_squared() - r * r;
    let r0 = q / a;
    let r1 = if Float::is_finite(c) {
        c / q
    } else if b >= T::zero() {
        (s - b) / a
    } else {
        -(b + s) / a
    };
    if !(Float::is_finite(r0) && Float::is_finite(r1)) {
        return None;
    }
    Some(if r0 <= r1 { (r0, r1) } else { (r1, r0) })
}

/// What the fast path of a ball's ray cast found ([`ball_entry`]).
#[derive(Debug, Clone, Copy)]
pub(crate) enum Entry<T> {
    /// The line enters the ball at this time, `≥ 0`.
    At(T),
    /// The ray misses the ball or the ball is behind it.
    Miss,
    /// Outside the fast path's domain (the origin in the ball or on its
    /// boundary, sizes near the ends of the float range, NaN): take the
    /// careful path.
    Careful,
}

/// The fast path of a ball's ray cast: the entry time of `o + t d` into
/// `|x| ≤ r` for an origin outside the ball (`|o|² > r²`, `oo` and `rr`, the
/// containment test's own arithmetic), in `d`'s units, with one square root
/// and one division, and with no rescaling of `d`.
///
/// The domain: `|d|²` in `[2⁻⁴⁰, 2⁴⁰]`, `|o|² ≤ MAX · 2⁻⁴⁴` and
/// `r² ≥ MIN_POSITIVE · 2⁴⁰`, so that no quantity below overflows, and
/// none underflows but by cancellation; the careful path takes the rest.
/// Within it, scaling `d` by a power of two would scale every quantity
/// below exactly, so this is the rescaled computation of the module notes
/// (step 1), without the rescaling.
///
/// With `a = d·d`, `b = o·d`, `c = |o|² − r² > 0`:
/// 1. `b ≥ 0` (moving away): the roots' product `c/a` is positive and their
///    sum `−2b/a` is not, so both are `≤ 0`: a miss.
/// 2. The discriminant `b² − ac` is `a r² − |d × o|²` (Lagrange's identity
///    `|d|²|o|² − (d·o)² = |d × o|²`), computed from the cross product
///    directly: no cancellation of `b²` against `ac` (the same point as
///    Haines et al.'s `a (r² − |f|²)` of [`ball_roots`], with `|f|² =
///    |d × o|²/a`, and no division). Negative: a miss.
/// 3. With `b < 0`, `q = √disc − b > 0` has no cancellation and the near root
///    is `c / q` (Vieta: the roots are `q/a` and `c/q`), unless the two are
///    equal to rounding.
#[inline(always)]
pub(crate) fn ball_entry<T: Real, const D: usize>(
    o: &SVector<T, D>,
    d: &SVector<T, D>,
    rr: T,
    oo: T,
) -> Entry<T> {
    let a = d.norm_squared();
    let domain = (oo > rr)
        & (oo <= <T as Float>::max_value() * T::lit(2f64.powi(-44)))
        & (a >= T::lit(2f64.powi(-40)))
        & (a <= T::lit(2f64.powi(40)))
        & (rr >= <T as Float>::min_positive_value() * T::lit(2f64.powi(40)));
    if !domain {
        return Entry::Careful;
    }
    let b = o.dot(d);
    if b >= T::zero() {
        return Entry::Miss;
    }
    let mut cross2 = T::zero();
    for i in 0..D {
        for j in i + 1..D {
            let c = d[i] * o[j] - d[j] * o[i];
            cross2 += c * c;
        }
    }
    let disc = a * rr - cross2;
    if disc < T::zero() {
        return Entry::Miss;
    }
    let q = Float::sqrt(disc) - b;
    let c = oo - rr;
    // Roots equal to rounding (`q² ≤ ac`: a tangent line, or an origin so
    // far that `r` is below its ulp): the far root `q/a`, rounded once
    // without `c`'s rounding, is then as near and never beyond the true far
    // root (`|o|² − r²` rounded up may put `c/q` past it).
    Entry::At(if q * q <= a * c { q / a } else { c / q })
}

/// The hit of a ball of radius `r` centred on `c` (world) at time `t` along
/// `o + t d` (`o` relative to `c`, `d` the caller's direction): the time
/// checked against `max_toi`, the point `o + t d + c`, the outward normal
/// `(x − c)/r` ([`ball_normal`]).
#[inline(always)]
pub(crate) fn ball_hit<T: Real, const D: usize>(
    o: &SVector<T, D>,
    d: &SVector<T, D>,
    c: &SVector<T, D>,
    r: T,
    t: T,
    max_toi: T,
) -> Option<RayHit<T, D>> {
    if !within(t, max_toi) {
        return None;
    }
    let p = o + d * t;
    let normal = ball_normal(&p, r, d)?;
    Some(RayHit {
        toi: t,
        point: Point::from(p + c),
        normal: Unit::new_unchecked(normal),
    })
}

/// The unit normal `p / r` of a ball of radius `r` at a point `p` (relative
/// to the centre) computed on its boundary, or `None` when `p` is not finite
/// (`−d/|d|` in the impossible case `p = 0`, as [`unit_or_back`]).
///
/// `p` is on the sphere only up to the rounding of `o + t d`, so `|p/r|²`
/// is `1 + δ` with `δ` a few `ε` times `|o|/r`; a Newton step for
/// `1/√(1 + δ)`, `n (3 − |n|²)/2`, leaves `3δ²/4` (below `ε` when
/// `δ² ≤ ε`) with no square root. `δ = 0` (representable hits: a 3-4-5
/// chord) keeps `p/r` as it is. Larger `δ` (origins very far from a small
/// ball) normalises `p` itself.
#[inline(always)]
pub(crate) fn ball_normal<T: Real, const D: usize>(
    p: &SVector<T, D>,
    r: T,
    d: &SVector<T, D>,
) -> Option<SVector<T, D>> {
    let n = p / r;
    let dev = n.norm_squared() - T::one();
    if dev * dev <= T::epsilon() {
        return Some(n * (T::one() - dev * T::half()));
    }
    ball_normal_far(p, d)
}

/// The slow path of [`ball_normal`].
#[cold]
fn ball_normal_far<T: Real, const D: usize>(
    p: &SVector<T, D>,
    d: &SVector<T, D>,
) -> Option<SVector<T, D>> {
    p.iter()
        .all(|v| Float::is_finite(*v))
        .then(|| unit_or_back(p, d))
}

/// The span of a ball of radius `r` centred on the origin, with the points
/// themselves as outward normals.
#[inline]
pub(crate) fn ball_span<T: Real, const D: usize>(
    o: &SVector<T, D>,
    d: &SVector<T, D>,
    r: T,
    inside: bool,
) -> Option<Span<T, D>> {
    ball_roots(o, d, r, inside).map(|(t0, t1)| Span {
        t_in: t0,
        n_in: o + d * t0,
        t_out: t1,
        n_out: o + d * t1,
    })
}

/// Cyrus–Beck clipping (Cyrus and Beck, 1978; Ericson §5.3.8): the line
/// `o + t d` through a closed counter-clockwise convex polygon, as the
/// intersection of the parameter intervals of every edge's inner half-plane.
/// For edge `a → b` with `e = b − a` the line is inside where
/// `e × (o − a) + t (e × d) ≥ 0`: a lower bound of `t` when `e × d > 0` (the
/// line enters there), an upper bound when `e × d < 0` (it leaves), no bound
/// or an empty interval when `e × d = 0` (parallel: inside or outside
/// entirely). The numerator is the very expression `contains_point` tests, so
/// `t = 0` is in the span exactly when the origin is in the polygon. The
/// outward normal of the edge that gives the binding bound is the normal
/// there; ties (a vertex) keep the first edge.
#[inline]
pub(crate) fn polygon_span<T: Real>(
    vertices: &[Point2<T>],
    normals: &[Vector2<T>],
    o: &Point2<T>,
    d: &Vector2<T>,
) -> Option<Span<T, 2>> {
    let n = vertices.len();
    let (mut t_in, mut t_out) = (T::neg_infinity(), T::infinity());
    let (mut i_in, mut i_out) = (None, None);
    for i in 0..n {
        let a = vertices[i];
        let e = vertices[if i + 1 == n { 0 } else { i + 1 }] - a;
        let num = e.perp(&(o - a));
        let den = e.perp(d);
        if den == T::zero() {
            if num < T::zero() {
                return None;
            }
            continue;
        }
        let t = -num / den;
        if den > T::zero() {
            if t > t_in {
                t_in = t;
                i_in = Some(i);
            }
        } else if t < t_out {
            t_out = t;
            i_out = Some(i);
        }
        if t_in > t_out {
            return None;
        }
    }
    let normal = |i: Option<usize>| i.map_or_else(Vector2::zeros, |i| normals[i]);
    Some(Span {
        t_in,
        n_in: normal(i_in),
        t_out,
        n_out: normal(i_out),
    })
}

/// What the fast path of a polygon's ray cast found ([`polygon_entry`]).
#[derive(Debug, Clone, Copy)]
pub(crate) enum EdgeEntry<T> {
    /// The line enters the polygon at time `t > 0` through edge `edge`.
    At { t: T, edge: usize },
    /// The ray misses the polygon or the polygon is behind it.
    Miss,
    /// The origin is in the polygon (or rounding left no entering edge):
    /// take the careful path ([`polygon_span`]).
    Careful,
}

/// The fast path of [`polygon_span`] for an origin outside the polygon: the
/// same clipping, with the containment test (`e × (o − a) ≥ 0` for every
/// edge, the numerators themselves) decided on the way; an origin outside
/// has the whole span ahead (entry `t_in > 0`, the binding edge) or behind.
#[inline(always)]
pub(crate) fn polygon_entry<T: Real>(
    vertices: &[Point2<T>],
    o: &Point2<T>,
    d: &Vector2<T>,
) -> EdgeEntry<T> {
    let n = vertices.len();
    let (mut t_in, mut t_out) = (T::neg_infinity(), T::infinity());
    let mut edge = 0;
    let mut inside = true;
    for i in 0..n {
        let a = vertices[i];
        let e = vertices[if i + 1 == n { 0 } else { i + 1 }] - a;
        let num = e.perp(&(o - a));
        let den = e.perp(d);
        inside &= num >= T::zero();
        if den == T::zero() {
            if num < T::zero() {
                return EdgeEntry::Miss;
            }
            continue;
        }
        let t = -num / den;
        if den > T::zero() {
            if t > t_in {
                t_in = t;
                edge = i;
            }
        } else if t < t_out {
            t_out = t;
        }
        if t_in > t_out {
            return EdgeEntry::Miss;
        }
    }
    if inside || t_in <= T::zero() {
        // (An origin outside with no entry ahead is behind, or rounding.)
        if !inside && t_out < T::zero() {
            return EdgeEntry::Miss;
        }
        return EdgeEntry::Careful;
    }
    EdgeEntry::At { t: t_in, edge }
}

/// The projection of `q` on the closed box `[lo, hi]` and whether `q` is in
/// it: `q` clamped per axis; for a hollow query of a point inside, the point
/// of the nearest face (the smallest of the gaps `hiᵢ − qᵢ`, `qᵢ − loᵢ`; ties
/// keep the lowest axis, and the `hi` face before the `lo` face).
#[inline]
pub(crate) fn box_projection<T: Real, const D: usize>(
    q: &Point<T, D>,
    lo: &Point<T, D>,
    hi: &Point<T, D>,
    solid: bool,
) -> (Point<T, D>, bool) {
    let inside = (0..D).all(|i| lo[i] <= q[i] && q[i] <= hi[i]);
    if !inside {
        return (
            Point::from(q.coords.zip_zip_map(&lo.coords, &hi.coords, |v, l, h| {
                Float::min(Float::max(v, l), h)
            })),
            false,
        );
    }
    if solid {
        return (*q, true);
    }
    let mut best = (T::infinity(), 0, hi[0]);
    for i in 0..D {
        let up = hi[i] - q[i];
        if up < best.0 {
            best = (up, i, hi[i]);
        }
        let down = q[i] - lo[i];
        if down < best.0 {
            best = (down, i, lo[i]);
        }
    }
    let mut p = *q;
    p[best.1] = best.2;
    (p, true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::for_each_precision;
    use nalgebra::{Point3, Vector3};

    fn rescaling<T: Real>() {
        // A unit-ish direction is kept; tiny and huge ones are rescaled by
        // an exact power of two, so times convert back without rounding.
        let o = Point2::new(T::one(), T::two());
        let s = ScaledRay::new(&Ray::new(o, Vector2::new(T::one(), T::zero())));
        assert_eq!((s.dir.x, s.toi(T::lit(3.0))), (T::one(), T::lit(3.0)));
        let tiny = T::min_positive_value() * T::epsilon(); // subnormal
        let s = ScaledRay::new(&Ray::new(o, Vector2::new(tiny, -tiny)));
        assert!(s.dir.x >= T::half() && s.dir.x <= T::two() && s.dir.y == -s.dir.x);
        let t = T::lit(2f64.powi(-100));
        assert_eq!(s.toi(t) * tiny, t * s.dir.x);
        let huge = <T as Float>::max_value();
        let s = ScaledRay::new(&Ray::new(o, Vector2::new(T::zero(), huge)));
        assert!(s.dir.y >= T::half() && s.dir.y <= T::two());
        assert_eq!(s.toi(T::one()) * huge, s.dir.y);
        // A time beyond the float range along a tiny direction is no hit.
        let s = ScaledRay::new(&Ray::new(o, Vector2::new(tiny, T::zero())));
        assert!(!within(s.toi(T::lit(1e6)), T::infinity()));
    }
    for_each_precision!(rescale, rescaling);

    fn powers_of_two<T: Real>() {
        // The bit trick and the general path agree, and both land the
        // largest component in [1, 2), from subnormal to MAX.
        let mut m = T::min_positive_value() * T::epsilon();
        let big = <T as Float>::max_value();
        let mut seen = 0;
        while m <= big && Float::is_finite(m) {
            for k in [T::one(), T::lit(1.5), T::lit(1.999)] {
                let v = m * k;
                if v > big {
                    continue;
                }
                let (s0, s1) = pow2_scale(v).unwrap();
                let (g0, g1) = pow2_scale_decoded(v).unwrap();
                assert_eq!(v * s0 * s1, v * g0 * g1, "{v:?}");
                let w = v * s0 * s1;
                assert!(w >= T::one() && w < T::two(), "{v:?} -> {w:?}");
                seen += 1;
            }
            m *= T::lit(3.0);
        }
        assert!(seen > 100);
        assert!(pow2_scale(T::zero()).is_none());
        assert!(pow2_scale(T::nan()).is_none());
        assert!(pow2_scale(T::infinity()).is_none());
    }
    for_each_precision!(pow2, powers_of_two);

    fn slabs<T: Real>() {
        let p = |x: f64, y: f64, z: f64| Point3::new(T::lit(x), T::lit(y), T::lit(z));
        let v = |x: f64, y: f64, z: f64| Vector3::new(T::lit(x), T::lit(y), T::lit(z));
        let (lo, hi) = (p(-1.0, -1.0, -1.0), p(1.0, 1.0, 1.0));
        let s = slab_span(&p(-3.0, 0.0, 0.0), &v(1.0, 0.0, 0.0), &lo, &hi).unwrap();
        assert_eq!((s.t_in, s.t_out), (T::two(), T::lit(4.0)));
        assert_eq!((s.n_in, s.n_out), (v(-1.0, 0.0, 0.0), v(1.0, 0.0, 0.0)));
        // On a face plane, parallel to it: closed, the whole span.
        let s = slab_span(&p(-3.0, 1.0, -1.0), &v(1.0, 0.0, 0.0), &lo, &hi).unwrap();
        assert_eq!((s.t_in, s.t_out), (T::two(), T::lit(4.0)));
        // A hair outside the face plane: nothing.
        let out = T::one() + T::epsilon() * T::two();
        let o = Point3::new(T::lit(-3.0), out, T::zero());
        assert!(slab_span(&o, &v(1.0, 0.0, 0.0), &lo, &hi).is_none());
        // Through a corner only: a single point, the first axis's normal.
        let s = slab_span(&p(-2.0, 0.0, 0.0), &v(1.0, 1.0, 0.0), &lo, &hi).unwrap();
        assert_eq!((s.t_in, s.t_out), (T::one(), T::one()));
        assert_eq!(s.n_in, v(-1.0, 0.0, 0.0));
        // Starting on a face and pointing out: 0 ∈ span.
        let s = slab_span(&p(1.0, 0.0, 0.0), &v(1.0, 0.0, 0.0), &lo, &hi).unwrap();
        assert!(s.holds_origin() && s.t_out == T::zero());
    }
    for_each_precision!(slab, slabs);

    fn slab_entries<T: Real>() {
        let p = |x: f64, y: f64| Point2::new(T::lit(x), T::lit(y));
        let v = |x: f64, y: f64| Vector2::new(T::lit(x), T::lit(y));
        let (lo, hi) = (p(-1.0, -1.0), p(1.0, 1.0));
        let at = |e: SlabEntry<T>| match e {
            SlabEntry::At { t, axis, side } => (t, axis, side),
            other => panic!("{other:?}"),
        };
        assert_eq!(
            at(slab_entry(&p(-3.0, 0.5), &v(1.0, 0.125), &lo, &hi)),
            (T::two(), 0, -T::one())
        );
        assert_eq!(
            at(slab_entry(&p(0.5, 3.0), &v(0.125, -4.0), &lo, &hi)),
            (T::half(), 1, T::one())
        );
        // Through a corner: the lowest axis. Scaled directions scale the
        // time exactly.
        assert_eq!(
            at(slab_entry(&p(-2.0, -2.0), &v(1.0, 1.0), &lo, &hi)),
            (T::one(), 0, -T::one())
        );
        let k = T::lit(2f64.powi(40));
        let (t, _, _) = at(slab_entry(&p(-3.0, 0.25), &v(3.0, -0.5), &lo, &hi));
        let (tk, _, _) = at(slab_entry(&p(-3.0, 0.25), &(v(3.0, -0.5) * k), &lo, &hi));
        assert_eq!(t, tk * k);
        // A miss, a box behind, an origin inside or on a face, a direction
        // along an axis.
        assert!(matches!(
            slab_entry(&p(-3.0, 2.0), &v(1.0, 0.1), &lo, &hi),
            SlabEntry::Miss
        ));
        assert!(matches!(
            slab_entry(&p(-3.0, 0.0), &v(-1.0, 0.1), &lo, &hi),
            SlabEntry::Miss
        ));
        for o in [p(0.0, 0.0), p(-1.0, 0.0)] {
            assert!(matches!(
                slab_entry(&o, &v(1.0, 0.5), &lo, &hi),
                SlabEntry::Careful
            ));
        }
        assert!(matches!(
            slab_entry(&p(-3.0, 0.0), &v(1.0, 0.0), &lo, &hi),
            SlabEntry::Careful
        ));
    }
    for_each_precision!(slab_entry_fast, slab_entries);

    fn balls<T: Real>() {
        let v = |x: f64, y: f64| Vector2::new(T::lit(x), T::lit(y));
        // A 3-4-5 chord: from (-10, 3) along +x the circle of radius 5 is
        // entered at x = -4 and left at x = 4.
        let (t0, t1) = ball_roots(&v(-10.0, 3.0), &v(1.0, 0.0), T::lit(5.0), false).unwrap();
        assert_eq!((t0, t1), (T::lit(6.0), T::lit(14.0)));
        // Tangent: a double root.
        let (t0, t1) = ball_roots(&v(-10.0, 5.0), &v(2.0, 0.0), T::lit(5.0), false).unwrap();
        assert_eq!((t0, t1), (T::lit(5.0), T::lit(5.0)));
        assert!(ball_roots(&v(-10.0, 5.5), &v(1.0, 0.0), T::lit(5.0), false).is_none());
        // No cancellation: a unit ball seen from 1e3 (f32) or 1e7 (f64) away
        // along the axis; both roots are exact.
        let far = if T::epsilon() > T::lit(1e-10) {
            1e3
        } else {
            1e7
        };
        let (t0, t1) = ball_roots(&v(-far, 0.0), &v(1.0, 0.0), T::one(), false).unwrap();
        assert_eq!((t0, t1), (T::lit(far - 1.0), T::lit(far + 1.0)));
        // An origin so far that |o|² overflows still finds the ball.
        let big = Float::sqrt(<T as Float>::max_value()) * T::lit(4.0);
        let (t0, _) = ball_roots(
            &Vector2::new(-big, T::zero()),
            &v(1.0, 0.0),
            T::one(),
            false,
        )
        .unwrap();
        assert!(Float::abs(t0 - big) <= big * T::epsilon());
    }
    for_each_precision!(ball, balls);

    fn ball_entries<T: Real>() {
        let v = |x: f64, y: f64| Vector2::new(T::lit(x), T::lit(y));
        let entry = |o: Vector2<T>, d: Vector2<T>, r: f64| {
            let rr = T::lit(r * r);
            ball_entry(&o, &d, rr, o.norm_squared())
        };
        // The 3-4-5 chord, in the direction's own units (no rescaling).
        let at = |e: Entry<T>| match e {
            Entry::At(t) => t,
            other => panic!("{other:?}"),
        };
        assert_eq!(at(entry(v(-10.0, 3.0), v(1.0, 0.0), 5.0)), T::lit(6.0));
        assert_eq!(at(entry(v(-10.0, 3.0), v(4.0, 0.0), 5.0)), T::lit(1.5));
        // Tangent, and a hair beyond.
        assert_eq!(at(entry(v(-10.0, 5.0), v(2.0, 0.0), 5.0)), T::lit(5.0));
        assert!(matches!(
            entry(v(-10.0, 5.5), v(1.0, 0.0), 5.0),
            Entry::Miss
        ));
        // Moving away; from inside or on the circle: the careful path.
        assert!(matches!(
            entry(v(-10.0, 3.0), v(-1.0, 0.0), 5.0),
            Entry::Miss
        ));
        assert!(matches!(
            entry(v(1.0, 1.0), v(1.0, 0.0), 5.0),
            Entry::Careful
        ));
        assert!(matches!(
            entry(v(-3.0, 4.0), v(1.0, 0.0), 5.0),
            Entry::Careful
        ));
        // Both roots round to the same number: never beyond the far root.
        let far = if T::epsilon() > T::lit(1e-10) {
            1e8
        } else {
            1e17
        };
        assert_eq!(
            at(entry(v(-far, 0.0), v(1.0, 0.0), 2.0)),
            T::lit(far) - T::two()
        );
        // A direction far outside [2⁻²⁰, 2²⁰]: the careful path.
        assert!(matches!(
            entry(v(-10.0, 3.0), v(1e-7, 0.0), 5.0),
            Entry::Careful
        ));
    }
    for_each_precision!(ball_entry_fast, ball_entries);

    fn ball_normals<T: Real>() {
        let v = |x: f64, y: f64| Vector2::new(T::lit(x), T::lit(y));
        let d = v(1.0, 0.0);
        // On the circle exactly: p / r as it is.
        assert_eq!(
            ball_normal(&v(-4.0, 3.0), T::lit(5.0), &d),
            Some(v(-0.8, 0.6))
        );
        // Off by a relative 1e-4 (f64: 1e-8): one Newton step makes it
        // unit to rounding.
        let off = if T::epsilon() > T::lit(1e-10) {
            3e-4
        } else {
            1e-8
        };
        let n = ball_normal(&v(-4.0 * (1.0 + off), 3.0), T::lit(5.0), &d).unwrap();
        assert!(Float::abs(n.norm() - T::one()) <= T::lit(4.0) * T::epsilon());
        // Far off (a small ball seen from far): normalised outright.
        let n = ball_normal(&v(-8.0, 6.0), T::lit(5.0), &d).unwrap();
        assert!((n - v(-0.8, 0.6)).norm() <= T::lit(2.0) * T::epsilon());
        let inf = Vector2::new(T::infinity(), T::zero());
        assert_eq!(ball_normal(&inf, T::one(), &d), None);
    }
    for_each_precision!(ball_normal_unit, ball_normals);

    fn clipping<T: Real>() {
        let p = |x: f64, y: f64| Point2::new(T::lit(x), T::lit(y));
        let v = |x: f64, y: f64| Vector2::new(T::lit(x), T::lit(y));
        let tri = [p(0.0, 0.0), p(4.0, 0.0), p(0.0, 4.0)];
        let normals = [v(0.0, -1.0), v(0.5, 0.5).normalize(), v(-1.0, 0.0)];
        let s = polygon_span(&tri, &normals, &p(-1.0, 1.0), &v(1.0, 0.0)).unwrap();
        assert_eq!((s.t_in, s.t_out), (T::one(), T::lit(4.0)));
        assert_eq!(s.n_in, v(-1.0, 0.0));
        // Along the bottom edge's line: closed, the edge itself.
        let s = polygon_span(&tri, &normals, &p(-2.0, 0.0), &v(1.0, 0.0)).unwrap();
        assert_eq!((s.t_in, s.t_out), (T::two(), T::lit(6.0)));
        // Through the vertex (4, 0) only.
        let s = polygon_span(&tri, &normals, &p(4.0, -1.0), &v(0.0, 1.0)).unwrap();
        assert_eq!((s.t_in, s.t_out), (T::one(), T::one()));
        assert!(polygon_span(&tri, &normals, &p(5.0, -1.0), &v(0.0, 1.0)).is_none());
    }
    for_each_precision!(clip, clipping);

    fn edge_entries<T: Real>() {
        let p = |x: f64, y: f64| Point2::new(T::lit(x), T::lit(y));
        let v = |x: f64, y: f64| Vector2::new(T::lit(x), T::lit(y));
        let tri = [p(0.0, 0.0), p(4.0, 0.0), p(0.0, 4.0)];
        let at = |e: EdgeEntry<T>| match e {
            EdgeEntry::At { t, edge } => (t, edge),
            other => panic!("{other:?}"),
        };
        assert_eq!(
            at(polygon_entry(&tri, &p(-1.0, 1.0), &v(1.0, 0.0))),
            (T::one(), 2)
        );
        assert_eq!(
            at(polygon_entry(&tri, &p(3.0, 3.0), &v(-1.0, -1.0))),
            (T::one(), 1)
        );
        // Through the vertex (0, 0) from below-left: the first edge (0).
        assert_eq!(
            at(polygon_entry(&tri, &p(-1.0, -1.0), &v(1.0, 1.0))),
            (T::one(), 0)
        );
        // Miss, behind, inside, on an edge, parallel outside.
        assert!(matches!(
            polygon_entry(&tri, &p(5.0, -1.0), &v(0.0, 1.0)),
            EdgeEntry::Miss
        ));
        assert!(matches!(
            polygon_entry(&tri, &p(-1.0, 1.0), &v(-1.0, 0.0)),
            EdgeEntry::Miss
        ));
        for o in [p(1.0, 1.0), p(2.0, 0.0)] {
            assert!(matches!(
                polygon_entry(&tri, &o, &v(0.0, -1.0)),
                EdgeEntry::Careful
            ));
        }
        assert!(matches!(
            polygon_entry(&tri, &p(-2.0, -1.0), &v(1.0, 0.0)),
            EdgeEntry::Miss
        ));
    }
    for_each_precision!(edge_entry_fast, edge_entries);

    fn box_projections<T: Real>() {
        let p = |x: f64, y: f64| Point2::new(T::lit(x), T::lit(y));
        let (lo, hi) = (p(-1.0, -2.0), p(3.0, 2.0));
        assert_eq!(
            box_projection(&p(5.0, -7.0), &lo, &hi, true),
            (p(3.0, -2.0), false)
        );
        assert_eq!(
            box_projection(&p(0.0, 1.5), &lo, &hi, true),
            (p(0.0, 1.5), true)
        );
        assert_eq!(
            box_projection(&p(0.0, 1.5), &lo, &hi, false),
            (p(0.0, 2.0), true)
        );
        // The centre: four faces at distances 2, 2, 2, 2; x's max face wins.
        assert_eq!(
            box_projection(&p(1.0, 0.0), &lo, &hi, false),
            (p(3.0, 0.0), true)
        );
        // On the boundary: itself, inside.
        assert_eq!(
            box_projection(&p(-1.0, 0.5), &lo, &hi, false),
            (p(-1.0, 0.5), true)
        );
    }
    for_each_precision!(boxes, box_projections);
}
