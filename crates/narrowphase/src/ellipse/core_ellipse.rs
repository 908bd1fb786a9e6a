//! A rounded convex core (point, segment or polygon grown by a radius, see
//! [`Polygonal`]) against an ellipse: an exact intersection test and the
//! minimum translation vector, in A's local frame (the ellipse B placed by
//! `b_in_a`). Serves every built-in kind against the ellipse (the named
//! wrappers are in `core_ellipse_pairs.rs`).
//!
//! # The test ([`core_ellipse`])
//!
//! 1. Move A's core vertices into the ellipse's local frame (`qᵢ`) and scale by
//!    `S = diag(1/rx, 1/ry)`: the ellipse becomes the unit disk, and a point,
//!    segment or counter-clockwise polygon stays one (positive scales keep the
//!    orientation).
//! 2. The *core* meets the ellipse iff the mapped core comes within 1 of the
//!    origin: `|S q|² ≤ 1` for a point; for a segment the closest point to the
//!    origin, compared squared and without division (`cross² ≤ |d|²` in the
//!    interior case); for a polygon, the origin inside it or an edge within 1.
//!    With radius 0 (point, segment, boxes, triangle, polygon) this is the
//!    answer.
//! 3. A rounded core (circle, capsule) whose core misses the ellipse: the disk
//!    of radius `r` does not map to a disk, so compare in the original metric:
//!    they meet iff `dist(core, ellipse) ≤ r`. For a point core this is Eberly's
//!    point–ellipse distance (shared with [`ellipse_ellipse`]). For a segment
//!    `[q0, q1]` it is closed-form: if the segment's *line* misses the ellipse,
//!    with `n` its unit normal towards the ellipse, the gap is
//!    `g = −q0·n − |diag(rx, ry) n|` and the ellipse point nearest the line is
//!    its support point `e` along `−n`; if `e` projects into the segment (at
//!    its foot `f`) the distance is `g`. Otherwise (the line meets the
//!    ellipse, or the foot is outside the segment) the nearest segment point
//!    is an end point, and the distance is the smaller of the two end points'
//!    Eberly distances, or `|g|` (the pair `f`, `e`) if that is smaller and
//!    the foot is in the segment (rounding near tangency, below). A
//!    polygon core (not built in) takes the least over its edges. Before
//!    any root: a core vertex `q` within `r` of the ellipse along its ray
//!    from the centre, `|q| (1 − 1/|S q|) ≤ r` (the boundary point on that
//!    ray is at least as far as the nearest), is enough; it is tested with
//!    `4ε |q|` added (the rounding of `|S q|` near 1), so a vertex that near
//!    `r` takes the exact distance.
//!
//! Why step 3 is complete: if the nearest segment point `p` is interior, the
//! vector to its nearest ellipse point `e` is perpendicular to the segment, and
//! `e` is the ellipse's support point along `p − e`; the tangent at `e` is then
//! parallel to the line and the ellipse lies beyond it, so the line misses the
//! ellipse and `e = support(−n)`. The distance along a line is convex, so when
//! the foot of `e` is outside the segment, an end point is nearest.
//!
//! Why `|g|` when `g ≤ 0`: the sign of `g` is decided by rounding near
//! tangency, and a line that grazes the ellipse (a polygon's face touching
//! it) can come out with `g ≤ 0` while the end points are far: the end
//! points alone answered their own distance (0.54 for the polygon of
//! `regressions.rs`, whose true distance was 1e-15). `|g| = |f − e|` is the
//! distance of a pair of points of the two shapes, so it never undercuts
//! the true distance. If the line truly meets the ellipse, the distance along
//! it is convex and zero on the chord, which the segment misses, so it
//! grows from the nearer end point through `f`: that end point's distance is
//! at most `dist(f, ellipse) ≤ |f − e|`, and it still wins. If the line
//! grazes the ellipse within rounding, `|g|` is at rounding level and is the
//! answer. No tolerance and no extra root: the foot is computed whatever the
//! sign of `g` (two divisions), and `|g|` compared with the end points'.
//!
//! Exact up to floating point: steps 1–3 are equivalences and closed forms;
//! the only iteration is Eberly's root, converged to the last bit (see
//! `ellipse_ellipse.rs`). Touching at exactly representable coordinates (a
//! face, vertex or rounded end on the ellipse's tip or side) comes out exactly.
//!
//! # The contact ([`core_ellipse_contact`])
//!
//! Two regimes, decided by step 2:
//!
//! - *The core misses the ellipse* (`r > 0`): the Minkowski difference is the
//!   `r`-offset of `core − ellipse`, whose boundary is at distance exactly
//!   `r − dist(core, ellipse)` from the origin along the closest pair's
//!   direction (any point at distance `< r − d` is within `r` of the set, by the
//!   triangle inequality; moving along the closest pair by `r − d` reaches
//!   distance `r`). So the depth is `r − d` and the normal the closest pair's
//!   direction, *exact up to rounding* (the ellipse point is Eberly's closest
//!   point, by the same bracketed Newton iteration).
//! - *The core meets the ellipse*: the depth is `min over unit n of
//!   h(n) = max_i vᵢ·n + r + |diag(rx, ry) Rᵀn| − t·n` (the support function of
//!   `K = A − B`; its minimum is the distance from the origin to `∂K`). `h` is
//!   smooth except where the supporting core vertex changes, at the core's
//!   edge normals (kinks), where the minimum often sits (a face against the
//!   ellipse); the radius of curvature of `∂K` is the ellipse's plus `r`.
//!   - *A point core* (point, circle): the point `q` (ellipse frame) is in
//!     the ellipse, and `K` is the ellipse about `−q` grown by `r`, so the
//!     depth is `r` plus the distance from `q` to the ellipse's boundary,
//!     out through Eberly's nearest boundary point `p` against its outward
//!     normal: closed form, exact up to rounding, no search. Tied
//!     candidates: the mirror of `p` across the major axis when `q` is on
//!     it (to the tie tolerance), and A's `+x` (a circle-shaped ellipse).
//!   - *A segment or polygon core*: the certified search of `search.rs`
//!     from the direction from the core's centroid towards the ellipse's
//!     centre: a local descent (Newton on `h'`, never past the next kink),
//!     then a certificate that the descent's end is the global minimum, or
//!     else a branch and bound over arcs of directions with lower bounds
//!     from the ellipse's curvature. Two certificates: the ellipse's least
//!     radius of curvature `minor²/major` (plus `r`) at least the depth
//!     (then the disk of that radius tangent inside `∂K` holds the ball of
//!     radius the depth); or, for a polygon, the polygon kept exact and the
//!     ellipse replaced by that disk tangent at the descent's support point
//!     (`Overlap`'s `SupportFunction::certify`): the bound's least value
//!     is `r + minor²/major` plus a
//!     point's distance to the nearest edge line. The depth is `h` at the
//!     returned normal, so it is *never below* the true depth, and it is
//!     proved within `2ε·scale` of it plus the rounding of the bounds
//!     (`scale = |t| + reach(A) + r + max(rx, ry)`). In the property tests
//!     (4096 random cases of all eight kinds, aspect ratios up to 50) it
//!     never exceeded the minimum over 2720 sampled directions and A's edge
//!     normals by more than `2e-16·scale` in f64 and `1.2e-7·scale` in f32,
//!     and moving B by `depth ± 16·256ε·scale` (f32: 4.9e-4·scale, f64:
//!     9.1e-13·scale) along the normal separates / does not; it also matches
//!     dense sampling for polygons, slender ellipses (aspect 1e3) and the
//!     aspect-1e4 cases pinned in the tests.
//!
//! `point_a` is A's support point along the normal (a core vertex pushed out by
//! `r`; for the first regime the closest core point pushed out by `r`),
//! `point_b` the ellipse's support point along `−normal` (from the search's
//! support point of `K`, `point_a − point_b`). The contact exists exactly
//! when [`core_ellipse`] says so: it calls it first.
//!
//! # Degenerate cases
//!
//! A core vertex at the ellipse's centre, a core containing the ellipse and
//! concentric symmetric shapes go through the same code without division by
//! zero (edge normals come from non-zero edges: constructors reject coincident
//! end points and duplicate vertices). When several directions give the same
//! depth up to `8ε·scale`, the normal with the smallest angle in `[0, 2π)`
//! counter-clockwise from A's `+x` axis is chosen (compared through a monotone
//! pseudo-angle; a point at the centre of a
//! circle-shaped ellipse gets `+x`). Closest points at distance zero in the
//! first regime (touching through rounding) fall back to the second.
//!
//! Reference: D. Eberly, "Distance from a Point to an Ellipse, an Ellipsoid, or
//! a Hyperellipsoid" (Geometric Tools, 2013); Ericson, *Real-Time Collision
//! Detection*, §5.1.2 (closest point on a segment); seed 004 for the map that
//! makes the ellipse a disk.
//!
//! [`ellipse_ellipse`]: super::ellipse_ellipse

use core::cmp::Ordering;

use nalgebra::{Isometry2, Point2, Unit, Vector2};
use num_traits::Float;
use shape::dim2::ellipse_distance::{
    closest_point_on_filled_ellipse as closest_point_on_ellipse, distance_to_filled_ellipse,
    nearest_boundary_point,
};
use shape::{Ellipse, Real};

use super::search::{self, EllipseTerm, Probe, SupportFunction};
use crate::polygonal::{Polygonal, length_and_direction};
use crate::sat::linear::{SCAN_UP_TO, extreme_index};
use crate::{ClosestPoints, Contact};

/// Whether a rounded core and an ellipse intersect (closed sets: touching
/// counts); exact up to floating point. B is placed by `b_in_a`, its pose in
/// A's local frame. The named pairs (`polygon_ellipse`, …) call this.
///
/// ```
/// use nalgebra::{Isometry2, Point2, Vector2};
/// use narrowphase::ellipse::core_ellipse;
/// use shape::{Capsule, Ellipse};
///
/// let e = Ellipse::new(Vector2::new(2.0, 1.0)).unwrap();
/// // A capsule lying on the ellipse's top: core at y = 2, radius 1.
/// let cap = Capsule::new(Point2::new(-1.0, 2.0), Point2::new(1.0, 2.0), 1.0).unwrap();
/// assert!(core_ellipse(&cap, &e, &Isometry2::identity()));
/// assert!(!core_ellipse(&cap, &e, &Isometry2::translation(0.0, -0.001)));
/// ```
#[must_use]
pub fn core_ellipse<T: Real, A: Polygonal<T>>(
    a: &A,
    b: &Ellipse<T>,
    b_in_a: &Isometry2<T>,
) -> bool {
    let radii = b.radii();
    if bounding_circles_apart(a, radii, b_in_a) {
        return false;
    }
    if core_meets_ellipse(a, radii, b_in_a) {
        return true;
    }
    let r = a.radius();
    r > T::zero() && (radially_within(a, radii, b_in_a, r) || core_distance(a, radii, b_in_a) <= r)
}

