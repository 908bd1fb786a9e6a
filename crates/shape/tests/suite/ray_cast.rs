//! Property tests of the built-in ray casts and point projections, 2D and
//! 3D, each run for f32 and f64, against slow references computed in f64
//! from the shapes' parameters alone (`common::signed_distance`, an exact
//! signed distance for the 3D shapes, dense boundary samples).
//!
//! The reference for a ray is the signed distance `f(t)` along it: convex in
//! `t` for a convex shape, so a golden-section search finds its minimum and
//! bisection finds where it crosses zero (the entry before the minimum, the
//! exit after it), with no code shared with the shapes. Rays are drawn at
//! random, aimed at the shape, started inside it, on its boundary, and
//! grazing it (along an edge's line, tangent to a curve).
//!
//! What is checked, for every shape, solid and hollow:
//! - the hit point is `origin + toi · dir` and lies on the boundary; the
//!   normal is unit, faces the ray (`n · dir ≤ 0`) and supports the shape
//!   there (no boundary sample beyond its tangent line);
//! - `contains_point` is false a step before a solid hit (step
//!   `8 √ε × scale`, beyond the ill-conditioning of grazing hits) and true at
//!   it up to rounding;
//! - a clear hit of the reference is found at the reference's time, a clear
//!   miss is not found (grazing cases are judged by the other checks only);
//! - from inside: a solid cast hits at time 0 at the origin with normal
//!   `−dir/|dir|`; a hollow one at the reference's exit, which is also the
//!   reverse ray's entry; from outside, solid and hollow agree;
//! - `max_toi` exactly: the same hit with `max_toi = toi`, none just below;
//! - moving shape and ray by one rigid motion moves the hit with them;
//! - projections: inside exactly as `contains_point`; a point inside a solid
//!   shape projects to itself; otherwise the projection lies on the boundary
//!   at the reference distance `|f|`, and no boundary sample is nearer.

use crate::common;

use common::*;
use nalgebra::{Isometry2, Isometry3, Point2, Point3, Vector2, Vector3};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use shape::prelude::*;
use shape::testing::test_tolerance;

type V2 = [f64; 2];

fn add(a: V2, b: V2) -> V2 {
    [a[0] + b[0], a[1] + b[1]]
}
fn sub(a: V2, b: V2) -> V2 {
    [a[0] - b[0], a[1] - b[1]]
}
fn scale(a: V2, k: f64) -> V2 {
    [a[0] * k, a[1] * k]
}
fn dot(a: V2, b: V2) -> f64 {
    a[0] * b[0] + a[1] * b[1]
}
fn len(a: V2) -> f64 {
    dot(a, a).sqrt()
}
fn f2(p: Point2<impl Real>) -> V2 {
    [p.x.as_f64(), p.y.as_f64()]
}
fn v2(p: Vector2<impl Real>) -> V2 {
    [p.x.as_f64(), p.y.as_f64()]
}

/// Golden-section search for the minimum of a convex function on `[a, b]`.
fn minimise(f: &dyn Fn(f64) -> f64, mut a: f64, mut b: f64) -> (f64, f64) {
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let (mut c, mut d) = (b - g * (b - a), a + g * (b - a));
    let (mut fc, mut fd) = (f(c), f(d));
    for _ in 0..90 {
        if fc <= fd {
            b = d;
            (d, fd) = (c, fc);
            c = b - g * (b - a);
            fc = f(c);
        } else {
            a = c;
            (c, fc) = (d, fd);
            d = a + g * (b - a);
            fd = f(d);
        }
    }
    let t = (a + b) / 2.0;
    (t, f(t))
}

/// Bisection for the zero of `f` on `[a, b]` given `f(a) > 0 ≥ f(b)` or the
/// reverse.
fn root(f: &dyn Fn(f64) -> f64, mut a: f64, mut b: f64) -> f64 {
    let sa = f(a) > 0.0;
    for _ in 0..200 {
        let m = (a + b) / 2.0;
        if (f(m) > 0.0) == sa {
            a = m;
        } else {
            b = m;
        }
    }
    (a + b) / 2.0
}

/// The reference analysis of a line through a convex shape: the signed
/// distance along the ray, its minimum, and where it crosses zero.
#[derive(Debug)]
struct Reference {
    f0: f64,
    t_min: f64,
    f_min: f64,
    t_far: f64,
    entry: Option<f64>,
    exit: Option<f64>,
}

