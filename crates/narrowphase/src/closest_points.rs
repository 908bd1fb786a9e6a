//! The answer of a closest-points query, in 2D and 3D.

use nalgebra::{AbstractRotation, Isometry, Point, SVector, Unit};
use num_traits::Float;
use shape::Real;

/// How far apart two shapes are, and where: the answer of
/// `closest_points(a, pose_a, b, pose_b, max_distance)` (contract in
/// `docs/conventions.md`, "Distance and closest points").
///
/// ```
/// use nalgebra::{Isometry2, Point2};
/// use narrowphase::ClosestPoints;
/// use shape::Circle;
///
/// let ball = Circle::new(1.0).unwrap();
/// let (o, p) = (Isometry2::translation(0.0, 0.0), Isometry2::translation(5.0, 0.0));
/// match narrowphase::closest_points(&ball, &o, &ball, &p, f64::INFINITY).unwrap() {
///     ClosestPoints::WithinMargin { point_a, point_b, normal, distance } => {
///         assert_eq!((point_a, point_b, distance), (Point2::new(1.0, 0.0), Point2::new(4.0, 0.0), 3.0));
///         assert_eq!(normal.x, 1.0); // from A towards B
///     }
///     other => panic!("{other:?}"),
/// }
/// let near = narrowphase::closest_points(&ball, &o, &ball, &p, 2.5).unwrap();
/// assert_eq!(near, ClosestPoints::Farther);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ClosestPoints<T: Real, const D: usize = 2> {
    /// The shapes intersect (touching counts): their distance is zero. Given
    /// exactly when `intersects` is `true`.
    Intersecting,
    /// The shapes are apart, by `distance ≤ max_distance`.
    WithinMargin {
        /// The point of A nearest B.
        point_a: Point<T, D>,
        /// The point of B nearest A.
        point_b: Point<T, D>,
        /// The unit direction from `point_a` to `point_b` (from A towards B).
        normal: Unit<SVector<T, D>>,
        /// The distance between the shapes, `> 0`: `|point_b − point_a|` up to
        /// rounding.
        distance: T,
    },
    /// The shapes are farther apart than `max_distance`.
    Farther,
}

/// The 3D closest points.
pub type ClosestPoints3<T> = ClosestPoints<T, 3>;

impl<T: Real, const D: usize> ClosestPoints<T, D> {
    /// The answer for shapes apart at `distance` with closest points `point_a`,
    /// `point_b` and unit normal `normal` (A to B): [`Farther`](Self::Farther)
    /// beyond `max_distance`, else [`WithinMargin`](Self::WithinMargin).
    ///
    /// A distance that rounded to zero or below for shapes the exact boolean
    /// test found apart is reported as the smallest positive normal number:
    /// the distance is zero exactly when the shapes intersect.
    #[must_use]
    #[inline]
    pub fn apart(
        point_a: Point<T, D>,
        point_b: Point<T, D>,
        normal: Unit<SVector<T, D>>,
        distance: T,
        max_distance: T,
    ) -> Self {
        let distance = Float::max(distance, T::min_positive_value());
        if distance > max_distance {
            Self::Farther
        } else {
            Self::WithinMargin {
                point_a,
                point_b,
                normal,
                distance,
            }
        }
    }

    /// The distance: `Some(0)` when intersecting, `None` when farther than the
    /// query's `max_distance`.
    #[must_use]
    pub fn distance(&self) -> Option<T> {
        match self {
            Self::Intersecting => Some(T::zero()),
            Self::WithinMargin { distance, .. } => Some(*distance),
            Self::Farther => None,
        }
    }

    /// The same answer seen from B: points swapped, normal negated.
    #[must_use]
    #[inline]
    pub fn flipped(&self) -> Self {
        match *self {
            Self::WithinMargin {
                point_a,
                point_b,
                normal,
                distance,
            } => Self::WithinMargin {
                point_a: point_b,
                point_b: point_a,
                normal: -normal,
                distance,
            },
            other => other,
        }
    }

    /// The answer mapped by `pose` (from a shape's local frame to the world).
    #[must_use]
    #[inline]
    pub fn transformed<R: AbstractRotation<T, D>>(&self, pose: &Isometry<T, R, D>) -> Self {
        match *self {
            Self::WithinMargin {
                point_a,
                point_b,
                normal,
                distance,
            } => Self::WithinMargin {
                point_a: pose.transform_point(&point_a),
                point_b: pose.transform_point(&point_b),
                normal: Unit::new_unchecked(pose.transform_vector(&normal)),
                distance,
            },
            other => other,
        }
    }
}
