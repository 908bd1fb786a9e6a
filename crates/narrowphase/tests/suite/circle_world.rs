//! Two circles are answered in the world frame (`circle/circle_circle_world.rs`),
//! not through the relative pose: these tests check that path through the
//! public functions, for f32 and f64 from one body.
//!
//! - Symmetry bit for bit (`to_bits`, so that even the sign of a zero
//!   counts): every query with the circles swapped (and the velocities with
//!   them) gives the same numbers, the normal negated and the points swapped.
//! - Agreement with the relative-frame kernels (`narrowphase::circle`, the
//!   path the table took before) mapped to the world, within a stated
//!   tolerance; intersects, contact, closest points, distance and manifold
//!   agree on whether the circles touch; the cast's hit agrees with the
//!   generic `circle_toi` on the same relative motion.
//! - Known values, and the hand-over cases (coincident centres, a normal
//!   along an axis, a NaN rotation) keep the general path's answers and
//!   errors.

use nalgebra::{Isometry2, Point2, UnitComplex, Vector2};
use narrowphase::cast::rounded::circle_toi;
use narrowphase::circle::{circle_circle_closest_points, circle_circle_contact};
use narrowphase::{
    ClosestPoints, DispatchError, ShapeCastOptions, ShapeCastStatus, closest_points, contact,
    contact_manifold, distance, intersects,
};
use proptest::prelude::*;
use shape::prelude::*;

fn iso<T: Real>(x: f64, y: f64, angle: f64) -> Isometry2<T> {
    Isometry2::from_parts(
        nalgebra::Translation2::new(T::lit(x), T::lit(y)),
        UnitComplex::new(T::lit(angle)),
    )
}

fn bits<T: Real>(x: T) -> u64 {
    x.as_f64().to_bits()
}

fn point_bits<T: Real>(p: &Point2<T>) -> [u64; 2] {
    [bits(p.x), bits(p.y)]
}

fn neg_bits<T: Real>(v: &Vector2<T>) -> [u64; 2] {
    [bits(-v.x), bits(-v.y)]
}

fn vec_bits<T: Real>(v: &Vector2<T>) -> [u64; 2] {
    [bits(v.x), bits(v.y)]
}

type Input = (f64, [f64; 3], f64, [f64; 3], [f64; 2], [f64; 2]);

fn input() -> impl Strategy<Value = Input> {
    let pose = [-8.0..8.0f64, -8.0..8.0f64, -4.0..4.0f64];
    let vel = [-6.0..6.0f64, -6.0..6.0f64];
    (
        0.05..3.0f64,
        pose.clone(),
        0.05..3.0f64,
        pose,
        vel.clone(),
        vel,
    )
}

