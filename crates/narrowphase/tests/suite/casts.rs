//! Linear shape casts for every ordered pair of the nine built-in 2D kinds
//! (81), f32 and f64 from one generic body, through the free function
//! `narrowphase::cast_shapes`; the 3D pairs through `cast_shapes3`; user
//! kinds through a table.
//!
//! The reference is independent of the kernels: the exact support functions
//! of the shapes in f64 (`support::overlap`). Shapes moving at constant
//! velocities intersect at time `t` exactly when, for every unit direction
//! `d`, `h(d) − t·(v·d) ≥ 0`, where `h(d)` is their overlap along `d` at time
//! 0 and `v = vel_b − vel_a`. Over 2048 uniform directions plus every exact
//! edge normal of the polygonal shapes (where a polygonal pair's minimum lies),
//! `depth(t) = min_d h(d) − t·(v·d)` is the reference penetration depth at
//! time `t` (negative: apart), and the directions' entry and exit times give
//! the reference contact interval. What is checked:
//!
//! - exact symmetry: `cast(b, a)` is `cast(a, b)` with the points swapped and
//!   the normal negated, bit for bit;
//! - a hit touches: `|depth(toi)|` within the tolerance, the normal unit and
//!   against the relative motion, the witness points together; no earlier
//!   time (16 samples) has a positive depth beyond the tolerance;
//! - a start in contact is `Penetrating` at time 0 exactly when the depth at
//!   0 is not negative (beyond the tolerance);
//! - no hit: the reference interval, when it exists within `max_toi`, is a
//!   graze (the depth at its middle within the tolerance);
//! - a rigid motion of the scene (poses and velocities) keeps the time of
//!   impact (in distance units along the approach);
//! - far from the origin; `stop_at_penetration = false`; known values; bad
//!   input; user kinds through GJK.
//!
//! Tolerances (distances): `common::slack` (the reference's sampling and
//! rounding in `T`) plus the closest-point kernels' own tolerance for
//! ellipses, times 4.

use crate::common;
use crate::support;

use std::f64::consts::{PI, TAU};

use common::*;
use nalgebra::{Isometry2, Isometry3, Point2, Vector2, Vector3};
use narrowphase::{
    DispatchError, DispatchTable, ShapeCastArgs, ShapeCastHit, ShapeCastOptions, ShapeCastStatus,
};
use proptest::prelude::*;
use shape::prelude::*;
use support::{Case, Hex, every_ordered_pair, hexagon, overlap, touching_shapes};

// ------------------------------------------------------------- reference

/// The reference directions for a pair at poses `pa`, `pb`: uniform ones and
/// the polygonal shapes' exact edge normals (a capsule's flat sides too).
fn directions(sa: &Spec, pa: [f64; 3], sb: &Spec, pb: [f64; 3]) -> Vec<[f64; 2]> {
    const UNIFORM: usize = 2048;
    let mut dirs: Vec<[f64; 2]> = (0..UNIFORM)
        .map(|k| {
            let t = TAU * k as f64 / UNIFORM as f64;
            [t.cos(), t.sin()]
        })
        .collect();
    for (s, pose) in [(sa, pa), (sb, pb)] {
        let mut push_edges = |w: &[[f64; 2]], closed: bool| {
            let n = if closed { w.len() } else { w.len() - 1 };
            for i in 0..n {
                let (p, q) = (w[i], w[(i + 1) % w.len()]);
                let (dx, dy) = (q[0] - p[0], q[1] - p[1]);
                let l = (dx * dx + dy * dy).sqrt();
                if l > 0.0 {
                    for d in [
                        [dy / l, -dx / l],
                        [-dy / l, dx / l],
                        [dx / l, dy / l],
                        [-dx / l, -dy / l],
                    ] {
                        dirs.push(d);
                    }
                }
            }
        };
        match s {
            Spec::Capsule(p, q, _) => {
                push_edges(&world_boundary(&Spec::Segment(*p, *q), pose), false)
            }
            Spec::Circle(..) | Spec::Ellipse(..) | Spec::Point(..) => {}
            _ => {
                let w = world_boundary(s, pose);
                if w.len() >= 2 {
                    push_edges(&w, true);
                }
            }
        }
    }
    dirs
}

/// The reference of one cast: `h(d)` and `v·d` for every direction.
struct Reference {
    h: Vec<f64>,
    vd: Vec<f64>,
}

impl Reference {
    fn new(sa: &Spec, pa: [f64; 3], sb: &Spec, pb: [f64; 3], v: [f64; 2]) -> Self {
        let dirs = directions(sa, pa, sb, pb);
        Self {
            h: dirs.iter().map(|d| overlap(sa, pa, sb, pb, *d)).collect(),
            vd: dirs.iter().map(|d| v[0] * d[0] + v[1] * d[1]).collect(),
        }
    }

    /// The penetration depth at time `t` (negative: the gap).
    fn depth(&self, t: f64) -> f64 {
        self.h
            .iter()
            .zip(&self.vd)
            .map(|(h, vd)| h - t * vd)
            .fold(f64::INFINITY, f64::min)
    }

