//! The closed-form shape-cast kernels (`cast/polygonal.rs`, `cast/rounded.rs`)
//! through `cast_shapes`, f32 and f64 from one generic body: agreement with
//! the conservative advancement on the exact closest points (an independent,
//! iterative reference), touching at the reported time, known values for every
//! ordered pair, and the named regressions of issue 12 (a rotated target, a
//! target thousands of times larger, starting in contact, grazing motion,
//! parallel faces, tiny and zero relative velocity, the normal's direction,
//! `max_toi` 0 and `+∞`, far from the origin, symmetry).

use crate::common;
use crate::support;

use common::*;
use nalgebra::{Isometry2, Point2, Vector2};
use narrowphase::cast::advance::cast_world_2d;
use narrowphase::{ShapeCastArgs, ShapeCastHit, ShapeCastOptions, ShapeCastStatus};
use proptest::prelude::*;
use shape::prelude::*;
use shape::testing::test_tolerance;
use support::{every_ordered_pair, touching_shapes};

fn v2<T: Real>(x: f64, y: f64) -> Vector2<T> {
    Vector2::new(T::lit(x), T::lit(y))
}

fn at<T: Real>(x: f64, y: f64) -> Isometry2<T> {
    Isometry2::translation(T::lit(x), T::lit(y))
}

const STOP: ShapeCastOptions = ShapeCastOptions {
    stop_at_penetration: true,
};
const SLIDE: ShapeCastOptions = ShapeCastOptions {
    stop_at_penetration: false,
};

#[allow(clippy::too_many_arguments)]
fn cast<T: Real>(
    a: &dyn Shape<T>,
    pa: &Isometry2<T>,
    va: &Vector2<T>,
    b: &dyn Shape<T>,
    pb: &Isometry2<T>,
    vb: &Vector2<T>,
    max_toi: T,
    options: ShapeCastOptions,
) -> Option<ShapeCastHit<T>> {
    narrowphase::cast_shapes(a, pa, va, b, pb, vb, max_toi, options).unwrap()
}

/// The pose moved by `v·t`.
fn moved<T: Real>(p: &Isometry2<T>, v: &Vector2<T>, t: T) -> Isometry2<T> {
    let mut q = *p;
    q.translation.vector += v * t;
    q
}

/// The signed distance of the shapes at time `t`.
fn sd_at<T: Real>(
    a: &dyn Shape<T>,
    pa: &Isometry2<T>,
    va: &Vector2<T>,
    b: &dyn Shape<T>,
    pb: &Isometry2<T>,
    vb: &Vector2<T>,
    t: T,
) -> T {
    narrowphase::signed_distance(a, &moved(pa, va, t), b, &moved(pb, vb, t)).unwrap()
}

/// The reference: conservative advancement on the table's exact closest
/// points (world poses, A moving too).
#[allow(clippy::too_many_arguments)]
fn reference<T: Real>(
    a: &dyn Shape<T>,
    pa: &Isometry2<T>,
    va: &Vector2<T>,
    b: &dyn Shape<T>,
    pb: &Isometry2<T>,
    vb: &Vector2<T>,
    max_toi: T,
    options: ShapeCastOptions,
) -> Option<ShapeCastHit<T>> {
    // B's motion relative to A: A's pose moves with it (`closest` sees A at
    // rest, B shifted by the relative motion).
    let args = ShapeCastArgs {
        vel_a: *va,
        vel_b: *vb,
        max_toi,
        options,
    };
    let sizes = (
        narrowphase::cast::advance::shape_scale(a),
        narrowphase::cast::advance::shape_scale(b),
    );
    cast_world_2d(
        pb,
        &args,
        |q| narrowphase::closest_points(a, pa, b, q, T::infinity()).ok(),
        |q| narrowphase::contact(a, pa, b, q).ok(),
        sizes,
    )
    .flatten()
}

/// Whether a pair has an ellipse: those keep the advancement (not the
/// closed forms under test here; the lead's `tests/casts.rs` covers them).
fn is_ellipse_pair(sa: &Spec, sb: &Spec) -> bool {
    matches!(sa, Spec::Ellipse(..)) || matches!(sb, Spec::Ellipse(..))
}

