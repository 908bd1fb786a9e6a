//! Circle against convex polygon (or triangle), seed 001's method.
//!
//! In the polygon's frame, with `c` the circle's centre and `r` its radius:
//!
//! 1. For each edge `v0 → v1`, with `S = v1 − v0`, `A = c − v0`, `B = c − v1`:
//!    the distance from `c` to the edge's line is `|S × A| / |S|`. If it is at
//!    most `r` and the foot of the perpendicular lies on the edge
//!    (`(A·S)(B·S) ≤ 0`), the circle touches the edge; otherwise it touches the
//!    edge only if an end point is within `r` (`|A| ≤ r` or `|B| ≤ r`). All
//!    compared squared: `(S × A)² ≤ r² |S|²`, no square root or division.
//! 2. If no edge is touched, the circle may still lie wholly inside: that holds
//!    when `c` is on the inner side of every edge (`S × A ≥ 0`, counter-clockwise
//!    order).
//!
//! Correct for convex polygons only (seed 001 warns that a concave one breaks
//! step 2); kasanari's polygons are convex by construction. The seed uses strict
//! comparisons for the end points; kasanari's sets are closed, so `≤`.
//!
//! The closest points ([`circle_polygon_closest_points`],
//! [`circle_triangle_closest_points`]) call the boolean test first (so
//! `Intersecting` is exactly its answer), then, apart, find the polygon's
//! point nearest the centre in one pass over the edges, in the polygon's
//! frame (Ericson §5.1.2 per edge):
//!
//! 3. For the edge `v0 → v1`, `t = (c − v0)·S`: `t ≤ 0` gives `v0`, `t ≥ |S|²`
//!    is left to the next edge (whose `v0` is `v1`), else the foot
//!    `v0 + S·t/|S|²`, strictly inside the edge. The nearest of these is the
//!    polygon's nearest point `q` (the boundary of a convex polygon is the
//!    union of its edges, and the centre is outside).
//! 4. When `q` is strictly inside an edge, the direction is that edge's
//!    outward unit normal `m` (stored with the polygon) and the distance
//!    `(c − v0)·m − r`, both exact to rounding however close the circle is;
//!    at a vertex, the direction `q − c` normalised from the scaled vector.
//!    The circle's point is `c` moved by `r` along the direction.
//!
//! `O(n)` with no square root but the vertex case's, and without the general
//! kernel's separating-axis pass (`O(n)` for a big polygon, its extremes
//! climbed to: `sat/linear.rs`) and its (vertex, edge) loop.
//!
//! A polygon of more than 16 vertices (`sat::linear::SCAN_UP_TO`) takes the
//! general rounded-core kernel for all three queries instead: its one-sided
//! pass over the polygon's faces (one dot product per edge, the circle's
//! centre against each face) decides, and then the boolean, the contact and
//! the closest points all come from that one decision, as for every other
//! core pair (about three times cheaper per edge than step 1's products).
//!
//! The contact comes from the general rounded-core kernel
//! ([`crate::sat::core_contact`]): the circle is a point core grown by `r`, and
//! the exact minimum translation is either the nearest edge's normal (centre
//! inside) or the direction from the closest boundary point to the centre.

use nalgebra::{Isometry2, Point2, Unit, Vector2};
use num_traits::Float;
use shape::{Circle, ConvexPolygon, Real, Triangle};

use crate::polygonal::{Polygonal, length_and_direction};
use crate::sat::linear::SCAN_UP_TO;
use crate::sat::{core_closest_points, core_contact, core_intersects};
use crate::{ClosestPoints, Contact};

/// Seed 001's test, generic over the polygon's core view.
#[inline]
fn circle_core_polygon<T: Real, P: Polygonal<T>>(r: T, p: &P, b_in_a: &Isometry2<T>) -> bool {
    let c = b_in_a.inverse_transform_point(&Point2::origin());
    scaled_test(r, &c, p, T::one()).unwrap_or_else(|| {
        // A product overflowed (lengths beyond the fourth root of MAX: about
        // 4e9 in f32). Every comparison is homogeneous in the lengths, so
        // scaling them all by a power of two (exact) gives the same answer.
        let m = (0..p.core_vertex_count()).fold(Float::max(r, c.coords.amax()), |m, i| {
            Float::max(m, p.core_vertex(i).coords.amax())
        });
        let Some(e) = Float::floor(Float::log2(m)).to_i32() else {
            return false;
        };
        let k = Float::powi(T::two(), -e);
        scaled_test(r * k, &(c * k), p, k).unwrap_or(false)
    })
}