    /// The contact interval `[entry, exit]` of the sampled directions, or
    /// `None` when some direction keeps the shapes apart for ever.
    fn interval(&self) -> Option<(f64, f64)> {
        let (mut entry, mut exit) = (0.0f64, f64::INFINITY);
        for (h, vd) in self.h.iter().zip(&self.vd) {
            if *vd < 0.0 {
                entry = entry.max(h / vd);
            } else if *vd > 0.0 {
                exit = exit.min(h / vd);
            } else if *h < 0.0 {
                return None;
            }
        }
        (entry <= exit).then_some((entry, exit))
    }
}

fn tolerance<T: Real>(sa: &Spec, pa: [f64; 3], sb: &Spec, pb: [f64; 3]) -> f64 {
    let ellipse = if matches!(sa, Spec::Ellipse(..)) || matches!(sb, Spec::Ellipse(..)) {
        reference_tolerance::<T>(extent(sa) + extent(sb)) * 16.0
    } else {
        0.0
    };
    4.0 * (slack::<T>(sa, pa, sb, pb) + ellipse)
}

/// `|x|` in f64.
fn ab<T: Real>(x: T) -> f64 {
    x.as_f64().abs()
}

fn f64s<T: Real>(p: &Point2<T>) -> [f64; 2] {
    [p.x.as_f64(), p.y.as_f64()]
}

fn v2<T: Real>(v: [f64; 2]) -> Vector2<T> {
    Vector2::new(T::lit(v[0]), T::lit(v[1]))
}

/// One cast through the free function, in `T`.
#[allow(clippy::too_many_arguments)]
fn cast<T: Real>(
    a: &dyn Shape<T>,
    pa: [f64; 3],
    va: [f64; 2],
    b: &dyn Shape<T>,
    pb: [f64; 3],
    vb: [f64; 2],
    max_toi: f64,
    options: ShapeCastOptions,
) -> Option<ShapeCastHit<T>> {
    narrowphase::cast_shapes(
        a,
        &iso(pa),
        &v2(va),
        b,
        &iso(pb),
        &v2(vb),
        T::lit(max_toi),
        options,
    )
    .expect("valid input")
}

/// The velocities of a case: B heads for A's position, turned by `turn`,
/// at `speed`; A drifts at `drift`.
fn velocities(
    pa: [f64; 3],
    pb: [f64; 3],
    (speed, turn, drift): (f64, f64, [f64; 2]),
) -> ([f64; 2], [f64; 2]) {
    let (dx, dy) = (pa[0] - pb[0], pa[1] - pb[1]);
    let angle = dy.atan2(dx) + turn;
    let rel = [speed * angle.cos(), speed * angle.sin()];
    (drift, [drift[0] + rel[0], drift[1] + rel[1]])
}

// ------------------------------------------------------------- properties

type Motion = (f64, f64, [f64; 2]);

fn motion() -> impl Strategy<Value = Motion> {
    (0.5f64..4.0, -0.7f64..0.7, [-1.0f64..1.0, -1.0f64..1.0])
}

const MAX_TOI: f64 = 4.0;

