//! Near-degenerate but valid shapes through every pair kernel, and hostile
//! poses given to the dispatch tables, f32 and f64.
//!
//! - Sliver triangles, boxes 1e-7 thin, ellipses of aspect 1e4, a polygon of
//!   1,000 vertices, a polygon with a nearly straight corner and a tiny
//!   segment meet one shape of every built-in kind, both orders, through
//!   `DispatchTable::shared()` and the free functions: the answers agree with
//!   an exact support-function reference in f64 (the overlap of the two
//!   shapes' projections, minimised over 4096 directions and refined, with a
//!   Lipschitz bound that makes the yes/no decision certain away from
//!   touching), and known values pin the depths of hand-made cases.
//! - Poses with NaN, ±∞, ±0, subnormal and ±MAX numbers: a non-finite pose is
//!   `DispatchError::NonFinitePose`; a finite one gives the reference's answer,
//!   with no NaN in any contact; moving both shapes by a hostile amount
//!   changes nothing but the contact points.

use crate::common;
use crate::support;

use std::f64::consts::PI;

use common::{Spec, build, extent};
use nalgebra::{Isometry2, Isometry3, Translation3, UnitQuaternion, Vector2, Vector3};
use narrowphase::dim3::{Contact3, DispatchTable3};
use narrowphase::{Contact, DispatchError, DispatchTable};
use num_traits::Float;
use shape::prelude::*;
use support::{overlap, support};

// ------------------------------------------------------------ the reference

const DIRECTIONS: usize = 4096;

/// Bounds on the minimum of `overlap` over all directions (the penetration
/// depth when positive, minus the distance when negative): `upper` is the
/// smallest value found (sampled, then refined), `lower` the smallest sample
/// minus the Lipschitz bound over half a sampling step.
struct Reference {
    lower: f64,
    upper: f64,
}

fn reference(sa: &Spec, pa: [f64; 3], sb: &Spec, pb: [f64; 3]) -> Reference {
    let f = |t: f64| overlap(sa, pa, sb, pb, [t.cos(), t.sin()]);
    let step = 2.0 * PI / DIRECTIONS as f64;
    let (mut best_t, mut best) = (0.0, f64::INFINITY);
    for k in 0..DIRECTIONS {
        let t = step * k as f64;
        let v = f(t);
        if v < best {
            (best_t, best) = (t, v);
        }
    }
    // Every point of the shapes is within `lip` of A's origin: overlap(θ)
    // changes by at most `lip · |Δθ|`.
    let lip = extent(sa) + extent(sb) + (pb[0] - pa[0]).hypot(pb[1] - pa[1]);
    let lower = best - lip * step / 2.0;
    // Golden-section refinement around the best sample (only lowers `upper`).
    let (mut lo, mut hi) = (best_t - step, best_t + step);
    let mut upper = best;
    if best.is_finite() {
        for _ in 0..60 {
            let m1 = lo + (hi - lo) * 0.382;
            let m2 = lo + (hi - lo) * 0.618;
            let (v1, v2) = (f(m1), f(m2));
            upper = upper.min(v1).min(v2);
            if v1 < v2 {
                hi = m2;
            } else {
                lo = m1;
            }
        }
    }
    Reference { lower, upper }
}

fn finite2<T: Real>(c: &Contact<T>) -> bool {
    [
        c.normal.x,
        c.normal.y,
        c.depth,
        c.point_a.x,
        c.point_a.y,
        c.point_b.x,
        c.point_b.y,
    ]
    .iter()
    .all(|v| v.is_finite())
}

/// The pose as the kernels see it, back in f64: translation rounded to `T`,
/// the angle of the rotation `T` computed.
fn seen<T: Real>(p: &Isometry2<T>) -> [f64; 3] {
    [
        p.translation.x.as_f64(),
        p.translation.y.as_f64(),
        p.rotation.angle().as_f64(),
    ]
}

