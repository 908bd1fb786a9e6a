//! Operations shared by the shapes whose core is a list of vertices (triangle,
//! convex polygon) and by the segment: support, projection, bounds, containment,
//! closest points, and the construction-time validation of convex polygons.
//!
//! Vertex lists are counter-clockwise (the interior is on the left of each edge)
//! in the shape's local frame; functions taking a pose map local to world.

use alloc::vec::Vec;
use core::cmp::Ordering::Equal;

use nalgebra::{Isometry2, Point2, Vector2};
use num_traits::Float;

use crate::{BoundingBox2, Interval, Real, ShapeError, tolerance};

/// Index of a vertex maximising `v · dir` (the first one on ties).
#[inline]
pub(crate) fn support_index<T: Real>(vertices: &[Point2<T>], dir: &Vector2<T>) -> usize {
    let mut best = 0;
    let mut best_dot = vertices[0].coords.dot(dir);
    for (i, v) in vertices.iter().enumerate().skip(1) {
        let d = v.coords.dot(dir);
        if d > best_dot {
            best = i;
            best_dot = d;
        }
    }
    best
}

/// World support point of a vertex list.
#[inline]
pub(crate) fn support_point<T: Real>(
    vertices: &[Point2<T>],
    pose: &Isometry2<T>,
    dir: &Vector2<T>,
) -> Point2<T> {
    let local_dir = pose.rotation.inverse_transform_vector(dir);
    pose * vertices[support_index(vertices, &local_dir)]
}

/// Projection of the vertices, placed at `pose`, on a world axis.
#[inline]
pub(crate) fn project<T: Real>(
    vertices: &[Point2<T>],
    pose: &Isometry2<T>,
    axis: &Vector2<T>,
) -> Interval<T> {
    let local_axis = pose.rotation.inverse_transform_vector(axis);
    let offset = pose.translation.vector.dot(axis);
    let mut lo = vertices[0].coords.dot(&local_axis);
    let mut hi = lo;
    for v in &vertices[1..] {
        let d = v.coords.dot(&local_axis);
        lo = Float::min(lo, d);
        hi = Float::max(hi, d);
    }
    Interval::new(lo + offset, hi + offset)
}

/// World bounding box of the vertices placed at `pose` (exact: a convex
/// polygon's extreme points are vertices).
#[inline]
pub(crate) fn bounds<T: Real>(vertices: &[Point2<T>], pose: &Isometry2<T>) -> BoundingBox2<T> {
    let first = pose * vertices[0];
    vertices[1..]
        .iter()
        .fold(BoundingBox2::new(first, first), |b, v| {
            b.including(&(pose * v))
        })
}

/// Whether local point `p` lies in the closed counter-clockwise convex polygon.
#[inline]
pub(crate) fn contains_ccw<T: Real>(vertices: &[Point2<T>], p: &Point2<T>) -> bool {
    let n = vertices.len();
    (0..n).all(|i| {
        let a = vertices[i];
        let b = vertices[(i + 1) % n];
        (b - a).perp(&(p - a)) >= T::zero()
    })
}

/// The point of the closed segment `[a, b]` closest to `p`.
#[inline]
pub(crate) fn closest_on_segment<T: Real>(
    a: &Point2<T>,
    b: &Point2<T>,
    p: &Point2<T>,
) -> Point2<T> {
    let ab = b - a;
    let len2 = ab.norm_squared();
    if len2 <= T::zero() {
        return *a;
    }
    let t = Float::max(T::zero(), Float::min(T::one(), (p - a).dot(&ab) / len2));
    a + ab * t
}

/// The point of the closed counter-clockwise convex polygon closest to local
/// point `p` (`p` itself when inside).
pub(crate) fn closest_on_polygon<T: Real>(vertices: &[Point2<T>], p: &Point2<T>) -> Point2<T> {
    if contains_ccw(vertices, p) {
        return *p;
    }
    closest_on_boundary(vertices, p)
}

/// The point of the polygon's boundary closest to local point `p`, inside or
/// outside: the nearest of the edges' closest points (the first edge on ties).
pub(crate) fn closest_on_boundary<T: Real>(vertices: &[Point2<T>], p: &Point2<T>) -> Point2<T> {
    let n = vertices.len();
    let mut best = vertices[0];
    let mut best_d2 = Float::infinity();
    for i in 0..n {
        let c = closest_on_segment(&vertices[i], &vertices[(i + 1) % n], p);
        let d2 = (c - p).norm_squared();
        if d2 < best_d2 {
            best = c;
            best_d2 = d2;
        }
    }
    best
}

