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
//! The contact comes from the general rounded-core kernel
//! ([`crate::sat::core_contact`]): the circle is a point core grown by `r`, and
//! the exact minimum translation is either the nearest edge's normal (centre
//! inside) or the direction from the closest boundary point to the centre.

use nalgebra::{Isometry2, Point2};
use num_traits::Float;
use shape::{Circle, ConvexPolygon, Real, Triangle};

use crate::Contact;
use crate::polygonal::Polygonal;
use crate::sat::core_contact;

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
/// use nalgebra::{Isometry2, Point2};
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
    circle_core_polygon(a.radius(), b, b_in_a)
}

/// The contact of a circle and a convex polygon, in the circle's frame.
#[inline]
pub fn circle_polygon_contact<T: Real>(
    a: &Circle<T>,
    b: &ConvexPolygon<T>,
    b_in_a: &Isometry2<T>,
) -> Option<Contact<T>> {
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

/// The closest points of a `Circle` and a `ConvexPolygon` within `max_distance`, in A's
/// frame: `Intersecting` exactly when [`circle_polygon`] says so; apart, the closest
/// points of the rounded cores ([`core_closest_points`](crate::sat::core_closest_points)).
#[inline]
pub fn circle_polygon_closest_points<T: Real>(
    a: &Circle<T>,
    b: &ConvexPolygon<T>,
    b_in_a: &Isometry2<T>,
    max_distance: T,
) -> crate::ClosestPoints<T> {
    if circle_polygon(a, b, b_in_a) {
        crate::ClosestPoints::Intersecting
    } else {
        crate::sat::core_apart(a, b, b_in_a, max_distance)
    }
}

/// The closest points of a `Circle` and a `Triangle` within `max_distance`, in A's
/// frame: `Intersecting` exactly when [`circle_triangle`] says so; apart, the closest
/// points of the rounded cores ([`core_closest_points`](crate::sat::core_closest_points)).
#[inline]
pub fn circle_triangle_closest_points<T: Real>(
    a: &Circle<T>,
    b: &Triangle<T>,
    b_in_a: &Isometry2<T>,
    max_distance: T,
) -> crate::ClosestPoints<T> {
    if circle_triangle(a, b, b_in_a) {
        crate::ClosestPoints::Intersecting
    } else {
        crate::sat::core_apart(a, b, b_in_a, max_distance)
    }
}
