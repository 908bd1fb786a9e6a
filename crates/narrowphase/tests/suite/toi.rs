//! Time of impact under rigid motions (`narrowphase::toi`), every ordered
//! pair of the nine built-in 2D kinds, f32 and f64 from one generic body.
//!
//! What is checked, on seeded random shapes and sweeps (`support::
//! every_ordered_pair`; B starts at least `0.05` away from A, in a random
//! direction, and moves towards A by up to twice the gap with a random
//! lateral drift; both turn by up to 3 radians):
//!
//! - the contract, against an independent reference (the pair's distance
//!   and `intersects` sampled at 512 times, then bisected from the first
//!   sample at or below the level): before the reported time no sample
//!   intersects or comes closer than `target − tolerance`; a `Hit` is at
//!   distance `target ± tolerance`, not after the reference's first time at
//!   `target − tolerance` nor after its first contact; `Separated` never
//!   comes closer than `target − tolerance` over `[0, t_max]`;
//! - swapping the shapes gives the same status and time, bit for bit, and the
//!   flipped normal and points;
//! - a rigid motion of both sweeps (translation only for pairs with an
//!   `Aabb`, which does not turn) gives an answer that meets the contract for
//!   the moved pair, the same status unless the motion grazes the target band;
//! - far from the origin (offsets `2¹²` in f32, `2³⁰` in f64): the contract
//!   still holds;
//! - rotation centres away from the shapes' origins;
//! - named regressions for the bug classes other engines reported: a rotated
//!   target, a target thousands of times larger than the moving shape,
//!   starting in contact, tangent (grazing) motion, parallel faces, tiny and
//!   zero relative velocity, the normal's direction, a fast spin;
//! - bad input is a typed error.
//!
//! Tolerances: the reference's distances are computed in `T` by the exact
//! kernels; a case of magnitude `s` (extents, positions and motion) allows
//! `reference_tolerance::<T>(s)` of rounding (f32 ≈ 2.4e-4·s, f64 ≈
//! 4.5e-13·s), and the query's own tolerance is at least twice that.

use crate::common;
use crate::support;

use std::f64::consts::PI;

use common::*;
use nalgebra::{Isometry2, Point2, Vector2};
use narrowphase::toi::{Sweep, ToiOptions, ToiOutput, ToiStatus, time_of_impact};
use narrowphase::{DispatchError, DispatchTable};
use proptest::prelude::*;
use shape::prelude::*;
use support::every_ordered_pair;

// --------------------------------------------------------------- motions

/// A random motion of a case: `[direction of B from A, gap, approach (in
/// units of the start separation), lateral drift, turn of A, turn of B,
/// A's drift x, A's drift y]`.
type Motion = [f64; 8];

fn motion() -> impl Strategy<Value = Motion> {
    (
        -PI..PI,
        0.05f64..3.0,
        0.0f64..2.0,
        -3.0f64..3.0,
        -3.0f64..3.0,
        -3.0f64..3.0,
        prop::array::uniform2(-2.0f64..2.0),
    )
        .prop_map(|(phi, gap, k, lat, ta, tb, va)| [phi, gap, k, lat, ta, tb, va[0], va[1]])
}

/// The sweeps of a case in f64 numbers: `[cx0, cy0, cx1, cy1, a0, a1]` for A
/// and B (rotation centres at the shapes' local origins).
fn sweeps(sa: &Spec, sb: &Spec, pa: [f64; 3], pb: [f64; 3], m: Motion) -> ([f64; 6], [f64; 6]) {
    let [phi, gap, k, lat, ta, tb, vx, vy] = m;
    let (u, w) = ([phi.cos(), phi.sin()], [-phi.sin(), phi.cos()]);
    let sep = extent(sa) + extent(sb) + gap;
    let b0 = [pa[0] + sep * u[0], pa[1] + sep * u[1]];
    let mv = [-k * sep * u[0] + lat * w[0], -k * sep * u[1] + lat * w[1]];
    let a = [pa[0], pa[1], pa[0] + vx, pa[1] + vy, pa[2], pa[2] + ta];
    let b = [
        b0[0],
        b0[1],
        b0[0] + mv[0],
        b0[1] + mv[1],
        pb[2],
        pb[2] + tb,
    ];
    (a, b)
}

fn sweep<T: Real>(s: [f64; 6], center: [f64; 2]) -> Sweep<T> {
    Sweep::new(
        pt(center),
        pt([s[0], s[1]]),
        pt([s[2], s[3]]),
        T::lit(s[4]),
        T::lit(s[5]),
    )
    .unwrap()
}

/// The magnitude of a case's numbers.
fn scale(sa: &Spec, sb: &Spec, a: [f64; 6], b: [f64; 6]) -> f64 {
    let m = |s: [f64; 6]| s[..4].iter().fold(0.0f64, |m, v| m.max(v.abs()));
    extent(sa) + extent(sb) + m(a) + m(b) + 1.0
}

/// Options for a case of magnitude `s`: a tolerance at least twice the
/// rounding the reference allows, a target twice the tolerance.
fn options<T: Real>(s: f64) -> ToiOptions<T> {
    options_for_rounding(reference_tolerance::<T>(s))
}

/// Options for a case whose distances round by up to `eps`.
fn options_for_rounding<T: Real>(eps: f64) -> ToiOptions<T> {
    let tol = (2.0 * eps).max(0.00125);
    ToiOptions::new(T::one(), T::lit(2.0 * tol), T::lit(tol), 256).unwrap()
}

// ------------------------------------------------------------- reference

