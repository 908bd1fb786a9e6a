//! Regression tests for the inputs that the `cargo fuzz` targets of `fuzz/`
//! found (one test per finding, each failing without its fix), and pins of
//! the most hostile inputs the fuzzers exercise.

use kasanari::nalgebra::{Complex, Isometry2, Point2, Translation2, UnitComplex, Vector2};
use kasanari::prelude::*;

/// What the fuzz targets require of every contact: finite numbers, depth
/// ≥ 0, a unit normal (256 ε), and the mirrored query the exact flip.
fn check_pair<T: Real>(a: &dyn Shape<T>, pa: &Isometry2<T>, b: &dyn Shape<T>, pb: &Isometry2<T>) {
    let table = DispatchTable::<T>::shared();
    let hit = table.intersects(a, pa, b, pb).unwrap();
    assert_eq!(hit, table.intersects(b, pb, a, pa).unwrap());
    let c_ab = table.contact(a, pa, b, pb).unwrap();
    let c_ba = table.contact(b, pb, a, pa).unwrap();
    assert_eq!(c_ab.is_some(), hit);
    assert_eq!(c_ba.is_some(), hit);
    if let (Some(x), Some(y)) = (c_ab, c_ba) {
        let n = x.normal.into_inner();
        let all = [
            n.x,
            n.y,
            x.depth,
            x.point_a.x,
            x.point_a.y,
            x.point_b.x,
            x.point_b.y,
        ];
        assert!(all.iter().all(|v| v.is_finite()), "{x:?}");
        assert!(x.depth >= T::zero(), "{x:?}");
        let tol = T::lit(256.0) * T::default_epsilon();
        assert!(
            num_traits_abs(n.norm() - T::one()) <= tol,
            "normal of length {:?}: {x:?}",
            n.norm()
        );
        assert_eq!(x.depth, y.depth);
        assert_eq!(n, -y.normal.into_inner());
        assert_eq!((x.point_a, x.point_b), (y.point_b, y.point_a));
    }
}

fn num_traits_abs<T: Real>(x: T) -> T {
    if x < T::zero() { -x } else { x }
}

fn pose32(re: f32, im: f32, x: f32, y: f32) -> Isometry2<f32> {
    Isometry2::from_parts(
        Translation2::new(x, y),
        UnitComplex::new_unchecked(Complex::new(re, im)),
    )
}

/// kernel_pairs: a tiny ellipse against a tiny capsule that it does not reach
/// (the first, exact regime of `core_ellipse_contact`), in f32. The normal
/// was `(e − p) / d` with `d` the gap computed by another formula, so its
/// length was off by 6e-5 (500 ulps).
#[test]
fn tiny_ellipse_capsule_normal_is_unit() {
    let e = Ellipse::new(Vector2::new(3.7252887e-6f32, 3.6375977e-6)).unwrap();
    let c = Capsule::new(
        Point2::new(0.0f32, 3.700506e-6),
        Point2::new(3.7252903e-6, 3.7252903e-6),
        3.7252903e-6,
    )
    .unwrap();
    let pe = pose32(0.5830914, 0.8124066, 0.0037252903, 0.0037252898);
    let pc = pose32(1.0, 0.0, 0.0037252903, 0.0037252898);
    check_pair::<f32>(&e, &pe, &c, &pc);
}

/// kernel_pairs: a point against a segment so short (2.8e-32) that its
/// squared length underflows in f32. The segment's normal and direction
/// were `normalize()`d into NaN, every projection on them was NaN, and the
/// contact came out with depth ∞.
#[test]
fn point_against_underflowing_segment() {
    let p = Point::new(Point2::new(-0.0f32, -3.5414067e-7)).unwrap();
    let s = Segment::new(Point2::new(0.0f32, 2.7938824e-32), Point2::new(0.0, -0.0)).unwrap();
    let at = Isometry2::translation(0.0f32, 0.0037251767);
    check_pair::<f32>(&p, &at, &s, &at);
    // The same short segment against a copy of itself, and a point on it.
    let copy = s;
    check_pair::<f32>(&s, &at, &copy, &at);
    let on = Point::new(Point2::new(0.0f32, 1e-32)).unwrap();
    check_pair::<f32>(&on, &at, &s, &at);
}

