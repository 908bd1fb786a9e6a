//! Distance and closest points for every ordered pair of the built-in 3D
//! kinds (sphere, cuboid, `Aabb3`: 9 pairs), f32 and f64 from one generic
//! body, through `narrowphase::dim3::{closest_points3, distance3,
//! signed_distance3}`.
//!
//! The checks are those of `tests/distance.rs`: exact symmetry (points
//! swapped, normal negated, distances bitwise equal), `Intersecting` and
//! distance 0 exactly when `intersects3`, the signed distance exactly minus
//! `contact3`'s depth; apart, against f64 references independent of the
//! kernels: the points on their shapes' surfaces (the sphere's `|p − c| = r`,
//! a box's clamp in its frame), `|point_b − point_a|` the distance along the
//! unit normal, the support functions' gap along the normal at least the
//! distance (a separating slab: no pair of points is nearer), no sampled
//! surface point nearer the other shape; an intersecting pair has no
//! separating direction among 576; `max_distance`; a rigid motion keeps the
//! distance and moves the points with the shapes; far from the origin
//! (1e5 in f32, 1e12 in f64) representable poses keep the answer; bad input
//! is a typed error.
//!
//! Tolerance: `8 × 256 ε × s` with `s` the shapes' size plus the pose
//! coordinates plus the distance (about `2.4e-4·s` in f32, `4.5e-13·s` in
//! f64).

use crate::common;
use crate::support;

use nalgebra::{Isometry3, Point3, Vector3};
use narrowphase::dim3::{closest_points3, contact3, distance3, intersects3, signed_distance3};
use narrowphase::{ClosestPoints3, DispatchError};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use shape::prelude::*;
use support::{KINDS3, Spec3, build3, iso3, motion3, pose3, spec3_of};

type V = Vector3<f64>;

fn tolerance<T: Real>(sa: &Spec3, pa: &[f64; 6], sb: &Spec3, pb: &[f64; 6], d: f64) -> f64 {
    let t = |p: &[f64; 6]| p[0].abs() + p[1].abs() + p[2].abs();
    common::reference_tolerance::<T>(size(sa) + size(sb) + t(pa) + t(pb) + d + 1.0)
}

/// The largest distance of the shape from its local origin.
fn size(s: &Spec3) -> f64 {
    match *s {
        Spec3::Sphere(r) => r,
        Spec3::Cuboid(h) => V::from(h).norm(),
        Spec3::Aabb3(m, e) => V::from(m).abs().norm() + V::from(e).norm(),
    }
}

/// The box's frame and corners (lower, upper) in it; `None` for a sphere.
/// An `Aabb3` ignores its pose's rotation.
fn box_frame(s: &Spec3, pose: &[f64; 6]) -> Option<(Isometry3<f64>, V, V)> {
    let iso = iso3::<f64>(pose);
    match *s {
        Spec3::Sphere(_) => None,
        Spec3::Cuboid(h) => Some((iso, -V::from(h), V::from(h))),
        Spec3::Aabb3(m, e) => Some((
            Isometry3::from(iso.translation),
            V::from(m),
            V::from(m) + V::from(e),
        )),
    }
}

/// The signed distance of the world point `p` to the shape's surface
/// (negative inside), exact in f64.
fn signed_distance(s: &Spec3, pose: &[f64; 6], p: &Point3<f64>) -> f64 {
    let Some((frame, lo, hi)) = box_frame(s, pose) else {
        let Spec3::Sphere(r) = *s else { unreachable!() };
        return (p.coords - V::new(pose[0], pose[1], pose[2])).norm() - r;
    };
    let q = frame.inverse_transform_point(p).coords;
    let k = q.zip_zip_map(&lo, &hi, |x, l, h| x.clamp(l, h));
    let out = (q - k).norm();
    if out > 0.0 {
        return out;
    }
    -(0..3)
        .map(|i| (q[i] - lo[i]).min(hi[i] - q[i]))
        .fold(f64::INFINITY, f64::min)
}

