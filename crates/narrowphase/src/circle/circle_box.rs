//! Circle against box (axis-aligned or oriented), in the box's frame.
//!
//! 1. Move the circle's centre into the box's local frame, relative to the box
//!    centre: `q`.
//! 2. Clamp `q` to `[−h, h]`: the box's point closest to the centre, `k`.
//! 3. The shapes intersect when `|q − k|² ≤ r²` (no square root).
//! 4. Contact: if the centre is outside the box, the normal is `k − q`
//!    (centre towards the closest point) and the depth `r − |q − k|`; if it is
//!    inside, the box leaves through the face nearest the centre, depth
//!    `r + distance to that face`.
//!
//! 5. Closest points (apart, after the boolean test): the clamp `k` is the
//!    box's nearest point. When one coordinate was clamped, the centre faces
//!    that side: the direction is the side's normal and the distance
//!    `|q_i| − h_i − r`, exact to rounding; when both were, the nearest point
//!    is a corner and the direction `k − q` is normalised from the scaled
//!    vector. The circle's point is its centre moved by `r` along the
//!    direction.
//!
//! Exact: the closest point of a box to a point is the clamp, per axis
//! (Ericson, *Real-Time Collision Detection*, §5.1.4). A centre exactly on a
//! face counts as outside with distance zero; the normal then is that face's
//! (ties take x).

use nalgebra::{Isometry2, Point2, Unit, Vector2};
use num_traits::Float;
use shape::{Aabb, Circle, Obb, Real};

use crate::polygonal::length_and_direction;
use crate::{ClosestPoints, Contact};

/// The box's point nearest `q` (a point in the box's frame, relative to its
/// centre): the clamp to `[−h, h]` (step 2).
#[inline(always)]
pub(crate) fn clamp<T: Real>(q: &Vector2<T>, h: &Vector2<T>) -> Vector2<T> {
    Vector2::new(
        nalgebra::clamp(q.x, -h.x, h.x),
        nalgebra::clamp(q.y, -h.y, h.y),
    )
}

/// Steps 3–4 in the box's frame, for a circle of radius `r` centred at `q`
/// (relative to the box's centre): `None` when apart.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BoxTouch<T: Real> {
    /// The normal from the circle to the box (box frame).
    pub n: Vector2<T>,
    /// The centre's distance to the box's surface, negative inside.
    pub signed: T,
    /// The box's point nearest the centre (relative to the box's centre).
    pub k: Vector2<T>,
    /// Whether the centre is inside the box (the contact's point on B is
    /// then the centre moved by `signed` along the normal).
    pub inside: bool,
}

#[inline(always)]
pub(crate) fn touch_in_box<T: Real>(r: T, h: &Vector2<T>, q: &Vector2<T>) -> Option<BoxTouch<T>> {
    let k = clamp(q, h);
    let d = k - q;
    let d2 = d.norm_squared();
    if d2 > r * r {
        return None;
    }
    if d2 > T::zero() {
        // From the scaled vector: `d2` may be subnormal, `√d2` inexact.
        let (len, n) = length_and_direction(d).unwrap_or((T::zero(), Vector2::x()));
        return Some(BoxTouch {
            n,
            signed: len,
            k,
            inside: false,
        });
    }
    let (fx, fy) = (h.x - Float::abs(q.x), h.y - Float::abs(q.y));
    let (n, signed) = if fx <= fy {
        (
            Vector2::new(
                if q.x < T::zero() { T::one() } else { -T::one() },
                T::zero(),
            ),
            -fx,
        )
    } else {
        (
            Vector2::new(
                T::zero(),
                if q.y < T::zero() { T::one() } else { -T::one() },
            ),
            -fy,
        )
    };
    Some(BoxTouch {
        n,
        signed,
        k,
        inside: true,
    })
}

