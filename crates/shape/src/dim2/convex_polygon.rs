//! A convex polygon with any number of vertices.
//!
//! Ray casts (Cyrus–Beck clipping against every edge's half-plane) and
//! projections (the edges' half-planes decide inside; else the nearest of the
//! edges' closest points) are shared with the triangle
//! (`polygonal::cast_ray_ccw`, `polygonal::project_ccw`; the method in
//! `single::polygon_span`, and from outside `single::polygon_entry`).

use alloc::vec::Vec;
use core::any::Any;

use nalgebra::{Isometry2, Point2, Vector2};

use super::polygonal;
use crate::{
    BoundingBox2, Convex, Interval, PointProjection, PointQuery, Ray, RayCast, RayHit, Real, Shape,
    ShapeError, ShapeKind, SupportSeparatingAxes,
};

/// A closed convex polygon in local coordinates, stored counter-clockwise with
/// its unit outward edge normals (normal `i` belongs to the edge from vertex `i`
/// to vertex `i + 1`).
///
/// Built either from vertices that must already form a convex polygon
/// ([`ConvexPolygon::new`], which says what is wrong when they do not), or as the
/// convex hull of a point cloud ([`ConvexPolygon::from_hull`]). The vertex count
/// is not limited.
#[derive(Debug, Clone, PartialEq)]
pub struct ConvexPolygon<T: Real> {
    vertices: Vec<Point2<T>>,
    normals: Vec<Vector2<T>>,
    /// The largest absolute vertex coordinate.
    extent: T,
    /// The shortest edge's squared length.
    shortest_edge_squared: T,
}

impl<T: Real> ConvexPolygon<T> {
    /// The polygon with these vertices, listed clockwise or counter-clockwise.
    ///
    /// # Errors
    /// In the order checked: [`ShapeError::TooFewVertices`] (fewer than 3),
    /// [`ShapeError::NonFiniteVertex`], [`ShapeError::DuplicateVertex`],
    /// [`ShapeError::CollinearVertices`] (a vertex that is not a corner),
    /// [`ShapeError::NotConvex`] (a reflex vertex), and
    /// [`ShapeError::SelfIntersecting`] (a star that winds twice). Indices refer
    /// to the input slice.
    ///
    /// ```
    /// use nalgebra::Point2;
    /// use shape::{ConvexPolygon, ShapeError};
    /// let p = |x, y| Point2::new(x, y);
    /// let square = ConvexPolygon::new(&[p(0.0, 0.0), p(0.0, 1.0), p(1.0, 1.0), p(1.0, 0.0)]).unwrap();
    /// assert_eq!(square.vertices()[1], p(1.0, 0.0)); // stored counter-clockwise
    /// // An arrow head: the vertex at index 2 points inwards.
    /// assert_eq!(
    ///     ConvexPolygon::new(&[p(0.0, 0.0), p(2.0, 0.0), p(1.0, 0.5), p(1.0, 2.0)]).unwrap_err(),
    ///     ShapeError::NotConvex { index: 2 },
    /// );
    /// ```
    pub fn new(vertices: &[Point2<T>]) -> Result<Self, ShapeError> {
        Ok(Self::from_ccw(polygonal::validate_convex(vertices)?))
    }

    /// The convex hull of a point cloud: interior points, repeated points and
    /// points on the hull's edges are dropped.
    ///
    /// # Errors
    /// [`ShapeError::TooFewVertices`] for fewer than 3 points,
    /// [`ShapeError::NonFiniteVertex`], and [`ShapeError::AllCollinear`] when the
    /// points span no area.
    ///
    /// ```
    /// use nalgebra::Point2;
    /// use shape::ConvexPolygon;
    /// let cloud = [(0.0, 0.0), (2.0, 0.0), (1.0, 1.0), (2.0, 2.0), (0.0, 2.0), (1.0, 0.0)]
    ///     .map(|(x, y)| Point2::new(x, y));
    /// let hull = ConvexPolygon::from_hull(&cloud).unwrap();
    /// assert_eq!(hull.len(), 4); // (1, 1) is inside, (1, 0) on an edge
    /// assert_eq!(hull.area(), 4.0);
    /// ```
    pub fn from_hull(points: &[Point2<T>]) -> Result<Self, ShapeError> {
        Ok(Self::from_ccw(polygonal::convex_hull(points)?))
    }

