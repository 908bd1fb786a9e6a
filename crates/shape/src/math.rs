//! Deterministic float functions: rotations from angles and back, `hypot`,
//! and a number's binary exponent, from the basic IEEE operations and square
//! roots alone.
//!
//! The kernels must answer the same bits on every platform and build (a
//! replay, a lockstep multiplayer game and our own `--json` outputs depend on
//! it). `+ − × ÷` and `sqrt` are correctly rounded by IEEE 754, so any
//! sequence of them gives the same result everywhere (Rust never fuses a
//! multiply and an add on its own). The C library's `sin`, `cos`, `atan2`,
//! `hypot` and `log2` are not: their last bit may differ between systems,
//! versions and CPU dispatch. So every place the library turns an angle into
//! a rotation, a rotation into an angle, or needs a length's power of two
//! goes through this module (Box2D v3 does the same with its own cosine and
//! sine approximation, for the same reason).
//!
//! # Method
//!
//! - [`cos_sin`]: Cody–Waite reduction of the angle by the nearest multiple
//!   `k` of π/2 (π/2 split into three parts of 33, 33 and 53 bits, so `k·hi`
//!   and `k·mid` are exact for `|k| < 2²⁰`), then the Taylor series of sine
//!   to `r¹⁷` and cosine to `r¹⁶` on `|r| ≤ π/4`, where the first omitted
//!   terms are below `5·10⁻¹⁷ |r|` and `2·10⁻¹⁸`; the quadrant `k mod 4`
//!   swaps and negates. Computed in `f64` and rounded once to the caller's
//!   precision. Accurate to about an ulp for `|angle| < 2¹⁹·π ≈ 1.6·10⁶`;
//!   larger angles are first reduced modulo the `f64` nearest 2π with `%`
//!   (exact, so still deterministic): the rotation by an angle within
//!   `|angle|·2.5·10⁻¹⁷` of the given one, always a finite unit rotation
//!   (angles that large carry no meaningful fraction of a turn anyway).
//! - [`atan2`]: the ratio of the smaller to the larger absolute coordinate,
//!   `t ∈ [0, 1]`, halved twice by `atan t = 2 atan(t / (1 + √(1 + t²)))`
//!   down to `|v| ≤ tan(π/16) ≈ 0.199`, where the alternating series to
//!   `v²³` leaves less than `3·10⁻¹⁸`; then the octant's reflections with
//!   π/2 and π carried in two parts. Within a few ulps of the true value.
//! - [`hypot`]: `√(x² + y²)` on coordinates scaled by a power of two near
//!   the larger (exact), so nothing overflows or underflows.
//! - [`exponent`]: `⌊log₂ |x|⌋` read off the number's bits (exact).
//!
//! ```
//! use shape::math::{angle_of, cos_sin, rotation2};
//!
//! let (c, s) = cos_sin(core::f64::consts::FRAC_PI_6);
//! assert!((c - 3f64.sqrt() / 2.0).abs() <= 1e-16 && (s - 0.5).abs() <= 1e-16);
//! assert_eq!(cos_sin(0.0f32), (1.0, 0.0));
//! let r = rotation2(2.5f64);
//! assert!((angle_of(&r) - 2.5).abs() <= 1e-15);
//! ```

use nalgebra::{Quaternion, UnitComplex, UnitQuaternion, Vector3};
use num_traits::Float;

use crate::Real;

/// π/2 in three parts: `HI` and `MID` have 33 significant bits, so `k·HI`
/// and `k·MID` are exact for `|k| < 2²⁰`; `HI + MID + LO` is π/2 to about
/// 120 bits.
const PIO2_HI: f64 = 1.570_796_326_734_125_6;
const PIO2_MID: f64 = 6.077_100_506_303_966e-11;
const PIO2_LO: f64 = 2.022_266_248_795_950_6e-21;
/// Angles at least this large (2^19·π, about 1.6·10⁶) are first reduced
/// modulo 2π by `%`; below it, `|k| ≤ 2^20` keeps `k·HI` and `k·MID` exact.
const REDUCTION_LIMIT: f64 = 1_647_099.3291652855;
/// π/2 and π as the nearest `f64` plus the remainder.
const FRAC_PI_2_TAIL: f64 = 6.123_233_995_736_766e-17;
const PI_TAIL: f64 = 1.224_646_799_147_353_2e-16;

