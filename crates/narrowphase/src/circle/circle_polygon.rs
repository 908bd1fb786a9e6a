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
//! [`circle_triangle_closest_points`]) find the polygon's point nearest the
//! centre, in the polygon's frame, and answer `Intersecting` exactly when
//! the boolean test above is `true`:
//!
//! 3. **The face.** One pass over the faces: `σᵢ = (c − vᵢ)·mᵢ` with `mᵢ`
//!    the stored outward unit normal, and the face `i` of the largest. For
//!    `c` outside, the nearest point `q` is the foot of `c` on face `i`
//!    clamped to the edge: in an edge's Voronoi region `σ` of that edge is
//!    the distance and no other face's exceeds it (the polygon lies in
//!    every face's half-plane); in a vertex's, `c − v` lies between the two
//!    edges' normals, whose dot products with it beat every other normal's
//!    (the normals are met in order round the circle), and clamping onto
//!    either edge gives `v`. `σ ≤ 0`: `c` is inside.
//! 4. **The nearest point**, from face `i` on: the descent of
//!    `sat/descent.rs` for a point, along the boundary from edge to edge
//!    while the foot lies beyond the edge's end, until it lies inside an
//!    edge or behind the start of the next one (the vertex): usually the
//!    first edge. Strictly inside an edge, the direction is that edge's
//!    normal `m` and the distance `(c − v0)·m`, exact to rounding however
//!    close the circle is; at a vertex, `q − c` normalised from the scaled
//!    vector. The circle's point is `c` moved by `r` along the direction.
//! 5. **The decision, filtered.** The boolean test's products have
//!    relative rounding errors only, so its answer is the exact one
//!    (`distance ≤ r`) unless the distance is within a few `ε · S` of `r`
//!    (`S = |c|∞ + extent + r`, the extent the largest vertex coordinate):
//!    a line distance `|S × A| / |S|` is off by at most about `5 ε |A|`, a
//!    foot's position along its edge likewise, and the inside test can fail
//!    only for `σ` within about `3 ε |A|` of zero (near a sharp vertex the
//!    centre can be much farther than that from the polygon, hence the
//!    condition on `σ` below). Steps 3–4 are exact to the same order. So with
//!    `band = 64 ε S`: `σ ≤ −band` is `Intersecting`; a distance below
//!    `r − band` is `Intersecting`; a distance above `r + band` with
//!    `σ > band` is apart; anything else (within the band of touching) is
//!    decided by the boolean test itself. The bounds assume that no product
//!    of the boolean test underflows or overflows: the filter is used only
//!    for `S ≤ MAX^¼ / 8` and `band² · (shortest edge)² ≥ MIN_POSITIVE / ε`
//!    (the polygon's extent and shortest edge are kept from construction);
//!    elsewhere the boolean test always decides. Nothing here is a
//!    tolerance: the answer is always the boolean test's, and the band only
//!    says when it can be foreseen.
//! 6. **The contact** ([`circle_polygon_contact`], [`circle_triangle_contact`])
//!    comes from the same decision and numbers, so it is `Some` exactly when
//!    the boolean test is `true`. The shapes' difference is the core grown by
//!    `r` (`{x : dist(x, core) ≤ r}`), so the minimum translation is the
//!    distance from `c` to that set's boundary. With the centre inside
//!    (`σ ≤ 0`) it is `r − σ` through face `i`: the nearest point of the
//!    boundary from inside lies on the face of largest `σ`, at the foot of
//!    the perpendicular (a foot beyond the edge would put another face's
//!    line nearer). With the centre outside, `dist(·, core)` is 1-Lipschitz
//!    and grows at rate 1 along the direction from the nearest point `q`,
//!    so the translation is `r − |c − q|` along it (clamped at 0 where the
//!    boolean test found a touch that rounding puts a hair beyond `r`).
//!    Through the table, 388 instructions per contact against 680 for the
//!    boolean test followed by the general rounded-core kernel (callgrind,
//!    a triangle, f32); 329 since the table runs these steps from the world
//!    poses (`circle_polygon_world.rs`: the centre turned once into the
//!    polygon's frame, the answer once out of it).
//!
//! `O(n)`: one dot product per face and a few edges, without the boolean
//! test's products for all but near-touching pairs, and without the general
//! kernel's separating-axis pass and its (vertex, edge) loop.
//!
//! A polygon of more than 16 vertices (`sat::linear::SCAN_UP_TO`) takes the
//! general rounded-core kernel for all three queries instead: its one-sided
//! pass over the polygon's faces (one dot product per edge, the circle's
//! centre against each face) decides, and then the boolean, the contact and
//! the closest points all come from that one decision, as for every other
//! core pair (about three times cheaper per edge than step 1's products).

