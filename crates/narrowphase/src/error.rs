//! Narrow-phase errors.

use core::fmt;

use shape::ShapeKind;

/// Why the dispatch table could not answer a query.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum DispatchError {
    /// No kernel is registered for the pair, and the shapes offer neither
    /// separating axes (both) nor a support function (both) for a fallback.
    Unsupported {
        /// Kind of the first shape.
        a: ShapeKind,
        /// Kind of the second shape.
        b: ShapeKind,
    },
    /// A shape's `as_any()` did not return the type the kernel registered for
    /// its kind expects: the shape's `kind()` and `as_any()` disagree.
    KindMismatch {
        /// The kind the shape reported.
        kind: ShapeKind,
    },
    /// A pose has a NaN or infinite number (translation or rotation): there
    /// is no answer to give. Also returned when two finite poses are so far
    /// apart that one relative to the other overflows and the shapes' bounding
    /// boxes do not prove them apart (shapes as large as the float range).
    NonFinitePose,
    /// A `max_distance` that is NaN or negative (it may be `+∞`).
    InvalidMaxDistance,
    /// A `max_toi` that is NaN or negative (it may be `+∞`).
    InvalidMaxToi,
    /// A ray with a NaN or infinite number, or a zero direction.
    InvalidRay,
    /// A query point with a NaN or infinite coordinate.
    NonFinitePoint,
}

impl fmt::Display for DispatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unsupported { a, b } => write!(
                f,
                "no kernel for the pair ({a}, {b}) and no fallback: register a kernel, or \
                 implement SupportSeparatingAxes or Convex for both shapes"
            ),
            Self::KindMismatch { kind } => write!(
                f,
                "a shape reports kind {kind} but as_any() does not return the type registered \
                 for that kind"
            ),
            Self::NonFinitePose => write!(f, "a pose has a NaN or infinite number"),
            Self::InvalidMaxDistance => {
                write!(f, "max_distance must be a number >= 0 (infinity allowed)")
            }
            Self::InvalidMaxToi => write!(f, "max_toi must be a number >= 0 (infinity allowed)"),
            Self::InvalidRay => write!(
                f,
                "a ray needs a finite origin and a finite, non-zero direction"
            ),
            Self::NonFinitePoint => write!(f, "a query point has a NaN or infinite coordinate"),
        }
    }
}

impl std::error::Error for DispatchError {}