/// `2^e` for `e` in the normal range `[−1022, 1023]` (clamped), built from
/// its bits.
#[must_use]
#[inline]
pub fn pow2(e: i32) -> f64 {
    // The biased exponent `e + 1023` is in [1, 2046]: a normal number with a
    // zero fraction.
    let biased = u64::try_from(e.clamp(-1022, 1023) + 1023).unwrap_or(1);
    f64::from_bits(biased << 52)
}

/// `⌊log₂ |x|⌋` for a finite nonzero `x` (subnormals included), read off its
/// bits; `None` for zero, infinities and NaN.
#[must_use]
#[inline]
pub fn exponent<T: Real>(x: T) -> Option<i32> {
    if !(Float::is_finite(x) && x != T::zero()) {
        return None;
    }
    // x = mantissa · 2^exp with the mantissa an integer (its top bit is the
    // leading bit of x), so ⌊log₂|x|⌋ = exp + ⌊log₂ mantissa⌋.
    let (mantissa, exp, _) = Float::integer_decode(x);
    let top = 63 - i32::try_from(mantissa.leading_zeros()).unwrap_or(63);
    Some(i32::from(exp) + top)
}

/// Cosine and sine of `angle` (radians), deterministic (see the module
/// notes). Exactly `(1, 0)` at zero; NaN for a non-finite angle.
#[must_use]
pub fn cos_sin<T: Real>(angle: T) -> (T, T) {
    let x = angle.to_f64().unwrap_or(f64::NAN);
    let (c, s) = cos_sin_f64(x);
    (T::lit(c), T::lit(s))
}

/// [`cos_sin`] in `f64`.
fn cos_sin_f64(x: f64) -> (f64, f64) {
    if !x.is_finite() {
        return (f64::NAN, f64::NAN);
    }
    // Beyond the three-part reduction's exact range, first the remainder
    // modulo the f64 nearest 2π: `%` is exact (IEEE fmod), so this is
    // deterministic, and it is the rotation by an angle within
    // |x|·2.5e-17 of x (at such magnitudes x itself is uncertain by far more:
    // its ulp is over 2e-10 radians).
    let x = if x.abs() >= REDUCTION_LIMIT {
        x % core::f64::consts::TAU
    } else {
        x
    };
    // k = round(x · 2/π), half away from zero, by truncation of x·2/π ± 0.5
    // (|k| < 2^20 + 1 here, so the conversion is exact).
    let q = x * core::f64::consts::FRAC_2_PI;
    let kf = if q >= 0.0 { q + 0.5 } else { q - 0.5 };
    #[allow(clippy::cast_possible_truncation)]
    let k = kf as i64;
    let kf = k as f64;
    let r = ((x - kf * PIO2_HI) - kf * PIO2_MID) - kf * PIO2_LO;
    let (c, s) = (cos_poly(r), sin_poly(r));
    match k & 3 {
        0 => (c, s),
        1 => (-s, c),
        2 => (-c, -s),
        _ => (s, -c),
    }
}