fn properties<T: Real>((sa, sb, pa, pb, m): Case<Motion>) -> Result<(), TestCaseError> {
    let (a, b) = (build::<T>(&sa), build::<T>(&sb));
    let (va, vb) = velocities(pa, pb, m);
    let opts = ShapeCastOptions::default();
    let hit = cast(a.as_ref(), pa, va, b.as_ref(), pb, vb, MAX_TOI, opts);
    let back = cast(b.as_ref(), pb, vb, a.as_ref(), pa, va, MAX_TOI, opts);
    prop_assert_eq!(back, hit.map(|h| h.flipped()), "not exactly symmetric");

    let v = [vb[0] - va[0], vb[1] - va[1]];
    let speed = v[0].hypot(v[1]);
    let reference = Reference::new(&sa, pa, &sb, pb, v);
    let tol = tolerance::<T>(&sa, pa, &sb, pb);
    match hit {
        Some(h) if h.status == ShapeCastStatus::Penetrating => {
            prop_assert_eq!(h.toi, T::zero());
            prop_assert!(
                reference.depth(0.0) >= -tol,
                "not touching at 0: {}",
                reference.depth(0.0)
            );
        }
        Some(h) => {
            let toi = h.toi.as_f64();
            prop_assert!((0.0..=MAX_TOI).contains(&toi), "toi {toi}");
            prop_assert!(reference.depth(0.0) < tol, "apart at 0 was in contact");
            let depth = reference.depth(toi);
            prop_assert!(
                depth.abs() <= tol,
                "not touching at toi {toi}: depth {depth}, tol {tol}"
            );
            for k in 0..16 {
                let t = toi * k as f64 / 16.0;
                let d = reference.depth(t);
                prop_assert!(d <= tol, "in contact at {t} < toi {toi}: depth {d}");
            }
            let n = [h.normal.x.as_f64(), h.normal.y.as_f64()];
            prop_assert!((n[0].hypot(n[1]) - 1.0).abs() < 1e-3);
            // The normal points from A to B: B approaches A against it.
            prop_assert!(
                n[0] * v[0] + n[1] * v[1] <= 1e-3 * speed,
                "normal {n:?} along the motion {v:?}"
            );
            let (p, q) = (f64s(&h.point_a), f64s(&h.point_b));
            let gap = (q[0] - p[0]).hypot(q[1] - p[1]);
            prop_assert!(
                gap <= 2.0 * tol + 1e-3 * tol.max(1.0),
                "witness points {gap} apart"
            );
        }
        None => {
            prop_assert!(reference.depth(0.0) < tol, "in contact at 0 but no hit");
            if let Some((entry, exit)) = reference.interval() {
                if entry <= MAX_TOI {
                    let mid = 0.5 * (entry + exit.min(MAX_TOI));
                    let d = reference.depth(mid);
                    prop_assert!(
                        d <= tol,
                        "missed a contact: depth {d} at {mid} (interval {entry}..{exit})"
                    );
                }
            }
        }
    }

    // A rigid motion of the whole scene keeps the time of impact.
    let motion = rigid_motion_for(&sa, &sb, [1.7, -2.3, 0.9]);
    let turn = motion([0.0, 0.0, 0.0]);
    let rotate = |u: [f64; 2]| {
        let (s, c) = turn[2].sin_cos();
        [c * u[0] - s * u[1], s * u[0] + c * u[1]]
    };
    let moved = cast(
        a.as_ref(),
        motion(pa),
        rotate(va),
        b.as_ref(),
        motion(pb),
        rotate(vb),
        MAX_TOI,
        opts,
    );
    match (hit, moved) {
        (Some(h), Some(g)) => {
            let approach = -(h.normal.x.as_f64() * v[0] + h.normal.y.as_f64() * v[1]);
            let dt = (h.toi.as_f64() - g.toi.as_f64()).abs();
            prop_assert!(
                dt * approach.max(1e-9) <= 4.0 * tol,
                "toi {:?} vs {:?} after a rigid motion",
                h.toi,
                g.toi
            );
        }
        (Some(h), None) | (None, Some(h)) => {
            // Only a graze may tip either way.
            let d = reference.interval().map_or(f64::NEG_INFINITY, |(e, x)| {
                reference.depth(0.5 * (e + x.min(MAX_TOI)))
            });
            prop_assert!(
                d <= 4.0 * tol,
                "hit {h:?} lost after a rigid motion (depth {d})"
            );
        }
        (None, None) => {}
    }
    Ok(())
}

fn every_pair<T: Real>() {
    every_ordered_pair(24, motion, properties::<T>);
}
shape::for_each_precision!(every_pair, every_pair);

/// Pairs placed a small gap apart along their centres' line and moving
/// slowly: contacts at grazing speeds and tiny relative velocities.
fn slow_and_close<T: Real>() {
    every_ordered_pair(
        8,
        || (1e-4f64..1e-2, -0.3f64..0.3),
        |(sa, sb, pa, pb, (speed, turn))| {
            let (a, b) = (build::<T>(&sa), build::<T>(&sb));
            let (va, vb) = velocities(pa, pb, (speed, turn, [0.0, 0.0]));
            let max_toi = 1e4;
            let hit = cast(
                a.as_ref(),
                pa,
                va,
                b.as_ref(),
                pb,
                vb,
                max_toi,
                ShapeCastOptions::default(),
            );
            let reference = Reference::new(&sa, pa, &sb, pb, vb);
            let tol = tolerance::<T>(&sa, pa, &sb, pb);
            if let Some(h) = hit {
                let d = reference.depth(h.toi.as_f64());
                prop_assert!(
                    h.status == ShapeCastStatus::Penetrating || d.abs() <= tol,
                    "depth {d} at {:?}",
                    h.toi
                );
            } else if let Some((entry, exit)) = reference.interval() {
                if entry <= max_toi {
                    let d = reference.depth(0.5 * (entry + exit.min(max_toi)));
                    prop_assert!(d <= tol, "missed a slow contact: depth {d}");
                }
            }
            Ok(())
        },
    );
}
shape::for_each_precision!(slow_and_close, slow_and_close);

/// Far from the origin: the scene shifted by large representable offsets
/// keeps its time of impact.
fn far<T: Real>() {
    every_ordered_pair(6, motion, |(sa, sb, pa, pb, m)| {
        let (a, b) = (build::<T>(&sa), build::<T>(&sb));
        let (va, vb) = velocities(pa, pb, m);
        let near = cast(
            a.as_ref(),
            pa,
            va,
            b.as_ref(),
            pb,
            vb,
            MAX_TOI,
            ShapeCastOptions::default(),
        );
        let off = max_offset::<T>();
        // Offsets on the grid of the poses' coordinates at that magnitude, so
        // that the shifted poses are exact.
        let step = spacing::<T>(off);
        let shift = |p: [f64; 3]| {
            [
                ((p[0] + off) / step).round() * step,
                ((p[1] - off) / step).round() * step,
                p[2],
            ]
        };
        let (qa, qb) = (shift(pa), shift(pb));
        let far = cast(
            a.as_ref(),
            qa,
            va,
            b.as_ref(),
            qb,
            vb,
            MAX_TOI,
            ShapeCastOptions::default(),
        );
        let v = [vb[0] - va[0], vb[1] - va[1]];
        let reference = Reference::new(
            &sa,
            [qa[0] - off, qa[1] + off, qa[2]],
            &sb,
            [qb[0] - off, qb[1] + off, qb[2]],
            v,
        );
        let tol = tolerance::<T>(&sa, pa, &sb, pb) + 8.0 * step;
        if let Some(h) = far {
            let d = reference.depth(h.toi.as_f64());
            prop_assert!(
                h.status == ShapeCastStatus::Penetrating || d.abs() <= tol,
                "far: depth {d} at {:?} (near: {near:?})",
                h.toi
            );
        } else if let Some((entry, exit)) = reference.interval() {
            if entry <= MAX_TOI {
                let d = reference.depth(0.5 * (entry + exit.min(MAX_TOI)));
                prop_assert!(
                    d <= tol,
                    "far: missed a contact, depth {d} (near: {near:?})"
                );
            }
        }
        Ok(())
    });
}
shape::for_each_precision!(far, far);

