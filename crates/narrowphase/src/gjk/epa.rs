//! EPA: the penetration depth and normal of two intersecting convex shapes.
//!
//! **What.** For two convex shapes given by their support functions and world
//! poses, [`epa_contact`] returns the minimum translation that separates them
//! (unit normal from A to B, depth `≥ 0`) and a contact point on each, in the
//! world frame, or `None` when GJK finds them disjoint.
//!
//! **Method** (Expanding Polytope Algorithm on `D = A − B`, in 2D a polygon):
//! 1. Run GJK ([`super::gjk`]) in its deciding mode. Separated: `None`. This is
//!    the same call [`gjk_intersects`](super::gjk_intersects) makes, so
//!    `epa_contact(..).is_some() == gjk_intersects(..)` for every input.
//! 2. GJK ended with a point or an edge within `δ` of the origin: let `n` be the
//!    edge's normal (for a point, the search direction that found it). If the
//!    support of `D` along `n` or `−n` reaches less than `δ` past the origin,
//!    the shapes touch (up to `δ`): answer that direction, the depth
//!    `max(0, support)` and GJK's closest points. Otherwise the edge is a
//!    diagonal of `D`: add the supports along `±n` to get a quadrilateral around
//!    the origin. GJK ended with a triangle around the origin: start from it
//!    (counter-clockwise).
//! 3. Repeat: take the edge whose line is closest to the origin (distance `d`,
//!    outward normal `n`) and the support point `w` of `D` along `n`, at height
//!    `h = w · n`. If `h − d ≤ δ`, stop; else insert `w` into that edge.
//! 4. Answer `normal = n`, `depth = max(0, h)`, and the contact points as the
//!    same barycentric combination of the edge end points' sources on A and B
//!    as the origin's projection on the edge.
//! 5. Curved boundary (the last support `w` is not one of the edge's end
//!    points, which is what a polygonal face returns): polish the direction by
//!    a one-dimensional root search on the derivative of the support function,
//!    `d h_D(θ) / dθ = s_D(u) · u⊥`, bracketed around `n` (false position,
//!    Illinois variant, at most `POLISH_MAX_STEPS` = 48 support calls), and
//!    answer the best direction found with the supports `s_A(u)`, `s_B(−u)` as
//!    contact points (unique on a curved boundary).
//!
//! **Why it is correct.** With `D = A − B`, moving B by `t` turns `D` into
//! `D − t`, and the shapes stop overlapping when the origin leaves `D − t`'s
//! interior, so the depth is `min over unit n of h_D(n)` (the support function)
//! and the minimiser is the normal. Every polygon vertex is a support point, so
//! the polygon lies inside `D`: each edge distance `d` is at most the support
//! `h_D(n)` of its normal and the smallest `d` is a lower bound of the depth,
//! while each `h` is an upper bound, attained by an actual translation (moving B
//! by `h · n` leaves the shapes touching). The stop `h − d ≤ δ` brackets the
//! depth to `δ`; for polygons the new support is an existing vertex at
//! convergence and the answer is exact up to rounding. Inserting a support
//! point keeps the polygon convex and counter-clockwise: it lies on `D`'s
//! boundary between the edge's end points.
//!
//! **Curved shapes** converge only to the tolerance: each insertion halves the
//! arc under the closest edge, so reaching `δ` (see
//! [`gjk_tolerance`](super::gjk_tolerance): `64 ε` per unit of the largest
//! coordinate) takes about 10 insertions in f32 and 25 in f64. The depth is
//! then within `δ`, but since the depth is flat to second order around its
//! minimising direction the edge normal is only good to an angle of about
//! `√(8 δ / ρ)` (ρ the radius of curvature of `D`): `3e-3` rad in f32. Step 5
//! recovers the normal to rounding (`h_D′` has a simple root there) and also
//! rescues the case where the polygon fills up before converging (deep
//! overlap of nearly concentric round shapes, where many directions are almost
//! equally shallow).
//!
//! **Caps.** The polygon lives in a fixed array of `EPA_MAX_VERTICES` = 64
//! vertices on the stack (no heap); when it is full the current closest edge is
//! answered (polished if curved) with its `h`, still a valid separating
//! translation, possibly deeper than the minimum by more than `δ` if the
//! polygon had not yet found the right basin. GJK's own cap is
//! `GJK_MAX_ITERATIONS` = 64.
//!
//! **References.** van den Bergen, "Proximity Queries and Penetration Depth
//! Computation on 3D Game Objects", GDC 2001; Ericson, *Real-Time Collision
//! Detection*, §9.5 (GJK, on which EPA starts).
//!
//! **Degenerate cases.** A flat `D` (a point or segment against a segment, two
//! collinear segments) has no interior: the touching test of step 2 answers it
//! with depth 0. A collinear GJK triangle is treated as its longest edge.
//! Zero-length polygon edges are skipped. Coincident identical shapes start
//! from the `+x` direction, so their normal is deterministic.

