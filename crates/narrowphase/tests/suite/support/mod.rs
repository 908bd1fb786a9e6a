//! Test support shared by the narrowphase tests (on top of the shape crate's
//! `common` module, which every including file declares as `mod common`):
//! the exact f64 support function of a 2D `Spec`, the seeded runner over every
//! ordered pair of 2D kinds, the touching shapes at exactly representable
//! coordinates, and the 3D shape descriptions and their generators.

#![allow(dead_code)]

use nalgebra::{Isometry2, Isometry3, Point2, Point3, Vector2, Vector3};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use shape::prelude::*;

use crate::common::{KINDS, Spec, pose, spec_of};

// ------------------------------------------------------------------- 2D

/// `max p · d` over the shape placed at `pose = [x, y, angle]`, exact in f64
/// from the parameters (an `Aabb` ignores the angle).
pub fn support(s: &Spec, pose: [f64; 3], d: [f64; 2]) -> f64 {
    let angle = if matches!(s, Spec::Aabb(..)) {
        0.0
    } else {
        pose[2]
    };
    let (sn, cs) = angle.sin_cos();
    let l = [cs * d[0] + sn * d[1], -sn * d[0] + cs * d[1]];
    let dot = |p: &[f64; 2]| p[0] * l[0] + p[1] * l[1];
    let len = (l[0] * l[0] + l[1] * l[1]).sqrt();
    let most = |v: &[[f64; 2]]| v.iter().map(dot).fold(f64::NEG_INFINITY, f64::max);
    let local = match s {
        Spec::Point(x, y) => dot(&[*x, *y]),
        Spec::Segment(a, b) => most(&[*a, *b]),
        Spec::Circle(r) => r * len,
        Spec::Aabb(a, b) => most(&[*a, [b[0], a[1]], *b, [a[0], b[1]]]),
        Spec::Obb(x, y) => x * l[0].abs() + y * l[1].abs(),
        Spec::Triangle(t) => most(t),
        Spec::Polygon(p) => most(p),
        Spec::Capsule(a, b, r) => most(&[*a, *b]) + r * len,
        Spec::Ellipse(a, b) => ((a * l[0]).powi(2) + (b * l[1]).powi(2)).sqrt(),
        Spec::RoundedPolygon(p, r) => most(p) + r * len,
    };
    local + pose[0] * d[0] + pose[1] * d[1]
}

/// How far B must move along the unit `d` to stop overlapping A (negative:
/// the gap along `d`).
pub fn overlap(sa: &Spec, pa: [f64; 3], sb: &Spec, pb: [f64; 3], d: [f64; 2]) -> f64 {
    support(sa, pa, d) + support(sb, pb, [-d[0], -d[1]])
}

/// A seeded runner for one ordered pair of kinds: every run checks the same
/// cases. `PROPTEST_CASES` (deep runs) is the total over the 100 ordered pairs.
pub fn runner(cases: u32) -> TestRunner {
    let pairs = (KINDS * KINDS) as u32;
    let config = Config {
        cases: shape::testing::cases(cases * pairs).div_ceil(pairs),
        failure_persistence: None,
        ..Config::default()
    };
    TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha))
}

/// One case of [`every_ordered_pair`]: the two shapes, their poses (within
/// `[-4, 4]²`), and a value of the caller's extra strategy.
pub type Case<X> = (Spec, Spec, [f64; 3], [f64; 3], X);

/// Runs `body` on `cases` random cases of every ordered pair of the ten 2D
/// kinds, each case with a value drawn from `extra()`.
pub fn every_ordered_pair<S: Strategy>(
    cases: u32,
    extra: impl Fn() -> S,
    body: impl Fn(Case<S::Value>) -> Result<(), TestCaseError>,
) {
    for i in 0..KINDS {
        for j in 0..KINDS {
            let strategy = (spec_of(i), spec_of(j), pose(4.0), pose(4.0), extra());
            if let Err(e) = runner(cases).run(&strategy, &body) {
                panic!("kinds ({i}, {j}): {e}");
            }
        }
    }
}

/// One shape of each kind, each reaching exactly 1 along +x and -x from its
/// origin (the point: 0), so that two of them touch when their origins are
/// `reach(a) + reach(b)` apart along x.
pub fn touching_shapes<T: Real>() -> Vec<(Box<dyn Shape<T>>, f64)> {
    let p = |x: f64, y: f64| nalgebra::Point2::new(T::lit(x), T::lit(y));
    let l = T::lit;
    vec![
        (Box::new(Point::origin()), 0.0),
        (
            Box::new(Segment::new(p(-1.0, 0.0), p(1.0, 0.0)).unwrap()),
            1.0,
        ),
        (Box::new(Circle::new(T::one()).unwrap()), 1.0),
        (
            Box::new(Aabb::new(p(-1.0, -0.5), p(1.0, 0.5)).unwrap()),
            1.0,
        ),
        (
            Box::new(Obb::new(Vector2::new(T::one(), l(0.25))).unwrap()),
            1.0,
        ),
        (
            Box::new(Triangle::new(p(-1.0, -1.0), p(1.0, 0.0), p(-1.0, 1.0)).unwrap()),
            1.0,
        ),
        (
            Box::new(
                ConvexPolygon::new(&[p(1.0, 0.0), p(0.0, 1.0), p(-1.0, 0.0), p(0.0, -1.0)])
                    .unwrap(),
            ),
            1.0,
        ),
        (
            Box::new(Capsule::new(p(0.0, -0.5), p(0.0, 0.5), T::one()).unwrap()),
            1.0,
        ),
        (
            Box::new(Ellipse::new(Vector2::new(T::one(), l(0.5))).unwrap()),
            1.0,
        ),
        (
            Box::new(RoundedPolygon::rounded_box(Vector2::new(T::one(), l(0.5)), l(0.25)).unwrap()),
            1.0,
        ),
    ]
}