/// Whether some core vertex `q` (ellipse frame) is within `r` of the
/// ellipse along the ray from the ellipse's centre: the ellipse's boundary
/// on that ray is at `q / |S q|`, so the gap there is `|q| (1 − 1/|S q|)`,
/// at least the distance: a sufficient test, without Eberly's root. The
/// gap, computed as `|q| (|S q| − 1) / |S q|`, is off by about `2ε |q|`
/// (the rounding of `|S q|` near 1): `4ε |q|` is added, so a vertex that
/// close to `r` goes to the exact test.
#[inline]
fn radially_within<T: Real, A: Polygonal<T>>(
    a: &A,
    radii: Vector2<T>,
    b_in_a: &Isometry2<T>,
    r: T,
) -> bool {
    let slack = T::epsilon() * T::lit(4.0);
    (0..a.core_vertex_count()).any(|i| {
        let q = local_vertex(a, b_in_a, i).coords;
        let mapped = Vector2::new(q.x / radii.x, q.y / radii.y).norm();
        q.norm() * ((mapped - T::one()) / mapped + slack) <= r
    })
}

/// `|v|`, computed on `v` divided by its largest absolute component (no
/// overflow or underflow of the squares).
#[inline]
fn length<T: Real>(v: &Vector2<T>) -> T {
    let m = v.amax();
    if m > T::zero() && m.is_finite() {
        (v / m).norm() * m
    } else {
        m
    }
}

/// Whether a bounding circle of A (about its local origin, of radius the
/// largest `|x| + |y|` of a core vertex plus `r`) and the ellipse's (about its
/// centre) are apart, with a margin above rounding: then so are the shapes. Decided first because the mapped test below moves A's core
/// into the ellipse's frame, where a core far away compared with its size
/// (1/ε times: 1.7e7 in f32) rounds to a point or a flat sliver that would be
/// taken to contain the ellipse's centre.
#[inline]
fn bounding_circles_apart<T: Real, A: Polygonal<T>>(
    a: &A,
    radii: Vector2<T>,
    b_in_a: &Isometry2<T>,
) -> bool {
    // |x| + |y| bounds |v| from above (no square to underflow or overflow,
    // no root): the reach is over-estimated by at most √2, and the test
    // stays a sufficient one.
    let core = (0..a.core_vertex_count()).fold(T::zero(), |m, i| {
        let v = a.core_vertex(i).coords;
        Float::max(m, Float::abs(v.x) + Float::abs(v.y))
    });
    let reach = core + a.radius() + Float::max(radii.x, radii.y);
    length(&b_in_a.translation.vector) > reach * (T::one() + T::epsilon() * T::lit(8.0))
}

/// The minimum translation vector of a rounded core and an ellipse, or `None`
/// when they are apart; in A's frame, the ellipse placed by `b_in_a`.
///
/// `is_some()` always equals [`core_ellipse`] (this function calls it). The
/// normal points from A to B; moving B by `depth · normal` leaves them
/// touching. When the core misses the ellipse (a circle or capsule touching it
/// with its rounding) the result is exact up to rounding; otherwise the depth is
/// `h` at the returned normal, never below the true depth (module notes).
///
/// ```
/// use nalgebra::{Isometry2, Point2, Vector2};
/// use narrowphase::ellipse::core_ellipse_contact;
/// use shape::{Aabb, Ellipse};
///
/// let e = Ellipse::new(Vector2::new(2.0, 1.0)).unwrap();
/// // A box whose left face (x = 1.5) cuts 0.5 into the ellipse's tip.
/// let b = Aabb::new(Point2::new(1.5, -1.0), Point2::new(3.5, 1.0)).unwrap();
/// let c = core_ellipse_contact(&b, &e, &Isometry2::identity()).unwrap();
/// assert!((c.depth - 0.5f64).abs() < 1e-9);
/// assert!((c.normal.x + 1.0).abs() < 1e-9); // from the box towards the ellipse
/// assert!((c.point_b - Point2::new(2.0, 0.0)).norm() < 1e-9);
/// ```
#[must_use]
pub fn core_ellipse_contact<T: Real, A: Polygonal<T>>(
    a: &A,
    b: &Ellipse<T>,
    b_in_a: &Isometry2<T>,
) -> Option<Contact<T>> {
    if !core_ellipse(a, b, b_in_a) {
        return None;
    }
    let radii = b.radii();
    let r = a.radius();
    if r > T::zero() && !core_meets_ellipse(a, radii, b_in_a) {
        // First regime: exact, from the closest pair (B's local frame).
        let (p, e, d, along) = closest_pair(a, radii, b_in_a);
        // The normal is the line's unit normal for a pair along an edge's
        // line; else the closest pair's direction normalised by its own
        // length (scaled first): `d` may come from the line-gap formula and
        // differ from `|e − p|` by many ulps for tiny shapes.
        let v = e - p;
        let m = v.amax();
        if d > T::zero() && d.is_finite() && (along.is_some() || m > T::zero() && m.is_finite()) {
            let u = along.unwrap_or_else(|| {
                let u = v / m;
                u / u.norm()
            });
            let n = b_in_a.rotation * u;
            return Some(Contact {
                normal: Unit::new_unchecked(n),
                depth: Float::max(r - d, T::zero()),
                point_a: b_in_a * p + n * r,
                point_b: b_in_a * e,
            });
        }
    }
    let p = Overlap::new(a, b, b_in_a).minimise();
    let depth = if p.h.is_finite() {
        Float::max(p.h, T::zero())
    } else {
        T::zero()
    };
    // The probe's support point of A − B is A's support point (the core
    // vertex pushed out by r) less B's: B's is the difference.
    let point_a = a.core_vertex(p.piece_ccw) + p.n * r;
    Some(Contact {
        normal: Unit::new_unchecked(p.n),
        depth,
        point_a,
        point_b: point_a - p.ccw,
    })
}

/// The closest points of a rounded core and an ellipse within
/// `max_distance`, in A's frame (the ellipse placed by `b_in_a`);
/// `Intersecting` exactly when [`core_ellipse`] says so.
///
/// Apart, the core misses the ellipse, and its closest pair is the one of
/// step 3 of the test (closed form along an edge whose line misses the
/// ellipse or grazes it within rounding, Eberly's closest point from an end
/// point otherwise); the normal is the line's in the first case, the pair's
/// direction otherwise; the rounding
/// radius moves A's point towards the ellipse along the normal and
/// takes `r` off the distance.
///
/// ```
/// use nalgebra::{Isometry2, Point2, Vector2};
/// use narrowphase::{ClosestPoints, ellipse::core_ellipse_closest_points};
/// use shape::{Circle, Ellipse};
/// let e = Ellipse::new(Vector2::new(2.0, 1.0)).unwrap();
/// let ball = Circle::new(0.5).unwrap();
/// // The ellipse's centre 3 to the right of the ball's: its tip is 1 away,
/// // the ball's rim 0.5 of that.
/// let m = Isometry2::translation(3.0, 0.0);
/// let ClosestPoints::WithinMargin { distance, point_a, point_b, .. } =
///     core_ellipse_closest_points(&ball, &e, &m, 1.0) else { panic!() };
/// assert!((distance - 0.5f64).abs() < 1e-12);
/// assert!((point_a - Point2::new(0.5, 0.0)).norm() < 1e-12);
/// assert!((point_b - Point2::new(1.0, 0.0)).norm() < 1e-12);
/// ```
#[must_use]
pub fn core_ellipse_closest_points<T: Real, A: Polygonal<T>>(
    a: &A,
    b: &Ellipse<T>,
    b_in_a: &Isometry2<T>,
    max_distance: T,
) -> ClosestPoints<T> {
    if core_ellipse(a, b, b_in_a) {
        return ClosestPoints::Intersecting;
    }
    let radii = b.radii();
    let r = a.radius();
    // The bounding circles bound the distance from below.
    // |x| + |y| bounds |v| from above (no square to underflow or overflow,
    // no root): the reach is over-estimated by at most √2, and the test
    // stays a sufficient one.
    let core = (0..a.core_vertex_count()).fold(T::zero(), |m, i| {
        let v = a.core_vertex(i).coords;
        Float::max(m, Float::abs(v.x) + Float::abs(v.y))
    });
    if length(&b_in_a.translation.vector) - (core + r + radii.amax()) > max_distance {
        return ClosestPoints::Farther;
    }
    let (p, e, d, along) = closest_pair(a, radii, b_in_a);
    // The line's normal for a pair along an edge's line, else the direction
    // from the scaled difference (as the contact's first regime); a pair
    // that rounded onto one point takes the direction from the ellipse's
    // centre to the core point, reversed.
    let n = along
        .or_else(|| length_and_direction(e - p).map(|(_, u)| u))
        .or_else(|| length_and_direction(-p.coords).map(|(_, u)| u))
        .unwrap_or_else(Vector2::x);
    let n = b_in_a.rotation * n;
    ClosestPoints::apart(
        b_in_a * p + n * r,
        b_in_a * e,
        Unit::new_unchecked(n),
        d - r,
        max_distance,
    )
}

/// Core vertex `i` in the ellipse's local frame.
#[inline]
fn local_vertex<T: Real, A: Polygonal<T>>(a: &A, b_in_a: &Isometry2<T>, i: usize) -> Point2<T> {
    b_in_a.inverse_transform_point(&a.core_vertex(i))
}