/// Agreement with the advancement on random pairs, poses and velocities:
/// - every hit touches at its time (`|signed distance| ≤ tol`) and the
///   normal points from A to B there (B moved a little along it separates);
/// - hit / no hit and the time agree with the reference, except at grazing
///   (moving on by 1% of the shapes' size past the time found penetrates by
///   less than 1% of that, at both times);
/// - swapping the shapes and the velocities gives the same time bit for bit
///   and the flipped normal.
fn agrees_with_advancement<T: Real>() {
    let motion = || {
        (
            (-6.0..6.0, -6.0..6.0),
            (-6.0..6.0, -6.0..6.0),
            prop_oneof![Just(1.0), Just(4.0), Just(f64::INFINITY)],
        )
    };
    every_ordered_pair(
        48,
        motion,
        |(sa, sb, pa, pb, ((ax, ay), (bx, by), max_toi))| {
            if is_ellipse_pair(&sa, &sb) {
                return Ok(());
            }
            let (a, b) = (build::<T>(&sa), build::<T>(&sb));
            let (pa, pb) = (iso::<T>(pa), iso::<T>(pb));
            let (va, vb) = (v2::<T>(ax, ay), v2::<T>(bx, by));
            let max_toi = T::lit(max_toi);
            let size = extent(&sa) + extent(&sb);
            let speed = (vb - va).norm().as_f64();
            let tol = test_tolerance(T::lit(8.0 * size)).as_f64() * 4.0;
            let hit = cast(&*a, &pa, &va, &*b, &pb, &vb, max_toi, STOP);
            let back = cast(&*b, &pb, &vb, &*a, &pa, &va, max_toi, STOP);
            prop_assert_eq!(hit.is_some(), back.is_some());
            if let (Some(h), Some(k)) = (hit, back) {
                prop_assert_eq!(h.toi, k.toi);
                prop_assert_eq!(h.status, k.status);
                prop_assert!(
                    (h.normal.into_inner() + k.normal.into_inner())
                        .norm()
                        .as_f64()
                        < tol
                );
            }
            let reference = reference(&*a, &pa, &va, &*b, &pb, &vb, max_toi, STOP);
            let sd = |t: f64| sd_at(&*a, &pa, &va, &*b, &pb, &vb, T::lit(t)).as_f64();
            // Penetration after moving on by 1% of the size past `t`: deep
            // unless the motion grazes.
            let grazing = |t: f64| speed == 0.0 || sd(t + 0.01 * size / speed) > -0.01 * size * 0.1;
            match (hit, reference) {
                (Some(h), Some(r)) => {
                    let (t, tr) = (h.toi.as_f64(), r.toi.as_f64());
                    prop_assert!(t <= max_toi.as_f64());
                    prop_assert!(
                        sd(t).abs() <= tol || h.status == ShapeCastStatus::Penetrating,
                        "not touching at {t}: {}",
                        sd(t)
                    );
                    if h.status == ShapeCastStatus::Hit {
                        // B moved back a little along the normal is apart.
                        let n = h.normal.into_inner();
                        let back_off = T::lit(0.01 * size);
                        let q = moved(&pb, &vb, h.toi);
                        let mut q2 = q;
                        q2.translation.vector += n * back_off;
                        let d =
                            narrowphase::signed_distance(&*a, &moved(&pa, &va, h.toi), &*b, &q2)
                                .unwrap()
                                .as_f64();
                        prop_assert!(d > 0.0, "normal {:?} does not separate ({d})", n);
                    }
                    let dt = (t - tr).abs() * speed.max(1e-30);
                    prop_assert!(
                        dt <= tol * 64.0 || (grazing(t) && grazing(tr)),
                        "toi {t} vs reference {tr}"
                    );
                    prop_assert!(
                        h.status == r.status || sd(0.0).abs() <= tol,
                        "status {:?} vs {:?}",
                        h.status,
                        r.status
                    );
                }
                (Some(h), None) => {
                    let t = h.toi.as_f64();
                    prop_assert!(
                        sd(t).abs() <= tol && grazing(t),
                        "hit at {t} the reference misses: sd {} probe {} {:?}",
                        sd(t),
                        sd(t + 0.01 * size / speed),
                        h
                    );
                }
                (None, Some(r)) => {
                    let t = r.toi.as_f64();
                    prop_assert!(grazing(t), "missed the reference's hit at {t}");
                }
                (None, None) => {}
            }
            Ok(())
        },
    );
}
shape::for_each_precision!(agrees_with_advancement_every_pair, agrees_with_advancement);

