//! The narrow phase, per pair, over batches of 1024 prebuilt pairs:
//!
//! 1. kasanari's [`DispatchTable`] beside parry2d (f32) and parry2d-f64 (f64)
//!    through their generic entry points, boolean (`intersection_test`) and
//!    contact (`contact` with prediction 0): groups `narrow_bool_f32/<pair>`,
//!    `narrow_contact_f32/<pair>`, `narrow_bool_f64/<pair>`,
//!    `narrow_contact_f64/<pair>`, functions `kasanari` and `parry`; the ellipse
//!    pairs (no parry equivalent) with `kasanari` only; contact manifolds
//!    (prediction 0): groups `narrow_manifold_f32/<pair>` and `_f64`, kasanari's
//!    `Table::contact_manifold` beside parry's `contact_manifolds` with each
//!    pair's manifolds and workspace kept from call to call (an engine's use);
//! 2. seed 002's point in a rotated box, local frame vs cross products: groups
//!    `point_obb_methods_f32` / `_f64`, functions `local_frame`, `cross_product`;
//! 3. the table's overhead over a typed kernel: groups `dispatch_f32/<pair>` /
//!    `dispatch_f64/<pair>`, functions `table` (an owned table), `free` (the
//!    free function `narrowphase::intersects`) and `typed` (the kernel called
//!    directly, `inv_mul` included); `dispatch_<prec>/user_disc_disc` for a
//!    user kind with its registered kernel (`table`, `typed`).
//!
//! Groups 1 also time the free functions (`narrowphase::intersects`,
//! `narrowphase::contact`), function `free`.
//!
//! `benches/src/bin/report.rs` reads these names: keep them as they are.
//!
//! Every pair is drawn once, in plain `f64` numbers ([`PairSpec`]), from a seeded
//! generator, then converted to each library's types (and to each precision)
//! before anything is timed, so both libraries see the same geometry: the same
//! rounded vertices and the same rotation (cos, sin). B is placed around A so
//! that about half of the pairs collide; the set-up asserts that fraction (by
//! kasanari's answer) and that kasanari and parry agree on the boolean for at
//! least 99% of the pairs, and prints both.
//!
//! Run: `cargo bench -p kasanari-benches --bench narrow` (about 2.5 minutes on
//! two cores).

use std::f64::consts::{PI, TAU};
use std::hint::black_box;
use std::time::Duration;

use criterion::{Bencher, Criterion, criterion_group, criterion_main};
use kasanari::nalgebra::{Isometry2, Point2, Translation2, UnitComplex, Vector2};
use kasanari::narrowphase::{self, Contact, circle, point, sat};
use kasanari::prelude::*;
use kasanari_benches::Rng;

/// Pairs per timed iteration: enough that no single pair sits in a cache line
/// or a branch predictor's history for the whole measurement.
const BATCH: usize = 1024;

// ---------------------------------------------------------------------------
// Inputs, in plain numbers.
// ---------------------------------------------------------------------------

/// A shape in its local frame, in plain `f64` numbers.
#[derive(Debug, Clone)]
enum Spec {
    Point,
    Circle(f64),
    Obb([f64; 2]),
    /// Counter-clockwise, strictly convex.
    Polygon(Vec<[f64; 2]>),
    Segment([f64; 2], [f64; 2]),
    /// Counter-clockwise, containing the origin.
    Triangle([[f64; 2]; 3]),
    Capsule([f64; 2], [f64; 2], f64),
    Ellipse([f64; 2]),
}

impl Spec {
    /// The radius of a disc about the local origin holding the shape.
    fn bounding_radius(&self) -> f64 {
        let norm = |p: &[f64; 2]| p[0].hypot(p[1]);
        match self {
            Spec::Point => 0.0,
            Spec::Circle(r) => *r,
            Spec::Obb(h) => norm(h),
            Spec::Polygon(v) => v.iter().map(norm).fold(0.0, f64::max),
            Spec::Segment(a, b) => norm(a).max(norm(b)),
            Spec::Triangle(v) => v.iter().map(norm).fold(0.0, f64::max),
            Spec::Capsule(a, b, r) => norm(a).max(norm(b)) + r,
            Spec::Ellipse(r) => r[0].max(r[1]),
        }
    }
}