fn analyse(sd: &dyn Fn(V2) -> f64, centre: V2, radius: f64, o: V2, d: V2) -> Reference {
    let f = |t: f64| sd(add(o, scale(d, t)));
    let t_far = (len(sub(o, centre)) + radius + 1.0) / len(d);
    let (t_min, f_min) = minimise(&f, 0.0, t_far);
    let f0 = f(0.0);
    let (t_min, f_min) = if f0 <= f_min {
        (0.0, f0)
    } else {
        (t_min, f_min)
    };
    let entry = (f0 > 0.0 && f_min < 0.0).then(|| root(&f, 0.0, t_min));
    let exit = (f_min < 0.0).then(|| root(&f, t_min, t_far));
    Reference {
        f0,
        t_min,
        f_min,
        t_far,
        entry,
        exit,
    }
}

/// The world centre and radius of a shape's boundary sample.
fn centre_and_radius(boundary: &[V2]) -> (V2, f64) {
    let n = boundary.len() as f64;
    let c = boundary
        .iter()
        .fold([0.0, 0.0], |a, p| add(a, scale(*p, 1.0 / n)));
    let r = boundary.iter().map(|p| len(sub(*p, c))).fold(0.0, f64::max);
    (c, r)
}

/// A denser boundary sample: every polygon edge cut in 64.
fn dense_boundary(s: &Spec, pose: [f64; 3]) -> Vec<V2> {
    let w = world_boundary(s, pose);
    if is_curved(s) || w.len() < 2 {
        return w;
    }
    let n = w.len();
    (0..n)
        .flat_map(|i| {
            let (a, b) = (w[i], w[(i + 1) % n]);
            (0..64).map(move |k| add(a, scale(sub(b, a), k as f64 / 64.0)))
        })
        .collect()
}

/// The ray of a case, in f64: one of five families (module notes), built
/// from unit parameters and the shape's boundary sample.
fn make_ray(boundary: &[V2], mode: u8, u: [f64; 4], k: usize) -> (V2, V2) {
    let (c, r) = centre_and_radius(boundary);
    let r = r.max(0.5);
    let n = boundary.len();
    let b = boundary[k % n];
    let angle = u[2] * std::f64::consts::TAU;
    let length = 10f64.powf(u[3] * 2.0 - 1.0);
    let dir = [angle.cos() * length, angle.sin() * length];
    match mode {
        // Anywhere around, any direction.
        0 => (add(c, scale([u[0] - 0.5, u[1] - 0.5], 6.0 * r)), dir),
        // Aimed at a boundary point from around.
        1 => {
            let o = add(c, scale([angle.cos(), angle.sin()], r * (1.5 + 3.0 * u[0])));
            let target = add(b, scale(sub(c, b), u[1] * 0.2));
            (
                o,
                scale(sub(target, o), length / len(sub(target, o)).max(1e-9)),
            )
        }
        // Inside (between the centre and a boundary point).
        2 => (add(c, scale(sub(b, c), u[0])), dir),
        // On the boundary (a sample point).
        3 => (b, dir),
        // Grazing: along the line through two neighbouring samples (an edge's
        // line for polygons, nearly a tangent for curves), from before it.
        _ => {
            let next = boundary[(k + 1) % n];
            let e = sub(next, b);
            let e = if len(e) > 0.0 { e } else { [1.0, 0.0] };
            let o = sub(b, scale(e, 1.0 + 4.0 * u[0]));
            (o, scale(e, length / len(e)))
        }
    }
}

fn tolerance<T: Real>(s: &Spec, pose: [f64; 3], o: V2) -> f64 {
    let scale = extent(s) + pose[0].abs() + pose[1].abs() + o[0].abs() + o[1].abs() + 1.0;
    4.0 * test_tolerance::<T>(T::lit(scale)).as_f64() + 2.0 * sampling_error(s)
}

fn cast<T: Real>(
    shape: &dyn Shape<T>,
    pose: &Isometry2<T>,
    o: V2,
    d: V2,
    max_toi: T,
    solid: bool,
) -> Option<RayHit<T>> {
    let ray = Ray::new(pt::<T>(o), Vector2::new(T::lit(d[0]), T::lit(d[1])));
    shape
        .as_ray_cast()
        .expect("every built-in shape casts rays")
        .cast_ray(pose, &ray, max_toi, solid)
}

