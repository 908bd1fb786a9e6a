//! Helpers shared by the fuzz targets of `fuzz_targets/`: numbers that the
//! fuzzer steers towards hostile values, shape descriptions built in either
//! precision, and the checks every contact must pass.

use arbitrary::Arbitrary;
use nalgebra::{Isometry2, Isometry3, Point2, Point3, Vector2, Vector3};
use narrowphase::Contact;
use narrowphase::dim3::Contact3;
use num_traits::Float;
use shape::{
    Aabb, Aabb3, Capsule, Circle, ConvexPolygon, Cuboid, Ellipse, Obb, Point, Real, Segment, Shape,
    Shape3, ShapeError, Sphere, Triangle,
};

/// `true` when `T` is `f32` (the precision's raw bits are 32 wide).
pub fn is_f32<T: Real>() -> bool {
    core::mem::size_of::<T>() == 4
}

/// A number as the fuzzer writes it: raw bits (any float of the precision,
/// NaN, infinities, subnormals included), a small exact value, or one of the
/// values that break code most often.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Num {
    /// The precision's raw bits: `f32::from_bits(low 32 bits)` or `f64::from_bits`.
    Bits(u64),
    /// `n / 16`: small exact values, touching configurations.
    Small(i16),
    /// One of [`SPECIAL`].
    Special(u8),
}

/// Values that break numeric code (converted to the precision, where they may
/// round to infinity or zero).
pub const SPECIAL: [f64; 20] = [
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
    0.0,
    -0.0,
    f64::MAX,
    -f64::MAX,
    f64::MIN_POSITIVE,
    5e-324,
    3.4028234663852886e38, // f32::MAX
    -3.4028234663852886e38,
    1.1754943508222875e-38, // f32::MIN_POSITIVE
    1e-45,                  // an f32 subnormal
    1.8446744073709552e19,  // 2^64, past √(f32::MAX)
    1e154,                  // near √(f64::MAX)
    1e300,
    1e-300,
    1.0,
    -1.0,
    1e-7,
];

impl Num {
    /// The number in precision `T`.
    pub fn get<T: Real>(self) -> T {
        match self {
            Self::Bits(b) => {
                if is_f32::<T>() {
                    T::lit(f64::from(f32::from_bits(b as u32)))
                } else {
                    T::lit(f64::from_bits(b))
                }
            }
            Self::Small(n) => T::lit(f64::from(n) / 16.0),
            Self::Special(i) => T::lit(SPECIAL[usize::from(i) % SPECIAL.len()]),
        }
    }
}

/// A 2D shape from hostile numbers (constructors may refuse them).
#[derive(Arbitrary, Debug, Clone)]
pub enum RawShape {
    /// `Point::new(p)`.
    Point([Num; 2]),
    /// `Segment::new(a, b)`.
    Segment([Num; 2], [Num; 2]),
    /// `Circle::new(r)`.
    Circle(Num),
    /// `Aabb::new(min, max)`.
    Aabb([Num; 2], [Num; 2]),
    /// `Aabb::from_half_extents(h)`.
    AabbHalf([Num; 2]),
    /// `Obb::new(h)`.
    Obb([Num; 2]),
    /// `Triangle::new(a, b, c)`.
    Triangle([[Num; 2]; 3]),
    /// `ConvexPolygon::new(vertices)`.
    Polygon(Vec<[Num; 2]>),
    /// `ConvexPolygon::from_hull(points)`.
    Hull(Vec<[Num; 2]>),
    /// `Capsule::new(a, b, r)`.
    Capsule([Num; 2], [Num; 2], Num),
    /// `Ellipse::new(radii)`.
    Ellipse([Num; 2]),
}

fn p2<T: Real>(p: &[Num; 2]) -> Point2<T> {
    Point2::new(p[0].get(), p[1].get())
}

fn v2<T: Real>(p: &[Num; 2]) -> Vector2<T> {
    Vector2::new(p[0].get(), p[1].get())
}

/// Boxes a built shape.
pub fn boxed<T: Real, S: Shape<T>>(
    r: Result<S, ShapeError>,
) -> Result<Box<dyn Shape<T>>, ShapeError> {
    r.map(|s| Box::new(s) as Box<dyn Shape<T>>)
}

impl RawShape {
    /// Runs the shape's constructor in precision `T`.
    ///
    /// # Errors
    /// The constructor's error.
    pub fn build<T: Real>(&self) -> Result<Box<dyn Shape<T>>, ShapeError> {
        match self {
            Self::Point(p) => boxed(Point::new(p2(p))),
            Self::Segment(a, b) => boxed(Segment::new(p2(a), p2(b))),
            Self::Circle(r) => boxed(Circle::new(r.get())),
            Self::Aabb(a, b) => boxed(Aabb::new(p2(a), p2(b))),
            Self::AabbHalf(h) => boxed(Aabb::from_half_extents(v2(h))),
            Self::Obb(h) => boxed(Obb::new(v2(h))),
            Self::Triangle([a, b, c]) => boxed(Triangle::new(p2(a), p2(b), p2(c))),
            Self::Polygon(v) => boxed(ConvexPolygon::new(&points(v))),
            Self::Hull(v) => boxed(ConvexPolygon::from_hull(&points(v))),
            Self::Capsule(a, b, r) => boxed(Capsule::new(p2(a), p2(b), r.get())),
            Self::Ellipse(r) => boxed(Ellipse::new(v2(r))),
        }
    }
}

