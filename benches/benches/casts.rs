//! Linear shape casts, per pair, over batches of 1024 prebuilt casts,
//! kasanari beside parry2d (f32) and parry2d-f64 (f64) in the same run on the
//! same inputs:
//!
//! - groups `cast_shapes_<prec>/<pair>`, functions `kasanari` (the free
//!   function `narrowphase::cast_shapes` on `&dyn Shape`, stopping at
//!   penetration) and `parry` (`query::cast_shapes` on `&dyn Shape` with
//!   `ShapeCastOptions::with_max_time_of_impact`: target distance 0, stop at
//!   penetration, the same `max_toi`);
//! - pairs: `ball_ball`, `ball_cuboid`, `cuboid_cuboid`, `polygon_polygon`,
//!   `capsule_cuboid` (parry's names; kasanari's kinds are circle, obb,
//!   polygon, capsule).
//!
//! The casts come from `kasanari_benches::cast_scene` (shared with the
//! callgrind driver `examples/cast_calls.rs`): the shapes of `distance.rs`,
//! B 1 to 3 bounding-radius sums from A, both moving, B's relative velocity
//! aimed at A within ±63° and fast enough to cross the gap by `max_toi = 1`,
//! so that about half hit. The set-up (never timed) prints the share of hits
//! and how kasanari's times of impact compare with parry's on the casts both
//! find.
//!
//! Run: `cargo bench -p kasanari-benches --bench casts`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use kasanari::nalgebra::{Isometry2, Point2, Translation2, UnitComplex, Vector2};
use kasanari::narrowphase::{self, ShapeCastOptions};
use kasanari::prelude::*;
use kasanari_benches::cast_scene::{CastSpec, MAX_TOI, PAIRS, PoseSpec, Spec, casts};

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
    }
}

fn kasanari_pose<T: Real>(p: &PoseSpec) -> Isometry2<T> {
    Isometry2::from_parts(
        Translation2::new(T::lit(p.x), T::lit(p.y)),
        UnitComplex::from_cos_sin_unchecked(T::lit(p.cos), T::lit(p.sin)),
    )
}

fn vector<T: Real>([x, y]: [f64; 2]) -> Vector2<T> {
    Vector2::new(T::lit(x), T::lit(y))
}

type KasanariCast<T> = (
    Box<dyn Shape<T>>,
    Isometry2<T>,
    Vector2<T>,
    Box<dyn Shape<T>>,
    Isometry2<T>,
    Vector2<T>,
);

fn kasanari_casts<T: Real>(specs: &[CastSpec]) -> Vec<KasanariCast<T>> {
    specs
        .iter()
        .map(|s| {
            (
                kasanari_shape(&s.a),
                kasanari_pose(&s.pose_a),
                vector(s.vel_a),
                kasanari_shape(&s.b),
                kasanari_pose(&s.pose_b),
                vector(s.vel_b),
            )
        })
        .collect()
}

fn kasanari_toi<T: Real>(c: &KasanariCast<T>) -> Option<f64> {
    let (a, pa, va, b, pb, vb) = c;
    narrowphase::cast_shapes(
        &**a,
        pa,
        va,
        &**b,
        pb,
        vb,
        T::lit(MAX_TOI),
        ShapeCastOptions::default(),
    )
    .unwrap()
    .map(|h| h.toi.as_f64())
}