/// Step 2: whether the core meets the filled ellipse, in the mapped plane where
/// the ellipse is the unit disk.
fn core_meets_ellipse<T: Real, A: Polygonal<T>>(
    a: &A,
    radii: Vector2<T>,
    b_in_a: &Isometry2<T>,
) -> bool {
    let mapped = |i: usize| {
        let q = local_vertex(a, b_in_a, i);
        Vector2::new(q.x / radii.x, q.y / radii.y)
    };
    let n = a.core_vertex_count();
    match n {
        0 => false,
        1 => mapped(0).norm_squared() <= T::one(),
        2 => segment_meets_unit_disk(&mapped(0), &mapped(1)),
        _ => {
            // Within 1 of an edge, or the origin inside: on the inner (left)
            // side of every counter-clockwise edge.
            let mut inside = true;
            let mut prev = mapped(n - 1);
            for i in 0..n {
                let cur = mapped(i);
                if segment_meets_unit_disk(&prev, &cur) {
                    return true;
                }
                // Strictly inside every edge: the origin on an edge's line
                // but off the edge (tested just above) is outside a convex
                // polygon, and an edge that rounded to a point (a core tiny
                // next to the ellipse) proves nothing.
                let turn = (cur - prev).perp(&-prev);
                if turn <= T::zero() || turn.is_nan() {
                    inside = false;
                }
                prev = cur;
            }
            inside
        }
    }
}

/// Whether the closed segment `[p, q]` comes within 1 of the origin. The
/// closest point is `p + s·d` with `s = −p·d / |d|²`; in the interior case its
/// squared distance is `(p × d)² / |d|²`, compared without dividing.
#[inline]
fn segment_meets_unit_disk<T: Real>(p: &Vector2<T>, q: &Vector2<T>) -> bool {
    let d = q - p;
    let s = -p.dot(&d);
    if s <= T::zero() {
        return p.norm_squared() <= T::one();
    }
    let dd = d.norm_squared();
    if s >= dd {
        return q.norm_squared() <= T::one();
    }
    let c = p.perp(&d);
    c * c <= dd
}

/// Eberly's distance from `q` (ellipse frame) to the filled ellipse.
#[inline]
fn point_distance<T: Real>(radii: Vector2<T>, q: &Point2<T>) -> T {
    let (x, y) = (Float::abs(q.x), Float::abs(q.y));
    if radii.x >= radii.y {
        distance_to_filled_ellipse(radii.x, radii.y, x, y)
    } else {
        distance_to_filled_ellipse(radii.y, radii.x, y, x)
    }
}

/// The line case of step 3: the ellipse's point nearest the segment's line
/// (its support point `e` against the line's normal) projects into the
/// segment, at the foot `f`.
struct LineGap<T: Real> {
    /// The gap along the line's normal towards the ellipse, `e`'s signed
    /// distance from the line: the distance when positive; at most zero (or
    /// rounded so) when the line meets the ellipse.
    gap: T,
    /// The foot `f` on the segment.
    on_segment: Point2<T>,
    /// The ellipse's support point `e` along `−normal`.
    on_ellipse: Point2<T>,
    /// The line's unit normal `n` towards the ellipse's centre: from A
    /// towards B when the line misses the ellipse or grazes it.
    normal: Vector2<T>,
}

/// The line case of step 3 for the segment `[q0, q1]`, whatever the sign of
/// the gap; `None` when the foot is outside the segment, the edge has no
/// direction or the gap is NaN.
fn line_gap<T: Real>(radii: Vector2<T>, q0: &Point2<T>, q1: &Point2<T>) -> Option<LineGap<T>> {
    let d = q1 - q0;
    // Unit normal towards the ellipse's centre: −q0·n ≥ 0 is the line's
    // distance from the centre. (Length and direction of `d` scaled first:
    // `|d|²` of a tiny edge is subnormal, `|d|` inexact.)
    let (len, u) = length_and_direction(d)?;
    let mut n = Vector2::new(u.y, -u.x);
    let mut side = -q0.coords.dot(&n);
    if side < T::zero() {
        n = -n;
        side = -side;
    }
    // |diag(r) n|: the ellipse's half width along n.
    let reach = Vector2::new(radii.x * n.x, radii.y * n.y).norm();
    let gap = side - reach;
    if gap.is_nan() {
        return None;
    }
    let on_ellipse = Point2::new(
        -radii.x * radii.x * n.x / reach,
        -radii.y * radii.y * n.y / reach,
    );
    let s = (on_ellipse - q0).dot(&u) / len;
    if !(s >= T::zero() && s <= T::one()) {
        return None;
    }
    Some(LineGap {
        gap,
        on_segment: q0 + d * s,
        on_ellipse,
        normal: n,
    })
}

/// Step 3: the distance from a core that misses the ellipse to the ellipse.
fn core_distance<T: Real, A: Polygonal<T>>(a: &A, radii: Vector2<T>, b_in_a: &Isometry2<T>) -> T {
    let n = a.core_vertex_count();
    if n <= 1 {
        return point_distance(radii, &local_vertex(a, b_in_a, 0));
    }
    let mut best = T::infinity();
    let (start, reach) = near_first(a, radii, b_in_a);
    for k in 0..a.core_edge_count() {
        let i = (start + k) % n;
        let q0 = local_vertex(a, b_in_a, i);
        let q1 = local_vertex(a, b_in_a, (i + 1) % n);
        if beyond_reach(&q0, &q1, reach, best) {
            continue;
        }
        let d = match line_gap(radii, &q0, &q1) {
            Some(g) if g.gap > T::zero() => g.gap,
            foot => {
                let ends = Float::min(point_distance(radii, &q0), point_distance(radii, &q1));
                // The line meets the ellipse, or grazes it within rounding
                // (module notes): `|g|` wins only in the second case.
                foot.map_or(ends, |g| Float::min(ends, Float::abs(g.gap)))
            }
        };
        best = Float::min(best, d);
    }
    best
}

/// For a big core (more than `SCAN_UP_TO` vertices): the vertex nearest the
/// ellipse's centre, to start the edge loop from (so that a near edge sets
/// the best distance early), and the ellipse's reach `max(rx, ry)`. For a
/// small core, vertex 0 and an infinite reach: every edge is computed, as
/// before.
fn near_first<T: Real, A: Polygonal<T>>(
    a: &A,
    radii: Vector2<T>,
    b_in_a: &Isometry2<T>,
) -> (usize, T) {
    let n = a.core_vertex_count();
    if n <= SCAN_UP_TO {
        return (0, T::infinity());
    }
    let mut near = (0, T::infinity());
    for i in 0..n {
        let d = local_vertex(a, b_in_a, i).coords.norm_squared();
        if d < near.1 {
            near = (i, d);
        }
    }
    (near.0, radii.amax())
}

/// Whether the edge `q0 → q1` (ellipse frame) cannot hold a point nearer
/// the ellipse than `best`: the ellipse lies in the disk of radius `reach`
/// about its centre, so every point of the edge is at least its distance to
/// the centre minus `reach` from the ellipse (triangle inequality). With an
/// infinite reach, never.
#[inline]
fn beyond_reach<T: Real>(q0: &Point2<T>, q1: &Point2<T>, reach: T, best: T) -> bool {
    reach.is_finite() && {
        let q = shape::dim2::closest_point_on_segment(q0, q1, &Point2::origin());
        q.coords.norm() - reach > best
    }
}

/// The closest pair (core point, ellipse point), its distance and, for a
/// pair along an edge's line, that line's unit normal towards the ellipse
/// (the pair's direction without the rounding of its points), in the
/// ellipse's frame, for a core that misses the ellipse.
fn closest_pair<T: Real, A: Polygonal<T>>(
    a: &A,
    radii: Vector2<T>,
    b_in_a: &Isometry2<T>,
) -> (Point2<T>, Point2<T>, T, Option<Vector2<T>>) {
    let at_point = |q: Point2<T>| {
        let e = closest_point_on_ellipse(radii, &q);
        (q, e, (e - q).norm(), None)
    };
    let n = a.core_vertex_count();
    if n <= 1 {
        return at_point(local_vertex(a, b_in_a, 0));
    }
    let mut best = (Point2::origin(), Point2::origin(), T::infinity(), None);
    let (start, reach) = near_first(a, radii, b_in_a);
    for k in 0..a.core_edge_count() {
        let i = (start + k) % n;
        let q0 = local_vertex(a, b_in_a, i);
        let q1 = local_vertex(a, b_in_a, (i + 1) % n);
        if beyond_reach(&q0, &q1, reach, best.2) {
            continue;
        }
        let candidate = match line_gap(radii, &q0, &q1) {
            Some(g) if g.gap > T::zero() => (g.on_segment, g.on_ellipse, g.gap, Some(g.normal)),
            foot => {
                let (c0, c1) = (at_point(q0), at_point(q1));
                let ends = if c1.2 < c0.2 { c1 } else { c0 };
                // As in `core_distance`: the foot's pair wins only for a
                // line that grazes the ellipse within rounding, its
                // direction the line's normal (`e − f = g·n` itself is
                // rounding, pointing away from the ellipse when `g < 0`).
                match foot {
                    Some(g) if Float::abs(g.gap) < ends.2 => (
                        g.on_segment,
                        g.on_ellipse,
                        Float::abs(g.gap),
                        Some(g.normal),
                    ),
                    _ => ends,
                }
            }
        };
        if candidate.2 < best.2 {
            best = candidate;
        }
    }
    best
}

/// The support function `h(n)` of `K = A − B` (A's frame, B the ellipse
/// placed at `t`): `h(n) = max_i vᵢ·n + r + |diag(rx, ry) Rᵀn| − t·n`. Its
/// smooth pieces are the core vertices; its kinks the core's edge normals.
pub(crate) struct Overlap<'a, T: Real, A: Polygonal<T>> {
    a: &'a A,
    ellipse: EllipseTerm<T>,
    t: Vector2<T>,
    r: T,
    /// `|t|` plus the reaches of both shapes.
    scale: T,
    /// Equal depths within this count as ties.
    tie: T,
}

impl<'a, T: Real, A: Polygonal<T>> Overlap<'a, T, A> {
    pub(crate) fn new(a: &'a A, b: &Ellipse<T>, b_in_a: &Isometry2<T>) -> Self {
        let t = b_in_a.translation.vector;
        let reach2 = (0..a.core_vertex_count())
            .map(|i| a.core_vertex(i).coords.norm_squared())
            .fold(T::zero(), Float::max);
        let scale = t.norm() + b.radii().amax() + a.radius() + Float::sqrt(reach2);
        let rot = b_in_a.rotation;
        Self {
            a,
            ellipse: EllipseTerm::new(b.radii(), rot.cos_angle(), rot.sin_angle()),
            t,
            r: a.radius(),
            scale,
            tie: shape::tolerance::ellipse_tie::<T>() * scale,
        }
    }