fn points<T: Real>(v: &[[Num; 2]]) -> Vec<Point2<T>> {
    v.iter().take(64).map(p2).collect()
}

/// A 3D shape from hostile numbers.
#[derive(Arbitrary, Debug, Clone)]
pub enum RawShape3 {
    /// `Sphere::new(r)`.
    Sphere(Num),
    /// `Cuboid::new(h)`.
    Cuboid([Num; 3]),
    /// `Aabb3::new(min, max)`.
    Aabb3([Num; 3], [Num; 3]),
}

fn p3<T: Real>(p: &[Num; 3]) -> Point3<T> {
    Point3::new(p[0].get(), p[1].get(), p[2].get())
}

impl RawShape3 {
    /// Runs the shape's constructor in precision `T`.
    ///
    /// # Errors
    /// The constructor's error.
    pub fn build<T: Real>(&self) -> Result<Box<dyn Shape3<T>>, ShapeError> {
        match self {
            Self::Sphere(r) => Sphere::new(r.get()).map(|s| Box::new(s) as Box<dyn Shape3<T>>),
            Self::Cuboid(h) => Cuboid::new(p3::<T>(h).coords).map(|s| Box::new(s) as _),
            Self::Aabb3(a, b) => Aabb3::new(p3(a), p3(b)).map(|s| Box::new(s) as _),
        }
    }
}

/// A 2D pose from hostile numbers: translation and angle.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub struct RawPose(pub [Num; 3]);

impl RawPose {
    /// The pose (it may hold NaN or infinities).
    pub fn get<T: Real>(&self) -> Isometry2<T> {
        Isometry2::new(
            Vector2::new(self.0[0].get(), self.0[1].get()),
            self.0[2].get(),
        )
    }
}

/// A 3D pose from hostile numbers: translation and scaled rotation axis.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub struct RawPose3(pub [Num; 6]);

impl RawPose3 {
    /// The pose (it may hold NaN or infinities).
    pub fn get<T: Real>(&self) -> Isometry3<T> {
        let n = |i: usize| self.0[i].get::<T>();
        Isometry3::new(
            Vector3::new(n(0), n(1), n(2)),
            Vector3::new(n(3), n(4), n(5)),
        )
    }
}

/// The tolerance on a unit vector's length: 256 ε (as the tests state).
pub fn unit_tolerance<T: Real>() -> T {
    T::lit(256.0) * <T as Float>::epsilon()
}

/// Checks a 2D contact: no NaN anywhere, finite depth `≥ 0`, unit normal,
/// finite points. Panics with `what` and the contact otherwise.
pub fn check_contact<T: Real>(c: &Contact<T>, what: &dyn core::fmt::Debug) {
    let n = c.normal.into_inner();
    let all = [
        n.x,
        n.y,
        c.depth,
        c.point_a.x,
        c.point_a.y,
        c.point_b.x,
        c.point_b.y,
    ];
    assert!(
        all.iter().all(|v| Float::is_finite(*v)),
        "non-finite contact {c:?} for {what:?}"
    );
    assert!(c.depth >= T::zero(), "negative depth {c:?} for {what:?}");
    assert!(
        Float::abs(n.norm() - T::one()) <= unit_tolerance::<T>(),
        "normal not unit {c:?} for {what:?}"
    );
}

/// Checks a 3D contact as [`check_contact`].
pub fn check_contact3<T: Real>(c: &Contact3<T>, what: &dyn core::fmt::Debug) {
    let n = c.normal.into_inner();
    let all = [
        n.x,
        n.y,
        n.z,
        c.depth,
        c.point_a.x,
        c.point_a.y,
        c.point_a.z,
        c.point_b.x,
        c.point_b.y,
        c.point_b.z,
    ];
    assert!(
        all.iter().all(|v| Float::is_finite(*v)),
        "non-finite contact {c:?} for {what:?}"
    );
    assert!(c.depth >= T::zero(), "negative depth {c:?} for {what:?}");
    assert!(
        Float::abs(n.norm() - T::one()) <= unit_tolerance::<T>(),
        "normal not unit {c:?} for {what:?}"
    );
}

/// Whether a dispatch error is one that built-in shapes may give: anything
/// but `Unsupported` and `KindMismatch` (every built-in pair has a kernel and
/// every built-in kind its type); the table refuses poses that are not
/// finite, or whose relative pose overflows, with an error of its own.
pub fn allowed_for_builtins(e: &narrowphase::DispatchError) -> bool {
    !matches!(
        e,
        narrowphase::DispatchError::Unsupported { .. }
            | narrowphase::DispatchError::KindMismatch { .. }
    )
}
