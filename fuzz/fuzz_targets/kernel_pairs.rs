//! Pair kernels: two valid shapes of any of the 9 built-in 2D kinds (or of
//! the 3 built-in 3D kinds) built from bounded finite numbers (sizes in
//! [1e-3, 1e3], local coordinates and positions in [-1e3, 1e3], any angle;
//! in a quarter of the inputs everything is scaled by 2^k, k in [-40, 40],
//! and the pair may be moved far from the origin) at two poses, through
//! `DispatchTable::<T>::shared()` and `DispatchTable3::<T>::shared()` for
//! f32 and f64, in both orders. No dispatch error and no panic;
//! `intersects(a, b) == intersects(b, a)`; `contact(a, b).is_some() ==
//! intersects(a, b)`; every contact finite with no NaN, depth ≥ 0, a unit
//! normal; `contact(b, a)` has the same depth bit for bit, the exactly negated
//! normal and the points swapped.
#![no_main]

use arbitrary::Arbitrary;
use kasanari_fuzz::{check_contact, check_contact3};
use libfuzzer_sys::fuzz_target;
use nalgebra::{Isometry2, Isometry3, Point2, Point3, Vector2, Vector3};
use narrowphase::DispatchTable;
use narrowphase::dim3::DispatchTable3;
use shape::{
    Aabb, Aabb3, Capsule, Circle, ConvexPolygon, Cuboid, Ellipse, Obb, Point, Real, Segment, Shape,
    Shape3, Sphere, Triangle,
};

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Kind2 {
    Point,
    Segment,
    Circle,
    Aabb,
    Obb,
    Triangle,
    Polygon,
    Capsule,
    Ellipse,
}

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Kind3 {
    Sphere,
    Cuboid,
    Aabb3,
}

#[derive(Arbitrary, Debug, Clone)]
struct Desc {
    kind: Kind2,
    n: [f64; 8],
    extra: Vec<[f64; 2]>,
    pose: [f64; 3],
}

#[derive(Arbitrary, Debug, Clone)]
struct Desc3 {
    kind: Kind3,
    n: [f64; 6],
    pose: [f64; 6],
}

#[derive(Arbitrary, Debug)]
struct Input {
    scale: u8,
    far: Option<[f64; 3]>,
    pair: Pair,
}

#[derive(Arbitrary, Debug)]
enum Pair {
    D2(Desc, Desc),
    D3(Desc3, Desc3),
}

/// A uniform number in [0, 1) from the bits of `x`.
fn frac(x: f64) -> f64 {
    (x.to_bits() >> 11) as f64 / (1u64 << 53) as f64
}

/// `x` itself when it is in [-1e3, 1e3], else a number of that range.
fn coord(x: f64) -> f64 {
    if x.is_finite() && x.abs() <= 1e3 {
        x
    } else {
        -1e3 + 2e3 * frac(x)
    }
}

/// `|x|` when it is in [1e-3, 1e3], else a log-uniform number of that range.
fn size(x: f64) -> f64 {
    if x.is_finite() && (1e-3..=1e3).contains(&x.abs()) {
        x.abs()
    } else {
        10f64.powf(-3.0 + 6.0 * frac(x))
    }
}

struct Scaled {
    s: f64,
}

impl Scaled {
    fn c<T: Real>(&self, x: f64) -> T {
        T::lit(coord(x) * self.s)
    }
    fn z<T: Real>(&self, x: f64) -> T {
        T::lit(size(x) * self.s)
    }
    fn p<T: Real>(&self, x: f64, y: f64) -> Point2<T> {
        Point2::new(self.c(x), self.c(y))
    }
}

