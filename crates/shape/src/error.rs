//! Construction errors.

use core::fmt;

/// Why a shape could not be built.
///
/// Every validated constructor returns `Result<Self, ShapeError>`; each variant
/// says which input is wrong so that a level designer can fix the data.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ShapeError {
    /// A number (radius, half extent, angle, coordinate) is NaN or infinite.
    NonFinite {
        /// The parameter, e.g. `"radius"` or `"center"`.
        field: &'static str,
    },
    /// A size or a local coordinate is larger than
    /// [`tolerance::max_size`](crate::tolerance::max_size) (f32: 1.2e18, f64:
    /// 8.4e152): the kernels could not square it. Place big worlds with poses,
    /// not with huge local coordinates.
    TooLarge {
        /// The parameter, e.g. `"radius"` or `"vertex"`.
        field: &'static str,
        /// The value that was given.
        value: f64,
    },
    /// A vertex has a NaN or infinite coordinate.
    NonFiniteVertex {
        /// Index of the vertex in the input.
        index: usize,
    },
    /// A size (radius, half extent, width) is zero or negative.
    NonPositiveSize {
        /// The parameter, e.g. `"radius"` or `"half_extents.x"`.
        field: &'static str,
        /// The value that was given.
        value: f64,
    },
    /// Fewer vertices than the shape needs.
    TooFewVertices {
        /// How many were given (after removing nothing).
        count: usize,
        /// How many are needed.
        min: usize,
    },
    /// A vertex repeats the vertex before it (cyclically).
    DuplicateVertex {
        /// Index of the repeated vertex in the input.
        index: usize,
    },
    /// A vertex lies on the line through its two neighbours, so it is not a
    /// corner (or all points of a cloud are collinear).
    CollinearVertices {
        /// Index of the middle vertex in the input.
        index: usize,
    },
    /// The polygon turns the other way at this vertex: it is not convex.
    NotConvex {
        /// Index of the reflex vertex in the input.
        index: usize,
    },
    /// The vertices wind around more than once (a star polygon): every turn has
    /// the same sign but the boundary crosses itself.
    SelfIntersecting,
    /// Every point of a cloud lies on one line (or there are fewer than three
    /// distinct points), so its convex hull has no area.
    AllCollinear,
    /// The two end points of a segment or capsule coincide. Use a `Point` or a
    /// `Circle` instead.
    CoincidentEndpoints,
    /// Two edges of a polygon that are not neighbours touch or cross, so it
    /// is not simple. Edge `i` runs from input vertex `i` to vertex `i + 1`
    /// (the last back to vertex 0).
    EdgesCross {
        /// The first edge's index.
        edge: usize,
        /// The other edge's index.
        other: usize,
    },
    /// A rounding radius at least as large as the half extent it rounds (a
    /// rounded box whose core would have no area).
    RadiusTooLarge {
        /// The radius that was given.
        radius: f64,
        /// The smaller half extent: the radius must be below it.
        limit: f64,
    },
    /// A convex part of a decomposition is too thin to be a valid convex
    /// polygon (a sliver between nearly aligned vertices).
    DegeneratePart {
        /// The smallest input index among the part's vertices.
        vertex: usize,
    },
    /// A composite shape was given no parts (a compound with an empty list,
    /// a tile map without a single solid tile).
    NoParts,
    /// The pose of a compound's part has a NaN or infinite number, or a
    /// translation beyond [`tolerance::max_size`](crate::tolerance::max_size).
    InvalidPartPose {
        /// The part's index in the input.
        index: usize,
    },
    /// A tile map has no rows or a width of zero.
    EmptyMap,
    /// A row of a tile map is not as long as the first row (or the ids do
    /// not fill whole rows).
    RaggedRow {
        /// The row's index in the input (top row first).
        row: usize,
        /// Its length.
        len: usize,
        /// The length of the first row (the map's width).
        expected: usize,
    },
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NonFinite { field } => write!(f, "{field} is NaN or infinite"),
            Self::TooLarge { field, value } => write!(
                f,
                "{field} is too large: {value:e} (the limit is √MAX / 16 of the precision)"
            ),
            Self::NonFiniteVertex { index } => {
                write!(f, "vertex {index} has a NaN or infinite coordinate")
            }
            Self::NonPositiveSize { field, value } => {
                write!(f, "{field} must be positive, got {value}")
            }
            Self::TooFewVertices { count, min } => {
                write!(f, "{count} vertices given, at least {min} needed")
            }
            Self::DuplicateVertex { index } => {
                write!(f, "vertex {index} repeats the vertex before it")
            }
            Self::CollinearVertices { index } => {
                write!(f, "vertex {index} is collinear with its neighbours")
            }
            Self::NotConvex { index } => write!(f, "polygon is not convex at vertex {index}"),
            Self::SelfIntersecting => write!(f, "polygon boundary crosses itself"),
            Self::AllCollinear => write!(f, "all points lie on one line: the hull has no area"),
            Self::CoincidentEndpoints => write!(f, "the two end points coincide"),
            Self::EdgesCross { edge, other } => write!(
                f,
                "edge {edge} (from vertex {edge}) and edge {other} (from vertex {other}) touch or cross: the polygon is not simple"
            ),
            Self::RadiusTooLarge { radius, limit } => write!(
                f,
                "radius {radius} must be smaller than the smaller half extent {limit}"
            ),
            Self::DegeneratePart { vertex } => write!(
                f,
                "a convex part at vertex {vertex} is too thin to be a polygon (nearly aligned vertices)"
            ),
            Self::NoParts => write!(f, "a composite shape needs at least one part"),
            Self::InvalidPartPose { index } => write!(
                f,
                "the pose of part {index} is NaN, infinite or beyond the largest local coordinate"
            ),
            Self::EmptyMap => write!(f, "a tile map needs at least one row and one column"),
            Self::RaggedRow { row, len, expected } => {
                write!(f, "row {row} has {len} tiles, the first row has {expected}")
            }
        }
    }
}

impl core::error::Error for ShapeError {}