/// Step 5 in the box's frame, for a circle centred at `q` (relative to the
/// box's centre) that does not meet the box: the unit direction from the
/// centre to the box, the centre's distance to the box, and the box's
/// nearest point `k`.
#[inline(always)]
pub(crate) fn apart_in_box<T: Real>(h: &Vector2<T>, q: &Vector2<T>) -> (Vector2<T>, T, Vector2<T>) {
    let k = clamp(q, h);
    let (cx, cy) = (k.x != q.x, k.y != q.y);
    let sign = |v: T| if v < T::zero() { T::one() } else { -T::one() };
    let (u, d) = if cx && !cy {
        (Vector2::new(sign(q.x), T::zero()), Float::abs(q.x) - h.x)
    } else if cy && !cx {
        (Vector2::new(T::zero(), sign(q.y)), Float::abs(q.y) - h.y)
    } else {
        match length_and_direction(k - q) {
            Some((len, u)) => (u, len),
            // Rounding put the centre on the box: towards its centre.
            None => (
                length_and_direction(-q).map_or_else(Vector2::x, |(_, u)| u),
                T::zero(),
            ),
        }
    };
    (u, d, k)
}

/// The circle's centre (A's origin) in B's frame, relative to the box's
/// centre `centre`.
#[inline(always)]
fn centre_in_box<T: Real>(centre: Point2<T>, b_in_a: &Isometry2<T>) -> Vector2<T> {
    b_in_a.inverse_transform_point(&Point2::origin()) - centre
}

/// The circle (radius `r`, centre at A's origin) against a box with half
/// extents `h` centred at `centre` in B's local frame.
#[inline]
fn intersects<T: Real>(r: T, h: Vector2<T>, centre: Point2<T>, b_in_a: &Isometry2<T>) -> bool {
    let q = centre_in_box(centre, b_in_a);
    (q - clamp(&q, &h)).norm_squared() <= r * r
}

#[inline]
fn contact<T: Real>(
    r: T,
    h: Vector2<T>,
    centre: Point2<T>,
    b_in_a: &Isometry2<T>,
) -> Option<Contact<T>> {
    let t = touch_in_box(r, &h, &centre_in_box(centre, b_in_a))?;
    let n = b_in_a.rotation * t.n;
    let point_b = if t.inside {
        Point2::from(n * t.signed)
    } else {
        b_in_a * (centre + t.k)
    };
    Some(Contact {
        normal: Unit::new_unchecked(n),
        // `|d|` may exceed `r` by an ulp where `d2 ≤ r²` held: clamp.
        depth: Float::max(r - t.signed, T::zero()),
        point_a: Point2::from(n * r),
        point_b,
    })
}

/// Whether a circle and an axis-aligned box intersect.
///
/// ```
/// use nalgebra::{Isometry2, Point2};
/// use narrowphase::circle::circle_aabb;
/// let c = shape::Circle::new(5.0).unwrap();
/// let b = shape::Aabb::new(Point2::new(-1.0, -1.0), Point2::new(1.0, 1.0)).unwrap();
/// // Box centred at (4, 5): its corner (3, 4) is exactly 5 from the circle's centre.
/// assert!(circle_aabb(&c, &b, &Isometry2::translation(4.0, 5.0)));
/// assert!(!circle_aabb(&c, &b, &Isometry2::translation(4.0, 5.01)));
/// ```
#[inline]
pub fn circle_aabb<T: Real>(a: &Circle<T>, b: &Aabb<T>, b_in_a: &Isometry2<T>) -> bool {
    intersects(a.radius(), b.half_extents(), b.center(), b_in_a)
}

/// The contact of a circle and an axis-aligned box, in the circle's frame.
#[inline]
pub fn circle_aabb_contact<T: Real>(
    a: &Circle<T>,
    b: &Aabb<T>,
    b_in_a: &Isometry2<T>,
) -> Option<Contact<T>> {
    contact(a.radius(), b.half_extents(), b.center(), b_in_a)
}