fn build2<T: Real>(d: &Desc, k: &Scaled) -> Option<Box<dyn Shape<T>>> {
    let n = d.n;
    let b = |r: Result<Box<dyn Shape<T>>, _>| r.ok();
    fn bx<T: Real, S: Shape<T>>(s: S) -> Box<dyn Shape<T>> {
        Box::new(s)
    }
    match d.kind {
        Kind2::Point => b(Point::new(k.p(n[0] * 1e-3, n[1] * 1e-3)).map(bx)),
        Kind2::Segment => b(Segment::new(k.p(n[0], n[1]), k.p(n[2], n[3])).map(bx)),
        Kind2::Circle => b(Circle::new(k.z(n[0])).map(bx)),
        Kind2::Aabb => {
            let min = k.p(n[0], n[1]);
            let max = min + Vector2::new(k.z(n[2]), k.z(n[3]));
            b(Aabb::new(min, max).map(bx))
        }
        Kind2::Obb => b(Obb::new(Vector2::new(k.z(n[0]), k.z(n[1]))).map(bx)),
        Kind2::Triangle => {
            b(Triangle::new(k.p(n[0], n[1]), k.p(n[2], n[3]), k.p(n[4], n[5])).map(bx))
        }
        Kind2::Polygon => {
            let mut pts: Vec<Point2<T>> = (0..4).map(|i| k.p(n[2 * i], n[2 * i + 1])).collect();
            pts.extend(d.extra.iter().take(12).map(|q| k.p(q[0], q[1])));
            b(ConvexPolygon::from_hull(&pts).map(bx))
        }
        Kind2::Capsule => b(Capsule::new(k.p(n[0], n[1]), k.p(n[2], n[3]), k.z(n[4])).map(bx)),
        Kind2::Ellipse => b(Ellipse::new(Vector2::new(k.z(n[0]), k.z(n[1]))).map(bx)),
    }
}

fn build3<T: Real>(d: &Desc3, k: &Scaled) -> Option<Box<dyn Shape3<T>>> {
    let n = d.n;
    match d.kind {
        Kind3::Sphere => Sphere::new(k.z(n[0]))
            .ok()
            .map(|s| Box::new(s) as Box<dyn Shape3<T>>),
        Kind3::Cuboid => Cuboid::new(Vector3::new(k.z(n[0]), k.z(n[1]), k.z(n[2])))
            .ok()
            .map(|s| Box::new(s) as _),
        Kind3::Aabb3 => {
            let min = Point3::new(k.c(n[0]), k.c(n[1]), k.c(n[2]));
            let max = min + Vector3::new(k.z(n[3]), k.z(n[4]), k.z(n[5]));
            Aabb3::new(min, max).ok().map(|s| Box::new(s) as _)
        }
    }
}

fn pose2<T: Real>(p: &[f64; 3], k: &Scaled, far: [f64; 2]) -> Isometry2<T> {
    Isometry2::new(
        Vector2::new(
            T::lit(coord(p[0]) * k.s + far[0]),
            T::lit(coord(p[1]) * k.s + far[1]),
        ),
        T::lit(coord(p[2])),
    )
}

fn pose3<T: Real>(p: &[f64; 6], k: &Scaled, far: [f64; 3]) -> Isometry3<T> {
    let t = |i: usize| T::lit(coord(p[i]) * k.s + far[i]);
    let r = |i: usize| T::lit(coord(p[i]) * 1e-2);
    Isometry3::new(
        Vector3::new(t(0), t(1), t(2)),
        Vector3::new(r(3), r(4), r(5)),
    )
}