use nalgebra::{Isometry2, Point2, Unit, Vector2};
use num_traits::Float;
use shape::{Convex, Real};

use super::gjk::{Minkowski, Outcome, Simplex, SupportPoint, run};
use crate::Contact;

/// Capacity of the EPA polygon (see the module documentation).
pub(crate) const EPA_MAX_VERTICES: usize = 64;

/// Most false-position steps of the curved-boundary polish.
const POLISH_MAX_STEPS: usize = 48;

/// The minimum translation separating two intersecting convex shapes and a
/// contact point on each, or `None` when they are disjoint.
///
/// `Some` exactly when [`gjk_intersects`](super::gjk_intersects) is true
/// (touching counts; the same GJK run decides both). Touching and
/// near-touching shapes get depth `max(0, h) ≤ δ` along GJK's direction. The normal points from A to B; moving B by
/// `depth · normal` leaves the shapes touching. For polygons the depth is exact
/// up to rounding; for curved shapes it is accurate to `δ = gjk_tolerance · scale`
/// ([`gjk_tolerance`](super::gjk_tolerance)), and the normal to rounding. The
/// polygon lives in a fixed array on the stack: no heap allocation.
///
/// ```
/// use nalgebra::{Isometry2, Vector2};
/// use shape::prelude::*;
/// use narrowphase::gjk::epa_contact;
/// let a = Circle::new(1.0).unwrap();
/// let b = Ellipse::new(Vector2::new(2.0, 1.0)).unwrap();
/// let c = epa_contact(&a, &Isometry2::identity(), &b, &Isometry2::translation(2.5, 0.0)).unwrap();
/// assert!((c.depth - 0.5f64).abs() < 1e-12);
/// assert!((c.normal.x - 1.0).abs() < 1e-6);
/// assert!((c.point_a.x - 1.0).abs() < 1e-12 && (c.point_b.x - 0.5).abs() < 1e-12);
/// assert!(epa_contact(&a, &Isometry2::identity(), &b, &Isometry2::translation(3.5, 0.0)).is_none());
/// ```
pub fn epa_contact<T: Real>(
    a: &dyn Convex<T>,
    pose_a: &Isometry2<T>,
    b: &dyn Convex<T>,
    pose_b: &Isometry2<T>,
) -> Option<Contact<T>> {
    let m = Minkowski::new(a, pose_a, b, pose_b);
    match run(&m, false).outcome {
        Outcome::Separated { .. } => None,
        Outcome::Intersecting { simplex, dir } => Some(expand(&m, &simplex, dir).0),
    }
}

/// Step 2 and 3 of the module documentation; also returns the number of
/// insertions (for the tests).
fn expand<T: Real>(
    m: &Minkowski<'_, T>,
    simplex: &Simplex<T>,
    dir: Vector2<T>,
) -> (Contact<T>, usize) {
    let s = &simplex.v;
    let mut poly = Polygon::<T>::new();
    if simplex.count == 3 {
        let area2 = (s[1].w - s[0].w).perp(&(s[2].w - s[0].w));
        if area2 > T::zero() {
            poly.start(&[s[0], s[1], s[2]]);
        } else if area2 < T::zero() {
            poly.start(&[s[0], s[2], s[1]]);
        } else {
            // Collinear: the longest edge holds the other vertex, and the origin.
            let pairs = [(0, 1), (1, 2), (0, 2)];
            let (i, j) = pairs.into_iter().fold((0, 1), |best, (i, j)| {
                let len = |(i, j): (usize, usize)| (s[j].w - s[i].w).norm_squared();
                if len((i, j)) > len(best) {
                    (i, j)
                } else {
                    best
                }
            });
            let edge = Simplex::segment(s[i], s[j]);
            return from_edge(m, &edge, dir);
        }
    } else {
        return from_edge(m, simplex, dir);
    }
    poly.expand(m)
}