// ------------------------------------------------------------ known values

/// How close a known time, point or normal must be: about 1e-5 of the scenes'
/// size (10 to 20) in f32, 1e-9 in f64.
fn close<T: Real>() -> f64 {
    if T::epsilon().as_f64() > 1e-10 {
        2e-4
    } else {
        1e-9
    }
}

fn known_values<T: Real>() {
    let l = T::lit;
    let opts = ShapeCastOptions::default();
    let ball = Circle::new(T::one()).unwrap();
    let wall = Obb::new(Vector2::new(l(0.5), l(5.0))).unwrap();
    // A unit ball at x = −10 moving right at 2 reaches the wall's face x = −0.5
    // when its centre is at −1.5: after 4.25.
    let h = cast::<T>(
        &ball,
        [-10.0, 0.0, 0.0],
        [2.0, 0.0],
        &wall,
        [0.0, 0.0, 0.0],
        [0.0, 0.0],
        10.0,
        opts,
    )
    .unwrap();
    assert!(ab(h.toi - l(4.25)) <= close::<T>(), "{h:?}");
    assert_eq!(h.status, ShapeCastStatus::Hit);
    assert!(ab(h.normal.x - T::one()) <= close::<T>());
    assert!(
        (h.point_a - Point2::new(l(-0.5), T::zero())).norm() <= T::lit(close::<T>()),
        "{h:?}"
    );
    assert!(
        (h.point_b - Point2::new(l(-0.5), T::zero())).norm() <= T::lit(close::<T>()),
        "{h:?}"
    );
    // The wall moving instead: the same time; the points where the shapes are then.
    let h = cast::<T>(
        &ball,
        [-10.0, 0.0, 0.0],
        [0.0, 0.0],
        &wall,
        [0.0, 0.0, 0.0],
        [-2.0, 0.0],
        10.0,
        opts,
    )
    .unwrap();
    assert!(ab(h.toi - l(4.25)) <= close::<T>());
    assert!(
        (h.point_a - Point2::new(l(-9.0), T::zero())).norm() <= T::lit(close::<T>()),
        "{h:?}"
    );
    // Too short a cast, and a miss.
    assert_eq!(
        cast::<T>(
            &ball,
            [-10.0, 0.0, 0.0],
            [2.0, 0.0],
            &wall,
            [0.0; 3],
            [0.0; 2],
            4.0,
            opts
        ),
        None
    );
    assert_eq!(
        cast::<T>(
            &ball,
            [-10.0, 6.5, 0.0],
            [2.0, 0.0],
            &wall,
            [0.0; 3],
            [0.0; 2],
            100.0,
            opts
        ),
        None
    );
    // Grazing the wall's top face (y = 5) from above: the ball's lowest point
    // reaches the corner (−0.5, 5) when the centre is at x = −0.5, after 4.75.
    let h = cast::<T>(
        &ball,
        [-10.0, 6.0, 0.0],
        [2.0, 0.0],
        &wall,
        [0.0; 3],
        [0.0; 2],
        100.0,
        opts,
    )
    .unwrap();
    // (Grazing: the gap closes quadratically, so the time is only as exact
    // as the square root of the distance tolerance.)
    let graze = if T::epsilon().as_f64() > 1e-10 {
        1e-2
    } else {
        1e-5
    };
    assert!(
        ab(h.toi - l(4.75)) <= graze && h.toi <= l(4.75 + 1e-6),
        "{h:?}"
    );
    // Two balls head on: gap 8 closed at 4.
    let h = cast::<T>(
        &ball,
        [0.0, 0.0, 0.0],
        [1.0, 0.0],
        &ball,
        [10.0, 0.0, 0.0],
        [-3.0, 0.0],
        f64::INFINITY,
        opts,
    )
    .unwrap();
    assert!(ab(h.toi - l(2.0)) <= close::<T>());
    assert!((h.point_a - Point2::new(l(3.0), T::zero())).norm() <= T::lit(close::<T>()));
    // A box face onto a box face, turned: parallel faces.
    let bx = Obb::new(Vector2::new(T::one(), T::one())).unwrap();
    let h = cast::<T>(
        &bx,
        [0.0, 0.0, 0.5],
        [0.0, 0.0],
        &bx,
        [5.0 * 0.5f64.cos(), 5.0 * 0.5f64.sin(), 0.5],
        [-0.5f64.cos(), -0.5f64.sin()],
        10.0,
        opts,
    )
    .unwrap();
    assert!(ab(h.toi - l(3.0)) <= close::<T>(), "{h:?}");
    assert!(ab(h.normal.x - l(0.5f64.cos())) <= close::<T>());
    // A ball of 1 against a box a thousand times larger: as exact as against a small one.
    let big = Obb::new(Vector2::new(l(1000.0), l(1000.0))).unwrap();
    let h = cast::<T>(
        &ball,
        [-1010.0, 3.0, 0.0],
        [1.0, 0.0],
        &big,
        [0.0; 3],
        [0.0; 2],
        100.0,
        opts,
    )
    .unwrap();
    let tol = if T::epsilon().as_f64() > 1e-10 {
        2e-3
    } else {
        1e-9
    };
    assert!((h.toi.as_f64() - 9.0).abs() <= tol, "{:?}", h.toi);
    // Zero relative velocity: no hit unless touching.
    assert_eq!(
        cast::<T>(
            &ball,
            [-10.0, 0.0, 0.0],
            [1.0, 1.0],
            &wall,
            [0.0; 3],
            [1.0, 1.0],
            100.0,
            opts
        ),
        None
    );
}
shape::for_each_precision!(known_values, known_values);

