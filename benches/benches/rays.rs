//! Ray casts against one shape, over batches of 1024 prebuilt (shape, pose,
//! ray) cases, kasanari beside parry2d (f32) and parry2d-f64 (f64) in the
//! same run on the same inputs:
//!
//! - groups `ray_cast_<prec>/<shape>`, functions `kasanari` (the free
//!   function `narrowphase::cast_ray` on `&dyn Shape`: validation, dispatch,
//!   the hit with its point and normal), `typed` (the shape's own
//!   `RayCast::cast_ray` on the concrete type) and `parry`
//!   (`RayCast::cast_ray_and_get_normal` on `&dyn Shape`: time of impact and
//!   normal);
//! - shapes: `ball`, `cuboid`, `polygon`, `capsule`, `segment`, `triangle`
//!   (parry's names; kasanari's kinds are circle, obb, polygon, capsule,
//!   segment, triangle).
//!
//! Every case is drawn once in plain `f64` numbers from a seeded generator
//! and converted to each library's types before anything is timed: the shape
//! at a random pose, the ray's origin 2 to 6 bounding radii from the shape's
//! centre, aimed at a point within 1.5 bounding radii of it (most rays hit,
//! some miss), solid, `max_toi = +∞`. The set-up checks that both libraries
//! agree on hit or miss and on the time of impact (to `1e-3` relative in
//! f32, `1e-9` in f64) and prints the share of hits.
//!
//! `benches/src/bin/report.rs` reads these names: keep them as they are.
//!
//! Run: `cargo bench -p kasanari-benches --bench rays`.

use std::f64::consts::{PI, TAU};
use std::hint::black_box;
use std::time::Duration;

use criterion::{
    BenchmarkGroup, Criterion, criterion_group, criterion_main, measurement::WallTime,
};
use kasanari::nalgebra::{Isometry2, Point2, Translation2, UnitComplex, Vector2};
use kasanari::narrowphase;
use kasanari::prelude::*;
use kasanari::shape::RayCast;
use kasanari_benches::Rng;

const BATCH: usize = 1024;

/// A shape in its local frame, in plain `f64` numbers.
#[derive(Debug, Clone)]
enum Spec {
    Ball(f64),
    Cuboid([f64; 2]),
    /// Counter-clockwise, strictly convex.
    Polygon(Vec<[f64; 2]>),
    /// Half length (vertical core) and radius.
    Capsule(f64, f64),
    /// Half length, along x.
    Segment(f64),
    /// Counter-clockwise, around the origin.
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

fn draw_shape(name: &str, rng: &mut Rng) -> Spec {
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
        _ => unreachable!("{name}"),
    }
}

const SHAPES: [&str; 6] = [
    "ball", "cuboid", "polygon", "capsule", "segment", "triangle",
];

/// A pose as translation and (cos, sin), so both libraries get the same bits.
#[derive(Debug, Clone, Copy)]
struct PoseSpec {
    x: f64,
    y: f64,
    cos: f64,
    sin: f64,
}

struct Case {
    shape: Spec,
    pose: PoseSpec,
    origin: [f64; 2],
    dir: [f64; 2],
}

fn cases(name: &str, seed: u64) -> Vec<Case> {
    let mut rng = Rng::new(seed);
    (0..BATCH)
        .map(|_| {
            let shape = draw_shape(name, &mut rng);
            let (x, y) = (rng.range(-50.0, 50.0), rng.range(-50.0, 50.0));
            let (sin, cos) = rng.range(-PI, PI).sin_cos();
            let r = shape.bounding_radius();
            let (d, a) = (rng.range(2.0, 6.0) * r, rng.range(-PI, PI));
            let origin = [x + d * a.cos(), y + d * a.sin()];
            let (e, b) = (rng.range(0.0, 1.5) * r, rng.range(-PI, PI));
            let target = [x + e * b.cos(), y + e * b.sin()];
            // Directions of varied length: times of impact are in their units.
            let scale = rng.range(0.5, 2.0);
            let dir = [
                (target[0] - origin[0]) * scale,
                (target[1] - origin[1]) * scale,
            ];
            Case {
                shape,
                pose: PoseSpec { x, y, cos, sin },
                origin,
                dir,
            }
        })
        .collect()
}

