//! Distance and closest points for every ordered pair of the nine built-in 2D
//! kinds (81), f32 and f64 from one generic body, through the free functions
//! `narrowphase::{closest_points, distance, signed_distance}` (the built-in
//! kernels and the mirror rule), and user kinds through a table.
//!
//! What is checked, on seeded random shapes and poses (`support::
//! every_ordered_pair`):
//!
//! - exact symmetry: `closest_points(b, a)` is `closest_points(a, b)` with the
//!   points swapped and the normal negated, bit for bit, and the distances
//!   and signed distances are bitwise equal;
//! - `Intersecting` exactly when `intersects`, distance 0 exactly then, and
//!   the signed distance is exactly minus `contact`'s depth;
//! - apart, against references in f64 independent of the kernels: both
//!   points lie on their shapes' boundaries (exact per-kind formulas; the
//!   ellipse by its implicit equation), `|point_b − point_a|` is the distance,
//!   the normal is unit and along `point_b − point_a`, the gap of the two
//!   shapes' exact support functions along the normal is the distance (a
//!   separating slab as wide as the distance: no pair of points is nearer),
//!   no densely sampled boundary point of either shape is nearer the other
//!   shape (exact per-kind distances), GJK agrees within its tolerance, and
//!   an intersecting pair has no separating direction among 1024;
//! - `max_distance`: `Farther` exactly when the distance exceeds it (away from
//!   the boundary by the tolerance), the same answer below it, `0` and `+∞`;
//! - a rigid motion of both shapes keeps the distance and moves the points
//!   with the shapes; far from the origin (offsets to 1e5 in f32, 1e12 in
//!   f64) representable poses keep the answer;
//! - touching at exactly representable coordinates is `Intersecting`, a hair
//!   apart is a small positive distance; bad input is a typed error.
//!
//! Tolerances, for values of magnitude `s` (the shapes' extents plus the
//! pose coordinates plus the distance): `reference_tolerance::<T>(s)`,
//! about `2.4e-4·s` in f32 and `4.5e-13·s` in f64 (`8 × 256 ε`), plus, for
//! pairs with an ellipse, the ellipse kernels' convergence tolerance (see
//! `ellipse_tolerance`).

use crate::common;
use crate::support;

use std::f64::consts::PI;

use common::*;
use nalgebra::{Isometry2, Point2, Vector2};
use narrowphase::queries::ClosestPointsQuery;
use narrowphase::{ClosestPoints, Contact, DispatchError, DispatchTable, Route};
use proptest::prelude::*;
use shape::prelude::*;
use support::{Case, Hex, Ring, every_ordered_pair, hexagon, overlap, touching_shapes};

// ------------------------------------------------------------- tolerances

/// The magnitude of the numbers of a case: extents, pose coordinates.
fn scale(sa: &Spec, pa: [f64; 3], sb: &Spec, pb: [f64; 3]) -> f64 {
    extent(sa) + extent(sb) + pa[0].abs() + pa[1].abs() + pb[0].abs() + pb[1].abs() + 1.0
}

/// The ellipse pairs' kernels minimise numerically (the point–ellipse
/// distance by Eberly's bisection, the ellipse–ellipse distance by a search
/// on the support function) to a relative tolerance of their own.
/// The direction found is exact to rounding in angle, and a closest point
/// moves along the boundary by the radius of curvature (at most `max²/min`
/// for an ellipse) per radian of direction.
fn ellipse_tolerance<T: Real>(sa: &Spec, sb: &Spec) -> f64 {
    let curvature = |s: &Spec| match s {
        Spec::Ellipse(a, b) => a.max(*b).powi(2) / a.min(*b),
        _ => 0.0,
    };
    if matches!(sa, Spec::Ellipse(..)) || matches!(sb, Spec::Ellipse(..)) {
        reference_tolerance::<T>(extent(sa) + extent(sb) + curvature(sa) + curvature(sb)) * 16.0
    } else {
        0.0
    }
}

/// The tolerance for a case at distance `d`.
fn tolerance<T: Real>(sa: &Spec, pa: [f64; 3], sb: &Spec, pb: [f64; 3], d: f64) -> f64 {
    reference_tolerance::<T>(scale(sa, pa, sb, pb) + d) + ellipse_tolerance::<T>(sa, sb)
}

// ------------------------------------------------------------- references

/// How far `p` (world, f64) is from the shape's boundary, at most: exact per
/// kind (`common::signed_distance`), the ellipse by its implicit equation:
/// with `f = |(x/a, y/b)|`, the boundary point `p / f` is `|p| |1 − 1/f| ≤
/// max(a, b) |f − 1|` away.
fn off_boundary(s: &Spec, pose: [f64; 3], p: [f64; 2]) -> f64 {
    if let Spec::Ellipse(a, b) = s {
        let (sn, cs) = pose[2].sin_cos();
        let d = [p[0] - pose[0], p[1] - pose[1]];
        let q = [cs * d[0] + sn * d[1], -sn * d[0] + cs * d[1]];
        let f = ((q[0] / a).powi(2) + (q[1] / b).powi(2)).sqrt();
        return a.max(*b) * (f - 1.0).abs();
    }
    signed_distance(s, pose, p).abs()
}