/// The contract of `out` for `a` moving by `sa` and `b` by `sb`, against
/// the sampled and bisected reference; `eps` is the rounding allowed.
fn check_contract<T: Real>(
    a: &dyn Shape<T>,
    sa: &Sweep<T>,
    b: &dyn Shape<T>,
    sb: &Sweep<T>,
    opts: &ToiOptions<T>,
    out: &ToiOutput<T>,
    eps: f64,
) -> Result<(), TestCaseError> {
    let (target, tol) = (opts.target.as_f64(), opts.tolerance.as_f64());
    let t_max = opts.t_max.as_f64();
    let dist = |t: f64| -> f64 {
        let (pa, pb) = (sa.pose_at(T::lit(t)), sb.pose_at(T::lit(t)));
        narrowphase::distance(a, &pa, b, &pb).unwrap().as_f64()
    };
    let t = out.t.as_f64();
    prop_assert!((0.0..=t_max).contains(&t), "t = {t}");
    prop_assert!((out.normal.norm().as_f64() - 1.0).abs() < 1e-3);
    match out.status {
        ToiStatus::Penetrating => {
            prop_assert_eq!(t, 0.0);
            prop_assert!(dist(0.0) < target - tol + eps);
            return Ok(());
        }
        ToiStatus::Hit => {
            let d = dist(t);
            prop_assert!(
                (d - target).abs() <= tol + eps,
                "hit at {t}: distance {d}, target {target} ± {tol}"
            );
            prop_assert!((out.distance.as_f64() - d).abs() <= eps);
        }
        ToiStatus::Separated => prop_assert_eq!(t, t_max),
        ToiStatus::IterationLimit => {}
    }
    // Before t (over all of [0, t_max] when separated), 512 samples: apart
    // (`intersects` false) and above `target − tolerance`.
    const SAMPLES: usize = 512;
    let floor = target - tol;
    let separated = out.status == ToiStatus::Separated;
    let intersects = |s: f64| {
        let (pa, pb) = (sa.pose_at(T::lit(s)), sb.pose_at(T::lit(s)));
        narrowphase::intersects(a, &pa, b, &pb).unwrap()
    };
    for k in 0..SAMPLES + usize::from(separated) {
        let s = t * k as f64 / SAMPLES as f64;
        if s >= t && !separated {
            break;
        }
        prop_assert!(!intersects(s), "intersecting at {s} < t = {t}: {out:?}");
        prop_assert!(
            dist(s) > floor - eps,
            "distance {} at {s} < t = {t} (target {target} ± {tol}, eps {eps}, {out:?})",
            dist(s)
        );
    }
    // The independent reference of the first time the distance reaches
    // `target − tolerance` and of the first contact: the first of 512
    // samples over [0, t_max] at or below it, then 48 bisections. The query
    // may not report a later time.
    let first_time = |below: &dyn Fn(f64) -> bool| -> Option<f64> {
        let mut previous = 0.0;
        for k in 0..=SAMPLES {
            let s = t_max * k as f64 / SAMPLES as f64;
            if below(s) {
                let (mut lo, mut hi) = (previous, s);
                for _ in 0..48 {
                    let mid = 0.5 * (lo + hi);
                    if below(mid) {
                        hi = mid;
                    } else {
                        lo = mid;
                    }
                }
                return Some(hi);
            }
            previous = s;
        }
        None
    };
    for (what, crossing) in [
        ("the band", first_time(&|s| dist(s) <= floor)),
        ("contact", first_time(&|s| intersects(s))),
    ] {
        if let Some(hi) = crossing {
            prop_assert!(
                matches!(out.status, ToiStatus::Hit | ToiStatus::IterationLimit),
                "{:?}, yet the motion reaches {what} at {hi}",
                out.status
            );
            prop_assert!(
                t <= hi || dist(hi) > floor - eps,
                "t = {t} after the motion reaches {what} at {hi}"
            );
        }
    }
    Ok(())
}

fn contract_case<T: Real>((sa, sb, pa, pb, m): support::Case<Motion>) -> Result<(), TestCaseError> {
    let (wa, wb) = sweeps(&sa, &sb, pa, pb, m);
    let (a, b) = (build::<T>(&sa), build::<T>(&sb));
    let (swa, swb) = (sweep::<T>(wa, [0.0; 2]), sweep::<T>(wb, [0.0; 2]));
    let s = scale(&sa, &sb, wa, wb);
    let opts = options::<T>(s);
    let out = time_of_impact(&*a, &swa, &*b, &swb, &opts).unwrap();
    prop_assert_ne!(out.status, ToiStatus::Penetrating);
    prop_assert_ne!(out.status, ToiStatus::IterationLimit, "{:?}", out);
    check_contract(
        &*a,
        &swa,
        &*b,
        &swb,
        &opts,
        &out,
        reference_tolerance::<T>(s),
    )?;
    // Swapping the shapes: the same answer, flipped, bit for bit.
    let swapped = time_of_impact(&*b, &swb, &*a, &swa, &opts).unwrap();
    prop_assert_eq!(swapped, out.flipped());
    Ok(())
}

fn contract<T: Real>() {
    every_ordered_pair(6, motion, contract_case::<T>);
}
shape::for_each_precision!(contract_every_pair, contract);

// ------------------------------------------------------------ invariance

