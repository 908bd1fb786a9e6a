//! Every built-in kind against an ellipse placed touching or nearly touching
//! it, f32 and f64 from one generic body, both orders, through the free
//! functions (`intersects`, `closest_points`, `distance`, `signed_distance`,
//! `contact`).
//!
//! The touching pose is built in f64 from the shapes' parameters alone
//! (independent of the kernels): a unit direction `u`, a point `c` of A's
//! boundary whose outward normal is `u` (A's support point along `u`), and
//! the ellipse placed so that its support point along `−u` is `c`. The line
//! through `c` normal to `u` then separates the shapes, and `c` is in both:
//! they touch, at distance exactly 0. Moved out along `u` by `s`, the shapes
//! are exactly `s` apart (the support gap along `u` is `s`, and the two copies
//! of `c` are `s` apart); moved in by `s`, they overlap, by at most `s`
//! (the support overlap along `u`).
//!
//! `u` is half the time uniform (a vertex, a rounded end or the ellipse's
//! flank against the ellipse) and half the time the exact outward normal of
//! one of A's edges (a segment's or capsule's side), `c` uniform along that
//! edge: a face against the ellipse, an edge line that grazes it. That is the
//! configuration of `regressions::polygon_touching_an_ellipse_is_at_rounding_distance`,
//! where a grazing edge's gap rounded below zero and the distance came out
//! 0.543 instead of 1e-15.
//!
//! Checked at `s = 0`, `±16 ε · scale` (within rounding of touching: only
//! consistency and rounding-level values), out by `4096 ε · scale` (f64:
//! 9.1e-13 · scale, f32: 4.9e-4 · scale; far enough that rounding cannot
//! change the answer) and in by that or by the ellipse's least radius of
//! curvature `ρ = minor²/major`, whichever is less. (In by more than the
//! ellipse's chord along `u` through `c`, B would pass A's point `c`; the
//! disk of radius `ρ` tangent inside B at `c` lies in B (Blaschke), so B
//! moved in by at most `2ρ` still holds `c`.)
//!
//! - `intersects` agrees in both orders, `closest_points` is `Intersecting`
//!   exactly then (both orders), `contact` is `Some` exactly then, and the
//!   distances and signed distances of the two orders are bitwise equal;
//! - apart, the distance is within `TOUCH_TOL · ε · scale` of `max(s, 0)`
//!   (at `s = 0` and `s = −…`: rounding level);
//! - out by `4096 ε · scale` they are apart, and the normal is `u` (the
//!   closest pair is `c` and its copy, `s` apart along `u`) to `0.01` (the
//!   points' rounding over their distance is about `1/4096` in angle); in
//!   by `min(4096 ε · scale, ρ)`
//!   they intersect, when that is at least `TOUCH_TOL · ε · scale`;
//! - the contact's depth is at most `max(−s, 0)` plus that tolerance, and
//!   positive in the overlapping case.
//!
//! `scale` is the shapes' extents plus the pose coordinates (as in
//! `distance.rs`). The worst distance off `max(s, 0)` and depth above
//! `max(−s, 0)` seen within rounding of touching, in units of `ε · scale`,
//! are printed.

use crate::common;

use std::cell::Cell;
use std::f64::consts::PI;

use common::{KINDS, Spec, build, extent, iso, pose, spec_of};
use narrowphase::ClosestPoints;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use shape::prelude::*;

/// The tolerance at rounding level, in units of `ε · scale` of the
/// precision tested.
const TOUCH_TOL: f64 = 64.0;

/// A's core in the world (vertices, counter-clockwise for three or more)
/// and its rounding radius; `None` for the ellipse.
fn core(s: &Spec, p: [f64; 3]) -> Option<(Vec<[f64; 2]>, f64)> {
    let (local, r, turns): (Vec<[f64; 2]>, f64, bool) = match s {
        Spec::Point(x, y) => (vec![[*x, *y]], 0.0, true),
        Spec::Segment(a, b) => (vec![*a, *b], 0.0, true),
        Spec::Circle(r) => (vec![[0.0, 0.0]], *r, true),
        Spec::Aabb(a, b) => (vec![*a, [b[0], a[1]], *b, [a[0], b[1]]], 0.0, false),
        Spec::Obb(x, y) => (vec![[-x, -y], [*x, -y], [*x, *y], [-x, *y]], 0.0, true),
        Spec::Triangle(t) => (t.to_vec(), 0.0, true),
        Spec::Polygon(v) => (v.clone(), 0.0, true),
        Spec::Capsule(a, b, r) => (vec![*a, *b], *r, true),
        Spec::RoundedPolygon(v, r) => (v.clone(), *r, true),
        Spec::Ellipse(..) => return None,
    };
    let (sn, cs) = if turns { p[2].sin_cos() } else { (0.0, 1.0) };
    let mut w: Vec<[f64; 2]> = local
        .iter()
        .map(|q| [cs * q[0] - sn * q[1] + p[0], sn * q[0] + cs * q[1] + p[1]])
        .collect();
    if w.len() >= 3 {
        let area: f64 = (0..w.len())
            .map(|i| {
                let (a, b) = (w[i], w[(i + 1) % w.len()]);
                a[0] * b[1] - a[1] * b[0]
            })
            .sum();
        if area < 0.0 {
            w.reverse();
        }
    }
    Some((w, r))
}