    fn from_ccw(vertices: Vec<Point2<T>>) -> Self {
        let n = vertices.len();
        let normals = (0..n)
            .map(|i| polygonal::outward_normal(&vertices[i], &vertices[(i + 1) % n]))
            .collect();
        let (extent, shortest_edge_squared) = polygonal::extent_and_shortest_edge(&vertices);
        Self {
            vertices,
            normals,
            extent,
            shortest_edge_squared,
        }
    }

    /// The vertices, counter-clockwise.
    #[must_use]
    pub fn vertices(&self) -> &[Point2<T>] {
        &self.vertices
    }

    /// The unit outward normals; normal `i` is that of the edge from vertex `i` to
    /// vertex `i + 1`.
    #[must_use]
    pub fn normals(&self) -> &[Vector2<T>] {
        &self.normals
    }

    /// The largest absolute coordinate of a vertex: the polygon lies in the
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

    /// The number of vertices (at least 3).
    #[must_use]
    pub fn len(&self) -> usize {
        self.vertices.len()
    }

    /// Always `false`: a polygon has at least three vertices.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The area (positive).
    #[must_use]
    pub fn area(&self) -> T {
        polygonal::twice_signed_area(&self.vertices) * T::half()
    }
}

impl<T: Real> Shape<T> for ConvexPolygon<T> {
    fn kind(&self) -> ShapeKind {
        ShapeKind::CONVEX_POLYGON
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    #[inline]
    fn as_builtin(&self) -> Option<crate::ShapeRef<'_, T>> {
        Some(crate::ShapeRef::Polygon(self))
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

impl<T: Real> RayCast<T> for ConvexPolygon<T> {
    /// The first hit, by Cyrus–Beck clipping against the edges' half-planes
    /// in the shape's frame (the contract of [`RayCast`](crate::RayCast)).
    ///
    /// ```
    /// use nalgebra::{Isometry2, Point2, Vector2};
    /// use shape::{ConvexPolygon, Ray, RayCast};
    /// let square = ConvexPolygon::new(&[
    ///     Point2::new(0.0, 0.0), Point2::new(2.0, 0.0), Point2::new(2.0, 2.0), Point2::new(0.0, 2.0),
    /// ]).unwrap();
    /// let ray = Ray::new(Point2::new(1.0, 1.0), Vector2::new(0.0, 1.0));
    /// let id = Isometry2::identity();
    /// assert_eq!(square.cast_ray(&id, &ray, 10.0, true).unwrap().toi, 0.0); // starts inside
    /// let exit = square.cast_ray(&id, &ray, 10.0, false).unwrap(); // hollow: where it leaves
    /// assert_eq!((exit.toi, exit.point), (1.0, Point2::new(1.0, 2.0)));
    /// assert_eq!(exit.normal.into_inner(), Vector2::new(0.0, -1.0));
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

impl<T: Real> PointQuery<T> for ConvexPolygon<T> {
    /// The nearest point of the shape (of its boundary, hollow): inside by the
    /// edges' half-planes, else the nearest of the edges' closest points.
    fn project_point(&self, pose: &Isometry2<T>, p: &Point2<T>, solid: bool) -> PointProjection<T> {
        polygonal::project_ccw(&self.vertices, pose, p, solid)
    }
}

impl<T: Real> Convex<T> for ConvexPolygon<T> {
    fn support_point(&self, pose: &Isometry2<T>, dir: &Vector2<T>) -> Point2<T> {
        polygonal::support_point(&self.vertices, pose, dir)
    }
    fn contains_point(&self, pose: &Isometry2<T>, p: &Point2<T>) -> bool {
        polygonal::contains_ccw(&self.vertices, &pose.inverse_transform_point(p))
    }
}

impl<T: Real> SupportSeparatingAxes<T> for ConvexPolygon<T> {
    fn project(&self, pose: &Isometry2<T>, axis: &Vector2<T>) -> Interval<T> {
        polygonal::project(&self.vertices, pose, axis)
    }
    /// The edge normals.
    fn candidate_axes(
        &self,
        pose: &Isometry2<T>,
        _other: &dyn SupportSeparatingAxes<T>,
        _other_pose: &Isometry2<T>,
        axis: &mut dyn FnMut(Vector2<T>),
    ) {
        for n in &self.normals {
            axis(pose.rotation * n);
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
    use crate::testing::test_tolerance;
    use num_traits::Float;

    fn pt<T: Real>(x: f64, y: f64) -> Point2<T> {
        Point2::new(T::lit(x), T::lit(y))
    }

    /// Seed 000's worked projection: OP2 = (2.1, 7.5) and OP0 = (7.9, 8.5) on
    /// u = (0.97, 0.24) give ≈ 3.9 and ≈ 9.7 (the seed rounds; the exact dot
    /// products are 3.837 and 9.703). P1 and P3 complete the rectangle: their x
    /// projections are 6.8 and 3.2 and they lie on the circle with diameter P2P0.
    fn seed_000_projection<T: Real>() {
        let r2 = (5.8_f64 * 5.8 + 1.0) / 4.0; // (|P0 - P2| / 2)²
        let dy = (r2 - 1.8 * 1.8).sqrt();
        let rect = ConvexPolygon::new(&[
            pt::<T>(7.9, 8.5),
            pt(6.8, 8.0 - dy),
            pt(2.1, 7.5),
            pt(3.2, 8.0 + dy),
        ])
        .unwrap();
        let u = Vector2::new(T::lit(0.97), T::lit(0.24));
        let i = rect.project(&Isometry2::identity(), &u);
        let tol = test_tolerance::<T>(T::lit(10.0));
        assert!(Float::abs(i.min - T::lit(3.837)) < tol, "min {:?}", i.min);
        assert!(Float::abs(i.max - T::lit(9.703)) < tol, "max {:?}", i.max);
        assert!(Float::abs(i.min - T::lit(3.9)) < T::lit(0.1));
        assert!(Float::abs(i.max - T::lit(9.7)) < T::lit(0.05));
        // x axis: the seed's Q2 = 2.1 and Q0 = 7.9.
        let x = rect.project(&Isometry2::identity(), &Vector2::x());
        assert_eq!((x.min, x.max), (T::lit(2.1), T::lit(7.9)));
    }
    for_each_precision!(seed_000, seed_000_projection);

    fn known_values<T: Real>() {
        let hex: Vec<Point2<T>> = (0..6)
            .map(|k| {
                let a = T::lit(f64::from(k)) * T::pi() / T::lit(3.0);
                Point2::new(Float::cos(a), Float::sin(a))
            })
            .collect();
        let poly = ConvexPolygon::new(&hex).unwrap();
        assert_eq!(poly.len(), 6);
        let tol = test_tolerance::<T>(T::one());
        let expected_area = T::lit(1.5) * Float::sqrt(T::lit(3.0));
        assert!(Float::abs(poly.area() - expected_area) < tol);
        for n in poly.normals() {
            assert!(Float::abs(n.norm() - T::one()) < tol);
        }
        let pose = Isometry2::new(Vector2::new(T::lit(100.0), T::zero()), T::frac_pi_2());
        let b = poly.bounding_box(&pose);
        let h = Float::sqrt(T::lit(3.0)) / T::two();
        let tol100 = test_tolerance::<T>(T::lit(100.0));
        assert!(Float::abs(b.max.x - (T::lit(100.0) + h)) < tol100);
        assert!(Float::abs(b.max.y - T::one()) < tol100);
        assert!(poly.contains_point(&pose, &Point2::new(T::lit(100.0), T::lit(0.5))));
        assert!(!poly.contains_point(
            &pose,
            &Point2::new(T::lit(100.0) + h + T::lit(0.01), T::zero())
        ));
    }
    for_each_precision!(known, known_values);

    fn rays_and_projections<T: Real>() {
        let p = pt::<T>;
        let v = |x: f64, y: f64| Vector2::new(T::lit(x), T::lit(y));
        // A diamond |x| + |y| ≤ 2, turned a quarter (the same diamond).
        let d =
            ConvexPolygon::new(&[p(2.0, 0.0), p(0.0, 2.0), p(-2.0, 0.0), p(0.0, -2.0)]).unwrap();
        let id = Isometry2::identity();
        let inf = T::infinity();
        let cast = |o: Point2<T>, dir: Vector2<T>, solid: bool| {
            d.cast_ray(&id, &Ray::new(o, dir), inf, solid)
        };
        // Onto the upper-right edge from (3, 3): at (1, 1), normal (1, 1)/√2.
        let h = cast(p(3.0, 3.0), v(-1.0, -1.0), true).unwrap();
        assert_eq!((h.toi, h.point), (T::two(), p(1.0, 1.0)));
        let s = Float::sqrt(T::half());
        assert!(
            (h.normal.into_inner() - Vector2::new(s, s)).norm() < test_tolerance::<T>(T::one())
        );
        // Through the vertex (2, 0) only.
        let h = cast(p(2.0, -3.0), v(0.0, 1.0), true).unwrap();
        assert_eq!((h.toi, h.point), (T::lit(3.0), p(2.0, 0.0)));
        assert!(cast(p(2.0 + 1e-3, -3.0), v(0.0, 1.0), true).is_none());
        // Along an edge's line: it hits the first vertex.
        let h = cast(p(4.0, -2.0), v(-1.0, 1.0), true).unwrap();
        assert_eq!((h.toi, h.point), (T::two(), p(2.0, 0.0)));
        // Inside, hollow: leaves through the left vertex (−2, 0), either edge's normal.
        let h = cast(p(0.0, 0.0), v(-4.0, 0.0), false).unwrap();
        assert_eq!((h.toi, h.point), (T::half(), p(-2.0, 0.0)));
        assert!(h.normal.x > T::zero());
        // Far from the origin on exact coordinates: the same time.
        let far = Isometry2::translation(T::lit(4096.0), T::lit(-4096.0));
        let ray = Ray::new(p(4099.0, -4093.0), v(-1.0, -1.0));
        assert_eq!(d.cast_ray(&far, &ray, inf, true).unwrap().toi, T::two());
        // Projections.
        let pr = d.project_point(&id, &p(3.0, 3.0), true);
        assert_eq!((pr.point, pr.is_inside), (p(1.0, 1.0), false));
        let pr = d.project_point(&id, &p(0.5, 0.5), false);
        assert_eq!((pr.point, pr.is_inside), (p(1.0, 1.0), true));
    }
    for_each_precision!(rays, rays_and_projections);

    fn validation<T: Real>() {
        let p = pt::<T>;
        assert_eq!(
            ConvexPolygon::new(&[p(0.0, 0.0), p(1.0, 0.0)]),
            Err(ShapeError::TooFewVertices { count: 2, min: 3 })
        );
        assert_eq!(
            ConvexPolygon::new(&[
                p(0.0, 0.0),
                p(1.0, 0.0),
                Point2::new(T::zero(), T::infinity())
            ]),
            Err(ShapeError::NonFiniteVertex { index: 2 })
        );
        assert_eq!(
            ConvexPolygon::new(&[p(0.0, 0.0), p(1.0, 0.0), p(1.0, 1.0), p(0.0, 0.0)]),
            Err(ShapeError::DuplicateVertex { index: 0 })
        );
        assert_eq!(
            ConvexPolygon::new(&[p(0.0, 0.0), p(1.0, 0.0), p(2.0, 0.0), p(1.0, 1.0)]),
            Err(ShapeError::CollinearVertices { index: 1 })
        );
        // Clockwise input: the index still refers to the input.
        assert_eq!(
            ConvexPolygon::new(&[p(0.0, 0.0), p(1.0, 2.0), p(1.0, 0.5), p(2.0, 0.0)]),
            Err(ShapeError::NotConvex { index: 2 })
        );
        // A pentagram turns left at every corner but winds twice.
        let star: Vec<Point2<T>> = (0..5)
            .map(|k| {
                let a = T::lit(f64::from(k * 2)) * T::pi() * T::two() / T::lit(5.0);
                Point2::new(Float::cos(a), Float::sin(a))
            })
            .collect();
        assert_eq!(ConvexPolygon::new(&star), Err(ShapeError::SelfIntersecting));
    }
    for_each_precision!(validation, validation);

    fn hull<T: Real>() {
        let p = pt::<T>;
        let h = ConvexPolygon::from_hull(&[
            p(0.0, 0.0),
            p(1.0, 0.0),
            p(2.0, 0.0),
            p(2.0, 2.0),
            p(1.0, 1.0),
            p(0.0, 2.0),
            p(2.0, 2.0),
        ])
        .unwrap();
        assert_eq!(
            h.vertices(),
            &[p(0.0, 0.0), p(2.0, 0.0), p(2.0, 2.0), p(0.0, 2.0)]
        );
        assert_eq!(
            ConvexPolygon::from_hull(&[p(0.0, 0.0), p(1.0, 1.0), p(2.0, 2.0), p(3.0, 3.0)]),
            Err(ShapeError::AllCollinear)
        );
        assert_eq!(
            ConvexPolygon::from_hull(&[p(1.0, 1.0); 5]),
            Err(ShapeError::AllCollinear)
        );
        assert_eq!(
            ConvexPolygon::from_hull(&[p(0.0, 0.0), p(1.0, 0.0), Point2::new(T::nan(), T::zero())]),
            Err(ShapeError::NonFiniteVertex { index: 2 })
        );
    }
    for_each_precision!(hull, hull);
}