/// The test with every length multiplied by `k` (the polygon's vertices as
/// they are read); `None` when a product overflows.
#[inline]
fn scaled_test<T: Real, P: Polygonal<T>>(r: T, c: &Point2<T>, p: &P, k: T) -> Option<bool> {
    let r2 = r * r;
    let n = p.core_vertex_count();
    let mut inside = true;
    for i in 0..n {
        let v0 = p.core_vertex(i) * k;
        let v1 = p.core_vertex((i + 1) % n) * k;
        let s = v1 - v0;
        let a = c - v0;
        let b = c - v1;
        let cross = s.perp(&a);
        let (lhs, rhs) = (cross * cross, r2 * s.norm_squared());
        let feet = a.dot(&s) * b.dot(&s);
        let (da, db) = (a.norm_squared(), b.norm_squared());
        if !(lhs.is_finite()
            && rhs.is_finite()
            && feet.is_finite()
            && da.is_finite()
            && db.is_finite())
        {
            return None;
        }
        if lhs <= rhs && (feet <= T::zero() || da <= r2 || db <= r2) {
            return Some(true);
        }
        inside &= cross >= T::zero();
    }
    Some(inside)
}

/// Whether a circle and a convex polygon intersect.
///
/// ```
/// use nalgebra::{Isometry2, Point2, Unit, Vector2};
/// use narrowphase::circle::circle_polygon;
/// let c = shape::Circle::new(0.5).unwrap();
/// let square = shape::ConvexPolygon::new(&[
///     Point2::new(0.0, 0.0), Point2::new(4.0, 0.0), Point2::new(4.0, 4.0), Point2::new(0.0, 4.0),
/// ]).unwrap();
/// // The polygon placed so that the circle is deep inside: still a collision.
/// assert!(circle_polygon(&c, &square, &Isometry2::translation(-2.0, -2.0)));
/// assert!(circle_polygon(&c, &square, &Isometry2::translation(0.5, -2.0))); // touching the left edge
/// assert!(!circle_polygon(&c, &square, &Isometry2::translation(0.75, -2.0)));
/// ```
#[inline]
pub fn circle_polygon<T: Real>(a: &Circle<T>, b: &ConvexPolygon<T>, b_in_a: &Isometry2<T>) -> bool {
    if b.len() > SCAN_UP_TO {
        // A big polygon: the core kernel's one-sided pass (module notes).
        return core_intersects(a, b, b_in_a);
    }
    circle_core_polygon(a.radius(), b, b_in_a)
}

/// The contact of a circle and a convex polygon, in the circle's frame.
#[inline]
pub fn circle_polygon_contact<T: Real>(
    a: &Circle<T>,
    b: &ConvexPolygon<T>,
    b_in_a: &Isometry2<T>,
) -> Option<Contact<T>> {
    if b.len() > SCAN_UP_TO {
        return core_contact(a, b, b_in_a);
    }
    if !circle_polygon(a, b, b_in_a) {
        return None;
    }
    core_contact_or_touching(a, b, b_in_a)
}

/// Whether a circle and a triangle intersect (seed 001's method).
#[inline]
pub fn circle_triangle<T: Real>(a: &Circle<T>, b: &Triangle<T>, b_in_a: &Isometry2<T>) -> bool {
    circle_core_polygon(a.radius(), b, b_in_a)
}

/// The contact of a circle and a triangle, in the circle's frame.
#[inline]
pub fn circle_triangle_contact<T: Real>(
    a: &Circle<T>,
    b: &Triangle<T>,
    b_in_a: &Isometry2<T>,
) -> Option<Contact<T>> {
    if !circle_triangle(a, b, b_in_a) {
        return None;
    }
    core_contact_or_touching(a, b, b_in_a)
}

/// The general kernel's contact, given that the boolean test said the shapes
/// meet: should rounding make the general kernel disagree at exact touching,
/// report a touching contact from the closest points, so that `contact` is
/// `Some` exactly when `intersects` is true.
fn core_contact_or_touching<T: Real, P: Polygonal<T>>(
    a: &Circle<T>,
    b: &P,
    b_in_a: &Isometry2<T>,
) -> Option<Contact<T>> {
    core_contact(a, b, b_in_a).or_else(|| crate::sat::touching_contact(a, b, b_in_a))
}