// ------------------------------------------------------------- kasanari

fn kasanari_shape<T: Real>(s: &Spec) -> Box<dyn Shape<T>> {
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

type KasanariCase<T> = (Box<dyn Shape<T>>, Isometry2<T>, Ray<T>);

fn kasanari_cases<T: Real>(cases: &[Case]) -> Vec<KasanariCase<T>> {
    cases
        .iter()
        .map(|c| {
            let pose = Isometry2::from_parts(
                Translation2::new(T::lit(c.pose.x), T::lit(c.pose.y)),
                UnitComplex::from_cos_sin_unchecked(T::lit(c.pose.cos), T::lit(c.pose.sin)),
            );
            let ray = Ray::new(
                Point2::new(T::lit(c.origin[0]), T::lit(c.origin[1])),
                Vector2::new(T::lit(c.dir[0]), T::lit(c.dir[1])),
            );
            (kasanari_shape(&c.shape), pose, ray)
        })
        .collect()
}

/// The shape's own ray cast on the concrete type `S`.
fn typed_bench<T: Real, S: RayCast<T> + 'static>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    cases: &[KasanariCase<T>],
) {
    let typed: Vec<(&S, Isometry2<T>, Ray<T>)> = cases
        .iter()
        .map(|(s, p, r)| (s.as_any().downcast_ref::<S>().unwrap(), *p, *r))
        .collect();
    group.bench_function("typed", |b| {
        b.iter(|| {
            for (s, p, r) in black_box(&typed) {
                black_box(s.cast_ray(p, r, T::infinity(), true));
            }
        });
    });
}

fn typed_for<T: Real>(name: &str, group: &mut BenchmarkGroup<'_, WallTime>, c: &[KasanariCase<T>]) {
    match name {
        "ball" => typed_bench::<T, Circle<T>>(group, c),
        "cuboid" => typed_bench::<T, Obb<T>>(group, c),
        "polygon" => typed_bench::<T, ConvexPolygon<T>>(group, c),
        "capsule" => typed_bench::<T, Capsule<T>>(group, c),
        "segment" => typed_bench::<T, Segment<T>>(group, c),
        "triangle" => typed_bench::<T, Triangle<T>>(group, c),
        _ => unreachable!("{name}"),
    }
}

// ---------------------------------------------------------------- parry

