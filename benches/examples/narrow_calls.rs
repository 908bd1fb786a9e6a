//! A driver for counting instructions per narrow-phase query with callgrind:
//! one pair kind, one path, one precision, a batch of prebuilt pairs queried
//! a number of times inside `timed_loop` (the only function measured).
//!
//! ```text
//! cargo build --release -p kasanari-benches --example narrow_calls
//! valgrind --tool=callgrind --toggle-collect='*timed_loop*' \
//!     target/release/examples/narrow_calls circle_circle table f32
//! ```
//!
//! Pairs: `circle_circle`, `obb_obb`, `circle_obb`, `triangle_circle`,
//! `point_obb`, `polygon_polygon` (6 to 8 vertices, as `benches/narrow.rs`),
//! `capsule_obb`, `disc_disc` (a user kind with a registered kernel); the
//! `typed` paths have no polygon or capsule pair. Paths:
//! `typed` (the kernel, `inv_mul` included), `table` (an owned
//! `DispatchTable`), `free` (`narrowphase::intersects`), `contact_table`,
//! `contact_free`, `contact_typed`, `manifold_table`
//! (`Table::contact_manifold`, prediction 0), `parry` (`intersection_test`),
//! `parry_contact`, `parry_manifold` (`contact_manifolds`, prediction 0, each
//! pair keeping its manifolds and workspace from call to call). The program prints the number of queries; callgrind's
//! total divided by it is the instructions per query.
//!
//! With `NARROW_TIME=<passes>` in the environment the program times instead:
//! each pass over the batch is timed with the wall clock and the fastest pass
//! is printed in ns per query (the minimum filters out the other programs of
//! a loaded machine); `NARROW_BATCH=<n>` sets the batch size (default 256).

use std::hint::black_box;

use kasanari::nalgebra::{Isometry2, Point2, Translation2, UnitComplex, Vector2};
use kasanari::narrowphase::{self, Contact, circle, point, sat};
use kasanari::prelude::*;
use kasanari_benches::Rng;

const BATCH: usize = 256;
const ROUNDS: usize = 40;

/// The batch size: `NARROW_BATCH`, else [`BATCH`].
fn batch() -> usize {
    std::env::var("NARROW_BATCH")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(BATCH)
}

/// The number of timed passes, in timing mode (`NARROW_TIME`).
fn time_passes() -> Option<usize> {
    std::env::var("NARROW_TIME")
        .ok()
        .and_then(|v| v.parse().ok())
}

/// A user shape kind: a disc known to the table only by its kernel.
#[derive(Debug)]
struct Disc<T: Real> {
    radius: T,
}