fn symmetric_and_agreeing<T: Real>((ra, pa, rb, pb, va, vb): Input) -> Result<(), TestCaseError> {
    let (a, b) = (
        Circle::<T>::new(T::lit(ra)).unwrap(),
        Circle::<T>::new(T::lit(rb)).unwrap(),
    );
    let (pa, pb) = (iso::<T>(pa[0], pa[1], pa[2]), iso::<T>(pb[0], pb[1], pb[2]));
    let (va, vb) = (
        Vector2::new(T::lit(va[0]), T::lit(va[1])),
        Vector2::new(T::lit(vb[0]), T::lit(vb[1])),
    );
    let scale =
        (pa.translation.vector.amax() + pb.translation.vector.amax() + T::lit(6.0)).as_f64();
    let tol = 64.0 * T::epsilon().as_f64() * scale;
    let m = pa.inv_mul(&pb);

    // intersects, and everything agreeing with it.
    let touching = intersects(&a, &pa, &b, &pb).unwrap();
    prop_assert_eq!(touching, intersects(&b, &pb, &a, &pa).unwrap());
    prop_assert_eq!(touching, contact(&a, &pa, &b, &pb).unwrap().is_some());
    let cp = closest_points(&a, &pa, &b, &pb, T::infinity()).unwrap();
    prop_assert_eq!(touching, cp == ClosestPoints::Intersecting);
    prop_assert_eq!(touching, distance(&a, &pa, &b, &pb).unwrap() == T::zero());

    // Contact: symmetric bit for bit, and the relative-frame kernel's.
    let (ab, ba) = (
        contact(&a, &pa, &b, &pb).unwrap(),
        contact(&b, &pb, &a, &pa).unwrap(),
    );
    prop_assert_eq!(ab.is_some(), ba.is_some());
    if let (Some(x), Some(y)) = (ab, ba) {
        prop_assert_eq!(vec_bits(&x.normal), neg_bits(&y.normal));
        prop_assert_eq!(bits(x.depth), bits(y.depth));
        prop_assert_eq!(point_bits(&x.point_a), point_bits(&y.point_b));
        prop_assert_eq!(point_bits(&x.point_b), point_bits(&y.point_a));
        let r = circle_circle_contact(&a, &b, &m).unwrap();
        prop_assert!((x.depth - r.depth).as_f64().abs() <= tol);
        prop_assert!(
            (x.normal.into_inner() - pa.rotation * r.normal.into_inner())
                .norm()
                .as_f64()
                <= tol
        );
        prop_assert!((x.point_a - pa * r.point_a).norm().as_f64() <= tol);
        prop_assert!((x.point_b - pa * r.point_b).norm().as_f64() <= tol);
    }

    // Closest points.
    let ba_cp = closest_points(&b, &pb, &a, &pa, T::infinity()).unwrap();
    match (cp, ba_cp) {
        (
            ClosestPoints::WithinMargin {
                point_a,
                point_b,
                normal,
                distance: d,
            },
            ClosestPoints::WithinMargin {
                point_a: qa,
                point_b: qb,
                normal: nb,
                distance: e,
            },
        ) => {
            prop_assert_eq!(vec_bits(&normal), neg_bits(&nb));
            prop_assert_eq!(bits(d), bits(e));
            prop_assert_eq!(point_bits(&point_a), point_bits(&qb));
            prop_assert_eq!(point_bits(&point_b), point_bits(&qa));
            let ClosestPoints::WithinMargin {
                point_a: ra_,
                point_b: rb_,
                distance: rd,
                ..
            } = circle_circle_closest_points(&a, &b, &m, T::infinity())
            else {
                return Err(TestCaseError::fail("the kernel disagrees on touching"));
            };
            prop_assert!((d - rd).as_f64().abs() <= tol);
            prop_assert!((point_a - pa * ra_).norm().as_f64() <= tol);
            prop_assert!((point_b - pa * rb_).norm().as_f64() <= tol);
        }
        (x, y) => prop_assert_eq!(x, y),
    }

    // Manifold with a prediction: one point, symmetric bit for bit.
    let prediction = T::lit(1.5);
    let (mab, mba) = (
        contact_manifold(&a, &pa, &b, &pb, prediction).unwrap(),
        contact_manifold(&b, &pb, &a, &pa, prediction).unwrap(),
    );
    prop_assert_eq!(mab.is_some(), mba.is_some());
    if let (Some(x), Some(y)) = (mab, mba) {
        prop_assert_eq!(x.len(), 1);
        prop_assert_eq!(vec_bits(&x.normal()), neg_bits(&y.normal()));
        let (p, q) = (x.points()[0], y.points()[0]);
        prop_assert_eq!(bits(p.separation), bits(q.separation));
        prop_assert_eq!(point_bits(&p.point_a), point_bits(&q.point_b));
        prop_assert_eq!(point_bits(&p.point_b), point_bits(&q.point_a));
    }

    // Shape cast: symmetric bit for bit, the hit where `circle_toi` puts it.
    let opts = ShapeCastOptions::default();
    let max_toi = T::lit(4.0);
    let (cab, cba) = (
        narrowphase::cast_shapes(&a, &pa, &va, &b, &pb, &vb, max_toi, opts).unwrap(),
        narrowphase::cast_shapes(&b, &pb, &vb, &a, &pa, &va, max_toi, opts).unwrap(),
    );
    prop_assert_eq!(cab.is_some(), cba.is_some());
    if let (Some(x), Some(y)) = (cab, cba) {
        prop_assert_eq!(bits(x.toi), bits(y.toi));
        prop_assert_eq!(vec_bits(&x.normal), neg_bits(&y.normal));
        prop_assert_eq!(point_bits(&x.point_a), point_bits(&y.point_b));
        prop_assert_eq!(point_bits(&x.point_b), point_bits(&y.point_a));
        if x.status == ShapeCastStatus::Hit {
            let w = pb.translation.vector - pa.translation.vector;
            let t = circle_toi(&w, &(vb - va), a.radius() + b.radius()).unwrap();
            let speed = (vb - va).norm().as_f64();
            prop_assert!((x.toi - t).as_f64().abs() * speed <= tol);
            // The witness points are the circles' points along the normal.
            let ca = pa.translation.vector + va * x.toi;
            let cb = pb.translation.vector + vb * x.toi;
            prop_assert!(
                (x.point_a.coords - ca - x.normal.into_inner() * a.radius())
                    .norm()
                    .as_f64()
                    <= tol
            );
            prop_assert!(
                (x.point_b.coords - cb + x.normal.into_inner() * b.radius())
                    .norm()
                    .as_f64()
                    <= tol
            );
            prop_assert!(((cb - ca).norm() - a.radius() - b.radius()).as_f64().abs() <= tol);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(shape::testing::cases(512)))]

    #[test]
    fn symmetric_and_agreeing_f32(i in input()) {
        symmetric_and_agreeing::<f32>(i)?;
    }

    #[test]
    fn symmetric_and_agreeing_f64(i in input()) {
        symmetric_and_agreeing::<f64>(i)?;
    }
}