/// Points of the boundary (world, f64): `common::world_boundary` with every
/// straight edge of a polygonal shape cut into 16 pieces.
fn dense_boundary(s: &Spec, pose: [f64; 3]) -> Vec<[f64; 2]> {
    let corners = world_boundary(s, pose);
    if is_curved(s)
        || !matches!(
            s,
            Spec::Aabb(..) | Spec::Obb(..) | Spec::Triangle(..) | Spec::Polygon(..)
        )
    {
        return corners;
    }
    let n = corners.len();
    let mut out = Vec::with_capacity(16 * n);
    for i in 0..n {
        let (p, q) = (corners[i], corners[(i + 1) % n]);
        for k in 0..16 {
            let t = k as f64 / 16.0;
            out.push([p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t]);
        }
    }
    out
}

/// The distance from `p` to the shape (zero inside), exact per kind except
/// the ellipse, measured to its inscribed sampled polygon (never nearer than
/// the ellipse).
fn distance_to(s: &Spec, pose: [f64; 3], p: [f64; 2]) -> f64 {
    signed_distance(s, pose, p).max(0.0)
}

/// The largest gap between the shapes' exact support functions: over 1024
/// uniform directions, the exact edge normals of polygonal shapes and of a
/// capsule's sides, and `extra`, then refined by golden-section search around
/// the best uniform direction. Every gap is a lower bound of the distance
/// (negative when no direction tried separates them); for shapes apart the
/// largest is the distance (its direction is either an edge normal, exact
/// here, or where the gap is smooth, found by the refinement).
fn reference_gap(sa: &Spec, pa: [f64; 3], sb: &Spec, pb: [f64; 3], extra: &[[f64; 2]]) -> f64 {
    let gap = |t: f64| -overlap(sa, pa, sb, pb, [t.cos(), t.sin()]);
    let step = 2.0 * PI / 1024.0;
    let (mut best_t, mut best) = (0.0, f64::NEG_INFINITY);
    for k in 0..1024 {
        let t = step * k as f64;
        let g = gap(t);
        if g > best {
            (best_t, best) = (t, g);
        }
    }
    let (mut lo, mut hi) = (best_t - step, best_t + step);
    for _ in 0..80 {
        let (m1, m2) = (lo + (hi - lo) * 0.382, lo + (hi - lo) * 0.618);
        let (g1, g2) = (gap(m1), gap(m2));
        best = best.max(g1).max(g2);
        if g1 > g2 {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    let mut dirs: Vec<[f64; 2]> = extra.to_vec();
    for (s, pose) in [(sa, pa), (sb, pb)] {
        let w = world_boundary(s, pose);
        let edges: Vec<([f64; 2], [f64; 2])> = match s {
            Spec::Capsule(p, q, _) => {
                let w = world_boundary(&Spec::Segment(*p, *q), pose);
                vec![(w[0], w[w.len() - 1])]
            }
            Spec::Segment(..) => vec![(w[0], w[w.len() - 1])],
            _ if is_curved(s) || w.len() < 3 => vec![],
            _ => (0..w.len()).map(|i| (w[i], w[(i + 1) % w.len()])).collect(),
        };
        for (p, q) in edges {
            let (dx, dy) = (q[0] - p[0], q[1] - p[1]);
            let n = dx.hypot(dy);
            if n > 0.0 {
                dirs.push([dy / n, -dx / n]);
                dirs.push([-dy / n, dx / n]);
            }
        }
    }
    dirs.into_iter()
        .map(|d| -overlap(sa, pa, sb, pb, d))
        .fold(best, f64::max)
}

fn f64s<T: Real>(p: &Point2<T>) -> [f64; 2] {
    [p.x.as_f64(), p.y.as_f64()]
}

// ------------------------------------------------------------- the checks

/// The answers of the free functions for one ordered pair.
struct Answers<T: Real> {
    hit: bool,
    closest: ClosestPoints<T>,
    distance: T,
    signed: T,
    contact: Option<Contact<T>>,
}

fn answers<T: Real>(
    a: &dyn Shape<T>,
    ia: &Isometry2<T>,
    b: &dyn Shape<T>,
    ib: &Isometry2<T>,
) -> Answers<T> {
    Answers {
        hit: narrowphase::intersects(a, ia, b, ib).unwrap(),
        closest: narrowphase::closest_points(a, ia, b, ib, T::infinity()).unwrap(),
        distance: narrowphase::distance(a, ia, b, ib).unwrap(),
        signed: narrowphase::signed_distance(a, ia, b, ib).unwrap(),
        contact: narrowphase::contact(a, ia, b, ib).unwrap(),
    }
}

/// Checks an apart answer against the references; returns the distance.
#[allow(clippy::too_many_arguments)]
fn check_apart<T: Real>(
    sa: &Spec,
    pa: [f64; 3],
    sb: &Spec,
    pb: [f64; 3],
    point_a: [f64; 2],
    point_b: [f64; 2],
    normal: [f64; 2],
    d: f64,
) -> Result<(), TestCaseError> {
    let tol = tolerance::<T>(sa, pa, sb, pb, d);
    prop_assert!(d > 0.0 && d.is_finite(), "distance {d}");
    prop_assert!(
        point_a
            .iter()
            .chain(&point_b)
            .chain(&normal)
            .all(|x| x.is_finite()),
        "{point_a:?} {point_b:?} {normal:?}"
    );
    // The points lie on their shapes' boundaries.
    let (off_a, off_b) = (off_boundary(sa, pa, point_a), off_boundary(sb, pb, point_b));
    prop_assert!(
        off_a <= tol,
        "point_a {point_a:?} is {off_a} off A (tol {tol})"
    );
    prop_assert!(
        off_b <= tol,
        "point_b {point_b:?} is {off_b} off B (tol {tol})"
    );
    // Their distance is the distance, along the unit normal.
    let v = [point_b[0] - point_a[0], point_b[1] - point_a[1]];
    let len = v[0].hypot(v[1]);
    prop_assert!(
        (len - d).abs() <= tol,
        "|point_b - point_a| = {len}, distance {d}"
    );
    prop_assert!(
        (normal[0].hypot(normal[1]) - 1.0).abs() <= reference_tolerance::<T>(1.0),
        "normal {normal:?} not unit"
    );
    let off_normal = (v[0] - normal[0] * d).hypot(v[1] - normal[1] * d);
    prop_assert!(
        off_normal <= tol,
        "point_b - point_a = {v:?} not along {normal:?} · {d}: {off_normal} (tol {tol})"
    );
    // The exact support functions leave a gap of `d` along some direction:
    // the shapes are at least `d` apart (with the points on the shapes at
    // `d`, the distance is exact to the tolerance). The reported normal is
    // tried too; it is only as accurate as `tol / d` in angle (the points'
    // rounding over their distance), so it alone is not the certificate.
    let gap = reference_gap(sa, pa, sb, pb, &[normal]);
    prop_assert!(
        gap >= d - tol,
        "largest support gap {gap}, distance {d} (tol {tol})"
    );
    // No densely sampled boundary point is nearer the other shape.
    for (from, pose_from, to, pose_to) in [(sa, pa, sb, pb), (sb, pb, sa, pa)] {
        let nearest = dense_boundary(from, pose_from)
            .into_iter()
            .map(|p| distance_to(to, pose_to, p))
            .fold(f64::INFINITY, f64::min);
        prop_assert!(
            nearest >= d - tol,
            "a sampled point {nearest} away, distance {d}"
        );
    }
    Ok(())
}

/// Every property of one case that does not move the shapes: symmetry,
/// consistency, the references, GJK, `max_distance`.
fn properties<T: Real>(
    sa: &Spec,
    pa: [f64; 3],
    sb: &Spec,
    pb: [f64; 3],
    md_fraction: f64,
) -> Result<Answers<T>, TestCaseError> {
    let (a, b) = (build::<T>(sa), build::<T>(sb));
    let (a, b) = (a.as_ref(), b.as_ref());
    let (ia, ib) = (iso::<T>(pa), iso::<T>(pb));
    let ab = answers(a, &ia, b, &ib);
    let ba = answers(b, &ib, a, &ia);
    // Exact symmetry.
    prop_assert_eq!(ab.closest, ba.closest.flipped());
    prop_assert_eq!(
        ab.distance.as_f64().to_bits(),
        ba.distance.as_f64().to_bits()
    );
    prop_assert_eq!(ab.signed.as_f64().to_bits(), ba.signed.as_f64().to_bits());
    prop_assert_eq!(ab.hit, ba.hit);
    // Consistency with the boolean and the contact.
    prop_assert_eq!(matches!(ab.closest, ClosestPoints::Intersecting), ab.hit);
    prop_assert_eq!(ab.distance == T::zero(), ab.hit);
    prop_assert_eq!(ab.closest.distance(), Some(ab.distance));
    match ab.contact {
        Some(c) => prop_assert_eq!(ab.signed, -c.depth),
        None => prop_assert_eq!(ab.signed, ab.distance),
    }
    let d = ab.distance.as_f64();
    let tol = tolerance::<T>(sa, pa, sb, pb, d);
    match ab.closest {
        ClosestPoints::Farther => prop_assert!(false, "Farther than +∞"),
        ClosestPoints::Intersecting => {
            let gap = reference_gap(sa, pa, sb, pb, &[]);
            prop_assert!(
                gap <= tol,
                "intersecting, but separated by {gap} along a direction"
            );
        }
        ClosestPoints::WithinMargin {
            point_a,
            point_b,
            normal,
            distance,
        } => {
            prop_assert_eq!(distance, ab.distance);
            check_apart::<T>(
                sa,
                pa,
                sb,
                pb,
                f64s(&point_a),
                f64s(&point_b),
                [normal.x.as_f64(), normal.y.as_f64()],
                d,
            )?;
            // GJK on the support functions, an independent second reference.
            let (ca, cb) = (a.as_convex().unwrap(), b.as_convex().unwrap());
            let g = narrowphase::gjk::gjk_distance(ca, &ia, cb, &ib)
                .distance()
                .as_f64();
            let gjk_tol =
                tol + 4.0 * narrowphase::gjk::gjk_tolerance::<T>().as_f64() * scale(sa, pa, sb, pb);
            prop_assert!(
                (g - d).abs() <= gjk_tol,
                "GJK {g}, kernel {d} (tol {gjk_tol})"
            );
        }
    }
    // `max_distance`: zero, a random value in [0, 2d], and the distance itself.
    let cut = |md: T| narrowphase::closest_points(a, &ia, b, &ib, md).unwrap();
    if ab.hit {
        for md in [T::zero(), T::lit(md_fraction), T::infinity()] {
            prop_assert_eq!(cut(md), ClosestPoints::Intersecting);
        }
    } else {
        prop_assert_eq!(cut(T::zero()), ClosestPoints::Farther);
        let md = T::lit(2.0 * md_fraction * d);
        let (m, answer) = (md.as_f64(), cut(md));
        if answer == ClosestPoints::Farther {
            prop_assert!(d > m - tol, "Farther than {m} at distance {d}");
        } else {
            prop_assert_eq!(answer, ab.closest, "below max_distance {}", m);
        }
        if d > m + tol {
            prop_assert_eq!(answer, ClosestPoints::Farther, "distance {} above {}", d, m);
        }
        // Mirrored, the same decision.
        let mirrored = narrowphase::closest_points(b, &ib, a, &ia, md).unwrap();
        prop_assert_eq!(mirrored, answer.flipped());
    }
    Ok(ab)
}

/// Symmetry, consistency, references, `max_distance`, then a rigid motion of
/// both shapes: the same distance, the points moved with the shapes.
fn distance_props<T: Real>(
    (sa, sb, pa, pb, (md_fraction, m)): Case<(f64, [f64; 3])>,
) -> Result<(), TestCaseError> {
    let before = properties::<T>(&sa, pa, &sb, pb, md_fraction)?;
    let motion = rigid_motion_for(&sa, &sb, m);
    let (qa, qb) = (motion(pa), motion(pb));
    let after = properties::<T>(&sa, qa, &sb, qb, md_fraction)?;
    let d = before.distance.as_f64();
    let tol = tolerance::<T>(&sa, qa, &sb, qb, d) + tolerance::<T>(&sa, pa, &sb, pb, d);
    if before.hit != after.hit {
        // Only at touching, within rounding.
        let moved = after.distance.as_f64().max(d);
        prop_assert!(
            moved <= tol,
            "the motion changed the answer: {d} to {moved}"
        );
        return Ok(());
    }
    prop_assert!(
        (after.distance.as_f64() - d).abs() <= tol,
        "distance {d} before, {:?} after the motion",
        after.distance
    );
    if let ClosestPoints::WithinMargin {
        point_a, point_b, ..
    } = after.closest
    {
        // The moved answer, taken back by the inverse motion, is a closest
        // pair of the original shapes (the pair need not be unique: parallel
        // edges).
        let angle = qa[2] - pa[2];
        let (sn, cs) = (-angle).sin_cos();
        let back = |p: [f64; 2]| {
            let (x, y) = (p[0] - qa[0], p[1] - qa[1]);
            [cs * x - sn * y + pa[0], sn * x + cs * y + pa[1]]
        };
        let (ba, bb) = (back(f64s(&point_a)), back(f64s(&point_b)));
        prop_assert!(
            off_boundary(&sa, pa, ba) <= tol,
            "moved point_a {ba:?} off A"
        );
        prop_assert!(
            off_boundary(&sb, pb, bb) <= tol,
            "moved point_b {bb:?} off B"
        );
        let len = (bb[0] - ba[0]).hypot(bb[1] - ba[1]);
        prop_assert!(
            (len - d).abs() <= tol,
            "moved points {len} apart, distance {d}"
        );
    }
    Ok(())
}

fn every_pair<T: Real>() {
    every_ordered_pair(24, || (0.0f64..=1.0, pose(100.0)), distance_props::<T>);
}
shape::for_each_precision!(every_pair, every_pair);

/// Closer pairs: B placed so that the shapes are within a small distance of
/// touching (the kernels' near-touching paths).
fn close_pairs<T: Real>() {
    every_ordered_pair(
        16,
        || (0.0f64..=1.0, 0.0f64..1e-2),
        |(sa, sb, pa, pb, (md_fraction, gap))| {
            let c = [pb[0] - pa[0], pb[1] - pa[1]];
            prop_assume!(c[0].hypot(c[1]) > 1e-6);
            properties::<T>(&sa, pa, &sb, closer(&sa, pa, &sb, pb, gap), md_fraction).map(|_| ())
        },
    );
}
shape::for_each_precision!(close_pairs, close_pairs);

/// B's pose moved along the centres' line until the gap of the exact support
/// functions along that line is `gap`.
fn closer(sa: &Spec, pa: [f64; 3], sb: &Spec, pb: [f64; 3], gap: f64) -> [f64; 3] {
    let c = [pb[0] - pa[0], pb[1] - pa[1]];
    let len = c[0].hypot(c[1]);
    let n = [c[0] / len, c[1] / len];
    let along = -overlap(sa, pa, sb, pb, n);
    [
        pb[0] + n[0] * (gap - along),
        pb[1] + n[1] * (gap - along),
        pb[2],
    ]
}

/// Regression (found by `close_pairs`): a thin ellipse (aspect 10) and a
/// tiny one; the search kept the least value seen, flat to second order, so
/// the normal was √ε off in angle and `point_b − point_a` 6e-8 off the
/// normal in f64. Fixed by Newton steps on the derivative
/// (`Overlap::polish`).
fn ellipse_normal_to_rounding<T: Real>() {
    let (sa, sb) = (
        Spec::Ellipse(2.0960253727577705, 0.26178406798298387),
        Spec::Ellipse(0.005000000000000001, 0.05),
    );
    let pa = [-1.6371111126102933, 2.9570197872153976, 0.0];
    let pb = closer(
        &sa,
        pa,
        &sb,
        [0.0, 0.0, -2.2848734033180627],
        0.00824311518330105,
    );
    properties::<T>(&sa, pa, &sb, pb, 0.0).unwrap();
}
shape::for_each_precision!(ellipse_normal_to_rounding, ellipse_normal_to_rounding);

// ----------------------------------------------------- far from the origin

/// Poses on the float grid at the offset `O` (as in `tests/far.rs`): the
/// relative pose is exact, so the answer is the same up to the tolerance,
/// and the points move by `O` up to one spacing.
fn far<T: Real>((sa, sb, pa, pb, (u, theta)): Case<(f64, f64)>) -> Result<(), TestCaseError> {
    let m = max_offset::<T>().powf(u);
    let h = spacing::<T>(2.0 * (m + 8.0));
    let snap = |x: f64| (x / h).round() * h;
    let (pa, pb) = (
        [snap(pa[0]), snap(pa[1]), pa[2]],
        [snap(pb[0]), snap(pb[1]), pb[2]],
    );
    let o = [snap(m * theta.cos()), snap(m * theta.sin())];
    let shift = |p: [f64; 3]| [p[0] + o[0], p[1] + o[1], p[2]];
    let (a, b) = (build::<T>(&sa), build::<T>(&sb));
    let cp = |pa: [f64; 3], pb: [f64; 3]| {
        narrowphase::closest_points(
            a.as_ref(),
            &iso::<T>(pa),
            b.as_ref(),
            &iso::<T>(pb),
            T::infinity(),
        )
        .unwrap()
    };
    let (near, far) = (cp(pa, pb), cp(shift(pa), shift(pb)));
    let tol = reference_tolerance::<T>(extent(&sa) + extent(&sb) + 8.0)
        + ellipse_tolerance::<T>(&sa, &sb);
    match (near, far) {
        (ClosestPoints::Intersecting, ClosestPoints::Intersecting) => {}
        (
            ClosestPoints::WithinMargin {
                point_a: na,
                point_b: nb,
                distance: dn,
                ..
            },
            ClosestPoints::WithinMargin {
                point_a: fa,
                point_b: fb,
                distance: df,
                ..
            },
        ) => {
            prop_assert!(
                (dn - df).as_f64().abs() <= tol,
                "distance {dn:?} near, {df:?} far"
            );
            for (p, q) in [(na, fa), (nb, fb)] {
                let e = [
                    q.x.as_f64() - o[0] - p.x.as_f64(),
                    q.y.as_f64() - o[1] - p.y.as_f64(),
                ];
                prop_assert!(
                    e[0].abs().max(e[1].abs()) <= h + tol,
                    "point {p:?} near, {q:?} far (offset {o:?})"
                );
            }
        }
        (x, y) => prop_assert!(false, "{x:?} near, {y:?} far (offset {o:?})"),
    }
    Ok(())
}

fn far_from_the_origin<T: Real>() {
    every_ordered_pair(12, || (0.0f64..=1.0, -PI..PI), far::<T>);
}
shape::for_each_precision!(far_from_the_origin, far_from_the_origin);

// ----------------------------------------------------------- known values

/// Every pair (both orders) touching at exactly representable coordinates is
/// `Intersecting`; a hair apart, a small positive distance.
fn touching_and_a_hair_apart<T: Real>() {
    let shapes = touching_shapes::<T>();
    let mut failures = Vec::new();
    for (a, ra) in &shapes {
        for (b, rb) in &shapes {
            let d = T::lit(ra + rb);
            let hair = Float::max(d, T::one()) * T::epsilon() * T::lit(8.0);
            let o = Isometry2::identity();
            let touch = Isometry2::translation(d, T::zero());
            let apart = Isometry2::translation(d + hair, T::zero());
            let t =
                narrowphase::closest_points(a.as_ref(), &o, b.as_ref(), &touch, T::zero()).unwrap();
            let h = narrowphase::distance(a.as_ref(), &o, b.as_ref(), &apart).unwrap();
            let small = hair.as_f64() + reference_tolerance::<T>(4.0);
            if t != ClosestPoints::Intersecting || !(h > T::zero() && h.as_f64() <= small) {
                failures.push(format!(
                    "{} vs {}: touching {t:?}, a hair apart {h:?}",
                    a.kind(),
                    b.kind()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
shape::for_each_precision!(touching, touching_and_a_hair_apart);

use num_traits::Float;

/// Known distances at exactly representable coordinates.
fn known_distances<T: Real>() {
    let p = |x: f64, y: f64| Point2::new(T::lit(x), T::lit(y));
    let at = |x: f64, y: f64| Isometry2::translation(T::lit(x), T::lit(y));
    let boxed = Obb::new(Vector2::new(T::one(), T::one())).unwrap();
    let ball = Circle::new(T::one()).unwrap();
    let tri = Triangle::new(p(0.0, 0.0), p(2.0, 0.0), p(0.0, 2.0)).unwrap();
    let pill = Capsule::new(p(0.0, -1.0), p(0.0, 1.0), T::half()).unwrap();
    let square =
        ConvexPolygon::new(&[p(-1.0, -1.0), p(1.0, -1.0), p(1.0, 1.0), p(-1.0, 1.0)]).unwrap();
    let o = Isometry2::identity();
    let d = |a: &dyn Shape<T>, pa: Isometry2<T>, b: &dyn Shape<T>, pb: Isometry2<T>| {
        narrowphase::distance(a, &pa, b, &pb).unwrap().as_f64()
    };
    // Boxes 3 apart face to face; corner to corner (3, 4) → 5.
    assert_eq!(d(&boxed, o, &boxed, at(5.0, 0.0)), 3.0);
    assert_eq!(d(&boxed, o, &boxed, at(5.0, 6.0)), 5.0);
    assert_eq!(d(&square, o, &square, at(-2.0, 9.0)), 7.0);
    // Ball over a box's corner at (1, 1): centre at (4, 5) → 5 − 1.
    assert_eq!(d(&ball, at(4.0, 5.0), &boxed, o), 4.0);
    assert_eq!(d(&ball, at(4.0, 5.0), &square, o), 4.0);
    // Ball over the triangle's hypotenuse x + y = 2: centre (3, 3) is 4/√2 away.
    let e = d(&ball, at(3.0, 3.0), &tri, o) - (4.0 / 2f64.sqrt() - 1.0);
    assert!(e.abs() <= reference_tolerance::<T>(4.0), "{e}");
    // Capsule beside a box: core x = 3, radius 1/2 → 1.5.
    assert_eq!(d(&pill, at(3.0, 0.5), &boxed, o), 1.5);
    assert_eq!(d(&boxed, o, &pill, at(3.0, 0.5)), 1.5);
    // The points and the normal.
    let ClosestPoints::WithinMargin {
        point_a,
        point_b,
        normal,
        ..
    } = narrowphase::closest_points(&boxed, &o, &boxed, &at(5.0, 6.0), T::infinity()).unwrap()
    else {
        panic!()
    };
    assert_eq!((point_a, point_b), (p(1.0, 1.0), p(4.0, 5.0)));
    let n = normal.into_inner() - Vector2::new(T::lit(0.6), T::lit(0.8));
    assert!(n.norm().as_f64() <= reference_tolerance::<T>(1.0));
    // Signed: 0.5 deep boxes.
    let s = narrowphase::signed_distance(&boxed, &o, &boxed, &at(1.5, 0.0)).unwrap();
    assert_eq!(s.as_f64(), -0.5);
}
shape::for_each_precision!(known_distances, known_distances);

// -------------------------------------------------------------- bad input

fn bad_input<T: Real>() {
    let c = Circle::new(T::one()).unwrap();
    let b = Obb::new(Vector2::new(T::one(), T::two())).unwrap();
    let o = Isometry2::identity();
    let p = Isometry2::translation(T::lit(5.0), T::zero());
    for md in [
        T::nan(),
        -T::one(),
        T::neg_infinity(),
        -T::min_positive_value(),
    ] {
        assert_eq!(
            narrowphase::closest_points(&c, &o, &b, &p, md),
            Err(DispatchError::InvalidMaxDistance),
            "{md:?}"
        );
        assert_eq!(
            DispatchTable::<T>::new().closest_points(&c, &o, &b, &p, md),
            Err(DispatchError::InvalidMaxDistance)
        );
    }
    // −0 is a valid zero.
    assert_eq!(
        narrowphase::closest_points(&c, &o, &b, &p, -T::zero()),
        Ok(ClosestPoints::Farther)
    );
    for x in [T::nan(), T::infinity(), T::neg_infinity()] {
        let bad = Isometry2::translation(x, T::zero());
        let turned = Isometry2::new(Vector2::zeros(), x);
        for q in [bad, turned] {
            assert_eq!(
                narrowphase::closest_points(&c, &q, &b, &p, T::one()),
                Err(DispatchError::NonFinitePose)
            );
            assert_eq!(
                narrowphase::distance(&c, &o, &b, &q),
                Err(DispatchError::NonFinitePose)
            );
            assert_eq!(
                narrowphase::signed_distance(&b, &q, &c, &o),
                Err(DispatchError::NonFinitePose)
            );
        }
    }
    // Finite but huge: far apart, no panic, no NaN.
    let huge = Isometry2::translation(<T as Float>::max_value(), T::zero());
    assert_eq!(
        narrowphase::closest_points(&c, &o, &b, &huge, T::one()),
        Ok(ClosestPoints::Farther)
    );
    let d = narrowphase::distance(&c, &o, &b, &huge).unwrap();
    assert!(!d.is_nan() && d > T::zero(), "{d:?}");
}
shape::for_each_precision!(bad_input, bad_input);

// ------------------------------------------------------------- user kinds

/// A user convex shape goes through the fallback (SAT decides, GJK measures)
/// and agrees with the built-in polygon of the same vertices, against every
/// built-in kind, both orders.
fn user_convex_through_the_fallback<T: Real>() {
    let table = DispatchTable::<T>::new();
    let hex = Hex::<T>::new(1.0);
    let builtin = ConvexPolygon::new(&hexagon::<T>(1.0)).unwrap();
    let ph = Isometry2::new(Vector2::new(T::lit(0.3), T::lit(-0.2)), T::lit(0.4));
    for (other, _) in touching_shapes::<T>() {
        for (x, y, angle) in [
            (3.5, 0.5, 0.3),
            (0.5, 2.9, -1.0),
            (0.2, 0.1, 2.0),
            (-2.6, -1.4, 0.7),
        ] {
            let po = Isometry2::new(Vector2::new(T::lit(x), T::lit(y)), T::lit(angle));
            let ours = table
                .closest_points(&hex, &ph, other.as_ref(), &po, T::infinity())
                .unwrap();
            let theirs = table
                .closest_points(other.as_ref(), &po, &hex, &ph, T::infinity())
                .unwrap();
            assert_eq!(ours, theirs.flipped(), "{} at {x}, {y}", other.kind());
            let want =
                narrowphase::closest_points(&builtin, &ph, other.as_ref(), &po, T::infinity())
                    .unwrap();
            let tol = 8.0 * narrowphase::gjk::gjk_tolerance::<T>().as_f64() * 8.0
                + reference_tolerance::<T>(8.0);
            match (ours, want) {
                (ClosestPoints::Intersecting, ClosestPoints::Intersecting) => {}
                (
                    ClosestPoints::WithinMargin {
                        distance: d,
                        point_a: a,
                        point_b: b,
                        ..
                    },
                    ClosestPoints::WithinMargin {
                        distance: e,
                        point_a: a2,
                        point_b: b2,
                        ..
                    },
                ) => {
                    assert!(
                        (d - e).as_f64().abs() <= tol,
                        "{} at {x}, {y}: {d:?} vs {e:?}",
                        other.kind()
                    );
                    // The closest points are unique here (no parallel faces
                    // at these angles). On a curved partner GJK's points are
                    // only as good as the square root of its tolerance (the
                    // distance is flat to second order in the direction).
                    let curved = [
                        ShapeKind::CIRCLE,
                        ShapeKind::CAPSULE,
                        ShapeKind::ELLIPSE,
                        ShapeKind::ROUNDED_POLYGON,
                    ]
                    .contains(&other.kind());
                    let point_tol = if curved {
                        tol + 8.0 * narrowphase::gjk::gjk_tolerance::<T>().as_f64().sqrt()
                    } else {
                        tol
                    };
                    assert!(
                        (a - a2).norm().as_f64() <= point_tol
                            && (b - b2).norm().as_f64() <= point_tol,
                        "{} at {x}, {y}: {ours:?} vs {want:?}",
                        other.kind()
                    );
                }
                (u, v) => panic!("{} at {x}, {y}: {u:?} vs {v:?}", other.kind()),
            }
            assert_eq!(
                matches!(ours, ClosestPoints::Intersecting),
                table.intersects(&hex, &ph, other.as_ref(), &po).unwrap()
            );
        }
    }
    assert_eq!(table.route(&hex, &builtin).unwrap(), Route::Sat);
}
shape::for_each_precision!(user_convex, user_convex_through_the_fallback);

/// A registered closest-points kernel serves its pair and, mirrored, the
/// other order; a user shape with no convex view is `Unsupported`.
#[test]
fn registered_user_kernel_and_unsupported() {
    fn hex_circle(
        a: &Hex<f64>,
        b: &Circle<f64>,
        m: &Isometry2<f64>,
        md: f64,
    ) -> ClosestPoints<f64> {
        // B's frame to A's: the circle–polygon kernel answers in the circle's.
        narrowphase::circle::circle_polygon_closest_points(b, &a.0, &m.inverse(), md)
            .flipped()
            .transformed(m)
    }
    let mut table = DispatchTable::<f64>::new();
    table.register_closest_points(
        Hex::<f64>::KIND,
        ShapeKind::CIRCLE,
        "hex_circle",
        hex_circle,
    );
    let hex = Hex::<f64>::new(1.0);
    let circle = Circle::new(0.5).unwrap();
    assert_eq!(
        table
            .route_for::<ClosestPointsQuery>(&hex, &circle)
            .unwrap(),
        Route::Kernel {
            name: "hex_circle",
            mirrored: false
        }
    );
    assert_eq!(
        table
            .route_for::<ClosestPointsQuery>(&circle, &hex)
            .unwrap(),
        Route::Kernel {
            name: "hex_circle",
            mirrored: true
        }
    );
    // The other queries still go through the fallback.
    assert_eq!(table.route(&hex, &circle).unwrap(), Route::Sat);
    let (o, p) = (
        Isometry2::new(Vector2::new(1.0, -2.0), 0.25),
        Isometry2::new(Vector2::new(4.5, 0.3), 0.4),
    );
    let by_kernel = table
        .closest_points(&hex, &o, &circle, &p, f64::INFINITY)
        .unwrap();
    let mirrored = table
        .closest_points(&circle, &p, &hex, &o, f64::INFINITY)
        .unwrap();
    assert_eq!(mirrored, by_kernel.flipped());
    // The kernel is the one used: the built-in circle–polygon answer, exactly.
    let builtin = ConvexPolygon::new(&hexagon::<f64>(1.0)).unwrap();
    let want = narrowphase::closest_points(&builtin, &o, &circle, &p, f64::INFINITY).unwrap();
    let (
        ClosestPoints::WithinMargin { distance: d, .. },
        ClosestPoints::WithinMargin { distance: e, .. },
    ) = (by_kernel, want)
    else {
        panic!("{by_kernel:?} {want:?}")
    };
    assert!((d - e).abs() <= 1e-12, "{d} vs {e}");
    assert_eq!(
        table.closest_points(&hex, &o, &circle, &p, 1.0),
        Ok(ClosestPoints::Farther)
    );
    // No convex view: unsupported, both orders, never a panic.
    let unsupported = Err(DispatchError::Unsupported {
        a: ShapeKind::custom(2),
        b: ShapeKind::CIRCLE,
    });
    assert_eq!(
        table.closest_points(&Ring, &o, &circle, &p, 1.0),
        unsupported
    );
    assert!(table.closest_points(&circle, &p, &Ring, &o, 1.0).is_err());
    assert!(narrowphase::distance(&Ring, &o, &circle, &p).is_err());
    assert!(narrowphase::signed_distance(&circle, &o, &Ring, &p).is_err());
}

/// Regression (found by a deep run of `close_pairs`, f32): a segment's end
/// 1.6e-5 above an `Aabb`'s corner and 0.0075 beside it. Rounding picks the
/// corner as the closest point of the box (the pair is ill-conditioned in
/// f32: the two candidate pairs' squared distances differ by less than
/// their rounding), so the normal is 0.002 rad off; the reference used to
/// require a separating gap along the reported normal, which holds only to
/// `tol / d` in angle. The answer is right to the tolerance; the reference
/// now finds the largest support gap itself.
fn segment_beside_an_aabb_corner<T: Real>() {
    let sa = Spec::Segment([-4.835458247628185, -0.8515954095756854], [0.0, 0.0]);
    let sb = Spec::Aabb(
        [0.7327283160033556, 0.352242902420673],
        [0.7827283160033557, 4.899955224033287],
    );
    let pa = [-2.3689451118577534, 0.7162848983774859, -2.5702889164298885];
    let pb = closer(
        &sa,
        pa,
        &sb,
        [0.5370475025514019, 3.71996499386749, 0.0],
        0.005228005228425665,
    );
    properties::<T>(&sa, pa, &sb, pb, 0.0).unwrap();
}
shape::for_each_precision!(segment_beside_an_aabb_corner, segment_beside_an_aabb_corner);