/// Checks one hit against the geometry: the point on the ray and on the
/// boundary, a unit normal facing the ray and supporting the shape.
#[allow(clippy::too_many_arguments)]
fn check_hit(
    h: V2,
    toi: f64,
    normal: V2,
    o: V2,
    d: V2,
    boundary: &[V2],
    sd: &dyn Fn(V2) -> f64,
    tol: f64,
    exit: bool,
) -> Result<(), TestCaseError> {
    prop_assert!(toi >= 0.0 && toi.is_finite(), "toi {toi}");
    let on_ray = add(o, scale(d, toi));
    prop_assert!(
        len(sub(h, on_ray)) <= tol,
        "point {h:?} off the ray {on_ray:?}"
    );
    prop_assert!(
        sd(h).abs() <= tol,
        "point {h:?} off the boundary: {}",
        sd(h)
    );
    prop_assert!(
        (len(normal) - 1.0).abs() <= 1e-5,
        "normal {normal:?} not unit"
    );
    prop_assert!(
        dot(normal, d) <= tol * len(d),
        "normal {normal:?} faces away from {d:?}"
    );
    // A supporting line: the outward normal at an entry, the inward one at an
    // exit (a ray starting on a point or segment has nothing to support).
    let out = if exit { scale(normal, -1.0) } else { normal };
    for b in boundary.iter().filter(|_| toi > 0.0 || exit) {
        prop_assert!(
            dot(sub(*b, h), out) <= tol * 4.0,
            "normal {normal:?} at {h:?} does not support the shape ({b:?})"
        );
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn ray_prop<T: Real>(
    s: Spec,
    pose: [f64; 3],
    mode: u8,
    u: [f64; 4],
    k: usize,
    motion: [f64; 3],
) -> Result<(), TestCaseError> {
    let shape = build::<T>(&s);
    let iso = iso::<T>(pose);
    let boundary = dense_boundary(&s, pose);
    let (o, d) = make_ray(&boundary, mode, u, k);
    // The ray as `T` sees it.
    let (o, d) = (f2(pt::<T>(o)), f2(pt::<T>(d)));
    prop_assume!(len(d) > 0.0);
    let sd = |p: V2| signed_distance(&s, pose, p);
    let (c, r) = centre_and_radius(&boundary);
    let re = analyse(&sd, c, r, o, d);
    let tol = tolerance::<T>(&s, pose, o);
    let inf = T::infinity();
    let convex = shape.as_convex().unwrap();
    let contains = |p: V2| convex.contains_point(&iso, &pt::<T>(p));
    let interior = !matches!(s, Spec::Point(..) | Spec::Segment(..));
    let solid = cast(shape.as_ref(), &iso, o, d, inf, true);
    let hollow = cast(shape.as_ref(), &iso, o, d, inf, false);
    let origin_inside = contains(o);
    if interior && origin_inside {
        // Solid: at the origin, exactly.
        let h = solid.ok_or_else(|| TestCaseError::fail("no hit from inside"))?;
        prop_assert_eq!(h.toi, T::zero());
        prop_assert_eq!(h.point, pt::<T>(o));
        let back = -Vector2::new(T::lit(d[0]), T::lit(d[1])).normalize();
        prop_assert!((h.normal.into_inner() - back).norm() <= T::lit(1e-6));
        // Hollow: the exit, also the reverse ray's entry.
        let h = hollow.ok_or_else(|| TestCaseError::fail("no exit from inside"))?;
        let (toi, point, normal) = (h.toi.as_f64(), f2(h.point), v2(h.normal.into_inner()));
        check_hit(point, toi, normal, o, d, &boundary, &sd, tol, true)?;
        if let Some(t_out) = re.exit {
            let slope = (re.f_min.abs() / (t_out - re.t_min).max(1e-300)).max(1e-300);
            if re.f_min < -4.0 * tol {
                prop_assert!(
                    (toi - t_out).abs() <= 2.0 * tol / slope + tol / len(d),
                    "exit {toi} vs reference {t_out} ({re:?})"
                );
            }
        }
        // The reverse ray, from beyond the shape, enters where this one leaves.
        let start = f2(pt::<T>(add(o, scale(d, re.t_far))));
        let back = cast(shape.as_ref(), &iso, start, scale(d, -1.0), inf, true);
        if let (Some(b), Some(t_out)) = (back, re.exit.filter(|_| re.f_min < -4.0 * tol)) {
            let via_back = len(sub(start, o)) / len(d) - b.toi.as_f64();
            let slope = re.f_min.abs() / (t_out - re.t_min).max(1e-300);
            let btol = tolerance::<T>(&s, pose, start).max(tol);
            prop_assert!(
                (via_back - toi).abs() <= 4.0 * btol / slope + 2.0 * btol / len(d),
                "exit {toi} vs reverse entry {via_back}"
            );
        }
    } else {
        // From outside (or a shape without interior): solid and hollow agree.
        prop_assert_eq!(solid, hollow);
    }
    if let Some(h) = solid.filter(|_| !(interior && origin_inside)) {
        let (toi, point, normal) = (h.toi.as_f64(), f2(h.point), v2(h.normal.into_inner()));
        check_hit(point, toi, normal, o, d, &boundary, &sd, tol, false)?;
        // contains_point: false a step before, true at the hit (up to rounding).
        let step = 8.0 * T::epsilon().as_f64().sqrt() * (r + len(sub(c, o)) + 1.0);
        if interior && toi * len(d) > step {
            let before = add(o, scale(d, toi - step / len(d)));
            // (Or within rounding of the boundary: a ray running along a flat
            // edge at an angle below rounding meets it anywhere along it.)
            prop_assert!(
                !contains(before) || sd(before) >= -tol,
                "inside a step before the hit, at {before:?}: {}",
                sd(before)
            );
        }
        prop_assert!(contains(point) || sd(point) <= tol);
        // max_toi: the same hit at exactly toi, none just below.
        prop_assert_eq!(cast(shape.as_ref(), &iso, o, d, h.toi, true), Some(h));
        if h.toi > T::zero() {
            let below = h.toi * (T::one() - T::epsilon() * T::two());
            prop_assert_eq!(cast(shape.as_ref(), &iso, o, d, below, true), None);
        }
    }
    // Against the reference: clear hits found at its time, clear misses not.
    if interior && !origin_inside && re.f0 > tol {
        if re.f_min > tol {
            prop_assert!(solid.is_none(), "hit {solid:?} on a clear miss ({re:?})");
        } else if re.f_min < -4.0 * tol {
            let t_in = re.entry.unwrap();
            let h = solid.ok_or_else(|| TestCaseError::fail(format!("missed {re:?}")))?;
            let slope = re.f_min.abs() / (re.t_min - t_in).max(1e-300);
            prop_assert!(
                (h.toi.as_f64() - t_in).abs() <= 2.0 * tol / slope + tol / len(d),
                "toi {:?} vs reference {t_in} ({re:?})",
                h.toi
            );
        }
    }
    if !interior && re.f_min > tol {
        prop_assert!(solid.is_none(), "hit {solid:?} on a clear miss ({re:?})");
    }
    // A segment crossed clearly (away from its ends, at an angle) is hit there.
    if let Spec::Segment(a, b) = &s {
        let (sn, cs) = pose[2].sin_cos();
        let w = |p: &V2| {
            [
                cs * p[0] - sn * p[1] + pose[0],
                sn * p[0] + cs * p[1] + pose[1],
            ]
        };
        let (a, b) = (w(a), w(b));
        let e = sub(b, a);
        let cross = |x: V2, y: V2| x[0] * y[1] - x[1] * y[0];
        let den = cross(d, e);
        if den.abs() > 0.05 * len(d) * len(e) {
            let t = cross(sub(a, o), e) / den;
            let v = cross(sub(a, o), d) / den;
            if (0.01..=0.99).contains(&v) && t * len(d) > tol {
                let h = solid.ok_or_else(|| TestCaseError::fail("missed a clear crossing"))?;
                prop_assert!(
                    (h.toi.as_f64() - t).abs() * len(d) <= 64.0 * tol,
                    "{h:?} vs {t}"
                );
            }
        }
    }
    // An independent march on `contains_point` (T's own containment): a
    // sample clearly inside bounds the first hit from above; on a clear hit,
    // bisection between the first inside sample and the one before finds
    // it; a miss sees no sample clearly inside. (Samples within rounding of
    // the boundary, on a ray along an edge, may be "inside" anywhere.)
    if interior && !origin_inside {
        let steps = 512;
        let at = |t: f64| add(o, scale(d, t));
        let samples = (1..=steps).map(|i| re.t_far * i as f64 / steps as f64);
        if let (Some(t1), Some(h)) = (
            samples
                .clone()
                .find(|t| contains(at(*t)) && sd(at(*t)) < -tol),
            solid,
        ) {
            let toi = h.toi.as_f64();
            prop_assert!(
                toi <= t1 + tol / len(d),
                "hit {toi} after an inside sample {t1}"
            );
        }
        let first = samples.clone().find(|t| contains(at(*t)));
        match (first, solid) {
            (Some(t1), Some(h)) => {
                let (mut lo, mut hi) = (t1 - re.t_far / steps as f64, t1);
                for _ in 0..60 {
                    let mid = (lo + hi) / 2.0;
                    if contains(at(mid)) {
                        hi = mid;
                    } else {
                        lo = mid;
                    }
                }
                let toi = h.toi.as_f64();
                if let (Some(t_in), true) = (re.entry, re.f_min < -4.0 * tol) {
                    let slope = re.f_min.abs() / (re.t_min - t_in).max(1e-300);
                    prop_assert!(
                        (toi - hi).abs() <= 2.0 * tol / slope + tol / len(d),
                        "toi {toi} vs bisection on contains_point {hi}"
                    );
                }
            }
            (Some(t1), None) => {
                prop_assert!(sd(at(t1)) >= -tol, "no hit, but {:?} is inside", at(t1));
            }
            (None, _) => {}
        }
    }
    // A rigid motion of shape and ray together moves the hit with them.
    let m = rigid_motion_for(&s, &s, motion);
    let moved_pose = m(pose);
    let (sn, cs) = (moved_pose[2] - pose[2]).sin_cos();
    let turn = |v: V2| [cs * v[0] - sn * v[1], sn * v[0] + cs * v[1]];
    let mo = add(turn(o), [motion[0], motion[1]]);
    let mo = f2(pt::<T>(mo));
    let md = f2(pt::<T>(turn(d)));
    let moved = cast(
        shape.as_ref(),
        &common::iso::<T>(moved_pose),
        mo,
        md,
        inf,
        true,
    );
    let clear = re.f_min > 2.0 * tol || re.f_min < -8.0 * tol || (interior && re.f0 < -8.0 * tol);
    if clear {
        prop_assert_eq!(
            moved.is_some(),
            solid.is_some(),
            "{:?} vs {:?}",
            moved,
            solid
        );
        if let (Some(a), Some(b)) = (solid, moved) {
            let slope = if re.f0 < 0.0 {
                f64::INFINITY
            } else {
                re.f_min.abs() / (re.t_min - re.entry.unwrap_or(0.0)).max(1e-300)
            };
            let mtol = tolerance::<T>(&s, moved_pose, mo).max(tol);
            prop_assert!(
                (a.toi.as_f64() - b.toi.as_f64()).abs() <= 4.0 * mtol / slope + 4.0 * mtol / len(d),
                "toi {:?} moved to {:?}",
                a.toi,
                b.toi
            );
            let expect = add(turn(f2(a.point)), [motion[0], motion[1]]);
            prop_assert!(len(sub(expect, f2(b.point))) <= 8.0 * mtol + 4.0 * mtol / slope * len(d));
        }
    }
    Ok(())
}

fn projection_prop<T: Real>(
    s: Spec,
    pose: [f64; 3],
    mode: u8,
    u: [f64; 2],
    k: usize,
    solid: bool,
) -> Result<(), TestCaseError> {
    let shape = build::<T>(&s);
    let iso = iso::<T>(pose);
    let boundary = dense_boundary(&s, pose);
    let (c, r) = centre_and_radius(&boundary);
    let b = boundary[k % boundary.len()];
    let q = match mode {
        0 => add(c, scale([u[0] - 0.5, u[1] - 0.5], 6.0 * r.max(0.5))),
        1 => add(c, scale(sub(b, c), u[0])),
        _ => b,
    };
    let q = f2(pt::<T>(q));
    let pr = shape
        .as_point_query()
        .expect("every built-in shape projects points")
        .project_point(&iso, &pt::<T>(q), solid);
    let convex = shape.as_convex().unwrap();
    prop_assert_eq!(pr.is_inside, convex.contains_point(&iso, &pt::<T>(q)));
    let interior = !matches!(s, Spec::Point(..) | Spec::Segment(..));
    if pr.is_inside && (solid || !interior) {
        prop_assert_eq!(pr.point, pt::<T>(q));
        return Ok(());
    }
    let tol = tolerance::<T>(&s, pose, q);
    let p = f2(pr.point);
    let sd = signed_distance(&s, pose, p);
    prop_assert!(sd.abs() <= tol, "projection {p:?} off the boundary: {sd}");
    let dist = len(sub(p, q));
    let want = signed_distance(&s, pose, q).abs();
    prop_assert!(
        (dist - want).abs() <= 2.0 * tol,
        "distance {dist} vs reference {want}"
    );
    // (Samples of the capsule's end circles inside the capsule are no boundary.)
    let nearest = boundary
        .iter()
        .filter(|b| signed_distance(&s, pose, **b) >= -tol)
        .map(|b| len(sub(*b, q)))
        .fold(f64::INFINITY, f64::min);
    prop_assert!(dist <= nearest + tol, "{dist} > sampled {nearest}");
    Ok(())
}

macro_rules! for_both {
    ($cases:expr, $name:ident ( $($arg:ident in $strat:expr),* ) => $body:ident) => {
        mod $name {
            use super::*;
            proptest! {
                #![proptest_config(ProptestConfig::with_cases(shape::testing::cases($cases)))]
                #[test]
                fn f32($($arg in $strat),*) { $body::<f32>($($arg),*)?; }
                #[test]
                fn f64($($arg in $strat),*) { $body::<f64>($($arg),*)?; }
            }
        }
    };
}

fn unit4() -> impl Strategy<Value = [f64; 4]> {
    [0.0f64..1.0, 0.0f64..1.0, 0.0f64..1.0, 0.0f64..1.0]
}

for_both!(256, rays(s in spec(), p in pose(20.0), mode in 0u8..5, u in unit4(), k in 0usize..4096,
    m in pose(50.0)) => ray_prop);
for_both!(256, projections(s in spec(), p in pose(20.0), mode in 0u8..3,
    u in [0.0f64..1.0, 0.0f64..1.0], k in 0usize..4096, solid in any::<bool>()) => projection_prop);

// ---------------------------------------------------------------- 3D

type V3 = [f64; 3];

/// A built-in 3D shape by its f64 parameters.
#[derive(Debug, Clone)]
enum Spec3 {
    Sphere(f64),
    Cuboid(V3),
    Aabb3(V3, V3),
}

fn spec3() -> impl Strategy<Value = Spec3> {
    let size = || 0.1f64..5.0;
    prop_oneof![
        size().prop_map(Spec3::Sphere),
        [size(), size(), size()].prop_map(Spec3::Cuboid),
        (
            [-3.0f64..3.0, -3.0f64..3.0, -3.0f64..3.0],
            [size(), size(), size()]
        )
            .prop_map(|(m, e)| Spec3::Aabb3(m, [m[0] + e[0], m[1] + e[1], m[2] + e[2]])),
    ]
}

fn build3<T: Real>(s: &Spec3) -> Box<dyn Shape3<T>> {
    let v = |a: V3| Vector3::new(T::lit(a[0]), T::lit(a[1]), T::lit(a[2]));
    match s {
        Spec3::Sphere(r) => Box::new(Sphere::new(T::lit(*r)).unwrap()),
        Spec3::Cuboid(h) => Box::new(Cuboid::new(v(*h)).unwrap()),
        Spec3::Aabb3(a, b) => Box::new(Aabb3::new(v(*a).into(), v(*b).into()).unwrap()),
    }
}

/// A pose: translation and a scaled rotation axis (angle = its length).
fn iso3<T: Real>(t: V3, r: V3) -> Isometry3<T> {
    let v = |a: V3| Vector3::new(T::lit(a[0]), T::lit(a[1]), T::lit(a[2]));
    Isometry3::new(v(t), v(r))
}

fn p3<T: Real>(a: V3) -> Point3<T> {
    Point3::new(T::lit(a[0]), T::lit(a[1]), T::lit(a[2]))
}

fn g3(p: &Point3<impl Real>) -> V3 {
    [p.x.as_f64(), p.y.as_f64(), p.z.as_f64()]
}

/// The exact signed distance, in f64, by the local frame of the f64 pose (an
/// `Aabb3` ignores the rotation).
fn sd3(s: &Spec3, pose: &Isometry3<f64>, p: V3) -> f64 {
    let local =
        |pose: &Isometry3<f64>| pose.inverse_transform_point(&Point3::new(p[0], p[1], p[2]));
    let box_sd = |q: Vector3<f64>, h: Vector3<f64>| {
        let d = q.abs() - h;
        let outside = d.map(|x| x.max(0.0)).norm();
        outside + d.max().min(0.0)
    };
    match s {
        Spec3::Sphere(r) => local(pose).coords.norm() - r,
        Spec3::Cuboid(h) => box_sd(local(pose).coords, Vector3::new(h[0], h[1], h[2])),
        Spec3::Aabb3(a, b) => {
            let t = Isometry3::from_parts(pose.translation, nalgebra::UnitQuaternion::identity());
            let (a, b) = (
                Vector3::new(a[0], a[1], a[2]),
                Vector3::new(b[0], b[1], b[2]),
            );
            box_sd(local(&t).coords - (a + b) / 2.0, (b - a) / 2.0)
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn ray3_prop<T: Real>(
    s: Spec3,
    t: V3,
    rot: V3,
    o: V3,
    d: V3,
    inside: bool,
    (motion_t, motion_r): (V3, V3),
) -> Result<(), TestCaseError> {
    let shape = build3::<T>(&s);
    let pose = iso3::<T>(t, rot);
    let pose64 = iso3::<f64>(t, rot);
    // From inside: the origin moved next to the shape's centre.
    let centre = g3(&Point3::from(
        shape.effective_pose(&pose).translation.vector,
    ));
    let centre = match &s {
        Spec3::Aabb3(a, b) => [
            centre[0] + (a[0] + b[0]) / 2.0,
            centre[1] + (a[1] + b[1]) / 2.0,
            centre[2] + (a[2] + b[2]) / 2.0,
        ],
        _ => centre,
    };
    let o = if inside {
        [
            centre[0] + o[0] * 0.01,
            centre[1] + o[1] * 0.01,
            centre[2] + o[2] * 0.01,
        ]
    } else {
        [centre[0] + o[0], centre[1] + o[1], centre[2] + o[2]]
    };
    let (o, d) = (g3(&p3::<T>(o)), g3(&p3::<T>(d)));
    let dn = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
    prop_assume!(dn > 1e-3);
    let at = |tt: f64| [o[0] + tt * d[0], o[1] + tt * d[1], o[2] + tt * d[2]];
    let f = |tt: f64| sd3(&s, &pose64, at(tt));
    let size = match &s {
        Spec3::Sphere(r) => *r,
        Spec3::Cuboid(h) => (h[0] * h[0] + h[1] * h[1] + h[2] * h[2]).sqrt(),
        Spec3::Aabb3(a, b) => {
            ((b[0] - a[0]).powi(2) + (b[1] - a[1]).powi(2) + (b[2] - a[2]).powi(2)).sqrt()
        }
    };
    let dist =
        ((o[0] - centre[0]).powi(2) + (o[1] - centre[1]).powi(2) + (o[2] - centre[2]).powi(2))
            .sqrt();
    let t_far = (dist + size + 1.0) / dn;
    let (t_min, f_min) = minimise(&f, 0.0, t_far);
    let scale = size + dist + t.iter().map(|x| x.abs()).sum::<f64>() + 1.0;
    let tol = 4.0 * test_tolerance::<T>(T::lit(scale)).as_f64();
    let ray = Ray3::new(
        p3::<T>(o),
        Vector3::new(T::lit(d[0]), T::lit(d[1]), T::lit(d[2])),
    );
    let caster = shape.as_ray_cast().unwrap();
    let inf = T::infinity();
    let solid = caster.cast_ray(&pose, &ray, inf, true);
    let hollow = caster.cast_ray(&pose, &ray, inf, false);
    let contains = shape
        .as_convex()
        .unwrap()
        .contains_point(&pose, &ray.origin);
    for (h, exit) in [(solid, false), (hollow, contains)] {
        let Some(h) = h else { continue };
        if contains && !exit {
            prop_assert_eq!((h.toi, h.point), (T::zero(), ray.origin));
            continue;
        }
        let (toi, p, n) = (h.toi.as_f64(), g3(&h.point), h.normal.into_inner());
        let n = [n.x.as_f64(), n.y.as_f64(), n.z.as_f64()];
        let q = at(toi);
        prop_assert!(
            (0..3).all(|i| (p[i] - q[i]).abs() <= tol),
            "{p:?} off the ray"
        );
        prop_assert!(sd3(&s, &pose64, p).abs() <= tol, "{p:?} off the boundary");
        prop_assert!(((n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt() - 1.0).abs() < 1e-5);
        prop_assert!(n[0] * d[0] + n[1] * d[1] + n[2] * d[2] <= tol * dn);
        // The normal is the boundary's: stepping along it leaves (entry) or
        // enters (exit) the shape at the rate of the step.
        let out = if exit { -1.0 } else { 1.0 };
        let step = 1e-3 * size;
        let probe = [
            p[0] + out * n[0] * step,
            p[1] + out * n[1] * step,
            p[2] + out * n[2] * step,
        ];
        prop_assert!(
            sd3(&s, &pose64, probe) >= step * 0.5 - tol,
            "normal {n:?} at {p:?}"
        );
        if exit && f_min < -4.0 * tol {
            let t_out = root(&f, t_min, t_far);
            let slope = f_min.abs() / (t_out - t_min).max(1e-300);
            prop_assert!((toi - t_out).abs() <= 2.0 * tol / slope + tol / dn);
        }
        // max_toi exactly.
        prop_assert_eq!(caster.cast_ray(&pose, &ray, h.toi, !exit), Some(h));
    }
    // A rigid motion of shape and ray together (an `Aabb3` turns with
    // nothing: translation only) moves the hit with them.
    let turn = if matches!(s, Spec3::Aabb3(..)) {
        [0.0; 3]
    } else {
        motion_r
    };
    let motion = iso3::<f64>(motion_t, turn);
    let moved_pose = motion * pose64;
    let (mt, mr) = (
        moved_pose.translation.vector,
        moved_pose.rotation.scaled_axis(),
    );
    let moved_pose_t = iso3::<T>([mt.x, mt.y, mt.z], [mr.x, mr.y, mr.z]);
    let mo = motion * Point3::new(o[0], o[1], o[2]);
    let md = motion * Vector3::new(d[0], d[1], d[2]);
    let moved_ray = Ray3::new(
        p3::<T>([mo.x, mo.y, mo.z]),
        Vector3::new(T::lit(md.x), T::lit(md.y), T::lit(md.z)),
    );
    let moved = caster.cast_ray(&moved_pose_t, &moved_ray, inf, true);
    let f0 = f(0.0);
    let clear = f_min > 4.0 * tol || (f_min < -16.0 * tol && (f0 > 16.0 * tol || f0 < -16.0 * tol));
    if clear {
        prop_assert_eq!(
            moved.is_some(),
            solid.is_some(),
            "{:?} vs {:?}",
            moved,
            solid
        );
        if let (Some(a), Some(b)) = (solid, moved) {
            let mscale = scale + motion_t.iter().map(|x| x.abs()).sum::<f64>();
            let mtol = 4.0 * test_tolerance::<T>(T::lit(mscale)).as_f64();
            let slope = if f0 < 0.0 {
                f64::INFINITY
            } else {
                f_min.abs() / (t_min - root(&f, 0.0, t_min)).max(1e-300)
            };
            prop_assert!(
                (a.toi.as_f64() - b.toi.as_f64()).abs() <= 4.0 * mtol / slope + 4.0 * mtol / dn,
                "toi {:?} moved to {:?}",
                a.toi,
                b.toi
            );
        }
    }
    if !contains {
        prop_assert_eq!(solid, hollow);
        if f_min > tol {
            prop_assert!(solid.is_none());
        } else if f_min < -4.0 * tol && f(0.0) > tol {
            let t_in = root(&f, 0.0, t_min);
            let h = solid.ok_or_else(|| TestCaseError::fail("missed a clear hit"))?;
            let slope = f_min.abs() / (t_min - t_in).max(1e-300);
            prop_assert!((h.toi.as_f64() - t_in).abs() <= 2.0 * tol / slope + tol / dn);
        }
    }
    Ok(())
}

fn projection3_prop<T: Real>(
    s: Spec3,
    t: V3,
    rot: V3,
    q: V3,
    solid: bool,
) -> Result<(), TestCaseError> {
    let shape = build3::<T>(&s);
    let pose = iso3::<T>(t, rot);
    let pose64 = iso3::<f64>(t, rot);
    let q = g3(&p3::<T>([t[0] + q[0], t[1] + q[1], t[2] + q[2]]));
    let pr = shape
        .as_point_query()
        .unwrap()
        .project_point(&pose, &p3::<T>(q), solid);
    prop_assert_eq!(
        pr.is_inside,
        shape
            .as_convex()
            .unwrap()
            .contains_point(&pose, &p3::<T>(q))
    );
    if pr.is_inside && solid {
        prop_assert_eq!(pr.point, p3::<T>(q));
        return Ok(());
    }
    let scale = t.iter().chain(q.iter()).map(|x| x.abs()).sum::<f64>() + 10.0;
    let tol = 4.0 * test_tolerance::<T>(T::lit(scale)).as_f64();
    let p = g3(&pr.point);
    prop_assert!(sd3(&s, &pose64, p).abs() <= tol, "{p:?} off the boundary");
    let dist = ((p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2) + (p[2] - q[2]).powi(2)).sqrt();
    let want = sd3(&s, &pose64, q).abs();
    prop_assert!(
        (dist - want).abs() <= 2.0 * tol,
        "distance {dist} vs {want}"
    );
    Ok(())
}

fn v3s(range: f64) -> impl Strategy<Value = V3> {
    [-range..range, -range..range, -range..range]
}

for_both!(256, rays3(s in spec3(), t in v3s(20.0), r in v3s(4.0), o in v3s(12.0), d in v3s(3.0),
    inside in any::<bool>(), m in (v3s(30.0), v3s(4.0))) => ray3_prop);
for_both!(256, projections3(s in spec3(), t in v3s(20.0), r in v3s(4.0), q in v3s(8.0),
    solid in any::<bool>()) => projection3_prop);