fn moved_case<T: Real>(
    (sa, sb, pa, pb, (m, r)): support::Case<(Motion, [f64; 3])>,
) -> Result<(), TestCaseError> {
    let (wa, wb) = sweeps(&sa, &sb, pa, pb, m);
    let (a, b) = (build::<T>(&sa), build::<T>(&sb));
    let (swa, swb) = (sweep::<T>(wa, [0.0; 2]), sweep::<T>(wb, [0.0; 2]));
    let rigid = rigid_motion_for(&sa, &sb, r);
    let move_sweep = |w: [f64; 6]| {
        let p0 = rigid([w[0], w[1], w[4]]);
        let p1 = rigid([w[2], w[3], w[5]]);
        [p0[0], p0[1], p1[0], p1[1], p0[2], p1[2]]
    };
    let (ma, mb) = (move_sweep(wa), move_sweep(wb));
    let (mwa, mwb) = (sweep::<T>(ma, [0.0; 2]), sweep::<T>(mb, [0.0; 2]));
    let s = scale(&sa, &sb, ma, mb).max(scale(&sa, &sb, wa, wb));
    let opts = options::<T>(s);
    let eps = reference_tolerance::<T>(s);
    let out = time_of_impact(&*a, &swa, &*b, &swb, &opts).unwrap();
    let moved = time_of_impact(&*a, &mwa, &*b, &mwb, &opts).unwrap();
    check_contract(&*a, &mwa, &*b, &mwb, &opts, &moved, eps)?;
    if out.status != moved.status {
        // Only a motion that grazes the target band may change the status:
        // the answer that did not stop came within the band somewhere.
        let (target, tol) = (opts.target.as_f64(), opts.tolerance.as_f64());
        let closest = (0..=512)
            .map(|k| {
                let t = T::lit(k as f64 / 512.0);
                narrowphase::distance(&*a, &swa.pose_at(t), &*b, &swb.pose_at(t))
                    .unwrap()
                    .as_f64()
            })
            .fold(f64::INFINITY, f64::min);
        prop_assert!(closest <= target + 2.0 * tol + eps, "{out:?} / {moved:?}");
    }
    Ok(())
}

fn rigid_motion_invariance<T: Real>() {
    every_ordered_pair(
        3,
        || {
            (
                motion(),
                (-50.0f64..50.0, -50.0f64..50.0, -PI..PI).prop_map(|(x, y, a)| [x, y, a]),
            )
        },
        moved_case::<T>,
    );
}
shape::for_each_precision!(rigid_motion_every_pair, rigid_motion_invariance);

// ------------------------------------------------------------------- far

fn far_case<T: Real>(
    (sa, sb, pa, pb, (m, theta)): support::Case<(Motion, f64)>,
) -> Result<(), TestCaseError> {
    let far = if T::epsilon().as_f64() > 1e-10 {
        4096.0
    } else {
        1073741824.0
    };
    let o = [far * theta.cos(), far * theta.sin()];
    let (wa, wb) = sweeps(&sa, &sb, pa, pb, m);
    let shift = |w: [f64; 6]| {
        [
            w[0] + o[0],
            w[1] + o[1],
            w[2] + o[0],
            w[3] + o[1],
            w[4],
            w[5],
        ]
    };
    let (fa, fb) = (shift(wa), shift(wb));
    let (a, b) = (build::<T>(&sa), build::<T>(&sb));
    let (swa, swb) = (sweep::<T>(fa, [0.0; 2]), sweep::<T>(fb, [0.0; 2]));
    let s = scale(&sa, &sb, fa, fb);
    let opts = options::<T>(s);
    let out = time_of_impact(&*a, &swa, &*b, &swb, &opts).unwrap();
    prop_assert_ne!(out.status, ToiStatus::IterationLimit);
    check_contract(
        &*a,
        &swa,
        &*b,
        &swb,
        &opts,
        &out,
        reference_tolerance::<T>(s),
    )
}

fn far_from_the_origin<T: Real>() {
    every_ordered_pair(2, || (motion(), -PI..PI), far_case::<T>);
}
shape::for_each_precision!(far_every_pair, far_from_the_origin);

// ------------------------------------------------------- rotation centres

fn centred_case<T: Real>(
    (sa, sb, pa, pb, (m, ca, cb)): support::Case<(Motion, [f64; 2], [f64; 2])>,
) -> Result<(), TestCaseError> {
    let (wa, wb) = sweeps(&sa, &sb, pa, pb, m);
    let (a, b) = (build::<T>(&sa), build::<T>(&sb));
    let (swa, swb) = (sweep::<T>(wa, ca), sweep::<T>(wb, cb));
    let s = scale(&sa, &sb, wa, wb) + 4.0;
    let opts = options::<T>(s);
    let out = time_of_impact(&*a, &swa, &*b, &swb, &opts).unwrap();
    prop_assert_ne!(out.status, ToiStatus::IterationLimit);
    check_contract(
        &*a,
        &swa,
        &*b,
        &swb,
        &opts,
        &out,
        reference_tolerance::<T>(s),
    )?;
    let swapped = time_of_impact(&*b, &swb, &*a, &swa, &opts).unwrap();
    prop_assert_eq!(swapped, out.flipped());
    Ok(())
}

fn rotation_centres<T: Real>() {
    let c = || prop::array::uniform2(-2.0f64..2.0);
    every_ordered_pair(2, || (motion(), c(), c()), centred_case::<T>);
}
shape::for_each_precision!(rotation_centres_every_pair, rotation_centres);

// ------------------------------------------------------------ regressions

fn v<T: Real>(x: f64, y: f64) -> Vector2<T> {
    Vector2::new(T::lit(x), T::lit(y))
}

fn still<T: Real>(x: f64, y: f64, angle: f64) -> Sweep<T> {
    Sweep::new(
        Point2::origin(),
        pt([x, y]),
        pt([x, y]),
        T::lit(angle),
        T::lit(angle),
    )
    .unwrap()
}