/// One query, both orders, through the shared table and the free functions,
/// checked against the reference. `tol_factor` widens the tolerance for
/// kernels that minimise numerically (ellipses). Returns whether they hit.
fn check_pair<T: Real>(
    sa: &Spec,
    ia: &Isometry2<T>,
    sb: &Spec,
    ib: &Isometry2<T>,
    tol_factor: f64,
) -> bool {
    let table = DispatchTable::<T>::shared();
    let (a, b) = (build::<T>(sa), build::<T>(sb));
    let (a, b) = (a.as_ref(), b.as_ref());
    let what = format!("{sa:?} at {ia:?} / {sb:?} at {ib:?}");
    let hit = table.intersects(a, ia, b, ib).unwrap();
    assert_eq!(table.intersects(b, ib, a, ia).unwrap(), hit, "{what}");
    assert_eq!(narrowphase::intersects(a, ia, b, ib).unwrap(), hit);
    let c = table.contact(a, ia, b, ib).unwrap();
    let r = table.contact(b, ib, a, ia).unwrap();
    assert_eq!(narrowphase::contact(a, ia, b, ib).unwrap(), c);
    assert_eq!(c.is_some(), hit, "{what}");
    assert_eq!(r, c.map(|c| c.flipped()), "{what}");

    // The reference, in A's frame of translation (the shapes' distance sets
    // the precision, not the distance from the origin).
    let (mut pa, mut pb) = (seen(ia), seen(ib));
    let origin = [pa[0], pa[1]];
    pa[0] -= origin[0];
    pa[1] -= origin[1];
    pb[0] -= origin[0];
    pb[1] -= origin[1];
    let scale = extent(sa) + extent(sb) + pb[0].hypot(pb[1]) + 1.0;
    let tol = common::reference_tolerance::<T>(scale) * tol_factor;
    let rf = reference(sa, pa, sb, pb);
    if rf.upper < -tol {
        assert!(!hit, "{what}: apart by {} but reported hitting", -rf.upper);
    }
    if rf.lower > tol {
        assert!(
            hit,
            "{what}: overlapping by {} but reported apart",
            rf.lower
        );
    }
    if let Some(c) = c {
        assert!(finite2(&c), "{what}: {c:?}");
        let n = [c.normal.x.as_f64(), c.normal.y.as_f64()];
        assert!((n[0].hypot(n[1]) - 1.0).abs() <= tol, "{what}: {c:?}");
        let depth = c.depth.as_f64();
        assert!(depth >= 0.0);
        assert!(
            depth <= rf.upper + tol,
            "{what}: depth {depth} above the minimum overlap {}",
            rf.upper
        );
        let along = overlap(sa, pa, sb, pb, n);
        assert!(
            (along - depth).abs() <= tol,
            "{what}: overlap along the normal {along}, depth {depth}"
        );
        // The points are the shapes' deepest along the normal.
        let point_tol = tol + common::reference_tolerance::<T>(origin[0].hypot(origin[1]));
        let pa_ = [
            c.point_a.x.as_f64() - origin[0],
            c.point_a.y.as_f64() - origin[1],
        ];
        let pb_ = [
            c.point_b.x.as_f64() - origin[0],
            c.point_b.y.as_f64() - origin[1],
        ];
        let dot = |p: [f64; 2]| p[0] * n[0] + p[1] * n[1];
        assert!(
            (dot(pa_) - support(sa, pa, n)).abs() <= point_tol,
            "{what}: point_a {pa_:?} not A's support along {n:?}"
        );
        assert!(
            (dot(pb_) + support(sb, pb, [-n[0], -n[1]])).abs() <= point_tol,
            "{what}: point_b {pb_:?} not B's support along {:?}",
            [-n[0], -n[1]]
        );
        // And lie in their shapes' bounding boxes.
        for (p, s, pose) in [(pa_, sa, pa), (pb_, sb, pb)] {
            for (axis, k) in [([1.0, 0.0], 0), ([0.0, 1.0], 1)] {
                let hi = support(s, pose, axis);
                let lo = -support(s, pose, [-axis[0], -axis[1]]);
                assert!(
                    p[k] >= lo - point_tol && p[k] <= hi + point_tol,
                    "{what}: contact point {p:?} outside its shape's box"
                );
            }
        }
    }
    hit
}

// ------------------------------------------------------------ the shapes

/// One ordinary shape of every built-in kind, about one unit across.
fn partners() -> Vec<Spec> {
    vec![
        Spec::Point(0.1, -0.05),
        Spec::Segment([-0.4, 0.1], [0.3, -0.2]),
        Spec::Circle(0.4),
        Spec::Aabb([-0.3, -0.2], [0.4, 0.25]),
        Spec::Obb(0.45, 0.2),
        Spec::Triangle([[-0.4, -0.3], [0.5, -0.1], [0.0, 0.45]]),
        Spec::Polygon(vec![
            [0.5, 0.0],
            [0.2, 0.4],
            [-0.3, 0.35],
            [-0.45, -0.1],
            [0.1, -0.4],
        ]),
        Spec::Capsule([-0.3, 0.0], [0.3, 0.1], 0.15),
        Spec::Ellipse(0.5, 0.25),
    ]
}

fn regular_polygon(n: usize, r: f64) -> Vec<[f64; 2]> {
    (0..n)
        .map(|k| {
            let t = 2.0 * PI * k as f64 / n as f64;
            [r * t.cos(), r * t.sin()]
        })
        .collect()
}