/// GJK ended with a point or an edge near the origin (step 2).
fn from_edge<T: Real>(
    m: &Minkowski<'_, T>,
    simplex: &Simplex<T>,
    dir: Vector2<T>,
) -> (Contact<T>, usize) {
    let [p, q, _] = simplex.v;
    // n: the edge's left normal, or the direction that found the single point.
    let raw = if simplex.count == 2 {
        let e = q.w - p.w;
        Vector2::new(-e.y, e.x)
    } else {
        dir
    };
    let n = unit_or_x(raw);
    let plus = m.support(&n);
    let minus = m.support(&-n);
    let h_plus = plus.w.dot(&n);
    let h_minus = -minus.w.dot(&n);
    if simplex.count < 2 || Float::min(h_plus, h_minus) <= m.tol {
        // Touching (a single point within δ of the origin is always an extreme
        // point of D: its support height is at most δ).
        let (h, n) = if h_plus <= h_minus || simplex.count < 2 {
            (h_plus, n)
        } else {
            (h_minus, -n)
        };
        let (point_a, point_b) = simplex.witnesses();
        let contact = Contact {
            normal: Unit::new_unchecked(n),
            depth: Float::max(h, T::zero()) * m.up,
            point_a,
            point_b,
        };
        return (contact, 0);
    }
    // A diagonal: p, minus (right of p→q), q, plus (left) is counter-clockwise.
    let mut poly = Polygon::<T>::new();
    poly.start(&[p, minus, q, plus]);
    poly.expand(m)
}

/// Polishes EPA's answer on a curved part of `D` (step 5 of the module
/// documentation): minimises `h(u) = s_D(u) · u` over unit `u = (n + t n⊥) /
/// |…|` by finding the root of its derivative `g(u) = s_D(u) · u⊥` (the
/// support function's derivative in angle is the tangential coordinate of the
/// support point). First steps away from `n` against the slope, starting at the
/// edge's angular `span` and doubling, until `g` changes sign; then the
/// Illinois variant of false position, to a bracket of a few ulps or
/// `POLISH_MAX_STEPS` evaluations. Returns the direction of smallest `h` met, if
/// smaller than `h0` (EPA's), with its height and support point.
fn polish<T: Real>(
    m: &Minkowski<'_, T>,
    n: Vector2<T>,
    h0: T,
    span: T,
) -> Option<(Vector2<T>, T, SupportPoint<T>)> {
    let perp = Vector2::new(-n.y, n.x);
    let mut best: Option<(Vector2<T>, T, SupportPoint<T>)> = None;
    let mut eval = |t: T| {
        let u = unit_or_x(n + perp * t);
        let s = m.support(&u);
        let h = s.w.dot(&u);
        if h < best.map_or(h0, |b| b.1) {
            best = Some((u, h, s));
        }
        s.w.dot(&Vector2::new(-u.y, u.x))
    };
    let g0 = eval(T::zero());
    if g0 == T::zero() || !Float::is_finite(g0) {
        return best;
    }
    // Bracket the root: walk against the slope of h.
    let dir = if g0 > T::zero() { -T::one() } else { T::one() };
    let small = T::epsilon() * T::lit(4.0);
    let mut step = if span > small && span < T::one() {
        span
    } else {
        T::one()
    };
    let (mut a, mut fa) = (T::zero(), g0);
    let mut bracket = None;
    while step <= T::one() {
        let t = dir * step;
        let ft = eval(t);
        if ft * fa <= T::zero() {
            bracket = Some((t, ft));
            break;
        }
        (a, fa) = (t, ft);
        step *= T::two();
    }
    let Some((mut b, mut fb)) = bracket else {
        return best;
    };
    // Illinois false position: the retained end's value is halved when the
    // same side moves twice, which keeps the convergence superlinear.
    let mut side = 0;
    for _ in 0..POLISH_MAX_STEPS {
        if Float::abs(b - a) <= small || fb == fa {
            break;
        }
        let mut c = (a * fb - b * fa) / (fb - fa);
        if !(Float::min(a, b) < c && c < Float::max(a, b)) {
            c = (a + b) * T::half();
        }
        let fc = eval(c);
        if fc * fb > T::zero() {
            (b, fb) = (c, fc);
            if side == -1 {
                fa *= T::half();
            }
            side = -1;
        } else if fc * fa > T::zero() {
            (a, fa) = (c, fc);
            if side == 1 {
                fb *= T::half();
            }
            side = 1;
        } else {
            break;
        }
    }
    best
}

