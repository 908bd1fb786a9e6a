//! A driver for counting instructions per distance, closest-points or ray
//! query with callgrind: one query, one pair (or shape), one path, one
//! precision, the inputs of `benches/benches/distance.rs` and `rays.rs`
//! (the same generators and seeds), queried a number of times inside
//! `timed_loop` (the only function measured).
//!
//! ```text
//! cargo build --release -p kasanari-benches --example distray_calls
//! valgrind --tool=callgrind --toggle-collect='*timed_loop*' \
//!     target/release/examples/distray_calls distance ball_ball free f32
//! ```
//!
//! Queries and their pairs: `distance` and `closest` (`ball_ball`,
//! `cuboid_cuboid`, `ball_polygon`, `polygon_polygon`, `capsule_cuboid`,
//! `triangle_ball`), `ray` (`ball`, `cuboid`, `polygon`, `capsule`,
//! `segment`, `triangle`). Paths: `free` (`narrowphase::distance`,
//! `closest_points` with `max_distance = +∞`, `cast_ray`), `typed` (the
//! pair's closest-points kernel with `inv_mul` included, or the shape's own
//! `RayCast::cast_ray`), `parry` (`query::distance`,
//! `query::closest_points`, `cast_ray_and_get_normal`). The program prints
//! the number of queries; callgrind's total divided by it is the
//! instructions per query.

use std::f64::consts::{PI, TAU};
use std::hint::black_box;

use kasanari::nalgebra::{Isometry2, Point2, Translation2, UnitComplex, Vector2};
use kasanari::narrowphase::{self, ClosestPoints, circle, sat};
use kasanari::prelude::*;
use kasanari::shape::RayCast;
use kasanari_benches::Rng;

const BATCH: usize = 1024;
const ROUNDS: usize = 20;

/// A shape in its local frame, in plain `f64` numbers (as in the benches).
#[derive(Debug, Clone)]
enum Spec {
    Ball(f64),
    Cuboid([f64; 2]),
    Polygon(Vec<[f64; 2]>),
    /// Half length (vertical core) and radius.
    Capsule(f64, f64),
    /// Half length, along x.
    Segment(f64),
    Triangle([[f64; 2]; 3]),
}

impl Spec {
    fn bounding_radius(&self) -> f64 {
        let norm = |p: &[f64; 2]| p[0].hypot(p[1]);
        match self {
            Spec::Ball(r) => *r,
            Spec::Cuboid(h) => norm(h),
            Spec::Polygon(v) => v.iter().map(norm).fold(0.0, f64::max),
            Spec::Capsule(h, r) => h + r,
            Spec::Segment(h) => *h,
            Spec::Triangle(v) => v.iter().map(norm).fold(0.0, f64::max),
        }
    }
}