// ------------------------------------------------------------ user kinds

/// A hexagon tile: its own kind, with separating axes and a support function.
#[derive(Debug)]
pub struct Hex<T: Real>(pub ConvexPolygon<T>);

impl<T: Real> Hex<T> {
    pub const KIND: ShapeKind = ShapeKind::custom(0);
    pub fn new(r: f64) -> Self {
        Self(ConvexPolygon::new(&hexagon::<T>(r)).unwrap())
    }
}

/// The corners of a regular hexagon of circumradius `r`, the first on +x.
pub fn hexagon<T: Real>(r: f64) -> Vec<Point2<T>> {
    (0..6)
        .map(|k| {
            let a = std::f64::consts::PI / 3.0 * k as f64;
            Point2::new(T::lit(r * a.cos()), T::lit(r * a.sin()))
        })
        .collect()
}

impl<T: Real> Shape<T> for Hex<T> {
    fn kind(&self) -> ShapeKind {
        Self::KIND
    }
    fn as_any(&self) -> &dyn core::any::Any {
        self
    }
    fn bounding_box(&self, pose: &Isometry2<T>) -> BoundingBox2<T> {
        self.0.bounding_box(pose)
    }
    fn as_convex(&self) -> Option<&dyn Convex<T>> {
        Some(&self.0)
    }
    fn as_separating_axes(&self) -> Option<&dyn SupportSeparatingAxes<T>> {
        Some(&self.0)
    }
}

/// A ring (not convex): nothing generic applies.
#[derive(Debug)]
pub struct Ring;

impl<T: Real> Shape<T> for Ring {
    fn kind(&self) -> ShapeKind {
        ShapeKind::custom(2)
    }
    fn as_any(&self) -> &dyn core::any::Any {
        self
    }
    fn bounding_box(&self, pose: &Isometry2<T>) -> BoundingBox2<T> {
        let c = Point2::from(pose.translation.vector);
        BoundingBox2::new(c - Vector2::repeat(T::one()), c + Vector2::repeat(T::one()))
    }
}

// ------------------------------------------------------------------- 3D

/// A 3D shape description, built in either precision.
#[derive(Debug, Clone, Copy)]
pub enum Spec3 {
    Sphere(f64),
    Cuboid([f64; 3]),
    /// `min` and size; off-centre in its local frame.
    Aabb3([f64; 3], [f64; 3]),
}

pub fn v3<T: Real>(x: f64, y: f64, z: f64) -> Vector3<T> {
    Vector3::new(T::lit(x), T::lit(y), T::lit(z))
}

pub fn build3<T: Real>(s: &Spec3) -> Box<dyn Shape3<T>> {
    let v = |a: [f64; 3]| v3::<T>(a[0], a[1], a[2]);
    match *s {
        Spec3::Sphere(r) => Box::new(Sphere::new(T::lit(r)).unwrap()),
        Spec3::Cuboid(h) => Box::new(Cuboid::new(v(h)).unwrap()),
        Spec3::Aabb3(m, e) => {
            let lo = Point3::from(v(m));
            let hi = Point3::from(v([m[0] + e[0], m[1] + e[1], m[2] + e[2]]));
            Box::new(Aabb3::new(lo, hi).unwrap())
        }
    }
}

/// Pose from a translation and a scaled rotation axis.
pub fn iso3<T: Real>(p: &[f64; 6]) -> Isometry3<T> {
    Isometry3::new(v3::<T>(p[0], p[1], p[2]), v3::<T>(p[3], p[4], p[5]))
}

/// The built-in 3D kinds, as `Spec3` indices.
pub const KINDS3: usize = 3;

/// A random shape of kind `k`: a sphere (radius 0.2 to 1.5), a cuboid (half
/// extents 0.2 to 1.5) or an off-centre `Aabb3`.
pub fn spec3_of(k: usize) -> BoxedStrategy<Spec3> {
    let size = || prop::array::uniform3(0.2..1.5_f64);
    match k {
        0 => (0.2..1.5_f64).prop_map(Spec3::Sphere).boxed(),
        1 => size().prop_map(Spec3::Cuboid).boxed(),
        _ => (
            prop::array::uniform3(-1.0..1.0_f64),
            prop::array::uniform3(0.4..3.0_f64),
        )
            .prop_map(|(m, e)| Spec3::Aabb3(m, e))
            .boxed(),
    }
}

/// A random 3D shape of any kind.
pub fn spec3() -> impl Strategy<Value = Spec3> {
    prop_oneof![spec3_of(0), spec3_of(1), spec3_of(2)]
}

/// A pose: translation in `[-1.5, 1.5]³`, any rotation.
pub fn pose3() -> impl Strategy<Value = [f64; 6]> {
    (
        prop::array::uniform3(-1.5..1.5_f64),
        prop::array::uniform3(-3.2..3.2_f64),
    )
        .prop_map(|(t, r)| [t[0], t[1], t[2], r[0], r[1], r[2]])
}

/// A rigid motion: translation in `[-5, 5]³`, any rotation.
pub fn motion3() -> impl Strategy<Value = [f64; 6]> {
    (
        prop::array::uniform3(-5.0..5.0_f64),
        prop::array::uniform3(-3.2..3.2_f64),
    )
        .prop_map(|(t, r)| [t[0], t[1], t[2], r[0], r[1], r[2]])
}