/// The near-degenerate shapes, valid in `T`, with the tolerance factor their
/// kernels need.
fn degenerate<T: Real>() -> Vec<(&'static str, Spec, f64)> {
    let eps = T::epsilon().as_f64();
    vec![
        // 64 ε tall: the turns at the base are 64 ε, four times the tolerance.
        (
            "sliver triangle",
            Spec::Triangle([[-1.0, 0.0], [1.0, 0.0], [0.0, 128.0 * eps]]),
            1.0,
        ),
        (
            "needle triangle",
            Spec::Triangle([[0.0, 0.0], [1.5, 0.0], [1.5, 1e-3]]),
            1.0,
        ),
        ("thin obb", Spec::Obb(1.0, 1e-7), 1.0),
        ("thin aabb", Spec::Aabb([-1.0, -1e-7], [1.0, 1e-7]), 1.0),
        ("flat ellipse", Spec::Ellipse(1.0, 1e-4), 4.0),
        ("tall ellipse", Spec::Ellipse(1e-4, 1.0), 4.0),
        ("1000-gon", Spec::Polygon(regular_polygon(1000, 1.0)), 1.0),
        (
            "nearly straight corner",
            Spec::Polygon(vec![
                [-1.0, -0.5],
                [1.0, -0.5],
                [1.0, 0.5],
                [0.0, 0.5 + 64.0 * eps],
                [-1.0, 0.5],
            ]),
            1.0,
        ),
        (
            "tiny segment",
            Spec::Segment([0.0, 0.0], [64.0 * eps, 0.0]),
            1.0,
        ),
        (
            "tiny capsule core",
            Spec::Capsule([0.0, 0.0], [0.0, 64.0 * eps], 0.3),
            1.0,
        ),
    ]
}

/// A small deterministic generator (xorshift), uniform in `[lo, hi)`.
struct Rng(u64);

impl Rng {
    fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        lo + (hi - lo) * ((self.0 >> 11) as f64 / (1u64 << 53) as f64)
    }
}

fn iso<T: Real>(p: [f64; 3]) -> Isometry2<T> {
    Isometry2::new(Vector2::new(T::lit(p[0]), T::lit(p[1])), T::lit(p[2]))
}

/// Every near-degenerate shape against every kind, both orders, at poses
/// drawn around it (hits and misses), against the reference.
fn degenerate_against_every_kind<T: Real>() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for (name, d, factor) in degenerate::<T>() {
        // The 1000-gon's reference is slow: fewer poses.
        let poses = if name == "1000-gon" { 6 } else { 24 };
        let (mut hits, mut misses) = (0, 0);
        for p in partners() {
            let reach = extent(&d) + extent(&p);
            for _ in 0..poses {
                let pa = [
                    rng.uniform(-2.0, 2.0),
                    rng.uniform(-2.0, 2.0),
                    rng.uniform(-PI, PI),
                ];
                let pb = [
                    pa[0] + rng.uniform(-reach, reach),
                    pa[1] + rng.uniform(-reach, reach) * 0.6,
                    rng.uniform(-PI, PI),
                ];
                if check_pair::<T>(&d, &iso(pa), &p, &iso(pb), factor) {
                    hits += 1;
                } else {
                    misses += 1;
                }
            }
        }
        // The poses exercise both answers (and so the contacts) for every
        // degenerate shape.
        assert!(
            hits >= poses && misses >= poses,
            "{name}: {hits} hits, {misses} misses"
        );
    }
}
shape::for_each_precision!(degenerate_against_every_kind, degenerate_against_every_kind);

fn contact<T: Real>(a: &dyn Shape<T>, pa: [f64; 3], b: &dyn Shape<T>, pb: [f64; 3]) -> Contact<T> {
    let table = DispatchTable::<T>::shared();
    let (ia, ib) = (iso::<T>(pa), iso::<T>(pb));
    let c = table.contact(a, &ia, b, &ib).unwrap().expect("a contact");
    assert_eq!(table.contact(b, &ib, a, &ia).unwrap(), Some(c.flipped()));
    assert!(finite2(&c), "{c:?}");
    c
}

fn apart<T: Real>(a: &dyn Shape<T>, pa: [f64; 3], b: &dyn Shape<T>, pb: [f64; 3]) -> bool {
    let table = DispatchTable::<T>::shared();
    let (ia, ib) = (iso::<T>(pa), iso::<T>(pb));
    let hit = table.intersects(a, &ia, b, &ib).unwrap();
    assert_eq!(table.intersects(b, &ib, a, &ia).unwrap(), hit);
    assert_eq!(table.contact(a, &ia, b, &ib).unwrap().is_some(), hit);
    !hit
}

fn assert_contact<T: Real>(c: &Contact<T>, depth: f64, normal: [f64; 2], tol: f64) {
    assert!(
        (c.depth.as_f64() - depth).abs() <= tol,
        "depth {} instead of {depth}",
        c.depth.as_f64()
    );
    let n = [c.normal.x.as_f64(), c.normal.y.as_f64()];
    assert!(
        (n[0] - normal[0]).abs() <= tol && (n[1] - normal[1]).abs() <= tol,
        "normal {n:?} instead of {normal:?}"
    );
}