/// A pose: the translation and the rotation as (cos, sin), so that both
/// libraries receive bit-identical rotations (each rounds the same numbers).
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

/// One pair of the batch, A and B each placed in the world.
#[derive(Debug, Clone)]
struct PairSpec {
    a: Spec,
    pose_a: PoseSpec,
    b: Spec,
    pose_b: PoseSpec,
}

fn circle_spec(rng: &mut Rng) -> Spec {
    Spec::Circle(rng.range(0.25, 1.5))
}

fn obb_spec(rng: &mut Rng) -> Spec {
    Spec::Obb([rng.range(0.25, 1.5), rng.range(0.25, 1.5)])
}

/// 6 to 8 vertices on an ellipse (so the polygon is strictly convex), at
/// jittered angles: each within 30% of a gap from its evenly spaced place.
fn polygon_spec(rng: &mut Rng) -> Spec {
    let n = 6 + (rng.next_u64() % 3) as usize;
    let gap = TAU / n as f64;
    let (phase, radius) = (rng.range(0.0, TAU), rng.range(0.5, 1.5));
    let (sx, sy) = (rng.range(0.7, 1.3), rng.range(0.7, 1.3));
    let vertices = (0..n)
        .map(|i| {
            let t = phase + gap * (i as f64 + rng.range(-0.3, 0.3));
            [radius * sx * t.cos(), radius * sy * t.sin()]
        })
        .collect();
    Spec::Polygon(vertices)
}

/// A segment of length 1 to 4 along the local x axis, off the origin by up to 0.2.
fn segment_spec(rng: &mut Rng) -> Spec {
    let (h, ox, oy) = (
        rng.range(0.5, 2.0),
        rng.range(-0.2, 0.2),
        rng.range(-0.2, 0.2),
    );
    Spec::Segment([ox - h, oy], [ox + h, oy])
}

/// Corners near 0°, 120° and 240° (within ±0.5 rad), so every angular gap is
/// below π: the origin is inside and the corners are counter-clockwise.
fn triangle_spec(rng: &mut Rng) -> Spec {
    let phase = rng.range(0.0, TAU);
    let mut corner = |i: f64| {
        let (t, r) = (
            phase + i * TAU / 3.0 + rng.range(-0.5, 0.5),
            rng.range(0.5, 1.5),
        );
        [r * t.cos(), r * t.sin()]
    };
    Spec::Triangle([corner(0.0), corner(1.0), corner(2.0)])
}

fn capsule_spec(rng: &mut Rng) -> Spec {
    let (h, r) = (rng.range(0.25, 1.0), rng.range(0.2, 0.8));
    Spec::Capsule([0.0, -h], [0.0, h], r)
}

fn ellipse_spec(rng: &mut Rng) -> Spec {
    Spec::Ellipse([rng.range(0.25, 1.5), rng.range(0.25, 1.5)])
}

/// One row of the pair table.
struct Case {
    /// The pair, as it appears in the group names (`narrow_bool_f32/<name>`).
    name: &'static str,
    /// Draws A and B in their local frames.
    shapes: fn(&mut Rng) -> (Spec, Spec),
    /// B's centre is placed at distance `u · spread · (r_a + r_b)` from A's,
    /// `u` uniform in [0, 1), in a uniform direction, with both rotations
    /// uniform: `spread` is tuned per pair so that about half of the pairs
    /// collide (for two circles exactly 1/spread do).
    spread: f64,
    /// Whether parry has the pair (not for ellipses).
    parry: bool,
}