/// Points on the surface: a Fibonacci lattice of 576 on a sphere, a 9 × 9
/// grid on each face of a box.
fn surface(s: &Spec3, pose: &[f64; 6]) -> Vec<Point3<f64>> {
    let Some((frame, lo, hi)) = box_frame(s, pose) else {
        let Spec3::Sphere(r) = *s else { unreachable!() };
        let c = Point3::new(pose[0], pose[1], pose[2]);
        return directions().into_iter().map(|d| c + d * r).collect();
    };
    let mut out = Vec::new();
    for axis in 0..3 {
        let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
        for side in [lo[axis], hi[axis]] {
            for i in 0..=8 {
                for j in 0..=8 {
                    let mut q = V::zeros();
                    q[axis] = side;
                    q[u] = lo[u] + (hi[u] - lo[u]) * i as f64 / 8.0;
                    q[v] = lo[v] + (hi[v] - lo[v]) * j as f64 / 8.0;
                    out.push(frame * Point3::from(q));
                }
            }
        }
    }
    out
}

/// 576 directions spread over the sphere (Fibonacci lattice).
fn directions() -> Vec<V> {
    let n = 576;
    let golden = core::f64::consts::PI * (3.0 - 5.0_f64.sqrt());
    (0..n)
        .map(|k| {
            let z = 1.0 - 2.0 * (k as f64 + 0.5) / n as f64;
            let ring = (1.0 - z * z).sqrt();
            let phi = golden * k as f64;
            V::new(ring * phi.cos(), ring * phi.sin(), z)
        })
        .collect()
}

/// `max p · d` over the shape (f64, the shape crate's support point).
fn support(s: &Spec3, pose: &[f64; 6], d: &V) -> f64 {
    let shape = build3::<f64>(s);
    shape
        .as_convex()
        .unwrap()
        .support_point(&iso3(pose), d)
        .coords
        .dot(d)
}

/// The gap between A and B along the unit `d` (negative when they overlap
/// along it).
fn gap(sa: &Spec3, pa: &[f64; 6], sb: &Spec3, pb: &[f64; 6], d: &V) -> f64 {
    -support(sb, pb, &-d) - support(sa, pa, d)
}

/// The box's 8 corners (world) and its 12 edges as corner index pairs.
fn box_corners(frame: &Isometry3<f64>, lo: V, hi: V) -> [Point3<f64>; 8] {
    core::array::from_fn(|k| {
        let pick = |i: usize| if k >> i & 1 == 0 { lo[i] } else { hi[i] };
        frame * Point3::new(pick(0), pick(1), pick(2))
    })
}

fn box_edges() -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for k in 0..8usize {
        for i in 0..3 {
            if k >> i & 1 == 0 {
                out.push((k, k | 1 << i));
            }
        }
    }
    out
}

/// The distance from `p` to the segment `a b`.
fn point_segment(p: &Point3<f64>, a: &Point3<f64>, b: &Point3<f64>) -> f64 {
    let ab = b - a;
    let t = ((p - a).dot(&ab) / ab.norm_squared()).clamp(0.0, 1.0);
    (p - (a + ab * t)).norm()
}