/// The ray cast of a triangle or convex polygon (counter-clockwise vertices
/// and their edges' outward unit normals, local frame) placed at `pose`:
/// Cyrus–Beck clipping in the polygon's frame (`single::polygon_span`),
/// whose bounds carry the exact signs of `contains_ccw`, then
/// `single::resolve`. Outside the polygon, the entry's edge normal is already
/// unit: turned by the pose, nothing to normalise.
#[inline(always)]
pub(crate) fn cast_ray_ccw<T: Real>(
    vertices: &[Point2<T>],
    normals: &[Vector2<T>],
    pose: &Isometry2<T>,
    ray: &crate::Ray<T>,
    max_toi: T,
    solid: bool,
) -> Option<crate::RayHit<T>> {
    use crate::single::{EdgeEntry, ScaledRay, polygon_entry, within};
    let s = ScaledRay::new(ray).inverse_transformed(pose);
    match polygon_entry(vertices, &s.origin, &s.dir) {
        EdgeEntry::At { t, edge } => {
            let toi = s.toi(t);
            if !within(toi, max_toi) {
                return None;
            }
            Some(crate::RayHit {
                toi,
                point: pose * (s.origin + s.dir * t),
                normal: nalgebra::Unit::new_unchecked(pose.rotation * normals[edge]),
            })
        }
        EdgeEntry::Miss => None,
        EdgeEntry::Careful => {
            cast_ray_ccw_careful(vertices, normals, pose, ray, &s, max_toi, solid)
        }
    }
}

/// The ray cast of [`cast_ray_ccw`] from inside the polygon: the whole span
/// and `single::resolve`.
#[cold]
fn cast_ray_ccw_careful<T: Real>(
    vertices: &[Point2<T>],
    normals: &[Vector2<T>],
    pose: &Isometry2<T>,
    ray: &crate::Ray<T>,
    s: &crate::single::ScaledRay<T, 2>,
    max_toi: T,
    solid: bool,
) -> Option<crate::RayHit<T>> {
    let span = crate::single::polygon_span(vertices, normals, &s.origin, &s.dir);
    let inside = span.is_some_and(|sp| sp.holds_origin());
    crate::single::resolve(ray, s, span, inside, max_toi, solid, pose)
}

/// The projection of world point `p` on a triangle or convex polygon placed
/// at `pose`: `p` itself when inside and `solid`, else the nearest boundary
/// point.
#[inline]
pub(crate) fn project_ccw<T: Real>(
    vertices: &[Point2<T>],
    pose: &Isometry2<T>,
    p: &Point2<T>,
    solid: bool,
) -> crate::PointProjection<T> {
    let q = pose.inverse_transform_point(p);
    let is_inside = contains_ccw(vertices, &q);
    let point = if is_inside && solid {
        *p
    } else {
        pose * closest_on_boundary(vertices, &q)
    };
    crate::PointProjection { point, is_inside }
}

/// The largest absolute coordinate of the vertices (the polygon lies in the
/// square `[−extent, extent]²`) and the squared length of the shortest
/// edge: sizes the narrow phase's rounding bounds need, computed once.
pub(crate) fn extent_and_shortest_edge<T: Real>(vertices: &[Point2<T>]) -> (T, T) {
    let n = vertices.len();
    let mut extent = T::zero();
    let mut shortest = T::infinity();
    for i in 0..n {
        let v = vertices[i];
        extent = Float::max(extent, Float::max(Float::abs(v.x), Float::abs(v.y)));
        shortest = Float::min(shortest, (vertices[(i + 1) % n] - v).norm_squared());
    }
    (extent, shortest)
}

/// Outward unit normal of the counter-clockwise edge `a → b`.
#[inline]
pub(crate) fn outward_normal<T: Real>(a: &Point2<T>, b: &Point2<T>) -> Vector2<T> {
    let e = b - a;
    let n = Vector2::new(e.y, -e.x);
    // Scaled before normalising: edges whose squared length overflows or is
    // subnormal still give a unit normal (a validated edge is finite, non-zero).
    super::unit_direction(&n).unwrap_or(n)
}

/// An edge vector longer than 1 divided by its largest absolute component, so
/// that cross products and squared lengths of huge edges do not overflow (the
/// collinearity and convexity tests are scale-invariant). Shorter edges are
/// kept as they are: a shape so tiny that its turns underflow stays refused
/// as collinear, since its queries could not tell its sides apart either.
#[inline]
fn scaled<T: Real>(v: Vector2<T>) -> Vector2<T> {
    let m = v.amax();
    if m > T::one() { v / m } else { v }
}

/// Twice the signed area of a polygon (positive when counter-clockwise),
/// computed relative to the first vertex so that far-off polygons keep their
/// precision.
pub(crate) fn twice_signed_area<T: Real>(vertices: &[Point2<T>]) -> T {
    let o = vertices[0];
    let mut a = T::zero();
    for i in 1..vertices.len().saturating_sub(1) {
        a += (vertices[i] - o).perp(&(vertices[i + 1] - o));
    }
    a
}

/// Checks a vertex count and finiteness.
pub(crate) fn check_vertices<T: Real>(points: &[Point2<T>], min: usize) -> Result<(), ShapeError> {
    if points.len() < min {
        return Err(ShapeError::TooFewVertices {
            count: points.len(),
            min,
        });
    }
    if let Some(index) = points
        .iter()
        .position(|p| !(p.x.is_finite() && p.y.is_finite()))
    {
        return Err(ShapeError::NonFiniteVertex { index });
    }
    for p in points {
        super::check_size(p.x, "vertex")?;
        super::check_size(p.y, "vertex")?;
    }
    // A shape whose size overflows the precision (`max − min = ∞`) is refused.
    if let Some(b) = BoundingBox2::from_points(points) {
        let e = b.extents();
        if !(e.x.is_finite() && e.y.is_finite()) {
            return Err(ShapeError::NonFinite {
                field: "extent (max - min of the vertices)",
            });
        }
    }
    Ok(())
}

