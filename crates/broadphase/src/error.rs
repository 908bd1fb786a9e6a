//! Broad-phase errors.

use core::fmt;

/// Why a grid operation was refused. The grid is unchanged after any error.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum GridError {
    /// The cell size is NaN or infinite.
    NonFiniteCellSize,
    /// The cell size is zero, negative, or so small that its inverse overflows.
    NonPositiveCellSize {
        /// The value given.
        value: f64,
    },
    /// The fat-box margin is NaN, infinite or negative.
    InvalidMargin {
        /// The value given.
        value: f64,
    },
    /// A bounding box has a non-finite coordinate or `min > max`.
    InvalidBounds {
        /// The object's id.
        id: u32,
    },
    /// The id is already in the grid.
    DuplicateId {
        /// The id.
        id: u32,
    },
    /// The id is not in the grid.
    UnknownId {
        /// The id.
        id: u32,
    },
    /// `validate()` found a broken invariant (a bug in the grid).
    Invariant(String),
}

impl fmt::Display for GridError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NonFiniteCellSize => write!(f, "cell size is NaN or infinite"),
            Self::NonPositiveCellSize { value } => {
                write!(f, "cell size must be a positive normal number, got {value}")
            }
            Self::InvalidMargin { value } => {
                write!(f, "margin must be a finite number >= 0, got {value}")
            }
            Self::InvalidBounds { id } => write!(
                f,
                "object {id}: bounding box is not finite or has min > max"
            ),
            Self::DuplicateId { id } => write!(f, "object {id} is already in the grid"),
            Self::UnknownId { id } => write!(f, "object {id} is not in the grid"),
            Self::Invariant(msg) => write!(f, "grid invariant broken: {msg}"),
        }
    }
}

impl std::error::Error for GridError {}
