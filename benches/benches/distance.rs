//! Distance and closest points, per pair, over batches of 1024 prebuilt
//! pairs, kasanari beside parry2d (f32) and parry2d-f64 (f64) in the same run
//! on the same inputs:
//!
//! - groups `distance_<prec>/<pair>` and `closest_points_<prec>/<pair>`,
//!   functions `kasanari` (the free functions `narrowphase::distance` and
//!   `narrowphase::closest_points` on `&dyn Shape`, `max_distance = +∞`),
//!   `typed` (the pair's closest-points kernel on the concrete types,
//!   timed including `pose_a⁻¹ · pose_b`), and `parry` (`query::distance`,
//!   `query::closest_points` with `max_dist = +∞` on `&dyn Shape`);
//! - pairs: `ball_ball`, `cuboid_cuboid`, `ball_polygon`, `polygon_polygon`,
//!   `capsule_cuboid`, `triangle_ball` (parry's names; kasanari's kinds are
//!   circle, obb, polygon, capsule, triangle).
//!
//! Every pair is drawn once in plain `f64` numbers from a seeded generator
//! and converted to each library's types before anything is timed. B's
//! centre is placed at `u · 3 · (r_a + r_b)` from A's (`u` uniform in
//! [0, 1), `r` the bounding radii), so that most pairs are apart and some
//! intersect; the set-up prints the share apart and checks that kasanari's
//! and parry's distances agree (to `1e-3` relative in f32, `1e-6` in f64) on
//! the pairs both find apart (parry's
//! GJK on curved shapes is not closer than that in f64).
//!
//! `benches/src/bin/report.rs` reads these names: keep them as they are.
//!
//! Run: `cargo bench -p kasanari-benches --bench distance`.

use std::f64::consts::{PI, TAU};
use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use kasanari::nalgebra::{Isometry2, Point2, Translation2, UnitComplex, Vector2};
use kasanari::narrowphase::{self, ClosestPoints, circle, sat};
use kasanari::prelude::*;
use kasanari_benches::Rng;

const BATCH: usize = 1024;

/// A shape in its local frame, in plain `f64` numbers.
#[derive(Debug, Clone)]
enum Spec {
    Ball(f64),
    Cuboid([f64; 2]),
    /// Counter-clockwise, strictly convex.
    Polygon(Vec<[f64; 2]>),
    Capsule(f64, f64),
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
            Spec::Triangle(v) => v.iter().map(norm).fold(0.0, f64::max),
        }
    }
}

fn ball(rng: &mut Rng) -> Spec {
    Spec::Ball(rng.range(0.25, 1.5))
}

fn cuboid(rng: &mut Rng) -> Spec {
    Spec::Cuboid([rng.range(0.25, 1.5), rng.range(0.25, 1.5)])
}