/// The support point of the ellipse of radii `(a, b)` turned by `angle`
/// about `centre`, along the unit `u`: `R diag(a², b²) Rᵀu / |diag(a, b) Rᵀu|`.
fn ellipse_support(a: f64, b: f64, centre: [f64; 2], angle: f64, u: [f64; 2]) -> [f64; 2] {
    let (sn, cs) = angle.sin_cos();
    let l = [cs * u[0] + sn * u[1], -sn * u[0] + cs * u[1]];
    let w = (a * l[0]).hypot(b * l[1]);
    let q = [a * a * l[0] / w, b * b * l[1] / w];
    [
        centre[0] + cs * q[0] - sn * q[1],
        centre[1] + sn * q[0] + cs * q[1],
    ]
}

/// The touching pose of the ellipse `sb` (turned by `angle_b`) against A at
/// `pa`, and the direction `u` from A to B. `face` asks for an edge normal
/// (edge `pick` of A's edges, the contact `lambda` along it) where A has
/// edges; otherwise `u` is at angle `theta` and the contact A's support
/// point along it.
fn touching(
    sa: &Spec,
    pa: [f64; 3],
    sb: &Spec,
    angle_b: f64,
    (face, pick, lambda, theta): (bool, f64, f64, f64),
) -> ([f64; 3], [f64; 2]) {
    let (contact, u) = match core(sa, pa) {
        Some((v, r)) if face && v.len() >= 2 => {
            // A segment's two sides are two edges.
            let edges = if v.len() == 2 { 2 } else { v.len() };
            let i = ((pick * edges as f64) as usize).min(edges - 1);
            let (p, q) = if v.len() == 2 && i == 1 {
                (v[1], v[0])
            } else {
                (v[i], v[(i + 1) % v.len()])
            };
            let d = [q[0] - p[0], q[1] - p[1]];
            let len = d[0].hypot(d[1]);
            let n = [d[1] / len, -d[0] / len];
            let c = [
                p[0] + d[0] * lambda + n[0] * r,
                p[1] + d[1] * lambda + n[1] * r,
            ];
            (c, n)
        }
        Some((v, r)) => {
            let u = [theta.cos(), theta.sin()];
            let best = v
                .iter()
                .copied()
                .max_by(|a, b| (a[0] * u[0] + a[1] * u[1]).total_cmp(&(b[0] * u[0] + b[1] * u[1])))
                .unwrap();
            ([best[0] + u[0] * r, best[1] + u[1] * r], u)
        }
        None => {
            let Spec::Ellipse(a, b) = sa else {
                unreachable!()
            };
            let u = [theta.cos(), theta.sin()];
            (ellipse_support(*a, *b, [pa[0], pa[1]], pa[2], u), u)
        }
    };
    let Spec::Ellipse(a, b) = sb else {
        unreachable!()
    };
    let offset = ellipse_support(*a, *b, [0.0, 0.0], angle_b, [-u[0], -u[1]]);
    ([contact[0] - offset[0], contact[1] - offset[1], angle_b], u)
}

/// A seeded runner for one kind against the ellipse; `PROPTEST_CASES` (deep
/// runs) is the total over the nine kinds.
fn runner(cases: u32) -> TestRunner {
    let kinds = KINDS as u32;
    let config = Config {
        cases: shape::testing::cases(cases * kinds).div_ceil(kinds),
        failure_persistence: None,
        ..Config::default()
    };
    TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha))
}

/// The worst values seen at rounding level, in units of `ε · scale`.
#[derive(Default)]
struct Worst {
    distance: Cell<f64>,
    depth: Cell<f64>,
}

/// What moving B by `s` along `u` must give, beyond rounding-level values.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Expect {
    /// Within rounding of touching: either answer.
    Either,
    Apart,
    Intersecting,
}

