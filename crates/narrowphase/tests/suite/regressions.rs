//! Regression tests, each named after the bug it pins.

use crate::common;

use common::{Spec, build, iso};
use nalgebra::{Isometry2, Point2, Vector2};
use narrowphase::ClosestPoints;
use narrowphase::circle::circle_obb_contact;
use num_traits::Float;
use shape::prelude::*;

/// A circle whose centre is inside a box had the box's contact point placed on
/// the far side of the centre instead of on the nearest face.
fn circle_centre_inside_box_contact_point_on_the_face<T: Real>() {
    let c = Circle::new(T::half()).unwrap();
    let b = Obb::new(Vector2::new(T::two(), T::one())).unwrap();
    // The box sits at the origin; in the circle's frame it is at (-1.5, 0).
    let contact =
        circle_obb_contact(&c, &b, &Isometry2::translation(T::lit(-1.5), T::zero())).unwrap();
    let tol = T::lit(1e-5);
    assert!(
        (contact.normal.into_inner() + Vector2::x()).norm() < tol,
        "{contact:?}"
    );
    assert!(Float::abs(contact.depth - T::one()) < tol);
    assert!((contact.point_a - Point2::new(-T::half(), T::zero())).norm() < tol);
    // The box's +x face is at x = 2 in the box frame, 0.5 in the circle's.
    assert!(
        (contact.point_b - Point2::new(T::half(), T::zero())).norm() < tol,
        "{contact:?}"
    );
    assert!(
        Float::abs((contact.point_a - contact.point_b).dot(&contact.normal) - contact.depth) < tol
    );
}
shape::for_each_precision!(
    circle_inside_box,
    circle_centre_inside_box_contact_point_on_the_face
);

/// Found by the deep run (`PROPTEST_CASES=100000`, `world::scenes_f32`): a
/// 1e-2 triangle and an ellipse 1.4e5 apart were reported colliding in f32.
/// The polygon–ellipse kernel maps A's core into the ellipse's unit-disk frame,
/// where a core that far away compared with its size rounds to a sliver that
/// seemed to contain the ellipse's centre.
#[test]
fn tiny_triangle_far_from_an_ellipse_is_apart() {
    let table = narrowphase::DispatchTable::<f32>::shared();
    let tri = ConvexPolygon::new(&[
        Point2::new(0.002_434_305, -0.002_909_755),
        Point2::new(0.009_180_225, -0.001_189_585),
        Point2::new(0.008_730_222, 0.001_463_041),
    ])
    .unwrap();
    let e = Ellipse::new(Vector2::new(4.784_521_6, 0.478_452_16)).unwrap();
    let pa = Isometry2::new(Vector2::new(17.900_698, -1.016_551_5), 1.257_489);
    let pb = Isometry2::new(Vector2::new(-99_996.75, 100_002.7), 1.840_811_3);
    assert!(!table.intersects(&tri, &pa, &e, &pb).unwrap());
    assert!(!table.intersects(&e, &pb, &tri, &pa).unwrap());
    assert!(table.contact(&tri, &pa, &e, &pb).unwrap().is_none());
}

/// Found by the lead while testing the shape casts: a convex polygon and an
/// ellipse touching (the true distance about 1e-15, a pose 1e-12 away
/// answers 9.99e-16, the exact support functions leave no gap) were reported
/// `WithinMargin` at distance 0.543. The edge whose line grazes the ellipse
/// had its gap rounded to ≤ 0, was taken for a line crossing the ellipse, and
/// the distance came from its end points. The normal is that face's outward
/// normal (the pair's own direction is rounding at this distance).
#[test]
fn polygon_touching_an_ellipse_is_at_rounding_distance() {
    let poly = Spec::Polygon(vec![
        [4.129269964851711, -0.15206041281182728],
        [2.2630690781478964, 1.6027056104855],
        [-0.18842617921321672, 1.9115261911825479],
        [-3.9505643461754376, 0.575526115438774],
        [-2.4603024195742096, -1.5394399025494474],
        [3.1438542766964117, -1.2459765840651396],
    ]);
    let ell = Spec::Ellipse(1.966420705655749, 0.59267842934104);
    let pa = [0.5774716189330371, -3.2773165730991027, 2.604141212462859];
    let pb = [
        f64::from_bits(4607200952503803384),
        f64::from_bits(13829797061283987538),
        f64::from_bits(13817275961054283826),
    ];
    // The face touching the ellipse: from vertex 4 to vertex 5, turned with A.
    let Spec::Polygon(v) = &poly else {
        unreachable!()
    };
    let edge = nalgebra::Rotation2::new(pa[2]) * Vector2::new(v[5][0] - v[4][0], v[5][1] - v[4][1]);
    let face = Vector2::new(edge.y, -edge.x).normalize();
    let (a, b) = (build::<f64>(&poly), build::<f64>(&ell));
    let (ia, ib) = (iso::<f64>(pa), iso::<f64>(pb));
    let (a, b) = (a.as_ref(), b.as_ref());
    let hit = narrowphase::intersects(a, &ia, b, &ib).unwrap();
    for (cp, d, out) in [
        (
            narrowphase::closest_points(a, &ia, b, &ib, f64::INFINITY).unwrap(),
            narrowphase::distance(a, &ia, b, &ib).unwrap(),
            face,
        ),
        (
            narrowphase::closest_points(b, &ib, a, &ia, f64::INFINITY).unwrap(),
            narrowphase::distance(b, &ib, a, &ia).unwrap(),
            -face,
        ),
    ] {
        match cp {
            ClosestPoints::Intersecting => assert!(hit && d == 0.0),
            ClosestPoints::WithinMargin {
                distance, normal, ..
            } => {
                assert!(!hit && distance == d && distance <= 1e-12, "{cp:?}");
                assert!((normal.into_inner() - out).norm() < 1e-9, "{cp:?}");
            }
            ClosestPoints::Farther => panic!("Farther"),
        }
    }
    // The contact, if any, is as shallow.
    if let Some(c) = narrowphase::contact(a, &ia, b, &ib).unwrap() {
        assert!(hit && c.depth <= 1e-12, "{c:?}");
    }
}