fn moving<T: Real>(from: [f64; 2], to: [f64; 2]) -> Sweep<T> {
    Sweep::new(Point2::origin(), pt(from), pt(to), T::zero(), T::zero()).unwrap()
}

fn close<T: Real>(x: T, want: f64, tol: f64) -> bool {
    (x.as_f64() - want).abs() <= tol
}

/// A ball shot at a diamond (a square turned 45°): it touches the corner
/// when its centre is `√2 + 0.5` from the diamond's centre.
fn rotated_target<T: Real>() {
    let diamond = Obb::new(v::<T>(1.0, 1.0)).unwrap();
    let ball = Circle::new(T::lit(0.5)).unwrap();
    let opts = ToiOptions::default();
    let out = time_of_impact(
        &ball,
        &moving([-10.0, 0.0], [10.0, 0.0]),
        &diamond,
        &still(0.0, 0.0, PI / 4.0),
        &opts,
    )
    .unwrap();
    assert_eq!(out.status, ToiStatus::Hit);
    let want = (10.0 - 2f64.sqrt() - 0.5 - 0.005) / 20.0;
    assert!(
        close(out.t, want, 0.00125 / 20.0 + 1e-5),
        "{out:?} vs {want}"
    );
    assert!(close(out.normal.x, 1.0, 1e-4), "{out:?}");
}
shape::for_each_precision!(regression_rotated_target, rotated_target);

/// A small ball falling on a ground 10,000 wide (50,000 times the ball):
/// the time is the fall to the ground's top, far from the ground's centre.
fn huge_target<T: Real>() {
    let ground = Obb::new(v::<T>(5000.0, 1.0)).unwrap();
    let ball = Circle::new(T::lit(0.1)).unwrap();
    let opts = ToiOptions::default();
    let out = time_of_impact(
        &ball,
        &moving([4321.0, 5.0], [4321.0, -5.0]),
        &ground,
        &still(0.0, -1.0, 0.0),
        &opts,
    )
    .unwrap();
    assert_eq!(out.status, ToiStatus::Hit);
    assert!(
        close(out.t, (5.0 - 0.1 - 0.005) / 10.0, 0.00125 / 10.0 + 1e-4),
        "{out:?}"
    );
    assert!(close(out.normal.y, -1.0, 1e-6), "{out:?}");
    // A turning huge target: the bound uses its 5000 radius and still
    // converges to the same kind of answer (a slow turn).
    let turning = Sweep::new(
        Point2::origin(),
        pt([0.0, -1.0]),
        pt([0.0, -1.0]),
        T::zero(),
        T::lit(1e-4),
    )
    .unwrap();
    let out = time_of_impact(
        &ball,
        &moving([4321.0, 5.0], [4321.0, -5.0]),
        &ground,
        &turning,
        &opts,
    )
    .unwrap();
    assert_eq!(out.status, ToiStatus::Hit, "{out:?}");
    let d = narrowphase::distance(
        &ball,
        &moving::<T>([4321.0, 5.0], [4321.0, -5.0]).pose_at(out.t),
        &ground,
        &turning.pose_at(out.t),
    )
    .unwrap();
    assert!(close(d, 0.005, 0.00125 + 1e-3), "{d:?}");
}
shape::for_each_precision!(regression_huge_target, huge_target);

/// Shapes touching or overlapping at the start: `Penetrating` (closer than
/// `target − tolerance`); at the target distance already: a hit at 0, even
/// when moving apart.
fn starting_in_contact<T: Real>() {
    let boxy = Obb::new(v::<T>(1.0, 1.0)).unwrap();
    let opts = ToiOptions::default();
    let touching = time_of_impact(
        &boxy,
        &still(0.0, 0.0, 0.0),
        &boxy,
        &moving([2.0, 0.0], [5.0, 0.0]),
        &opts,
    )
    .unwrap();
    assert_eq!(touching.status, ToiStatus::Penetrating);
    assert_eq!(touching.t, T::zero());
    let deep = time_of_impact(
        &boxy,
        &still(0.0, 0.0, 0.0),
        &boxy,
        &moving([1.5, 0.0], [5.0, 0.0]),
        &opts,
    )
    .unwrap();
    assert_eq!(deep.status, ToiStatus::Penetrating);
    assert!(close(deep.distance, -0.5, 1e-5), "{deep:?}");
    assert!(close(deep.normal.x, 1.0, 1e-6), "{deep:?}");
    let at_target = time_of_impact(
        &boxy,
        &still(0.0, 0.0, 0.0),
        &boxy,
        &moving([2.005, 0.0], [5.0, 0.0]),
        &opts,
    )
    .unwrap();
    assert_eq!((at_target.status, at_target.t), (ToiStatus::Hit, T::zero()));
    // A zero target: touching is a hit at 0, overlapping deeper than the
    // tolerance is penetrating.
    let zero = ToiOptions::new(T::one(), T::zero(), T::lit(0.001), 64).unwrap();
    let out = time_of_impact(
        &boxy,
        &still(0.0, 0.0, 0.0),
        &boxy,
        &moving([2.0, 0.0], [5.0, 0.0]),
        &zero,
    )
    .unwrap();
    assert_eq!((out.status, out.t), (ToiStatus::Hit, T::zero()));
    let out = time_of_impact(
        &boxy,
        &still(0.0, 0.0, 0.0),
        &boxy,
        &moving([1.9, 0.0], [5.0, 0.0]),
        &zero,
    )
    .unwrap();
    assert_eq!(out.status, ToiStatus::Penetrating);
}
shape::for_each_precision!(regression_starting_in_contact, starting_in_contact);