/// The distance between two segments: `s ↦ dist(P(s), Q)` is convex, so a
/// ternary search over `s` finds its minimum (to rounding in f64).
fn segment_segment(a: (Point3<f64>, Point3<f64>), b: (Point3<f64>, Point3<f64>)) -> f64 {
    let f = |s: f64| point_segment(&(a.0 + (a.1 - a.0) * s), &b.0, &b.1);
    let (mut lo, mut hi) = (0.0, 1.0);
    for _ in 0..100 {
        let (m1, m2) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
        if f(m1) < f(m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    f(lo).min(f(hi)).min(f(0.0)).min(f(1.0))
}

/// The exact distance (f64) between two shapes apart, by features: a sphere
/// is its centre grown by its radius; two convex polyhedra apart have a
/// closest pair at a vertex of one (the distance to the other box, a clamp)
/// or on two edges (segment–segment).
fn reference_distance(sa: &Spec3, pa: &[f64; 6], sb: &Spec3, pb: &[f64; 6]) -> f64 {
    let centre = |p: &[f64; 6]| Point3::new(p[0], p[1], p[2]);
    let to_shape =
        |s: &Spec3, pose: &[f64; 6], p: &Point3<f64>| signed_distance(s, pose, p).max(0.0);
    match (*sa, *sb) {
        (Spec3::Sphere(ra), Spec3::Sphere(rb)) => (centre(pb) - centre(pa)).norm() - ra - rb,
        (Spec3::Sphere(r), _) => to_shape(sb, pb, &centre(pa)) - r,
        (_, Spec3::Sphere(r)) => to_shape(sa, pa, &centre(pb)) - r,
        _ => {
            let (fa, la, ha) = box_frame(sa, pa).unwrap();
            let (fb, lb, hb) = box_frame(sb, pb).unwrap();
            let (ca, cb) = (box_corners(&fa, la, ha), box_corners(&fb, lb, hb));
            let mut best = f64::INFINITY;
            for v in &ca {
                best = best.min(to_shape(sb, pb, v));
            }
            for v in &cb {
                best = best.min(to_shape(sa, pa, v));
            }
            for &(i, j) in &box_edges() {
                for &(k, l) in &box_edges() {
                    best = best.min(segment_segment((ca[i], ca[j]), (cb[k], cb[l])));
                }
            }
            best
        }
    }
}

fn f64s<T: Real>(p: &Point3<T>) -> Point3<f64> {
    Point3::new(p.x.as_f64(), p.y.as_f64(), p.z.as_f64())
}

struct Answers<T: Real> {
    hit: bool,
    closest: ClosestPoints3<T>,
    distance: T,
    signed: T,
}

fn properties<T: Real>(
    sa: &Spec3,
    pa: &[f64; 6],
    sb: &Spec3,
    pb: &[f64; 6],
    md_fraction: f64,
) -> Result<Answers<T>, TestCaseError> {
    let (a, b) = (build3::<T>(sa), build3::<T>(sb));
    let (a, b) = (a.as_ref(), b.as_ref());
    let (ia, ib) = (iso3::<T>(pa), iso3::<T>(pb));
    let inf = T::infinity();
    let ab = Answers {
        hit: intersects3(a, &ia, b, &ib).unwrap(),
        closest: closest_points3(a, &ia, b, &ib, inf).unwrap(),
        distance: distance3(a, &ia, b, &ib).unwrap(),
        signed: signed_distance3(a, &ia, b, &ib).unwrap(),
    };
    let ba = closest_points3(b, &ib, a, &ia, inf).unwrap();
    prop_assert_eq!(ab.closest, ba.flipped());
    prop_assert_eq!(
        ab.distance.as_f64().to_bits(),
        distance3(b, &ib, a, &ia).unwrap().as_f64().to_bits()
    );
    prop_assert_eq!(
        ab.signed.as_f64().to_bits(),
        signed_distance3(b, &ib, a, &ia).unwrap().as_f64().to_bits()
    );
    prop_assert_eq!(matches!(ab.closest, ClosestPoints3::Intersecting), ab.hit);
    prop_assert_eq!(ab.distance == T::zero(), ab.hit);
    match contact3(a, &ia, b, &ib).unwrap() {
        Some(c) => prop_assert_eq!(ab.signed, -c.depth),
        None => prop_assert_eq!(ab.signed, ab.distance),
    }
    let d = ab.distance.as_f64();
    let tol = tolerance::<T>(sa, pa, sb, pb, d);
    match ab.closest {
        ClosestPoints3::Farther => prop_assert!(false, "Farther than +∞"),
        ClosestPoints3::Intersecting => {
            let best = directions()
                .iter()
                .map(|n| gap(sa, pa, sb, pb, n))
                .fold(f64::NEG_INFINITY, f64::max);
            prop_assert!(
                best <= tol,
                "intersecting, but a gap of {best} along a direction"
            );
        }
        ClosestPoints3::WithinMargin {
            point_a,
            point_b,
            normal,
            distance,
        } => {
            prop_assert_eq!(distance, ab.distance);
            let (p, q) = (f64s(&point_a), f64s(&point_b));
            let n = V::new(normal.x.as_f64(), normal.y.as_f64(), normal.z.as_f64());
            prop_assert!(d > 0.0 && d.is_finite());
            let (off_a, off_b) = (signed_distance(sa, pa, &p), signed_distance(sb, pb, &q));
            prop_assert!(off_a.abs() <= tol, "point_a {p:?} is {off_a} off A");
            prop_assert!(off_b.abs() <= tol, "point_b {q:?} is {off_b} off B");
            prop_assert!(
                ((q - p).norm() - d).abs() <= tol,
                "|q − p| {} vs {d}",
                (q - p).norm()
            );
            prop_assert!((n.norm() - 1.0).abs() <= common::reference_tolerance::<T>(1.0));
            prop_assert!(
                (q - p - n * d).norm() <= tol,
                "q − p = {:?}, n = {n:?}",
                q - p
            );
            let r = reference_distance(sa, pa, sb, pb);
            prop_assert!((r - d).abs() <= tol, "reference distance {r}, distance {d}");
            for (from, pf, to, pt) in [(sa, pa, sb, pb), (sb, pb, sa, pa)] {
                let nearest = surface(from, pf)
                    .iter()
                    .map(|x| signed_distance(to, pt, x).max(0.0))
                    .fold(f64::INFINITY, f64::min);
                prop_assert!(
                    nearest >= d - tol,
                    "a sampled point {nearest} away, distance {d}"
                );
            }
        }
    }
    let cut = |md: T| closest_points3(a, &ia, b, &ib, md).unwrap();
    if ab.hit {
        prop_assert_eq!(cut(T::zero()), ClosestPoints3::Intersecting);
    } else {
        prop_assert_eq!(cut(T::zero()), ClosestPoints3::Farther);
        let md = T::lit(2.0 * md_fraction * d);
        let (m, answer) = (md.as_f64(), cut(md));
        if answer == ClosestPoints3::Farther {
            prop_assert!(d > m - tol, "Farther than {m} at distance {d}");
        } else {
            prop_assert_eq!(answer, ab.closest);
        }
        if d > m + tol {
            prop_assert_eq!(answer, ClosestPoints3::Farther);
        }
        prop_assert_eq!(
            closest_points3(b, &ib, a, &ia, md).unwrap(),
            answer.flipped()
        );
    }
    Ok(ab)
}

fn distance_props<T: Real>(
    sa: Spec3,
    pa: [f64; 6],
    sb: Spec3,
    pb: [f64; 6],
    (md_fraction, motion): (f64, [f64; 6]),
) -> Result<(), TestCaseError> {
    let before = properties::<T>(&sa, &pa, &sb, &pb, md_fraction)?;
    // The motion, without its rotation when an Aabb3 (which ignores
    // rotation) is involved; applied to the poses in f64.
    let has_aabb = matches!(sa, Spec3::Aabb3(..)) || matches!(sb, Spec3::Aabb3(..));
    let m = if has_aabb {
        iso3::<f64>(&[motion[0], motion[1], motion[2], 0.0, 0.0, 0.0])
    } else {
        iso3::<f64>(&motion)
    };
    let moved = |p: &[f64; 6]| {
        let q = m * iso3::<f64>(p);
        let r = q.rotation.scaled_axis();
        [
            q.translation.x,
            q.translation.y,
            q.translation.z,
            r.x,
            r.y,
            r.z,
        ]
    };
    let (qa, qb) = (moved(&pa), moved(&pb));
    let after = properties::<T>(&sa, &qa, &sb, &qb, md_fraction)?;
    let d = before.distance.as_f64();
    let tol = tolerance::<T>(&sa, &qa, &sb, &qb, d) + tolerance::<T>(&sa, &pa, &sb, &pb, d);
    if before.hit != after.hit {
        prop_assert!(
            after.distance.as_f64().max(d) <= tol,
            "the motion changed the answer"
        );
        return Ok(());
    }
    prop_assert!((after.distance.as_f64() - d).abs() <= tol);
    if let ClosestPoints3::WithinMargin {
        point_a, point_b, ..
    } = after.closest
    {
        // Taken back by the inverse motion: a closest pair of the originals.
        let (p, q) = (m.inverse() * f64s(&point_a), m.inverse() * f64s(&point_b));
        prop_assert!(signed_distance(&sa, &pa, &p).abs() <= tol);
        prop_assert!(signed_distance(&sb, &pb, &q).abs() <= tol);
        prop_assert!(((q - p).norm() - d).abs() <= tol);
    }
    Ok(())
}

/// Runs `body` on `cases` seeded cases of each of the 9 ordered kind pairs.
fn every_ordered_pair3<S: Strategy>(
    cases: u32,
    extra: impl Fn() -> S,
    body: impl Fn((Spec3, Spec3, [f64; 6], [f64; 6], S::Value)) -> Result<(), TestCaseError>,
) {
    let pairs = (KINDS3 * KINDS3) as u32;
    for i in 0..KINDS3 {
        for j in 0..KINDS3 {
            let config = Config {
                cases: shape::testing::cases(cases * pairs).div_ceil(pairs),
                failure_persistence: None,
                ..Config::default()
            };
            let mut runner =
                TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha));
            let strategy = (spec3_of(i), spec3_of(j), pose3(), pose3(), extra());
            if let Err(e) = runner.run(&strategy, &body) {
                panic!("kinds ({i}, {j}): {e}");
            }
        }
    }
}

