//! Property tests for every built-in 2D shape, each run for f32 and f64:
//! support points, projections, bounding boxes and containment against slow
//! f64 references built from the shapes' parameters (see `common`), and
//! constructors fed arbitrary floats.

use crate::common;

use common::*;
use nalgebra::{Point2, Vector2};
use proptest::prelude::*;
use shape::prelude::*;
use shape::testing::test_tolerance;

/// Tolerance for a value of magnitude `scale` computed in `T` and compared
/// with an f64 reference: f32 ≈ 1.2e-4 · scale, f64 ≈ 2.3e-13 · scale.
fn tol<T: Real>(scale: f64) -> f64 {
    test_tolerance::<T>(T::lit(scale)).as_f64() * 4.0
}

fn scale(s: &Spec, pose: [f64; 3]) -> f64 {
    extent(s) + pose[0].abs() + pose[1].abs() + 1.0
}

fn unit(angle: f64) -> [f64; 2] {
    [angle.cos(), angle.sin()]
}

fn dot(p: [f64; 2], d: [f64; 2]) -> f64 {
    p[0] * d[0] + p[1] * d[1]
}

fn f(p: Point2<impl Real>) -> [f64; 2] {
    [p.x.as_f64(), p.y.as_f64()]
}

fn support_prop<T: Real>(
    s: Spec,
    pose: [f64; 3],
    angle: f64,
    len: f64,
) -> Result<(), TestCaseError> {
    let shape = build::<T>(&s);
    let convex = shape
        .as_convex()
        .expect("every built-in 2D shape is convex");
    let iso = iso::<T>(pose);
    let d = unit(angle);
    let dir = Vector2::new(T::lit(d[0] * len), T::lit(d[1] * len));
    let sp = f(convex.support_point(&iso, &dir));
    let t = tol::<T>(scale(&s, pose));
    // Inside the bounding box.
    let bb = shape.bounding_box(&iso);
    prop_assert!(sp[0] >= bb.min.x.as_f64() - t && sp[0] <= bb.max.x.as_f64() + t);
    prop_assert!(sp[1] >= bb.min.y.as_f64() - t && sp[1] <= bb.max.y.as_f64() + t);
    // On the shape.
    prop_assert!(signed_distance(&s, pose, sp) <= t + sampling_error(&s));
    // Maximal over the sampled boundary.
    let best = world_boundary(&s, pose)
        .into_iter()
        .map(|p| dot(p, d))
        .fold(f64::NEG_INFINITY, f64::max);
    prop_assert!(
        dot(sp, d) >= best - t,
        "support {:?} gives {} < sampled {}",
        sp,
        dot(sp, d),
        best
    );
    Ok(())
}

fn projection_prop<T: Real>(s: Spec, pose: [f64; 3], angle: f64) -> Result<(), TestCaseError> {
    let shape = build::<T>(&s);
    let iso = iso::<T>(pose);
    let d = unit(angle);
    let axis = Vector2::new(T::lit(d[0]), T::lit(d[1]));
    let interval = match (
        shape.as_separating_axes(),
        shape.as_any().downcast_ref::<Ellipse<T>>(),
    ) {
        (Some(sat), _) => sat.project(&iso, &axis),
        (None, Some(e)) => e.project(&iso, &axis),
        (None, None) => return Err(TestCaseError::fail("no projection for this shape")),
    };
    let (lo, hi) = (interval.min.as_f64(), interval.max.as_f64());
    let t = tol::<T>(scale(&s, pose));
    let samples: Vec<f64> = world_boundary(&s, pose)
        .into_iter()
        .map(|p| dot(p, d))
        .collect();
    let smin = samples.iter().copied().fold(f64::INFINITY, f64::min);
    let smax = samples.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    // Contains every sampled projection...
    prop_assert!(
        lo <= smin + t && hi >= smax - t,
        "[{lo}, {hi}] vs samples [{smin}, {smax}]"
    );
    // ...and is tight.
    let slack = t + sampling_error(&s);
    prop_assert!(
        lo >= smin - slack && hi <= smax + slack,
        "[{lo}, {hi}] not tight vs [{smin}, {smax}]"
    );
    // Its ends are the support values in ±axis.
    let convex = shape.as_convex().unwrap();
    prop_assert!((dot(f(convex.support_point(&iso, &axis)), d) - hi).abs() <= t);
    prop_assert!((dot(f(convex.support_point(&iso, &-axis)), d) - lo).abs() <= t);
    Ok(())
}

fn bounding_box_prop<T: Real>(s: Spec, pose: [f64; 3]) -> Result<(), TestCaseError> {
    let shape = build::<T>(&s);
    let bb = shape.bounding_box(&iso::<T>(pose));
    prop_assert!(bb.is_valid());
    let w = world_boundary(&s, pose);
    let t = tol::<T>(scale(&s, pose));
    let slack = t + sampling_error(&s);
    for axis in 0..2 {
        let smin = w.iter().map(|p| p[axis]).fold(f64::INFINITY, f64::min);
        let smax = w.iter().map(|p| p[axis]).fold(f64::NEG_INFINITY, f64::max);
        let (lo, hi) = (bb.min[axis].as_f64(), bb.max[axis].as_f64());
        prop_assert!(
            lo <= smin + t && hi >= smax - t,
            "axis {axis}: [{lo}, {hi}] misses [{smin}, {smax}]"
        );
        prop_assert!(
            lo >= smin - slack && hi <= smax + slack,
            "axis {axis}: [{lo}, {hi}] loose vs [{smin}, {smax}]"
        );
    }
    Ok(())
}