/// 1/n! for the series, exact divisions of exactly representable integers
/// (rounded once at compile time).
const F3: f64 = 1.0 / 6.0;
const F5: f64 = 1.0 / 120.0;
const F7: f64 = 1.0 / 5040.0;
const F9: f64 = 1.0 / 362_880.0;
const F11: f64 = 1.0 / 39_916_800.0;
const F13: f64 = 1.0 / 6_227_020_800.0;
const F15: f64 = 1.0 / 1_307_674_368_000.0;
const F17: f64 = 1.0 / 355_687_428_096_000.0;
const F2: f64 = 0.5;
const F4: f64 = 1.0 / 24.0;
const F6: f64 = 1.0 / 720.0;
const F8: f64 = 1.0 / 40_320.0;
const F10: f64 = 1.0 / 3_628_800.0;
const F12: f64 = 1.0 / 479_001_600.0;
const F14: f64 = 1.0 / 87_178_291_200.0;
const F16: f64 = 1.0 / 20_922_789_888_000.0;

/// sin r on |r| ≤ π/4: r − r³/3! + … − r¹⁷/17!… (Horner in r²), the sum
/// after the leading r added last so that it keeps r's full precision.
fn sin_poly(r: f64) -> f64 {
    let z = r * r;
    if z == 0.0 {
        // ±0 (or a subnormal whose square vanishes): sin r = r, sign kept.
        return r;
    }
    let p = -F3 + z * (F5 + z * (-F7 + z * (F9 + z * (-F11 + z * (F13 + z * (-F15 + z * F17))))));
    r + r * z * p
}

/// cos r on |r| ≤ π/4: 1 − r²/2! + … + r¹⁶/16!.
fn cos_poly(r: f64) -> f64 {
    let z = r * r;
    let p = -F2 + z * (F4 + z * (-F6 + z * (F8 + z * (-F10 + z * (F12 + z * (-F14 + z * F16))))));
    1.0 + z * p
}

/// The angle of the point `(x, y)` from the positive x axis, in `[−π, π]`,
/// deterministic (see the module notes); `atan2(±0, +0) = ±0`,
/// `atan2(±0, −0) = ±π`, NaN for a NaN input or two infinities.
#[must_use]
pub fn atan2<T: Real>(y: T, x: T) -> T {
    let (y, x) = (
        y.to_f64().unwrap_or(f64::NAN),
        x.to_f64().unwrap_or(f64::NAN),
    );
    T::lit(atan2_f64(y, x))
}

/// [`atan2`] in `f64`.
fn atan2_f64(y: f64, x: f64) -> f64 {
    if x.is_nan() || y.is_nan() || (x.is_infinite() && y.is_infinite()) {
        return f64::NAN;
    }
    let (ax, ay) = (x.abs(), y.abs());
    // The angle in [0, π/2] of (|x|, |y|).
    let a = if ay == 0.0 {
        0.0
    } else if ax == 0.0 || ay.is_infinite() {
        core::f64::consts::FRAC_PI_2
    } else if ay <= ax {
        atan_unit(ay / ax)
    } else {
        (core::f64::consts::FRAC_PI_2 - atan_unit(ax / ay)) + FRAC_PI_2_TAIL
    };
    // Left half-plane (−0 counts as left, as in IEEE atan2).
    let a = if x < 0.0 || (x == 0.0 && x.is_sign_negative()) {
        (core::f64::consts::PI - a) + PI_TAIL
    } else {
        a
    };
    if y.is_sign_negative() { -a } else { a }
}

/// atan t for t ∈ [0, 1] (see the module notes).
fn atan_unit(t: f64) -> f64 {
    // Two halvings: atan t = 2 atan(t / (1 + √(1 + t²))).
    let u = t / (1.0 + (1.0 + t * t).sqrt());
    let v = u / (1.0 + (1.0 + u * u).sqrt());
    let z = v * v;
    let mut p = 1.0 / 23.0;
    for n in [21.0, 19.0, 17.0, 15.0, 13.0, 11.0, 9.0, 7.0, 5.0, 3.0] {
        p = 1.0 / n - z * p;
    }
    // v − v³/3 + v⁵/5 − …
    4.0 * (v - v * z * p)
}