/// Known values for every ordered pair: shapes reaching exactly 1 along ±x
/// (the point 0), A at x = −10 moving at +2 towards B at rest at the origin:
/// the time is `(10 − reach_a − reach_b) / 2`, the normal `+x`; the same
/// with B moving at −2 instead (half the time), far from the origin, and
/// with a target 2000 times larger than the moving shape.
fn known_values<T: Real>() {
    let shapes = touching_shapes::<T>();
    let far = if T::epsilon().as_f64() < 1e-10 {
        1e6
    } else {
        1e3
    };
    for (a, ra) in &shapes {
        for (b, rb) in &shapes {
            let gap = 10.0 - ra - rb;
            for (origin, va, vb, speed) in [
                (0.0, 2.0, 0.0, 2.0),
                (0.0, 0.0, -2.0, 2.0),
                (0.0, 1.0, -1.0, 2.0),
                (far, 2.0, 0.0, 2.0),
                (-far, 0.5, -0.5, 1.0),
            ] {
                let h = cast(
                    &**a,
                    &at(origin - 10.0, origin),
                    &v2(va, 0.0),
                    &**b,
                    &at(origin, origin),
                    &v2(vb, 0.0),
                    T::lit(100.0),
                    STOP,
                )
                .unwrap_or_else(|| panic!("{:?} / {:?}: no hit", a.kind(), b.kind()));
                let want = gap / speed;
                // The ellipse pairs are iterative (tolerance 32 ε of the
                // size); the closed forms are exact up to the rounding of the
                // coordinates (10 + |origin|).
                let tol = test_tolerance(T::lit(10.0 + origin.abs())).as_f64();
                assert!(
                    (h.toi.as_f64() - want).abs() <= tol,
                    "{:?} / {:?} at {origin}: toi {} want {want}",
                    a.kind(),
                    b.kind(),
                    h.toi.as_f64()
                );
                assert_eq!(h.status, ShapeCastStatus::Hit);
                assert!(
                    (h.normal.x.as_f64() - 1.0).abs() <= tol,
                    "{:?} / {:?} at {origin} {va} {vb}: normal {:?}",
                    a.kind(),
                    b.kind(),
                    h.normal
                );
                // The witness points touch and lie on the plane of contact.
                let contact_x = origin - rb + vb * want;
                assert!((h.point_a.x.as_f64() - contact_x).abs() <= tol * 4.0);
                assert!((h.point_b.x.as_f64() - contact_x).abs() <= tol * 4.0);
            }
        }
    }
}
shape::for_each_precision!(known_values_every_pair, known_values);

/// A ball of radius 1 at x = −10 moving at +2 towards a box face at x = 0:
/// 4.5, the normal `+x`, the points at (0, 0); the box rotated by 45° is
/// hit at its corner; a box 2000 times larger is hit as exactly.
fn ball_and_box<T: Real>() {
    let ball = Circle::new(T::one()).unwrap();
    let boxed = Obb::new(v2::<T>(1.0, 1.0)).unwrap();
    let (pa, va, vb) = (at::<T>(-10.0, 0.0), v2::<T>(2.0, 0.0), Vector2::zeros());
    let h = cast(
        &ball,
        &pa,
        &va,
        &boxed,
        &at(1.0, 0.0),
        &vb,
        T::lit(10.0),
        STOP,
    )
    .unwrap();
    assert_eq!(h.toi, T::lit(4.5));
    assert_eq!(h.normal.into_inner(), v2(1.0, 0.0));
    assert_eq!(h.point_a, Point2::origin());
    assert_eq!(h.point_b, Point2::origin());
    // Rotated target: the corner at x = −√2 + 1 (box centre at x = 1).
    let rotated = Isometry2::new(v2(1.0, 0.0), T::frac_pi_4());
    let h = cast(&ball, &pa, &va, &boxed, &rotated, &vb, T::lit(10.0), STOP).unwrap();
    let want = (10.0 - 1.0 - 2f64.sqrt() + 1.0) / 2.0;
    let tol = test_tolerance(T::lit(10.0)).as_f64();
    assert!(
        (h.toi.as_f64() - want).abs() <= tol,
        "{} vs {want}",
        h.toi.as_f64()
    );
    assert!((h.normal.x.as_f64() - 1.0).abs() <= tol);
    // A target 2000 times larger: the face still at x = 0.
    let wall = Obb::new(v2::<T>(2000.0, 2000.0)).unwrap();
    let h = cast(
        &ball,
        &pa,
        &va,
        &wall,
        &at(2000.0, 0.0),
        &vb,
        T::lit(10.0),
        STOP,
    )
    .unwrap();
    assert_eq!(h.toi, T::lit(4.5));
    let wall = Aabb::new(
        Point2::new(T::zero(), T::lit(-3000.0)),
        Point2::new(T::lit(4000.0), T::lit(3000.0)),
    )
    .unwrap();
    let h = cast(
        &ball,
        &pa,
        &va,
        &wall,
        &Isometry2::identity(),
        &vb,
        T::lit(10.0),
        STOP,
    )
    .unwrap();
    assert_eq!(h.toi, T::lit(4.5));
    // The large shape moving instead, the same.
    let h = cast(
        &ball,
        &pa,
        &vb,
        &wall,
        &Isometry2::identity(),
        &(-va),
        T::lit(10.0),
        STOP,
    )
    .unwrap();
    assert_eq!(h.toi, T::lit(4.5));
}
shape::for_each_precision!(ball_against_box, ball_and_box);

