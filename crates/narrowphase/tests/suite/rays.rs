//! The single-shape entry points, `cast_ray` / `project_point` (2D) and
//! `cast_ray3` / `project_point3` (3D): dispatch, user shapes, bad and
//! extreme input, and far from the origin. The geometry of the built-in
//! answers is property-tested in `crates/shape/tests/suite/ray_cast.rs`; here:
//!
//! - every built-in kind answers through the entry point exactly as its own
//!   implementation does;
//! - a user convex shape (support function and containment only) is cast
//!   through the GJK fallback and agrees with the same polygon as a built-in
//!   `ConvexPolygon` within a tolerance calibrated by the exact answer's own
//!   sensitivity (the rays shifted sideways by `δ`, module notes of
//!   `gjk::ray_cast`); its projections agree too, inside and outside;
//! - a user shape's own `as_ray_cast` / `as_point_query` is used, a shape
//!   without any view is `UnsupportedShape`, a lying one `KindMismatch`;
//! - NaN or infinite origins, directions, poses and points, zero directions,
//!   negative or NaN `max_toi` give the right typed error; arbitrary floats
//!   never panic, and every answer is finite;
//! - far from the origin (f32 1e5, f64 1e12) on exactly representable data,
//!   the same time of impact bit for bit, and the same projection moved.

use crate::common;

use core::any::Any;

use common::*;
use nalgebra::{Isometry2, Isometry3, Point2, Point3, Vector2, Vector3};
use narrowphase::dim3::{cast_ray3, project_point3};
use narrowphase::gjk::gjk_tolerance;
use narrowphase::{DispatchError, cast_ray, project_point};
use num_traits::Float;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use shape::prelude::*;
use shape::testing::test_tolerance;

// ------------------------------------------------------------ user shapes

/// A gem: a convex polygon of its own kind, with nothing but a support
/// function and a containment test (written here, independently of the
/// built-in polygon).
#[derive(Debug)]
struct Gem<T: Real> {
    corners: Vec<Point2<T>>,
}

impl<T: Real> Gem<T> {
    const KIND: ShapeKind = ShapeKind::custom(5);
}