/// Every narrow-phase pair measured, A first as in the group name. Kept as
/// one aligned table, hence no rustfmt.
#[rustfmt::skip]
fn cases() -> Vec<Case> {
    let case = |name, shapes, spread, parry| Case { name, shapes, spread, parry };
    vec![
        //    name              A, B                                        spread parry
        case("circle_circle",   |r| (circle_spec(r), circle_spec(r)),       2.0,   true),
        case("obb_obb",         |r| (obb_spec(r), obb_spec(r)),             1.45,  true),
        case("circle_obb",      |r| (circle_spec(r), obb_spec(r)),          1.6,   true),
        case("circle_polygon",  |r| (circle_spec(r), polygon_spec(r)),      1.8,   true),
        case("polygon_polygon", |r| (polygon_spec(r), polygon_spec(r)),     1.7,   true),
        case("segment_obb",     |r| (segment_spec(r), obb_spec(r)),         1.2,   true),
        case("triangle_circle", |r| (triangle_spec(r), circle_spec(r)),     1.45,  true),
        case("capsule_obb",     |r| (capsule_spec(r), obb_spec(r)),         1.5,   true),
        case("point_obb",       |r| (Spec::Point, obb_spec(r)),             1.3,   true),
        case("ellipse_ellipse", |r| (ellipse_spec(r), ellipse_spec(r)),     1.5,   false),
        case("ellipse_circle",  |r| (ellipse_spec(r), circle_spec(r)),      1.6,   false),
        case("ellipse_polygon", |r| (ellipse_spec(r), polygon_spec(r)),     1.6,   false),
    ]
}

