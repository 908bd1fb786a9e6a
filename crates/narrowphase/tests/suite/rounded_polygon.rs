//! Known values of the rounded polygon (`RoundedPolygon`, issue 14) through
//! the table, f32 and f64 from one generic body: a rounded box resting on a
//! box (contact depth and a 2-point manifold), a ray onto a rounded corner
//! (the analytic point and normal), the closest points of two rounded boxes
//! (face to face, corner to corner), and the ellipse pair (the ellipse first
//! in canonical order) agreeing with the other order bit for bit. The
//! property tests over every ordered pair of kinds (`support::every_ordered_pair`)
//! cover the rounded polygon's pairs too.

use nalgebra::{Isometry2, Point2, Vector2};
use narrowphase::{ClosestPoints, cast_ray, closest_points, contact, contact_manifold};
use num_traits::Float;
use shape::prelude::*;
use shape::testing::test_tolerance;

fn v<T: Real>(x: f64, y: f64) -> Vector2<T> {
    Vector2::new(T::lit(x), T::lit(y))
}
fn p<T: Real>(x: f64, y: f64) -> Point2<T> {
    Point2::new(T::lit(x), T::lit(y))
}
fn at<T: Real>(x: f64, y: f64) -> Isometry2<T> {
    Isometry2::translation(T::lit(x), T::lit(y))
}

fn resting_on_a_box<T: Real>() {
    let tol = test_tolerance::<T>(T::lit(10.0));
    // A 10 × 1 floor with its top at y = 0.5; a rounded box of outer half
    // extents (1, 0.5) and radius 0.25 sunk by 0.01: its flat bottom (the
    // core's bottom edge, x in [−0.75, 0.75], pushed down by 0.25) at 0.49.
    let floor = Obb::new(v::<T>(5.0, 0.5)).unwrap();
    let crate_ = RoundedPolygon::rounded_box(v::<T>(1.0, 0.5), T::lit(0.25)).unwrap();
    let (pf, pc) = (Isometry2::identity(), at::<T>(0.0, 0.99));
    let c = contact(&floor, &pf, &crate_, &pc).unwrap().unwrap();
    assert!(Float::abs(c.depth - T::lit(0.01)) < tol, "{c:?}");
    assert!((c.normal.into_inner() - v(0.0, 1.0)).norm() < tol);
    let m = contact_manifold(&floor, &pf, &crate_, &pc, T::zero())
        .unwrap()
        .unwrap();
    assert_eq!(m.len(), 2, "{m:?}");
    assert!((m.normal().into_inner() - v(0.0, 1.0)).norm() < tol);
    let mut xs: Vec<T> = m.points().iter().map(|q| q.point_b.x).collect();
    xs.sort_by(|a, b| a.partial_cmp(b).unwrap());
    assert!(Float::abs(xs[0] + T::lit(0.75)) < tol, "{m:?}");
    assert!(Float::abs(xs[1] - T::lit(0.75)) < tol, "{m:?}");
    for q in m.points() {
        assert!(Float::abs(q.separation + T::lit(0.01)) < tol, "{q:?}");
        assert!(Float::abs(q.point_b.y - T::lit(0.49)) < tol, "{q:?}");
    }
    // The other order: the same manifold flipped, bit for bit.
    let back = contact_manifold(&crate_, &pc, &floor, &pf, T::zero())
        .unwrap()
        .unwrap();
    assert_eq!(back, m.flipped());
    // Lifted by 0.02: apart, no contact; a speculative manifold within 0.05.
    let up = at::<T>(0.0, 1.02);
    assert!(contact(&floor, &pf, &crate_, &up).unwrap().is_none());
    let m = contact_manifold(&floor, &pf, &crate_, &up, T::lit(0.05))
        .unwrap()
        .unwrap();
    for q in m.points() {
        assert!(Float::abs(q.separation - T::lit(0.02)) < tol, "{q:?}");
    }
}
shape::for_each_precision!(resting_on_a_box, resting_on_a_box);

fn ray_onto_a_rounded_corner<T: Real>() {
    let tol = test_tolerance::<T>(T::lit(20.0));
    // Outer half extents 6, radius 5: the core is the square (±1)², its top
    // right corner (1, 1). A ray along −x at height 5 meets that corner's
    // circle at (1 + 3, 1 + 4) = (4, 5), a 3-4-5 point: normal (0.6, 0.8).
    let b = RoundedPolygon::rounded_box(v::<T>(6.0, 6.0), T::lit(5.0)).unwrap();
    for (pose, origin, point) in [
        (Isometry2::identity(), p(10.0, 5.0), p(4.0, 5.0)),
        // Moved to (2, 3): the same hit moved.
        (at(2.0, 3.0), p(12.0, 8.0), p(6.0, 8.0)),
    ] {
        let ray = Ray::new(origin, v(-1.0, 0.0));
        let h = cast_ray(&b, &pose, &ray, T::infinity(), true)
            .unwrap()
            .unwrap();
        assert!(Float::abs(h.toi - T::lit(6.0)) < tol, "{h:?}");
        assert!((h.point - point).norm() < tol, "{h:?}");
        assert!((h.normal.into_inner() - v(0.6, 0.8)).norm() < tol, "{h:?}");
    }
    // Turned a quarter about its centre the square core is the same square:
    // the same hit.
    let turned = Isometry2::new(v(0.0, 0.0), T::frac_pi_2());
    let h = cast_ray(
        &b,
        &turned,
        &Ray::new(p(10.0, 5.0), v(-2.0, 0.0)),
        T::infinity(),
        true,
    )
    .unwrap()
    .unwrap();
    assert!(Float::abs(h.toi - T::lit(3.0)) < tol, "{h:?}");
    assert!((h.normal.into_inner() - v(0.6, 0.8)).norm() < tol, "{h:?}");
}
shape::for_each_precision!(ray_onto_a_rounded_corner, ray_onto_a_rounded_corner);