trait Parry: Sized {
    fn new(cases: &[Case]) -> Self;
    /// The time of impact of every case, as f64 (`None` for a miss).
    fn tois(&self) -> Vec<Option<f64>>;
    fn bench(&self, b: &mut criterion::Bencher<'_>);
}

macro_rules! parry_cases {
    ($name:ident, $parry:ident) => {
        struct $name(
            Vec<(
                Box<dyn $parry::shape::Shape>,
                $parry::math::Pose,
                $parry::query::Ray,
            )>,
        );

        impl $name {
            fn vector([x, y]: [f64; 2]) -> $parry::math::Vector {
                let l = <$parry::math::Real as Real>::lit;
                $parry::math::Vector::new(l(x), l(y))
            }

            fn shape(s: &Spec) -> Box<dyn $parry::shape::Shape> {
                use $parry::shape as ps;
                let l = <$parry::math::Real as Real>::lit;
                let v = Self::vector;
                match s {
                    Spec::Ball(r) => Box::new(ps::Ball::new(l(*r))),
                    Spec::Cuboid(h) => Box::new(ps::Cuboid::new(v(*h))),
                    Spec::Polygon(vs) => Box::new(
                        ps::ConvexPolygon::from_convex_polyline(vs.iter().map(|q| v(*q)).collect())
                            .unwrap(),
                    ),
                    Spec::Capsule(h, r) => {
                        Box::new(ps::Capsule::new(v([0.0, -h]), v([0.0, *h]), l(*r)))
                    }
                    Spec::Segment(h) => Box::new(ps::Segment::new(v([-h, 0.0]), v([*h, 0.0]))),
                    Spec::Triangle([a, b, c]) => Box::new(ps::Triangle::new(v(*a), v(*b), v(*c))),
                }
            }
        }

        impl Parry for $name {
            fn new(cases: &[Case]) -> Self {
                let l = <$parry::math::Real as Real>::lit;
                Self(
                    cases
                        .iter()
                        .map(|c| {
                            let pose = $parry::math::Pose::from_parts(
                                Self::vector([c.pose.x, c.pose.y]),
                                $parry::math::Rot2::from_cos_sin_unchecked(
                                    l(c.pose.cos),
                                    l(c.pose.sin),
                                ),
                            );
                            let ray = $parry::query::Ray::new(
                                Self::vector(c.origin),
                                Self::vector(c.dir),
                            );
                            (Self::shape(&c.shape), pose, ray)
                        })
                        .collect(),
                )
            }

            fn tois(&self) -> Vec<Option<f64>> {
                let max = <$parry::math::Real as Real>::lit(f64::INFINITY);
                self.0
                    .iter()
                    .map(|(s, p, r)| {
                        s.cast_ray_and_get_normal(p, r, max, true)
                            .map(|h| h.time_of_impact.as_f64())
                    })
                    .collect()
            }

            fn bench(&self, bencher: &mut criterion::Bencher<'_>) {
                let max = <$parry::math::Real as Real>::lit(f64::INFINITY);
                bencher.iter(|| {
                    for (s, p, r) in black_box(&self.0) {
                        black_box(s.cast_ray_and_get_normal(p, r, max, true));
                    }
                });
            }
        }
    };
}

parry_cases!(Parry32, parry2d);
parry_cases!(Parry64, parry2d_f64);

// ------------------------------------------------------------ the groups

fn ray_casts<T: Real, P: Parry>(c: &mut Criterion, prec: &str) {
    for (i, name) in SHAPES.iter().enumerate() {
        let specs = cases(name, 0x7261_7973_0000 + i as u64);
        let ours = kasanari_cases::<T>(&specs);
        let theirs = P::new(&specs);

        // Set-up checks, never timed.
        let mine: Vec<Option<f64>> = ours
            .iter()
            .map(|(s, p, r)| {
                narrowphase::cast_ray(&**s, p, r, T::infinity(), true)
                    .unwrap()
                    .map(|h| h.toi.as_f64())
            })
            .collect();
        let parry = theirs.tois();
        let rel = if T::epsilon().as_f64() > 1e-10 {
            1e-3
        } else {
            1e-9
        };
        let hits = mine.iter().filter(|h| h.is_some()).count();
        let disagree = mine
            .iter()
            .zip(&parry)
            .filter(|(a, b)| match (a, b) {
                (Some(x), Some(y)) => (x - y).abs() > rel * (1.0 + x.abs().max(y.abs())),
                (None, None) => false,
                _ => true,
            })
            .count();
        println!(
            "ray_cast_{prec}/{name}: {hits} of {BATCH} rays hit; {disagree} answers differ from parry's"
        );
        // Grazing rays may differ within rounding; anything more is a bug
        // in one of the two libraries.
        assert!(disagree <= BATCH / 100, "{name}: {disagree} disagreements");

        let mut group = c.benchmark_group(format!("ray_cast_{prec}/{name}"));
        group.warm_up_time(Duration::from_millis(300));
        group.measurement_time(Duration::from_secs(1));
        group.sample_size(30);
        group.bench_function("kasanari", |b| {
            b.iter(|| {
                for (s, p, r) in black_box(&ours) {
                    let _ = black_box(narrowphase::cast_ray(&**s, p, r, T::infinity(), true));
                }
            });
        });
        typed_for(name, &mut group, &ours);
        group.bench_function("parry", |b| theirs.bench(b));
        group.finish();
    }
}

fn benches(c: &mut Criterion) {
    ray_casts::<f32, Parry32>(c, "f32");
    ray_casts::<f64, Parry64>(c, "f64");
}

criterion_group!(rays, benches);
criterion_main!(rays);