/// `√(x² + y²)` without overflow or underflow, deterministic (see the module
/// notes).
#[must_use]
pub fn hypot<T: Real>(x: T, y: T) -> T {
    let (ax, ay) = (Float::abs(x), Float::abs(y));
    if Float::is_infinite(ax) || Float::is_infinite(ay) {
        return <T as Float>::infinity();
    }
    let m = if ax > ay { ax } else { ay };
    let Some(e) = exponent(m) else {
        // Zero, or a NaN (which the sum below carries).
        return ax + ay;
    };
    // Scaling by a power of two is exact; the scaled numbers are near 1,
    // or as near as powers of two that the precision holds allow.
    let limit = exponent(<T as Float>::max_value()).unwrap_or(127) - 1;
    let e = e.clamp(-limit, limit);
    let down = T::lit(pow2(-e));
    let (sx, sy) = (x * down, y * down);
    Float::sqrt(sx * sx + sy * sy) * T::lit(pow2(e))
}

/// The rotation by `angle` radians counter-clockwise ([`cos_sin`]).
#[must_use]
#[inline]
pub fn rotation2<T: Real>(angle: T) -> UnitComplex<T> {
    let (c, s) = cos_sin(angle);
    UnitComplex::from_cos_sin_unchecked(c, s)
}

/// The angle of a rotation, in `[−π, π]` ([`atan2`]).
#[must_use]
#[inline]
pub fn angle_of<T: Real>(rotation: &UnitComplex<T>) -> T {
    atan2(rotation.im, rotation.re)
}

/// The 3D rotation about `scaled_axis` by its length in radians (the
/// exponential map; the identity for a zero vector), with [`cos_sin`] of the
/// half angle.
#[must_use]
pub fn rotation3<T: Real>(scaled_axis: &Vector3<T>) -> UnitQuaternion<T> {
    let angle = scaled_axis.norm();
    if angle == T::zero() {
        return UnitQuaternion::identity();
    }
    let (c, s) = cos_sin(angle * T::half());
    let v = scaled_axis * (s / angle);
    UnitQuaternion::new_unchecked(Quaternion::new(c, v.x, v.y, v.z))
}

