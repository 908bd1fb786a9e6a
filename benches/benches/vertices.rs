//! Cost against vertex count: one big regular polygon against a circle, a
//! capsule, an ellipse, and another big polygon, from 8 to 100,000 vertices
//! (f64; f32 cannot hold the vertices of a 100,000-gon apart from its
//! edges), kasanari beside parry2d-f64 in the same run on the same inputs.
//!
//! - groups `vertices_<query>/<pair>`, `query` in `intersects`, `contact`,
//!   `distance`, `pair` in `circle_polygon`, `capsule_polygon`,
//!   `polygon_polygon`, `ellipse_polygon` (kasanari only: parry has no
//!   ellipse); functions `kasanari` (the free functions
//!   `narrowphase::{intersects, contact, distance}` on `&dyn Shape`) and
//!   `parry` (`query::{intersection_test, contact, distance}`), parameter the
//!   polygon's vertex count `n`;
//! - each iteration answers [`BATCH`] placements of the pair: the partner's
//!   centre at 0.3 to 3 times the sum of the bounding radii from the
//!   polygon's, in random directions and turns, so that half of them
//!   overlap. The set-up checks that kasanari and parry agree on every
//!   boolean and every distance (to `1e-6` relative).
//!
//! `benches/src/bin/report.rs` reads these names (and plots them against
//! `n`): keep them as they are.
//!
//! Run: `cargo bench -p kasanari-benches --bench vertices -- --warm-up-time 1
//! --measurement-time 3`.

use std::f64::consts::{PI, TAU};
use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use kasanari::nalgebra::{Isometry2, Point2, Vector2};
use kasanari::narrowphase;
use kasanari::prelude::*;
use kasanari_benches::Rng;
use parry2d_f64::math::{Pose, Rot2, Vector as PVector};
use parry2d_f64::shape as ps;

/// Placements answered per iteration.
const BATCH: usize = 8;

/// The vertex counts measured.
const SIZES: [usize; 7] = [8, 32, 128, 1000, 10_000, 40_000, 100_000];

/// The vertices of a regular `n`-gon of circumradius `r`, turned by `phase`.
fn regular(n: usize, r: f64, phase: f64) -> Vec<[f64; 2]> {
    (0..n)
        .map(|k| {
            let t = phase + TAU * k as f64 / n as f64;
            [r * t.cos(), r * t.sin()]
        })
        .collect()
}

/// The partner of the big polygon, in plain numbers, with its bounding radius.
#[derive(Debug, Clone)]
enum Partner {
    Circle(f64),
    Capsule(f64, f64),
    Polygon(Vec<[f64; 2]>),
    Ellipse(f64, f64),
}

impl Partner {
    fn bounding_radius(&self) -> f64 {
        match self {
            Partner::Circle(r) => *r,
            Partner::Capsule(h, r) => h + r,
            Partner::Polygon(v) => v.iter().map(|p| p[0].hypot(p[1])).fold(0.0, f64::max),
            Partner::Ellipse(a, b) => a.max(*b),
        }
    }

    fn kasanari(&self) -> Box<dyn Shape<f64>> {
        match self {
            Partner::Circle(r) => Box::new(Circle::new(*r).unwrap()),
            Partner::Capsule(h, r) => {
                Box::new(Capsule::new(Point2::new(-h, 0.0), Point2::new(*h, 0.0), *r).unwrap())
            }
            Partner::Polygon(v) => Box::new(kasanari_polygon(v)),
            Partner::Ellipse(a, b) => Box::new(Ellipse::new(Vector2::new(*a, *b)).unwrap()),
        }
    }

    fn parry(&self) -> Option<Box<dyn ps::Shape>> {
        Some(match self {
            Partner::Circle(r) => Box::new(ps::Ball::new(*r)),
            Partner::Capsule(h, r) => Box::new(ps::Capsule::new(
                PVector::new(-h, 0.0),
                PVector::new(*h, 0.0),
                *r,
            )),
            Partner::Polygon(v) => Box::new(parry_polygon(v)?),
            Partner::Ellipse(..) => return None,
        })
    }
}

fn kasanari_polygon(v: &[[f64; 2]]) -> ConvexPolygon<f64> {
    let vs: Vec<Point2<f64>> = v.iter().map(|p| Point2::new(p[0], p[1])).collect();
    let polygon = ConvexPolygon::new(&vs).unwrap();
    assert_eq!(polygon.len(), v.len(), "kasanari kept every vertex");
    polygon
}

/// parry's polygon, when parry keeps every vertex (from about 40,000
/// vertices on, `from_convex_polyline` drops vertices it finds collinear or
/// refuses the polygon: parry is then left out rather than timed on another
/// shape).
fn parry_polygon(v: &[[f64; 2]]) -> Option<ps::ConvexPolygon> {
    let vs: Vec<PVector> = v.iter().map(|p| PVector::new(p[0], p[1])).collect();
    let polygon = ps::ConvexPolygon::from_convex_polyline(vs)?;
    (polygon.points().len() == v.len()).then_some(polygon)
}

/// A placement: the partner's (x, y, cos, sin) in the polygon's world frame
/// (the polygon sits at the origin, unturned).
type Place = (f64, f64, f64, f64);

