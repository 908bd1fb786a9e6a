//! A line segment.

use core::any::Any;

use nalgebra::{Isometry2, Point2, Vector2};

use super::{check_finite_extent, check_finite_point, polygonal, scaled_norm};
use crate::{
    BoundingBox2, Convex, Interval, Real, Shape, ShapeError, ShapeKind, SupportSeparatingAxes,
};

/// The closed segment between two distinct local points: a wall, a laser, a
/// ray of finite length. A segment is a capsule of radius zero.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Segment<T: Real> {
    a: Point2<T>,
    b: Point2<T>,
}

impl<T: Real> Segment<T> {
    /// The segment from `a` to `b`.
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] for a NaN or infinite coordinate,
    /// [`ShapeError::CoincidentEndpoints`] when `a == b` (use a
    /// [`Point`](crate::Point)); [`ShapeError::NonFinite`] with field
    /// `"extent (b - a)"` when `b − a` overflows.
    ///
    /// ```
    /// use nalgebra::Point2;
    /// use shape::{Segment, ShapeError};
    /// let s = Segment::new(Point2::new(0.0, 0.0), Point2::new(3.0, 4.0)).unwrap();
    /// assert_eq!(s.length(), 5.0);
    /// assert_eq!(Segment::new(Point2::new(1.0, 1.0), Point2::new(1.0, 1.0)), Err(ShapeError::CoincidentEndpoints));
    /// ```
    pub fn new(a: Point2<T>, b: Point2<T>) -> Result<Self, ShapeError> {
        check_finite_point(&a, "a")?;
        check_finite_point(&b, "b")?;
        if a == b {
            return Err(ShapeError::CoincidentEndpoints);
        }
        check_finite_extent(&a, &b, "extent (b - a)")?;
        Ok(Self { a, b })
    }

    /// The first end point.
    #[must_use]
    pub fn a(&self) -> Point2<T> {
        self.a
    }

    /// The second end point.
    #[must_use]
    pub fn b(&self) -> Point2<T> {
        self.b
    }

    /// The length `|b − a|`.
    #[must_use]
    pub fn length(&self) -> T {
        scaled_norm(&(self.b - self.a))
    }

    /// The point of the segment closest to local point `p`.
    #[must_use]
    pub fn closest_point(&self, p: &Point2<T>) -> Point2<T> {
        polygonal::closest_on_segment(&self.a, &self.b, p)
    }
}

impl<T: Real> Shape<T> for Segment<T> {
    fn kind(&self) -> ShapeKind {
        ShapeKind::SEGMENT
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    #[inline]
    fn as_builtin(&self) -> Option<crate::ShapeRef<'_, T>> {
        Some(crate::ShapeRef::Segment(self))
    }
    fn bounding_box(&self, pose: &Isometry2<T>) -> BoundingBox2<T> {
        polygonal::bounds(&[self.a, self.b], pose)
    }
    fn as_convex(&self) -> Option<&dyn Convex<T>> {
        Some(self)
    }
    fn as_separating_axes(&self) -> Option<&dyn SupportSeparatingAxes<T>> {
        Some(self)
    }
}

impl<T: Real> Convex<T> for Segment<T> {
    fn support_point(&self, pose: &Isometry2<T>, dir: &Vector2<T>) -> Point2<T> {
        polygonal::support_point(&[self.a, self.b], pose, dir)
    }
    /// Exact for points computed on the segment's supporting line only when the
    /// arithmetic is exact; a segment has no interior, so points off the line by
    /// rounding are outside.
    fn contains_point(&self, pose: &Isometry2<T>, p: &Point2<T>) -> bool {
        let q = pose.inverse_transform_point(p);
        let ab = self.b - self.a;
        let aq = q - self.a;
        ab.perp(&aq) == T::zero() && aq.dot(&ab) >= T::zero() && (q - self.b).dot(&ab) <= T::zero()
    }
}

impl<T: Real> SupportSeparatingAxes<T> for Segment<T> {
    fn project(&self, pose: &Isometry2<T>, axis: &Vector2<T>) -> Interval<T> {
        polygonal::project(&[self.a, self.b], pose, axis)
    }
    /// The segment's normal and its direction (two collinear segments are told
    /// apart only by the direction), and the directions from its end points to
    /// the other shape's nearest core point (a segment against a circle).
    fn candidate_axes(
        &self,
        pose: &Isometry2<T>,
        other: &dyn SupportSeparatingAxes<T>,
        other_pose: &Isometry2<T>,
        axis: &mut dyn FnMut(Vector2<T>),
    ) {
        let d = pose.rotation * (self.b - self.a);
        axis(Vector2::new(-d.y, d.x));
        axis(d);
        for end in [self.a, self.b] {
            let e = pose * end;
            axis(other.nearest_core_point(other_pose, &e) - e);
        }
    }
    fn nearest_core_point(&self, pose: &Isometry2<T>, p: &Point2<T>) -> Point2<T> {
        pose * self.closest_point(&pose.inverse_transform_point(p))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::for_each_precision;

    fn known_values<T: Real>() {
        let p = |x: f64, y: f64| Point2::new(T::lit(x), T::lit(y));
        let s = Segment::new(p(-1.0, 0.0), p(1.0, 0.0)).unwrap();
        let pose = Isometry2::new(Vector2::new(T::lit(10.0), T::zero()), T::frac_pi_2());
        let b = s.bounding_box(&pose);
        assert!((b.min - p(10.0, -1.0)).norm() < T::lit(1e-6));
        assert!((b.max - p(10.0, 1.0)).norm() < T::lit(1e-6));
        assert_eq!(s.length(), T::two());
        assert_eq!(
            s.support_point(&Isometry2::identity(), &Vector2::new(T::one(), T::lit(5.0))),
            p(1.0, 0.0)
        );
        assert_eq!(s.closest_point(&p(0.25, 3.0)), p(0.25, 0.0));
        assert_eq!(s.closest_point(&p(7.0, 3.0)), p(1.0, 0.0));
        let id = Isometry2::identity();
        assert!(s.contains_point(&id, &p(0.5, 0.0)));
        assert!(s.contains_point(&id, &p(1.0, 0.0)));
        assert!(!s.contains_point(&id, &p(1.5, 0.0)));
        assert!(!s.contains_point(&id, &p(0.5, 0.125)));
        let i = s.project(&id, &Vector2::new(T::one(), T::one()));
        assert_eq!((i.min, i.max), (-T::one(), T::one()));
    }
    for_each_precision!(known, known_values);

    fn rejects_bad_input<T: Real>() {
        let o = Point2::<T>::origin();
        assert_eq!(Segment::new(o, o), Err(ShapeError::CoincidentEndpoints));
        assert_eq!(
            Segment::new(o, Point2::new(T::nan(), T::zero())),
            Err(ShapeError::NonFinite { field: "b" })
        );
        assert_eq!(
            Segment::new(Point2::new(T::infinity(), T::zero()), o),
            Err(ShapeError::NonFinite { field: "a" })
        );
    }
    for_each_precision!(rejects, rejects_bad_input);
}