/// `v / |v|`, or `+x` for a zero or non-finite vector.
fn unit_or_x<T: Real>(v: Vector2<T>) -> Vector2<T> {
    let m = v.amax();
    if m > T::zero() && Float::is_finite(m) {
        let v = v / m;
        v / v.norm()
    } else {
        Vector2::x()
    }
}

/// The EPA polygon, counter-clockwise, with the outward unit normal and the
/// origin's signed distance of each edge `i → i + 1` cached.
struct Polygon<T: Real> {
    vertices: [SupportPoint<T>; EPA_MAX_VERTICES],
    normals: [Vector2<T>; EPA_MAX_VERTICES],
    distances: [T; EPA_MAX_VERTICES],
    len: usize,
}

impl<T: Real> Polygon<T> {
    fn new() -> Self {
        let zero = SupportPoint {
            w: Vector2::zeros(),
            a: Point2::origin(),
            b: Point2::origin(),
        };
        Self {
            vertices: [zero; EPA_MAX_VERTICES],
            normals: [Vector2::zeros(); EPA_MAX_VERTICES],
            distances: [T::zero(); EPA_MAX_VERTICES],
            len: 0,
        }
    }

    fn start(&mut self, points: &[SupportPoint<T>]) {
        self.vertices[..points.len()].copy_from_slice(points);
        self.len = points.len();
        for i in 0..self.len {
            self.update_edge(i);
        }
    }

    /// Recomputes edge `i → i + 1`. A zero-length edge gets an infinite
    /// distance, so it is never chosen.
    fn update_edge(&mut self, i: usize) {
        let p = self.vertices[i].w;
        let q = self.vertices[(i + 1) % self.len].w;
        let e = q - p;
        // Outward normal of a counter-clockwise polygon: e turned clockwise.
        let raw = Vector2::new(e.y, -e.x);
        let m = raw.amax();
        if m > T::zero() {
            let r = raw / m;
            let n = r / r.norm();
            self.normals[i] = n;
            self.distances[i] = n.dot(&p);
        } else {
            self.normals[i] = Vector2::zeros();
            self.distances[i] = T::infinity();
        }
    }

    /// The edge closest to the origin (the first on ties), or `None` when every
    /// edge has zero length.
    fn closest_edge(&self) -> Option<usize> {
        let mut best: Option<usize> = None;
        for i in 0..self.len {
            let d = self.distances[i];
            if d < T::infinity() && best.is_none_or(|b| d < self.distances[b]) {
                best = Some(i);
            }
        }
        best
    }

    /// Step 3 and 4 of the module documentation.
    fn expand(&mut self, m: &Minkowski<'_, T>) -> (Contact<T>, usize) {
        let mut insertions = 0;
        loop {
            let Some(i) = self.closest_edge() else {
                // All vertices coincide: D is (numerically) a point at the origin.
                let s = self.vertices[0];
                let contact = Contact {
                    normal: Unit::new_unchecked(Vector2::x()),
                    depth: T::zero(),
                    point_a: s.a,
                    point_b: s.b,
                };
                return (contact, insertions);
            };
            let n = self.normals[i];
            let d = self.distances[i];
            let w = m.support(&n);
            let h = w.w.dot(&n);
            if h - d <= m.tol || self.len == EPA_MAX_VERTICES {
                let p = self.vertices[i].w;
                let q = self.vertices[(i + 1) % self.len].w;
                if w.w != p && w.w != q {
                    // Curved boundary (a polygonal face returns one of the
                    // edge's end points): polish the direction.
                    let span = (q - p).norm() / (p.norm() + q.norm());
                    if let Some((u, hu, s)) = polish(m, n, h, span) {
                        let contact = Contact {
                            normal: Unit::new_unchecked(u),
                            depth: Float::max(hu, T::zero()) * m.up,
                            point_a: s.a,
                            point_b: s.b,
                        };
                        return (contact, insertions);
                    }
                }
                return (self.contact(i, h, n, m.up), insertions);
            }
            // Insert w after vertex i.
            self.vertices.copy_within(i + 1..self.len, i + 2);
            self.normals.copy_within(i + 1..self.len, i + 2);
            self.distances.copy_within(i + 1..self.len, i + 2);
            self.vertices[i + 1] = w;
            self.len += 1;
            self.update_edge(i);
            self.update_edge(i + 1);
            insertions += 1;
        }
    }