fn known_values<T: Real>() {
    let (one, two) = (
        Circle::<T>::new(T::one()).unwrap(),
        Circle::<T>::new(T::lit(2.0)).unwrap(),
    );
    // A 3-4-5 offset: distance 5 − 3, points along (0.6, 0.8).
    let (pa, pb) = (iso::<T>(1.0, 1.0, 0.3), iso::<T>(4.0, 5.0, -1.0));
    let tol = T::lit(8.0) * T::epsilon();
    let d = distance(&one, &pa, &two, &pb).unwrap();
    assert!(
        (d - T::lit(2.0)).as_f64().abs() <= (tol * T::lit(5.0)).as_f64(),
        "distance {d:?}"
    );
    let ClosestPoints::WithinMargin {
        point_a,
        point_b,
        normal,
        ..
    } = closest_points(&one, &pa, &two, &pb, T::lit(10.0)).unwrap()
    else {
        panic!("apart")
    };
    assert!((point_a - Point2::new(T::lit(1.6), T::lit(1.8))).norm() <= tol * T::lit(4.0));
    assert!((point_b - Point2::new(T::lit(2.8), T::lit(3.4))).norm() <= tol * T::lit(8.0));
    assert!((normal.into_inner() - Vector2::new(T::lit(0.6), T::lit(0.8))).norm() <= tol);
    // Overlapping by 0.5 along the same line.
    let pc = iso::<T>(1.0 + 0.6 * 2.5, 1.0 + 0.8 * 2.5, 2.0);
    let c = contact(&one, &pa, &two, &pc).unwrap().unwrap();
    assert!((c.depth - T::lit(0.5)).as_f64().abs() <= (tol * T::lit(4.0)).as_f64());
    // A cast: from (−10, 1) at (4, 0) against the unit circle at the origin,
    // radii summing to 2: `(10 − 4t)² + 1 = 4`, t = (10 − √3) / 4.
    let hit = narrowphase::cast_shapes(
        &one,
        &iso::<T>(-10.0, 1.0, 0.0),
        &Vector2::new(T::lit(4.0), T::zero()),
        &one,
        &iso::<T>(0.0, 0.0, 0.7),
        &Vector2::zeros(),
        T::lit(10.0),
        ShapeCastOptions::default(),
    )
    .unwrap()
    .unwrap();
    let t = (10.0 - 3f64.sqrt()) / 4.0;
    assert!((hit.toi.as_f64() - t).abs() <= 16.0 * T::epsilon().as_f64() * 10.0);
    assert!(
        (hit.normal.y.as_f64() + 0.5).abs() <= 1e-5,
        "{:?}",
        hit.normal
    );
    assert_eq!(hit.status, ShapeCastStatus::Hit);
}

#[test]
fn known_values_f32() {
    known_values::<f32>();
}

#[test]
fn known_values_f64() {
    known_values::<f64>();
}