impl<T: Real> Shape<T> for Disc<T> {
    fn kind(&self) -> ShapeKind {
        ShapeKind::custom(7)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn bounding_box(&self, pose: &Isometry2<T>) -> BoundingBox2<T> {
        let c = Point2::from(pose.translation.vector);
        let r = Vector2::repeat(self.radius);
        BoundingBox2::new(c - r, c + r)
    }
}

fn disc_disc<T: Real>(a: &Disc<T>, b: &Disc<T>, m: &Isometry2<T>) -> bool {
    let r = a.radius + b.radius;
    m.translation.vector.norm_squared() <= r * r
}

fn disc_disc_contact<T: Real>(a: &Disc<T>, b: &Disc<T>, m: &Isometry2<T>) -> Option<Contact<T>> {
    circle::circle_circle_contact(
        &Circle::new(a.radius).ok()?,
        &Circle::new(b.radius).ok()?,
        m,
    )
}

/// A shape in plain numbers: 0 point, 1 circle (r), 2 box (hx, hy),
/// 3 triangle (corners), 4 disc (r), 5 polygon (vertices, counter-clockwise),
/// 6 capsule (half length along y, radius).
#[derive(Clone)]
enum Spec {
    Point,
    Circle(f64),
    Obb(f64, f64),
    Triangle([[f64; 2]; 3]),
    Disc(f64),
    Polygon(Vec<[f64; 2]>),
    Capsule(f64, f64),
}

fn spec(rng: &mut Rng, which: u8) -> Spec {
    match which {
        0 => Spec::Point,
        1 => Spec::Circle(rng.range(0.25, 1.5)),
        2 => Spec::Obb(rng.range(0.25, 1.5), rng.range(0.25, 1.5)),
        3 => {
            let phase = rng.range(0.0, std::f64::consts::TAU);
            let mut corner = |i: f64| {
                let t = phase + i * std::f64::consts::TAU / 3.0 + rng.range(-0.5, 0.5);
                let r = rng.range(0.5, 1.5);
                [r * t.cos(), r * t.sin()]
            };
            Spec::Triangle([corner(0.0), corner(1.0), corner(2.0)])
        }
        5 => {
            // 6 to 8 vertices on an ellipse at jittered angles (strictly
            // convex), as `polygon_spec` in `benches/narrow.rs`.
            let n = 6 + (rng.next_u64() % 3) as usize;
            let gap = std::f64::consts::TAU / n as f64;
            let (phase, radius) = (rng.range(0.0, std::f64::consts::TAU), rng.range(0.5, 1.5));
            let (sx, sy) = (rng.range(0.7, 1.3), rng.range(0.7, 1.3));
            Spec::Polygon(
                (0..n)
                    .map(|i| {
                        let t = phase + gap * (i as f64 + rng.range(-0.3, 0.3));
                        [radius * sx * t.cos(), radius * sy * t.sin()]
                    })
                    .collect(),
            )
        }
        6 => Spec::Capsule(rng.range(0.25, 1.0), rng.range(0.2, 0.8)),
        _ => Spec::Disc(rng.range(0.25, 1.5)),
    }
}

fn ours<T: Real>(s: &Spec) -> Box<dyn Shape<T>> {
    let p = |[x, y]: [f64; 2]| Point2::new(T::lit(x), T::lit(y));
    match *s {
        Spec::Point => Box::new(Point::origin()),
        Spec::Circle(r) => Box::new(Circle::new(T::lit(r)).unwrap()),
        Spec::Obb(x, y) => Box::new(Obb::new(Vector2::new(T::lit(x), T::lit(y))).unwrap()),
        Spec::Triangle([a, b, c]) => Box::new(Triangle::new(p(a), p(b), p(c)).unwrap()),
        Spec::Disc(r) => Box::new(Disc { radius: T::lit(r) }),
        Spec::Polygon(ref vs) => {
            let vs: Vec<Point2<T>> = vs.iter().map(|&v| p(v)).collect();
            Box::new(ConvexPolygon::new(&vs).unwrap())
        }
        Spec::Capsule(h, r) => {
            Box::new(Capsule::new(p([0.0, -h]), p([0.0, h]), T::lit(r)).unwrap())
        }
    }
}

type Pair<T> = (
    Box<dyn Shape<T>>,
    Isometry2<T>,
    Box<dyn Shape<T>>,
    Isometry2<T>,
);

/// The pairs and their poses as plain numbers `(x, y, angle)`.
fn specs(name: &str) -> Vec<(Spec, [f64; 3], Spec, [f64; 3])> {
    let (ka, kb) = match name {
        "circle_circle" => (1, 1),
        "obb_obb" => (2, 2),
        "circle_obb" => (1, 2),
        "triangle_circle" => (3, 1),
        "point_obb" => (0, 2),
        "disc_disc" => (4, 4),
        "polygon_polygon" => (5, 5),
        "capsule_obb" => (6, 2),
        _ => panic!("unknown pair {name}"),
    };
    let mut rng = Rng::new(0x5EED);
    (0..batch())
        .map(|_| {
            let (a, b) = (spec(&mut rng, ka), spec(&mut rng, kb));
            let pa = [
                rng.range(-50.0, 50.0),
                rng.range(-50.0, 50.0),
                rng.range(-3.0, 3.0),
            ];
            let (d, dir) = (rng.range(0.0, 3.0), rng.range(-3.0, 3.0));
            let pb = [
                pa[0] + d * dir.cos(),
                pa[1] + d * dir.sin(),
                rng.range(-3.0, 3.0),
            ];
            (a, pa, b, pb)
        })
        .collect()
}

fn pose<T: Real>([x, y, a]: [f64; 3]) -> Isometry2<T> {
    Isometry2::from_parts(
        Translation2::new(T::lit(x), T::lit(y)),
        UnitComplex::from_cos_sin_unchecked(T::lit(a.cos()), T::lit(a.sin())),
    )
}

#[inline(never)]
fn timed_loop<P>(pairs: &[P], mut f: impl FnMut(&P)) {
    for _ in 0..ROUNDS {
        for p in black_box(pairs) {
            f(p);
        }
    }
}

/// [`timed_loop`], or [`fastest_pass`] in timing mode.
fn go<P>(pairs: &[P], f: impl FnMut(&P)) {
    match time_passes() {
        Some(passes) => fastest_pass(pairs, passes, f),
        None => timed_loop(pairs, f),
    }
}

/// Timing mode: the fastest of `passes` timed passes over the batch, printed
/// in ns per query.
#[inline(never)]
fn fastest_pass<P>(pairs: &[P], passes: usize, mut f: impl FnMut(&P)) {
    let mut best = f64::INFINITY;
    for _ in 0..passes {
        let start = std::time::Instant::now();
        for p in black_box(pairs) {
            f(p);
        }
        best = best.min(start.elapsed().as_secs_f64());
    }
    println!("{:.3}", best * 1e9 / pairs.len() as f64);
}

fn typed<T: Real>(name: &str, pairs: &[Pair<T>], contact: bool) {
    fn d<X: 'static, T: Real>(s: &dyn Shape<T>) -> &X {
        s.as_any().downcast_ref().unwrap()
    }
    macro_rules! run {
        ($k:path, $kc:path, $A:ty, $B:ty, $swap:expr) => {{
            let v: Vec<(&$A, Isometry2<T>, &$B, Isometry2<T>)> = pairs
                .iter()
                .map(|(a, pa, b, pb)| {
                    if $swap {
                        (d::<$A, T>(&**b), *pb, d::<$B, T>(&**a), *pa)
                    } else {
                        (d::<$A, T>(&**a), *pa, d::<$B, T>(&**b), *pb)
                    }
                })
                .collect();
            if contact {
                go(&v, |(a, pa, b, pb)| {
                    black_box($kc(a, b, &pa.inv_mul(pb)));
                });
            } else {
                go(&v, |(a, pa, b, pb)| {
                    black_box($k(a, b, &pa.inv_mul(pb)));
                });
            }
        }};
    }
    match name {
        "circle_circle" => run!(
            circle::circle_circle,
            circle::circle_circle_contact,
            Circle<T>,
            Circle<T>,
            false
        ),
        "obb_obb" => run!(sat::obb_obb, sat::obb_obb_contact, Obb<T>, Obb<T>, false),
        "circle_obb" => run!(
            circle::circle_obb,
            circle::circle_obb_contact,
            Circle<T>,
            Obb<T>,
            false
        ),
        "triangle_circle" => run!(
            circle::circle_triangle,
            circle::circle_triangle_contact,
            Circle<T>,
            Triangle<T>,
            true
        ),
        "point_obb" => run!(
            point::point_obb,
            point::point_obb_contact,
            Point<T>,
            Obb<T>,
            false
        ),
        "disc_disc" => run!(disc_disc, disc_disc_contact, Disc<T>, Disc<T>, false),
        _ => panic!("no typed path for {name}"),
    }
}