    /// The contact of edge `i` at support height `h` along its normal `n`;
    /// `up` converts scaled lengths to world units.
    fn contact(&self, i: usize, h: T, n: Vector2<T>, up: T) -> Contact<T> {
        let p = self.vertices[i];
        let q = self.vertices[(i + 1) % self.len];
        // The origin's projection on the edge, p + t (q − p), clamped.
        let e = q.w - p.w;
        let t = Float::min(
            Float::max(-p.w.dot(&e) / e.norm_squared(), T::zero()),
            T::one(),
        );
        let point_a = p.a + (q.a - p.a) * t;
        let point_b = p.b + (q.b - p.b) * t;
        Contact {
            normal: Unit::new_unchecked(n),
            depth: Float::max(h, T::zero()) * up,
            point_a,
            point_b,
        }
    }
}

#[cfg(test)]
mod tests {
    use nalgebra::Vector2;
    use shape::for_each_precision;
    use shape::testing::test_tolerance;
    use shape::{Aabb, Capsule, Circle, ConvexPolygon, Ellipse, Obb, Point, Segment, Triangle};

    use super::*;
    use crate::gjk::{gjk_intersects, gjk_tolerance};

    fn p<T: Real>(x: f64, y: f64) -> Point2<T> {
        Point2::new(T::lit(x), T::lit(y))
    }

    fn at<T: Real>(x: f64, y: f64) -> Isometry2<T> {
        Isometry2::translation(T::lit(x), T::lit(y))
    }

    /// Asserts a contact's depth and normal, that it has no NaN, and that it
    /// agrees with `gjk_intersects`.
    fn expect<T: Real>(
        a: &dyn Convex<T>,
        pa: &Isometry2<T>,
        b: &dyn Convex<T>,
        pb: &Isometry2<T>,
        depth: f64,
        normal: (f64, f64),
    ) -> Contact<T> {
        let c = epa_contact(a, pa, b, pb).expect("intersecting");
        assert!(gjk_intersects(a, pa, b, pb));
        let tol = test_tolerance::<T>(T::lit(10.0));
        assert!(
            Float::abs(c.depth - T::lit(depth)) <= tol,
            "depth {:?} != {depth}",
            c.depth
        );
        let n = Vector2::new(T::lit(normal.0), T::lit(normal.1));
        // Curved shapes: the polished normal (module documentation, step 5).
        let angle = tol;
        assert!(
            (c.normal.into_inner() - n).norm() <= angle,
            "normal {:?}",
            c.normal
        );
        assert!(
            c.point_a
                .coords
                .iter()
                .chain(c.point_b.coords.iter())
                .all(|x| x.is_finite())
        );
        c
    }

    fn circles<T: Real>() {
        let c = Circle::new(T::one()).unwrap();
        let id = Isometry2::identity();
        let k = expect(&c, &id, &c, &at(1.5, 0.0), 0.5, (1.0, 0.0));
        let tol = test_tolerance::<T>(T::lit(10.0));
        assert!((k.point_a - p(1.0, 0.0)).norm() <= tol);
        assert!((k.point_b - p(0.5, 0.0)).norm() <= tol);
        // Along (−3, 4) / 5, centres 1 apart: depth 1.
        expect(&c, &id, &c, &at(-0.6, 0.8), 1.0, (-0.6, 0.8));
        assert!(epa_contact(&c, &id, &c, &at(2.5, 0.0)).is_none());
    }
    for_each_precision!(circles_known, circles);