/// Validates a convex polygon given in either orientation and returns its
/// vertices counter-clockwise, starting from the first input vertex.
///
/// Checks, in order: count, finiteness, repeated consecutive vertices, then at
/// every corner the turn `(v_i − v_{i−1}) × (v_{i+1} − v_i)`: within
/// [`tolerance::collinear_sine`] of straight is collinear, the wrong sign is not
/// convex; finally the turns must add up to one full turn (a pentagram turns
/// the same way at every corner but winds twice). Errors name the input index.
pub(crate) fn validate_convex<T: Real>(points: &[Point2<T>]) -> Result<Vec<Point2<T>>, ShapeError> {
    check_vertices(points, 3)?;
    let n = points.len();
    for i in 0..n {
        if points[i] == points[(i + n - 1) % n] {
            return Err(ShapeError::DuplicateVertex { index: i });
        }
    }
    let reversed = twice_signed_area(points) < T::zero();
    // Clockwise input is reversed keeping its first vertex first.
    let original = |i: usize| if reversed { (n - i) % n } else { i };
    let ccw: Vec<Point2<T>> = (0..n).map(|i| points[original(i)]).collect();
    let sine = tolerance::collinear_sine::<T>();
    let mut winding = T::zero();
    for i in 0..n {
        let e1 = scaled(ccw[i] - ccw[(i + n - 1) % n]);
        let e2 = scaled(ccw[(i + 1) % n] - ccw[i]);
        let cross = e1.perp(&e2);
        if Float::abs(cross) <= sine * e1.norm() * e2.norm() {
            return Err(ShapeError::CollinearVertices { index: original(i) });
        }
        if cross < T::zero() {
            return Err(ShapeError::NotConvex { index: original(i) });
        }
        winding += crate::math::atan2(cross, e1.dot(&e2));
    }
    // Each turn is in (0, π) and the total is 2πk; k = 1 for a simple polygon.
    if winding > T::pi() * T::lit(3.0) {
        return Err(ShapeError::SelfIntersecting);
    }
    Ok(ccw)
}

/// Whether `b` lies on the line through `a` and `c` within the collinearity
/// tolerance ([`tolerance::collinear_sine`]): it turns neither left nor right
/// by more than it.
pub(crate) fn is_collinear<T: Real>(a: &Point2<T>, b: &Point2<T>, c: &Point2<T>) -> bool {
    !strictly_left(a, b, c) && !strictly_left(c, b, a)
}

/// Whether `a → b → c` turns left by more than the collinearity tolerance.
#[inline]
fn strictly_left<T: Real>(a: &Point2<T>, b: &Point2<T>, c: &Point2<T>) -> bool {
    let e1 = scaled(b - a);
    let e2 = scaled(c - b);
    e1.perp(&e2) > tolerance::collinear_sine::<T>() * e1.norm() * e2.norm()
}

/// Convex hull of a point cloud, counter-clockwise, without collinear points
/// (Andrew's monotone chain; de Berg et al., *Computational Geometry*, §1.1).
pub(crate) fn convex_hull<T: Real>(points: &[Point2<T>]) -> Result<Vec<Point2<T>>, ShapeError> {
    check_vertices(points, 3)?;
    let mut sorted = points.to_vec();
    // Finite coordinates (checked above) have a total order.
    sorted.sort_by(|p, q| {
        p.x.partial_cmp(&q.x)
            .unwrap_or(Equal)
            .then(p.y.partial_cmp(&q.y).unwrap_or(Equal))
    });
    sorted.dedup();
    let mut hull: Vec<Point2<T>> = Vec::with_capacity(sorted.len() + 1);
    // Lower chain left to right, then upper chain right to left; each drops its
    // last point, which starts the other chain.
    push_chain(&mut hull, sorted.iter());
    push_chain(&mut hull, sorted.iter().rev());
    if hull.len() < 3 {
        return Err(ShapeError::AllCollinear);
    }
    // The chains drop collinear points with the same tolerance the validation
    // uses, so a hull of three or more points is a valid convex polygon; validate
    // anyway (construction only) so a hull is never accepted unchecked.
    validate_convex(&hull)
}

/// Appends one monotone chain of the hull, keeping only strict left turns.
fn push_chain<'a, T: Real>(hull: &mut Vec<Point2<T>>, points: impl Iterator<Item = &'a Point2<T>>) {
    let start = hull.len();
    for p in points {
        while hull.len() >= start + 2
            && !strictly_left(&hull[hull.len() - 2], &hull[hull.len() - 1], p)
        {
            hull.pop();
        }
        hull.push(*p);
    }
    hull.pop();
}
