//! A capsule: a segment grown by a radius.

use core::any::Any;

use nalgebra::{Isometry2, Point2, Vector2};

use super::{check_finite_extent, check_finite_point, check_positive, polygonal, unit_direction};
use crate::{
    BoundingBox2, Convex, Interval, Real, Shape, ShapeError, ShapeKind, SupportSeparatingAxes,
};

/// The closed set of points within `radius` of the segment `[a, b]`: a
/// character's body, a swept circle. Its core is the segment.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Capsule<T: Real> {
    a: Point2<T>,
    b: Point2<T>,
    radius: T,
}

impl<T: Real> Capsule<T> {
    /// The capsule around the segment from `a` to `b`.
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] for a NaN or infinite number,
    /// [`ShapeError::NonPositiveSize`] for a radius that is not positive,
    /// [`ShapeError::CoincidentEndpoints`] when `a == b` (use a
    /// [`Circle`](crate::Circle)); [`ShapeError::NonFinite`] with field
    /// `"extent (b - a)"` when `b − a` overflows.
    ///
    /// ```
    /// use nalgebra::Point2;
    /// use shape::{Capsule, ShapeError};
    /// let c = Capsule::new(Point2::new(0.0, -1.0), Point2::new(0.0, 1.0), 0.5).unwrap();
    /// assert_eq!(c.radius(), 0.5);
    /// assert!(matches!(
    ///     Capsule::new(Point2::new(0.0, -1.0), Point2::new(0.0, 1.0), -0.5),
    ///     Err(ShapeError::NonPositiveSize { field: "radius", .. })
    /// ));
    /// ```
    pub fn new(a: Point2<T>, b: Point2<T>, radius: T) -> Result<Self, ShapeError> {
        check_finite_point(&a, "a")?;
        check_finite_point(&b, "b")?;
        check_positive(radius, "radius")?;
        if a == b {
            return Err(ShapeError::CoincidentEndpoints);
        }
        check_finite_extent(&a, &b, "extent (b - a)")?;
        Ok(Self { a, b, radius })
    }

    /// A capsule centred on the local origin along the local y axis, with
    /// `half_height` from the centre to each end point of the core.
    ///
    /// # Errors
    /// As [`Capsule::new`].
    ///
    /// ```
    /// use shape::Capsule;
    /// let c = Capsule::vertical(1.0f32, 0.25).unwrap();
    /// assert_eq!(c.b().y, 1.0);
    /// ```
    pub fn vertical(half_height: T, radius: T) -> Result<Self, ShapeError> {
        check_positive(half_height, "half_height")?;
        Self::new(
            Point2::new(T::zero(), -half_height),
            Point2::new(T::zero(), half_height),
            radius,
        )
    }

    /// The first end point of the core segment.
    #[must_use]
    pub fn a(&self) -> Point2<T> {
        self.a
    }

    /// The second end point of the core segment.
    #[must_use]
    pub fn b(&self) -> Point2<T> {
        self.b
    }

    /// The radius.
    #[must_use]
    pub fn radius(&self) -> T {
        self.radius
    }

    /// The point of the core segment closest to local point `p`.
    #[must_use]
    pub fn closest_core_point(&self, p: &Point2<T>) -> Point2<T> {
        polygonal::closest_on_segment(&self.a, &self.b, p)
    }
}

impl<T: Real> Shape<T> for Capsule<T> {
    fn kind(&self) -> ShapeKind {
        ShapeKind::CAPSULE
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    #[inline]
    fn as_builtin(&self) -> Option<crate::ShapeRef<'_, T>> {
        Some(crate::ShapeRef::Capsule(self))
    }
    fn bounding_box(&self, pose: &Isometry2<T>) -> BoundingBox2<T> {
        polygonal::bounds(&[self.a, self.b], pose).loosened(self.radius)
    }
    fn as_convex(&self) -> Option<&dyn Convex<T>> {
        Some(self)
    }
    fn as_separating_axes(&self) -> Option<&dyn SupportSeparatingAxes<T>> {
        Some(self)
    }
}