    fn boxes<T: Real>() {
        let a = Obb::new(Vector2::new(T::one(), T::one())).unwrap();
        let id = Isometry2::identity();
        // Overlap 0.5 in x, 1.5 in y: push B along +x.
        let k = expect(&a, &id, &a, &at(1.5, 0.5), 0.5, (1.0, 0.0));
        // Contact points on the faces, half the depth apart... in x exactly.
        assert_eq!(k.point_a.x, T::one());
        assert_eq!(k.point_b.x, T::half());
        assert!(Float::abs(k.point_a.y - k.point_b.y) <= test_tolerance::<T>(T::one()));
        // Rotated by 45°: the corner of B sinks 0.25 into A's top face.
        let h = Float::sqrt(T::two());
        let pose = Isometry2::new(
            Vector2::new(T::lit(0.3), T::one() + h - T::lit(0.25)),
            T::frac_pi_4(),
        );
        expect(&a, &id, &a, &pose, 0.25, (0.0, 1.0));
        // An AABB ignores its pose's rotation.
        let b = Aabb::from_half_extents(Vector2::new(T::two(), T::one())).unwrap();
        let turned = Isometry2::new(Vector2::new(T::zero(), T::lit(-1.75)), T::lit(0.5));
        expect(&a, &id, &b, &turned, 0.25, (0.0, -1.0));
    }
    for_each_precision!(boxes_known, boxes);

    /// Touching at exactly representable coordinates: depth 0, the face normal;
    /// a hair (4 δ) apart: no contact.
    fn touching<T: Real>() {
        let a = Obb::new(Vector2::new(T::one(), T::one())).unwrap();
        let id = Isometry2::identity();
        let k = expect(&a, &id, &a, &at(2.0, 0.5), 0.0, (1.0, 0.0));
        assert_eq!(k.depth, T::zero());
        expect(&a, &id, &a, &at(0.5, -2.0), 0.0, (0.0, -1.0));
        let hair = gjk_tolerance::<T>() * T::lit(3.0) * T::lit(4.0);
        let pose = Isometry2::translation(T::two() + hair, T::half());
        assert!(epa_contact(&a, &id, &a, &pose).is_none());
        // Circle resting on a segment.
        let s = Segment::new(p(-2.0, 0.0), p(2.0, 0.0)).unwrap();
        let c = Circle::new(T::one()).unwrap();
        expect(&s, &id, &c, &at(0.5, 1.0), 0.0, (0.0, 1.0));
        // Corner to corner: depth 0 (any normal of the corner's cone is right).
        let k = epa_contact(&a, &id, &a, &at(2.0, 2.0)).unwrap();
        assert_eq!(k.depth, T::zero());
    }
    for_each_precision!(touching_known, touching);

    fn point_inside<T: Real>() {
        let hex = ConvexPolygon::from_hull(&[
            p(2.0, 0.0),
            p(1.0, 2.0),
            p(-1.0, 2.0),
            p(-2.0, 0.0),
            p(-1.0, -2.0),
            p(1.0, -2.0),
        ])
        .unwrap();
        let id = Isometry2::identity();
        let q = Point::<T>::origin();
        // 0.25 below the top edge y = 2.
        let k = expect(&hex, &id, &q, &at(0.5, 1.75), 0.25, (0.0, 1.0));
        assert_eq!(k.point_b, p(0.5, 1.75));
        // Seen from the point: the normal flips.
        expect(&q, &at(0.5, 1.75), &hex, &id, 0.25, (0.0, -1.0));
        // A point inside a triangle, nearest to its hypotenuse.
        let t = Triangle::new(p(0.0, 0.0), p(4.0, 0.0), p(0.0, 4.0)).unwrap();
        let d = 0.5 * core::f64::consts::FRAC_1_SQRT_2;
        let r = 0.5 * core::f64::consts::FRAC_1_SQRT_2;
        expect(&t, &id, &q, &at(1.75, 1.75), d, (r * 2.0, r * 2.0));
    }
    for_each_precision!(point_inside_known, point_inside);