/// The case's batch, from a seed of its own (the same for f32 and f64).
fn pair_specs(case: &Case, seed: u64) -> Vec<PairSpec> {
    let mut rng = Rng::new(seed);
    (0..BATCH)
        .map(|_| {
            let (a, b) = (case.shapes)(&mut rng);
            let pose_a = PoseSpec::new(
                rng.range(-50.0, 50.0),
                rng.range(-50.0, 50.0),
                rng.range(-PI, PI),
            );
            let d = rng.range(0.0, 1.0) * case.spread * (a.bounding_radius() + b.bounding_radius());
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

// ---------------------------------------------------------------------------
// Conversions to kasanari (generic over the precision).
// ---------------------------------------------------------------------------

fn kasanari_point<T: Real>([x, y]: [f64; 2]) -> Point2<T> {
    Point2::new(T::lit(x), T::lit(y))
}

fn kasanari_shape<T: Real>(s: &Spec) -> Box<dyn Shape<T>> {
    let p = kasanari_point::<T>;
    let v = |[x, y]: [f64; 2]| Vector2::new(T::lit(x), T::lit(y));
    match s {
        Spec::Point => Box::new(Point::origin()),
        Spec::Circle(r) => Box::new(Circle::new(T::lit(*r)).unwrap()),
        Spec::Obb(h) => Box::new(Obb::new(v(*h)).unwrap()),
        Spec::Polygon(vs) => {
            let vs: Vec<Point2<T>> = vs.iter().map(|q| p(*q)).collect();
            let polygon = ConvexPolygon::new(&vs).unwrap();
            assert_eq!(polygon.len(), vs.len(), "kasanari kept every vertex");
            Box::new(polygon)
        }
        Spec::Segment(a, b) => Box::new(Segment::new(p(*a), p(*b)).unwrap()),
        Spec::Triangle([a, b, c]) => Box::new(Triangle::new(p(*a), p(*b), p(*c)).unwrap()),
        Spec::Capsule(a, b, r) => Box::new(Capsule::new(p(*a), p(*b), T::lit(*r)).unwrap()),
        Spec::Ellipse(r) => Box::new(Ellipse::new(v(*r)).unwrap()),
    }
}

fn kasanari_pose<T: Real>(p: &PoseSpec) -> Isometry2<T> {
    Isometry2::from_parts(
        Translation2::new(T::lit(p.x), T::lit(p.y)),
        UnitComplex::from_cos_sin_unchecked(T::lit(p.cos), T::lit(p.sin)),
    )
}

/// A pair as the dispatch table takes it: boxed shapes and world poses.
type KasanariPair<T> = (
    Box<dyn Shape<T>>,
    Isometry2<T>,
    Box<dyn Shape<T>>,
    Isometry2<T>,
);

/// A pair as a typed kernel takes it: the shapes by type and world poses.
type TypedPair<'a, T, A, B> = (&'a A, Isometry2<T>, &'a B, Isometry2<T>);

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

// ---------------------------------------------------------------------------
// Conversions to parry: one implementation per parry crate (f32, f64).
// ---------------------------------------------------------------------------

/// What the driver needs of a parry crate: the pairs in its types, its
/// answers for the set-up checks, and the two timed loops.
trait Parry: Sized {
    fn new(specs: &[PairSpec]) -> Self;
    /// `intersection_test` on every pair.
    fn intersects(&self) -> Vec<bool>;
    /// Whether `contact` (prediction 0) finds a contact, on every pair.
    fn contacts(&self) -> Vec<bool>;
    fn bench_bool(&self, b: &mut Bencher<'_>);
    fn bench_contact(&self, b: &mut Bencher<'_>);
    /// The number of points of each pair's contact manifolds (prediction 0).
    fn manifold_points(&self) -> Vec<usize>;
    /// `contact_manifolds` (prediction 0) on every pair, each pair keeping
    /// its manifolds and workspace from one call to the next as an engine
    /// does (parry's persistent use, its fastest).
    fn bench_manifold(&self, b: &mut Bencher<'_>);
}

macro_rules! parry_pairs {
    ($name:ident, $parry:ident) => {
        /// Pairs in this parry crate's types: boxed shapes and world poses.
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
                    // parry2d has no point shape: a ball of radius 0 keeps the
                    // pair on parry's generic `intersection_test` / `contact`
                    // path, as kasanari's point goes through its table (the
                    // alternative, `PointQuery::contains_point` on the box,
                    // would skip parry's dispatch).
                    Spec::Point => Box::new(ps::Ball::new(l(0.0))),
                    Spec::Circle(r) => Box::new(ps::Ball::new(l(*r))),
                    Spec::Obb(h) => Box::new(ps::Cuboid::new(v(*h))),
                    Spec::Polygon(vs) => {
                        let vs: Vec<_> = vs.iter().map(|q| v(*q)).collect();
                        let n = vs.len();
                        let polygon = ps::ConvexPolygon::from_convex_polyline(vs).unwrap();
                        assert_eq!(polygon.points().len(), n, "parry kept every vertex");
                        Box::new(polygon)
                    }
                    Spec::Segment(a, b) => Box::new(ps::Segment::new(v(*a), v(*b))),
                    Spec::Triangle([a, b, c]) => Box::new(ps::Triangle::new(v(*a), v(*b), v(*c))),
                    Spec::Capsule(a, b, r) => Box::new(ps::Capsule::new(v(*a), v(*b), l(*r))),
                    Spec::Ellipse(_) => unreachable!("parry has no ellipse"),
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

            fn intersects(&self) -> Vec<bool> {
                self.0
                    .iter()
                    .map(|(a, pa, b, pb)| {
                        $parry::query::intersection_test(pa, &**a, pb, &**b)
                            .unwrap()
                            .intersecting
                    })
                    .collect()
            }

            fn contacts(&self) -> Vec<bool> {
                self.0
                    .iter()
                    .map(|(a, pa, b, pb)| {
                        $parry::query::contact(pa, &**a, pb, &**b, l0())
                            .unwrap()
                            .is_some()
                    })
                    .collect()
            }

            fn bench_bool(&self, bencher: &mut Bencher<'_>) {
                bencher.iter(|| {
                    for (a, pa, b, pb) in black_box(&self.0) {
                        let _ = black_box($parry::query::intersection_test(pa, &**a, pb, &**b));
                    }
                });
            }

            fn bench_contact(&self, bencher: &mut Bencher<'_>) {
                let prediction = l0();
                bencher.iter(|| {
                    for (a, pa, b, pb) in black_box(&self.0) {
                        let _ = black_box($parry::query::contact(pa, &**a, pb, &**b, prediction));
                    }
                });
            }

            fn manifold_points(&self) -> Vec<usize> {
                use $parry::query::{DefaultQueryDispatcher, PersistentQueryDispatcher};
                self.0
                    .iter()
                    .map(|(a, pa, b, pb)| {
                        let mut manifolds: Vec<$parry::query::ContactManifold<(), ()>> = Vec::new();
                        let mut workspace = None;
                        DefaultQueryDispatcher
                            .contact_manifolds(
                                &pa.inv_mul(pb),
                                &**a,
                                &**b,
                                l0(),
                                &mut manifolds,
                                &mut workspace,
                            )
                            .unwrap();
                        manifolds.iter().map(|m| m.points.len()).sum()
                    })
                    .collect()
            }

            fn bench_manifold(&self, bencher: &mut Bencher<'_>) {
                use $parry::query::{
                    ContactManifold, ContactManifoldsWorkspace, DefaultQueryDispatcher,
                    PersistentQueryDispatcher,
                };
                type State = (
                    Vec<ContactManifold<(), ()>>,
                    Option<ContactManifoldsWorkspace>,
                );
                let mut state: Vec<State> = self.0.iter().map(|_| (Vec::new(), None)).collect();
                let prediction = l0();
                bencher.iter(|| {
                    for ((a, pa, b, pb), (manifolds, workspace)) in
                        black_box(&self.0).iter().zip(&mut state)
                    {
                        let _ = black_box(DefaultQueryDispatcher.contact_manifolds(
                            &pa.inv_mul(pb),
                            &**a,
                            &**b,
                            prediction,
                            manifolds,
                            workspace,
                        ));
                    }
                });
            }
        }
    };
}

/// Zero in either precision (parry's contact prediction).
fn l0<T: Real>() -> T {
    T::zero()
}

parry_pairs!(Parry32, parry2d);
parry_pairs!(Parry64, parry2d_f64);

// ---------------------------------------------------------------------------
// The benchmarks.
// ---------------------------------------------------------------------------

/// The share of `true` in `v`.
fn share(v: &[bool]) -> f64 {
    v.iter().filter(|&&x| x).count() as f64 / v.len() as f64
}

/// The share of positions where `a` and `b` agree.
fn agreement(a: &[bool], b: &[bool]) -> f64 {
    a.iter().zip(b).filter(|(x, y)| x == y).count() as f64 / a.len() as f64
}

/// Groups 1: every case of the table, boolean and contact, kasanari beside
/// parry `P` when parry has the pair.
fn narrow<T: Real, P: Parry>(c: &mut Criterion, prec: &str) {
    let table = DispatchTable::<T>::new();
    for (i, case) in cases().iter().enumerate() {
        let specs = pair_specs(case, 0x6E61_7272_0000 + i as u64);
        let ours = kasanari_pairs::<T>(&specs);

        // Set-up checks, never timed.
        let hits: Vec<bool> = ours
            .iter()
            .map(|(a, pa, b, pb)| table.intersects(&**a, pa, &**b, pb).unwrap())
            .collect();
        let contacts: Vec<bool> = ours
            .iter()
            .map(|(a, pa, b, pb)| table.contact(&**a, pa, &**b, pb).unwrap().is_some())
            .collect();
        let colliding = share(&hits);
        let name = case.name;
        let mut line = format!(
            "narrow {prec} {name:16} colliding {:5.1}%  kasanari contact/bool agree {:5.1}%",
            100.0 * colliding,
            100.0 * agreement(&hits, &contacts),
        );
        assert!(
            (0.35..=0.65).contains(&colliding),
            "{name} ({prec}): {:.1}% of the pairs collide; retune its spread",
            100.0 * colliding
        );
        let theirs = case.parry.then(|| P::new(&specs));
        if let Some(theirs) = &theirs {
            let bool_agree = agreement(&hits, &theirs.intersects());
            let contact_agree = agreement(&contacts, &theirs.contacts());
            line += &format!(
                "  vs parry: bool agree {:6.2}%, contact agree {:6.2}%",
                100.0 * bool_agree,
                100.0 * contact_agree
            );
            assert!(
                bool_agree >= 0.99,
                "{name} ({prec}): kasanari and parry agree on only {:.2}% of the pairs",
                100.0 * bool_agree
            );
        }
        eprintln!("{line}");

        let mut group = c.benchmark_group(format!("narrow_bool_{prec}/{name}"));
        group.bench_function("kasanari", |b| {
            b.iter(|| {
                for (a, pa, s, ps) in black_box(&ours) {
                    let _ = black_box(table.intersects(&**a, pa, &**s, ps));
                }
            });
        });
        group.bench_function("free", |b| {
            b.iter(|| {
                for (a, pa, s, ps) in black_box(&ours) {
                    let _ = black_box(narrowphase::intersects(&**a, pa, &**s, ps));
                }
            });
        });
        if let Some(theirs) = &theirs {
            group.bench_function("parry", |b| theirs.bench_bool(b));
        }
        group.finish();

        let mut group = c.benchmark_group(format!("narrow_contact_{prec}/{name}"));
        group.bench_function("kasanari", |b| {
            b.iter(|| {
                for (a, pa, s, ps) in black_box(&ours) {
                    let _ = black_box(table.contact(&**a, pa, &**s, ps));
                }
            });
        });
        group.bench_function("free", |b| {
            b.iter(|| {
                for (a, pa, s, ps) in black_box(&ours) {
                    let _ = black_box(narrowphase::contact(&**a, pa, &**s, ps));
                }
            });
        });
        if let Some(theirs) = &theirs {
            group.bench_function("parry", |b| theirs.bench_contact(b));
        }
        group.finish();

        // Manifolds (prediction 0): the share of two-point manifolds, then
        // the timings.
        let ours_points: Vec<usize> = ours
            .iter()
            .map(|(a, pa, b, pb)| {
                table
                    .contact_manifold(&**a, pa, &**b, pb, T::zero())
                    .unwrap()
                    .map_or(0, |m| m.len())
            })
            .collect();
        let two = |v: &[usize]| v.iter().filter(|&&n| n >= 2).count() as f64 / v.len() as f64;
        let mut line = format!(
            "narrow {prec} {name:16} manifolds: kasanari 2 points {:5.1}%",
            100.0 * two(&ours_points)
        );
        if let Some(theirs) = &theirs {
            let points = theirs.manifold_points();
            line += &format!(", parry 2 points {:5.1}%", 100.0 * two(&points));
        }
        eprintln!("{line}");
        let mut group = c.benchmark_group(format!("narrow_manifold_{prec}/{name}"));
        group.bench_function("kasanari", |b| {
            b.iter(|| {
                for (a, pa, s, ps) in black_box(&ours) {
                    let _ = black_box(table.contact_manifold(&**a, pa, &**s, ps, T::zero()));
                }
            });
        });
        if let Some(theirs) = &theirs {
            group.bench_function("parry", |b| theirs.bench_manifold(b));
        }
        group.finish();
    }
}

/// The batch of a case of the table, by name.
fn specs_of(name: &str) -> Vec<PairSpec> {
    let all = cases();
    let i = all.iter().position(|c| c.name == name).unwrap();
    pair_specs(&all[i], 0x6E61_7272_0000 + i as u64)
}

/// Group 2 (seed 002): the same (point, box, box pose in the point's frame)
/// triples, two kernels.
fn point_obb_methods<T: Real>(c: &mut Criterion, prec: &str) {
    let triples: Vec<(Point<T>, Obb<T>, Isometry2<T>)> = specs_of("point_obb")
        .iter()
        .map(|s| {
            let Spec::Obb(h) = s.b else { unreachable!() };
            let b_in_a = kasanari_pose::<T>(&s.pose_a).inv_mul(&kasanari_pose(&s.pose_b));
            let obb = Obb::new(Vector2::new(T::lit(h[0]), T::lit(h[1]))).unwrap();
            (Point::origin(), obb, b_in_a)
        })
        .collect();
    let same = triples
        .iter()
        .filter(|(p, b, m)| point::point_obb(p, b, m) == point::point_obb_cross_product(p, b, m))
        .count();
    eprintln!(
        "point_obb_methods {prec}: the two methods agree on {same}/{} triples",
        triples.len()
    );

    let mut group = c.benchmark_group(format!("point_obb_methods_{prec}"));
    group.bench_function("local_frame", |b| {
        b.iter(|| {
            for (p, obb, m) in black_box(&triples) {
                black_box(point::point_obb(p, obb, m));
            }
        });
    });
    group.bench_function("cross_product", |b| {
        b.iter(|| {
            for (p, obb, m) in black_box(&triples) {
                black_box(point::point_obb_cross_product(p, obb, m));
            }
        });
    });
    group.finish();
}

/// Group 3 for one pair: the table on the boxed shapes and world poses, the
/// free function on the same, and the typed kernel on the same shapes
/// (downcast before timing).
///
/// The table computes `b_in_a = pose_a⁻¹ · pose_b` itself, so `typed` is given
/// the world poses and timed *including* that `inv_mul` (in the kernel's
/// order: `kernel` takes A and B as the case names them and calls the typed
/// kernel in canonical order): the difference is the table's own cost (pose
/// checks, kind match, canonical order, answer mapping).
fn dispatch_pair<T: Real, A: 'static, B: 'static>(
    c: &mut Criterion,
    prec: &str,
    name: &str,
    kernel: impl Fn(&A, &Isometry2<T>, &B, &Isometry2<T>) -> bool,
) {
    let table = DispatchTable::<T>::new();
    let boxed = kasanari_pairs::<T>(&specs_of(name));
    let typed: Vec<TypedPair<'_, T, A, B>> = boxed
        .iter()
        .map(|(a, pa, b, pb)| {
            let a = a.as_any().downcast_ref::<A>().unwrap();
            (a, *pa, b.as_any().downcast_ref::<B>().unwrap(), *pb)
        })
        .collect();
    for ((a, pa, b, pb), (x, px, y, py)) in boxed.iter().zip(&typed) {
        assert_eq!(
            table.intersects(&**a, pa, &**b, pb),
            Ok(kernel(x, px, y, py))
        );
    }

    let mut group = c.benchmark_group(format!("dispatch_{prec}/{name}"));
    group.bench_function("table", |b| {
        b.iter(|| {
            for (a, pa, s, ps) in black_box(&boxed) {
                let _ = black_box(table.intersects(&**a, pa, &**s, ps));
            }
        });
    });
    group.bench_function("free", |b| {
        b.iter(|| {
            for (a, pa, s, ps) in black_box(&boxed) {
                let _ = black_box(narrowphase::intersects(&**a, pa, &**s, ps));
            }
        });
    });
    group.bench_function("typed", |b| {
        b.iter(|| {
            for (a, pa, s, ps) in black_box(&typed) {
                black_box(kernel(a, pa, s, ps));
            }
        });
    });
    group.finish();
}

/// A user shape kind: a disc the table knows only by its registered kernels.
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

/// The user kind's boolean kernel, in A's frame.
fn disc_disc<T: Real>(a: &Disc<T>, b: &Disc<T>, b_in_a: &Isometry2<T>) -> bool {
    let r = a.radius + b.radius;
    b_in_a.translation.vector.norm_squared() <= r * r
}

/// The user kind's contact kernel (the circles' own), in A's frame.
fn disc_disc_contact<T: Real>(
    a: &Disc<T>,
    b: &Disc<T>,
    b_in_a: &Isometry2<T>,
) -> Option<Contact<T>> {
    let (ca, cb) = (Circle::new(a.radius).ok()?, Circle::new(b.radius).ok()?);
    circle::circle_circle_contact(&ca, &cb, b_in_a)
}

/// Group 3 for a user kind: the circle–circle batch as two [`Disc`]s, through
/// a table where `disc_disc` is registered (`table`) and by calling
/// `disc_disc` directly (`typed`), in `dispatch_<prec>/user_disc_disc`.
fn dispatch_user<T: Real>(c: &mut Criterion, prec: &str) {
    let mut table = DispatchTable::<T>::new();
    let kind = ShapeKind::custom(7);
    table.register(
        kind,
        kind,
        "disc_disc",
        disc_disc::<T>,
        disc_disc_contact::<T>,
    );
    let pairs: Vec<KasanariPair<T>> = specs_of("circle_circle")
        .iter()
        .map(|s| {
            let (Spec::Circle(ra), Spec::Circle(rb)) = (&s.a, &s.b) else {
                unreachable!()
            };
            let disc = |r: f64| -> Box<dyn Shape<T>> { Box::new(Disc { radius: T::lit(r) }) };
            (
                disc(*ra),
                kasanari_pose(&s.pose_a),
                disc(*rb),
                kasanari_pose(&s.pose_b),
            )
        })
        .collect();
    let typed: Vec<TypedPair<'_, T, Disc<T>, Disc<T>>> = pairs
        .iter()
        .map(|(a, pa, b, pb)| {
            let a = a.as_any().downcast_ref::<Disc<T>>().unwrap();
            (a, *pa, b.as_any().downcast_ref::<Disc<T>>().unwrap(), *pb)
        })
        .collect();
    for ((a, pa, b, pb), (x, px, y, py)) in pairs.iter().zip(&typed) {
        let direct = disc_disc(x, y, &px.inv_mul(py));
        assert_eq!(table.intersects(&**a, pa, &**b, pb), Ok(direct));
    }

    let mut group = c.benchmark_group(format!("dispatch_{prec}/user_disc_disc"));
    group.bench_function("table", |b| {
        b.iter(|| {
            for (a, pa, s, ps) in black_box(&pairs) {
                let _ = black_box(table.intersects(&**a, pa, &**s, ps));
            }
        });
    });
    group.bench_function("typed", |b| {
        b.iter(|| {
            for (a, pa, s, ps) in black_box(&typed) {
                black_box(disc_disc(a, s, &pa.inv_mul(ps)));
            }
        });
    });
    group.finish();
}

fn dispatch<T: Real>(c: &mut Criterion, prec: &str) {
    dispatch_pair::<T, Circle<T>, Circle<T>>(c, prec, "circle_circle", |a, pa, b, pb| {
        circle::circle_circle(a, b, &pa.inv_mul(pb))
    });
    dispatch_pair::<T, Obb<T>, Obb<T>>(c, prec, "obb_obb", |a, pa, b, pb| {
        sat::obb_obb(a, b, &pa.inv_mul(pb))
    });
    dispatch_pair::<T, Circle<T>, Obb<T>>(c, prec, "circle_obb", |a, pa, b, pb| {
        circle::circle_obb(a, b, &pa.inv_mul(pb))
    });
    // The case names the triangle first; the kernel takes the circle first.
    dispatch_pair::<T, Triangle<T>, Circle<T>>(c, prec, "triangle_circle", |a, pa, b, pb| {
        circle::circle_triangle(b, a, &pb.inv_mul(pa))
    });
    dispatch_pair::<T, Point<T>, Obb<T>>(c, prec, "point_obb", |a, pa, b, pb| {
        point::point_obb(a, b, &pa.inv_mul(pb))
    });
    dispatch_pair::<T, Circle<T>, ConvexPolygon<T>>(c, prec, "circle_polygon", |a, pa, b, pb| {
        circle::circle_polygon(a, b, &pa.inv_mul(pb))
    });
    dispatch_user::<T>(c, prec);
}

fn benches(c: &mut Criterion) {
    narrow::<f32, Parry32>(c, "f32");
    narrow::<f64, Parry64>(c, "f64");
    point_obb_methods::<f32>(c, "f32");
    point_obb_methods::<f64>(c, "f64");
    dispatch::<f32>(c, "f32");
    dispatch::<f64>(c, "f64");
}

criterion_group! {
    name = narrow_benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_millis(700))
        .sample_size(15);
    targets = benches
}
criterion_main!(narrow_benches);