impl<T: Real> Convex<T> for Capsule<T> {
    fn support_point(&self, pose: &Isometry2<T>, dir: &Vector2<T>) -> Point2<T> {
        let core = polygonal::support_point(&[self.a, self.b], pose, dir);
        match unit_direction(dir) {
            Some(u) => core + u * self.radius,
            None => core,
        }
    }
    fn contains_point(&self, pose: &Isometry2<T>, p: &Point2<T>) -> bool {
        let q = pose.inverse_transform_point(p);
        (q - self.closest_core_point(&q)).norm_squared() <= self.radius * self.radius
    }
}

impl<T: Real> SupportSeparatingAxes<T> for Capsule<T> {
    fn project(&self, pose: &Isometry2<T>, axis: &Vector2<T>) -> Interval<T> {
        let core = polygonal::project(&[self.a, self.b], pose, axis);
        let r = self.radius * axis.norm();
        Interval::new(core.min - r, core.max + r)
    }
    /// The core's normal, and the directions from each core end point to the
    /// other shape's nearest core point.
    fn candidate_axes(
        &self,
        pose: &Isometry2<T>,
        other: &dyn SupportSeparatingAxes<T>,
        other_pose: &Isometry2<T>,
        axis: &mut dyn FnMut(Vector2<T>),
    ) {
        let d = pose.rotation * (self.b - self.a);
        axis(Vector2::new(-d.y, d.x));
        for end in [self.a, self.b] {
            let e = pose * end;
            axis(other.nearest_core_point(other_pose, &e) - e);
        }
    }
    fn nearest_core_point(&self, pose: &Isometry2<T>, p: &Point2<T>) -> Point2<T> {
        pose * self.closest_core_point(&pose.inverse_transform_point(p))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::for_each_precision;
    use crate::testing::test_tolerance;

    fn known_values<T: Real>() {
        let p = |x: f64, y: f64| Point2::new(T::lit(x), T::lit(y));
        let c = Capsule::new(p(-2.0, 0.0), p(2.0, 0.0), T::one()).unwrap();
        let tol = test_tolerance::<T>(T::lit(10.0));
        let pose = Isometry2::new(Vector2::new(T::lit(5.0), T::lit(5.0)), T::frac_pi_2());
        let b = c.bounding_box(&pose);
        assert!((b.min - p(4.0, 2.0)).norm() < tol);
        assert!((b.max - p(6.0, 8.0)).norm() < tol);
        let id = Isometry2::identity();
        assert_eq!(
            c.support_point(&id, &Vector2::new(T::zero(), T::lit(3.0))),
            p(-2.0, 1.0)
        );
        assert_eq!(
            c.support_point(&id, &Vector2::new(T::one(), T::zero())),
            p(3.0, 0.0)
        );
        assert!(c.contains_point(&id, &p(3.0, 0.0)));
        assert!(c.contains_point(&id, &p(0.0, -1.0)));
        assert!(!c.contains_point(&id, &p(2.8, 0.8)));
        let i = c.project(&id, &Vector2::x());
        assert_eq!((i.min, i.max), (T::lit(-3.0), T::lit(3.0)));
        assert_eq!(c.nearest_core_point(&id, &p(1.0, 4.0)), p(1.0, 0.0));
        assert_eq!(
            Capsule::vertical(T::two(), T::one()).unwrap().a(),
            p(0.0, -2.0)
        );
    }
    for_each_precision!(known, known_values);

    fn rejects_bad_input<T: Real>() {
        let o = Point2::<T>::origin();
        let x = Point2::new(T::one(), T::zero());
        assert_eq!(
            Capsule::new(o, o, T::one()),
            Err(ShapeError::CoincidentEndpoints)
        );
        assert!(matches!(
            Capsule::new(o, x, T::zero()),
            Err(ShapeError::NonPositiveSize { .. })
        ));
        assert_eq!(
            Capsule::new(o, x, T::nan()),
            Err(ShapeError::NonFinite { field: "radius" })
        );
        assert_eq!(
            Capsule::new(Point2::new(T::neg_infinity(), T::zero()), x, T::one()),
            Err(ShapeError::NonFinite { field: "a" })
        );
    }
    for_each_precision!(rejects, rejects_bad_input);
}