fn every_pair<T: Real>() {
    every_ordered_pair3(
        24,
        || (0.0f64..=1.0, motion3()),
        |(sa, sb, pa, pb, extra)| distance_props::<T>(sa, pa, sb, pb, extra),
    );
}
shape::for_each_precision!(every_pair, every_pair);

/// Apart poses: B pushed away from A along the centres' line by up to 3.
fn apart_pairs<T: Real>() {
    every_ordered_pair3(
        24,
        || (0.0f64..=1.0, 0.0f64..3.0),
        |(sa, sb, pa, pb, (md_fraction, push))| {
            let c = V::new(pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]);
            prop_assume!(c.norm() > 1e-6);
            let n = c / c.norm();
            let along = gap(&sa, &pa, &sb, &pb, &n);
            let k = push - along;
            let pb = [
                pb[0] + n.x * k,
                pb[1] + n.y * k,
                pb[2] + n.z * k,
                pb[3],
                pb[4],
                pb[5],
            ];
            properties::<T>(&sa, &pa, &sb, &pb, md_fraction).map(|_| ())
        },
    );
}
shape::for_each_precision!(apart_pairs, apart_pairs);

/// Far from the origin: poses on the float grid at the offset give the same
/// answer, the points moved by the offset up to one spacing.
fn far<T: Real>() {
    every_ordered_pair3(
        16,
        || (0.0..=1.0_f64, prop::array::uniform3(-1.0..1.0_f64)),
        |(sa, sb, pa, pb, (u, dir))| {
            let norm = V::from(dir).norm();
            prop_assume!(norm > 1e-3);
            let m = common::max_offset::<T>().powf(u);
            let h = common::spacing::<T>(2.0 * (m + 8.0));
            let snap = |x: f64| (x / h).round() * h;
            let o = dir.map(|x| snap(x / norm * m));
            let snapped = |p: [f64; 6]| [snap(p[0]), snap(p[1]), snap(p[2]), p[3], p[4], p[5]];
            let (pa, pb) = (snapped(pa), snapped(pb));
            let shift = |p: [f64; 6]| [p[0] + o[0], p[1] + o[1], p[2] + o[2], p[3], p[4], p[5]];
            let (a, b) = (build3::<T>(&sa), build3::<T>(&sb));
            let cp = |pa: [f64; 6], pb: [f64; 6]| {
                closest_points3(
                    a.as_ref(),
                    &iso3(&pa),
                    b.as_ref(),
                    &iso3(&pb),
                    T::infinity(),
                )
                .unwrap()
            };
            let tol = common::reference_tolerance::<T>(size(&sa) + size(&sb) + 8.0);
            match (cp(pa, pb), cp(shift(pa), shift(pb))) {
                (ClosestPoints3::Intersecting, ClosestPoints3::Intersecting) => {}
                (
                    ClosestPoints3::WithinMargin {
                        point_a: na,
                        point_b: nb,
                        distance: dn,
                        ..
                    },
                    ClosestPoints3::WithinMargin {
                        point_a: fa,
                        point_b: fb,
                        distance: df,
                        ..
                    },
                ) => {
                    prop_assert!((dn - df).as_f64().abs() <= tol, "{dn:?} near, {df:?} far");
                    for (p, q) in [(na, fa), (nb, fb)] {
                        for i in 0..3 {
                            let e = q[i].as_f64() - o[i] - p[i].as_f64();
                            prop_assert!(e.abs() <= h + tol, "{p:?} near, {q:?} far, offset {o:?}");
                        }
                    }
                }
                (x, y) => prop_assert!(false, "{x:?} near, {y:?} far (offset {o:?})"),
            }
            Ok(())
        },
    );
}
shape::for_each_precision!(far_from_the_origin, far);