/// Starting in contact: `Penetrating` at 0 with the contact's normal; with
/// `stop_at_penetration = false`, no hit when sliding along or moving
/// apart, a hit when moving in.
fn starting_in_contact<T: Real>() {
    let boxed = Aabb::new(
        Point2::new(T::lit(-1.0), T::lit(-1.0)),
        Point2::new(T::one(), T::one()),
    )
    .unwrap();
    let ball = Circle::new(T::one()).unwrap();
    let caps = Capsule::new(
        Point2::new(T::zero(), T::lit(-1.0)),
        Point2::new(T::zero(), T::one()),
        T::lit(0.5),
    )
    .unwrap();
    let shapes: [(&dyn Shape<T>, f64); 3] = [(&boxed, 1.0), (&ball, 1.0), (&caps, 0.5)];
    for (a, ra) in shapes {
        for (b, rb) in shapes {
            // Touching exactly, and overlapping by 0.25.
            for d in [ra + rb, ra + rb - 0.25] {
                let pb = at::<T>(d, 0.0);
                let o = Isometry2::identity();
                let h = cast(
                    a,
                    &o,
                    &Vector2::zeros(),
                    b,
                    &pb,
                    &v2(1.0, 0.0),
                    T::lit(10.0),
                    STOP,
                )
                .unwrap();
                assert_eq!((h.toi, h.status), (T::zero(), ShapeCastStatus::Penetrating));
                assert!((h.normal.x.as_f64() - 1.0).abs() < 1e-6);
                for away in [v2(1.0, 0.0), v2(0.0, 1.0), Vector2::zeros()] {
                    assert!(
                        cast(a, &o, &Vector2::zeros(), b, &pb, &away, T::lit(10.0), SLIDE)
                            .is_none()
                    );
                }
                let h = cast(
                    a,
                    &o,
                    &Vector2::zeros(),
                    b,
                    &pb,
                    &v2(-1.0, 0.5),
                    T::lit(10.0),
                    SLIDE,
                )
                .unwrap();
                assert_eq!(h.status, ShapeCastStatus::Penetrating);
            }
        }
    }
}
shape::for_each_precision!(start_in_contact, starting_in_contact);

/// Grazing: a ball sliding along a box face at exactly its radius touches
/// at the face's start and is reported there; a line missing by a hair is
/// no hit; two boxes sliding past each other edge to edge touch.
fn grazing<T: Real>() {
    let boxed = Aabb::new(
        Point2::new(T::lit(-1.0), T::lit(-1.0)),
        Point2::new(T::one(), T::one()),
    )
    .unwrap();
    let ball = Circle::new(T::one()).unwrap();
    let o = Isometry2::identity();
    let up = v2::<T>(0.0, 1.0);
    // A (the box) at rest; the ball at (−2, −10) moving +y touches the
    // corner (−1, −1) at y = −1: t = 9.
    let h = cast(
        &boxed,
        &o,
        &Vector2::zeros(),
        &ball,
        &at(-2.0, -10.0),
        &up,
        T::lit(100.0),
        STOP,
    )
    .unwrap();
    assert!(
        (h.toi.as_f64() - 9.0).abs() <= test_tolerance(T::lit(10.0)).as_f64(),
        "{}",
        h.toi.as_f64()
    );
    assert_eq!(h.status, ShapeCastStatus::Hit);
    let miss = 2.0 + 64.0 * T::epsilon().as_f64();
    assert!(
        cast(
            &boxed,
            &o,
            &Vector2::zeros(),
            &ball,
            &at(-miss, -10.0),
            &up,
            T::lit(100.0),
            STOP
        )
        .is_none()
    );
    // Box against box sliding edge to edge: first touch at the corners.
    let h = cast(
        &boxed,
        &o,
        &Vector2::zeros(),
        &boxed,
        &at(2.0, -10.0),
        &up,
        T::lit(100.0),
        STOP,
    )
    .unwrap();
    assert_eq!(h.toi, T::lit(8.0));
    // Corner on corner: both faces' normals separate.
    let n = h.normal.into_inner();
    assert!(n == v2(1.0, 0.0) || n == v2(0.0, -1.0), "{n:?}");
    // Capsule sliding along a capsule at the radii's sum.
    let caps = Capsule::new(
        Point2::new(T::zero(), T::lit(-1.0)),
        Point2::new(T::zero(), T::one()),
        T::lit(0.5),
    )
    .unwrap();
    let h = cast(
        &caps,
        &o,
        &Vector2::zeros(),
        &caps,
        &at(1.0, -10.0),
        &up,
        T::lit(100.0),
        STOP,
    )
    .unwrap();
    assert!(
        (h.toi.as_f64() - 8.0).abs() <= test_tolerance(T::lit(10.0)).as_f64(),
        "{}",
        h.toi.as_f64()
    );
}
shape::for_each_precision!(grazing_motion, grazing);