/// 6 to 8 vertices on an ellipse at jittered angles (strictly convex).
fn polygon(rng: &mut Rng) -> Spec {
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

/// A vertical capsule: half length and radius.
fn capsule(rng: &mut Rng) -> Spec {
    Spec::Capsule(rng.range(0.25, 1.0), rng.range(0.2, 0.8))
}

/// Corners near 0°, 120° and 240°, so the origin is inside.
fn triangle(rng: &mut Rng) -> Spec {
    let phase = rng.range(0.0, TAU);
    let mut corner = |i: f64| {
        let t = phase + i * TAU / 3.0 + rng.range(-0.5, 0.5);
        let r = rng.range(0.5, 1.5);
        [r * t.cos(), r * t.sin()]
    };
    Spec::Triangle([corner(0.0), corner(1.0), corner(2.0)])
}

/// A pose as translation and (cos, sin), so both libraries get the same bits.
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

struct PairSpec {
    a: Spec,
    pose_a: PoseSpec,
    b: Spec,
    pose_b: PoseSpec,
}

/// The measured pairs: name, shapes (A first).
type Draw = fn(&mut Rng) -> (Spec, Spec);
#[rustfmt::skip]
const CASES: [(&str, Draw); 6] = [
    ("ball_ball",       |r| (ball(r), ball(r))),
    ("cuboid_cuboid",   |r| (cuboid(r), cuboid(r))),
    ("ball_polygon",    |r| (ball(r), polygon(r))),
    ("polygon_polygon", |r| (polygon(r), polygon(r))),
    ("capsule_cuboid",  |r| (capsule(r), cuboid(r))),
    ("triangle_ball",   |r| (triangle(r), ball(r))),
];

fn pair_specs(draw: Draw, seed: u64) -> Vec<PairSpec> {
    let mut rng = Rng::new(seed);
    (0..BATCH)
        .map(|_| {
            let (a, b) = draw(&mut rng);
            let pose_a = PoseSpec::new(
                rng.range(-50.0, 50.0),
                rng.range(-50.0, 50.0),
                rng.range(-PI, PI),
            );
            let d = rng.range(0.0, 1.0) * 3.0 * (a.bounding_radius() + b.bounding_radius());
            let dir = rng.range(-PI, PI);
            let pose_b = PoseSpec::new(
                pose_a.x + d * dir.cos(),
                pose_a.y + d * dir.sin(),
                rng.range(-PI, PI),
            );
            PairSpec {
                a,
                pose_a,
                b,
                pose_b,
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
        Spec::Triangle([a, b, c]) => Box::new(Triangle::new(p(*a), p(*b), p(*c)).unwrap()),
    }
}

fn kasanari_pose<T: Real>(p: &PoseSpec) -> Isometry2<T> {
    Isometry2::from_parts(
        Translation2::new(T::lit(p.x), T::lit(p.y)),
        UnitComplex::from_cos_sin_unchecked(T::lit(p.cos), T::lit(p.sin)),
    )
}

type KasanariPair<T> = (
    Box<dyn Shape<T>>,
    Isometry2<T>,
    Box<dyn Shape<T>>,
    Isometry2<T>,
);

fn kasanari_pairs<T: Real>(specs: &[PairSpec]) -> Vec<KasanariPair<T>> {
    specs
        .iter()
        .map(|s| {
            (
                kasanari_shape(&s.a),
                kasanari_pose(&s.pose_a),
                kasanari_shape(&s.b),
                kasanari_pose(&s.pose_b),
            )
        })
        .collect()
}

/// The typed closest-points kernel of a pair, on the concrete types, in
/// kasanari's canonical order (`swap` when that is (B, A)).
fn typed_bench<T: Real, A: 'static, B: 'static>(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    pairs: &[KasanariPair<T>],
    swap: bool,
    kernel: fn(&A, &B, &Isometry2<T>, T) -> ClosestPoints<T>,
) {
    let typed: Vec<(&A, Isometry2<T>, &B, Isometry2<T>)> = pairs
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
    group.bench_function("typed", |bencher| {
        bencher.iter(|| {
            for (a, pa, b, pb) in black_box(&typed) {
                black_box(kernel(a, b, &pa.inv_mul(pb), T::infinity()));
            }
        });
    });
}

fn typed_for<T: Real>(
    name: &str,
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    pairs: &[KasanariPair<T>],
) {
    match name {
        "ball_ball" => typed_bench(group, pairs, false, circle::circle_circle_closest_points),
        "cuboid_cuboid" => typed_bench(group, pairs, false, sat::obb_obb_closest_points),
        "ball_polygon" => typed_bench(group, pairs, false, circle::circle_polygon_closest_points),
        "polygon_polygon" => typed_bench(group, pairs, false, sat::polygon_polygon_closest_points),
        "capsule_cuboid" => typed_bench(group, pairs, true, sat::obb_capsule_closest_points),
        "triangle_ball" => typed_bench(group, pairs, true, circle::circle_triangle_closest_points),
        _ => unreachable!("{name}"),
    }
}

// ---------------------------------------------------------------- parry

trait Parry: Sized {
    fn new(specs: &[PairSpec]) -> Self;
    /// `query::distance` on every pair, as f64.
    fn distances(&self) -> Vec<f64>;
    fn bench_distance(&self, b: &mut criterion::Bencher<'_>);
    fn bench_closest_points(&self, b: &mut criterion::Bencher<'_>);
}

macro_rules! parry_pairs {
    ($name:ident, $parry:ident) => {
        struct $name(
            Vec<(
                Box<dyn $parry::shape::Shape>,
                $parry::math::Pose,
                Box<dyn $parry::shape::Shape>,
                $parry::math::Pose,
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
                    Spec::Triangle([a, b, c]) => Box::new(ps::Triangle::new(v(*a), v(*b), v(*c))),
                }
            }

            fn pose(p: &PoseSpec) -> $parry::math::Pose {
                let l = <$parry::math::Real as Real>::lit;
                $parry::math::Pose::from_parts(
                    Self::vector([p.x, p.y]),
                    $parry::math::Rot2::from_cos_sin_unchecked(l(p.cos), l(p.sin)),
                )
            }
        }

        impl Parry for $name {
            fn new(specs: &[PairSpec]) -> Self {
                Self(
                    specs
                        .iter()
                        .map(|s| {
                            (
                                Self::shape(&s.a),
                                Self::pose(&s.pose_a),
                                Self::shape(&s.b),
                                Self::pose(&s.pose_b),
                            )
                        })
                        .collect(),
                )
            }

            fn distances(&self) -> Vec<f64> {
                self.0
                    .iter()
                    .map(|(a, pa, b, pb)| {
                        $parry::query::distance(pa, &**a, pb, &**b)
                            .unwrap()
                            .distance
                            .as_f64()
                    })
                    .collect()
            }

            fn bench_distance(&self, bencher: &mut criterion::Bencher<'_>) {
                bencher.iter(|| {
                    for (a, pa, b, pb) in black_box(&self.0) {
                        let _ = black_box($parry::query::distance(pa, &**a, pb, &**b));
                    }
                });
            }

            fn bench_closest_points(&self, bencher: &mut criterion::Bencher<'_>) {
                let max = <$parry::math::Real as Real>::lit(f64::INFINITY);
                bencher.iter(|| {
                    for (a, pa, b, pb) in black_box(&self.0) {
                        let _ = black_box($parry::query::closest_points(pa, &**a, pb, &**b, max));
                    }
                });
            }
        }
    };
}

parry_pairs!(Parry32, parry2d);
parry_pairs!(Parry64, parry2d_f64);

// ------------------------------------------------------------ the groups

fn distance<T: Real, P: Parry>(c: &mut Criterion, prec: &str) {
    for (i, (name, draw)) in CASES.iter().enumerate() {
        let specs = pair_specs(*draw, 0x6469_7374_0000 + i as u64);
        let ours = kasanari_pairs::<T>(&specs);
        let theirs = P::new(&specs);

        // Set-up checks, never timed.
        let d: Vec<f64> = ours
            .iter()
            .map(|(a, pa, b, pb)| narrowphase::distance(&**a, pa, &**b, pb).unwrap().as_f64())
            .collect();
        let e = theirs.distances();
        let apart = d.iter().filter(|&&x| x > 0.0).count();
        // parry measures curved pairs by GJK, to its own tolerance.
        let rel = if T::epsilon().as_f64() > 1e-10 {
            1e-3
        } else {
            1e-6
        };
        let agree = d
            .iter()
            .zip(&e)
            .filter(|&(&x, &y)| x > 0.0 && y > 0.0)
            .filter(|&(&x, &y)| (x - y).abs() <= rel * (1.0 + x.max(y)))
            .count();
        let both = d
            .iter()
            .zip(&e)
            .filter(|&(&x, &y)| x > 0.0 && y > 0.0)
            .count();
        let worst = d
            .iter()
            .zip(&e)
            .filter(|&(&x, &y)| x > 0.0 && y > 0.0)
            .map(|(&x, &y)| (x - y).abs() / (1.0 + x.max(y)))
            .fold(0.0, f64::max);
        eprintln!(
            "distance {prec} {name:16} apart {:5.1}%  distances agree with parry on {agree}/{both} \
             (largest relative difference {worst:.1e})",
            100.0 * apart as f64 / d.len() as f64
        );
        assert!(
            agree == both,
            "{name} ({prec}): kasanari and parry disagree"
        );

        for query in ["distance", "closest_points"] {
            let mut group = c.benchmark_group(format!("{query}_{prec}/{name}"));
            if query == "distance" {
                group.bench_function("kasanari", |b| {
                    b.iter(|| {
                        for (a, pa, s, ps) in black_box(&ours) {
                            let _ = black_box(narrowphase::distance(&**a, pa, &**s, ps));
                        }
                    });
                });
                group.bench_function("parry", |b| theirs.bench_distance(b));
            } else {
                group.bench_function("kasanari", |b| {
                    b.iter(|| {
                        for (a, pa, s, ps) in black_box(&ours) {
                            let _ = black_box(narrowphase::closest_points(
                                &**a,
                                pa,
                                &**s,
                                ps,
                                T::infinity(),
                            ));
                        }
                    });
                });
                group.bench_function("parry", |b| theirs.bench_closest_points(b));
            }
            typed_for::<T>(name, &mut group, &ours);
            group.finish();
        }
    }
}

fn benches(c: &mut Criterion) {
    distance::<f32, Parry32>(c, "f32");
    distance::<f64, Parry64>(c, "f64");
}

criterion_group! {
    name = group;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(30);
    targets = benches
}
criterion_main!(group);