/// Found by the check against parry (`benches/tests/peer.rs`, f32): a
/// segment whose end is 0.39 from a capsule's core, 1.2e-4 along the core
/// from the core's end. In f32 the end's squared distance to the core's end
/// and to its nearest point on the core round to the same number, the pair
/// of vertices was kept, and the contact normal, taken from them, was 3e-4
/// rad off the core's normal (0.17 deep, so the overlap along it was 7e-4
/// more than the depth). A vertex that projects strictly inside an edge
/// ending at the other vertex now takes the edge's point, and its normal.
fn segment_end_near_a_capsule_core_end_gets_the_core_normal<T: Real>() {
    let l = T::lit;
    let p = |x: f64, y: f64| Point2::new(l(x), l(y));
    let h = 1.221_982_002_258_300_8;
    let capsule = Capsule::new(p(0.0, -h), p(0.0, h), l(0.562_931_895_256_042_5)).unwrap();
    let segment = Segment::new(
        p(0.325_159_192_085_266_1, -0.461_594_194_173_812_87),
        p(0.884_352_624_416_351_3, -0.819_683_909_416_198_7),
    )
    .unwrap();
    let pose = |x: f64, y: f64, c: f64, s: f64| {
        Isometry2::from_parts(
            nalgebra::Translation2::new(l(x), l(y)),
            nalgebra::UnitComplex::from_cos_sin_unchecked(l(c), l(s)),
        )
    };
    let pc = pose(
        -0.436_132_282_018_661_5,
        2.109_651_088_714_599_6,
        -0.868_140_041_828_155_5,
        -0.496_319_323_778_152_47,
    );
    let ps = pose(
        0.136_063_575_744_628_9,
        2.497_820_138_931_274_4,
        -0.998_441_100_120_544_4,
        0.055_815_976_113_080_98,
    );
    // The capsule's side normal, out of it towards the segment: its local +x.
    let side = -(pc.rotation * Vector2::x());
    let table = narrowphase::DispatchTable::<T>::shared();
    for (contact, expected) in [
        (table.contact(&capsule, &pc, &segment, &ps), side),
        (table.contact(&segment, &ps, &capsule, &pc), -side),
    ] {
        let c = contact.unwrap().unwrap();
        // The normal from A to B is the side normal to 1e-6 in both
        // precisions (it was 3e-4 rad off in f32; the poses' rotations,
        // rounded from f32, are unit only to 3e-9 in f64), and the depth
        // 0.1696668.
        let expected = expected.normalize();
        assert!((c.normal.into_inner() - expected).norm() < l(1e-6), "{c:?}");
        assert!(Float::abs(c.depth - l(0.169_666_8)) < l(1e-6), "{c:?}");
    }
}
shape::for_each_precision!(
    segment_near_capsule_core_end,
    segment_end_near_a_capsule_core_end_gets_the_core_normal
);