fn pair2<T: Real>(a: &Desc, b: &Desc, k: &Scaled, far: [f64; 2]) {
    let (Some(sa), Some(sb)) = (build2::<T>(a, k), build2::<T>(b, k)) else {
        return;
    };
    let (pa, pb) = (pose2::<T>(&a.pose, k, far), pose2::<T>(&b.pose, k, far));
    let (sa, sb) = (sa.as_ref(), sb.as_ref());
    let table = DispatchTable::<T>::shared();
    let what = (sa, &pa, sb, &pb);
    let hit_ab = table.intersects(sa, &pa, sb, &pb).expect("built-in pair");
    let hit_ba = table.intersects(sb, &pb, sa, &pa).expect("built-in pair");
    assert_eq!(hit_ab, hit_ba, "intersects is not symmetric: {what:?}");
    let c_ab = table.contact(sa, &pa, sb, &pb).expect("built-in pair");
    let c_ba = table.contact(sb, &pb, sa, &pa).expect("built-in pair");
    assert_eq!(
        c_ab.is_some(),
        hit_ab,
        "contact vs intersects: {c_ab:?} {what:?}"
    );
    assert_eq!(
        c_ba.is_some(),
        hit_ba,
        "contact vs intersects (b, a): {c_ba:?} {what:?}"
    );
    if let (Some(x), Some(y)) = (c_ab, c_ba) {
        check_contact(&x, &what);
        assert_eq!(
            x.depth, y.depth,
            "depth differs by order: {x:?} {y:?} {what:?}"
        );
        assert_eq!(
            x.normal.into_inner(),
            -y.normal.into_inner(),
            "normals: {x:?} {y:?}"
        );
        assert_eq!(
            (x.point_a, x.point_b),
            (y.point_b, y.point_a),
            "points: {x:?} {y:?}"
        );
    }
}

fn pair3<T: Real>(a: &Desc3, b: &Desc3, k: &Scaled, far: [f64; 3]) {
    let (Some(sa), Some(sb)) = (build3::<T>(a, k), build3::<T>(b, k)) else {
        return;
    };
    let (pa, pb) = (pose3::<T>(&a.pose, k, far), pose3::<T>(&b.pose, k, far));
    let (sa, sb) = (sa.as_ref(), sb.as_ref());
    let table = DispatchTable3::<T>::shared();
    let what = (sa, &pa, sb, &pb);
    let hit_ab = table.intersects(sa, &pa, sb, &pb).expect("built-in pair");
    let hit_ba = table.intersects(sb, &pb, sa, &pa).expect("built-in pair");
    assert_eq!(hit_ab, hit_ba, "intersects is not symmetric: {what:?}");
    let c_ab = table.contact(sa, &pa, sb, &pb).expect("built-in pair");
    let c_ba = table.contact(sb, &pb, sa, &pa).expect("built-in pair");
    assert_eq!(
        c_ab.is_some(),
        hit_ab,
        "contact vs intersects: {c_ab:?} {what:?}"
    );
    assert_eq!(
        c_ba.is_some(),
        hit_ba,
        "contact vs intersects (b, a): {c_ba:?} {what:?}"
    );
    if let (Some(x), Some(y)) = (c_ab, c_ba) {
        check_contact3(&x, &what);
        assert_eq!(
            x.depth, y.depth,
            "depth differs by order: {x:?} {y:?} {what:?}"
        );
        assert_eq!(
            x.normal.into_inner(),
            -y.normal.into_inner(),
            "normals: {x:?} {y:?}"
        );
        assert_eq!(
            (x.point_a, x.point_b),
            (y.point_b, y.point_a),
            "points: {x:?} {y:?}"
        );
    }
}

fuzz_target!(|input: Input| {
    // Three inputs in four at scale 1; else 2^k, k in [-40, 40].
    let s = if input.scale < 192 {
        1.0
    } else {
        2f64.powi(i32::from(input.scale % 81) - 40)
    };
    let k = Scaled { s };
    // Far from the origin: up to 1e6 (f32 spacing 0.06 there) times the scale.
    let far = input
        .far
        .map_or([0.0; 3], |f| f.map(|x| coord(x) * 1e3 * s));
    match &input.pair {
        Pair::D2(a, b) => {
            pair2::<f32>(a, b, &k, [far[0], far[1]]);
            pair2::<f64>(a, b, &k, [far[0], far[1]]);
        }
        Pair::D3(a, b) => {
            pair3::<f32>(a, b, &k, far);
            pair3::<f64>(a, b, &k, far);
        }
    }
});