fn draw(name: &str, rng: &mut Rng) -> Spec {
    match name {
        "ball" => Spec::Ball(rng.range(0.25, 1.5)),
        "cuboid" => Spec::Cuboid([rng.range(0.25, 1.5), rng.range(0.25, 1.5)]),
        "polygon" => {
            let n = 6 + (rng.next_u64() % 3) as usize;
            let gap = TAU / n as f64;
            let (phase, radius) = (rng.range(0.0, TAU), rng.range(0.5, 1.5));
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
        "capsule" => Spec::Capsule(rng.range(0.25, 1.0), rng.range(0.2, 0.8)),
        "segment" => Spec::Segment(rng.range(0.25, 1.5)),
        "triangle" => {
            let phase = rng.range(0.0, TAU);
            let mut corner = |i: f64| {
                let t = phase + i * TAU / 3.0 + rng.range(-0.5, 0.5);
                let r = rng.range(0.5, 1.5);
                [r * t.cos(), r * t.sin()]
            };
            Spec::Triangle([corner(0.0), corner(1.0), corner(2.0)])
        }
        _ => panic!("unknown shape {name}"),
    }
}

/// A pose as translation and (cos, sin).
#[derive(Debug, Clone, Copy)]
struct PoseSpec {
    x: f64,
    y: f64,
    cos: f64,
    sin: f64,
}

impl PoseSpec {
    fn new(x: f64, y: f64, angle: f64) -> Self {
        let (sin, cos) = angle.sin_cos();
        Self { x, y, cos, sin }
    }
}

/// The pairs of `distance.rs` (index `i` of its `CASES`, seed and draws).
fn pair_specs(name: &str) -> Vec<(Spec, PoseSpec, Spec, PoseSpec)> {
    let (i, a, b) = match name {
        "ball_ball" => (0, "ball", "ball"),
        "cuboid_cuboid" => (1, "cuboid", "cuboid"),
        "ball_polygon" => (2, "ball", "polygon"),
        "polygon_polygon" => (3, "polygon", "polygon"),
        "capsule_cuboid" => (4, "capsule", "cuboid"),
        "triangle_ball" => (5, "triangle", "ball"),
        _ => panic!("unknown pair {name}"),
    };
    let mut rng = Rng::new(0x6469_7374_0000 + i);
    (0..BATCH)
        .map(|_| {
            let (a, b) = (draw(a, &mut rng), draw(b, &mut rng));
            let pa = PoseSpec::new(
                rng.range(-50.0, 50.0),
                rng.range(-50.0, 50.0),
                rng.range(-PI, PI),
            );
            let d = rng.range(0.0, 1.0) * 3.0 * (a.bounding_radius() + b.bounding_radius());
            let dir = rng.range(-PI, PI);
            let pb = PoseSpec::new(
                pa.x + d * dir.cos(),
                pa.y + d * dir.sin(),
                rng.range(-PI, PI),
            );
            (a, pa, b, pb)
        })
        .collect()
}

/// The cases of `rays.rs`: shape, pose, origin, direction.
fn ray_specs(name: &str) -> Vec<(Spec, PoseSpec, [f64; 2], [f64; 2])> {
    let i = [
        "ball", "cuboid", "polygon", "capsule", "segment", "triangle",
    ]
    .iter()
    .position(|s| *s == name)
    .unwrap_or_else(|| panic!("unknown shape {name}")) as u64;
    let mut rng = Rng::new(0x7261_7973_0000 + i);
    (0..BATCH)
        .map(|_| {
            let shape = draw(name, &mut rng);
            let (x, y) = (rng.range(-50.0, 50.0), rng.range(-50.0, 50.0));
            let (sin, cos) = rng.range(-PI, PI).sin_cos();
            let r = shape.bounding_radius();
            let (d, a) = (rng.range(2.0, 6.0) * r, rng.range(-PI, PI));
            let origin = [x + d * a.cos(), y + d * a.sin()];
            let (e, b) = (rng.range(0.0, 1.5) * r, rng.range(-PI, PI));
            let target = [x + e * b.cos(), y + e * b.sin()];
            let scale = rng.range(0.5, 2.0);
            let dir = [
                (target[0] - origin[0]) * scale,
                (target[1] - origin[1]) * scale,
            ];
            (shape, PoseSpec { x, y, cos, sin }, origin, dir)
        })
        .collect()
}

fn ours<T: Real>(s: &Spec) -> Box<dyn Shape<T>> {
    let p = |[x, y]: [f64; 2]| Point2::new(T::lit(x), T::lit(y));
    match s {
        Spec::Ball(r) => Box::new(Circle::new(T::lit(*r)).unwrap()),
        Spec::Cuboid([x, y]) => Box::new(Obb::new(Vector2::new(T::lit(*x), T::lit(*y))).unwrap()),
        Spec::Polygon(vs) => {
            let vs: Vec<Point2<T>> = vs.iter().map(|q| p(*q)).collect();
            Box::new(ConvexPolygon::new(&vs).unwrap())
        }
        Spec::Capsule(h, r) => {
            Box::new(Capsule::new(p([0.0, -h]), p([0.0, *h]), T::lit(*r)).unwrap())
        }
        Spec::Segment(h) => Box::new(Segment::new(p([-h, 0.0]), p([*h, 0.0])).unwrap()),
        Spec::Triangle([a, b, c]) => Box::new(Triangle::new(p(*a), p(*b), p(*c)).unwrap()),
    }
}

fn pose<T: Real>(p: &PoseSpec) -> Isometry2<T> {
    Isometry2::from_parts(
        Translation2::new(T::lit(p.x), T::lit(p.y)),
        UnitComplex::from_cos_sin_unchecked(T::lit(p.cos), T::lit(p.sin)),
    )
}

#[inline(never)]
fn timed_loop<P>(items: &[P], mut f: impl FnMut(&P)) {
    for _ in 0..ROUNDS {
        for p in black_box(items) {
            f(p);
        }
    }
}

type Pair<T> = (
    Box<dyn Shape<T>>,
    Isometry2<T>,
    Box<dyn Shape<T>>,
    Isometry2<T>,
);

/// The pair's closest-points kernel on the concrete types (canonical order).
fn typed_pairs<T: Real>(name: &str, pairs: &[Pair<T>]) {
    fn run<T: Real, A: 'static, B: 'static>(
        pairs: &[Pair<T>],
        swap: bool,
        kernel: fn(&A, &B, &Isometry2<T>, T) -> ClosestPoints<T>,
    ) {
        let v: Vec<(&A, Isometry2<T>, &B, Isometry2<T>)> = pairs
            .iter()
            .map(|(a, pa, b, pb)| {
                let ((a, pa), (b, pb)) = if swap {
                    ((b, pb), (a, pa))
                } else {
                    ((a, pa), (b, pb))
                };
                (
                    a.as_any().downcast_ref::<A>().unwrap(),
                    *pa,
                    b.as_any().downcast_ref::<B>().unwrap(),
                    *pb,
                )
            })
            .collect();
        timed_loop(&v, |(a, pa, b, pb)| {
            black_box(kernel(a, b, &pa.inv_mul(pb), T::infinity()));
        });
    }
    match name {
        "ball_ball" => run(pairs, false, circle::circle_circle_closest_points),
        "cuboid_cuboid" => run(pairs, false, sat::obb_obb_closest_points),
        "ball_polygon" => run(pairs, false, circle::circle_polygon_closest_points),
        "polygon_polygon" => run(pairs, false, sat::polygon_polygon_closest_points),
        "capsule_cuboid" => run(pairs, true, sat::obb_capsule_closest_points),
        "triangle_ball" => run(pairs, true, circle::circle_triangle_closest_points),
        _ => unreachable!("{name}"),
    }
}

type RayCase<T> = (Box<dyn Shape<T>>, Isometry2<T>, Ray<T>);

fn typed_rays<T: Real>(name: &str, cases: &[RayCase<T>]) {
    fn run<T: Real, S: RayCast<T> + 'static>(cases: &[RayCase<T>]) {
        let v: Vec<(&S, Isometry2<T>, Ray<T>)> = cases
            .iter()
            .map(|(s, p, r)| (s.as_any().downcast_ref::<S>().unwrap(), *p, *r))
            .collect();
        timed_loop(&v, |(s, p, r)| {
            black_box(s.cast_ray(p, r, T::infinity(), true));
        });
    }
    match name {
        "ball" => run::<T, Circle<T>>(cases),
        "cuboid" => run::<T, Obb<T>>(cases),
        "polygon" => run::<T, ConvexPolygon<T>>(cases),
        "capsule" => run::<T, Capsule<T>>(cases),
        "segment" => run::<T, Segment<T>>(cases),
        "triangle" => run::<T, Triangle<T>>(cases),
        _ => unreachable!("{name}"),
    }
}