use core::cmp::Ordering;

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
    circle_core_polygon_at(r, p, b_in_a.inverse_transform_point(&Point2::origin()))
}

/// Seed 001's test for the circle's centre at `c` (the polygon's frame).
#[inline]
pub(crate) fn circle_core_polygon_at<T: Real, P: Polygonal<T>>(r: T, p: &P, c: Point2<T>) -> bool {
    scaled_test(r, &c, p, T::one()).unwrap_or_else(|| {
        // A product overflowed (lengths beyond the fourth root of MAX: about
        // 4e9 in f32). Every comparison is homogeneous in the lengths, so
        // scaling them all by a power of two (exact) gives the same answer.
        let m = (0..p.core_vertex_count()).fold(Float::max(r, c.coords.amax()), |m, i| {
            Float::max(m, p.core_vertex(i).coords.amax())
        });
        let Some(e) = shape::math::exponent(m) else {
            return false;
        };
        let k = T::lit(shape::math::pow2(-e));
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
    circle_small_polygon_contact(a.radius(), b, b_in_a)
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
    circle_small_polygon_contact(a.radius(), b, b_in_a)
}

/// The point of a convex core nearest the circle's centre `c` (B's frame),
/// outside it: the unit direction from `c` towards it and the distance.
#[derive(Clone, Copy)]
pub(crate) struct Nearest<T: Real> {
    pub(crate) q: Point2<T>,
    pub(crate) direction: Vector2<T>,
    pub(crate) distance: T,
}

impl<T: Real> Nearest<T> {
    /// From the nearest point `q` and, when `q` lies strictly inside an
    /// edge, that edge's outward unit normal `m` and `c`'s height above its
    /// line (step 4 of the module notes).
    #[inline]
    fn new(c: &Point2<T>, q: Point2<T>, by_edge: Option<(Vector2<T>, T)>) -> Self {
        let (direction, distance) = by_edge
            .filter(|&(_, side)| side > T::zero())
            .map(|(m, side)| (-m, side))
            .unwrap_or_else(|| match length_and_direction(q - c) {
                Some((len, u)) => (u, len),
                // Rounding put the centre on the boundary: any direction
                // towards the polygon's inside will do; the distance is
                // reported as the smallest positive one.
                None => (
                    length_and_direction(-c.coords).map_or_else(Vector2::x, |(_, u)| u),
                    T::zero(),
                ),
            });
        Self {
            q,
            direction,
            distance,
        }
    }

    /// The answer in A's frame, the circle of radius `r` at its origin.
    #[inline]
    fn answer(&self, r: T, b_in_a: &Isometry2<T>, max_distance: T) -> ClosestPoints<T> {
        let n = b_in_a.rotation * self.direction;
        ClosestPoints::apart(
            Point2::from(n * r),
            b_in_a * self.q,
            Unit::new_unchecked(n),
            self.distance - r,
            max_distance,
        )
    }
}

/// The core's point nearest `c` (B's frame) by one pass over its edges,
/// every edge's clamped foot (Ericson §5.1.2), the nearest: for shapes the
/// boolean test found apart where the descent of [`nearest_from_face`] did
/// not apply (the centre within rounding of a face's line).
pub(crate) fn nearest_by_scan<T: Real, P: Polygonal<T>>(p: &P, c: &Point2<T>) -> Nearest<T> {
    let n = p.core_vertex_count();
    // (nearest point, squared distance, the edge when strictly inside it)
    let mut best = (p.core_vertex(0), T::infinity(), None);
    for i in 0..n {
        let v0 = p.core_vertex(i);
        let e = p.core_vertex(if i + 1 == n { 0 } else { i + 1 }) - v0;
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
    let by_edge = edge.map(|i| {
        let m = p.core_axis(i);
        (m, (c - p.core_vertex(i)).dot(&m))
    });
    Nearest::new(c, q, by_edge)
}

/// The point of a small core with outward unit edge normals nearest `c`
/// (B's frame), outside it beyond face `i`: the descent along the boundary
/// of `descent.rs` for a point (step 4 of the module notes). `None` when it
/// has not settled in `n` steps (rounding).
#[inline]
fn nearest_from_face<T: Real, P: Polygonal<T>>(
    p: &P,
    c: &Point2<T>,
    i: usize,
) -> Option<Nearest<T>> {
    let n = p.core_vertex_count();
    let next = |k: usize| if k + 1 == n { 0 } else { k + 1 };
    let prev = |k: usize| if k == 0 { n - 1 } else { k - 1 };
    let foot = |w: Point2<T>, e: Vector2<T>, t: T, edge: usize| {
        let m = p.core_axis(edge);
        Nearest::new(c, w + e * t, Some((m, (c - w).dot(&m))))
    };
    let v = p.core_vertex(i);
    let e = p.core_vertex(next(i)) - v;
    let (num, ee) = ((c - v).dot(&e), e.norm_squared());
    if num > T::zero() && num < ee {
        return Some(foot(v, e, num / ee, i));
    }
    // On round the polygon from the edge's end, or back from its start,
    // one edge at a time, until an edge's nearest point is its start vertex
    // or inside it.
    let forward = num >= ee;
    let mut k = if forward { next(i) } else { i };
    for _ in 0..n {
        let w = p.core_vertex(k);
        let k2 = if forward { next(k) } else { prev(k) };
        let e = p.core_vertex(k2) - w;
        let (num, ee) = ((c - w).dot(&e), e.norm_squared());
        // `num ≤ 0` (or NaN): the vertex.
        if num.partial_cmp(&T::zero()).is_none_or(Ordering::is_le) {
            return Some(Nearest::new(c, w, None));
        }
        if num < ee {
            return Some(foot(w, e, num / ee, if forward { k } else { k2 }));
        }
        k = k2;
    }
    None
}

/// What steps 3–5 of the module notes decide for a circle of radius `r`
/// centred at `c` (B's frame) and a small convex core with outward unit edge
/// normals: `Intersecting` exactly when [`circle_core_polygon`] is `true`.
pub(crate) enum Decided<T: Real> {
    /// The shapes meet. `face` is the face the centre is farthest beyond
    /// and that height (`≤ 0`: the centre is inside); `nearest`, when the
    /// centre is outside, the core's point nearest it if already found.
    Intersecting {
        face: (usize, T),
        nearest: Option<Nearest<T>>,
    },
    /// The shapes are apart: the core's point nearest the centre.
    Apart(Nearest<T>),
}

/// Steps 3–5 of the module notes (see [`Decided`]).
#[inline(always)]
pub(crate) fn circle_small_polygon_decide<T: Real, P: Polygonal<T>>(
    r: T,
    p: &P,
    c: &Point2<T>,
) -> Decided<T> {
    let n = p.core_vertex_count();
    // The face the centre is farthest beyond.
    let mut face = (0, T::neg_infinity());
    for i in 0..n {
        let side = (c - p.core_vertex(i)).dot(&p.core_axis(i));
        if side > face.1 {
            face = (i, side);
        }
    }
    // Where the boolean test's rounding cannot reach (module notes, step 5).
    let (extent, shortest) = p.core_extent_and_shortest_edge();
    let (cx, cy) = (Float::abs(c.x), Float::abs(c.y));
    let scale = (if cx > cy { cx } else { cy }) + extent + r;
    let band = <T as Float>::epsilon() * T::lit(64.0) * scale;
    let limit = Float::sqrt(Float::sqrt(<T as Float>::max_value())) * T::lit(0.125);
    let plain = scale <= limit
        && band * band * shortest >= <T as Float>::min_positive_value() / <T as Float>::epsilon();
    if plain && face.1 <= -band {
        return Decided::Intersecting {
            face,
            nearest: None,
        };
    }
    let nearest = if face.1 > T::zero() {
        nearest_from_face(p, c, face.0)
    } else {
        None
    };
    if let Some(near) = nearest {
        if plain && near.distance < r - band {
            return Decided::Intersecting { face, nearest };
        }
        if plain && near.distance > r + band && face.1 > band {
            return Decided::Apart(near);
        }
    }
    // Within rounding of touching, or sizes near the ends of the float
    // range: the boolean test decides.
    if circle_core_polygon_at(r, p, *c) {
        return Decided::Intersecting { face, nearest };
    }
    Decided::Apart(nearest.unwrap_or_else(|| nearest_by_scan(p, c)))
}

/// The closest points of a circle of radius `r` (A's origin) and a small
/// convex core with outward unit edge normals (a triangle, a polygon of at
/// most `SCAN_UP_TO` vertices), A's frame: `Intersecting` exactly when
/// [`circle_core_polygon`] is `true` (steps 3–5 of the module notes).
fn circle_small_polygon_closest_points<T: Real, P: Polygonal<T>>(
    r: T,
    p: &P,
    b_in_a: &Isometry2<T>,
    max_distance: T,
) -> ClosestPoints<T> {
    // The centre in B's frame, as the boolean test computes it.
    let c = b_in_a.inverse_transform_point(&Point2::origin());
    match circle_small_polygon_decide(r, p, &c) {
        Decided::Intersecting { .. } => ClosestPoints::Intersecting,
        Decided::Apart(near) => near.answer(r, b_in_a, max_distance),
    }
}

/// The contact of an intersecting circle and small convex core in the
/// core's frame (step 6 of the module notes), from the decision's face and
/// nearest point: the normal from A to B, the depth, and the core's witness
/// point. Both the relative-frame kernels and the world-frame path
/// (`circle_polygon_world.rs`) place it.
#[derive(Clone, Copy)]
pub(crate) struct Touch<T: Real> {
    pub(crate) normal: Vector2<T>,
    pub(crate) depth: T,
    pub(crate) q: Point2<T>,
}

/// [`Touch`] for a circle of radius `r` centred at `c` (the core's frame)
/// that [`circle_small_polygon_decide`] found intersecting with `face` and
/// `nearest`.
#[inline(always)]
pub(crate) fn small_polygon_touch<T: Real, P: Polygonal<T>>(
    r: T,
    p: &P,
    c: &Point2<T>,
    (face, nearest): ((usize, T), Option<Nearest<T>>),
) -> Touch<T> {
    let (i, side) = face;
    if side <= T::zero() {
        // The centre inside: out through face `i` (normal A to B is the
        // face's inward normal), as deep as the centre is below it plus r.
        return Touch {
            normal: -p.core_axis(i),
            depth: r - side,
            q: p.core_vertex(i),
        };
    }
    // The centre outside, within r of the core: along the direction to the
    // nearest point, `r − distance` deep (zero when the boolean test found
    // a touch that rounding puts a hair beyond r).
    let near = nearest.unwrap_or_else(|| nearest_by_scan(p, c));
    let depth = r - near.distance;
    Touch {
        normal: near.direction,
        depth: if depth > T::zero() { depth } else { T::zero() },
        q: near.q,
    }
}

/// The contact of a circle of radius `r` (A's origin) and a small convex
/// core with outward unit edge normals, A's frame (step 6 of the module
/// notes): `Some` exactly when [`circle_core_polygon`] is `true`, from the
/// numbers the decision already has.
fn circle_small_polygon_contact<T: Real, P: Polygonal<T>>(
    r: T,
    p: &P,
    b_in_a: &Isometry2<T>,
) -> Option<Contact<T>> {
    let c = b_in_a.inverse_transform_point(&Point2::origin());
    let Decided::Intersecting { face, nearest } = circle_small_polygon_decide(r, p, &c) else {
        return None;
    };
    let t = small_polygon_touch(r, p, &c, (face, nearest));
    let n = b_in_a.rotation * t.normal;
    Some(Contact {
        normal: Unit::new_unchecked(n),
        depth: t.depth,
        point_a: Point2::from(n * r),
        point_b: b_in_a * t.q,
    })
}

/// The closest points of a `Circle` and a `ConvexPolygon` within
/// `max_distance`, in A's frame: `Intersecting` exactly when
/// [`circle_polygon`] says so; apart, the polygon's point nearest the centre
/// from the face the centre is farthest beyond (module notes, steps 3–5).
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
    circle_small_polygon_closest_points(a.radius(), b, b_in_a, max_distance)
}

/// The closest points of a `Circle` and a `Triangle` within `max_distance`,
/// in A's frame: `Intersecting` exactly when [`circle_triangle`] says so;
/// apart, the triangle's point nearest the centre (module notes, steps 3–5).
#[inline]
pub fn circle_triangle_closest_points<T: Real>(
    a: &Circle<T>,
    b: &Triangle<T>,
    b_in_a: &Isometry2<T>,
    max_distance: T,
) -> ClosestPoints<T> {
    circle_small_polygon_closest_points(a.radius(), b, b_in_a, max_distance)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use shape::testing::{cases, test_tolerance};

    /// Points on an ellipse at sorted random angles, hulled, scaled by `r`.
    fn polygon<T: Real>(angles: &[f64], r: f64, squash: f64) -> Option<ConvexPolygon<T>> {
        let mut t = angles.to_vec();
        t.sort_by(f64::total_cmp);
        let pts: Vec<Point2<T>> = t
            .iter()
            .map(|a| Point2::new(T::lit(r * a.cos()), T::lit(r * squash * a.sin())))
            .collect();
        ConvexPolygon::from_hull(&pts).ok()
    }

    /// The distance from `c` to the polygon (zero inside), in f64 on the
    /// polygon's own numbers: the nearest of every edge's closest point.
    fn brute(vertices: &[Point2<f64>], c: &Point2<f64>) -> f64 {
        let n = vertices.len();
        let inside =
            (0..n).all(|i| (vertices[(i + 1) % n] - vertices[i]).perp(&(c - vertices[i])) >= 0.0);
        if inside {
            return 0.0;
        }
        (0..n)
            .map(|i| {
                (shape::dim2::closest_point_on_segment(&vertices[i], &vertices[(i + 1) % n], c) - c)
                    .norm()
            })
            .fold(f64::INFINITY, f64::min)
    }

    /// `Intersecting` exactly when the boolean test says so; apart, the
    /// distance is the brute force's, the points on their shapes.
    fn check<T: Real, P: Polygonal<T>>(
        r: T,
        p: &P,
        hit: impl Fn(&Isometry2<T>) -> bool,
        closest: impl Fn(&Isometry2<T>) -> ClosestPoints<T>,
        m: &Isometry2<T>,
    ) -> Result<(), TestCaseError> {
        let answer = closest(m);
        prop_assert_eq!(
            matches!(answer, ClosestPoints::Intersecting),
            hit(m),
            "{:?}",
            m
        );
        let ClosestPoints::WithinMargin {
            point_a,
            point_b,
            normal,
            distance,
        } = answer
        else {
            return Ok(());
        };
        let f = |v: Point2<T>| Point2::new(v.x.as_f64(), v.y.as_f64());
        let vs: Vec<Point2<f64>> = (0..p.core_vertex_count())
            .map(|i| f(p.core_vertex(i)))
            .collect();
        let m64 = Isometry2::new(
            nalgebra::Vector2::new(m.translation.x.as_f64(), m.translation.y.as_f64()),
            m.rotation.im.as_f64().atan2(m.rotation.re.as_f64()),
        );
        let c = m64.inverse_transform_point(&Point2::origin());
        let (extent, _) = p.core_extent_and_shortest_edge();
        let scale = extent.as_f64() + c.coords.amax() + r.as_f64();
        let tol = 4.0 * test_tolerance::<T>(T::lit(scale)).as_f64();
        let d = brute(&vs, &c) - r.as_f64();
        prop_assert!(
            (distance.as_f64() - d.max(0.0)).abs() <= tol,
            "distance {:?}, brute force {}",
            distance,
            d
        );
        let (pa, pb) = (f(point_a), f(point_b));
        prop_assert!(
            (pa.coords.norm() - r.as_f64()).abs() <= tol,
            "point_a {pa:?} off the circle"
        );
        prop_assert!(
            brute(&vs, &m64.inverse_transform_point(&pb)) <= tol,
            "point_b {pb:?} off the polygon"
        );
        prop_assert!(((pb - pa).norm() - distance.as_f64()).abs() <= tol);
        prop_assert!((normal.norm().as_f64() - 1.0).abs() <= tol);
        Ok(())
    }

    /// Every case at pose `m`, then moved along the closest points' line so
    /// that the circle touches the polygon to rounding, and a few ulps
    /// either side of that.
    fn cases_around<T: Real>(
        r: T,
        p: &ConvexPolygon<T>,
        m: Isometry2<T>,
    ) -> Result<(), TestCaseError> {
        let hit = |m: &Isometry2<T>| circle_polygon(&Circle::new(r).unwrap(), p, m);
        let closest = |m: &Isometry2<T>| {
            circle_polygon_closest_points(&Circle::new(r).unwrap(), p, m, T::infinity())
        };
        check(r, p, hit, closest, &m)?;
        if let ClosestPoints::WithinMargin {
            normal, distance, ..
        } = closest(&m)
        {
            for k in [-4.0, -1.0, 0.0, 1.0, 4.0] {
                let shift = distance + T::lit(k) * <T as Float>::epsilon() * (distance + r);
                let touching = Isometry2::from_parts(
                    (m.translation.vector - normal.into_inner() * shift).into(),
                    m.rotation,
                );
                check(r, p, hit, closest, &touching)?;
            }
        }
        Ok(())
    }

    fn polygons<T: Real>(
        t: &[f64],
        size: f64,
        r: f64,
        (x, y, turn): (f64, f64, f64),
    ) -> Result<(), TestCaseError> {
        let Some(p) = polygon::<T>(t, size, 0.6) else {
            return Ok(());
        };
        let m = Isometry2::new(
            nalgebra::Vector2::new(T::lit(x * size), T::lit(y * size)),
            T::lit(turn),
        );
        cases_around(T::lit(r * size), &p, m)
    }

    fn triangles<T: Real>(
        t: [f64; 3],
        r: f64,
        (x, y, turn): (f64, f64, f64),
    ) -> Result<(), TestCaseError> {
        let c = |u: f64| Point2::new(T::lit(u.cos()), T::lit(0.7 * u.sin()));
        let Ok(p) = Triangle::new(c(t[0]), c(t[0] + t[1]), c(t[0] + t[1] + t[2])) else {
            return Ok(());
        };
        let r = T::lit(r);
        let m = Isometry2::new(nalgebra::Vector2::new(T::lit(x), T::lit(y)), T::lit(turn));
        let hit = |m: &Isometry2<T>| circle_triangle(&Circle::new(r).unwrap(), &p, m);
        let closest = |m: &Isometry2<T>| {
            circle_triangle_closest_points(&Circle::new(r).unwrap(), &p, m, T::infinity())
        };
        check(r, &p, hit, closest, &m)?;
        if let ClosestPoints::WithinMargin {
            normal, distance, ..
        } = closest(&m)
        {
            for k in [-2.0, 0.0, 2.0] {
                let shift = distance + T::lit(k) * <T as Float>::epsilon() * (distance + r);
                let touching = Isometry2::from_parts(
                    (m.translation.vector - normal.into_inner() * shift).into(),
                    m.rotation,
                );
                check(r, &p, hit, closest, &touching)?;
            }
        }
        Ok(())
    }

    fn angles() -> impl Strategy<Value = Vec<f64>> {
        prop::collection::vec(0.0..core::f64::consts::TAU, 3..=16)
    }

    fn offsets() -> impl Strategy<Value = (f64, f64, f64)> {
        (-4.0f64..4.0, -4.0f64..4.0, -3.2f64..3.2)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(cases(256)))]

        /// Polygons of sizes from 1e-12 to 1e12 (f64) or 1e-6 to 1e6 (f32),
        /// circles from a millionth of the polygon to several times it.
        #[test]
        fn polygon_answers_match_the_boolean_and_brute_force(
            t in angles(), size in -6.0f64..6.0, r in -6.0f64..1.0, o in offsets(),
        ) {
            polygons::<f64>(&t, 10f64.powf(2.0 * size), 10f64.powf(r), o)?;
            polygons::<f32>(&t, 10f64.powf(size), 10f64.powf(r), o)?;
        }

        #[test]
        fn triangle_answers_match_the_boolean_and_brute_force(
            t in [0.0f64..6.3, 0.3f64..2.8, 0.3f64..2.8], r in 0.01f64..2.0, o in offsets(),
        ) {
            prop_assume!(t[1] + t[2] < 5.9);
            triangles::<f64>(t, r, o)?;
            triangles::<f32>(t, r, o)?;
        }
    }

    /// Where the boolean test's own rounding decides: a polygon with an
    /// edge too short for its squares (f32), and sizes whose products
    /// overflow; the closest points still follow the boolean test.
    #[test]
    fn extreme_sizes_follow_the_boolean() {
        fn run<T: Real>(size: f64, short: f64, r: f64) {
            let p = |x: f64, y: f64| Point2::new(T::lit(x * size), T::lit(y * size));
            let poly =
                ConvexPolygon::new(&[p(0.0, 0.0), p(1.0, 0.0), p(1.0 + short, short), p(0.0, 1.0)])
                    .unwrap();
            let c = Circle::new(T::lit(r * size)).unwrap();
            for (x, y) in [
                (3.0, 0.5),
                (-2.0, -2.0),
                (0.5, 0.5),
                (1.0 + r, 0.5),
                (3.0, 3.0),
                (1.5, 0.0),
            ] {
                let m = Isometry2::translation(T::lit(-x * size), T::lit(-y * size));
                let cp = circle_polygon_closest_points(&c, &poly, &m, T::infinity());
                assert_eq!(
                    matches!(cp, ClosestPoints::Intersecting),
                    circle_polygon(&c, &poly, &m),
                    "{size} {short} {x} {y}"
                );
            }
        }
        run::<f32>(1.0, 1e-30, 0.25);
        run::<f32>(1.0, 1e-12, 1e-30);
        run::<f32>(1e15, 1e-3, 0.25);
        run::<f32>(1e-15, 1e-3, 0.25);
        run::<f64>(1e150, 1e-3, 0.25);
        run::<f64>(1.0, 1e-300, 0.25);
        run::<f64>(1e-150, 1e-3, 0.25);
    }
}