/// Hand-made cases with known depths.
fn degenerate_known_values<T: Real>() {
    let tol = common::reference_tolerance::<T>(4.0);
    let t = 1e-7;
    let thin = Obb::new(Vector2::new(T::one(), T::lit(t))).unwrap();
    let thin_aabb = Aabb::from_half_extents(Vector2::new(T::one(), T::lit(t))).unwrap();
    let ball = Circle::new(T::half()).unwrap();
    // A ball resting 0.25 deep on a 1e-7 thin box: pushed up by 0.25 + 1e-7.
    for a in [&thin as &dyn Shape<T>, &thin_aabb] {
        let c = contact(a, [0.0, 0.0, 0.0], &ball, [0.0, 0.25, 0.0]);
        assert_contact(&c, 0.25 + t, [0.0, 1.0], tol);
        assert!(apart(a, [0.0, 0.0, 0.0], &ball, [0.0, 0.5 + 1e-3, 0.0]));
    }
    // Two thin boxes crossed at right angles: separated by 1 + 1e-7 either way.
    let c = contact(&thin_aabb, [0.0, 0.0, 0.0], &thin, [0.0, 0.0, PI / 2.0]);
    assert!((c.depth.as_f64() - (1.0 + t)).abs() <= tol, "{c:?}");

    // Ellipses of aspect 1e4.
    let flat = Ellipse::new(Vector2::new(T::one(), T::lit(1e-4))).unwrap();
    // A ball 0.1 deep on the flat side, and at the tip.
    let c = contact(&flat, [0.0, 0.0, 0.0], &ball, [0.0, 1e-4 + 0.4, 0.0]);
    assert_contact(&c, 0.1, [0.0, 1.0], tol);
    let c = contact(&flat, [0.0, 0.0, 0.0], &ball, [1.4, 0.0, 0.0]);
    assert_contact(&c, 0.1, [1.0, 0.0], tol);
    assert!(apart(
        &flat,
        [0.0, 0.0, 0.0],
        &ball,
        [0.0, 1e-4 + 0.5 + 1e-3, 0.0]
    ));
    // Two crossed flat ellipses: 1 + 1e-4 along x or y.
    let c = contact(&flat, [0.0, 0.0, 0.0], &flat, [0.0, 0.0, PI / 2.0]);
    assert!(
        (c.depth.as_f64() - (1.0 + 1e-4)).abs() <= tol * 4.0,
        "{c:?}"
    );
    // Two parallel flat ellipses, one 1.5e-4 above the other: 0.5e-4 deep.
    let c = contact(&flat, [0.0, 0.0, 0.0], &flat, [0.0, 1.5e-4, 0.0]);
    assert_contact(&c, 0.5e-4, [0.0, 1.0], tol * 4.0);
    assert!(apart(&flat, [0.0, 0.0, 0.0], &flat, [0.0, 2.5e-4, 0.0]));
    // A point inside the flat ellipse, 1e-5 under its top.
    let p = Point::new(nalgebra::Point2::origin()).unwrap();
    let c = contact(&flat, [0.0, 0.0, 0.0], &p, [0.0, 0.9e-4, 0.0]);
    assert_contact(&c, 1e-5, [0.0, 1.0], tol);

    // The 1000-gon: a point at its centre is an apothem deep.
    let gon: Vec<_> = regular_polygon(1000, 1.0)
        .iter()
        .map(|v| nalgebra::Point2::new(T::lit(v[0]), T::lit(v[1])))
        .collect();
    let gon = ConvexPolygon::new(&gon).unwrap();
    assert_eq!(gon.vertices().len(), 1000);
    let c = contact(&gon, [0.0, 0.0, 0.0], &p, [0.0, 0.0, 0.0]);
    assert!(
        (c.depth.as_f64() - (PI / 1000.0).cos()).abs() <= tol,
        "{c:?}"
    );
    // A ball touching vertex 0 (at (1, 0)) 0.1 deep.
    let c = contact(&gon, [0.0, 0.0, 0.0], &ball, [1.4, 0.0, 0.0]);
    assert_contact(&c, 0.1, [1.0, 0.0], tol);
    assert!(apart(&gon, [0.0, 0.0, 0.0], &ball, [1.5 + 1e-3, 0.0, 0.0]));

    // A sliver triangle poking 0.01 into a box above it.
    let h = 128.0 * T::epsilon().as_f64();
    let sliver = Triangle::new(
        nalgebra::Point2::new(-T::one(), T::zero()),
        nalgebra::Point2::new(T::one(), T::zero()),
        nalgebra::Point2::new(T::zero(), T::lit(h)),
    )
    .unwrap();
    let bx = Obb::new(Vector2::new(T::half(), T::half())).unwrap();
    let c = contact(&sliver, [0.0, 0.0, 0.0], &bx, [0.0, 0.5 + h - 0.01, 0.0]);
    assert_contact(&c, 0.01, [0.0, 1.0], tol);
    assert!(apart(
        &sliver,
        [0.0, 0.0, 0.0],
        &bx,
        [0.0, 0.5 + h + 1e-3, 0.0]
    ));
}
shape::for_each_precision!(degenerate_known_values, degenerate_known_values);