fn hand_over<T: Real>() {
    let c = Circle::<T>::new(T::one()).unwrap();
    // Coincident centres: the documented `+x` of A's frame.
    let (pa, pb) = (iso::<T>(2.0, 3.0, 0.0), iso::<T>(2.0, 3.0, 1.0));
    let k = contact(&c, &pa, &c, &pb).unwrap().unwrap();
    assert_eq!(k.depth, T::lit(2.0));
    assert!(
        (k.normal.into_inner().norm() - T::one()).as_f64().abs() <= 4.0 * T::epsilon().as_f64()
    );
    // A normal along an axis: exactly (1, 0) in one order, (−1, 0) in the
    // other, zeros signed to match.
    let (p, q) = (iso::<T>(0.0, 0.0, 0.0), iso::<T>(1.5, 0.0, 0.0));
    let (x, y) = (
        contact(&c, &p, &c, &q).unwrap().unwrap(),
        contact(&c, &q, &c, &p).unwrap().unwrap(),
    );
    assert_eq!(x.normal.x, T::one());
    assert_eq!(vec_bits(&x.normal), neg_bits(&y.normal));
    // Bad poses stay typed errors.
    let nan = Isometry2::from_parts(
        nalgebra::Translation2::new(T::zero(), T::one()),
        UnitComplex::new_unchecked(nalgebra::Complex::new(T::nan(), T::zero())),
    );
    assert_eq!(
        intersects(&c, &nan, &c, &q),
        Err(DispatchError::NonFinitePose)
    );
    assert_eq!(contact(&c, &q, &c, &nan), Err(DispatchError::NonFinitePose));
    let far = iso::<T>(f64::from(f32::MAX) * 0.5, 0.0, 0.0);
    assert!(!intersects(&c, &far, &c, &p).unwrap());
    assert!(distance(&c, &far, &c, &p).unwrap() > T::lit(1e30));
}

/// The distance (answered without a branch on whether the circles meet)
/// is the closest points' distance bit for bit, and zero exactly when they
/// intersect: on circles placed within a few ulps of touching along many
/// directions, along the axes (a zero coordinate: the closest points' own
/// path), and with radii so small that `|w|²` is subnormal.
fn distance_is_the_closest_points<T: Real>() {
    let check = |ra: T, rb: T, pa: &Isometry2<T>, pb: &Isometry2<T>| {
        let (a, b) = (Circle::new(ra).unwrap(), Circle::new(rb).unwrap());
        let d = distance(&a, pa, &b, pb).unwrap();
        let cp = closest_points(&a, pa, &b, pb, T::infinity()).unwrap();
        assert_eq!(bits(d), bits(cp.distance().unwrap()), "{d:?} {cp:?}");
        assert_eq!(d == T::zero(), intersects(&a, pa, &b, pb).unwrap());
        assert_eq!(bits(d), bits(distance(&b, pb, &a, pa).unwrap()));
        d
    };
    let at = |x: T, y: T| Isometry2::new(Vector2::new(x, y), T::zero());
    let (ra, rb) = (T::lit(0.75), T::lit(1.25));
    let r = ra + rb;
    let (mut met, mut apart) = (0, 0);
    for k in 0..720 {
        let t = T::lit(f64::from(k) * core::f64::consts::PI / 360.0);
        let (c, s) = (num_traits::Float::cos(t), num_traits::Float::sin(t));
        for ulps in -4..=4 {
            let len = r * (T::one() + T::lit(f64::from(ulps)) * T::epsilon());
            let pb = at(T::lit(3.0) + len * c, T::lit(-1.0) + len * s);
            if check(ra, rb, &at(T::lit(3.0), T::lit(-1.0)), &pb) == T::zero() {
                met += 1;
            } else {
                apart += 1;
            }
        }
    }
    assert!(met > 1000 && apart > 1000, "{met} meet, {apart} apart");
    // Along the axes: exactly touching, and apart by one ulp of r.
    let o = at(T::zero(), T::zero());
    assert_eq!(check(ra, rb, &o, &at(r, T::zero())), T::zero());
    assert_eq!(check(ra, rb, &o, &at(T::zero(), -r)), T::zero());
    let next = r * (T::one() + T::epsilon());
    assert!(check(ra, rb, &o, &at(next, T::zero())) > T::zero());
    // Tiny circles: |w|² below the smallest normal number.
    let tiny = num_traits::Float::sqrt(T::min_positive_value()) * T::lit(0.01);
    let d = check(tiny, tiny, &o, &at(tiny * T::lit(3.0), tiny * T::lit(4.0)));
    assert!(
        (d - tiny * T::lit(3.0)).as_f64().abs() <= 1e-3 * tiny.as_f64(),
        "{d:?}"
    );
}

#[test]
fn distance_is_the_closest_points_f32() {
    distance_is_the_closest_points::<f32>();
}

#[test]
fn distance_is_the_closest_points_f64() {
    distance_is_the_closest_points::<f64>();
}

#[test]
fn hand_over_f32() {
    hand_over::<f32>();
}