/// kernel_pairs: a segment and a capsule 2e-11 apart whose cores' closest
/// points are 1e-152 apart in f64: the squared distance was subnormal, its
/// square root inexact, and the normal `(pb − pa) / √d2` of length 1.00003.
#[test]
fn capsule_with_subnormal_core_distance() {
    let s = Segment::new(
        Point2::new(6.433661533948604e-86, 1.5641274181117974e-148),
        Point2::new(1.0819566287394433e-152, 1.0819566287459553e-152),
    )
    .unwrap();
    let c = Capsule::new(
        Point2::new(1.0819566296285468e-152, 1.0819566287394433e-152),
        Point2::new(1.0819574147069371e-152, 1.0819566287394433e-152),
        2.350499274401164e-11,
    )
    .unwrap();
    let ps = Isometry2::from_parts(
        Translation2::new(0.0037251806084270802, 0.003725290298461913),
        UnitComplex::new_unchecked(Complex::new(1.0, 2.9048905673104126e-144)),
    );
    let pc = Isometry2::translation(0.0037251806084270802, 0.003725290298461913);
    check_pair::<f64>(&s, &ps, &c, &pc);
}

/// Pinned (the scene fuzzer's nastiest inputs): numbers near the float limits
/// in a scene loaded as f32 and as f64. Whatever does not fit the precision
/// is a typed error; what loads collides with finite contacts.
#[test]
fn scene_with_huge_numbers() {
    use kasanari::scene::{SceneError, parse_scene};
    let text = r#"{"shapes": [
        {"kind":"point","p":[1e308,0]},
        {"kind":"circle","center":[1e308,1],"radius":1e307},
        {"kind":"polygon","vertices":[[-1e300,0],[1e300,0],[0,1e300]]},
        {"kind":"capsule","a":[0,0],"b":[1e-300,0],"radius":1e-320}
    ]}"#;
    let scene = parse_scene(text.as_bytes()).unwrap();
    // Every shape overflows f32 (or, for the capsule, rounds to a degenerate one).
    for (i, e) in scene.shapes.iter().enumerate() {
        let one = kasanari::scene::Scene {
            version: 1,
            shapes: vec![e.clone()],
        };
        match one.world::<f32>(None) {
            Err(SceneError::World { .. } | SceneError::Shape { .. }) => {}
            other => panic!("shapes[{i}] in f32: {other:?}"),
        }
    }
    // In f64, the 1e307 circle and the 1e300 polygon are too large (beyond
    // `max_size`, 8.4e152); without them the rest loads.
    let (big, rest): (Vec<_>, Vec<_>) = scene
        .shapes
        .iter()
        .cloned()
        .partition(|e| matches!(e.shape.kind(), "circle" | "polygon"));
    for e in big {
        assert!(matches!(
            e.shape.to_shape::<f64>(),
            Err(ShapeError::TooLarge { .. })
        ));
    }
    let scene = kasanari::scene::Scene {
        version: 1,
        shapes: rest,
    };
    let mut sw = scene.world::<f64>(Some(1.0)).unwrap();
    sw.world.validate().unwrap();
    let hits = sw.world.collisions();
    for p in &hits.pairs {
        let c = p.contact;
        assert!(c.depth.is_finite() && c.depth >= 0.0, "{c:?}");
        assert!((c.normal.norm() - 1.0).abs() < 1e-12, "{c:?}");
    }
    for (_, _, e) in &hits.errors {
        assert!(!matches!(e, DispatchError::Unsupported { .. }), "{e:?}");
    }
}

/// Pinned: a cell size given as zero, NaN or a subnormal is a typed error.
#[test]
fn scene_with_bad_cell_sizes() {
    let scene = kasanari::scene::parse_scene(
        &br#"{"shapes":[{"kind":"circle","center":[0,0],"radius":1}]}"#[..],
    )
    .unwrap();
    for cell in [0.0f32, -1.0, f32::NAN, f32::INFINITY, 1e-45] {
        assert!(
            matches!(
                scene.world::<f32>(Some(cell)),
                Err(kasanari::scene::SceneError::World { .. })
            ),
            "cell size {cell}"
        );
    }
}