/// The rotation vector of a 3D rotation (the logarithm map, inverse of
/// [`rotation3`]): its axis scaled by its angle in `[0, π]` (the shorter way
/// round), with [`atan2`] of the quaternion's parts; zero for the identity.
#[must_use]
pub fn scaled_axis_of<T: Real>(rotation: &UnitQuaternion<T>) -> Vector3<T> {
    let q = rotation.quaternion();
    // q and −q are the same rotation: take the one with w ≥ 0, whose angle
    // 2·atan2(|v|, w) is at most π.
    let (w, v) = if q.w < T::zero() {
        (-q.w, -q.imag())
    } else {
        (q.w, q.imag())
    };
    let s = v.norm();
    if s == T::zero() {
        return Vector3::zeros();
    }
    v * (T::two() * atan2(s, w) / s)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The distance in units in the last place between two `f64`s of the
    /// same sign.
    fn ulps(a: f64, b: f64) -> u64 {
        if a == b {
            return 0;
        }
        let (a, b) = (a.to_bits() as i64, b.to_bits() as i64);
        (a - b).unsigned_abs()
    }

    /// Agreement with the standard library's functions (correctly rounded or
    /// nearly so on this platform), absolute error near zero.
    #[test]
    fn cos_sin_agrees_with_std() {
        let mut worst = 0.0f64;
        for i in -200_000..=200_000 {
            let x = f64::from(i) * 1.234_567e-3;
            let (c, s) = cos_sin(x);
            worst = worst.max((c - x.cos()).abs()).max((s - x.sin()).abs());
        }
        assert!(worst <= 2.3e-16, "worst absolute error {worst:e}");
        // Larger angles, still within the reduction's exact range.
        for x in [1e3, 12345.678, -98765.4321, 1.5e6] {
            let (c, s) = cos_sin(x);
            assert!(
                (c - x.cos()).abs() < 1e-15 && (s - x.sin()).abs() < 1e-15,
                "{x}"
            );
        }
        // f32 rounds the f64 answer once: within an ulp of std's f32 ones.
        for i in -5000..=5000 {
            let x = i as f32 * 0.013;
            let (c, s) = cos_sin(x);
            assert!(
                (c - x.cos()).abs() <= 1.2e-7 && (s - x.sin()).abs() <= 1.2e-7,
                "{x}"
            );
        }
    }

    #[test]
    fn cos_sin_known_values_and_symmetries() {
        assert_eq!(cos_sin(0.0f64), (1.0, 0.0));
        let (c, s) = cos_sin(-0.0f64);
        assert_eq!((c, s.to_bits()), (1.0, (-0.0f64).to_bits()));
        let (c, s) = cos_sin(core::f64::consts::FRAC_PI_2);
        assert!(c.abs() < 1e-16 && s == 1.0, "{c} {s}");
        let (c, s) = cos_sin(core::f64::consts::PI);
        assert!(c == -1.0 && s.abs() < 2e-16, "{c} {s}");
        for i in 1..1000 {
            let x = f64::from(i) * 0.0371;
            let ((c, s), (c2, s2)) = (cos_sin(x), cos_sin(-x));
            assert_eq!((c, s), (c2, -s2), "odd sine, even cosine at {x}");
            let n = c * c + s * s;
            assert!(
                (n - 1.0).abs() <= 4.0 * f64::EPSILON,
                "unit length at {x}: {n}"
            );
        }
        // Huge angles: a finite unit rotation, deterministic.
        for x in [1.7e6, 1e7, -3e12, 1e308, f64::MAX, -f64::MAX] {
            let (c, s) = cos_sin(x);
            assert!(
                (c * c + s * s - 1.0).abs() <= 4.0 * f64::EPSILON,
                "{x}: {c} {s}"
            );
            let r = x % core::f64::consts::TAU;
            assert!(
                (c - r.cos()).abs() < 1e-15 && (s - r.sin()).abs() < 1e-15,
                "{x}"
            );
        }
        let (c, s) = cos_sin(f64::NAN);
        assert!(c.is_nan() && s.is_nan());
        let (c, s) = cos_sin(f32::INFINITY);
        assert!(c.is_nan() && s.is_nan());
    }

    #[test]
    fn atan2_agrees_with_std() {
        let mut worst = 0;
        for i in 0..20_000 {
            let t = f64::from(i) * (core::f64::consts::TAU / 20_000.0) - core::f64::consts::PI;
            for r in [1e-300, 0.7, 1.0, 3e5, 1e300] {
                let (y, x) = (r * t.sin(), r * t.cos());
                let (ours, theirs) = (atan2(y, x), y.atan2(x));
                assert_eq!(
                    ours.is_sign_negative(),
                    theirs.is_sign_negative(),
                    "{y} {x}"
                );
                worst = worst.max(ulps(ours, theirs));
            }
        }
        assert!(worst <= 4, "worst {worst} ulps");
        for i in 0..2000 {
            let t = i as f32 * 0.0031 - 3.1;
            let (y, x) = (t.sin(), t.cos());
            assert!((atan2(y, x) - y.atan2(x)).abs() <= 4e-7, "{t}");
        }
    }

    #[test]
    fn atan2_special_values() {
        let pi = core::f64::consts::PI;
        assert_eq!(atan2(0.0, 1.0), 0.0);
        assert_eq!(atan2(-0.0f64, 1.0).to_bits(), (-0.0f64).to_bits());
        assert_eq!(atan2(0.0, -1.0), pi);
        assert_eq!(atan2(-0.0, -1.0), -pi);
        assert_eq!(atan2(1.0, 0.0), core::f64::consts::FRAC_PI_2);
        assert_eq!(atan2(-1.0, 0.0), -core::f64::consts::FRAC_PI_2);
        assert!(ulps(atan2(1.0, 1.0), core::f64::consts::FRAC_PI_4) <= 1);
        assert_eq!(atan2(f64::INFINITY, 1.0), core::f64::consts::FRAC_PI_2);
        assert_eq!(atan2(1.0, f64::NEG_INFINITY), pi);
        assert!(atan2(f64::NAN, 1.0).is_nan());
        assert!(atan2(f64::INFINITY, f64::INFINITY).is_nan());
    }

    #[test]
    fn rotations_round_trip() {
        for i in -300..300 {
            let a = f64::from(i) * 0.0104;
            let back = angle_of(&rotation2(a));
            assert!((back - a).abs() <= 1e-15, "{a} {back}");
            let q = rotation3(&Vector3::new(0.3, -0.2, 0.9).normalize().scale(a));
            let theirs =
                UnitQuaternion::from_scaled_axis(Vector3::new(0.3, -0.2, 0.9).normalize().scale(a));
            assert!(q.angle_to(&theirs) <= 1e-15, "{a}");
        }
        assert_eq!(
            rotation3(&Vector3::<f32>::zeros()),
            UnitQuaternion::identity()
        );
        assert_eq!(
            scaled_axis_of(&UnitQuaternion::<f64>::identity()),
            Vector3::zeros()
        );
        for i in 1..300 {
            let v = Vector3::new(0.5, 0.1, -0.3)
                .normalize()
                .scale(f64::from(i) * 0.0104);
            let back = scaled_axis_of(&rotation3(&v));
            assert!((back - v).norm() <= 2e-15, "{v} {back}");
            let theirs = UnitQuaternion::from_scaled_axis(v).scaled_axis();
            assert!((back - theirs).norm() <= 2e-15, "{back} {theirs}");
        }
        // The shorter way round: a turn by 3π/2 is a turn by −π/2.
        let q =
            UnitQuaternion::from_scaled_axis(Vector3::new(0.0, 0.0, 1.5 * core::f64::consts::PI));
        let back = scaled_axis_of(&q);
        assert!(
            (back - Vector3::new(0.0, 0.0, -core::f64::consts::FRAC_PI_2)).norm() <= 1e-15,
            "{back}"
        );
    }

    #[test]
    fn hypot_and_exponent() {
        assert_eq!(hypot(3.0f64, 4.0), 5.0);
        assert_eq!(hypot(3e300f64, 4e300), 5e300);
        let tiny = pow2(-1022) / 262_144.0; // 2^-1040, a subnormal
        assert_eq!(hypot(3.0 * tiny, 4.0 * tiny), 5.0 * tiny);
        assert_eq!(hypot(3e-45f32, 4e-45), 5.6e-45, "f32 subnormals");
        assert_eq!(hypot(3e38f32, 2e38), f32::INFINITY, "beyond f32's range");
        assert_eq!(hypot(3e37f32, 4e37), 5e37);
        assert_eq!(hypot(0.0f32, -0.0), 0.0);
        assert_eq!(hypot(f64::NEG_INFINITY, f64::NAN), f64::INFINITY);
        assert!(hypot(f64::NAN, 1.0).is_nan());
        for i in 1..2000 {
            let (x, y) = (f64::from(i) * 0.37, 1.0 / f64::from(i));
            assert!(ulps(hypot(x, y), x.hypot(y)) <= 1, "{x} {y}");
        }
        assert_eq!(exponent(1.0f64), Some(0));
        assert_eq!(exponent(0.75f64), Some(-1));
        assert_eq!(exponent(-1024.5f32), Some(10));
        assert_eq!(exponent(f64::MIN_POSITIVE), Some(-1022));
        assert_eq!(exponent(5e-324f64), Some(-1074));
        assert_eq!(exponent(f32::MAX), Some(127));
        assert_eq!(exponent(0.0f64), None);
        assert_eq!(exponent(f64::NAN), None);
        assert_eq!(pow2(-3), 0.125);
        assert_eq!(pow2(10), 1024.0);
        assert_eq!(pow2(5000), pow2(1023));
    }
}