/// Starting in contact: `Penetrating` at 0, or (not stopping at penetration)
/// no hit unless the motion goes deeper.
fn starting_in_contact<T: Real>() {
    let l = T::lit;
    let ball = Circle::new(T::one()).unwrap();
    let floor = Obb::new(Vector2::new(l(10.0), T::one())).unwrap();
    let stop = ShapeCastOptions::default();
    let slide = ShapeCastOptions {
        stop_at_penetration: false,
    };
    // Resting on the floor (touching exactly), sliding along it.
    let h = cast::<T>(
        &floor,
        [0.0; 3],
        [0.0; 2],
        &ball,
        [0.0, 2.0, 0.0],
        [1.0, 0.0],
        5.0,
        stop,
    )
    .unwrap();
    assert_eq!((h.toi, h.status), (T::zero(), ShapeCastStatus::Penetrating));
    assert!(ab(h.normal.y - T::one()) <= close::<T>(), "{h:?}");
    assert_eq!(
        cast::<T>(
            &floor,
            [0.0; 3],
            [0.0; 2],
            &ball,
            [0.0, 2.0, 0.0],
            [1.0, 0.0],
            5.0,
            slide
        ),
        None
    );
    // Lifting off; sinking in.
    assert_eq!(
        cast::<T>(
            &floor,
            [0.0; 3],
            [0.0; 2],
            &ball,
            [0.0, 1.9, 0.0],
            [0.0, 1.0],
            5.0,
            slide
        ),
        None
    );
    let h = cast::<T>(
        &floor,
        [0.0; 3],
        [0.0; 2],
        &ball,
        [0.0, 1.9, 0.0],
        [0.3, -1.0],
        5.0,
        slide,
    )
    .unwrap();
    assert_eq!(h.status, ShapeCastStatus::Penetrating);
    // Both orders agree.
    let h2 = cast::<T>(
        &ball,
        [0.0, 1.9, 0.0],
        [0.3, -1.0],
        &floor,
        [0.0; 3],
        [0.0; 2],
        5.0,
        slide,
    )
    .unwrap();
    assert_eq!(h2, h.flipped());
}
shape::for_each_precision!(starting_in_contact, starting_in_contact);

/// Every kind against every kind at exactly touching coordinates moving
/// apart, together and along: the three answers.
fn touching_every_kind<T: Real>() {
    let shapes = touching_shapes::<T>();
    for (a, ra) in &shapes {
        for (b, rb) in &shapes {
            let pb = [ra + rb, 0.0, 0.0];
            let (a, b) = (a.as_ref(), b.as_ref());
            let stop = ShapeCastOptions::default();
            let slide = ShapeCastOptions {
                stop_at_penetration: false,
            };
            let h = cast::<T>(a, [0.0; 3], [0.0; 2], b, pb, [1.0, 0.0], 1.0, stop).unwrap();
            assert_eq!(
                h.status,
                ShapeCastStatus::Penetrating,
                "{:?} {:?}",
                a.kind(),
                b.kind()
            );
            assert_eq!(
                cast::<T>(a, [0.0; 3], [0.0; 2], b, pb, [1.0, 0.0], 1.0, slide),
                None,
                "{:?} {:?}",
                a.kind(),
                b.kind()
            );
            // Pushed into each other: a hit (unless both are points or
            // segments on one line, which only slide along each other).
            let thin = |k: ShapeKind| k == ShapeKind::POINT || k == ShapeKind::SEGMENT;
            if !(thin(a.kind()) && thin(b.kind())) {
                assert!(
                    cast::<T>(a, [0.0; 3], [0.0; 2], b, pb, [-1.0, 0.0], 1.0, slide).is_some(),
                    "{:?} {:?}",
                    a.kind(),
                    b.kind()
                );
            }
            // A hair apart, approaching: a hit within the hair.
            let apart = [ra + rb + 0.25, 0.0, 0.0];
            let h = cast::<T>(a, [0.0; 3], [0.0; 2], b, apart, [-1.0, 0.0], 1.0, stop).unwrap();
            assert!(
                ab(h.toi - T::lit(0.25)) <= close::<T>(),
                "{:?} {:?}: {h:?}",
                a.kind(),
                b.kind()
            );
        }
    }
}
shape::for_each_precision!(touching_every_kind, touching_every_kind);