fn closest_points_of_two_rounded_boxes<T: Real>() {
    let tol = test_tolerance::<T>(T::lit(10.0));
    let b = RoundedPolygon::rounded_box(v::<T>(1.0, 1.0), T::half()).unwrap();
    let id = Isometry2::identity();
    // Face to face: B at (3.5, 0), a gap of 3.5 − 2 = 1.5 along +x.
    let ClosestPoints::WithinMargin {
        distance,
        point_a,
        point_b,
        normal,
    } = closest_points(&b, &id, &b, &at(3.5, 0.0), T::infinity()).unwrap()
    else {
        panic!("apart")
    };
    assert!(Float::abs(distance - T::lit(1.5)) < tol);
    assert!((normal.into_inner() - v(1.0, 0.0)).norm() < tol);
    assert!(Float::abs(point_a.x - T::one()) < tol && Float::abs(point_b.x - T::lit(2.5)) < tol);
    assert!(Float::abs(point_a.y) <= T::half() + tol && Float::abs(point_a.y - point_b.y) < tol);
    // Corner to corner: B at (3.5, 3.5); the core corners (0.5, 0.5) and
    // (3, 3) are 2.5√2 apart, the shapes 2.5√2 − 1.
    let s = Float::sqrt(T::half());
    let ClosestPoints::WithinMargin {
        distance,
        point_a,
        point_b,
        normal,
    } = closest_points(&b, &id, &b, &at(3.5, 3.5), T::infinity()).unwrap()
    else {
        panic!("apart")
    };
    assert!(
        Float::abs(distance - (T::lit(2.5) / s - T::one())) < tol,
        "{distance:?}"
    );
    assert!((normal.into_inner() - Vector2::new(s, s)).norm() < tol);
    let ra = Point2::new(T::half() + s * T::half(), T::half() + s * T::half());
    let rb = Point2::new(T::lit(3.0) - s * T::half(), T::lit(3.0) - s * T::half());
    assert!((point_a - ra).norm() < tol && (point_b - rb).norm() < tol);
    // Within 1 of each other: farther than that is `Farther`.
    assert_eq!(
        closest_points(&b, &id, &b, &at(3.5, 3.5), T::one()).unwrap(),
        ClosestPoints::Farther
    );
    // At (1.8, 1.8) the square boxes would overlap, the rounded ones do
    // not: their core corners are 0.8√2 apart, the shapes 0.8√2 − 1.
    let d = closest_points(&b, &id, &b, &at(1.8, 1.8), T::one())
        .unwrap()
        .distance()
        .unwrap();
    assert!(Float::abs(d - (T::lit(0.8) / s - T::one())) < tol, "{d:?}");
    // At (1.6, 1.6), 0.6√2 < 1: intersecting.
    assert_eq!(
        closest_points(&b, &id, &b, &at(1.6, 1.6), T::one()).unwrap(),
        ClosestPoints::Intersecting
    );
}
shape::for_each_precision!(
    closest_points_of_two_rounded_boxes,
    closest_points_of_two_rounded_boxes
);

fn ellipse_pair_either_order<T: Real>() {
    let tol = test_tolerance::<T>(T::lit(10.0));
    let e = Ellipse::new(v::<T>(2.0, 1.0)).unwrap();
    let b = RoundedPolygon::rounded_box(v::<T>(1.0, 1.0), T::half()).unwrap();
    let pe = Isometry2::new(v(0.25, -0.5), T::lit(0.3));
    for pb in [at::<T>(2.5, 0.0), at(2.9, 0.7), at(6.0, 1.0)] {
        let ab = contact(&e, &pe, &b, &pb).unwrap();
        let ba = contact(&b, &pb, &e, &pe).unwrap();
        assert_eq!(ab, ba.map(|c| c.flipped()));
        let ab = closest_points(&e, &pe, &b, &pb, T::infinity()).unwrap();
        let ba = closest_points(&b, &pb, &e, &pe, T::infinity()).unwrap();
        assert_eq!(ab, ba.flipped());
    }
    // The box's left side (x = 3 − 1) on the unturned ellipse's right tip.
    let id = Isometry2::identity();
    assert!(narrowphase::intersects(&e, &id, &b, &at(3.0, 0.0)).unwrap());
    assert!(!narrowphase::intersects(&e, &id, &b, &at(3.0 + 1e-3, 0.0)).unwrap());
    let c = contact(&e, &id, &b, &at(2.75, 0.0)).unwrap().unwrap();
    assert!(Float::abs(c.depth - T::lit(0.25)) < tol, "{c:?}");
    assert!((c.normal.into_inner() - v(1.0, 0.0)).norm() < tol, "{c:?}");
}
shape::for_each_precision!(ellipse_pair_either_order, ellipse_pair_either_order);
