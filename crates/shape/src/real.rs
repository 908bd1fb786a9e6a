//! The scalar trait every kasanari type is generic over.
//!
//! [`Real`] is implemented for every type that is a nalgebra [`RealField`], a
//! num-traits [`Float`] and `Copy`: in practice `f32` and `f64`. Users never
//! implement it; they pick a precision with one type alias:
//!
//! ```
//! use shape::prelude::*;
//! type R = f32; // change to f64 and the whole program follows
//! let c = Circle::<R>::new(1.5).unwrap();
//! assert_eq!(c.radius(), 1.5);
//! ```
//!
//! Both `RealField` and `Float` name methods such as `sqrt`, `abs`, `min` and
//! `max`, so generic code calls them as `Float::sqrt(x)`; vector operations come
//! from nalgebra and are unambiguous.

use nalgebra::RealField;
use num_traits::Float;

/// A floating-point scalar: `f32` or `f64`.
///
/// Blanket-implemented for every `RealField + Float + Copy` type (`f32` and
/// `f64`): users never implement it, and pick a precision with a type alias.
pub trait Real: RealField + Float + Copy {
    /// Converts an `f64` constant to this type (rounding to nearest for `f32`).
    ///
    /// Generic code names its constants through this function (or through
    /// [`Real::two`] and [`Real::half`]) rather than writing typed literals.
    #[inline]
    #[must_use]
    fn lit(x: f64) -> Self {
        nalgebra::convert(x)
    }

    /// The constant 2.
    #[inline]
    #[must_use]
    fn two() -> Self {
        Self::one() + Self::one()
    }

    /// The constant 1/2.
    #[inline]
    #[must_use]
    fn half() -> Self {
        Self::one() / Self::two()
    }

    /// This value as an `f64` (exact for `f32` and `f64`), for error messages and
    /// reports.
    #[inline]
    #[must_use]
    fn as_f64(self) -> f64 {
        num_traits::ToPrimitive::to_f64(&self).unwrap_or(f64::NAN)
    }
}

impl<T: RealField + Float + Copy> Real for T {}