// -------------------------------------------------------------- bad input

fn bad_input<T: Real>() {
    let c = Circle::new(T::one()).unwrap();
    let o = Isometry2::identity();
    let p = Isometry2::translation(T::lit(5.0), T::zero());
    let zero = Vector2::zeros();
    let go = Vector2::new(-T::one(), T::zero());
    let opts = ShapeCastOptions::default();
    for x in [T::nan(), T::infinity(), T::neg_infinity()] {
        let bad = Vector2::new(x, T::zero());
        assert_eq!(
            narrowphase::cast_shapes(&c, &o, &bad, &c, &p, &zero, T::one(), opts),
            Err(DispatchError::NonFiniteVelocity)
        );
        assert_eq!(
            narrowphase::cast_shapes(&c, &o, &zero, &c, &p, &bad, T::one(), opts),
            Err(DispatchError::NonFiniteVelocity)
        );
        let q = Isometry2::translation(x, T::zero());
        assert_eq!(
            narrowphase::cast_shapes(&c, &q, &zero, &c, &p, &go, T::one(), opts),
            Err(DispatchError::NonFinitePose)
        );
    }
    for t in [T::nan(), -T::one(), T::neg_infinity()] {
        assert_eq!(
            narrowphase::cast_shapes(&c, &o, &zero, &c, &p, &go, t, opts),
            Err(DispatchError::InvalidMaxToi)
        );
    }
    // max_toi 0 and +∞ are valid.
    assert_eq!(
        narrowphase::cast_shapes(&c, &o, &zero, &c, &p, &go, T::zero(), opts),
        Ok(None)
    );
    let h = narrowphase::cast_shapes(&c, &o, &zero, &c, &p, &go, T::infinity(), opts)
        .unwrap()
        .unwrap();
    assert!(ab(h.toi - T::lit(3.0)) <= close::<T>());
    // Finite but huge poses and speeds: no panic, no NaN.
    let huge = Isometry2::translation(<T as num_traits::Float>::max_value(), T::zero());
    let fast = Vector2::new(<T as num_traits::Float>::max_value(), T::zero());
    for (q, v) in [(huge, go), (p, fast), (huge, -fast)] {
        if let Ok(Some(h)) =
            narrowphase::cast_shapes(&c, &o, &zero, &c, &q, &v, T::infinity(), opts)
        {
            assert!(!h.toi.is_nan() && h.toi >= T::zero(), "{h:?}");
        }
    }
}
shape::for_each_precision!(bad_input, bad_input);

// ------------------------------------------------------------- user kinds

/// A user convex shape casts through the fallback (advancement on GJK) and
/// agrees with the built-in polygon of the same vertices.
fn user_convex_through_the_fallback<T: Real>() {
    let table = DispatchTable::<T>::new();
    let hex = Hex::<T>::new(1.0);
    let builtin = ConvexPolygon::new(&hexagon::<T>(1.0)).unwrap();
    let ph = Isometry2::new(Vector2::new(T::lit(0.3), T::lit(-0.2)), T::lit(0.4));
    for (other, _) in touching_shapes::<T>() {
        for (x, y, angle) in [(4.5, 0.5, 0.3), (0.5, 3.9, -1.0), (-3.6, -2.4, 0.7)] {
            let po = Isometry2::new(Vector2::new(T::lit(x), T::lit(y)), T::lit(angle));
            let args = ShapeCastArgs {
                vel_a: Vector2::new(T::lit(0.5), T::zero()),
                vel_b: Vector2::new(T::lit(-x), T::lit(-y)),
                max_toi: T::lit(2.0),
                options: ShapeCastOptions::default(),
            };
            let ours = table
                .cast_shapes(&hex, &ph, other.as_ref(), &po, args)
                .unwrap();
            let expected = table
                .cast_shapes(&builtin, &ph, other.as_ref(), &po, args)
                .unwrap();
            match (ours, expected) {
                (Some(u), Some(e)) => {
                    let tol = T::lit(if T::epsilon().as_f64() > 1e-10 {
                        1e-3
                    } else {
                        1e-6
                    });
                    assert!(
                        ab(u.toi - e.toi) <= tol.as_f64(),
                        "{:?}: {u:?} vs {e:?}",
                        other.kind()
                    );
                }
                (u, e) => assert_eq!(
                    u.is_some(),
                    e.is_some(),
                    "{:?}: {u:?} vs {e:?}",
                    other.kind()
                ),
            }
            // And the mirror.
            let back = table
                .cast_shapes(
                    other.as_ref(),
                    &po,
                    &hex,
                    &ph,
                    ShapeCastArgs {
                        vel_a: args.vel_b,
                        vel_b: args.vel_a,
                        ..args
                    },
                )
                .unwrap();
            assert_eq!(back, ours.map(|h| h.flipped()));
        }
    }
}
shape::for_each_precision!(
    user_convex_through_the_fallback,
    user_convex_through_the_fallback
);