#[test]
fn hand_over_f64() {
    hand_over::<f64>();
}

/// The pairs of a circle answered from the world poses besides two circles:
/// a box, oriented or axis-aligned (`circle/circle_box_world.rs`), and a
/// triangle or a convex polygon (`circle/circle_polygon_world.rs`; one of
/// more than 16 vertices is handed back to the general path). The reversed
/// order is the flipped answer bit for bit; every answer is the
/// relative-frame kernel's (the path the table took before, given as
/// `reference_contact` and `reference_closest`) mapped to the world within
/// the tolerance; intersects, contact, closest points, distance and the
/// manifold agree on touching, bit for bit where they share numbers (the
/// manifold's normal and deepest separation are the contact's or the
/// closest points', the distance the closest points').
fn circle_world_agrees<T: Real>(
    (r, pa, pb): (f64, Isometry2<T>, Isometry2<T>),
    b: &dyn Shape<T>,
    reference_contact: impl Fn(&Circle<T>) -> Option<narrowphase::Contact<T>>,
    reference_closest: impl Fn(&Circle<T>) -> ClosestPoints<T>,
) -> Result<(), TestCaseError> {
    let a = Circle::<T>::new(T::lit(r)).unwrap();
    let scale =
        (pa.translation.vector.amax() + pb.translation.vector.amax() + T::lit(8.0)).as_f64();
    let tol = 64.0 * T::epsilon().as_f64() * scale;

    let touching = intersects(&a, &pa, b, &pb).unwrap();
    prop_assert_eq!(touching, intersects(b, &pb, &a, &pa).unwrap());
    let (ab, ba) = (
        contact(&a, &pa, b, &pb).unwrap(),
        contact(b, &pb, &a, &pa).unwrap(),
    );
    prop_assert_eq!(touching, ab.is_some());
    let reference = reference_contact(&a);
    prop_assert_eq!(ab.is_some(), reference.is_some());
    if let (Some(x), Some(y), Some(k)) = (ab, ba, reference) {
        prop_assert_eq!(vec_bits(&x.normal), neg_bits(&y.normal));
        prop_assert_eq!(point_bits(&x.point_a), point_bits(&y.point_b));
        prop_assert_eq!(point_bits(&x.point_b), point_bits(&y.point_a));
        prop_assert_eq!(bits(x.depth), bits(y.depth));
        prop_assert!((x.depth - k.depth).as_f64().abs() <= tol);
        prop_assert!(
            (x.normal.into_inner() - pa.rotation * k.normal.into_inner())
                .norm()
                .as_f64()
                <= tol
        );
        prop_assert!((x.point_a - pa * k.point_a).norm().as_f64() <= tol);
        prop_assert!((x.point_b - pa * k.point_b).norm().as_f64() <= tol);
    }
    let cp = closest_points(&a, &pa, b, &pb, T::infinity()).unwrap();
    prop_assert_eq!(touching, cp == ClosestPoints::Intersecting);
    let d = distance(&a, &pa, b, &pb).unwrap();
    prop_assert_eq!(bits(d), bits(distance(b, &pb, &a, &pa).unwrap()));
    match (cp, reference_closest(&a)) {
        (
            ClosestPoints::WithinMargin {
                point_a,
                point_b,
                distance: e,
                ..
            },
            ClosestPoints::WithinMargin {
                point_a: qa,
                point_b: qb,
                distance: f,
                ..
            },
        ) => {
            prop_assert_eq!(bits(d), bits(e));
            prop_assert!((e - f).as_f64().abs() <= tol);
            prop_assert!((point_a - pa * qa).norm().as_f64() <= tol);
            prop_assert!((point_b - pa * qb).norm().as_f64() <= tol);
        }
        (x, y) => {
            prop_assert_eq!(x, y);
            prop_assert_eq!(d, T::zero());
        }
    }
    let prediction = T::lit(2.0);
    let (mab, mba) = (
        contact_manifold(&a, &pa, b, &pb, prediction).unwrap(),
        contact_manifold(b, &pb, &a, &pa, prediction).unwrap(),
    );
    prop_assert_eq!(mab, mba.map(|m| m.flipped()));
    if let Some(x) = mab {
        let p = x.points()[0];
        match (ab, cp) {
            (Some(k), _) => {
                prop_assert_eq!(vec_bits(&x.normal()), vec_bits(&k.normal));
                prop_assert_eq!(bits(p.separation), bits(-k.depth));
            }
            (
                None,
                ClosestPoints::WithinMargin {
                    normal, distance, ..
                },
            ) => {
                prop_assert_eq!(vec_bits(&x.normal()), vec_bits(&normal));
                prop_assert_eq!(bits(p.separation), bits(distance));
            }
            _ => prop_assert!(false, "a manifold with neither contact nor closest points"),
        }
    }
    Ok(())
}