/// Tangent motion: a ball sliding along a box's face 0.1 above it never
/// hits (and takes two evaluations: no closing speed along the normal); a
/// ball grazing the box's top exactly is a hit at the corner.
fn tangent_motion<T: Real>() {
    let boxy = Obb::new(v::<T>(1.0, 1.0)).unwrap();
    let ball = Circle::new(T::lit(0.5)).unwrap();
    let opts = ToiOptions::default();
    let out = time_of_impact(
        &ball,
        &moving([-0.5, 1.6], [0.5, 1.6]),
        &boxy,
        &still(0.0, 0.0, 0.0),
        &opts,
    )
    .unwrap();
    assert_eq!(out.status, ToiStatus::Separated);
    assert!(out.iterations <= 2, "{out:?}");
    let out = time_of_impact(
        &ball,
        &moving([-5.0, 1.5], [5.0, 1.5]),
        &boxy,
        &still(0.0, 0.0, 0.0),
        &opts,
    )
    .unwrap();
    assert_eq!(out.status, ToiStatus::Hit, "{out:?}");
    assert!(out.t.as_f64() < 0.4, "{out:?}"); // before the ball is above the corner
}
shape::for_each_precision!(regression_tangent_motion, tangent_motion);

/// Two boxes face to face, turned alike: the time is exact, the normal the
/// faces' normal.
fn parallel_faces<T: Real>() {
    let boxy = Obb::new(v::<T>(1.0, 0.5)).unwrap();
    let opts = ToiOptions::default();
    let angle: f64 = 0.3;
    let (c, s) = (angle.cos(), angle.sin());
    // B starts 6 away along A's x axis and ends 6 back past A.
    let b = Sweep::new(
        Point2::origin(),
        pt([6.0 * c, 6.0 * s]),
        pt([-6.0 * c, -6.0 * s]),
        T::lit(angle),
        T::lit(angle),
    )
    .unwrap();
    let out = time_of_impact(&boxy, &still(0.0, 0.0, angle), &boxy, &b, &opts).unwrap();
    assert_eq!(out.status, ToiStatus::Hit);
    assert!(
        close(out.t, (4.0 - 0.005) / 12.0, 0.00125 / 12.0 + 1e-5),
        "{out:?}"
    );
    assert!(
        close(out.normal.x, c, 1e-5) && close(out.normal.y, s, 1e-5),
        "{out:?}"
    );
    assert!(out.iterations <= 3, "{out:?}");
}
shape::for_each_precision!(regression_parallel_faces, parallel_faces);

/// Tiny and zero relative velocity: separated, in at most two evaluations.
fn tiny_and_zero_velocity<T: Real>() {
    let boxy = Obb::new(v::<T>(1.0, 1.0)).unwrap();
    let opts = ToiOptions::default();
    for d in [0.0, 1e-9, 1e-3] {
        let out = time_of_impact(
            &boxy,
            &still(0.0, 0.0, 0.0),
            &boxy,
            &moving([3.0, 0.0], [3.0 - d, 0.0]),
            &opts,
        )
        .unwrap();
        assert_eq!(out.status, ToiStatus::Separated, "{out:?}");
        assert!(out.iterations <= 2, "{out:?}");
        assert_eq!(out.t, T::one());
    }
    // Both moving alike (zero relative velocity), far: separated.
    let out = time_of_impact(
        &boxy,
        &moving([0.0, 0.0], [100.0, 0.0]),
        &boxy,
        &moving([3.0, 0.0], [103.0, 0.0]),
        &opts,
    )
    .unwrap();
    assert_eq!(out.status, ToiStatus::Separated);
}
shape::for_each_precision!(regression_tiny_and_zero_velocity, tiny_and_zero_velocity);

/// The normal points from A to B, whichever moves.
fn normal_direction<T: Real>() {
    let wall = Obb::new(v::<T>(0.5, 5.0)).unwrap();
    let ball = Circle::new(T::lit(0.5)).unwrap();
    let opts = ToiOptions::default();
    let shot = moving([-10.0, 0.0], [10.0, 0.0]);
    let out = time_of_impact(&ball, &shot, &wall, &still(0.0, 0.0, 0.0), &opts).unwrap();
    assert!(close(out.normal.x, 1.0, 1e-6), "{out:?}");
    assert!(out.point_b.x < T::lit(-0.49) && out.point_a.x < out.point_b.x);
    let out = time_of_impact(&wall, &still(0.0, 0.0, 0.0), &ball, &shot, &opts).unwrap();
    assert!(close(out.normal.x, -1.0, 1e-6), "{out:?}");
}
shape::for_each_precision!(regression_normal_direction, normal_direction);

/// A long bar spinning 10 radians in the step next to a ball it would miss
/// at both ends of the step: the first contact is found (the bar sweeps the
/// ball within its first turn), and before it the shapes are apart.
fn fast_spin<T: Real>() {
    let bar = Obb::new(v::<T>(3.0, 0.1)).unwrap();
    let ball = Circle::new(T::lit(0.3)).unwrap();
    let opts = ToiOptions::default();
    let spin = Sweep::new(
        Point2::origin(),
        Point2::origin(),
        Point2::origin(),
        T::zero(),
        T::lit(10.0),
    )
    .unwrap();
    let out = time_of_impact(&bar, &spin, &ball, &still(0.0, 2.0, 0.0), &opts).unwrap();
    assert_eq!(out.status, ToiStatus::Hit, "{out:?}");
    // The bar's top edge reaches the ball's side when it has turned by
    // about asin((0.3 + 0.1) / 2) ... bounded by the sampled reference.
    check_contract(
        &bar,
        &spin,
        &ball,
        &still(0.0, 2.0, 0.0),
        &opts,
        &out,
        reference_tolerance::<T>(10.0),
    )
    .unwrap();
    assert!(out.t.as_f64() < 0.2);
}
shape::for_each_precision!(regression_fast_spin, fast_spin);