macro_rules! parry_run {
    ($fn:ident, $parry:ident) => {
        mod $fn {
            use super::*;
            use $parry::shape as ps;
            type R = $parry::math::Real;

            fn v([x, y]: [f64; 2]) -> $parry::math::Vector {
                $parry::math::Vector::new(x as R, y as R)
            }

            fn shape(s: &Spec) -> Box<dyn ps::Shape> {
                match s {
                    Spec::Ball(r) => Box::new(ps::Ball::new(*r as R)),
                    Spec::Cuboid(h) => Box::new(ps::Cuboid::new(v(*h))),
                    Spec::Polygon(vs) => Box::new(
                        ps::ConvexPolygon::from_convex_polyline(vs.iter().map(|q| v(*q)).collect())
                            .unwrap(),
                    ),
                    Spec::Capsule(h, r) => {
                        Box::new(ps::Capsule::new(v([0.0, -h]), v([0.0, *h]), *r as R))
                    }
                    Spec::Segment(h) => Box::new(ps::Segment::new(v([-h, 0.0]), v([*h, 0.0]))),
                    Spec::Triangle([a, b, c]) => Box::new(ps::Triangle::new(v(*a), v(*b), v(*c))),
                }
            }

            fn pose(p: &PoseSpec) -> $parry::math::Pose {
                $parry::math::Pose::from_parts(
                    v([p.x, p.y]),
                    $parry::math::Rot2::from_cos_sin_unchecked(p.cos as R, p.sin as R),
                )
            }

            pub fn pairs(specs: &[(Spec, PoseSpec, Spec, PoseSpec)], query: &str) {
                let pairs: Vec<_> = specs
                    .iter()
                    .map(|(a, pa, b, pb)| (shape(a), pose(pa), shape(b), pose(pb)))
                    .collect();
                if query == "distance" {
                    timed_loop(&pairs, |(a, pa, b, pb)| {
                        let _ = black_box($parry::query::distance(pa, &**a, pb, &**b));
                    });
                } else {
                    timed_loop(&pairs, |(a, pa, b, pb)| {
                        let _ = black_box($parry::query::closest_points(
                            pa,
                            &**a,
                            pb,
                            &**b,
                            R::INFINITY,
                        ));
                    });
                }
            }

            pub fn rays(specs: &[(Spec, PoseSpec, [f64; 2], [f64; 2])]) {
                let cases: Vec<_> = specs
                    .iter()
                    .map(|(s, p, o, d)| (shape(s), pose(p), $parry::query::Ray::new(v(*o), v(*d))))
                    .collect();
                timed_loop(&cases, |(s, p, r)| {
                    black_box(s.cast_ray_and_get_normal(p, r, R::INFINITY, true));
                });
            }
        }
    };
}