fn placements(rng: &mut Rng, reach: f64) -> Vec<Place> {
    // Half within reach (overlapping or nearly), half beyond.
    let factors: [f64; BATCH] = [0.3, 0.6, 0.9, 0.99, 1.05, 1.3, 2.0, 3.0];
    factors
        .iter()
        .map(|f| {
            let (dir, turn) = (rng.range(-PI, PI), rng.range(-PI, PI));
            (
                f * reach * dir.cos(),
                f * reach * dir.sin(),
                turn.cos(),
                turn.sin(),
            )
        })
        .collect()
}

fn kasanari_pose((x, y, c, s): Place) -> Isometry2<f64> {
    Isometry2::from_parts(
        kasanari::nalgebra::Translation2::new(x, y),
        kasanari::nalgebra::UnitComplex::from_cos_sin_unchecked(c, s),
    )
}

fn parry_pose((x, y, c, s): Place) -> Pose {
    Pose::from_parts(PVector::new(x, y), Rot2::from_cos_sin_unchecked(c, s))
}

fn bench(c: &mut Criterion) {
    let mut rng = Rng::new(0x7665_7274_6963_6573);
    for n in SIZES {
        let big = regular(n, 1.0, rng.range(0.0, TAU));
        let partners = [
            ("circle_polygon", Partner::Circle(0.3)),
            ("capsule_polygon", Partner::Capsule(0.4, 0.2)),
            (
                "polygon_polygon",
                Partner::Polygon(regular(n, 0.8, rng.range(0.0, TAU))),
            ),
            ("ellipse_polygon", Partner::Ellipse(0.5, 0.2)),
        ];
        let ours_big = kasanari_polygon(&big);
        let theirs_big = parry_polygon(&big);
        let identity = Isometry2::identity();
        for (name, partner) in &partners {
            let places = placements(&mut rng, 1.0 + partner.bounding_radius());
            let ours = partner.kasanari();
            let theirs = theirs_big.as_ref().zip(partner.parry());
            let poses: Vec<Isometry2<f64>> = places.iter().map(|p| kasanari_pose(*p)).collect();
            let parry_poses: Vec<Pose> = places.iter().map(|p| parry_pose(*p)).collect();
            let parry_origin = Pose::identity();
            // Agreement with parry before anything is timed.
            if let Some((theirs_big, theirs)) = &theirs {
                for (pose, ppose) in poses.iter().zip(&parry_poses) {
                    let hit = narrowphase::intersects(&ours_big, &identity, &*ours, pose).unwrap();
                    let their_hit = parry2d_f64::query::intersection_test(
                        &parry_origin,
                        *theirs_big,
                        ppose,
                        &**theirs,
                    )
                    .unwrap()
                    .intersecting;
                    assert_eq!(hit, their_hit, "{name} n = {n}: the booleans differ");
                    let d = narrowphase::distance(&ours_big, &identity, &*ours, pose).unwrap();
                    let e =
                        parry2d_f64::query::distance(&parry_origin, *theirs_big, ppose, &**theirs)
                            .unwrap()
                            .distance;
                    assert!(
                        (d - e).abs() <= 1e-6 * (1.0 + d.max(e)),
                        "{name} n = {n}: distances {d} and {e}"
                    );
                }
            }
            let id = n.to_string();
            let mut group = c.benchmark_group(format!("vertices_intersects/{name}"));
            group.bench_function(criterion::BenchmarkId::new("kasanari", &id), |b| {
                b.iter(|| {
                    for pose in black_box(&poses) {
                        let _ =
                            black_box(narrowphase::intersects(&ours_big, &identity, &*ours, pose));
                    }
                });
            });
            if let Some((theirs_big, theirs)) = &theirs {
                group.bench_function(criterion::BenchmarkId::new("parry", &id), |b| {
                    b.iter(|| {
                        for pose in black_box(&parry_poses) {
                            let _ = black_box(parry2d_f64::query::intersection_test(
                                &parry_origin,
                                *theirs_big,
                                pose,
                                &**theirs,
                            ));
                        }
                    });
                });
            }
            group.finish();
            let mut group = c.benchmark_group(format!("vertices_contact/{name}"));
            group.bench_function(criterion::BenchmarkId::new("kasanari", &id), |b| {
                b.iter(|| {
                    for pose in black_box(&poses) {
                        let _ = black_box(narrowphase::contact(&ours_big, &identity, &*ours, pose));
                    }
                });
            });
            if let Some((theirs_big, theirs)) = &theirs {
                group.bench_function(criterion::BenchmarkId::new("parry", &id), |b| {
                    b.iter(|| {
                        for pose in black_box(&parry_poses) {
                            let _ = black_box(parry2d_f64::query::contact(
                                &parry_origin,
                                *theirs_big,
                                pose,
                                &**theirs,
                                0.0,
                            ));
                        }
                    });
                });
            }
            group.finish();
            let mut group = c.benchmark_group(format!("vertices_distance/{name}"));
            group.bench_function(criterion::BenchmarkId::new("kasanari", &id), |b| {
                b.iter(|| {
                    for pose in black_box(&poses) {
                        let _ =
                            black_box(narrowphase::distance(&ours_big, &identity, &*ours, pose));
                    }
                });
            });
            if let Some((theirs_big, theirs)) = &theirs {
                group.bench_function(criterion::BenchmarkId::new("parry", &id), |b| {
                    b.iter(|| {
                        for pose in black_box(&parry_poses) {
                            let _ = black_box(parry2d_f64::query::distance(
                                &parry_origin,
                                *theirs_big,
                                pose,
                                &**theirs,
                            ));
                        }
                    });
                });
            }
            group.finish();
        }
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = bench
}
criterion_main!(benches);