    /// The index of the core vertex supporting along `n` (first on ties, as
    /// `core_support`).
    #[inline]
    fn support_index(&self, n: &Vector2<T>) -> usize {
        let count = self.a.core_vertex_count();
        if self.a.has_edge_normals() && count > SCAN_UP_TO {
            // A big polygon: a binary search over its normals, `O(log n)`.
            return extreme_index(self.a, n);
        }
        let mut best = 0;
        let mut best_dot = self.a.core_vertex(0).coords.dot(n);
        for i in 1..count {
            let d = self.a.core_vertex(i).coords.dot(n);
            if d > best_dot {
                best = i;
                best_dot = d;
            }
        }
        best
    }

    /// The probe at `n` with the core's support on either side given.
    #[inline]
    fn probe_at(&self, n: &Vector2<T>, cw: usize, ccw: usize) -> Probe<T> {
        let (w, xe, local) = self.ellipse.at(n);
        let base = xe + n * self.r - self.t;
        let v = self.a.core_vertex(cw).coords;
        let u = if ccw == cw {
            v
        } else {
            self.a.core_vertex(ccw).coords
        };
        Probe {
            n: *n,
            h: (v - self.t).dot(n) + self.r + w,
            cw: v + base,
            ccw: u + base,
            piece_cw: cw,
            piece_ccw: ccw,
            rho: local.rho + self.r,
            locals: [local, local],
        }
    }

    /// The unit outward normal of edge `k` (from vertex `k` to `k + 1`).
    #[inline]
    fn edge_normal(&self, k: usize) -> Vector2<T> {
        if self.a.has_edge_normals() {
            return self.a.core_axis(k);
        }
        let count = self.a.core_vertex_count();
        let next = if k + 1 == count { 0 } else { k + 1 };
        let d = self.a.core_vertex(next) - self.a.core_vertex(k);
        length_and_direction(Vector2::new(d.y, -d.x)).map_or_else(Vector2::x, |(_, u)| u)
    }

    #[inline]
    fn ellipse_radii(&self) -> Vector2<T> {
        self.ellipse.radii()
    }

    /// The probe at the direction of least overlap (with the tie rule).
    fn minimise(&self) -> Probe<T> {
        if self.a.core_vertex_count() == 1 {
            return self.point_minimum();
        }
        // The guess: from the core's centroid towards the ellipse's centre.
        let count = self.a.core_vertex_count();
        let mut sum = Vector2::zeros();
        for i in 0..count {
            sum += self.a.core_vertex(i).coords;
        }
        let toward = self.t - sum / T::lit(count as f64);
        let guess = length_and_direction(toward).map_or_else(Vector2::x, |(_, u)| u);
        let m = search::minimise(self, guess, self.scale, Some(self.tie));
        search::prefer_x(self, &m, self.tie)
    }

    /// A point core inside the ellipse (module notes): out through the
    /// nearest boundary point `p`, against its outward normal; the depth is
    /// `r + |q − p|`. Tied candidates: the mirror image of `p` across the
    /// major axis when the point is within the tie tolerance of that axis,
    /// and A's `+x`.
    fn point_minimum(&self) -> Probe<T> {
        let q = self.a.core_vertex(0).coords - self.t;
        let local = self.ellipse.local(&q);
        let radii = self.ellipse_radii();
        let p = nearest_boundary_point(radii, &Point2::from(local));
        let outward = |p: &Point2<T>| {
            let g = Vector2::new(p.x / radii.x / radii.x, p.y / radii.y / radii.y);
            length_and_direction(g).map(|(_, u)| self.ellipse.global(&-u))
        };
        let mut best = self.probe_at(&outward(&p).unwrap_or_else(Vector2::x), 0, 0);
        let minor_offset = if radii.x >= radii.y { local.y } else { local.x };
        if Float::abs(minor_offset) <= self.tie && radii.x != radii.y {
            let mirror = if radii.x >= radii.y {
                Point2::new(p.x, -p.y)
            } else {
                Point2::new(-p.x, p.y)
            };
            if let Some(n) = outward(&mirror) {
                let other = self.probe_at(&n, 0, 0);
                if other.h < best.h - self.tie
                    || (other.h <= best.h + self.tie
                        && search::pseudo_angle(&other.n) < search::pseudo_angle(&best.n))
                {
                    best = other;
                }
            }
        }
        let m = search::Minimum {
            n: best.n,
            value: best.h,
            probe: best,
            x_low: Float::max(best.cw.x, best.ccw.x),
        };
        search::prefer_x(self, &m, self.tie)
    }
}