/// Parallel faces: a box falling flat on a wider box touches along a
/// segment; the witness points lie inside both faces, on the contact line.
fn parallel_faces<T: Real>() {
    let floor = Obb::new(v2::<T>(5.0, 1.0)).unwrap();
    let crate_ = Obb::new(v2::<T>(1.0, 1.0)).unwrap();
    let tri = Triangle::new(
        Point2::new(T::lit(-1.0), T::lit(-1.0)),
        Point2::new(T::one(), T::lit(-1.0)),
        Point2::new(T::zero(), T::one()),
    )
    .unwrap();
    let o = Isometry2::identity();
    let down = v2::<T>(0.0, -3.0);
    for b in [&crate_ as &dyn Shape<T>, &tri] {
        let h = cast(
            &floor,
            &o,
            &Vector2::zeros(),
            b,
            &at(0.5, 8.0),
            &down,
            T::lit(10.0),
            STOP,
        )
        .unwrap();
        assert_eq!(h.toi, T::lit(2.0));
        assert_eq!(h.normal.into_inner(), v2(0.0, 1.0));
        for p in [h.point_a, h.point_b] {
            assert_eq!(p.y, T::one());
            assert!(p.x >= T::lit(-0.5) && p.x <= T::lit(1.5));
        }
        // The same moving floor, seen from the other shape.
        let k = cast(
            b,
            &at(0.5, 8.0),
            &Vector2::zeros(),
            &floor,
            &o,
            &(-down),
            T::lit(10.0),
            STOP,
        )
        .unwrap();
        assert_eq!(k.toi, h.toi);
        assert_eq!(k.normal.into_inner(), v2(0.0, -1.0));
    }
}
shape::for_each_precision!(parallel_face_contact, parallel_faces);

/// Tiny and zero relative velocity, `max_toi` 0 and `+∞`, both shapes
/// moving together (no relative motion), NaN-free answers.
fn velocities_and_bounds<T: Real>() {
    let shapes = touching_shapes::<T>();
    let tiny = if T::epsilon().as_f64() < 1e-10 {
        1e-200
    } else {
        1e-30
    };
    for (a, ra) in &shapes {
        for (b, rb) in &shapes {
            let (pa, pb) = (at::<T>(-10.0, 0.0), Isometry2::identity());
            let gap = 10.0 - ra - rb;
            let z = Vector2::zeros();
            assert!(cast(&**a, &pa, &z, &**b, &pb, &z, T::infinity(), STOP).is_none());
            let same = v2::<T>(3.0, -1.0);
            assert!(cast(&**a, &pa, &same, &**b, &pb, &same, T::infinity(), STOP).is_none());
            assert!(cast(&**a, &pa, &v2(2.0, 0.0), &**b, &pb, &z, T::zero(), STOP).is_none());
            let h = cast(&**a, &pa, &v2(2.0, 0.0), &**b, &pb, &z, T::infinity(), STOP).unwrap();
            assert!((h.toi.as_f64() - gap / 2.0).abs() <= test_tolerance(T::lit(10.0)).as_f64());
            // A tiny speed: the hit is far in time (finite or beyond the
            // float range), never NaN; within a bound of 1e6, none.
            assert!(cast(&**a, &pa, &v2(tiny, 0.0), &**b, &pb, &z, T::lit(1e6), STOP).is_none());
            if let Some(h) = cast(
                &**a,
                &pa,
                &v2(tiny, 0.0),
                &**b,
                &pb,
                &z,
                T::infinity(),
                STOP,
            ) {
                assert!(!h.toi.is_nan() && h.toi > T::lit(1e6));
                assert!(h.normal.x.is_finite() && h.point_a.x.is_finite() || h.toi.is_infinite());
            }
            // Touching at 0 with max_toi 0: a hit at 0.
            let touch = at::<T>(-(ra + rb), 0.0);
            let h = cast(&**a, &touch, &v2(1.0, 0.0), &**b, &pb, &z, T::zero(), STOP).unwrap();
            assert_eq!((h.toi, h.status), (T::zero(), ShapeCastStatus::Penetrating));
        }
    }
}
shape::for_each_precision!(velocity_and_bound_edges, velocities_and_bounds);

