//! Axis-aligned bounding boxes in world space, in 2D and 3D.

use nalgebra::{Point, SVector};

use crate::Real;

/// An axis-aligned bounding box in `D` dimensions: the closed set
/// `{ p : min ≤ p ≤ max }` (per coordinate).
///
/// This is the broad phase's currency: every shape reports one under a pose.
/// Unlike the [`Aabb`](crate::Aabb) *shape*, a bounding box may be flat or a
/// single point (the bounding box of a [`Point`](crate::Point)).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoundingBox<T: Real, const D: usize> {
    /// The corner with the smallest coordinates.
    pub min: Point<T, D>,
    /// The corner with the largest coordinates.
    pub max: Point<T, D>,
}

/// A 2D bounding box.
pub type BoundingBox2<T> = BoundingBox<T, 2>;
/// A 3D bounding box.
pub type BoundingBox3<T> = BoundingBox<T, 3>;

impl<T: Real, const D: usize> BoundingBox<T, D> {
    /// The box with the given corners; `min ≤ max` is the caller's promise.
    #[must_use]
    pub fn new(min: Point<T, D>, max: Point<T, D>) -> Self {
        Self { min, max }
    }

    /// The smallest box holding all the points, or `None` for an empty input.
    ///
    /// ```
    /// use shape::BoundingBox2;
    /// use nalgebra::Point2;
    /// let b = BoundingBox2::from_points(&[Point2::new(1.0, 5.0), Point2::new(-2.0, 3.0)]).unwrap();
    /// assert_eq!(b.min, Point2::new(-2.0, 3.0));
    /// assert_eq!(b.max, Point2::new(1.0, 5.0));
    /// ```
    #[must_use]
    pub fn from_points(points: &[Point<T, D>]) -> Option<Self> {
        let (first, rest) = points.split_first()?;
        let mut b = Self::new(*first, *first);
        for p in rest {
            b = b.including(p);
        }
        Some(b)
    }

    /// This box grown to include `p`.
    #[must_use]
    pub fn including(&self, p: &Point<T, D>) -> Self {
        Self::new(self.min.inf(p), self.max.sup(p))
    }

    /// The smallest box holding both boxes.
    #[must_use]
    pub fn merged(&self, other: &Self) -> Self {
        Self::new(self.min.inf(&other.min), self.max.sup(&other.max))
    }

    /// Whether the two closed boxes share at least one point (touching counts).
    ///
    /// Per-axis early-out interval test (seed 003).
    #[must_use]
    #[inline]
    pub fn intersects(&self, other: &Self) -> bool {
        for i in 0..D {
            if self.max[i] < other.min[i] || other.max[i] < self.min[i] {
                return false;
            }
        }
        true
    }

    /// Whether the closed box contains `p` (the boundary counts).
    #[must_use]
    #[inline]
    pub fn contains_point(&self, p: &Point<T, D>) -> bool {
        (0..D).all(|i| self.min[i] <= p[i] && p[i] <= self.max[i])
    }

    /// Whether `other` lies entirely inside this box.
    #[must_use]
    pub fn contains(&self, other: &Self) -> bool {
        self.contains_point(&other.min) && self.contains_point(&other.max)
    }

    /// The box's centre.
    #[must_use]
    pub fn center(&self) -> Point<T, D> {
        nalgebra::center(&self.min, &self.max)
    }

    /// Half of the box's size along each axis.
    #[must_use]
    pub fn half_extents(&self) -> SVector<T, D> {
        (self.max - self.min) * T::half()
    }

    /// The box's size along each axis.
    #[must_use]
    pub fn extents(&self) -> SVector<T, D> {
        self.max - self.min
    }

    /// The box moved by `v`.
    #[must_use]
    pub fn translated(&self, v: &SVector<T, D>) -> Self {
        Self::new(self.min + v, self.max + v)
    }

    /// The box grown by `margin` on every side.
    #[must_use]
    pub fn loosened(&self, margin: T) -> Self {
        let m = SVector::<T, D>::repeat(margin);
        Self::new(self.min - m, self.max + m)
    }

    /// Whether every coordinate is finite and `min ≤ max` on every axis.
    #[must_use]
    pub fn is_valid(&self) -> bool {
        (0..D).all(|i| {
            num_traits::Float::is_finite(self.min[i])
                && num_traits::Float::is_finite(self.max[i])
                && self.min[i] <= self.max[i]
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Point2, Point3};

    fn check_intersects<T: Real>() {
        let p = |x: f64, y: f64| Point2::new(T::lit(x), T::lit(y));
        let a = BoundingBox2::new(p(0.0, 0.0), p(1.0, 1.0));
        // Touching along an edge counts (closed sets).
        assert!(a.intersects(&BoundingBox2::new(p(1.0, 0.5), p(2.0, 2.0))));
        // Touching at a corner counts.
        assert!(a.intersects(&BoundingBox2::new(p(1.0, 1.0), p(2.0, 2.0))));
        // A hair apart does not.
        let gap = T::one() + T::epsilon() * T::two();
        assert!(!a.intersects(&BoundingBox2::new(Point2::new(gap, T::zero()), p(2.0, 2.0))));
        // Separated on y only.
        assert!(!a.intersects(&BoundingBox2::new(p(0.0, 1.5), p(1.0, 2.0))));
        assert!(a.contains_point(&p(1.0, 0.0)));
        assert!(!a.contains_point(&p(1.0, -0.25)));
        let b3 = BoundingBox3::new(Point3::origin(), Point3::new(T::one(), T::one(), T::one()));
        let c3 = b3.translated(&nalgebra::Vector3::new(T::zero(), T::zero(), T::lit(1.5)));
        assert!(!b3.intersects(&c3));
        assert!(b3.intersects(&b3.loosened(T::one())));
    }
    crate::for_each_precision!(intersects, check_intersects);

    fn check_from_points<T: Real>() {
        let pts = [
            Point2::new(T::lit(3.0), T::lit(-1.0)),
            Point2::new(T::lit(-2.0), T::lit(4.0)),
            Point2::new(T::lit(0.5), T::lit(0.5)),
        ];
        let b = BoundingBox2::from_points(&pts).unwrap();
        assert_eq!(b.min, Point2::new(T::lit(-2.0), T::lit(-1.0)));
        assert_eq!(b.max, Point2::new(T::lit(3.0), T::lit(4.0)));
        assert_eq!(b.center(), Point2::new(T::lit(0.5), T::lit(1.5)));
        assert!(BoundingBox2::<T>::from_points(&[]).is_none());
        assert!(b.is_valid());
        assert!(!BoundingBox2::new(b.max, b.min).is_valid());
    }
    crate::for_each_precision!(from_points, check_from_points);
}