// --------------------------------------------------------------- sweeps

fn sweep_poses<T: Real>() {
    let start = Isometry2::new(v::<T>(1.0, 2.0), T::lit(3.0));
    let end = Isometry2::new(v::<T>(4.0, -2.0), T::lit(-3.0));
    let s = Sweep::from_poses(&start, &end).unwrap();
    // The shorter turn: from 3 to -3 is +0.283 through π, not -6.
    let (a0, a1) = s.angles();
    assert!(close(a1 - a0, 2.0 * PI - 6.0, 1e-5), "{a0:?} {a1:?}");
    let eps = 1e-5;
    let p1 = s.pose_at(T::one());
    assert!(
        (p1.translation.vector - end.translation.vector)
            .norm()
            .as_f64()
            < eps
    );
    assert!((p1.rotation.angle() - end.rotation.angle()).as_f64().abs() < eps);
    // A new rotation centre keeps both ends.
    let c = s.with_local_center(pt([0.5, -1.0])).unwrap();
    for t in [T::zero(), T::one()] {
        let (p, q) = (s.pose_at(t), c.pose_at(t));
        assert!(
            (p.translation.vector - q.translation.vector)
                .norm()
                .as_f64()
                < eps
        );
    }
    let l = Sweep::linear(&start, &v(1.0, 1.0)).unwrap();
    assert_eq!(l.pose_at(T::zero()), start);
}
shape::for_each_precision!(sweep_constructors, sweep_poses);

// ------------------------------------------------------------ bad input

fn bad_input<T: Real>() {
    let nan = T::nan();
    let inf = T::infinity();
    let o = Point2::origin();
    let e = Err(DispatchError::NonFiniteSweep);
    assert_eq!(
        Sweep::new(o, o, Point2::new(nan, T::zero()), T::zero(), T::zero()),
        e
    );
    assert_eq!(
        Sweep::new(o, Point2::new(inf, T::zero()), o, T::zero(), T::zero()),
        e
    );
    assert_eq!(Sweep::new(o, o, o, T::zero(), inf), e);
    assert_eq!(
        Sweep::new(Point2::new(nan, T::zero()), o, o, T::zero(), T::zero()),
        e
    );
    let max = <T as num_traits::Float>::max_value();
    assert_eq!(
        Sweep::new(
            o,
            Point2::new(-max, T::zero()),
            Point2::new(max, T::zero()),
            T::zero(),
            T::zero()
        ),
        e
    );
    assert_eq!(Sweep::new(o, o, o, -max, max), e);
    assert_eq!(
        Sweep::linear(&Isometry2::identity(), &v::<T>(f64::INFINITY, 0.0)),
        e
    );
    assert_eq!(
        Sweep::linear(&Isometry2::identity(), &Vector2::new(nan, T::zero())),
        e
    );
    let bad_pose = Isometry2::new(Vector2::new(nan, T::zero()), T::zero());
    assert_eq!(Sweep::from_poses(&bad_pose, &Isometry2::identity()), e);
    let e = Err(DispatchError::InvalidToiOptions);
    let one = T::one();
    let small = T::lit(0.001);
    for t_max in [T::zero(), -one, nan, T::lit(1.5), inf] {
        assert_eq!(ToiOptions::new(t_max, small, small, 8), e);
    }
    for target in [-one, nan, inf] {
        assert_eq!(ToiOptions::new(one, target, small, 8), e);
    }
    for tolerance in [T::zero(), -one, nan, inf] {
        assert_eq!(ToiOptions::new(one, small, tolerance, 8), e);
    }
    assert_eq!(ToiOptions::new(one, small, small, 0), e);
    // Options built by hand are checked by the query too.
    let c = Circle::new(one).unwrap();
    let s = still::<T>(0.0, 0.0, 0.0);
    let bad = ToiOptions {
        t_max: nan,
        ..ToiOptions::default()
    };
    assert_eq!(
        time_of_impact(&c, &s, &c, &s, &bad),
        Err(DispatchError::InvalidToiOptions)
    );
    // An unsupported pair is the table's error, not a panic.
    let ring = support::Ring;
    assert!(matches!(
        time_of_impact(&ring, &s, &c, &s, &ToiOptions::default()),
        Err(DispatchError::Unsupported { .. })
    ));
}
shape::for_each_precision!(bad_input_is_an_error, bad_input);

// ------------------------------------------------------------- the table

/// The table answers as the free function for built-in shapes, and a user
/// kind (a hexagon tile with a support function) like the built-in polygon
/// of the same corners.
fn table<T: Real>() {
    let table = DispatchTable::<T>::new();
    let ball = Circle::new(T::lit(0.5)).unwrap();
    let hex = support::Hex::<T>::new(1.0);
    let poly = ConvexPolygon::new(&support::hexagon::<T>(1.0)).unwrap();
    let shot = Sweep::new(
        Point2::origin(),
        pt([-6.0, 0.3]),
        pt([6.0, 0.3]),
        T::zero(),
        T::lit(2.0),
    )
    .unwrap();
    let spin = Sweep::new(
        Point2::origin(),
        Point2::origin(),
        Point2::origin(),
        T::zero(),
        T::lit(1.0),
    )
    .unwrap();
    let opts = ToiOptions::default();
    let free = time_of_impact(&ball, &shot, &poly, &spin, &opts).unwrap();
    assert_eq!(
        table
            .time_of_impact(&ball, &shot, &poly, &spin, &opts)
            .unwrap(),
        free
    );
    let user = table
        .time_of_impact(&ball, &shot, &hex, &spin, &opts)
        .unwrap();
    assert_eq!((user.status, free.status), (ToiStatus::Hit, ToiStatus::Hit));
    // Both are valid answers: each at the target distance, and the user
    // kind's reference (the built-in polygon) never closer before.
    check_contract(&ball, &shot, &poly, &spin, &opts, &user, 1e-3).unwrap();
}
shape::for_each_precision!(table_and_user_kinds, table);