/// A speed whose square overflows the float range: two polygons 10 apart,
/// B flying at it towards A, still hit at `gap / speed` (the two-polygon
/// sweep's bounding-disk test must not reject it; before the guard it did).
fn overflowing_speed<T: Real>() {
    let huge = if T::epsilon().as_f64() < 1e-10 {
        1e160
    } else {
        1e20
    };
    assert!(v2::<T>(huge, 0.0).norm_squared().is_infinite());
    let corners = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)];
    let vs: Vec<Point2<T>> = corners
        .iter()
        .map(|&(x, y)| Point2::new(T::lit(x), T::lit(y)))
        .collect();
    let square = ConvexPolygon::new(&vs).unwrap();
    let (pa, pb) = (at::<T>(-10.0, 0.0), Isometry2::identity());
    let z = Vector2::zeros();
    let h = cast(
        &square,
        &pa,
        &z,
        &square,
        &pb,
        &v2(-huge, 0.0),
        T::one(),
        STOP,
    )
    .expect("a hit at gap / speed");
    let want = 8.0 / huge;
    assert!(
        (h.toi.as_f64() - want).abs() <= 1e-3 * want,
        "{} vs {want}",
        h.toi.as_f64()
    );
    assert!(h.normal.x.as_f64() > 0.99);
}
shape::for_each_precision!(overflowing_speed_still_hits, overflowing_speed);

/// Rigid-motion invariance on random pairs: rotating and translating the
/// whole scene (poses and velocities) leaves the time unchanged up to
/// rounding.
fn rigid_motion<T: Real>() {
    let extra = || ((-6.0..6.0, -6.0..6.0), pose(50.0));
    every_ordered_pair(16, extra, |(sa, sb, pa, pb, ((vx, vy), m))| {
        if is_ellipse_pair(&sa, &sb) {
            return Ok(());
        }
        let (a, b) = (build::<T>(&sa), build::<T>(&sb));
        let size = extent(&sa) + extent(&sb);
        let v = v2::<T>(vx, vy);
        let z = Vector2::zeros();
        let (ia, ib) = (iso::<T>(pa), iso::<T>(pb));
        let h = cast(&*a, &ia, &z, &*b, &ib, &v, T::lit(4.0), STOP);
        let map = rigid_motion_for(&sa, &sb, m);
        let (ma, mb) = (iso::<T>(map(pa)), iso::<T>(map(pb)));
        let turn = map([0.0, 0.0, 0.0])[2];
        let moved_v = nalgebra::Rotation2::new(T::lit(turn)) * v;
        let k = cast(&*a, &ma, &z, &*b, &mb, &moved_v, T::lit(4.0), STOP);
        let speed = v.norm().as_f64().max(1e-9);
        let tol = test_tolerance(T::lit(8.0 * (size + 60.0))).as_f64() * 4.0;
        let sd = |t: f64| sd_at(&*a, &ia, &z, &*b, &ib, &v, T::lit(t)).as_f64();
        let grazing = |t: f64| sd(t + 0.01 * size / speed) > -0.001 * size;
        match (h, k) {
            (Some(h), Some(k)) => {
                let (t, u) = (h.toi.as_f64(), k.toi.as_f64());
                prop_assert!(
                    (t - u).abs() * speed <= tol * 64.0 || (grazing(t) && grazing(u)),
                    "{t} vs {u}"
                );
            }
            (Some(h), None) | (None, Some(h)) => {
                prop_assert!(
                    grazing(h.toi.as_f64()) || h.toi.as_f64() > 3.99,
                    "{}",
                    h.toi.as_f64()
                );
            }
            (None, None) => {}
        }
        Ok(())
    });
}
shape::for_each_precision!(rigid_motion_invariance, rigid_motion);