// ------------------------------------------------------------ 3D

fn finite3<T: Real>(c: &Contact3<T>) -> bool {
    c.normal
        .iter()
        .chain(c.point_a.iter())
        .chain(c.point_b.iter())
        .chain(core::iter::once(&c.depth))
        .all(|v| v.is_finite())
}

fn iso3<T: Real>(t: [f64; 3], axis_angle: [f64; 3]) -> Isometry3<T> {
    Isometry3::new(
        Vector3::new(T::lit(t[0]), T::lit(t[1]), T::lit(t[2])),
        Vector3::new(
            T::lit(axis_angle[0]),
            T::lit(axis_angle[1]),
            T::lit(axis_angle[2]),
        ),
    )
}

fn contact3<T: Real>(
    a: &dyn Shape3<T>,
    pa: &Isometry3<T>,
    b: &dyn Shape3<T>,
    pb: &Isometry3<T>,
) -> Option<Contact3<T>> {
    let table = DispatchTable3::<T>::shared();
    let hit = table.intersects(a, pa, b, pb).unwrap();
    assert_eq!(table.intersects(b, pb, a, pa).unwrap(), hit);
    let c = table.contact(a, pa, b, pb).unwrap();
    assert_eq!(narrowphase::dim3::contact3(a, pa, b, pb).unwrap(), c);
    assert_eq!(table.contact(b, pb, a, pa).unwrap(), c.map(|c| c.flipped()));
    assert_eq!(c.is_some(), hit);
    if let Some(c) = &c {
        assert!(finite3(c), "{c:?}");
    }
    c
}

/// Boxes 1e-7 thin in 3D, with known depths.
fn thin_boxes_3d<T: Real>() {
    let tol = common::reference_tolerance::<T>(4.0);
    let t = 1e-7;
    let id = Isometry3::identity();
    let plate = Cuboid::new(Vector3::new(T::one(), T::one(), T::lit(t))).unwrap();
    let plate_aabb = Aabb3::from_half_extents(Vector3::new(T::one(), T::one(), T::lit(t))).unwrap();
    let ball = Sphere::new(T::half()).unwrap();
    for a in [&plate as &dyn Shape3<T>, &plate_aabb] {
        let c = contact3(a, &id, &ball, &iso3([0.2, -0.1, 0.25], [0.0; 3])).unwrap();
        assert!((c.depth.as_f64() - (0.25 + t)).abs() <= tol, "{c:?}");
        assert!((c.normal.z.as_f64() - 1.0).abs() <= tol, "{c:?}");
        assert!(contact3(a, &id, &ball, &iso3([0.0, 0.0, 0.5 + 1e-3], [0.0; 3])).is_none());
        // Two plates crossed at right angles (about x): 1 + 1e-7 deep.
        let crossed = iso3([0.0; 3], [PI / 2.0, 0.0, 0.0]);
        let c = contact3(a, &id, &plate, &crossed).unwrap();
        assert!((c.depth.as_f64() - (1.0 + t)).abs() <= tol, "{c:?}");
        // Parallel plates 1.5e-7 apart in z overlap by 0.5e-7; 3e-7 apart do not.
        let c = contact3(a, &id, &plate, &iso3([0.3, 0.0, 1.5 * t], [0.0; 3])).unwrap();
        assert!((c.depth.as_f64() - 0.5 * t).abs() <= tol, "{c:?}");
        assert!(contact3(a, &id, &plate, &iso3([0.3, 0.0, 3.0 * t], [0.0; 3])).is_none());
    }
}
shape::for_each_precision!(thin_boxes_3d, thin_boxes_3d);

// ------------------------------------------------------------ hostile poses

/// Every non-finite number a pose can hold, and the finite hostile ones.
fn non_finite<T: Real>() -> [T; 3] {
    [T::nan(), T::infinity(), T::neg_infinity()]
}

fn finite_hostile<T: Real>() -> [T; 6] {
    let max = <T as Float>::max_value();
    let sub = <T as Float>::min_positive_value() / T::lit(2.0);
    [T::zero(), -T::zero(), sub, -sub, max, -max]
}

/// A 2D pose `[x, y, angle]` in `T` with slot `k` replaced by `v`.
fn hostile_pose<T: Real>(base: [f64; 3], k: usize, v: T) -> Isometry2<T> {
    let mut p = [T::lit(base[0]), T::lit(base[1]), T::lit(base[2])];
    p[k] = v;
    Isometry2::new(Vector2::new(p[0], p[1]), p[2])
}