macro_rules! parry_run {
    ($fn:ident, $parry:ident) => {
        fn $fn(specs: &[(Spec, [f64; 3], Spec, [f64; 3])], mode: u8) {
            use $parry::shape as ps;
            type R = $parry::math::Real;
            let l = |x: f64| x as R;
            let v = |[x, y]: [f64; 2]| $parry::math::Vector::new(l(x), l(y));
            let shape = |s: &Spec| -> Box<dyn ps::Shape> {
                match *s {
                    Spec::Point => Box::new(ps::Ball::new(0.0)),
                    Spec::Circle(r) | Spec::Disc(r) => Box::new(ps::Ball::new(l(r))),
                    Spec::Obb(x, y) => Box::new(ps::Cuboid::new(v([x, y]))),
                    Spec::Triangle([a, b, c]) => Box::new(ps::Triangle::new(v(a), v(b), v(c))),
                    Spec::Polygon(ref vs) => {
                        let vs: Vec<_> = vs.iter().map(|&p| v(p)).collect();
                        Box::new(ps::ConvexPolygon::from_convex_polyline(vs).unwrap())
                    }
                    Spec::Capsule(h, r) => {
                        Box::new(ps::Capsule::new(v([0.0, -h]), v([0.0, h]), l(r)))
                    }
                }
            };
            let pose = |[x, y, a]: [f64; 3]| {
                $parry::math::Pose::from_parts(
                    v([x, y]),
                    $parry::math::Rot2::from_cos_sin_unchecked(l(a.cos()), l(a.sin())),
                )
            };
            let pairs: Vec<_> = specs
                .iter()
                .map(|(a, pa, b, pb)| (shape(a), pose(*pa), shape(b), pose(*pb)))
                .collect();
            if mode == 2 {
                use $parry::query::{
                    ContactManifold, DefaultQueryDispatcher, PersistentQueryDispatcher,
                };
                // Each pair keeps its manifolds and workspace from one call
                // to the next, as an engine does.
                let mut state: Vec<(Vec<ContactManifold<(), ()>>, Option<_>)> =
                    pairs.iter().map(|_| (Vec::new(), None)).collect();
                let indexed: Vec<usize> = (0..pairs.len()).collect();
                go(&indexed, |&i| {
                    let (a, pa, b, pb) = &pairs[i];
                    let (m, w) = &mut state[i];
                    let _ = black_box(DefaultQueryDispatcher.contact_manifolds(
                        &pa.inv_mul(pb),
                        &**a,
                        &**b,
                        0.0,
                        m,
                        w,
                    ));
                });
            } else if mode == 1 {
                go(&pairs, |(a, pa, b, pb)| {
                    let _ = black_box($parry::query::contact(pa, &**a, pb, &**b, 0.0));
                });
            } else {
                go(&pairs, |(a, pa, b, pb)| {
                    let _ = black_box($parry::query::intersection_test(pa, &**a, pb, &**b));
                });
            }
        }
    };
}

