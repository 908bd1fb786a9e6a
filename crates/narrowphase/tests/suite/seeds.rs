//! Known values from the source documents (`../shared/SEEDS.md`), f32 and f64.

use nalgebra::{Isometry2, Point2, Vector2};
use narrowphase::DispatchTable;
use narrowphase::point::{point_obb, point_obb_cross_product};
use narrowphase::sat::obb_obb;
use num_traits::Float;
use shape::prelude::*;
use shape::sat::sat_intersects;

/// Seed 000: two 6 × 2 rectangles, one at (0, 5) spinning through a full turn,
/// the other at (6, 5). At angle 0 they touch (x = 3); a quarter turn makes the
/// spinner 2 wide, far from the other; in between, the four-axis kernel agrees
/// with the generic separating-axis test at every angle not within rounding of
/// tangency.
fn seed_000_spinning_rectangle<T: Real>() {
    let r = Obb::new(Vector2::new(T::lit(3.0), T::one())).unwrap();
    let fixed = Isometry2::translation(T::lit(6.0), T::lit(5.0));
    let spin = |a: f64| Isometry2::new(Vector2::new(T::zero(), T::lit(5.0)), T::lit(a));
    let table = DispatchTable::<T>::new();
    assert!(table.intersects(&r, &spin(0.0), &r, &fixed).unwrap());
    assert!(
        !table
            .intersects(&r, &spin(std::f64::consts::FRAC_PI_2), &r, &fixed)
            .unwrap()
    );
    let mut hits = 0;
    for k in 0..3600 {
        let a = 2.0 * std::f64::consts::PI * f64::from(k) / 3600.0;
        let by_kernel = obb_obb(&r, &r, &spin(a).inv_mul(&fixed));
        let by_sat = sat_intersects(&r, &spin(a), &r, &fixed);
        // The spinner reaches x = 3|cos a| + |sin a| (a corner): the two agree
        // away from where that equals 3.
        let reach = 3.0 * a.cos().abs() + a.sin().abs();
        if (reach - 3.0).abs() > 1e-4 {
            assert_eq!(by_kernel, by_sat, "angle {a}");
            assert_eq!(by_kernel, reach > 3.0, "angle {a}");
        }
        hits += usize::from(by_kernel);
    }
    // It hits while 3|cos a| + |sin a| ≥ 3, i.e. within atan(3/4)·2 ≈ 73.7° of
    // each horizontal direction: about 2 × 73.7 / 360 of the turn.
    let expected = 3600.0 * 2.0 * 2.0 * (0.75f64).atan() / (2.0 * std::f64::consts::PI);
    assert!((hits as f64 - expected).abs() < 8.0, "{hits} vs {expected}");
}
shape::for_each_precision!(seed_000, seed_000_spinning_rectangle);

/// Seed 001: a circle against a convex polygon: an edge hit, a vertex hit, a
/// miss past a vertex, and the circle wholly inside (no edge touched).
fn seed_001_circle_polygon<T: Real>() {
    let p = |x: f64, y: f64| Point2::new(T::lit(x), T::lit(y));
    // Listed clockwise as in the seed; stored counter-clockwise.
    let poly = ConvexPolygon::new(&[p(0.0, 0.0), p(0.0, 4.0), p(4.0, 4.0), p(6.0, 0.0)]).unwrap();
    let table = DispatchTable::<T>::new();
    let o = Isometry2::identity();
    let c = |r: f64| Circle::new(T::lit(r)).unwrap();
    let at = |x: f64, y: f64| Isometry2::translation(T::lit(x), T::lit(y));
    assert!(table.intersects(&c(1.0), &at(2.0, 5.0), &poly, &o).unwrap()); // touches the top edge
    assert!(!table.intersects(&c(1.0), &at(2.0, 5.5), &poly, &o).unwrap());
    assert!(
        table
            .intersects(&c(5.0), &at(-3.0, 8.0), &poly, &o)
            .unwrap()
    ); // vertex (0, 4) at 5
    assert!(
        !table
            .intersects(&c(5.0), &at(-3.0, 8.01), &poly, &o)
            .unwrap()
    );
    assert!(table.intersects(&c(0.5), &at(2.0, 2.0), &poly, &o).unwrap()); // wholly inside
    let inside = table
        .contact(&c(0.5), &at(2.0, 2.0), &poly, &o)
        .unwrap()
        .unwrap();
    // Nearest edges are 2 away: the depth is 2 + 0.5.
    assert!(Float::abs(inside.depth - T::lit(2.5)) < T::lit(1e-4));
}
shape::for_each_precision!(seed_001, seed_001_circle_polygon);