impl<T: Real> Shape<T> for Gem<T> {
    fn kind(&self) -> ShapeKind {
        Self::KIND
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn bounding_box(&self, pose: &Isometry2<T>) -> BoundingBox2<T> {
        let world: Vec<Point2<T>> = self.corners.iter().map(|c| pose * c).collect();
        BoundingBox2::from_points(&world).unwrap()
    }
    fn as_convex(&self) -> Option<&dyn Convex<T>> {
        Some(self)
    }
}

impl<T: Real> Convex<T> for Gem<T> {
    fn support_point(&self, pose: &Isometry2<T>, dir: &Vector2<T>) -> Point2<T> {
        let local = pose.rotation.inverse_transform_vector(dir);
        let mut best = self.corners[0];
        for c in &self.corners[1..] {
            if c.coords.dot(&local) > best.coords.dot(&local) {
                best = *c;
            }
        }
        pose * best
    }
    fn contains_point(&self, pose: &Isometry2<T>, p: &Point2<T>) -> bool {
        let q = pose.inverse_transform_point(p);
        let n = self.corners.len();
        (0..n).all(|i| {
            let (a, b) = (self.corners[i], self.corners[(i + 1) % n]);
            (b - a).perp(&(q - a)) >= T::zero()
        })
    }
}

/// A beacon that answers both queries itself (with answers no geometry
/// would give, so that the test sees they are its own).
#[derive(Debug)]
struct Beacon;

impl Shape<f64> for Beacon {
    fn kind(&self) -> ShapeKind {
        ShapeKind::custom(6)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn bounding_box(&self, pose: &Isometry2<f64>) -> BoundingBox2<f64> {
        let c = Point2::from(pose.translation.vector);
        BoundingBox2::new(c, c)
    }
    fn as_ray_cast(&self) -> Option<&dyn RayCast<f64>> {
        Some(self)
    }
    fn as_point_query(&self) -> Option<&dyn PointQuery<f64>> {
        Some(self)
    }
}

impl RayCast<f64> for Beacon {
    fn cast_ray(
        &self,
        _: &Isometry2<f64>,
        ray: &Ray<f64>,
        max_toi: f64,
        _: bool,
    ) -> Option<RayHit<f64>> {
        (max_toi >= 42.0).then(|| RayHit {
            toi: 42.0,
            point: ray.point_at(42.0),
            normal: nalgebra::Unit::new_normalize(-ray.dir),
        })
    }
}

impl PointQuery<f64> for Beacon {
    fn project_point(
        &self,
        pose: &Isometry2<f64>,
        _: &Point2<f64>,
        solid: bool,
    ) -> PointProjection<f64> {
        PointProjection {
            point: Point2::from(pose.translation.vector),
            is_inside: solid,
        }
    }
}

/// A ring: no convex view, no queries of its own.
#[derive(Debug)]
struct Ring;

impl Shape<f64> for Ring {
    fn kind(&self) -> ShapeKind {
        ShapeKind::custom(7)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn bounding_box(&self, pose: &Isometry2<f64>) -> BoundingBox2<f64> {
        let c = Point2::from(pose.translation.vector);
        BoundingBox2::new(c - Vector2::repeat(1.0), c + Vector2::repeat(1.0))
    }
}

/// Claims to be a circle, hands out something else.
#[derive(Debug)]
struct Liar;

impl Shape<f64> for Liar {
    fn kind(&self) -> ShapeKind {
        ShapeKind::CIRCLE
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn bounding_box(&self, pose: &Isometry2<f64>) -> BoundingBox2<f64> {
        Ring.bounding_box(pose)
    }
}

/// A game entity that collides as a built-in box (its kind and data).
#[derive(Debug)]
struct Player {
    body: Obb<f32>,
}

impl Shape<f32> for Player {
    fn kind(&self) -> ShapeKind {
        ShapeKind::OBB
    }
    fn as_any(&self) -> &dyn Any {
        &self.body
    }
    fn bounding_box(&self, pose: &Isometry2<f32>) -> BoundingBox2<f32> {
        self.body.bounding_box(pose)
    }
}

/// 3D: a pillar answering ray casts itself as an upright cuboid, and a
/// shape with nothing.
#[derive(Debug)]
struct Pillar(Cuboid<f64>);

impl Shape3<f64> for Pillar {
    fn kind(&self) -> ShapeKind {
        ShapeKind::custom(8)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn bounding_box(&self, pose: &Isometry3<f64>) -> BoundingBox3<f64> {
        self.0.bounding_box(pose)
    }
    fn as_ray_cast(&self) -> Option<&dyn RayCast3<f64>> {
        Some(&self.0)
    }
}

#[derive(Debug)]
struct Fog;

impl Shape3<f64> for Fog {
    fn kind(&self) -> ShapeKind {
        ShapeKind::custom(9)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn bounding_box(&self, pose: &Isometry3<f64>) -> BoundingBox3<f64> {
        let c = Point3::from(pose.translation.vector);
        BoundingBox3::new(c, c)
    }
}

// ------------------------------------------------------- known behaviour

#[test]
fn user_shapes_and_errors() {
    let o = Isometry2::identity();
    let ray = Ray::new(Point2::new(-5.0, 0.0), Vector2::new(1.0, 0.0));
    // Its own answers are used.
    let hit = cast_ray(&Beacon, &o, &ray, 100.0, true).unwrap().unwrap();
    assert_eq!(hit.toi, 42.0);
    assert_eq!(cast_ray(&Beacon, &o, &ray, 41.0, true), Ok(None));
    let pr = project_point(
        &Beacon,
        &Isometry2::translation(3.0, 4.0),
        &Point2::origin(),
        true,
    );
    assert_eq!(pr.unwrap().point, Point2::new(3.0, 4.0));
    // Nothing to answer with.
    let err = cast_ray(&Ring, &o, &ray, 1.0, true).unwrap_err();
    assert_eq!(
        err,
        DispatchError::UnsupportedShape {
            kind: ShapeKind::custom(7)
        }
    );
    assert!(err.to_string().contains("as_ray_cast"));
    assert_eq!(
        project_point(&Ring, &o, &Point2::origin(), true),
        Err(DispatchError::UnsupportedShape {
            kind: ShapeKind::custom(7)
        })
    );
    // A built-in kind with other data.
    assert_eq!(
        cast_ray(&Liar, &o, &ray, 1.0, true),
        Err(DispatchError::KindMismatch {
            kind: ShapeKind::CIRCLE
        })
    );
    assert_eq!(
        project_point(&Liar, &o, &Point2::origin(), false),
        Err(DispatchError::KindMismatch {
            kind: ShapeKind::CIRCLE
        })
    );
    // An entity that is a built-in box answers as the box.
    let player = Player {
        body: Obb::new(Vector2::new(0.5, 1.0)).unwrap(),
    };
    let pose = Isometry2::translation(3.0f32, 0.0);
    let r = Ray::new(Point2::new(0.0f32, 0.0), Vector2::new(1.0, 0.0));
    assert_eq!(
        cast_ray(&player, &pose, &r, 10.0, true),
        cast_ray(&player.body, &pose, &r, 10.0, true)
    );
    assert_eq!(
        cast_ray(&player, &pose, &r, 10.0, true)
            .unwrap()
            .unwrap()
            .toi,
        2.5
    );
    // 3D: its own ray cast, else unsupported (no 3D fallback); a lying kind.
    let pillar = Pillar(Cuboid::new(Vector3::new(1.0, 1.0, 4.0)).unwrap());
    let o3 = Isometry3::identity();
    let r3 = Ray3::new(Point3::new(-3.0, 0.0, 0.0), Vector3::x());
    assert_eq!(
        cast_ray3(&pillar, &o3, &r3, 10.0, true)
            .unwrap()
            .unwrap()
            .toi,
        2.0
    );
    assert_eq!(
        project_point3(&pillar, &o3, &Point3::origin(), true),
        Err(DispatchError::UnsupportedShape {
            kind: ShapeKind::custom(8)
        })
    );
    assert_eq!(
        cast_ray3(&Fog, &o3, &r3, 10.0, true),
        Err(DispatchError::UnsupportedShape {
            kind: ShapeKind::custom(9)
        })
    );
}

#[test]
fn gjk_fallback_known_values() {
    // A square gem, turned a quarter: the same square.
    let gem = Gem::<f64> {
        corners: vec![
            Point2::new(-1.0, -1.0),
            Point2::new(1.0, -1.0),
            Point2::new(1.0, 1.0),
            Point2::new(-1.0, 1.0),
        ],
    };
    let pose = Isometry2::new(Vector2::new(10.0, 0.0), std::f64::consts::FRAC_PI_2);
    let ray = Ray::new(Point2::new(0.0, 0.5), Vector2::new(2.0, 0.0));
    let hit = cast_ray(&gem, &pose, &ray, f64::INFINITY, true)
        .unwrap()
        .unwrap();
    assert!(
        (hit.toi - 4.5).abs() < 1e-12 && (hit.normal.x + 1.0).abs() < 1e-12,
        "{hit:?}"
    );
    // From inside: solid at 0, hollow at the far side.
    let inside = Ray::new(Point2::new(10.0, 0.5), Vector2::new(0.0, 1.0));
    assert_eq!(
        cast_ray(&gem, &pose, &inside, 9.0, true)
            .unwrap()
            .unwrap()
            .toi,
        0.0
    );
    let exit = cast_ray(&gem, &pose, &inside, 9.0, false).unwrap().unwrap();
    assert!(
        (exit.toi - 0.5).abs() < 1e-12 && (exit.normal.y + 1.0).abs() < 1e-12,
        "{exit:?}"
    );
    // Projections.
    let out = project_point(&gem, &pose, &Point2::new(13.0, 0.25), true).unwrap();
    assert!(!out.is_inside && (out.point - Point2::new(11.0, 0.25)).norm() < 1e-12);
    let wall = project_point(&gem, &pose, &Point2::new(10.75, 0.0), false).unwrap();
    assert!(
        wall.is_inside && (wall.point - Point2::new(11.0, 0.0)).norm() < 1e-9,
        "{wall:?}"
    );
}

/// Bad input of every kind, for every built-in shape and both precisions.
fn bad_input<T: Real>() {
    let nan = T::nan();
    let inf = T::infinity();
    let o = Isometry2::identity();
    let good = Ray::new(
        Point2::new(T::lit(-9.0), T::zero()),
        Vector2::new(T::one(), T::zero()),
    );
    let specs = [
        Spec::Point(0.0, 0.0),
        Spec::Segment([0.0, -1.0], [0.0, 1.0]),
        Spec::Circle(1.0),
        Spec::Aabb([-1.0, -1.0], [1.0, 1.0]),
        Spec::Obb(1.0, 2.0),
        Spec::Triangle([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]),
        Spec::Polygon(vec![[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0]]),
        Spec::Capsule([0.0, -1.0], [0.0, 1.0], 0.5),
        Spec::Ellipse(2.0, 1.0),
    ];
    for s in &specs {
        let shape = build::<T>(s);
        let shape = shape.as_ref();
        let bad_rays = [
            Ray::new(Point2::new(nan, T::zero()), good.dir),
            Ray::new(Point2::new(T::zero(), -inf), good.dir),
            Ray::new(good.origin, Vector2::new(inf, T::zero())),
            Ray::new(good.origin, Vector2::new(T::one(), nan)),
            Ray::new(good.origin, Vector2::zeros()),
        ];
        for r in &bad_rays {
            assert_eq!(
                cast_ray(shape, &o, r, T::one(), true),
                Err(DispatchError::InvalidRay),
                "{s:?} {r:?}"
            );
        }
        for m in [-T::one(), nan, -inf, -T::min_positive_value()] {
            assert_eq!(
                cast_ray(shape, &o, &good, m, true),
                Err(DispatchError::InvalidMaxToi)
            );
        }
        assert!(cast_ray(shape, &o, &good, inf, true).is_ok());
        assert!(cast_ray(shape, &o, &good, T::zero(), false).is_ok());
        let bad_pose = Isometry2::new(Vector2::new(nan, T::zero()), T::zero());
        assert_eq!(
            cast_ray(shape, &bad_pose, &good, T::one(), true),
            Err(DispatchError::NonFinitePose)
        );
        let bad_angle = Isometry2::new(Vector2::zeros(), inf);
        assert_eq!(
            cast_ray(shape, &bad_angle, &good, T::one(), true),
            Err(DispatchError::NonFinitePose)
        );
        for p in [Point2::new(nan, T::zero()), Point2::new(T::zero(), inf)] {
            assert_eq!(
                project_point(shape, &o, &p, true),
                Err(DispatchError::NonFinitePoint)
            );
        }
        assert_eq!(
            project_point(shape, &bad_pose, &Point2::origin(), true),
            Err(DispatchError::NonFinitePose)
        );
    }
    // 3D.
    let o3 = Isometry3::identity();
    let good3 = Ray3::new(
        Point3::new(T::lit(-9.0), T::zero(), T::zero()),
        Vector3::x(),
    );
    let shapes3: [Box<dyn Shape3<T>>; 3] = [
        Box::new(Sphere::new(T::one()).unwrap()),
        Box::new(Cuboid::new(Vector3::repeat(T::one())).unwrap()),
        Box::new(Aabb3::from_half_extents(Vector3::repeat(T::one())).unwrap()),
    ];
    for s in &shapes3 {
        let s = s.as_ref();
        assert_eq!(
            cast_ray3(s, &o3, &good3, T::lit(8.0), true)
                .unwrap()
                .unwrap()
                .toi,
            T::lit(8.0)
        );
        let zero = Ray3::new(good3.origin, Vector3::zeros());
        assert_eq!(
            cast_ray3(s, &o3, &zero, T::one(), true),
            Err(DispatchError::InvalidRay)
        );
        assert_eq!(
            cast_ray3(s, &o3, &good3, nan, true),
            Err(DispatchError::InvalidMaxToi)
        );
        let bad = Isometry3::translation(T::zero(), nan, T::zero());
        assert_eq!(
            cast_ray3(s, &bad, &good3, T::one(), true),
            Err(DispatchError::NonFinitePose)
        );
        let p = Point3::new(T::zero(), T::zero(), inf);
        assert_eq!(
            project_point3(s, &o3, &p, true),
            Err(DispatchError::NonFinitePoint)
        );
    }
}
shape::for_each_precision!(bad, bad_input);

/// Extreme but finite input: correct answers, or the documented refusals.
fn extremes<T: Real>() {
    let ball = Circle::new(T::two()).unwrap();
    let o = Isometry2::identity();
    let x = |v: T| Vector2::new(v, T::zero());
    let from = Point2::new(T::lit(-10.0), T::zero());
    // Tiny (normal) and huge directions: the time scales exactly.
    for k in [-20, -10, 10, 20, 30] {
        let s = T::lit(2f64.powi(k));
        let h = cast_ray(&ball, &o, &Ray::new(from, x(s)), T::infinity(), true)
            .unwrap()
            .unwrap();
        assert_eq!(h.toi, T::lit(8.0) / s, "2^{k}");
        assert_eq!(h.point, Point2::new(-T::two(), T::zero()));
    }
    // A subnormal direction: the time is beyond the float range, no hit.
    let sub = T::min_positive_value() * T::epsilon();
    assert_eq!(
        cast_ray(&ball, &o, &Ray::new(from, x(sub)), T::infinity(), true),
        Ok(None)
    );
    // The largest direction: a tiny time.
    let h = cast_ray(
        &ball,
        &o,
        &Ray::new(from, x(<T as Float>::max_value())),
        T::infinity(),
        true,
    );
    let h = h.unwrap().unwrap();
    assert!(h.toi > T::zero() && h.toi.is_finite());
    assert!((h.point - Point2::new(-T::two(), T::zero())).norm() <= T::lit(16.0) * T::epsilon());
    // A huge max_toi.
    assert!(
        cast_ray(
            &ball,
            &o,
            &Ray::new(from, x(T::one())),
            <T as Float>::max_value(),
            true
        )
        .unwrap()
        .is_some()
    );
    // An origin at 1e30: f64 answers; f32 (beyond max_query_coordinate)
    // refuses a ray towards the shape and answers one away from it.
    let far = Point2::new(T::lit(-1e30), T::zero());
    let toward = cast_ray(&ball, &o, &Ray::new(far, x(T::one())), T::infinity(), true);
    let away = cast_ray(&ball, &o, &Ray::new(far, x(-T::one())), T::infinity(), true);
    assert_eq!(away, Ok(None));
    if T::lit(1e30) > shape::tolerance::max_query_coordinate::<T>() {
        assert_eq!(toward, Err(DispatchError::QueryOutOfRange));
        assert_eq!(
            project_point(&ball, &o, &far, true),
            Err(DispatchError::QueryOutOfRange)
        );
    } else {
        let h = toward.unwrap().unwrap();
        assert_eq!(h.toi, T::lit(1e30) - T::two());
        let pr = project_point(&ball, &o, &far, true).unwrap();
        assert_eq!(pr.point, Point2::new(-T::two(), T::zero()));
    }
    // The shape far out too: relative to it, the same rule.
    let pose = Isometry2::translation(T::lit(1e30), T::zero());
    let near = Ray::new(
        Point2::new(T::lit(1e30) - T::lit(1e3), T::zero()),
        x(T::one()),
    );
    match cast_ray(&ball, &pose, &near, T::infinity(), true) {
        Ok(Some(h)) => assert!(h.toi.is_finite() && h.point.x.is_finite()),
        other => assert_eq!(other, Err(DispatchError::QueryOutOfRange)),
    }
}
shape::for_each_precision!(extreme, extremes);

/// 3D far from the origin on exactly representable data: the same time of
/// impact bit for bit, the same projection moved.
fn far3<T: Real>() {
    let m = max_offset::<T>();
    let shapes: [Box<dyn Shape3<T>>; 3] = [
        Box::new(Sphere::new(T::lit(1.5)).unwrap()),
        Box::new(Cuboid::new(Vector3::new(T::one(), T::lit(0.5), T::lit(2.0))).unwrap()),
        Box::new(
            Aabb3::new(
                Point3::new(T::lit(-1.0), T::zero(), T::lit(0.5)),
                Point3::new(T::one(), T::two(), T::lit(3.0)),
            )
            .unwrap(),
        ),
    ];
    let turn = Vector3::new(T::lit(0.3), T::lit(-0.7), T::lit(1.1));
    let mut hits = 0;
    for offset in [Vector3::new(m, -m, m / 2.0), Vector3::new(-m, 0.0, m)] {
        // Offsets rounded to the grid of the far floats: exact in T.
        let h = spacing::<T>(2.0 * m);
        let o = offset.map(|x| T::lit((x / h).round() * h));
        for s in &shapes {
            for (from, dir) in [
                ([-6.0, 0.25, 0.5], [1.0, 0.0, 0.0]),
                ([0.5, 4.0, 1.0], [-0.25, -1.0, 0.5]),
                ([0.0, 0.5, 1.0], [0.0, 0.0, 1.0]),
            ] {
                let from = Point3::new(T::lit(from[0]), T::lit(from[1]), T::lit(from[2]));
                let dir = Vector3::new(T::lit(dir[0]), T::lit(dir[1]), T::lit(dir[2]));
                let near = Isometry3::new(Vector3::zeros(), turn);
                let far = Isometry3::new(o, turn);
                for solid in [true, false] {
                    let a = cast_ray3(
                        s.as_ref(),
                        &near,
                        &Ray3::new(from, dir),
                        T::infinity(),
                        solid,
                    )
                    .unwrap();
                    let b = cast_ray3(
                        s.as_ref(),
                        &far,
                        &Ray3::new(from + o, dir),
                        T::infinity(),
                        solid,
                    )
                    .unwrap();
                    assert_eq!(a.map(|x| x.toi), b.map(|x| x.toi), "{s:?} {from:?}");
                    if let (Some(a), Some(b)) = (a, b) {
                        hits += 1;
                        assert!(((a.point + o) - b.point).amax() <= T::lit(h), "{a:?} {b:?}");
                        assert_eq!(a.normal, b.normal);
                    }
                    let pa = project_point3(s.as_ref(), &near, &from, solid).unwrap();
                    let pb = project_point3(s.as_ref(), &far, &(from + o), solid).unwrap();
                    assert_eq!(pa.is_inside, pb.is_inside);
                    assert!(((pa.point + o) - pb.point).amax() <= T::lit(h));
                }
            }
        }
    }
    assert!(hits >= 20, "{hits} hits of 36 casts");
}
shape::for_each_precision!(far_3d, far3);

/// Any float at all, special values included.
fn any_float() -> impl Strategy<Value = f64> {
    prop_oneof![
        3 => prop::num::f64::ANY,
        1 => Just(f64::NAN),
        1 => Just(f64::INFINITY),
        1 => Just(0.0),
        1 => Just(f64::MAX),
        1 => Just(-f64::MAX),
        1 => Just(f64::MIN_POSITIVE / 4.0),
        1 => Just(1e30),
        1 => Just(-1e-30),
        4 => -10.0f64..10.0,
    ]
}

/// Arbitrary numbers: never a panic, an answer with finite numbers or one
/// of the documented errors.
fn arbitrary_prop<T: Real>(s: Spec, v: [f64; 9], solid: bool) -> Result<(), TestCaseError> {
    let shape = build::<T>(&s);
    let t = |i: usize| T::lit(v[i]);
    let pose = Isometry2::new(Vector2::new(t(0), t(1)), t(2));
    let ray = Ray::new(Point2::new(t(3), t(4)), Vector2::new(t(5), t(6)));
    match cast_ray(shape.as_ref(), &pose, &ray, t(7), solid) {
        Ok(Some(h)) => {
            prop_assert!(h.toi >= T::zero() && h.toi <= t(7) && h.toi.is_finite());
            prop_assert!(h.point.x.is_finite() && h.point.y.is_finite());
            prop_assert!(Float::abs(h.normal.norm() - T::one()) < T::lit(1e-3));
        }
        Ok(None) => {}
        Err(e) => prop_assert!(matches!(
            e,
            DispatchError::InvalidRay
                | DispatchError::InvalidMaxToi
                | DispatchError::NonFinitePose
                | DispatchError::QueryOutOfRange
        )),
    }
    match project_point(shape.as_ref(), &pose, &Point2::new(t(3), t(8)), solid) {
        Ok(p) => prop_assert!(p.point.x.is_finite() && p.point.y.is_finite()),
        Err(e) => prop_assert!(matches!(
            e,
            DispatchError::NonFinitePoint
                | DispatchError::NonFinitePose
                | DispatchError::QueryOutOfRange
        )),
    }
    Ok(())
}

// ------------------------------------------------------------ properties

/// The entry points answer every built-in kind exactly as its own
/// implementation.
fn dispatch_prop<T: Real>(
    s: Spec,
    pose: [f64; 3],
    o: [f64; 2],
    angle: f64,
    solid: bool,
) -> Result<(), TestCaseError> {
    let shape = build::<T>(&s);
    let iso = iso::<T>(pose);
    let ray = Ray::new(
        pt::<T>(o),
        Vector2::new(T::lit(angle.cos()), T::lit(angle.sin())),
    );
    let own = shape
        .as_ray_cast()
        .unwrap()
        .cast_ray(&iso, &ray, T::infinity(), solid);
    prop_assert_eq!(
        cast_ray(shape.as_ref(), &iso, &ray, T::infinity(), solid),
        Ok(own)
    );
    let own = shape
        .as_point_query()
        .unwrap()
        .project_point(&iso, &ray.origin, solid);
    prop_assert_eq!(
        project_point(shape.as_ref(), &iso, &ray.origin, solid),
        Ok(own)
    );
    Ok(())
}

/// A polygon spec's corners, counter-clockwise as the built-in stores them.
fn polygon_of<T: Real>(s: &Spec) -> Option<ConvexPolygon<T>> {
    match s {
        Spec::Polygon(p) => {
            ConvexPolygon::new(&p.iter().map(|q| pt::<T>(*q)).collect::<Vec<_>>()).ok()
        }
        Spec::Triangle(t) => {
            ConvexPolygon::new(&t.iter().map(|q| pt::<T>(*q)).collect::<Vec<_>>()).ok()
        }
        _ => None,
    }
}

/// The GJK fallback on a user polygon against the exact built-in polygon.
fn gjk_prop<T: Real>(
    s: Spec,
    pose: [f64; 3],
    o: [f64; 2],
    (target, spread): (f64, f64),
    solid: bool,
) -> Result<(), TestCaseError> {
    let Some(poly) = polygon_of::<T>(&s) else {
        return Ok(());
    };
    let gem = Gem {
        corners: poly.vertices().to_vec(),
    };
    let iso = iso::<T>(pose);
    let scale = extent(&s) + pose[0].abs() + pose[1].abs() + o[0].abs() + o[1].abs() + 1.0;
    let delta = gjk_tolerance::<T>() * T::lit(scale);
    // Aimed at a point of the polygon's boundary pulled towards its centre
    // (a hit) or pushed away from it (mostly a miss).
    let v = poly.vertices();
    let corners = v.len();
    let k = (target * corners as f64) as usize % corners;
    let centre = v.iter().fold(Vector2::zeros(), |c, p| c + p.coords) / T::lit(corners as f64);
    let edge = v[k] + (v[(k + 1) % corners] - v[k]) * T::lit((target * corners as f64).fract());
    let aim = iso * (Point2::from(centre) + (edge.coords - centre) * T::lit(1.0 + spread));
    let origin = pt::<T>(o);
    let dir = aim - origin;
    prop_assume!(dir.norm() > T::lit(1e-3));
    let ray = Ray::new(origin, dir);
    // GJK decides to δ: a case is clear when the exact answer is the same
    // for the ray moved sideways by 4δ either way (then the ray passes
    // farther than δ from the shape, or through it), and the shape is much
    // larger than δ.
    if extent(&s) <= 256.0 * delta.as_f64() {
        return Ok(());
    }
    let side = Vector2::new(-dir.y, dir.x).normalize() * delta * T::lit(4.0);
    let exact = |r: &Ray<T>| cast_ray(&poly, &iso, r, T::infinity(), solid).unwrap();
    let (e0, e1, e2) = (
        exact(&ray),
        exact(&Ray::new(origin + side, dir)),
        exact(&Ray::new(origin - side, dir)),
    );
    let g = cast_ray(&gem, &iso, &ray, T::infinity(), solid).unwrap();
    let clear = e0.is_some() == e1.is_some() && e0.is_some() == e2.is_some();
    if clear {
        prop_assert_eq!(g.is_some(), e0.is_some(), "gjk {:?} vs exact {:?}", g, e0);
    }
    if let (Some(a), Some(b), true) = (e0, g, clear) {
        let spread = [e1, e2]
            .iter()
            .flatten()
            .map(|h| Float::abs(h.toi - a.toi))
            .fold(T::zero(), Float::max);
        let tol = (delta * T::lit(64.0) + test_tolerance::<T>(T::lit(scale))) / dir.norm() + spread;
        prop_assert!(
            Float::abs(a.toi - b.toi) <= tol,
            "toi {:?} vs exact {:?} (tol {:?})",
            b.toi,
            a.toi,
            tol
        );
    }
    // Projections, inside and outside, solid and hollow.
    let q = pt::<T>(o);
    let (pe, pg) = (
        project_point(&poly, &iso, &q, solid).unwrap(),
        project_point(&gem, &iso, &q, solid).unwrap(),
    );
    prop_assert_eq!(pe.is_inside, pg.is_inside);
    let tol = delta * T::lit(64.0) + test_tolerance::<T>(T::lit(scale));
    prop_assert!(
        Float::abs((pe.point - q).norm() - (pg.point - q).norm()) <= tol,
        "projection {:?} vs exact {:?}",
        pg,
        pe
    );
    Ok(())
}

/// Far from the origin on exactly representable data: the same answers.
fn far_prop<T: Real>(
    s: Spec,
    pose: [f64; 3],
    o: [f64; 2],
    angle: f64,
    theta: f64,
) -> Result<(), TestCaseError> {
    let m = max_offset::<T>();
    let offset = [m * theta.cos(), m * theta.sin()];
    let h = spacing::<T>(2.0 * (m + 64.0));
    let snap = |x: f64| (x / h).round() * h;
    // The shape's own numbers on the grid too (a point shape's world
    // position is its local one turned: keep it unturned).
    let s = snap_spec(&s, &snap);
    let angle_of_pose = if matches!(s, Spec::Point(..)) {
        0.0
    } else {
        pose[2]
    };
    let near = [snap(pose[0]), snap(pose[1]), angle_of_pose];
    let far = [
        snap(pose[0] + offset[0]),
        snap(pose[1] + offset[1]),
        angle_of_pose,
    ];
    let shift = [far[0] - near[0], far[1] - near[1]];
    let o_near = [snap(o[0]), snap(o[1])];
    let o_far = [o_near[0] + shift[0], o_near[1] + shift[1]];
    for v in [far[0], far[1], o_far[0], o_far[1]] {
        prop_assert_eq!(T::lit(v).as_f64(), v, "not representable");
    }
    // Snapping may flatten a thin shape: skip those.
    let Some(shape) = try_build::<T>(&s) else {
        return Ok(());
    };
    let dir = Vector2::new(T::lit(snap(angle.cos())), T::lit(snap(angle.sin())));
    prop_assume!(dir != Vector2::zeros());
    for solid in [true, false] {
        let a = cast_ray(
            shape.as_ref(),
            &iso::<T>(near),
            &Ray::new(pt::<T>(o_near), dir),
            T::infinity(),
            solid,
        )
        .unwrap();
        let b = cast_ray(
            shape.as_ref(),
            &iso::<T>(far),
            &Ray::new(pt::<T>(o_far), dir),
            T::infinity(),
            solid,
        )
        .unwrap();
        prop_assert_eq!(a.map(|x| x.toi), b.map(|x| x.toi), "{:?} vs {:?}", a, b);
        if let (Some(a), Some(b)) = (a, b) {
            let moved = [a.point.x.as_f64() + shift[0], a.point.y.as_f64() + shift[1]];
            prop_assert!(
                (moved[0] - b.point.x.as_f64()).abs() <= h
                    && (moved[1] - b.point.y.as_f64()).abs() <= h
            );
            prop_assert_eq!(a.normal, b.normal);
        }
        let pa = project_point(shape.as_ref(), &iso::<T>(near), &pt::<T>(o_near), solid).unwrap();
        let pb = project_point(shape.as_ref(), &iso::<T>(far), &pt::<T>(o_far), solid).unwrap();
        prop_assert_eq!(pa.is_inside, pb.is_inside);
        let moved = [
            pa.point.x.as_f64() + shift[0],
            pa.point.y.as_f64() + shift[1],
        ];
        prop_assert!(
            (moved[0] - pb.point.x.as_f64()).abs() <= h
                && (moved[1] - pb.point.y.as_f64()).abs() <= h
        );
    }
    Ok(())
}

/// `build`, for specs that may no longer be valid.
fn try_build<T: Real>(s: &Spec) -> Option<Box<dyn Shape<T>>> {
    let v = |p: &[[f64; 2]]| p.iter().map(|q| pt::<T>(*q)).collect::<Vec<_>>();
    let ok = match s {
        Spec::Segment(a, b) => Segment::new(pt::<T>(*a), pt(*b)).is_ok(),
        Spec::Aabb(a, b) => Aabb::new(pt::<T>(*a), pt(*b)).is_ok(),
        Spec::Triangle(t) => Triangle::new(pt::<T>(t[0]), pt(t[1]), pt(t[2])).is_ok(),
        Spec::Polygon(p) => ConvexPolygon::new(&v(p)).is_ok(),
        Spec::Capsule(a, b, r) => Capsule::new(pt::<T>(*a), pt(*b), T::lit(*r)).is_ok(),
        Spec::RoundedPolygon(p, r) => RoundedPolygon::new(&v(p), T::lit(*r)).is_ok(),
        _ => true,
    };
    ok.then(|| build::<T>(s))
}

/// The spec with every coordinate and size on the grid (sizes at least one
/// step).
fn snap_spec(s: &Spec, snap: &dyn Fn(f64) -> f64) -> Spec {
    let p = |q: [f64; 2]| [snap(q[0]), snap(q[1])];
    let size = |x: f64| snap(x).max(snap(1.0) / 64.0).max(1e-300);
    match s {
        Spec::Point(x, y) => Spec::Point(snap(*x), snap(*y)),
        Spec::Segment(a, b) => Spec::Segment(p(*a), p(*b)),
        Spec::Circle(r) => Spec::Circle(size(*r)),
        Spec::Aabb(a, b) => Spec::Aabb(p(*a), p(*b)),
        Spec::Obb(x, y) => Spec::Obb(size(*x), size(*y)),
        Spec::Triangle(t) => Spec::Triangle([p(t[0]), p(t[1]), p(t[2])]),
        Spec::Polygon(v) => Spec::Polygon(v.iter().map(|q| p(*q)).collect()),
        Spec::Capsule(a, b, r) => Spec::Capsule(p(*a), p(*b), size(*r)),
        Spec::Ellipse(a, b) => Spec::Ellipse(size(*a), size(*b)),
        Spec::RoundedPolygon(v, r) => {
            Spec::RoundedPolygon(v.iter().map(|q| p(*q)).collect(), size(*r))
        }
    }
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

/// Polygon and triangle specs (those the gem can copy).
fn polygonal_spec() -> impl Strategy<Value = Spec> {
    prop_oneof![spec_of(5), spec_of(6)]
}

for_both!(128, dispatch(s in spec(), p in pose(20.0), o in [-15.0f64..15.0, -15.0f64..15.0],
    a in -3.2f64..3.2, solid in any::<bool>()) => dispatch_prop);
for_both!(256, gjk_fallback(s in polygonal_spec(), p in pose(20.0), o in [-15.0f64..15.0, -15.0f64..15.0],
    target in (0.0f64..1.0, -0.5f64..0.8), solid in any::<bool>()) => gjk_prop);
for_both!(128, arbitrary(s in spec(), v in prop::array::uniform9(any_float()), solid in any::<bool>())
    => arbitrary_prop);
for_both!(128, far(s in spec(), p in pose(4.0), o in [-8.0f64..8.0, -8.0f64..8.0], a in -3.2f64..3.2,
    theta in -3.2f64..3.2) => far_prop);