parry_run!(parry32, parry2d);
parry_run!(parry64, parry2d_f64);

fn run<T: Real>(name: &str, path: &str) {
    let sp = specs(name);
    let pairs: Vec<Pair<T>> = sp
        .iter()
        .map(|(a, pa, b, pb)| (ours::<T>(a), pose(*pa), ours::<T>(b), pose(*pb)))
        .collect();
    let mut table = DispatchTable::<T>::new();
    let disc = ShapeKind::custom(7);
    table.register(
        disc,
        disc,
        "disc_disc",
        disc_disc::<T>,
        disc_disc_contact::<T>,
    );
    let hits = pairs
        .iter()
        .filter(|(a, pa, b, pb)| table.intersects(&**a, pa, &**b, pb).unwrap())
        .count();
    eprintln!("{name}: {hits}/{} pairs intersect", pairs.len());
    let f64_precision = core::mem::size_of::<T>() == 8;
    match path {
        "typed" => typed(name, &pairs, false),
        "contact_typed" => typed(name, &pairs, true),
        "table" => go(&pairs, |(a, pa, b, pb)| {
            let _ = black_box(table.intersects(&**a, pa, &**b, pb));
        }),
        "contact_table" => go(&pairs, |(a, pa, b, pb)| {
            let _ = black_box(table.contact(&**a, pa, &**b, pb));
        }),
        "free" => go(&pairs, |(a, pa, b, pb)| {
            let _ = black_box(narrowphase::intersects(&**a, pa, &**b, pb));
        }),
        "contact_free" => go(&pairs, |(a, pa, b, pb)| {
            let _ = black_box(narrowphase::contact(&**a, pa, &**b, pb));
        }),
        "manifold_table" => go(&pairs, |(a, pa, b, pb)| {
            let _ = black_box(table.contact_manifold(&**a, pa, &**b, pb, T::zero()));
        }),
        "parry" if f64_precision => parry64(&sp, 0),
        "parry" => parry32(&sp, 0),
        "parry_contact" if f64_precision => parry64(&sp, 1),
        "parry_contact" => parry32(&sp, 1),
        "parry_manifold" if f64_precision => parry64(&sp, 2),
        "parry_manifold" => parry32(&sp, 2),
        _ => panic!("unknown path {path}"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (name, path, prec) = (
        args.get(1).map_or("circle_circle", String::as_str),
        args.get(2).map_or("table", String::as_str),
        args.get(3).map_or("f32", String::as_str),
    );
    match prec {
        "f64" => run::<f64>(name, path),
        _ => run::<f32>(name, path),
    }
    if time_passes().is_none() {
        println!("{}", batch() * ROUNDS);
    }
}
