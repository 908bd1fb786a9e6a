//! A triangle.
//!
//! Ray casts (Cyrus–Beck clipping against the three edges' half-planes) and
//! projections (the edges' half-planes decide inside; else the nearest of the
//! edges' closest points) are shared with the convex polygon
//! (`polygonal::cast_ray_ccw`, `polygonal::project_ccw`; the method in
//! `single::polygon_span`, and from outside `single::polygon_entry`).

use core::any::Any;

use nalgebra::{Isometry2, Point2, Vector2};

use super::polygonal;
use crate::{
    BoundingBox2, Convex, Interval, PointProjection, PointQuery, Ray, RayCast, RayHit, Real, Shape,
    ShapeError, ShapeKind, SupportSeparatingAxes,
};

/// A closed, non-degenerate triangle in local coordinates, stored
/// counter-clockwise.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Triangle<T: Real> {
    vertices: [Point2<T>; 3],
    /// Unit outward normals; normal `i` belongs to the edge from vertex `i`.
    normals: [Vector2<T>; 3],
    /// The largest absolute vertex coordinate.
    extent: T,
    /// The shortest edge's squared length.
    shortest_edge_squared: T,
}

impl<T: Real> Triangle<T> {
    /// The triangle with the given corners, in either orientation.
    ///
    /// # Errors
    /// [`ShapeError::NonFiniteVertex`], [`ShapeError::DuplicateVertex`], or
    /// [`ShapeError::CollinearVertices`] when the corners are (within
    /// [`collinear_sine`](crate::tolerance::collinear_sine)) on one line.
    ///
    /// ```
    /// use nalgebra::Point2;
    /// use shape::{ShapeError, Triangle};
    /// // Clockwise input is stored counter-clockwise.
    /// let t = Triangle::new(Point2::new(0.0, 0.0), Point2::new(0.0, 1.0), Point2::new(1.0, 0.0)).unwrap();
    /// assert_eq!(t.vertices()[1], Point2::new(1.0, 0.0));
    /// assert_eq!(t.area(), 0.5);
    /// assert!(matches!(
    ///     Triangle::new(Point2::new(0.0, 0.0), Point2::new(1.0, 1.0), Point2::new(2.0, 2.0)),
    ///     Err(ShapeError::CollinearVertices { .. })
    /// ));
    /// ```
    pub fn new(a: Point2<T>, b: Point2<T>, c: Point2<T>) -> Result<Self, ShapeError> {
        let v = polygonal::validate_convex(&[a, b, c])?;
        let vertices = [v[0], v[1], v[2]];
        let normals = core::array::from_fn(|i| {
            polygonal::outward_normal(&vertices[i], &vertices[(i + 1) % 3])
        });
        let (extent, shortest_edge_squared) = polygonal::extent_and_shortest_edge(&vertices);
        Ok(Self {
            vertices,
            normals,
            extent,
            shortest_edge_squared,
        })
    }

    /// The corners, counter-clockwise.
    #[must_use]
    pub fn vertices(&self) -> &[Point2<T>; 3] {
        &self.vertices
    }

    /// The unit outward normals; normal `i` is that of the edge from vertex `i`
    /// to vertex `i + 1`.
    #[must_use]
    pub fn normals(&self) -> &[Vector2<T>; 3] {
        &self.normals
    }

    /// The largest absolute coordinate of a corner: the triangle lies in the
    /// square `[−extent, extent]²` of its frame.
    #[must_use]
    pub fn extent(&self) -> T {
        self.extent
    }

    /// The squared length of the shortest edge.
    #[must_use]
    pub fn shortest_edge_squared(&self) -> T {
        self.shortest_edge_squared
    }

    /// The area (positive).
    #[must_use]
    pub fn area(&self) -> T {
        polygonal::twice_signed_area(&self.vertices) * T::half()
    }
}

impl<T: Real> Shape<T> for Triangle<T> {
    fn kind(&self) -> ShapeKind {
        ShapeKind::TRIANGLE
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    #[inline]
    fn as_builtin(&self) -> Option<crate::ShapeRef<'_, T>> {
        Some(crate::ShapeRef::Triangle(self))
    }
    fn bounding_box(&self, pose: &Isometry2<T>) -> BoundingBox2<T> {
        polygonal::bounds(&self.vertices, pose)
    }
    fn as_convex(&self) -> Option<&dyn Convex<T>> {
        Some(self)
    }
    fn as_separating_axes(&self) -> Option<&dyn SupportSeparatingAxes<T>> {
        Some(self)
    }
    fn as_ray_cast(&self) -> Option<&dyn RayCast<T>> {
        Some(self)
    }
    fn as_point_query(&self) -> Option<&dyn PointQuery<T>> {
        Some(self)
    }
}