/// Seed 002: point in a rotated rectangle by the local-frame method and by
/// cross products agree (away from the boundary), including the screen-space
/// orientation (y down: a negative angle).
fn seed_002_point_in_rotated_box<T: Real>() {
    let b = Obb::new(Vector2::new(T::lit(50.0), T::lit(20.0))).unwrap();
    let pose = Isometry2::new(Vector2::new(T::lit(200.0), T::lit(150.0)), T::lit(-0.6));
    let pt = Point::origin();
    let mut inside = 0;
    for i in 0..60 {
        for j in 0..60 {
            let q = Isometry2::translation(
                T::lit(130.0 + 2.4 * f64::from(i)),
                T::lit(80.0 + 2.4 * f64::from(j)),
            );
            let b_in_a = q.inv_mul(&pose);
            let local = point_obb(&pt, &b, &b_in_a);
            let cross = point_obb_cross_product(&pt, &b, &b_in_a);
            let l = pose.inverse_transform_point(&Point2::from(q.translation.vector));
            let margin = Float::min(
                T::lit(50.0) - Float::abs(l.x),
                T::lit(20.0) - Float::abs(l.y),
            );
            if Float::abs(margin) > T::lit(1e-3) {
                assert_eq!(local, cross);
                assert_eq!(local, margin > T::zero());
            }
            inside += usize::from(local);
        }
    }
    // The box covers 100 × 40 = 4000 of the sampled 144 × 144 window: about
    // 4000 / 2.4² ≈ 694 grid points.
    assert!((inside as f64 - 4000.0 / 5.76).abs() < 40.0, "{inside}");
}
shape::for_each_precision!(seed_002, seed_002_point_in_rotated_box);

/// Seed 003: circles by squared distance, boxes by per-axis early out.
fn seed_003_circles_and_boxes<T: Real>() {
    let table = DispatchTable::<T>::new();
    let c = Circle::new(T::lit(1.5)).unwrap();
    let at = |x: f64, y: f64| Isometry2::translation(T::lit(x), T::lit(y));
    assert!(
        table
            .intersects(&c, &at(0.0, 0.0), &c, &at(1.8, 2.4))
            .unwrap()
    ); // 3-4-5: 3 = 1.5 + 1.5
    assert!(
        !table
            .intersects(&c, &at(0.0, 0.0), &c, &at(1.8, 2.41))
            .unwrap()
    );
    let a = Aabb::new(Point2::origin(), Point2::new(T::two(), T::one())).unwrap();
    assert!(
        table
            .intersects(&a, &at(0.0, 0.0), &a, &at(2.0, 1.0))
            .unwrap()
    );
    assert!(
        !table
            .intersects(&a, &at(0.0, 0.0), &a, &at(2.0, 1.125))
            .unwrap()
    );
    // An Aabb ignores its pose's rotation.
    let turned = Isometry2::new(Vector2::new(T::lit(2.0), T::zero()), T::lit(1.0));
    assert!(table.intersects(&a, &at(0.0, 0.0), &a, &turned).unwrap());
    assert!(
        !table
            .intersects(
                &a,
                &at(0.0, 0.0),
                &a,
                &Isometry2::new(Vector2::new(T::lit(2.125), T::zero()), T::lit(1.0))
            )
            .unwrap()
    );
}
shape::for_each_precision!(seed_003, seed_003_circles_and_boxes);