// -------------------------------------------------------------------- 3D

fn spheres_and_boxes<T: Real>() {
    let l = T::lit;
    let s = Sphere::new(T::one()).unwrap();
    let c = Cuboid::new(Vector3::new(T::one(), l(2.0), l(3.0))).unwrap();
    let opts = ShapeCastOptions::default();
    let o = Isometry3::identity();
    // A sphere falling onto a box's top face (y = 2) from y = 10 at 4: 7 units in 1.75.
    let p = Isometry3::translation(l(0.2), l(10.0), l(-0.5));
    let down = Vector3::new(T::zero(), l(-4.0), T::zero());
    let h =
        narrowphase::dim3::cast_shapes3(&c, &o, &Vector3::zeros(), &s, &p, &down, l(10.0), opts)
            .unwrap()
            .unwrap();
    assert!(ab(h.toi - l(1.75)) <= close::<T>(), "{h:?}");
    assert!(ab(h.normal.y - T::one()) <= close::<T>());
    let back =
        narrowphase::dim3::cast_shapes3(&s, &p, &down, &c, &o, &Vector3::zeros(), l(10.0), opts)
            .unwrap();
    assert_eq!(back, Some(h.flipped()));
    // Boxes: a turned box sliding into another.
    let q = Isometry3::new(
        Vector3::new(l(8.0), l(0.5), T::zero()),
        Vector3::new(T::zero(), T::zero(), l(0.3)),
    );
    let h = narrowphase::dim3::cast_shapes3(
        &c,
        &o,
        &Vector3::zeros(),
        &c,
        &q,
        &Vector3::new(l(-1.0), T::zero(), T::zero()),
        l(20.0),
        opts,
    )
    .unwrap()
    .unwrap();
    let at = Isometry3::new(
        Vector3::new(l(8.0) - h.toi, l(0.5), T::zero()),
        Vector3::new(T::zero(), T::zero(), l(0.3)),
    );
    let d = narrowphase::dim3::distance3(&c, &o, &c, &at).unwrap();
    assert!(
        d <= T::lit(close::<T>()),
        "{h:?}: distance {d:?} at the time of impact"
    );
    let earlier = Isometry3::new(
        Vector3::new(l(8.0) - h.toi + l(0.01), l(0.5), T::zero()),
        Vector3::new(T::zero(), T::zero(), l(0.3)),
    );
    assert!(!narrowphase::dim3::intersects3(&c, &o, &c, &earlier).unwrap());
    // Bad input.
    assert_eq!(
        narrowphase::dim3::cast_shapes3(
            &s,
            &o,
            &Vector3::new(T::nan(), T::zero(), T::zero()),
            &c,
            &o,
            &Vector3::zeros(),
            T::one(),
            opts
        ),
        Err(DispatchError::NonFiniteVelocity)
    );
    let _ = PI;
}
shape::for_each_precision!(spheres_and_boxes, spheres_and_boxes);

/// A cast kernel registered by a user replaces the built-in one for its
/// pair, in both orders, with the mirror rule around it; other pairs keep
/// theirs.
fn registered_cast_kernel<T: Real>() {
    use narrowphase::ShapeCastQuery;
    // A deliberately different kernel: circles that "touch" at half the gap.
    fn eager<T: Real>(
        a: &Circle<T>,
        b: &Circle<T>,
        m: &Isometry2<T>,
        args: ShapeCastArgs<T>,
    ) -> Option<ShapeCastHit<T>> {
        let d = m.translation.vector;
        let gap = d.norm() - a.radius() - b.radius();
        let n = nalgebra::Unit::new_normalize(d);
        let approach = -args.vel_b.dot(&n);
        (approach > T::zero()).then(|| ShapeCastHit {
            toi: gap / (approach + approach),
            normal: n,
            point_a: Point2::from(n.into_inner() * a.radius()),
            point_b: Point2::from(n.into_inner() * a.radius()),
            status: ShapeCastStatus::Hit,
        })
    }
    let mut table = DispatchTable::<T>::new();
    table.register_query::<ShapeCastQuery, Circle<T>, Circle<T>, _>(
        ShapeKind::CIRCLE,
        ShapeKind::CIRCLE,
        "eager",
        eager::<T>,
    );
    let c = Circle::new(T::one()).unwrap();
    let (o, p) = (
        Isometry2::identity(),
        Isometry2::translation(T::lit(10.0), T::zero()),
    );
    let args = ShapeCastArgs {
        vel_a: Vector2::new(T::one(), T::zero()),
        vel_b: Vector2::new(T::lit(-3.0), T::zero()),
        max_toi: T::lit(10.0),
        options: ShapeCastOptions::default(),
    };
    let h = table.cast_shapes(&c, &o, &c, &p, args).unwrap().unwrap();
    assert!(ab(h.toi - T::one()) <= close::<T>(), "{h:?}"); // half of the true 2
    // A's frame moved with A: the point is at A's centre (1, 0) plus the radius.
    assert!(ab(h.point_a.x - T::lit(2.0)) <= close::<T>(), "{h:?}");
    let back = table
        .cast_shapes(
            &c,
            &p,
            &c,
            &o,
            ShapeCastArgs {
                vel_a: args.vel_b,
                vel_b: args.vel_a,
                ..args
            },
        )
        .unwrap();
    assert_eq!(back, Some(h.flipped()));
    // Another pair keeps the built-in kernel.
    let b = Obb::new(Vector2::new(T::one(), T::one())).unwrap();
    let h = table.cast_shapes(&c, &o, &b, &p, args).unwrap().unwrap();
    assert!(ab(h.toi - T::lit(2.0)) <= close::<T>(), "{h:?}");
    assert_eq!(
        table.route_for::<ShapeCastQuery>(&c, &c).unwrap(),
        narrowphase::Route::Kernel {
            name: "eager",
            mirrored: false
        }
    );
}
shape::for_each_precision!(registered_cast_kernel, registered_cast_kernel);