impl<T: Real> RayCast<T> for Triangle<T> {
    /// The first hit, by Cyrus–Beck clipping against the edges' half-planes
    /// in the shape's frame (the contract of [`RayCast`](crate::RayCast)).
    ///
    /// ```
    /// use nalgebra::{Isometry2, Point2, Vector2};
    /// use shape::{Ray, RayCast, Triangle};
    /// let t = Triangle::new(Point2::new(0.0_f64, 0.0), Point2::new(4.0, 0.0), Point2::new(0.0, 3.0)).unwrap();
    /// let ray = Ray::new(Point2::new(4.0, 3.0), Vector2::new(-1.0, -1.0));
    /// let hit = t.cast_ray(&Isometry2::identity(), &ray, 10.0, true).unwrap();
    /// // The hypotenuse 3x + 4y = 12 at (16/7, 9/7): its normal is (3, 4)/5.
    /// assert!((hit.toi - 12.0 / 7.0).abs() < 1e-12);
    /// assert!((hit.normal.into_inner() - Vector2::new(0.6, 0.8)).norm() < 1e-12);
    /// ```
    #[inline]
    fn cast_ray(
        &self,
        pose: &Isometry2<T>,
        ray: &Ray<T>,
        max_toi: T,
        solid: bool,
    ) -> Option<RayHit<T>> {
        polygonal::cast_ray_ccw(&self.vertices, &self.normals, pose, ray, max_toi, solid)
    }
}

impl<T: Real> PointQuery<T> for Triangle<T> {
    /// The nearest point of the shape (of its boundary, hollow): inside by the
    /// edges' half-planes, else the nearest of the edges' closest points.
    fn project_point(&self, pose: &Isometry2<T>, p: &Point2<T>, solid: bool) -> PointProjection<T> {
        polygonal::project_ccw(&self.vertices, pose, p, solid)
    }
}

impl<T: Real> Convex<T> for Triangle<T> {
    fn support_point(&self, pose: &Isometry2<T>, dir: &Vector2<T>) -> Point2<T> {
        polygonal::support_point(&self.vertices, pose, dir)
    }
    fn contains_point(&self, pose: &Isometry2<T>, p: &Point2<T>) -> bool {
        polygonal::contains_ccw(&self.vertices, &pose.inverse_transform_point(p))
    }
}