/// The closest points of a circle and a convex core (A's frame, the circle
/// at its origin), given that the boolean test found them apart: steps 3–4
/// of the module notes, in B's frame, mapped back.
fn apart<T: Real, P: Polygonal<T>>(
    r: T,
    p: &P,
    b_in_a: &Isometry2<T>,
    max_distance: T,
) -> ClosestPoints<T> {
    let c = b_in_a.inverse_transform_point(&Point2::origin());
    let n = p.core_vertex_count();
    // (nearest point, squared distance, the edge when strictly inside it)
    let mut best = (p.core_vertex(0), T::infinity(), None);
    for i in 0..n {
        let v0 = p.core_vertex(i);
        let e = p.core_vertex((i + 1) % n) - v0;
        let t = (c - v0).dot(&e);
        let ee = e.norm_squared();
        let (q, edge) = if t <= T::zero() {
            (v0, None)
        } else if t >= ee {
            continue;
        } else {
            (v0 + e * (t / ee), Some(i))
        };
        let d2 = (q - c).norm_squared();
        if d2 < best.1 {
            best = (q, d2, edge);
        }
    }
    let (q, _, edge) = best;
    // The direction from the centre towards the polygon (B's frame) and the
    // centre's distance to the polygon.
    let by_edge = edge.and_then(|i| {
        let m = p.core_axis(i);
        let side = (c - p.core_vertex(i)).dot(&m);
        (side > T::zero()).then_some((-m, side))
    });
    let (u, d) = by_edge.unwrap_or_else(|| match length_and_direction(q - c) {
        Some((len, u)) => (u, len),
        // Rounding put the centre on the boundary: any direction towards
        // the polygon's inside will do; the distance is reported as the
        // smallest positive one.
        None => (
            length_and_direction(-c.coords).map_or_else(Vector2::x, |(_, u)| u),
            T::zero(),
        ),
    });
    let n = b_in_a.rotation * u;
    ClosestPoints::apart(
        Point2::from(n * r),
        b_in_a * q,
        Unit::new_unchecked(n),
        d - r,
        max_distance,
    )
}

/// The closest points of a `Circle` and a `ConvexPolygon` within
/// `max_distance`, in A's frame: `Intersecting` exactly when
/// [`circle_polygon`] says so; apart, the polygon's point nearest the centre
/// in one pass over its edges (module notes, steps 3–4).
///
/// ```
/// use nalgebra::{Isometry2, Point2, Unit, Vector2};
/// use narrowphase::{ClosestPoints, circle::circle_polygon_closest_points};
/// let c = shape::Circle::new(1.0).unwrap();
/// let square = shape::ConvexPolygon::new(&[
///     Point2::new(0.0, 0.0), Point2::new(2.0, 0.0), Point2::new(2.0, 2.0), Point2::new(0.0, 2.0),
/// ]).unwrap();
/// // The square's corner (0, 0) at (3, 4) from the circle's centre: 5 − 1 apart.
/// let m = Isometry2::translation(3.0, 4.0);
/// let ClosestPoints::WithinMargin { distance, point_a, point_b, .. } =
///     circle_polygon_closest_points(&c, &square, &m, 10.0) else { panic!() };
/// assert_eq!((distance, point_b), (4.0, Point2::new(3.0, 4.0)));
/// assert!((point_a - Point2::new(0.6, 0.8)).norm() < 1e-15);
/// ```
#[inline]
pub fn circle_polygon_closest_points<T: Real>(
    a: &Circle<T>,
    b: &ConvexPolygon<T>,
    b_in_a: &Isometry2<T>,
    max_distance: T,
) -> ClosestPoints<T> {
    if b.len() > SCAN_UP_TO {
        return core_closest_points(a, b, b_in_a, max_distance);
    }
    if circle_polygon(a, b, b_in_a) {
        ClosestPoints::Intersecting
    } else {
        apart(a.radius(), b, b_in_a, max_distance)
    }
}

/// The closest points of a `Circle` and a `Triangle` within `max_distance`,
/// in A's frame: `Intersecting` exactly when [`circle_triangle`] says so;
/// apart, the triangle's point nearest the centre (module notes, steps 3–4).
#[inline]
pub fn circle_triangle_closest_points<T: Real>(
    a: &Circle<T>,
    b: &Triangle<T>,
    b_in_a: &Isometry2<T>,
    max_distance: T,
) -> ClosestPoints<T> {
    if circle_triangle(a, b, b_in_a) {
        ClosestPoints::Intersecting
    } else {
        apart(a.radius(), b, b_in_a, max_distance)
    }
}