/// The 3D pairs on random shapes and motions: exact symmetry, touching at the
/// time of impact (the distance there at rounding level), no contact at
/// earlier sampled times, and no hit only when sampled times never overlap.
fn random_3d<T: Real>() {
    use support::{KINDS3, build3, iso3, pose3, spec3_of};
    let tol = if T::epsilon().as_f64() > 1e-10 {
        2e-3
    } else {
        1e-8
    };
    for i in 0..KINDS3 {
        for j in 0..KINDS3 {
            let strategy = (
                spec3_of(i),
                spec3_of(j),
                pose3(),
                pose3(),
                prop::array::uniform3(-4.0f64..4.0),
                0.5f64..3.0,
            );
            let result =
                support::runner(24).run(&strategy, |(sa, sb, pa, mut pb, offset, speed)| {
                    for k in 0..3 {
                        pb[k] += offset[k];
                    }
                    let (a, b) = (build3::<T>(&sa), build3::<T>(&sb));
                    let (qa, qb) = (iso3::<T>(&pa), iso3::<T>(&pb));
                    // B heads for A's position.
                    let d = [pa[0] - pb[0], pa[1] - pb[1], pa[2] - pb[2]];
                    let len = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt().max(1e-9);
                    let vb = Vector3::new(
                        T::lit(speed * d[0] / len),
                        T::lit(speed * d[1] / len),
                        T::lit(speed * d[2] / len),
                    );
                    let va = Vector3::zeros();
                    let max_toi = T::lit(4.0);
                    let opts = ShapeCastOptions::default();
                    let hit = narrowphase::dim3::cast_shapes3(
                        a.as_ref(),
                        &qa,
                        &va,
                        b.as_ref(),
                        &qb,
                        &vb,
                        max_toi,
                        opts,
                    )
                    .unwrap();
                    let back = narrowphase::dim3::cast_shapes3(
                        b.as_ref(),
                        &qb,
                        &vb,
                        a.as_ref(),
                        &qa,
                        &va,
                        max_toi,
                        opts,
                    )
                    .unwrap();
                    prop_assert_eq!(back, hit.map(|h| h.flipped()));
                    let at = |t: f64| {
                        let mut q = qb;
                        q.translation.vector += vb * T::lit(t);
                        q
                    };
                    let sampled = |t: f64| {
                        narrowphase::dim3::intersects3(a.as_ref(), &qa, b.as_ref(), &at(t)).unwrap()
                    };
                    match hit {
                        Some(h) if h.status == ShapeCastStatus::Hit => {
                            let toi = h.toi.as_f64();
                            let dist =
                                narrowphase::dim3::distance3(a.as_ref(), &qa, b.as_ref(), &at(toi))
                                    .unwrap()
                                    .as_f64();
                            prop_assert!(dist <= tol, "distance {dist} at toi {toi}");
                            for k in 0..16 {
                                let t = toi * k as f64 / 16.0 - tol / speed;
                                prop_assert!(
                                    t < 0.0 || !sampled(t),
                                    "in contact at {t} before toi {toi}"
                                );
                            }
                        }
                        Some(h) => prop_assert!(h.toi == T::zero() && sampled(0.0)),
                        None => {
                            for k in 0..=64 {
                                let t = 4.0 * k as f64 / 64.0;
                                let depth = narrowphase::dim3::contact3(
                                    a.as_ref(),
                                    &qa,
                                    b.as_ref(),
                                    &at(t),
                                )
                                .unwrap()
                                .map_or(0.0, |c| c.depth.as_f64());
                                prop_assert!(
                                    depth <= tol,
                                    "missed a contact at {t} (depth {depth})"
                                );
                            }
                        }
                    }
                    Ok(())
                });
            if let Err(e) = result {
                panic!("3D kinds ({i}, {j}): {e}");
            }
        }
    }
}
shape::for_each_precision!(random_3d, random_3d);