impl<T: Real> SupportSeparatingAxes<T> for Triangle<T> {
    fn project(&self, pose: &Isometry2<T>, axis: &Vector2<T>) -> Interval<T> {
        polygonal::project(&self.vertices, pose, axis)
    }
    /// The three edge normals.
    fn candidate_axes(
        &self,
        pose: &Isometry2<T>,
        _other: &dyn SupportSeparatingAxes<T>,
        _other_pose: &Isometry2<T>,
        axis: &mut dyn FnMut(Vector2<T>),
    ) {
        for i in 0..3 {
            let e = pose.rotation * (self.vertices[(i + 1) % 3] - self.vertices[i]);
            axis(Vector2::new(e.y, -e.x));
        }
    }
    fn nearest_core_point(&self, pose: &Isometry2<T>, p: &Point2<T>) -> Point2<T> {
        pose * polygonal::closest_on_polygon(&self.vertices, &pose.inverse_transform_point(p))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::for_each_precision;

    fn known_values<T: Real>() {
        let p = |x: f64, y: f64| Point2::new(T::lit(x), T::lit(y));
        let t = Triangle::new(p(0.0, 0.0), p(4.0, 0.0), p(0.0, 3.0)).unwrap();
        assert_eq!(t.area(), T::lit(6.0));
        let pose = Isometry2::translation(T::lit(-2.0), T::one());
        let b = t.bounding_box(&pose);
        assert_eq!((b.min, b.max), (p(-2.0, 1.0), p(2.0, 4.0)));
        assert_eq!(
            t.support_point(&pose, &Vector2::new(T::one(), T::one())),
            p(2.0, 1.0)
        );
        let id = Isometry2::identity();
        // Closed: vertices and edge points count.
        assert!(t.contains_point(&id, &p(4.0, 0.0)));
        assert!(t.contains_point(&id, &p(2.0, 1.5)));
        assert!(!t.contains_point(&id, &p(2.0, 1.5 + 1e-3)));
        let i = t.project(&id, &Vector2::new(T::zero(), -T::one()));
        assert_eq!((i.min, i.max), (T::lit(-3.0), T::zero()));
        assert_eq!(t.nearest_core_point(&id, &p(5.0, -1.0)), p(4.0, 0.0));
        assert_eq!(t.nearest_core_point(&id, &p(1.0, 1.0)), p(1.0, 1.0));
    }
    for_each_precision!(known, known_values);

    fn rays_and_projections<T: Real>() {
        let p = |x: f64, y: f64| Point2::new(T::lit(x), T::lit(y));
        let v = |x: f64, y: f64| Vector2::new(T::lit(x), T::lit(y));
        let t = Triangle::new(p(0.0, 0.0), p(4.0, 0.0), p(0.0, 3.0)).unwrap();
        let pose = Isometry2::translation(T::lit(-2.0), T::one()); // vertices (−2, 1), (2, 1), (−2, 4)
        let inf = T::infinity();
        let cast = |o: Point2<T>, d: Vector2<T>, solid: bool| {
            t.cast_ray(&pose, &Ray::new(o, d), inf, solid)
        };
        // Up through the bottom edge.
        let h = cast(p(0.0, -1.0), v(0.0, 1.0), true).unwrap();
        assert_eq!(
            (h.toi, h.point, h.normal.into_inner()),
            (T::two(), p(0.0, 1.0), v(0.0, -1.0))
        );
        // Hollow from outside: the entry too; from inside: the hypotenuse, 3x + 4y = 12.
        assert_eq!(cast(p(0.0, -1.0), v(0.0, 1.0), false), Some(h));
        let h = cast(p(-1.0, 2.0), v(1.0, 0.0), false).unwrap();
        assert_eq!(h.toi, T::lit(5.0) / T::lit(3.0));
        let tol = crate::testing::test_tolerance::<T>(T::lit(4.0));
        assert!((h.point - p(2.0 / 3.0, 2.0)).norm() < tol);
        assert!((h.normal.into_inner() - v(-0.6, -0.8)).norm() < tol);
        // Grazing the apex (−2, 4) along y = 4, and just above it.
        let h = cast(p(-5.0, 4.0), v(1.0, 0.0), true).unwrap();
        assert_eq!(
            (h.toi, h.point, h.normal.into_inner()),
            (T::lit(3.0), p(-2.0, 4.0), v(-1.0, 0.0))
        );
        assert!(cast(p(-5.0, 4.25), v(1.0, 0.0), true).is_none());
        // Along the left edge's line from below: it hits the corner (−2, 1).
        let h = cast(p(-2.0, -3.0), v(0.0, 2.0), true).unwrap();
        assert_eq!((h.toi, h.point), (T::two(), p(-2.0, 1.0)));
        // Projections: outside to a vertex, hollow inside to the nearest edge.
        let pr = t.project_point(&pose, &p(3.0, 0.0), true);
        assert_eq!((pr.point, pr.is_inside), (p(2.0, 1.0), false));
        let pr = t.project_point(&pose, &p(-1.5, 2.0), false);
        assert_eq!((pr.point, pr.is_inside), (p(-2.0, 2.0), true));
        let pr = t.project_point(&pose, &p(-1.5, 2.0), true);
        assert_eq!((pr.point, pr.is_inside), (p(-1.5, 2.0), true));
    }
    for_each_precision!(rays, rays_and_projections);

    fn rejects_bad_input<T: Real>() {
        let p = |x: f64, y: f64| Point2::new(T::lit(x), T::lit(y));
        assert_eq!(
            Triangle::new(p(0.0, 0.0), p(0.0, 0.0), p(1.0, 0.0)),
            Err(ShapeError::DuplicateVertex { index: 1 })
        );
        assert_eq!(
            Triangle::new(p(0.0, 0.0), Point2::new(T::nan(), T::zero()), p(1.0, 0.0)),
            Err(ShapeError::NonFiniteVertex { index: 1 })
        );
        assert!(matches!(
            Triangle::new(p(0.0, 0.0), p(1.0, 0.0), p(3.0, 0.0)),
            Err(ShapeError::CollinearVertices { .. })
        ));
        // A sliver is fine as long as it really turns.
        assert!(Triangle::new(p(0.0, 0.0), p(1.0, 0.0), p(0.5, 1e-3)).is_ok());
    }
    for_each_precision!(rejects, rejects_bad_input);
}