trait Parry: Sized {
    fn new(specs: &[CastSpec]) -> Self;
    /// The time of impact of every cast, as f64.
    fn tois(&self) -> Vec<Option<f64>>;
    fn bench(&self, b: &mut criterion::Bencher<'_>);
}

macro_rules! parry_casts {
    ($name:ident, $parry:ident) => {
        struct $name(
            Vec<(
                Box<dyn $parry::shape::Shape>,
                $parry::math::Pose,
                $parry::math::Vector,
                Box<dyn $parry::shape::Shape>,
                $parry::math::Pose,
                $parry::math::Vector,
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
                }
            }

            fn pose(p: &PoseSpec) -> $parry::math::Pose {
                let l = <$parry::math::Real as Real>::lit;
                $parry::math::Pose::from_parts(
                    Self::vector([p.x, p.y]),
                    $parry::math::Rot2::from_cos_sin_unchecked(l(p.cos), l(p.sin)),
                )
            }

            fn options() -> $parry::query::ShapeCastOptions {
                let l = <$parry::math::Real as Real>::lit;
                $parry::query::ShapeCastOptions::with_max_time_of_impact(l(MAX_TOI))
            }
        }

        impl Parry for $name {
            fn new(specs: &[CastSpec]) -> Self {
                Self(
                    specs
                        .iter()
                        .map(|s| {
                            (
                                Self::shape(&s.a),
                                Self::pose(&s.pose_a),
                                Self::vector(s.vel_a),
                                Self::shape(&s.b),
                                Self::pose(&s.pose_b),
                                Self::vector(s.vel_b),
                            )
                        })
                        .collect(),
                )
            }

            fn tois(&self) -> Vec<Option<f64>> {
                self.0
                    .iter()
                    .map(|(a, pa, va, b, pb, vb)| {
                        $parry::query::cast_shapes(pa, *va, &**a, pb, *vb, &**b, Self::options())
                            .unwrap()
                            .map(|h| h.time_of_impact.as_f64())
                    })
                    .collect()
            }

            fn bench(&self, bencher: &mut criterion::Bencher<'_>) {
                let options = Self::options();
                bencher.iter(|| {
                    for (a, pa, va, b, pb, vb) in black_box(&self.0) {
                        let _ = black_box($parry::query::cast_shapes(
                            pa, *va, &**a, pb, *vb, &**b, options,
                        ));
                    }
                });
            }
        }
    };
}

parry_casts!(Parry32, parry2d);
parry_casts!(Parry64, parry2d_f64);

fn cast_group<T: Real, P: Parry>(c: &mut Criterion, prec: &str) {
    for (name, _, _) in PAIRS {
        let specs = casts(name);
        let ours = kasanari_casts::<T>(&specs);
        let theirs = P::new(&specs);

        // Set-up checks, never timed.
        let t: Vec<Option<f64>> = ours.iter().map(kasanari_toi).collect();
        let u = theirs.tois();
        let hits = t.iter().filter(|x| x.is_some()).count();
        let same = t
            .iter()
            .zip(&u)
            .filter(|(x, y)| x.is_some() == y.is_some())
            .count();
        let both: Vec<(f64, f64)> = t
            .iter()
            .zip(&u)
            .filter_map(|(x, y)| Some(((*x)?, (*y)?)))
            .collect();
        let worst = both.iter().map(|(x, y)| (x - y).abs()).fold(0.0, f64::max);
        eprintln!(
            "cast_shapes {prec} {name:16} hits {:5.1}%  hit/no hit as parry on {same}/{}, \
             largest toi difference {worst:.1e} on {} common hits",
            100.0 * hits as f64 / t.len() as f64,
            t.len(),
            both.len()
        );

        let mut group = c.benchmark_group(format!("cast_shapes_{prec}/{name}"));
        group.bench_function("kasanari", |b| {
            let options = ShapeCastOptions::default();
            let max_toi = T::lit(MAX_TOI);
            b.iter(|| {
                for (a, pa, va, s, ps, vs) in black_box(&ours) {
                    let _ = black_box(narrowphase::cast_shapes(
                        &**a, pa, va, &**s, ps, vs, max_toi, options,
                    ));
                }
            });
        });
        group.bench_function("parry", |b| theirs.bench(b));
        group.finish();
    }
}

fn benches(c: &mut Criterion) {
    cast_group::<f32, Parry32>(c, "f32");
    cast_group::<f64, Parry64>(c, "f64");
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