/// Whether a circle and an oriented box intersect.
///
/// ```
/// use nalgebra::{Isometry2, Vector2};
/// use narrowphase::circle::circle_obb;
/// let c = shape::Circle::new(1.0).unwrap();
/// let b = shape::Obb::new(Vector2::new(3.0, 1.0)).unwrap();
/// assert!(circle_obb(&c, &b, &Isometry2::translation(0.0, 2.0))); // resting on the top face
/// assert!(!circle_obb(&c, &b, &Isometry2::translation(0.0, 2.5)));
/// ```
#[inline]
pub fn circle_obb<T: Real>(a: &Circle<T>, b: &Obb<T>, b_in_a: &Isometry2<T>) -> bool {
    intersects(a.radius(), b.half_extents(), Point2::origin(), b_in_a)
}

/// The contact of a circle and an oriented box, in the circle's frame.
#[inline]
pub fn circle_obb_contact<T: Real>(
    a: &Circle<T>,
    b: &Obb<T>,
    b_in_a: &Isometry2<T>,
) -> Option<Contact<T>> {
    contact(a.radius(), b.half_extents(), Point2::origin(), b_in_a)
}

/// The closest points of the circle (radius `r`, at A's origin) and the box
/// (half extents `h`, centred at `centre` in B's frame), given that they are
/// apart (step 5).
#[inline]
fn apart<T: Real>(
    r: T,
    h: Vector2<T>,
    centre: Point2<T>,
    b_in_a: &Isometry2<T>,
    max_distance: T,
) -> ClosestPoints<T> {
    let (u, d, k) = apart_in_box(&h, &centre_in_box(centre, b_in_a));
    let n = b_in_a.rotation * u;
    ClosestPoints::apart(
        Point2::from(n * r),
        b_in_a * (centre + k),
        Unit::new_unchecked(n),
        d - r,
        max_distance,
    )
}

/// The closest points of a `Circle` and a `Aabb` within `max_distance`, in
/// A's frame: `Intersecting` exactly when [`circle_aabb`] says so; apart, the
/// clamp (module notes, step 5).
///
/// ```
/// use nalgebra::{Isometry2, Point2};
/// use narrowphase::{ClosestPoints, circle::circle_aabb_closest_points};
/// let c = shape::Circle::new(1.0).unwrap();
/// let b = shape::Aabb::new(Point2::new(-1.0, -1.0), Point2::new(1.0, 1.0)).unwrap();
/// let ClosestPoints::WithinMargin { distance, point_b, .. } =
///     circle_aabb_closest_points(&c, &b, &Isometry2::translation(4.0, 0.5), 10.0) else { panic!() };
/// assert_eq!((distance, point_b), (2.0, Point2::new(3.0, 0.0)));
/// ```
#[inline]
pub fn circle_aabb_closest_points<T: Real>(
    a: &Circle<T>,
    b: &Aabb<T>,
    b_in_a: &Isometry2<T>,
    max_distance: T,
) -> ClosestPoints<T> {
    if circle_aabb(a, b, b_in_a) {
        ClosestPoints::Intersecting
    } else {
        apart(
            a.radius(),
            b.half_extents(),
            b.center(),
            b_in_a,
            max_distance,
        )
    }
}

/// The closest points of a `Circle` and a `Obb` within `max_distance`, in
/// A's frame: `Intersecting` exactly when [`circle_obb`] says so; apart, the
/// clamp (module notes, step 5).
#[inline]
pub fn circle_obb_closest_points<T: Real>(
    a: &Circle<T>,
    b: &Obb<T>,
    b_in_a: &Isometry2<T>,
    max_distance: T,
) -> ClosestPoints<T> {
    if circle_obb(a, b, b_in_a) {
        ClosestPoints::Intersecting
    } else {
        apart(
            a.radius(),
            b.half_extents(),
            Point2::origin(),
            b_in_a,
            max_distance,
        )
    }
}