/// 2D: each number of each pose made hostile in turn, for every pair of
/// kinds, both orders, the table and the free functions.
fn hostile_poses_2d<T: Real>() {
    let table = DispatchTable::<T>::shared();
    let specs = partners();
    let (base_a, base_b) = ([0.2, -0.1, 0.4], [0.5, 0.3, -0.7]);
    for sa in &specs {
        for sb in &specs {
            let (a, b) = (build::<T>(sa), build::<T>(sb));
            let (a, b) = (a.as_ref(), b.as_ref());
            let ok_b = iso::<T>(base_b);
            for k in 0..3 {
                for v in non_finite::<T>() {
                    let bad = hostile_pose(base_a, k, v);
                    let e = Err(DispatchError::NonFinitePose);
                    assert_eq!(table.intersects(a, &bad, b, &ok_b), e, "{sa:?} {k} {v:?}");
                    assert_eq!(table.intersects(b, &ok_b, a, &bad), e);
                    assert_eq!(table.contact(a, &bad, b, &ok_b), e.map(|_| None));
                    assert_eq!(table.contact(b, &ok_b, a, &bad), e.map(|_| None));
                    assert_eq!(narrowphase::intersects(a, &bad, b, &ok_b), e);
                    assert_eq!(narrowphase::contact(b, &ok_b, a, &bad), e.map(|_| None));
                }
                for v in finite_hostile::<T>() {
                    // One shape moved: checked against the reference.
                    let ia = hostile_pose(base_a, k, v);
                    check_pair::<T>(sa, &ia, sb, &ok_b, 4.0);
                    // Both shapes moved by the same hostile amount (x or y),
                    // or given the same hostile angle: the relative pose is
                    // the same as without it, so is the answer in A's frame.
                    let ib = hostile_pose(base_b, k, v);
                    check_pair::<T>(sa, &ia, sb, &ib, 4.0);
                }
            }
            // The two shapes at opposite ends of the float range: the
            // relative pose overflows; they are far apart.
            let max = <T as Float>::max_value();
            for (xa, xb) in [(max, -max), (-max, max)] {
                let ia = hostile_pose(base_a, 0, xa);
                let ib = hostile_pose(base_b, 0, xb);
                assert_eq!(table.intersects(a, &ia, b, &ib), Ok(false), "{sa:?} {sb:?}");
                assert_eq!(table.contact(b, &ib, a, &ia), Ok(None), "{sa:?} {sb:?}");
            }
        }
    }
}
shape::for_each_precision!(hostile_poses_2d, hostile_poses_2d);