/// Runs every pair of a pairs file as `kasanari pairs` does, in precision
/// `T`, with the checks of `check_pair`.
fn pairs_file<T: Real>(bytes: &[u8]) {
    let file = kasanari::scene::parse_pairs(bytes).unwrap();
    for p in &file.pairs {
        let (a, pa) = p.a.to_shape::<T>().unwrap();
        let (b, pb) = p.b.to_shape::<T>().unwrap();
        check_pair::<T>(a.as_ref(), &pa, b.as_ref(), &pb);
    }
}

/// pairs_parser (minimised by `cargo fuzz tmin`): two circles whose centres
/// are 5e-22 apart in f32. The squared distance 2.5e-43 is subnormal, its
/// square root inexact, and the normal `d / √d2` had length 1.001.
#[test]
fn circles_with_subnormal_squared_distance() {
    let bytes =
        include_bytes!("../../../../fuzz/regressions/pairs_parser-circles-5e-22-apart.json");
    pairs_file::<f32>(bytes);
    pairs_file::<f64>(bytes);
}

/// The same root cause (a normal `d / √d2` with `d2` subnormal) in the
/// kernels beside `circle_circle`: point–circle, circle–box (Aabb and Obb),
/// sphere–sphere and sphere–cuboid, all in f32.
#[test]
fn sibling_kernels_with_subnormal_squared_distance() {
    use kasanari::nalgebra::{Isometry3, Vector3};
    let at = |x: f32, y: f32| Isometry2::translation(x, y);
    let origin = Isometry2::identity();
    // Point–circle: the point 5e-22 from the circle's centre, off the axes.
    let p = Point::origin();
    let c = Circle::new(5.0f32).unwrap();
    check_pair::<f32>(&p, &origin, &c, &at(4e-22, 3e-22));
    // Circle–box: the circle's centre 5e-22 outside a tiny box's corner.
    let h = Vector2::new(1e-21f32, 1e-21);
    let obb = Obb::new(h).unwrap();
    let aabb = Aabb::from_half_extents(h).unwrap();
    check_pair::<f32>(&c, &at(1.4e-21, 1.3e-21), &obb, &origin);
    check_pair::<f32>(&c, &at(1.4e-21, 1.3e-21), &aabb, &origin);
    // Sphere–sphere and sphere–cuboid.
    let table = DispatchTable3::<f32>::shared();
    let check3 =
        |a: &dyn Shape3<f32>, pa: &Isometry3<f32>, b: &dyn Shape3<f32>, pb: &Isometry3<f32>| {
            let c = table.contact(a, pa, b, pb).unwrap().expect("touching");
            let n = c.normal.into_inner();
            assert!((n.norm() - 1.0).abs() <= 256.0 * f32::EPSILON, "{c:?}");
            assert!(c.depth.is_finite() && c.depth >= 0.0, "{c:?}");
            let d = table.contact(b, pb, a, pa).unwrap().unwrap();
            assert_eq!((c.depth, n), (d.depth, -d.normal.into_inner()));
        };
    let s = Sphere::new(5.0f32).unwrap();
    let s2 = Sphere::new(1.0f32).unwrap();
    let o3 = Isometry3::identity();
    check3(&s, &o3, &s2, &Isometry3::translation(4e-22, 3e-22, 2e-22));
    let cube = Cuboid::new(Vector3::new(1e-21f32, 1e-21, 1e-21)).unwrap();
    check3(
        &s,
        &Isometry3::translation(1.4e-21, 1.3e-21, 1.2e-21),
        &cube,
        &o3,
    );
}

/// pairs_parser (hand-minimised: `tmin` could not shrink the JSON): an
/// ellipse 1.1e-159 thin (f64) inside another. The scans over the ellipses'
/// normals divided by `|w|`, `w = (cos φ / rx, sin φ / ry)`, whose square
/// overflows: the directions came out zero and so did the contact's normal.
/// The rounded-core kernels against an ellipse scan the same way.
#[test]
fn thin_ellipse_normals() {
    let bytes = include_bytes!("../../../../fuzz/regressions/pairs_parser-thin-ellipse.json");
    pairs_file::<f64>(bytes);
    let thin = Ellipse::new(Vector2::new(2.0, 1.1e-159)).unwrap();
    let at = Isometry2::translation(0.0, 0.8);
    let origin = Isometry2::identity();
    let obb = Obb::new(Vector2::new(3.0, 1.0)).unwrap();
    check_pair::<f64>(&thin, &origin, &obb, &at);
    let capsule = Capsule::new(Point2::new(-1.0, 0.0), Point2::new(1.0, 0.0), 1.0).unwrap();
    check_pair::<f64>(&thin, &origin, &capsule, &at);
    let circle = Circle::new(1.5).unwrap();
    check_pair::<f64>(&thin, &origin, &circle, &at);
}

