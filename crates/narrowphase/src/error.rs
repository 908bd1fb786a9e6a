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
    /// A manifold `prediction` that is NaN or negative (it may be `+∞`).
    InvalidPrediction,
    /// A ray with a NaN or infinite number, or a zero direction.
    InvalidRay,
    /// A query point with a NaN or infinite coordinate.
    NonFinitePoint,
    /// A single-shape query (ray cast, point projection) on a shape that
    /// cannot answer it: not a built-in kind, no `as_ray_cast` /
    /// `as_point_query` of its own, and (2D) no support function through
    /// `as_convex` for the generic fallback (3D has no generic fallback).
    UnsupportedShape {
        /// The shape's kind.
        kind: ShapeKind,
    },
    /// A ray origin or query point farther from the shape's position than
    /// `shape::tolerance::max_query_coordinate` (`√MAX / 4`: f32 4.6e18,
    /// f64 3.4e153) in some coordinate, where the shape's arithmetic would
    /// overflow. A ray that misses the shape's bounding box is answered (no
    /// hit) instead.
    QueryOutOfRange,
    /// A velocity with a NaN or infinite number.
    NonFiniteVelocity,
    /// A time-of-impact sweep with a NaN or infinite number (centre, angle,
    /// local centre), or whose motion overflows.
    NonFiniteSweep,
    /// Time-of-impact options out of range: `t_max` not in `(0, 1]` (NaN
    /// included), a negative or non-finite `target`, a tolerance not finite
    /// and `> 0`, or `max_iterations` zero.
    InvalidToiOptions,
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
            Self::InvalidPrediction => {
                write!(f, "prediction must be a number >= 0 (infinity allowed)")
            }
            Self::InvalidRay => write!(
                f,
                "a ray needs a finite origin and a finite, non-zero direction"
            ),
            Self::NonFinitePoint => write!(f, "a query point has a NaN or infinite coordinate"),
            Self::UnsupportedShape { kind } => write!(
                f,
                "the shape (kind {kind}) cannot answer this query: implement as_ray_cast / \
                 as_point_query, or (2D) as_convex for the support-function fallback"
            ),
            Self::QueryOutOfRange => write!(
                f,
                "the ray origin or query point is too far from the shape (more than \
                 shape::tolerance::max_query_coordinate in some coordinate)"
            ),
            Self::NonFiniteVelocity => write!(f, "a velocity has a NaN or infinite number"),
            Self::NonFiniteSweep => write!(
                f,
                "a sweep has a NaN or infinite number, or its motion overflows"
            ),
            Self::InvalidToiOptions => write!(
                f,
                "time-of-impact options need t_max in (0, 1], a finite target >= 0, a finite \
                 tolerance > 0 and max_iterations >= 1"
            ),
        }
    }
}

impl core::error::Error for DispatchError {}