/// 3D: each number of each pose made hostile in turn, every pair of kinds.
/// Non-finite: the typed error. Finite: the same answer as the same relative
/// configuration near the origin (both shapes moved together, or one given a
/// hostile angle against a sphere, whose answer does not depend on its
/// rotation); one shape moved to ±MAX: apart.
fn hostile_poses_3d<T: Real>() {
    let table = DispatchTable3::<T>::shared();
    let shapes: Vec<Box<dyn Shape3<T>>> = vec![
        Box::new(Sphere::new(T::lit(0.5)).unwrap()),
        Box::new(Cuboid::new(Vector3::new(T::lit(0.5), T::lit(0.3), T::lit(0.2))).unwrap()),
        Box::new(Aabb3::from_half_extents(Vector3::repeat(T::lit(0.4))).unwrap()),
        Box::new(Cuboid::new(Vector3::new(T::one(), T::one(), T::lit(1e-7))).unwrap()),
    ];
    let tol = T::lit(common::reference_tolerance::<T>(4.0));
    for a in &shapes {
        for b in &shapes {
            let (a, b) = (a.as_ref(), b.as_ref());
            for axis in 0..3 {
                // B offset along another axis than the one made hostile, so
                // that moving both along `axis` keeps the relative pose exact.
                let mut off = [0.0; 3];
                off[(axis + 1) % 3] = 0.6;
                let base_a = iso3::<T>([0.0; 3], [0.3, -0.2, 0.1]);
                let base_b = iso3::<T>(off, [-0.1, 0.4, 0.2]);
                let base = contact3(a, &base_a, b, &base_b);
                for v in non_finite::<T>() {
                    let mut bad = base_a;
                    bad.translation.vector[axis] = v;
                    let e = Err(DispatchError::NonFinitePose);
                    assert_eq!(table.intersects(a, &bad, b, &base_b), e);
                    assert_eq!(table.contact(b, &base_b, a, &bad), e.map(|_| None));
                    assert_eq!(narrowphase::dim3::intersects3(b, &base_b, a, &bad), e);
                    let mut angle = [T::zero(); 3];
                    angle[axis] = v;
                    let turned = Isometry3::new(Vector3::zeros(), Vector3::from(angle));
                    assert_eq!(table.intersects(a, &turned, b, &base_b), e);
                    assert_eq!(table.contact(a, &turned, b, &base_b), e.map(|_| None));
                }
                for v in finite_hostile::<T>() {
                    let shift = Translation3::from({
                        let mut s = Vector3::zeros();
                        s[axis] = v;
                        s
                    });
                    let (ma, mb) = (shift * base_a, shift * base_b);
                    let moved = contact3(a, &ma, b, &mb);
                    assert_eq!(moved.is_some(), base.is_some(), "{a:?} {b:?} by {v:?}");
                    if let (Some(m), Some(c)) = (moved, base) {
                        assert_eq!((m.depth, m.normal), (c.depth, c.normal));
                        let scale = T::one() + Float::abs(v);
                        for (p, q) in [(m.point_a, c.point_a), (m.point_b, c.point_b)] {
                            let d = p - shift * q;
                            assert!(d.amax() <= tol * scale, "{p:?} {q:?}");
                        }
                    }
                    // One shape alone far out.
                    if Float::abs(v) == <T as Float>::max_value() {
                        assert!(contact3(a, &ma, b, &base_b).is_none());
                        assert!(contact3(a, &base_a, b, &mb).is_none());
                    }
                    // A sphere turned by a hostile angle answers as unturned.
                    if a.kind() == ShapeKind::SPHERE {
                        let mut angle = Vector3::zeros();
                        angle[axis] = v;
                        let turned =
                            Isometry3::from_parts(base_a.translation, UnitQuaternion::new(angle));
                        let q = turned.rotation.quaternion();
                        if !q.coords.iter().all(|x| x.is_finite()) {
                            // nalgebra cannot turn by MAX (the axis' norm
                            // overflows): the pose it builds is NaN.
                            assert_eq!(
                                table.intersects(a, &turned, b, &base_b),
                                Err(DispatchError::NonFinitePose)
                            );
                            continue;
                        }
                        let t = contact3(a, &turned, b, &base_b);
                        assert_eq!(t.is_some(), base.is_some());
                        if let (Some(t), Some(c)) = (t, base) {
                            assert!(Float::abs(t.depth - c.depth) <= tol);
                            assert!((t.normal.into_inner() - c.normal.into_inner()).amax() <= tol);
                        }
                    }
                }
            }
            // Opposite ends of the range: apart.
            let max = <T as Float>::max_value();
            let ia = Isometry3::from(Translation3::new(max, T::zero(), T::zero()));
            let ib = Isometry3::from(Translation3::new(-max, T::zero(), T::zero()));
            assert!(contact3(a, &ia, b, &ib).is_none());
            assert!(contact3(a, &Isometry3::identity(), b, &ib).is_none());
        }
    }
}
shape::for_each_precision!(hostile_poses_3d, hostile_poses_3d);

// ------------------------------------------------------------ scale

/// Shapes about a unit across, at distances from 10 to the edge of the float
/// range, every pair of kinds, both orders: apart, without error. (A polygon
/// core against an ellipse once reported a hit from 1/ε times its size on:
/// moved into the ellipse's frame, the core rounded to a point taken to
/// contain the ellipse's centre.)
fn far_apart_at_every_distance<T: Real>() {
    let table = DispatchTable::<T>::shared();
    let specs = partners();
    let shapes: Vec<_> = specs.iter().map(build::<T>).collect();
    let max_exp = <T as Float>::max_value().as_f64().log10().floor() as i32;
    for e in (1..=max_exp).step_by(3) {
        let d = 10f64.powi(e);
        for (k, dir) in [[1.0, 0.0], [0.6, -0.8], [0.0, 1.0]].iter().enumerate() {
            let pb = iso::<T>([d * dir[0], d * dir[1], 0.7 * k as f64]);
            for (a, sa) in shapes.iter().zip(&specs) {
                let pa = iso::<T>([0.0, 0.0, 0.3 + k as f64]);
                for (b, sb) in shapes.iter().zip(&specs) {
                    let (a, b) = (a.as_ref(), b.as_ref());
                    let what = format!("{sa:?} / {sb:?} at 1e{e} along {dir:?}");
                    assert_eq!(table.intersects(a, &pa, b, &pb), Ok(false), "{what}");
                    assert_eq!(table.intersects(b, &pb, a, &pa), Ok(false), "{what}");
                    assert_eq!(table.contact(a, &pa, b, &pb), Ok(None), "{what}");
                }
            }
        }
    }
}
shape::for_each_precision!(far_apart_at_every_distance, far_apart_at_every_distance);