/// kernel_pairs (minimised: `fuzz/regressions/kernel_pairs-tiny-segment-ellipse.bin`):
/// a segment 4.3e-162 long (f64) touching a small circle-like ellipse. The
/// rounded-core kernel against an ellipse divided the edge's perpendicular
/// by `|d|`, computed from a subnormal `|d|²`: a normal of length 0.97.
#[test]
fn tiny_segment_against_ellipse() {
    let e = Ellipse::new(Vector2::new(5.297870007028396e-11, 5.297870007028193e-11)).unwrap();
    let s = Segment::new(
        Point2::new(1.0819566287394433e-152, 1.0819566287394433e-152),
        Point2::new(1.0819566287394433e-152, 1.0819566283087838e-152),
    )
    .unwrap();
    let pe = Isometry2::from_parts(
        Translation2::new(0.003725290298461913, 1.0819566287376334e-152),
        UnitComplex::new_unchecked(Complex::new(1.0, 2.9043573198943777e-144)),
    );
    let ps = Isometry2::translation(0.003725290298461913, -1.8073025892346626e-258);
    check_pair::<f64>(&e, &pe, &s, &ps);
    let rotated = Isometry2::from_parts(
        ps.translation,
        UnitComplex::new_unchecked(Complex::new(0.5623792861784312, 0.8268793977826743)),
    );
    check_pair::<f64>(&e, &pe, &s, &rotated);
}

/// constructors (minimised: `fuzz/regressions/constructors-nan-direction.bin`):
/// a support query along `(NaN, 2^64)`. `amax()` skips the NaN, so the
/// direction passed as finite and the circle's support point was NaN; the
/// documented answer for a non-finite direction is the centre.
#[test]
fn support_along_a_nan_direction() {
    let pose = Isometry2::new(Vector2::new(3.0f32, -2.0), 0.3);
    for dir in [
        Vector2::new(f32::NAN, 1.8446744e19),
        Vector2::new(1.0, f32::NAN),
        Vector2::new(f32::NAN, f32::NAN),
    ] {
        let c = Circle::new(1459.6875f32).unwrap();
        assert_eq!(
            c.support_point(&pose, &dir),
            Point2::new(3.0, -2.0),
            "{dir:?}"
        );
        let capsule = Capsule::new(Point2::new(-1.0f32, 0.0), Point2::new(1.0, 0.0), 0.5).unwrap();
        let p = capsule.support_point(&pose, &dir);
        assert!(p.x.is_finite() && p.y.is_finite(), "{p:?} along {dir:?}");
    }
    // The sphere's support skipped NaN the same way.
    use kasanari::nalgebra::{Isometry3, Point3, Vector3};
    let s = Sphere::new(2.0f32).unwrap();
    let pose = Isometry3::translation(1.0f32, 2.0, 3.0);
    let dir = Vector3::new(f32::NAN, 1.0, 0.0);
    assert_eq!(s.support_point(&pose, &dir), Point3::new(1.0, 2.0, 3.0));
}

/// world_ops: a circle that just touches a box 1e-38 wide (f32). The boolean
/// compares squared lengths, the depth `r − |d|` uses the length itself, one
/// ulp longer than `r`: the depth was −1.5e-5 (now clamped to zero, as the
/// other kernels do). Same in the sphere–cuboid kernel.
#[test]
fn circle_touching_a_tiny_box_has_no_negative_depth() {
    let h = Vector2::new(1.1754944e-38f32, 1.1754944e-38);
    let obb = Obb::new(h).unwrap();
    let po = pose32(0.853021, 0.5218765, 1.1754944e-38, 1.1754944e-38);
    let c = Circle::new(195.26274f32).unwrap();
    let pc = pose32(0.19364096, 0.9810725, 0.0, 195.26274);
    check_pair::<f32>(&obb, &po, &c, &pc);
}
