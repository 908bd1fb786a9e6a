//! A convex polygon with any number of vertices.

use core::any::Any;

use nalgebra::{Isometry2, Point2, Vector2};

use super::polygonal;
use crate::{
    BoundingBox2, Convex, Interval, Real, Shape, ShapeError, ShapeKind, SupportSeparatingAxes,
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
        Self { vertices, normals }
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