/// A segment whose end lies 0.39 beyond a box's corner, along a direction
/// that turns just past the corner: the corner projects onto the segment
/// 5e-5 inside its end, so the closest pair is the corner and that foot,
/// and the normal is the segment's. In f32 the corner's squared distances to
/// the end and to the foot agree to the last bit; the box–segment kernel's
/// two-vertex check (`sat/box_segment.rs`) must still give the segment's
/// normal (the end's direction is 1.3e-4 rad off it).
fn box_corner_near_a_segment_end_gets_the_segment_normal<T: Real>() {
    let l = T::lit;
    let n = (0.6, 0.8);
    let v = (1.0 + 0.39 * n.0, 1.0 + 0.39 * n.1);
    // Along the segment: perpendicular to n, tipped 1.3e-4 towards the box.
    let (dx, dy) = (-0.8 - 1.3e-4 * n.0, 0.6 - 1.3e-4 * n.1);
    let len = f64::hypot(dx, dy);
    let (ux, uy) = (dx / len, dy / len);
    let segment = Segment::new(
        Point2::new(l(v.0), l(v.1)),
        Point2::new(l(v.0 + 2.0 * ux), l(v.1 + 2.0 * uy)),
    )
    .unwrap();
    let cuboid = Obb::new(Vector2::new(l(1.0), l(1.0))).unwrap();
    let o = Isometry2::identity();
    // The segment's unit normal, away from the box (towards +n).
    let expected = Vector2::new(l(uy), l(-ux));
    for (cp, towards) in [
        (
            narrowphase::closest_points(&cuboid, &o, &segment, &o, T::infinity()),
            expected,
        ),
        (
            narrowphase::closest_points(&segment, &o, &cuboid, &o, T::infinity()),
            -expected,
        ),
    ] {
        let ClosestPoints::WithinMargin {
            normal, distance, ..
        } = cp.unwrap()
        else {
            panic!("apart");
        };
        assert!(
            (normal.into_inner() - towards).norm() < l(1e-6),
            "{normal:?} {towards:?}"
        );
        assert!(Float::abs(distance - l(0.39)) < l(1e-6), "{distance:?}");
    }
}
shape::for_each_precision!(
    box_corner_near_segment_end,
    box_corner_near_a_segment_end_gets_the_segment_normal
);

/// Found by the deep run (`PROPTEST_CASES=5000`, `casts::every_pair::f64`):
/// a 0.03 quad passing right through a 2.3 ellipse got no hit. The
/// advancement's touching tolerance was `32 ε` of the smaller shape's size,
/// below the ellipse's own rounding: at 4e-16 apart the closest points'
/// direction was noise (turned by 90°), read as moving apart.
fn tiny_polygon_through_an_ellipse_is_hit<T: Real>() {
    use narrowphase::{ShapeCastOptions, ShapeCastStatus};
    let quad = ConvexPolygon::new(&[
        Point2::new(T::lit(0.007028368804769224), T::lit(0.007169480549665643)),
        Point2::new(T::lit(-0.006529183520977897), T::lit(0.0072192963510782)),
        Point2::new(
            T::lit(-0.020674791653556693),
            T::lit(-0.0033706477144662523),
        ),
        Point2::new(T::lit(0.010715679032771118), T::lit(-0.006668719297411857)),
    ])
    .unwrap();
    let e = Ellipse::new(Vector2::new(
        T::lit(2.175487639747086),
        T::lit(2.3093040453746174),
    ))
    .unwrap();
    let pa = Isometry2::new(
        Vector2::new(T::lit(1.6145000344829057), T::lit(-1.5733238603931838)),
        T::zero(),
    );
    let pb = Isometry2::new(
        Vector2::new(T::lit(-1.39264941707201), T::lit(-3.0454337174644284)),
        T::lit(0.009692022156001885),
    );
    let vb = Vector2::new(T::lit(2.6729711452653286), T::lit(-0.2860413746253558));
    let va = Vector2::zeros();
    let opts = ShapeCastOptions::default();
    let hit = narrowphase::cast_shapes(&quad, &pa, &va, &e, &pb, &vb, T::lit(4.0), opts)
        .unwrap()
        .expect("the ellipse passes over the quad from t = 0.539 to 1.583");
    assert_eq!(hit.status, ShapeCastStatus::Hit);
    // The first contact, from the closest points' own sequence (f64).
    let tol = if T::epsilon().as_f64() > 1e-10 {
        1e-4
    } else {
        1e-12
    };
    assert!(
        (hit.toi.as_f64() - 0.538_933_247_713_6).abs() <= tol,
        "{hit:?}"
    );
    let back = narrowphase::cast_shapes(&e, &pb, &vb, &quad, &pa, &va, T::lit(4.0), opts)
        .unwrap()
        .unwrap();
    assert_eq!(back, hit.flipped());
    // Deep inside a little later.
    let later = Isometry2::from_parts(
        (pb.translation.vector + vb * T::lit(0.6)).into(),
        pb.rotation,
    );
    assert!(narrowphase::intersects(&quad, &pa, &e, &later).unwrap());
}
shape::for_each_precision!(
    polygon_through_ellipse,
    tiny_polygon_through_an_ellipse_is_hit
);