parry_run!(parry32, parry2d);
parry_run!(parry64, parry2d_f64);

fn run<T: Real>(query: &str, name: &str, path: &str) {
    let f64_precision = core::mem::size_of::<T>() == 8;
    if query == "ray" {
        let specs = ray_specs(name);
        let cases: Vec<RayCase<T>> = specs
            .iter()
            .map(|(s, p, o, d)| {
                let ray = Ray::new(
                    Point2::new(T::lit(o[0]), T::lit(o[1])),
                    Vector2::new(T::lit(d[0]), T::lit(d[1])),
                );
                (ours::<T>(s), pose(p), ray)
            })
            .collect();
        let hits = cases
            .iter()
            .filter(|(s, p, r)| {
                narrowphase::cast_ray(&**s, p, r, T::infinity(), true)
                    .unwrap()
                    .is_some()
            })
            .count();
        eprintln!("ray {name}: {hits}/{} hit", cases.len());
        match path {
            "free" => timed_loop(&cases, |(s, p, r)| {
                let _ = black_box(narrowphase::cast_ray(&**s, p, r, T::infinity(), true));
            }),
            "typed" => typed_rays(name, &cases),
            "parry" if f64_precision => parry64::rays(&specs),
            "parry" => parry32::rays(&specs),
            _ => panic!("unknown path {path}"),
        }
    } else {
        let specs = pair_specs(name);
        let pairs: Vec<Pair<T>> = specs
            .iter()
            .map(|(a, pa, b, pb)| (ours::<T>(a), pose(pa), ours::<T>(b), pose(pb)))
            .collect();
        let apart = pairs
            .iter()
            .filter(|(a, pa, b, pb)| narrowphase::distance(&**a, pa, &**b, pb).unwrap() > T::zero())
            .count();
        eprintln!("{name}: {apart}/{} pairs apart", pairs.len());
        match (query, path) {
            ("distance", "free") => timed_loop(&pairs, |(a, pa, b, pb)| {
                let _ = black_box(narrowphase::distance(&**a, pa, &**b, pb));
            }),
            ("closest", "free") => timed_loop(&pairs, |(a, pa, b, pb)| {
                let _ = black_box(narrowphase::closest_points(
                    &**a,
                    pa,
                    &**b,
                    pb,
                    T::infinity(),
                ));
            }),
            (_, "typed") => typed_pairs(name, &pairs),
            (q, "parry") if f64_precision => parry64::pairs(&specs, q),
            (q, "parry") => parry32::pairs(&specs, q),
            _ => panic!("unknown query or path {query} {path}"),
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |i: usize, default: &'static str| args.get(i).map_or(default, String::as_str);
    let (query, name, path, prec) = (
        arg(1, "distance"),
        arg(2, "ball_ball"),
        arg(3, "free"),
        arg(4, "f32"),
    );
    match prec {
        "f64" => run::<f64>(query, name, path),
        _ => run::<f32>(query, name, path),
    }
    println!("{}", BATCH * ROUNDS);
}