/// A circle and a box: an oriented box, or an axis-aligned box (whose
/// effective pose drops the rotation).
fn circle_box_agrees<T: Real>(
    (r, pa, hx, pb, _, _): Input,
    aligned: bool,
) -> Result<(), TestCaseError> {
    use narrowphase::circle::{
        circle_aabb_closest_points, circle_aabb_contact, circle_obb_closest_points,
        circle_obb_contact,
    };
    let half = Vector2::new(T::lit(hx), T::lit(hx * 0.5 + 0.1));
    let (pa, pb) = (iso::<T>(pa[0], pa[1], pa[2]), iso::<T>(pb[0], pb[1], pb[2]));
    let obb = Obb::new(half).unwrap();
    let aabb = Aabb::new(
        Point2::from(-half * T::lit(0.5)),
        Point2::from(half * T::lit(1.5)),
    )
    .unwrap();
    if aligned {
        let m = pa.inv_mul(&Isometry2::from_parts(
            pb.translation,
            UnitComplex::identity(),
        ));
        circle_world_agrees(
            (r, pa, pb),
            &aabb,
            |a| circle_aabb_contact(a, &aabb, &m),
            |a| circle_aabb_closest_points(a, &aabb, &m, T::infinity()),
        )
    } else {
        let m = pa.inv_mul(&pb);
        circle_world_agrees(
            (r, pa, pb),
            &obb,
            |a| circle_obb_contact(a, &obb, &m),
            |a| circle_obb_closest_points(a, &obb, &m, T::infinity()),
        )
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(shape::testing::cases(256)))]

    #[test]
    fn circle_box_agrees_f32(i in input(), aligned in any::<bool>()) {
        circle_box_agrees::<f32>(i, aligned)?;
    }

    #[test]
    fn circle_box_agrees_f64(i in input(), aligned in any::<bool>()) {
        circle_box_agrees::<f64>(i, aligned)?;
    }
}

/// A circle and a triangle of size `h`, and a circle and a regular polygon
/// of `n` vertices and radius `h` (small ones through the world path, big
/// ones handed over).
fn circle_polygons_agree<T: Real>(
    (r, pa, h, pb, _, _): Input,
    n: usize,
) -> Result<(), TestCaseError> {
    use narrowphase::circle::{
        circle_polygon_closest_points, circle_polygon_contact, circle_triangle_closest_points,
        circle_triangle_contact,
    };
    let pt = |x: f64, y: f64| Point2::new(T::lit(x), T::lit(y));
    let (pa, pb) = (iso::<T>(pa[0], pa[1], pa[2]), iso::<T>(pb[0], pb[1], pb[2]));
    let m = pa.inv_mul(&pb);
    let t = Triangle::new(pt(-h, -0.4), pt(h, -0.3), pt(0.1 * h, 0.8 * h + 0.2)).unwrap();
    circle_world_agrees(
        (r, pa, pb),
        &t,
        |a| circle_triangle_contact(a, &t, &m),
        |a| circle_triangle_closest_points(a, &t, &m, T::infinity()),
    )?;
    let vertices: Vec<_> = (0..n)
        .map(|k| {
            let angle = core::f64::consts::TAU * k as f64 / n as f64 + 0.3;
            pt(h * angle.cos(), 0.6 * h * angle.sin())
        })
        .collect();
    let polygon = ConvexPolygon::new(&vertices).unwrap();
    circle_world_agrees(
        (r, pa, pb),
        &polygon,
        |a| circle_polygon_contact(a, &polygon, &m),
        |a| circle_polygon_closest_points(a, &polygon, &m, T::infinity()),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(shape::testing::cases(256)))]

    #[test]
    fn circle_polygon_agrees_f32(i in input(), n in prop_oneof![3usize..=16, 17usize..40]) {
        circle_polygons_agree::<f32>(i, n)?;
    }

    #[test]
    fn circle_polygon_agrees_f64(i in input(), n in prop_oneof![3usize..=16, 17usize..40]) {
        circle_polygons_agree::<f64>(i, n)?;
    }
}