    /// Identical shapes on identical poses: deterministic, finite contacts.
    fn coincident<T: Real>() {
        let pose = Isometry2::new(Vector2::new(T::lit(-3.0), T::lit(7.0)), T::lit(1.1));
        let c = Circle::new(T::one()).unwrap();
        let e = Ellipse::new(Vector2::new(T::two(), T::one())).unwrap();
        let b = Obb::new(Vector2::new(T::two(), T::one())).unwrap();
        let s = Segment::new(p(-1.0, 0.0), p(1.0, 0.0)).unwrap();
        let q = Point::new(p(0.5, 0.5)).unwrap();
        let shapes: [(&dyn Convex<T>, f64); 5] =
            [(&c, 2.0), (&e, 2.0), (&b, 2.0), (&s, 0.0), (&q, 0.0)];
        for (shape, depth) in shapes {
            let k = epa_contact(shape, &pose, shape, &pose).unwrap();
            assert_eq!(Some(k), epa_contact(shape, &pose, shape, &pose));
            let tol = test_tolerance::<T>(T::lit(10.0));
            assert!(
                Float::abs(k.depth - T::lit(depth)) <= tol,
                "{:?} {depth}",
                k.depth
            );
            assert!(Float::abs(k.normal.norm() - T::one()) <= tol);
            assert!(
                k.point_a
                    .coords
                    .iter()
                    .chain(k.point_b.coords.iter())
                    .all(|x| x.is_finite())
            );
        }
    }
    for_each_precision!(coincident_known, coincident);

    fn segments<T: Real>() {
        let id = Isometry2::identity();
        let s = Segment::new(p(-1.0, 0.0), p(1.0, 0.0)).unwrap();
        let t = Segment::new(p(0.0, -1.0), p(0.0, 1.0)).unwrap();
        // A cross: D = A − B is the square [−1, 1]², depth 1 along an axis
        // (ties: x first from the +x start).
        let k = epa_contact(&s, &id, &t, &id).unwrap();
        assert!(Float::abs(k.depth - T::one()) <= test_tolerance::<T>(T::one()));
        // Off-centre cross: B's centre at (0.25, 0.5): least push is 0.5 down, i.e.
        // B moves along −y... no: B's lower half crosses, pushing B up by 0.5
        // clears it.
        expect(&s, &id, &t, &at(0.75, 0.5), 0.25, (1.0, 0.0));
        // Collinear overlap: flat D, depth 0 across, deterministic.
        let k = epa_contact(&s, &id, &s, &at(1.5, 0.0)).unwrap();
        assert_eq!(k.depth, T::zero());
        // Capsule against a segment through its core.
        let c = Capsule::new(p(-1.0, 0.0), p(1.0, 0.0), T::half()).unwrap();
        expect(&c, &id, &t, &at(1.25, 0.0), 0.25, (1.0, 0.0));
    }
    for_each_precision!(segments_known, segments);

    fn ellipses<T: Real>() {
        let e = Ellipse::new(Vector2::new(T::two(), T::one())).unwrap();
        let id = Isometry2::identity();
        expect(&e, &id, &e, &at(3.5, 0.0), 0.5, (1.0, 0.0));
        expect(&e, &id, &e, &at(0.0, -1.5), 0.5, (0.0, -1.0));
        // Turned a quarter: B's tip sinks 0.5 into A's side.
        let turned = Isometry2::new(Vector2::new(T::zero(), T::lit(2.5)), T::frac_pi_2());
        expect(&e, &id, &e, &turned, 0.5, (0.0, 1.0));
        let c = Circle::new(T::one()).unwrap();
        expect(&e, &id, &c, &at(-2.75, 0.0), 0.25, (-1.0, 0.0));
    }
    for_each_precision!(ellipses_known, ellipses);

    /// The curved case takes the most insertions: well under the capacity.
    fn insertions_curved<T: Real>() {
        let e = Ellipse::new(Vector2::new(T::lit(3.0), T::one())).unwrap();
        let c = Circle::new(T::one()).unwrap();
        let id = Isometry2::identity();
        let pose = Isometry2::new(Vector2::new(T::lit(1.3), T::lit(1.1)), T::lit(0.4));
        let m = Minkowski::new(&e, &id, &c, &pose);
        let Outcome::Intersecting { simplex, dir } = run(&m, false).outcome else {
            panic!("expected intersecting")
        };
        let (_, n) = expand(&m, &simplex, dir);
        assert!(n < EPA_MAX_VERTICES / 2, "{n}");
    }
    for_each_precision!(insertions_known, insertions_curved);
}