/// Known values at exactly representable coordinates, touching and a hair
/// apart, and bad input.
fn known_values_and_bad_input<T: Real>() {
    let v = support::v3::<T>;
    let at = |x: f64, y: f64, z: f64| Isometry3::translation(T::lit(x), T::lit(y), T::lit(z));
    let cube = Cuboid::new(v(1.0, 1.0, 1.0)).unwrap();
    let cell = Aabb3::new(Point3::origin(), Point3::new(T::one(), T::one(), T::one())).unwrap();
    let ball = Sphere::new(T::one()).unwrap();
    let o = Isometry3::identity();
    let d = |a: &dyn Shape3<T>, pa: Isometry3<T>, b: &dyn Shape3<T>, pb: Isometry3<T>| {
        distance3(a, &pa, b, &pb).unwrap().as_f64()
    };
    // Faces 3 apart; corner to corner (2, 3, 6) → 7; a ball over a corner.
    let close = |x: f64, y: f64| (x - y).abs() <= common::reference_tolerance::<T>(8.0);
    assert_eq!(d(&cube, o, &cube, at(5.0, 0.0, 0.0)), 3.0);
    assert!(close(d(&cube, o, &cube, at(4.0, 5.0, 8.0)), 7.0));
    assert!(close(d(&ball, at(3.0, 4.0, 7.0), &cube, o), 6.0));
    assert!(close(d(&cell, o, &ball, at(3.0, 4.0, 7.0)), 6.0));
    assert_eq!(d(&cell, o, &cell, at(0.0, 3.0, 0.0)), 2.0);
    // Touching: intersecting; a hair apart: a small positive distance.
    let hair = T::epsilon() * T::lit(8.0);
    let shapes: [(&dyn Shape3<T>, f64); 3] = [(&cube, 1.0), (&ball, 1.0), (&cell, 0.5)];
    for (a, ra) in shapes {
        for (b, rb) in shapes {
            // The cell [0, 1]³ placed at −1/2 reaches 1/2 each way.
            let (oa, ob) = (
                if ra == 0.5 { -0.5 } else { 0.0 },
                if rb == 0.5 { -0.5 } else { 0.0 },
            );
            let touch = T::lit(ra + rb);
            let pa = at(oa, oa, oa);
            let pb = |x: T| Isometry3::translation(x + T::lit(ob), T::lit(ob), T::lit(ob));
            assert_eq!(
                closest_points3(a, &pa, b, &pb(touch), T::zero()),
                Ok(ClosestPoints3::Intersecting),
                "{a:?} {b:?}"
            );
            let apart = distance3(a, &pa, b, &pb(touch + hair * T::two())).unwrap();
            assert!(
                apart > T::zero() && apart <= hair * T::lit(4.0),
                "{a:?} {b:?}: {apart:?}"
            );
        }
    }
    // Bad input.
    for md in [T::nan(), -T::one()] {
        assert_eq!(
            closest_points3(&ball, &o, &cube, &at(5.0, 0.0, 0.0), md),
            Err(DispatchError::InvalidMaxDistance)
        );
    }
    let nan = Isometry3::translation(T::nan(), T::zero(), T::zero());
    assert_eq!(
        distance3(&ball, &nan, &cube, &o),
        Err(DispatchError::NonFinitePose)
    );
    assert_eq!(
        signed_distance3(&cube, &o, &ball, &nan),
        Err(DispatchError::NonFinitePose)
    );
    assert_eq!(
        closest_points3(&cell, &o, &ball, &nan, T::one()),
        Err(DispatchError::NonFinitePose)
    );
}
shape::for_each_precision!(known_values_and_bad_input, known_values_and_bad_input);

#[test]
fn both_orders_of_the_same_box() {
    // The same shape twice (canonical order by pose): exactly mirrored.
    let cube = Cuboid::new(Vector3::new(1.0, 0.5, 0.25)).unwrap();
    let (p, q) = (
        Isometry3::new(Vector3::new(0.1, 0.2, 0.3), Vector3::new(0.3, -0.2, 0.9)),
        Isometry3::new(Vector3::new(3.0, -1.0, 0.5), Vector3::new(-1.0, 0.4, 0.2)),
    );
    let x = closest_points3(&cube, &p, &cube, &q, f64::INFINITY).unwrap();
    let y = closest_points3(&cube, &q, &cube, &p, f64::INFINITY).unwrap();
    assert_eq!(x, y.flipped());
    assert!(matches!(x, ClosestPoints3::WithinMargin { .. }));
}