// -------------------------------------------------------------------- 3D

use nalgebra::{Isometry3, Point3, UnitQuaternion, Vector3};
use narrowphase::toi::{Sweep3, ToiOutput3, time_of_impact3};
use support::{KINDS3, Spec3, build3, spec3_of, v3};

/// The 3D contract, as `check_contract`: before `t` apart and above
/// `target − tolerance` (512 samples), a `Hit` in the band, and not after
/// the sampled and bisected first time at `target − tolerance`.
fn check_contract3<T: Real>(
    a: &dyn Shape3<T>,
    sa: &Sweep3<T>,
    b: &dyn Shape3<T>,
    sb: &Sweep3<T>,
    opts: &ToiOptions<T>,
    out: &ToiOutput3<T>,
    eps: f64,
) -> Result<(), TestCaseError> {
    let (target, tol) = (opts.target.as_f64(), opts.tolerance.as_f64());
    let floor = target - tol;
    let dist = |t: f64| {
        let (pa, pb) = (sa.pose_at(T::lit(t)), sb.pose_at(T::lit(t)));
        narrowphase::dim3::distance3(a, &pa, b, &pb)
            .unwrap()
            .as_f64()
    };
    let t = out.t.as_f64();
    match out.status {
        ToiStatus::Hit => prop_assert!((dist(t) - target).abs() <= tol + eps, "{out:?}"),
        ToiStatus::Separated => prop_assert_eq!(t, 1.0),
        ToiStatus::Penetrating => prop_assert!(t == 0.0 && dist(0.0) < floor + eps),
        ToiStatus::IterationLimit => {}
    }
    const SAMPLES: usize = 512;
    let separated = out.status == ToiStatus::Separated;
    for k in 0..SAMPLES + usize::from(separated) {
        let s = t * k as f64 / SAMPLES as f64;
        if s >= t && !separated {
            break;
        }
        prop_assert!(
            dist(s) > floor - eps,
            "distance {} at {s} < {t}: {out:?}",
            dist(s)
        );
    }
    let mut previous = 0.0;
    for k in 0..=SAMPLES {
        let s = k as f64 / SAMPLES as f64;
        if dist(s) <= floor {
            let (mut lo, mut hi) = (previous, s);
            for _ in 0..48 {
                let mid = 0.5 * (lo + hi);
                if dist(mid) <= floor {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            prop_assert!(
                matches!(out.status, ToiStatus::Hit | ToiStatus::IterationLimit),
                "{out:?}, yet the band is reached at {hi}"
            );
            prop_assert!(t <= hi || dist(hi) > floor - eps, "t = {t} after {hi}");
            break;
        }
        previous = s;
    }
    Ok(())
}

fn extent3(s: &Spec3) -> f64 {
    match *s {
        Spec3::Sphere(r) => r,
        Spec3::Cuboid(h) => (h[0] * h[0] + h[1] * h[1] + h[2] * h[2]).sqrt(),
        Spec3::Aabb3(m, e) => {
            let far = |i: usize| m[i].abs().max((m[i] + e[i]).abs());
            (far(0).powi(2) + far(1).powi(2) + far(2).powi(2)).sqrt()
        }
    }
}

/// A random 3D case: B starts clear of A in a random direction and moves
/// towards it, both turning by up to 3 radians about random axes.
fn contract3_case<T: Real>(
    (sa, sb, dir, gap, k, turns): (Spec3, Spec3, [f64; 3], f64, f64, [f64; 6]),
) -> Result<(), TestCaseError> {
    let n = (dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]).sqrt();
    prop_assume!(n > 1e-3);
    let u = [dir[0] / n, dir[1] / n, dir[2] / n];
    let sep = extent3(&sa) + extent3(&sb) + gap;
    let (a, b) = (build3::<T>(&sa), build3::<T>(&sb));
    let p = |x: [f64; 3]| Point3::from(v3::<T>(x[0], x[1], x[2]));
    let wa = Sweep3::new(
        Point3::origin(),
        p([0.5, -0.25, 0.0]),
        p([0.0, 0.25, 0.5]),
        UnitQuaternion::from_scaled_axis(v3(0.3, -0.2, 0.1)),
        v3(turns[0], turns[1], turns[2]),
    )
    .unwrap();
    let b0 = [0.5 + sep * u[0], -0.25 + sep * u[1], sep * u[2]];
    let wb = Sweep3::new(
        Point3::origin(),
        p(b0),
        p([
            b0[0] - k * sep * u[0],
            b0[1] - k * sep * u[1],
            b0[2] - k * sep * u[2],
        ]),
        UnitQuaternion::identity(),
        v3(turns[3], turns[4], turns[5]),
    )
    .unwrap();
    let eps = reference_tolerance::<T>(2.0 * sep + 2.0);
    let tol = (2.0 * eps).max(0.00125);
    let opts = ToiOptions::new(T::one(), T::lit(2.0 * tol), T::lit(tol), 256).unwrap();
    let out = time_of_impact3(&*a, &wa, &*b, &wb, &opts).unwrap();
    prop_assert_ne!(out.status, ToiStatus::IterationLimit, "{:?}", out);
    prop_assert_ne!(out.status, ToiStatus::Penetrating, "{:?}", out);
    check_contract3(&*a, &wa, &*b, &wb, &opts, &out, eps)?;
    let swapped = time_of_impact3(&*b, &wb, &*a, &wa, &opts).unwrap();
    prop_assert_eq!(swapped, out.flipped());
    Ok(())
}

fn contract3<T: Real>() {
    let pairs = (KINDS3 * KINDS3) as u32;
    for i in 0..KINDS3 {
        for j in 0..KINDS3 {
            let config = proptest::test_runner::Config {
                cases: shape::testing::cases(16 * pairs).div_ceil(pairs),
                failure_persistence: None,
                ..Default::default()
            };
            let mut runner = proptest::test_runner::TestRunner::new_with_rng(
                config,
                proptest::test_runner::TestRng::deterministic_rng(
                    proptest::test_runner::RngAlgorithm::ChaCha,
                ),
            );
            let strategy = (
                spec3_of(i),
                spec3_of(j),
                prop::array::uniform3(-1.0f64..1.0),
                0.05f64..2.0,
                0.0f64..2.0,
                prop::array::uniform6(-1.8f64..1.8),
            );
            if let Err(e) = runner.run(&strategy, contract3_case::<T>) {
                panic!("3D kinds ({i}, {j}): {e}");
            }
        }
    }
}
shape::for_each_precision!(contract_every_3d_pair, contract3);

/// 3D named cases: a sphere shot at a cuboid turned 45° about z (a rotated
/// target), a fast spin, and bad input.
fn regressions3<T: Real>() {
    let cube = Cuboid::new(v3::<T>(1.0, 1.0, 1.0)).unwrap();
    let ball = Sphere::new(T::lit(0.5)).unwrap();
    let opts = ToiOptions::default();
    let turned = Sweep3::new(
        Point3::origin(),
        Point3::origin(),
        Point3::origin(),
        UnitQuaternion::from_scaled_axis(v3(0.0, 0.0, PI / 4.0)),
        Vector3::zeros(),
    )
    .unwrap();
    let shot = Sweep3::linear(
        &Isometry3::translation(T::lit(-10.0), T::zero(), T::zero()),
        &v3(20.0, 0.0, 0.0),
    )
    .unwrap();
    let out = time_of_impact3(&ball, &shot, &cube, &turned, &opts).unwrap();
    assert_eq!(out.status, ToiStatus::Hit);
    let want = (10.0 - 2f64.sqrt() - 0.5 - 0.005) / 20.0;
    assert!(
        close(out.t, want, 0.00125 / 20.0 + 1e-5),
        "{out:?} vs {want}"
    );
    assert!(close(out.normal.x, 1.0, 1e-4), "{out:?}");
    // A bar spinning 10 radians about z next to a ball: found within its
    // first turn, and the contract holds.
    let bar = Cuboid::new(v3::<T>(3.0, 0.1, 0.1)).unwrap();
    let spin = Sweep3::new(
        Point3::origin(),
        Point3::origin(),
        Point3::origin(),
        UnitQuaternion::identity(),
        v3(0.0, 0.0, 10.0),
    )
    .unwrap();
    let at = Sweep3::linear(
        &Isometry3::translation(T::zero(), T::lit(2.0), T::zero()),
        &Vector3::zeros(),
    )
    .unwrap();
    let out = time_of_impact3(&bar, &spin, &ball, &at, &opts).unwrap();
    assert_eq!(out.status, ToiStatus::Hit, "{out:?}");
    check_contract3(
        &bar,
        &spin,
        &ball,
        &at,
        &opts,
        &out,
        reference_tolerance::<T>(10.0),
    )
    .unwrap();
    assert!(out.t.as_f64() < 0.2);
    // Bad input.
    let nan = T::nan();
    let o = Point3::origin();
    let e = Err(DispatchError::NonFiniteSweep);
    let q = UnitQuaternion::identity();
    assert_eq!(
        Sweep3::new(
            o,
            o,
            Point3::new(nan, T::zero(), T::zero()),
            q,
            Vector3::zeros()
        ),
        e
    );
    assert_eq!(
        Sweep3::new(
            o,
            o,
            o,
            q,
            Vector3::new(T::infinity(), T::zero(), T::zero())
        ),
        e
    );
    assert_eq!(
        Sweep3::linear(
            &Isometry3::identity(),
            &Vector3::new(nan, T::zero(), T::zero())
        ),
        e
    );
    let s = Sweep3::linear(&Isometry3::identity(), &Vector3::zeros()).unwrap();
    let bad = ToiOptions {
        tolerance: T::zero(),
        ..ToiOptions::default()
    };
    assert_eq!(
        time_of_impact3(&ball, &s, &ball, &s, &bad),
        Err(DispatchError::InvalidToiOptions)
    );
    // from_poses: the shorter turn, both ends kept (the end up to rounding).
    let start = Isometry3::new(v3::<T>(1.0, 2.0, 3.0), v3(0.0, 0.0, 3.0));
    let end = Isometry3::new(v3::<T>(0.0, 0.0, 0.0), v3(0.0, 0.0, -3.0));
    let s = Sweep3::from_poses(&start, &end).unwrap();
    assert!(close(s.turn().z, 2.0 * PI - 6.0, 1e-5), "{:?}", s.turn());
    assert!(
        s.pose_at(T::one())
            .rotation
            .angle_to(&end.rotation)
            .as_f64()
            < 1e-5
    );
}
shape::for_each_precision!(regressions_3d, regressions3);