impl<T: Real, A: Polygonal<T>> SupportFunction<T> for Overlap<'_, T, A> {
    /// Searched, the supporting vertex may tie with a neighbour: `n` is then
    /// that edge's normal, a kink, and the probe says so.
    #[inline]
    fn probe(&self, n: &Vector2<T>, piece: Option<usize>) -> Probe<T> {
        if let Some(i) = piece {
            return self.probe_at(n, i, i);
        }
        let i = self.support_index(n);
        let count = self.a.core_vertex_count();
        if count >= 2 {
            let (prev, next) = (
                if i == 0 { count - 1 } else { i - 1 },
                if i + 1 == count { 0 } else { i + 1 },
            );
            let vi = self.a.core_vertex(i).coords;
            let d = vi.dot(n);
            if count == 2 {
                if self.a.core_vertex(next).coords.dot(n) == d {
                    // Edge 0's outward normal is (d.y, −d.x) for d = v1 − v0.
                    let e = self.a.core_vertex(1) - self.a.core_vertex(0);
                    return if Vector2::new(e.y, -e.x).dot(n) > T::zero() {
                        self.probe_at(n, 0, 1)
                    } else {
                        self.probe_at(n, 1, 0)
                    };
                }
            } else if self.a.core_vertex(prev).coords.dot(n) == d {
                return self.probe_at(n, prev, i);
            } else if self.a.core_vertex(next).coords.dot(n) == d {
                return self.probe_at(n, i, next);
            }
        }
        self.probe_at(n, i, i)
    }

    /// Turning counter-clockwise, the supporting vertex of a counter-clockwise
    /// core moves from `k` to `k + 1` at the outward normal of edge `k` (a
    /// segment's two normals are its two kinks).
    #[inline]
    fn kink(&self, piece: usize, ccw: bool) -> Option<(Vector2<T>, usize)> {
        let count = self.a.core_vertex_count();
        if count < 2 {
            return None;
        }
        let k = if ccw {
            piece
        } else if piece == 0 {
            count - 1
        } else {
            piece - 1
        };
        Some((self.edge_normal(k), k))
    }

    #[inline]
    fn kink_probe(&self, k: usize) -> Probe<T> {
        let count = self.a.core_vertex_count();
        let next = if k + 1 == count { 0 } else { k + 1 };
        self.probe_at(&self.edge_normal(k), k, next)
    }

    /// The middle edge between `from` and `to`.
    fn kink_between(&self, from: usize, to: usize) -> Probe<T> {
        let count = self.a.core_vertex_count();
        let span = (to + count - from) % count;
        self.kink_probe((from + span.saturating_sub(1) / 2) % count)
    }

    #[inline]
    fn least_curvature(&self) -> T {
        self.ellipse.least_curvature() + self.r
    }

    /// For a polygon core: the ellipse holds the disk `D` of radius
    /// `R = minor²/major` tangent inside it at its support point `e` along
    /// `p` (Blaschke: its radius of curvature is at least `R` everywhere),
    /// so `h(n) ≥ h_P(n) + r + R + (e − R p − t)·n` for every `n`, with
    /// equality at `p`. The right side is the support function of the
    /// polygon grown by `r + R` about the point `y = t − e + R p`: when `y`
    /// is inside the polygon its least value is `r + R` plus the distance
    /// from `y` to the nearest edge line, `min_k (v_k − y)·n_k` (its local
    /// minima are at the edge normals). At least `U − tol` certifies `p`;
    /// with the tie rule, at most one edge may come within `tie` of `U`
    /// (every basin of `h` within `tie` of `U` holds a local minimum of the
    /// bound that low).
    fn certify(&self, p: &Probe<T>, tol: T, tie: Option<T>) -> bool {
        let count = self.a.core_vertex_count();
        if count < 3 {
            return false;
        }
        let radius = self.ellipse.least_curvature();
        // e = p.ccw − (v + r p) + t: the probe's support point less A's.
        let v = self.a.core_vertex(p.piece_ccw).coords;
        let e = p.ccw - v - p.n * self.r + self.t;
        let y = self.t - e + p.n * radius;
        let grown = self.r + radius;
        // Inside the polygon (every d ≥ 0) is required: outside, the least
        // value is minus the distance to the polygon, below every d.
        let floor = Float::max(p.h - tol - grown, T::zero());
        let limit = p.h + tie.unwrap_or_else(T::zero) - grown;
        let mut near = 0;
        for k in 0..count {
            let d = (self.a.core_vertex(k).coords - y).dot(&self.edge_normal(k));
            if d.partial_cmp(&floor).is_none_or(Ordering::is_lt) {
                return false;
            }
            if tie.is_some() && d <= limit {
                near += 1;
            }
        }
        near <= 1
    }

    #[inline]
    fn value(&self, n: &Vector2<T>) -> T {
        let v = self.a.core_vertex(self.support_index(n)).coords;
        let m = self.ellipse.local(n);
        let r = self.ellipse.radii();
        (v - self.t).dot(n) + self.r + Vector2::new(r.x * m.x, r.y * m.y).norm()
    }

    #[inline]
    fn curvature_bounds(&self, a: &Probe<T>, b: &Probe<T>) -> (T, T) {
        let (lo, hi) = self.ellipse.curvature_bounds(&a.locals[0], &b.locals[0]);
        (lo + self.r, hi + self.r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ellipse::{
        aabb_ellipse, aabb_ellipse_contact, capsule_ellipse, capsule_ellipse_contact,
        circle_ellipse, circle_ellipse_contact, obb_ellipse, obb_ellipse_contact, point_ellipse,
        point_ellipse_contact, polygon_ellipse, polygon_ellipse_contact, segment_ellipse,
        segment_ellipse_contact, triangle_ellipse, triangle_ellipse_contact,
    };
    use nalgebra::Translation2;
    use proptest::prelude::*;
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
    use shape::testing::test_tolerance;
    use shape::{
        Aabb, Capsule, Circle, Convex, ConvexPolygon, Obb, Point, Segment, Triangle,
        for_each_precision,
    };
    use std::cell::Cell;

    /// `(cos θ, sin θ)`.
    fn direction<T: Real>(theta: T) -> Vector2<T> {
        Vector2::new(Float::cos(theta), Float::sin(theta))
    }

    // ---- Shapes of every kind behind one enum -----------------------------

    #[derive(Debug, Clone)]
    enum AnyA<T: Real> {
        Point(Point<T>),
        Segment(Segment<T>),
        Circle(Circle<T>),
        Aabb(Aabb<T>),
        Obb(Obb<T>),
        Triangle(Triangle<T>),
        Polygon(ConvexPolygon<T>),
        Capsule(Capsule<T>),
    }

    impl<T: Real> AnyA<T> {
        /// Through the named wrappers.
        fn intersects(&self, e: &Ellipse<T>, p: &Isometry2<T>) -> bool {
            match self {
                Self::Point(a) => point_ellipse(a, e, p),
                Self::Segment(a) => segment_ellipse(a, e, p),
                Self::Circle(a) => circle_ellipse(a, e, p),
                Self::Aabb(a) => aabb_ellipse(a, e, p),
                Self::Obb(a) => obb_ellipse(a, e, p),
                Self::Triangle(a) => triangle_ellipse(a, e, p),
                Self::Polygon(a) => polygon_ellipse(a, e, p),
                Self::Capsule(a) => capsule_ellipse(a, e, p),
            }
        }
        fn contact(&self, e: &Ellipse<T>, p: &Isometry2<T>) -> Option<Contact<T>> {
            match self {
                Self::Point(a) => point_ellipse_contact(a, e, p),
                Self::Segment(a) => segment_ellipse_contact(a, e, p),
                Self::Circle(a) => circle_ellipse_contact(a, e, p),
                Self::Aabb(a) => aabb_ellipse_contact(a, e, p),
                Self::Obb(a) => obb_ellipse_contact(a, e, p),
                Self::Triangle(a) => triangle_ellipse_contact(a, e, p),
                Self::Polygon(a) => polygon_ellipse_contact(a, e, p),
                Self::Capsule(a) => capsule_ellipse_contact(a, e, p),
            }
        }
        fn core(&self) -> &dyn Polygonal<T> {
            match self {
                Self::Point(a) => a,
                Self::Segment(a) => a,
                Self::Circle(a) => a,
                Self::Aabb(a) => a,
                Self::Obb(a) => a,
                Self::Triangle(a) => a,
                Self::Polygon(a) => a,
                Self::Capsule(a) => a,
            }
        }
        /// The shape crate's support function (independent of this file).
        fn convex(&self) -> &dyn Convex<T> {
            match self {
                Self::Point(a) => a,
                Self::Segment(a) => a,
                Self::Circle(a) => a,
                Self::Aabb(a) => a,
                Self::Obb(a) => a,
                Self::Triangle(a) => a,
                Self::Polygon(a) => a,
                Self::Capsule(a) => a,
            }
        }
        fn vertices(&self) -> Vec<Point2<T>> {
            let c = self.core();
            (0..c.core_vertex_count())
                .map(|i| c.core_vertex(i))
                .collect()
        }
        /// Largest `|v| + r`: the shape's reach from its origin.
        fn reach(&self) -> T {
            self.vertices()
                .iter()
                .map(|v| v.coords.norm())
                .fold(T::zero(), Float::max)
                + self.core().radius()
        }
    }

    fn ellipse<T: Real>(rx: f64, ry: f64) -> Ellipse<T> {
        Ellipse::new(Vector2::new(T::lit(rx), T::lit(ry))).unwrap()
    }

    fn pt<T: Real>(x: f64, y: f64) -> Point2<T> {
        Point2::new(T::lit(x), T::lit(y))
    }

    fn at<T: Real>(x: f64, y: f64, angle: f64) -> Isometry2<T> {
        Isometry2::new(Vector2::new(T::lit(x), T::lit(y)), T::lit(angle))
    }

    fn moved<T: Real>(p: &Isometry2<T>, n: &Vector2<T>, s: T) -> Isometry2<T> {
        Isometry2::from_parts(Translation2::from(p.translation.vector + n * s), p.rotation)
    }

    fn scale_of<T: Real>(a: &AnyA<T>, e: &Ellipse<T>, p: &Isometry2<T>) -> T {
        p.translation.vector.norm() + a.reach() + e.radii().amax()
    }

    /// The contact, checked for its own consistency.
    fn contact<T: Real>(a: &AnyA<T>, e: &Ellipse<T>, p: &Isometry2<T>) -> Contact<T> {
        let c = a.contact(e, p).expect("intersecting");
        let tol = test_tolerance(scale_of(a, e, p));
        assert!(c.depth.is_finite() && c.depth >= T::zero(), "{c:?}");
        assert!(c.normal.x.is_finite() && c.normal.y.is_finite());
        assert!(Float::abs(c.normal.norm() - T::one()) < tol);
        assert!(
            Float::abs((c.point_a - c.point_b).dot(&c.normal) - c.depth) < tol * T::lit(4.0),
            "{c:?}"
        );
        c
    }

    /// The push used to check a contact: well above the boolean's rounding.
    fn push_epsilon<T: Real>(scale: T) -> T {
        test_tolerance(scale) * T::lit(16.0)
    }

    /// Moving B by the depth plus a little along the normal separates; by the
    /// depth minus a little, it does not.
    fn check_push_out<T: Real>(a: &AnyA<T>, e: &Ellipse<T>, p: &Isometry2<T>, c: &Contact<T>) {
        let eps = push_epsilon(scale_of(a, e, p));
        let n = c.normal.into_inner();
        assert!(
            !a.intersects(e, &moved(p, &n, c.depth + eps)),
            "{a:?} {p:?} {c:?}"
        );
        if c.depth > eps {
            assert!(
                a.intersects(e, &moved(p, &n, c.depth - eps)),
                "{a:?} {p:?} {c:?}"
            );
        }
    }

    // ---- Known values -----------------------------------------------------

    /// A shape, the ellipse's centre when touching, the unit direction that
    /// separates.
    type TouchCase<T> = (AnyA<T>, (f64, f64), (f64, f64));

    /// Each pair touching the ellipse (2, 1) at its tip (2, 0) or side (0, 1),
    /// at exactly representable coordinates, and a hair apart.
    fn touching_at_exact_coordinates<T: Real>() {
        let e = ellipse::<T>(2.0, 1.0);
        let hair = T::epsilon() * T::lit(16.0);
        let h = hair.as_f64();
        let seg = |x0, y0, x1, y1| Segment::new(pt(x0, y0), pt(x1, y1)).unwrap();
        let tri = |p: [(f64, f64); 3]| {
            Triangle::new(pt(p[0].0, p[0].1), pt(p[1].0, p[1].1), pt(p[2].0, p[2].1)).unwrap()
        };
        let poly = |p: &[(f64, f64)]| {
            ConvexPolygon::new(&p.iter().map(|&(x, y)| pt(x, y)).collect::<Vec<_>>()).unwrap()
        };
        // (shape, ellipse centre when touching, unit direction that separates)
        let cases: Vec<TouchCase<T>> = vec![
            (
                AnyA::Point(Point::new(pt(2.0, 0.0)).unwrap()),
                (0.0, 0.0),
                (-1.0, 0.0),
            ),
            (
                AnyA::Point(Point::new(pt(0.0, 1.0)).unwrap()),
                (0.0, 0.0),
                (0.0, -1.0),
            ),
            (
                AnyA::Segment(seg(2.0, -1.0, 2.0, 1.0)),
                (0.0, 0.0),
                (-1.0, 0.0),
            ),
            (
                AnyA::Segment(seg(-3.0, 1.0, 5.0, 1.0)),
                (0.0, 0.0),
                (0.0, -1.0),
            ),
            (
                AnyA::Circle(Circle::new(T::one()).unwrap()),
                (-3.0, 0.0),
                (-1.0, 0.0),
            ),
            (
                AnyA::Circle(Circle::new(T::one()).unwrap()),
                (0.0, -2.0),
                (0.0, -1.0),
            ),
            (
                AnyA::Aabb(Aabb::new(pt(2.0, -1.0), pt(4.0, 1.0)).unwrap()),
                (0.0, 0.0),
                (-1.0, 0.0),
            ),
            (
                AnyA::Aabb(Aabb::new(pt(-1.0, 1.0), pt(1.0, 2.0)).unwrap()),
                (0.0, 0.0),
                (0.0, -1.0),
            ),
            (
                AnyA::Obb(Obb::new(Vector2::new(T::one(), T::one())).unwrap()),
                (-3.0, 0.0),
                (-1.0, 0.0),
            ),
            (
                AnyA::Obb(Obb::new(Vector2::new(T::lit(3.0), T::one())).unwrap()),
                (0.0, 2.0),
                (0.0, 1.0),
            ),
            (
                AnyA::Triangle(tri([(2.0, 0.0), (4.0, -1.0), (4.0, 1.0)])),
                (0.0, 0.0),
                (-1.0, 0.0),
            ),
            (
                AnyA::Triangle(tri([(0.0, 1.0), (1.0, 3.0), (-1.0, 3.0)])),
                (0.0, 0.0),
                (0.0, -1.0),
            ),
            (
                AnyA::Polygon(poly(&[
                    (2.0, -1.0),
                    (3.0, -1.5),
                    (4.0, 0.0),
                    (3.0, 1.5),
                    (2.0, 1.0),
                ])),
                (0.0, 0.0),
                (-1.0, 0.0),
            ),
            (
                AnyA::Polygon(poly(&[(-2.0, 1.0), (2.0, 1.0), (0.0, 3.0)])),
                (0.0, 0.0),
                (0.0, -1.0),
            ),
            (
                AnyA::Capsule(Capsule::new(pt(3.0, 0.0), pt(5.0, 0.0), T::one()).unwrap()),
                (0.0, 0.0),
                (-1.0, 0.0),
            ),
            (
                AnyA::Capsule(Capsule::new(pt(-1.0, 2.0), pt(1.0, 2.0), T::one()).unwrap()),
                (0.0, 0.0),
                (0.0, -1.0),
            ),
            // The rounded end on the side, the core's line through the ellipse.
            (
                AnyA::Capsule(Capsule::new(pt(0.0, 2.0), pt(0.0, 5.0), T::one()).unwrap()),
                (0.0, 0.0),
                (0.0, -1.0),
            ),
        ];
        for (a, (x, y), (dx, dy)) in &cases {
            let touching = at::<T>(*x, *y, 0.0);
            let apart = at::<T>(x + dx * h, y + dy * h, 0.0);
            let inside = at::<T>(x - dx * 1e-3, y - dy * 1e-3, 0.0);
            assert!(a.intersects(&e, &touching), "{a:?} touching");
            assert!(!a.intersects(&e, &apart), "{a:?} a hair apart");
            assert!(a.contact(&e, &apart).is_none(), "{a:?}");
            assert!(a.intersects(&e, &inside), "{a:?} a hair in");
            let c = contact(a, &e, &touching);
            assert!(c.depth < test_tolerance(T::lit(10.0)), "{a:?} {c:?}");
            let want = Vector2::new(T::lit(*dx), T::lit(*dy));
            assert!(
                (c.normal.into_inner() - want).norm() < T::lit(1e-3),
                "{a:?} {c:?}"
            );
            let c = contact(a, &e, &inside);
            assert!(
                Float::abs(c.depth - T::lit(1e-3)) < T::lit(1e-5),
                "{a:?} {c:?}"
            );
            check_push_out(a, &e, &inside, &c);
        }
    }
    for_each_precision!(touching, touching_at_exact_coordinates);

    /// Regression (found by `tests/suite/degenerate.rs`): a segment crossing an
    /// ellipse of aspect 1e4 (1e-4 × 1), whose curvature runs from 1e-8 to
    /// 1e4. The branch and bound took no Newton step where the gain was
    /// tiny (the curvature there is 1e4) while the disk bound (radius 1.7)
    /// still needed the slope gone, bisected towards that end until out of
    /// room, and answered 0.35889 for 0.35862.
    #[test]
    fn segment_across_a_slender_ellipse_finds_the_minimum() {
        let e = Ellipse::new(Vector2::new(0.0001f64, 1.0)).unwrap();
        let pose_e = Isometry2::from_parts(
            Translation2::new(-0.029052978508365523, -0.12001921308046537),
            nalgebra::UnitComplex::from_cos_sin_unchecked(0.9993975590895714, 0.03470617936054961),
        );
        let pose_s = Isometry2::from_parts(
            Translation2::new(-0.05905881909331545, -0.3585234806262505),
            nalgebra::UnitComplex::from_cos_sin_unchecked(-0.989446632511951, -0.14489776192460743),
        );
        let s = AnyA::Segment(Segment::new(pt(-0.4, 0.1), pt(0.3, -0.2)).unwrap());
        let p = pose_s.inv_mul(&pose_e);
        let c = contact(&s, &e, &p);
        let least = (0..200_000)
            .map(|k| direction(core::f64::consts::TAU * k as f64 / 200_000.0))
            .map(|n| overlap_along(&s, &e, &p, &n))
            .fold(f64::INFINITY, f64::min);
        assert!(c.depth <= least + 1e-12, "{c:?} {least}");
        assert!(Float::abs(c.depth - 0.358_623) < 1e-6, "{c:?}");
    }

    /// A circle whose centre is inside the ellipse (2, 1), on an axis: out
    /// through the nearer vertex along the axis when it is the nearest
    /// boundary point, depth `r + (distance to it)`. On the major axis that
    /// holds beyond the centre of curvature of the vertex, `x > (a² − b²)/a =
    /// 1.5` (nearer the centre the nearest point leaves the axis); on the
    /// minor axis always (the co-vertex's radius of curvature `a²/b = 4`
    /// exceeds any distance inside). Closed form (Eberly's nearest boundary
    /// point), exact up to rounding.
    fn circle_inside_on_an_axis<T: Real>() {
        let e = ellipse::<T>(2.0, 1.0);
        let tol = test_tolerance(T::lit(10.0));
        let a = AnyA::Circle(Circle::new(T::half()).unwrap());
        // Circle centre at (1.7, 0) in the ellipse's frame: 0.3 from the tip.
        let c = contact(&a, &e, &at(-1.7, 0.0, 0.0));
        assert!(Float::abs(c.depth - T::lit(0.8)) < tol, "{c:?}");
        assert!(Float::abs(c.normal.x + T::one()) < tol, "{c:?}");
        check_push_out(&a, &e, &at(-1.7, 0.0, 0.0), &c);
        // At (0, 0.6): 0.4 below the top.
        let c = contact(&a, &e, &at(0.0, -0.6, 0.0));
        assert!(Float::abs(c.depth - T::lit(0.9)) < tol, "{c:?}");
        assert!(Float::abs(c.normal.y + T::one()) < tol, "{c:?}");
        // The ellipse turned a quarter: the same, along A's axes swapped.
        let c = contact(&a, &e, &at(0.0, -1.7, core::f64::consts::FRAC_PI_2));
        assert!(Float::abs(c.depth - T::lit(0.8)) < tol, "{c:?}");
        assert!(Float::abs(c.normal.y + T::one()) < T::lit(1e-3), "{c:?}");
        // Inside the evolute, at (1, 0): off the axis, to the foot
        // x = a²·1/(a² − b²) = 4/3 of the nearest point, y = ±√(1 − (x/2)²);
        // distance √((4/3 − 1)² + 5/9) = √(2/3), the two sides tied: +y.
        let c = contact(&a, &e, &at(-1.0, 0.0, 0.0));
        let want = 0.5 + (2.0f64 / 3.0).sqrt();
        assert!(Float::abs(c.depth - T::lit(want)) < tol, "{c:?}");
        assert!(c.normal.y > T::zero(), "{c:?}");
        check_push_out(&a, &e, &at(-1.0, 0.0, 0.0), &c);
    }
    for_each_precision!(circle_on_axis, circle_inside_on_an_axis);

    /// Point and circle cores inside the ellipse (the closed form) against
    /// the least support overlap over 20000 directions, aspect up to 1e3.
    fn prop_point_cores_match_dense_sampling<T: Real>() {
        let strategy = (
            (-1.0f64..1.0, -1.0f64..1.0),
            (0.0f64..3.0, 0.2f64..3.0),
            0.0f64..0.5,
            -3.2f64..3.2,
        );
        runner(64)
            .run(&strategy, |((x, y), (aspect, major), r, angle)| {
                let minor = major / 10f64.powf(aspect);
                let e = ellipse::<T>(major, minor);
                // A point of the ellipse's interior, in A's frame.
                let (qx, qy) = (x * major * 0.99, y * minor * 0.99 * (1.0 - x * x).sqrt());
                let turn = Isometry2::new(Vector2::zeros(), angle);
                let q = turn * Point2::new(qx, qy);
                let p = at::<T>(-q.x, -q.y, angle);
                let a = if r > 0.25 {
                    AnyA::Circle(Circle::new(T::lit(r)).unwrap())
                } else {
                    AnyA::Point(Point::origin())
                };
                let c = contact(&a, &e, &p);
                let least = (0..20000)
                    .map(|k| direction(T::two_pi() * T::lit(k as f64 / 20000.0)))
                    .map(|n| overlap_along(&a, &e, &p, &n))
                    .fold(T::infinity(), Float::min);
                let scale = scale_of(&a, &e, &p);
                prop_assert!(c.depth <= least + test_tolerance(scale), "{c:?} {least:?}");
                check_push_out(&a, &e, &p, &c);
                Ok(())
            })
            .unwrap();
    }
    for_each_precision!(prop_point_cores, prop_point_cores_match_dense_sampling);

    fn contact_known_values<T: Real>() {
        let e = ellipse::<T>(2.0, 1.0);
        let tol = test_tolerance(T::lit(10.0));
        let id = Isometry2::identity();
        let close = |p: Point2<T>, x: f64, y: f64| (p - pt::<T>(x, y)).norm() < tol;
        // A face 0.5 into the tip.
        let a = AnyA::Aabb(Aabb::new(pt(1.5, -1.0), pt(3.5, 1.0)).unwrap());
        let c = contact(&a, &e, &id);
        assert!(Float::abs(c.depth - T::half()) < tol && Float::abs(c.normal.x + T::one()) < tol);
        assert!(close(c.point_b, 2.0, 0.0) && Float::abs(c.point_a.x - T::lit(1.5)) < tol);
        // A circle whose centre is outside (first regime, exact).
        let a = AnyA::Circle(Circle::new(T::one()).unwrap());
        let c = contact(&a, &e, &at(-2.5, 0.0, 0.0));
        assert!(Float::abs(c.depth - T::half()) < tol && Float::abs(c.normal.x + T::one()) < tol);
        assert!(
            close(c.point_a, -1.0, 0.0) && close(c.point_b, -0.5, 0.0),
            "{c:?}"
        );
        // A capsule lying over the side (first regime, the line case).
        let a = AnyA::Capsule(Capsule::new(pt(-1.0, 1.5), pt(1.0, 1.5), T::one()).unwrap());
        let c = contact(&a, &e, &id);
        assert!(Float::abs(c.depth - T::half()) < tol && Float::abs(c.normal.y + T::one()) < tol);
        assert!(
            close(c.point_b, 0.0, 1.0) && close(c.point_a, 0.0, 0.5),
            "{c:?}"
        );
        // A point at the centre: out along the minor axis; +y by the tie rule.
        let a = AnyA::Point(Point::origin());
        let c = contact(&a, &e, &id);
        assert!(Float::abs(c.depth - T::one()) < tol && Float::abs(c.normal.y - T::one()) < tol);
        // A point at the centre of a round ellipse: every direction ties, +x.
        let c = contact(&a, &ellipse(1.5, 1.5), &id);
        assert!(Float::abs(c.depth - T::lit(1.5)) < tol);
        assert!(Float::abs(c.normal.x - T::one()) < T::lit(1e-3), "{c:?}");
        // The ellipse inside a square of half width 5: out through ±y (6 < 7), +y.
        let sq = [(-5.0, -5.0), (5.0, -5.0), (5.0, 5.0), (-5.0, 5.0)].map(|(x, y)| pt::<T>(x, y));
        let a = AnyA::Polygon(ConvexPolygon::new(&sq).unwrap());
        let c = contact(&a, &e, &id);
        assert!(Float::abs(c.depth - T::lit(6.0)) < tol && Float::abs(c.normal.y - T::one()) < tol);
        check_push_out(&a, &e, &id, &c);
        // A small box inside the ellipse: 0.1 + 1 through ±y.
        let a = AnyA::Aabb(Aabb::new(pt(-0.1, -0.1), pt(0.1, 0.1)).unwrap());
        let c = contact(&a, &e, &id);
        assert!(Float::abs(c.depth - T::lit(1.1)) < tol && Float::abs(c.normal.y - T::one()) < tol);
        // A capsule through the middle along x, turned ellipse: finite, valid.
        let a = AnyA::Capsule(Capsule::new(pt(-4.0, 0.0), pt(4.0, 0.0), T::half()).unwrap());
        let p = at::<T>(0.3, -0.2, 0.7);
        let c = contact(&a, &e, &p);
        check_push_out(&a, &e, &p, &c);
        // A slender ellipse (aspect 1e4) poked at its tip and across its waist.
        let thin = ellipse::<T>(1e4, 1.0);
        let big_tol = test_tolerance(T::lit(2e4));
        let a = AnyA::Circle(Circle::new(T::one()).unwrap());
        let c = contact(&a, &thin, &at(-1e4 - 0.5, 0.0, 0.0));
        assert!(Float::abs(c.depth - T::half()) < big_tol, "{c:?}");
        let a = AnyA::Segment(Segment::new(pt(0.0, -3.0), pt(0.0, 3.0)).unwrap());
        let c = contact(&a, &thin, &at(5000.0, 0.0, 0.0));
        assert!(Float::abs(c.depth - T::lit(1e4 - 5000.0)) > T::zero());
        check_push_out(&a, &thin, &at(5000.0, 0.0, 0.0), &c);
    }
    for_each_precision!(contact_known, contact_known_values);

    /// Eberly's closest point: on an axis, a 3-4-5 circle, and against the
    /// distance routine shared with `ellipse_ellipse`.
    fn closest_point_known_values<T: Real>() {
        let tol = test_tolerance(T::lit(10.0));
        let r = Vector2::new(T::lit(3.0), T::two());
        let q = closest_point_on_ellipse(r, &pt(-5.0, 0.0));
        assert_eq!(q, pt(-3.0, 0.0));
        let q = closest_point_on_ellipse(r, &pt(0.0, -5.0));
        assert_eq!(q, pt(0.0, -2.0));
        let q = closest_point_on_ellipse(Vector2::new(T::lit(5.0), T::lit(5.0)), &pt(6.0, -8.0));
        assert!((q - pt(3.0, -4.0)).norm() < tol);
        for (x, y) in [(4.0, 3.0), (-0.5, 3.5), (10.0, -0.1), (-1.0, -7.0)] {
            for radii in [r, Vector2::new(T::two(), T::lit(3.0))] {
                let p = pt::<T>(x, y);
                let q = closest_point_on_ellipse(radii, &p);
                let d = point_distance(radii, &p);
                assert!(Float::abs((q - p).norm() - d) < tol, "{x} {y}");
                let on = q.x * q.x / (radii.x * radii.x) + q.y * q.y / (radii.y * radii.y);
                assert!(Float::abs(on - T::one()) < tol);
            }
        }
    }
    for_each_precision!(closest_point, closest_point_known_values);

    // ---- Property tests ----------------------------------------------------

    /// One random configuration, in f64: A's kind, size and shape parameters,
    /// the ellipse's radii and pose in A's frame, and a rigid motion.
    #[derive(Debug, Clone, Copy)]
    struct Case {
        kind: u8,
        size: f64,
        u: [f64; 8],
        radii: (f64, f64),
        pose: (f64, f64, f64),
        motion: (f64, f64, f64),
    }

    fn cases() -> impl Strategy<Value = Case> {
        let size = (-0.7f64..1.0).prop_map(|e| 10f64.powf(e));
        let angle = -core::f64::consts::PI..core::f64::consts::PI;
        (
            0u8..8,
            size.clone(),
            proptest::array::uniform8(-1.0f64..1.0),
            (size.clone(), size),
            (0.0f64..1.2, angle.clone(), angle.clone()),
            (-100.0f64..100.0, -100.0f64..100.0, angle),
        )
            .prop_map(|(kind, size, u, radii, (f, dir, turn), motion)| {
                let mut case = Case {
                    kind,
                    size,
                    u,
                    radii,
                    pose: (0.0, 0.0, turn),
                    motion,
                };
                let reach = case.shape::<f64>(&Isometry2::identity()).reach();
                let d = f * (reach + radii.0.max(radii.1));
                case.pose = (d * dir.cos(), d * dir.sin(), turn);
                case
            })
    }

    fn runner(cases: u32) -> TestRunner {
        // A fixed seed: every run checks the same cases; no persistence files.
        let config = Config {
            cases: shape::testing::cases(cases),
            failure_persistence: None,
            ..Config::default()
        };
        TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha))
    }

    impl Case {
        /// A's shape with its defining points moved by `m` (the kinds whose
        /// data cannot express `m` ignore it: see [`Case::motion_for`]).
        fn shape<T: Real>(&self, m: &Isometry2<f64>) -> AnyA<T> {
            let (s, u) = (self.size, self.u);
            let p = |x: f64, y: f64| {
                let q = m * Point2::new(x, y);
                pt::<T>(q.x, q.y)
            };
            let pi = core::f64::consts::PI;
            let (ax, ay) = (u[0] * s, u[1] * s);
            let (bx, by) = (ax + s * (pi * u[2]).cos(), ay + s * (pi * u[2]).sin());
            match self.kind {
                0 => AnyA::Point(Point::new(p(ax, ay)).unwrap()),
                1 => AnyA::Segment(Segment::new(p(ax, ay), p(bx, by)).unwrap()),
                2 => AnyA::Circle(Circle::new(T::lit(s)).unwrap()),
                3 => AnyA::Aabb(
                    Aabb::new(
                        p(ax, ay),
                        p(ax + (0.2 + u[2].abs()) * s, ay + (0.2 + u[3].abs()) * s),
                    )
                    .unwrap(),
                ),
                4 => AnyA::Obb(
                    Obb::new(Vector2::new(
                        T::lit((0.2 + u[0].abs()) * s),
                        T::lit((0.2 + u[1].abs()) * s),
                    ))
                    .unwrap(),
                ),
                5 => {
                    let t0 = pi * u[0];
                    let v = [
                        t0,
                        t0 + 2.0 * pi / 3.0 + 0.5 * u[1],
                        t0 + 4.0 * pi / 3.0 + 0.5 * u[2],
                    ]
                    .map(|t| p(s * t.cos() + 0.5 * s * u[3], s * t.sin() + 0.5 * s * u[4]));
                    AnyA::Triangle(Triangle::new(v[0], v[1], v[2]).unwrap())
                }
                6 => {
                    let n = 3 + (u[5].abs() * 5.0) as usize;
                    let step = 2.0 * pi / n as f64;
                    let v: Vec<Point2<T>> = (0..n)
                        .map(|k| {
                            let t = step * (k as f64 + 0.35 * u[k % 8]);
                            let w = if k % 2 == 0 {
                                1.0
                            } else {
                                0.6 + 0.4 * u[6].abs()
                            };
                            p(s * w * t.cos() + 0.3 * s * u[7], s * t.sin())
                        })
                        .collect();
                    AnyA::Polygon(ConvexPolygon::from_hull(&v).unwrap())
                }
                _ => AnyA::Capsule(
                    Capsule::new(p(ax, ay), p(bx, by), T::lit((0.1 + 0.5 * u[3].abs()) * s))
                        .unwrap(),
                ),
            }
        }

        /// The ellipse and its pose in A's frame.
        fn ellipse<T: Real>(&self) -> (Ellipse<T>, Isometry2<T>) {
            (
                ellipse(self.radii.0, self.radii.1),
                at(self.pose.0, self.pose.1, self.pose.2),
            )
        }

        /// The part of the case's rigid motion A's data can carry: all of it for
        /// vertex-defined kinds, a rotation for the circle, a translation for
        /// the AABB, none for the OBB.
        fn motion_for(&self) -> Isometry2<f64> {
            let (x, y, a) = self.motion;
            match self.kind {
                2 => Isometry2::rotation(a),
                3 => Isometry2::translation(x, y),
                4 => Isometry2::identity(),
                _ => Isometry2::new(Vector2::new(x, y), a),
            }
        }

        fn scale(&self) -> f64 {
            let (a, _) = (self.shape::<f64>(&Isometry2::identity()), ());
            self.pose.0.hypot(self.pose.1) + a.reach() + self.radii.0.max(self.radii.1)
        }
    }

    /// The signed distance from `p` to A (negative inside), in f64.
    fn signed_distance(a: &AnyA<f64>, p: &Point2<f64>) -> f64 {
        let v = a.vertices();
        let r = a.core().radius();
        let to_segment = |a: &Point2<f64>, b: &Point2<f64>| (closest(a, b, p) - p).norm();
        let core = match v.len() {
            1 => (v[0] - p).norm(),
            2 => to_segment(&v[0], &v[1]),
            n => {
                let mut inside = f64::NEG_INFINITY;
                let mut outside = f64::INFINITY;
                for i in 0..n {
                    let (a, b) = (v[i], v[(i + 1) % n]);
                    let d = b - a;
                    let normal = Vector2::new(d.y, -d.x).normalize();
                    inside = inside.max((p - a).dot(&normal));
                    outside = outside.min(to_segment(&a, &b));
                }
                if inside <= 0.0 { inside } else { outside }
            }
        };
        core - r
    }

    fn closest(a: &Point2<f64>, b: &Point2<f64>, p: &Point2<f64>) -> Point2<f64> {
        let d = b - a;
        let t = ((p - a).dot(&d) / d.norm_squared()).clamp(0.0, 1.0);
        a + d * t
    }

    /// The slow reference, in f64: `Some(true)` when one of 2000 points of the
    /// core (vertices and points along the edges) is strictly inside the
    /// ellipse, or one of 2000 boundary points of the ellipse is inside A by
    /// more than 1e-6·scale; `Some(false)` when every sampled boundary point of
    /// the ellipse is farther from A than the widest sampling gap plus that
    /// margin; `None` (too close to call) otherwise.
    fn reference(case: &Case) -> Option<bool> {
        const N: usize = 2000;
        let a = case.shape::<f64>(&Isometry2::identity());
        let (e, pose) = case.ellipse::<f64>();
        let r = e.radii();
        let margin = 1e-6 * case.scale();
        let v = a.vertices();
        let edges = if v.len() < 2 {
            0
        } else if v.len() == 2 {
            1
        } else {
            v.len()
        };
        let per_edge = N.checked_div(edges).unwrap_or(0);
        let mut core_points = v.clone();
        for i in 0..edges {
            for k in 1..per_edge {
                let t = k as f64 / per_edge as f64;
                core_points.push(v[i] + (v[(i + 1) % v.len()] - v[i]) * t);
            }
        }
        if core_points.iter().any(|q| {
            let q = pose.inverse_transform_point(q);
            (q.x / r.x).powi(2) + (q.y / r.y).powi(2) < 1.0 - 1e-6
        }) {
            return Some(true);
        }
        let mut least = f64::INFINITY;
        let mut gap = 0.0f64;
        let boundary = |k: usize| {
            let phi = core::f64::consts::TAU * k as f64 / N as f64;
            pose * Point2::new(r.x * phi.cos(), r.y * phi.sin())
        };
        for k in 0..N {
            let q = boundary(k);
            gap = gap.max((boundary(k + 1) - q).norm());
            least = least.min(signed_distance(&a, &q));
        }
        if least < -margin {
            Some(true)
        } else if least > gap + margin {
            Some(false)
        } else {
            None
        }
    }

    fn prop_agrees_with_reference<T: Real>() {
        let (skipped, hits) = (Cell::new(0u32), Cell::new(0u32));
        runner(256)
            .run(&cases(), |case| {
                let a = case.shape::<T>(&Isometry2::identity());
                let (e, p) = case.ellipse::<T>();
                let exact = a.intersects(&e, &p);
                prop_assert_eq!(a.contact(&e, &p).is_some(), exact);
                hits.set(hits.get() + u32::from(exact));
                match reference(&case) {
                    Some(truth) => prop_assert_eq!(exact, truth, "{:?}", case),
                    None => skipped.set(skipped.get() + 1),
                }
                Ok(())
            })
            .unwrap();
        let n = u64::from(shape::testing::cases(256));
        println!(
            "reference unclear (skipped): {} of {n}; intersecting: {}",
            skipped.get(),
            hits.get()
        );
        // Under 16 per 256 cases; between a quarter and 7/8 intersecting.
        let (skipped, hits) = (u64::from(skipped.get()), u64::from(hits.get()));
        assert!(
            skipped * 256 < 16 * n,
            "too many unclear cases: {}",
            skipped
        );
        assert!(hits * 4 > n && hits * 8 < 7 * n, "unbalanced: {}", hits);
    }
    for_each_precision!(prop_reference, prop_agrees_with_reference);

    /// Moving both shapes by one rigid motion (A's data moved, the ellipse's
    /// pose composed) changes neither the answer nor the depth, and turns the
    /// normal with the motion (or picks another equally deep direction).
    fn prop_invariant_under_rigid_motion<T: Real>() {
        runner(256)
            .run(&cases(), |case| {
                if reference(&case).is_none() {
                    return Ok(());
                }
                let a = case.shape::<T>(&Isometry2::identity());
                let (e, p) = case.ellipse::<T>();
                let m = case.motion_for();
                let a2 = case.shape::<T>(&m);
                let (x, y, angle) = case.motion;
                let w = at::<T>(x, y, angle);
                // The part of the motion A carries, then the rest as a world
                // pose of both (recomposed, so only rounding changes).
                let mt = at::<T>(m.translation.x, m.translation.y, m.rotation.angle());
                let p2 = w.inverse() * (w * (mt * p));
                let exact = a.intersects(&e, &p);
                prop_assert_eq!(a2.intersects(&e, &p2), exact, "{:?}", case);
                if !exact {
                    return Ok(());
                }
                let scale = T::lit(case.scale() + 150.0);
                let tol = test_tolerance(scale) * T::lit(4.0);
                let c1 = contact(&a, &e, &p);
                let c2 = contact(&a2, &e, &p2);
                prop_assert!(
                    Float::abs(c1.depth - c2.depth) < tol,
                    "{:?} {:?} {:?}",
                    case,
                    c1,
                    c2
                );
                let turned = mt.rotation * c1.normal.into_inner();
                let n2 = c2.normal.into_inner();
                if (turned - n2).norm() > T::lit(1e-3) {
                    let other = mt.rotation.inverse() * n2;
                    prop_assert!(
                        Float::abs(overlap_along(&a, &e, &p, &other) - c1.depth) < tol,
                        "{:?}",
                        case
                    );
                }
                Ok(())
            })
            .unwrap();
    }
    for_each_precision!(prop_invariance, prop_invariant_under_rigid_motion);

    /// Externally tangent pairs built exactly: a direction `u` (A's frame), the
    /// ellipse placed so that its support point along `−u` is A's support point
    /// along `u`. Moved out along `u` by a hair they are apart (the line through
    /// that point normal to `u` separates them), moved in by a hair they
    /// intersect, and moved in by `s` the depth is at most `s` and a true
    /// minimum translation.
    fn prop_tangent_configurations<T: Real>() {
        let angle = -core::f64::consts::PI..core::f64::consts::PI;
        let strategy = (cases(), angle, 0.01f64..0.5);
        runner(256)
            .run(&strategy, |(case, dir, push)| {
                let a = case.shape::<T>(&Isometry2::identity());
                let (e, p) = case.ellipse::<T>();
                let u = direction(T::lit(dir));
                let s_a = a.convex().support_point(&Isometry2::identity(), &u);
                let s_b = p.rotation
                    * e.local_support_point(&p.rotation.inverse_transform_vector(&-u))
                        .coords;
                let touching =
                    Isometry2::from_parts(Translation2::from(s_a.coords - s_b), p.rotation);
                let scale = scale_of(&a, &e, &touching);
                let eps = push_epsilon(scale);
                prop_assert!(!a.intersects(&e, &moved(&touching, &u, eps)), "{:?}", case);
                prop_assert!(a.intersects(&e, &moved(&touching, &u, -eps)), "{:?}", case);
                // Exactly at the tangent rounding decides; if it is a contact, a tiny one.
                let Some(c) = a
                    .contact(&e, &touching)
                    .or(a.contact(&e, &moved(&touching, &u, -eps)))
                else {
                    prop_assert!(false, "no contact {:?}", case);
                    return Ok(());
                };
                prop_assert!(c.depth <= eps * T::two(), "{:?} {:?}", case, c);
                // Below the ellipse's least radius of curvature rmin²/rmax: a disk of that
                // radius tangent inside at any boundary point lies in it (Blaschke),
                // so B moved in by s still contains A's support point.
                let rho = e.radii().min() * e.radii().min() / e.radii().max();
                let s = T::lit(push) * Float::min(rho, T::lit(case.size));
                let inside = moved(&touching, &u, -s);
                let c = contact(&a, &e, &inside);
                prop_assert!(
                    c.depth <= s + test_tolerance(scale),
                    "{:?} {:?} {:?}",
                    case,
                    c,
                    s
                );
                check_push_out(&a, &e, &inside, &c);
                Ok(())
            })
            .unwrap();
    }
    for_each_precision!(prop_tangent, prop_tangent_configurations);

    /// The support overlap along `n` from the shape crate's support functions
    /// (not this file's formulas).
    fn overlap_along<T: Real>(a: &AnyA<T>, e: &Ellipse<T>, p: &Isometry2<T>, n: &Vector2<T>) -> T {
        a.convex()
            .support_point(&Isometry2::identity(), n)
            .coords
            .dot(n)
            - e.project(p, n).min
    }

    fn prop_contact_is_the_minimum_translation<T: Real>() {
        let worst = Cell::new(0.0f64);
        runner(256)
            .run(&cases(), |case| {
                let a = case.shape::<T>(&Isometry2::identity());
                let (e, p) = case.ellipse::<T>();
                let Some(c) = a.contact(&e, &p) else {
                    return Ok(());
                };
                let _ = contact(&a, &e, &p);
                check_push_out(&a, &e, &p, &c);
                // No sampled direction overlaps less: 720 uniform, 2000 ellipse
                // normals uniform in its parameter, and A's edge normals.
                let scale = scale_of(&a, &e, &p);
                let mut least = T::infinity();
                for k in 0..720 {
                    let th = T::two_pi() * T::lit(k as f64 / 720.0);
                    least = Float::min(least, overlap_along(&a, &e, &p, &direction(th)));
                }
                let r = e.radii();
                for k in 0..2000 {
                    let phi = T::two_pi() * T::lit(k as f64 / 2000.0);
                    let n = p.rotation
                        * Vector2::new(Float::cos(phi) / r.x, Float::sin(phi) / r.y).normalize();
                    least = Float::min(least, overlap_along(&a, &e, &p, &n));
                }
                let v = a.vertices();
                for i in 0..v.len() {
                    let d = v[(i + 1) % v.len()] - v[i];
                    if d.norm() > T::zero() {
                        let n = Vector2::new(d.y, -d.x).normalize();
                        least = Float::min(least, overlap_along(&a, &e, &p, &n));
                        least = Float::min(least, overlap_along(&a, &e, &p, &-n));
                    }
                }
                prop_assert!(
                    c.depth <= least + test_tolerance(scale),
                    "{:?} {:?} {:?}",
                    case,
                    c,
                    least
                );
                worst.set(worst.get().max((c.depth - least).as_f64() / scale.as_f64()));
                Ok(())
            })
            .unwrap();
        println!(
            "{}: worst (depth − sampled minimum) / scale = {:e}",
            core::any::type_name::<T>(),
            worst.get()
        );
    }
    for_each_precision!(prop_contact, prop_contact_is_the_minimum_translation);
}