/// Every query at B's pose `pb` moved along `u` by `s` (out for `s > 0`).
#[allow(clippy::too_many_arguments)]
fn check_at<T: Real>(
    expect: Expect,
    sa: &Spec,
    pa: [f64; 3],
    sb: &Spec,
    pb: [f64; 3],
    u: [f64; 2],
    s: f64,
    unit: f64,
    worst: &Worst,
) -> Result<(), TestCaseError> {
    let pb = [pb[0] + u[0] * s, pb[1] + u[1] * s, pb[2]];
    let (a, b) = (build::<T>(sa), build::<T>(sb));
    let (a, b) = (a.as_ref(), b.as_ref());
    let (ia, ib) = (iso::<T>(pa), iso::<T>(pb));
    let hit = narrowphase::intersects(a, &ia, b, &ib).unwrap();
    prop_assert_eq!(narrowphase::intersects(b, &ib, a, &ia).unwrap(), hit);
    let cp = narrowphase::closest_points(a, &ia, b, &ib, T::infinity()).unwrap();
    let cp_ba = narrowphase::closest_points(b, &ib, a, &ia, T::infinity()).unwrap();
    let d = narrowphase::distance(a, &ia, b, &ib).unwrap();
    let bits = |x: T| x.as_f64().to_bits();
    prop_assert_eq!(
        bits(narrowphase::distance(b, &ib, a, &ia).unwrap()),
        bits(d)
    );
    let signed = narrowphase::signed_distance(a, &ia, b, &ib).unwrap();
    prop_assert_eq!(
        bits(narrowphase::signed_distance(b, &ib, a, &ia).unwrap()),
        bits(signed)
    );
    let contact = narrowphase::contact(a, &ia, b, &ib).unwrap();
    prop_assert_eq!(contact.is_some(), hit);
    prop_assert_eq!(narrowphase::contact(b, &ib, a, &ia).unwrap().is_some(), hit);
    let tol = TOUCH_TOL * unit;
    match expect {
        Expect::Apart => prop_assert!(!hit, "moved out by {s}: intersecting"),
        Expect::Intersecting => prop_assert!(hit, "moved in by {}: apart ({cp:?})", -s),
        Expect::Either => {}
    }
    match (cp, cp_ba) {
        (ClosestPoints::Intersecting, ClosestPoints::Intersecting) => {
            prop_assert!(hit && d == T::zero(), "Intersecting, {hit} {d:?}");
        }
        (
            ClosestPoints::WithinMargin {
                distance, normal, ..
            },
            ClosestPoints::WithinMargin {
                distance: distance_ba,
                ..
            },
        ) => {
            prop_assert!(!hit, "WithinMargin yet intersecting: {cp:?}");
            prop_assert_eq!(bits(distance), bits(distance_ba));
            prop_assert_eq!(bits(distance), bits(d));
            let expected = s.max(0.0);
            let off = (distance.as_f64() - expected).abs();
            prop_assert!(
                off <= tol,
                "moved by {s}: distance {distance:?}, expected {expected} (tol {tol}): {cp:?}"
            );
            if expect == Expect::Apart {
                let along = normal.x.as_f64() * u[0] + normal.y.as_f64() * u[1];
                prop_assert!(along >= 0.99, "normal {normal:?}, expected {u:?}");
            }
            if expect == Expect::Either {
                worst.distance.set(worst.distance.get().max(off / unit));
            }
        }
        (x, y) => prop_assert!(false, "{x:?} but {y:?} in the other order"),
    }
    if let Some(c) = contact {
        prop_assert_eq!(signed, -c.depth);
        let most = (-s).max(0.0) + tol;
        prop_assert!(
            c.depth >= T::zero() && c.depth.as_f64() <= most,
            "moved by {s}: depth {:?} above {most}: {c:?}",
            c.depth
        );
        if expect == Expect::Intersecting {
            prop_assert!(c.depth > T::zero(), "moved in by {}: depth 0", -s);
        } else if expect == Expect::Either {
            let over = c.depth.as_f64() - (-s).max(0.0);
            worst.depth.set(worst.depth.get().max(over / unit));
        }
    } else {
        prop_assert_eq!(signed, d);
    }
    Ok(())
}

fn touching_or_nearly<T: Real>() {
    let eps = T::epsilon().as_f64();
    for k in 0..KINDS {
        let worst = Worst::default();
        let strategy = (
            spec_of(k),
            spec_of(8),
            pose(4.0),
            -PI..PI,
            (any::<bool>(), 0.0f64..1.0, 0.0f64..=1.0, -PI..PI),
        );
        let result = runner(256).run(&strategy, |(sa, sb, pa, angle_b, how)| {
            let (pb, u) = touching(&sa, pa, &sb, angle_b, how);
            let scale =
                extent(&sa) + extent(&sb) + pa[0].abs() + pa[1].abs() + pb[0].abs() + pb[1].abs();
            let unit = eps * scale;
            let Spec::Ellipse(ea, eb) = sb else {
                unreachable!()
            };
            let rho = ea.min(eb).powi(2) / ea.max(eb);
            let deep = (4096.0 * unit).min(rho);
            let inside = if deep >= TOUCH_TOL * unit {
                Expect::Intersecting
            } else {
                Expect::Either
            };
            for (expect, s) in [
                (Expect::Either, 0.0),
                (Expect::Either, 16.0 * unit),
                (Expect::Either, -16.0 * unit),
                (Expect::Apart, 4096.0 * unit),
                (inside, -deep),
            ] {
                check_at::<T>(expect, &sa, pa, &sb, pb, u, s, unit, &worst)?;
            }
            Ok(())
        });
        if let Err(e) = result {
            panic!("kind {k} against the ellipse: {e}");
        }
        println!(
            "{} kind {k}: worst distance off at rounding level {:.1} ε·scale, depth {:.1} ε·scale",
            core::any::type_name::<T>(),
            worst.distance.get(),
            worst.depth.get()
        );
    }
}
shape::for_each_precision!(touching_or_nearly, touching_or_nearly);