fn scaled(s: &Spec, k: f64) -> Spec {
    let p = |v: &[f64; 2]| [v[0] * k, v[1] * k];
    match s {
        Spec::Point(x, y) => Spec::Point(x * k, y * k),
        Spec::Segment(a, b) => Spec::Segment(p(a), p(b)),
        Spec::Circle(r) => Spec::Circle(r * k),
        Spec::Aabb(a, b) => Spec::Aabb(p(a), p(b)),
        Spec::Obb(x, y) => Spec::Obb(x * k, y * k),
        Spec::Triangle(t) => Spec::Triangle([p(&t[0]), p(&t[1]), p(&t[2])]),
        Spec::Polygon(v) => Spec::Polygon(v.iter().map(p).collect()),
        Spec::Capsule(a, b, r) => Spec::Capsule(p(a), p(b), r * k),
        Spec::Ellipse(a, b) => Spec::Ellipse(a * k, b * k),
        Spec::RoundedPolygon(v, r) => Spec::RoundedPolygon(v.iter().map(p).collect(), r * k),
    }
}

/// Every pair of kinds scaled up to sizes whose fourth powers overflow `T`
/// but whose squares do not (f32: 1e10 to 1e18; f64: 1e80 to 1e150): the
/// answers agree with the reference. (Circle against triangle or polygon
/// compared squared cross products, `∞ ≤ ∞`, and reported far pairs hitting.)
fn huge_shapes_within_range<T: Real>() {
    let scales: &[f64] = if T::epsilon().as_f64() > 1e-10 {
        &[1e10, 1e15, 1e18]
    } else {
        &[1e80, 1e150]
    };
    let mut rng = Rng(0x51_7cc1_b727_220a);
    for &k in scales {
        let specs: Vec<Spec> = partners().iter().map(|s| scaled(s, k)).collect();
        for sa in &specs {
            for sb in &specs {
                for _ in 0..4 {
                    let pa = [0.0, 0.0, rng.uniform(-PI, PI)];
                    let pb = [
                        rng.uniform(-1.5, 1.5) * k,
                        rng.uniform(-1.5, 1.5) * k,
                        rng.uniform(-PI, PI),
                    ];
                    check_pair::<T>(sa, &iso(pa), sb, &iso(pb), 4.0);
                }
            }
        }
    }
}
shape::for_each_precision!(huge_shapes_within_range, huge_shapes_within_range);

/// A unit box against an ellipse 4/ε across: moved into the ellipse's frame
/// (where the ellipse is the unit disk) the box rounds to a point or a
/// sliver; it is still decided by where it is.
fn tiny_core_next_to_a_huge_ellipse<T: Real>() {
    let table = DispatchTable::<T>::shared();
    let r = 4.0 / T::epsilon().as_f64();
    let round = Ellipse::new(Vector2::new(T::lit(r), T::lit(r))).unwrap();
    let flat = Ellipse::new(Vector2::new(T::lit(r), T::one())).unwrap();
    let bx = Obb::new(Vector2::new(T::half(), T::half())).unwrap();
    let tri = Triangle::new(
        nalgebra::Point2::new(-T::half(), -T::half()),
        nalgebra::Point2::new(T::half(), -T::half()),
        nalgebra::Point2::new(T::zero(), T::half()),
    )
    .unwrap();
    let id = Isometry2::identity();
    let oval = Ellipse::new(Vector2::new(T::lit(r), T::lit(r / 2.0))).unwrap();
    let cases: [(&Ellipse<T>, [f64; 2], bool); 10] = [
        // Inside the oval's bounding circle, the box maps to a single point
        // of the unit disk's frame, with every edge of zero length: at
        // (0.5, 1) (outside) and at (0.5, 0.8) (inside).
        (&oval, [r / 2.0, r / 2.0], false),
        (&oval, [r / 2.0, 0.4 * r], true),
        (&round, [0.0, r + 100.0], false),
        (&round, [0.0, r - 100.0], true),
        (&round, [-(r + 100.0), 0.0], false),
        (&round, [0.0, 0.0], true),
        (&flat, [0.0, 3.0], false),
        (&flat, [0.0, 1.25], true),
        (&flat, [r / 2.0, 0.5], true),
        (&flat, [r / 2.0, 2.5], false),
    ];
    for (e, at, hit) in cases {
        let p = iso::<T>([at[0], at[1], 0.0]);
        for small in [&bx as &dyn Shape<T>, &tri] {
            assert_eq!(table.intersects(e, &id, small, &p), Ok(hit), "{e:?} {at:?}");
            assert_eq!(table.intersects(small, &p, e, &id), Ok(hit), "{e:?} {at:?}");
            assert_eq!(table.contact(e, &id, small, &p).unwrap().is_some(), hit);
        }
    }
}
shape::for_each_precision!(
    tiny_core_next_to_a_huge_ellipse,
    tiny_core_next_to_a_huge_ellipse
);