fn containment_prop<T: Real>(
    s: Spec,
    pose: [f64; 3],
    offset: [f64; 2],
) -> Result<(), TestCaseError> {
    let shape = build::<T>(&s);
    let iso = iso::<T>(pose);
    // A point around the shape: its extent scales the offset.
    let e = extent(&s) + 0.5;
    let p = [pose[0] + offset[0] * e, pose[1] + offset[1] * e];
    let sd = signed_distance(&s, pose, p);
    let margin = tol::<T>(scale(&s, pose)) + sampling_error(&s);
    prop_assume!(sd.abs() > margin);
    let inside = shape
        .as_convex()
        .unwrap()
        .contains_point(&iso, &Point2::new(T::lit(p[0]), T::lit(p[1])));
    prop_assert_eq!(inside, sd < 0.0, "signed distance {}", sd);
    Ok(())
}

macro_rules! for_both {
    ($name:ident ( $($arg:ident in $strat:expr),* ) => $body:ident) => {
        mod $name {
            use super::*;
            proptest! {
                #[test]
                fn f32($($arg in $strat),*) { $body::<f32>($($arg),*)?; }
                #[test]
                fn f64($($arg in $strat),*) { $body::<f64>($($arg),*)?; }
            }
        }
    };
}

for_both!(support_point(s in spec(), p in pose(50.0), a in -3.2f64..3.2, len in 0.01f64..100.0) => support_prop);
for_both!(projection(s in spec(), p in pose(50.0), a in -3.2f64..3.2) => projection_prop);
for_both!(bounding_box(s in spec(), p in pose(50.0)) => bounding_box_prop);
for_both!(containment(s in spec(), p in pose(50.0), o in [-1.5f64..1.5, -1.5f64..1.5]) => containment_prop);

/// Any float at all, special values included.
fn any_float() -> impl Strategy<Value = f64> {
    prop_oneof![
        3 => prop::num::f64::ANY,
        1 => Just(f64::NAN),
        1 => Just(f64::INFINITY),
        1 => Just(f64::NEG_INFINITY),
        1 => Just(0.0),
        1 => Just(-0.0),
        1 => Just(f64::MAX),
        1 => Just(-f64::MAX),
        1 => Just(f64::MIN_POSITIVE / 4.0),
        2 => -10.0f64..10.0,
    ]
}

/// Every constructor returns `Ok` or `Err` for any input, never panics, and an
/// `Ok` shape answers queries with finite numbers.
fn constructors_prop<T: Real>(v: Vec<f64>) -> Result<(), TestCaseError> {
    let x = |i: usize| T::lit(v[i % v.len()]);
    let p = |i: usize| Point2::new(x(i), x(i + 1));
    let pts: Vec<Point2<T>> = (0..v.len() / 2).map(|i| p(2 * i)).collect();
    let shapes: Vec<Result<Box<dyn Shape<T>>, ShapeError>> = vec![
        Point::new(p(0)).map(|s| Box::new(s) as Box<dyn Shape<T>>),
        Segment::new(p(0), p(2)).map(|s| Box::new(s) as _),
        Circle::new(x(0)).map(|s| Box::new(s) as _),
        Aabb::new(p(0), p(2)).map(|s| Box::new(s) as _),
        Aabb::from_half_extents(Vector2::new(x(1), x(2))).map(|s| Box::new(s) as _),
        Obb::new(Vector2::new(x(0), x(3))).map(|s| Box::new(s) as _),
        Triangle::new(p(0), p(2), p(4)).map(|s| Box::new(s) as _),
        ConvexPolygon::new(&pts).map(|s| Box::new(s) as _),
        ConvexPolygon::from_hull(&pts).map(|s| Box::new(s) as _),
        Capsule::new(p(0), p(2), x(4)).map(|s| Box::new(s) as _),
        Ellipse::new(Vector2::new(x(0), x(1))).map(|s| Box::new(s) as _),
    ];
    let pose = nalgebra::Isometry2::new(Vector2::new(T::lit(3.0), T::lit(-2.0)), T::lit(0.3));
    for s in shapes.into_iter().flatten() {
        let bb = s.bounding_box(&pose);
        // Valid shapes of huge size may overflow to infinity in world space,
        // but never produce NaN.
        prop_assert!(!(bb.min.x.is_nan() || bb.max.y.is_nan()), "{s:?}");
        let sp = s
            .as_convex()
            .unwrap()
            .support_point(&pose, &Vector2::new(T::one(), T::two()));
        prop_assert!(!sp.x.is_nan() && !sp.y.is_nan(), "{s:?}");
        let _ = s
            .as_convex()
            .unwrap()
            .contains_point(&pose, &Point2::origin());
    }
    Ok(())
}

for_both!(constructors_never_panic(v in prop::collection::vec(any_float(), 1..14)) => constructors_prop);
