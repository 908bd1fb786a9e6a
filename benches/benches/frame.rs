//! A whole frame: N moving 2D shapes of every kind get new poses, then every
//! colliding pair is found with its contact. kasanari's `World` (one
//! `set_poses` call with every object's pose, then `collisions()`: grid
//! update, candidate pairs, dispatch table,
//! exact kernels, started/stopped events) against parry2d used the way a
//! physics engine uses it (BVH: `insert_or_update_partially` per leaf with the
//! shape's new AABB, `refit`, self-traversal, then `query::contact` per
//! candidate pair), in f32 (`frame_f32`) and f64 (`frame_f64`, parry2d-f64).
//!
//! The shapes, in equal numbers: circle, OBB, AABB (turns never: parry gets a
//! cuboid with the rotation dropped), triangle, convex polygon (5 to 8
//! vertices), capsule, segment, point (parry has no point shape: a ball of
//! radius 0), ellipse (parry has no ellipse: an inscribed
//! [`ELLIPSE_SEGMENTS`]-gon, an approximation, so pairs that barely touch an
//! ellipse may disagree). Sizes are mixed (95 % about one unit across, 5 % five
//! to ten times larger), placed uniformly in a square scaled for about two
//! bounding-box overlaps per shape. Each iteration moves to the next of
//! [`POSE_SETS`] precomputed jittered pose sets. In set-up, both sides' colliding
//! pairs are compared on every pose set and the disagreements counted.
//!
//! Run: `cargo bench -p kasanari-benches --bench frame`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, SamplingMode, criterion_group, criterion_main};
use kasanari::nalgebra::{Isometry2, Point2, Vector2};
use kasanari::prelude::*;
use kasanari_benches::Rng;

/// Scene sizes.
const SIZES: [usize; 4] = [1_000, 10_000, 30_000, 100_000];
/// Jittered pose sets each scene cycles through.
const POSE_SETS: usize = 4;
/// Translation jitter per axis (a small shape is about one unit across).
const MOVE: f64 = 0.05;
/// Rotation jitter, radians.
const TURN: f64 = 0.05;
/// Mean bounding-box overlaps per shape the square is sized for.
const TARGET_OVERLAPS: f64 = 2.0;
/// Vertices of parry's polygon standing in for an ellipse.
const ELLIPSE_SEGMENTS: usize = 32;

/// A shape, in f64, for both libraries to build from.
#[derive(Debug, Clone)]
enum Spec {
    Circle(f64),
    Obb([f64; 2]),
    /// Axis-aligned whatever the pose's rotation.
    Aabb([f64; 2]),
    Triangle([[f64; 2]; 3]),
    Polygon(Vec<[f64; 2]>),
    Capsule {
        half_height: f64,
        radius: f64,
    },
    Segment([f64; 2], [f64; 2]),
    Point,
    Ellipse([f64; 2]),
}

impl Spec {
    fn is_ellipse(&self) -> bool {
        matches!(self, Self::Ellipse(_))
    }
}

/// `n` angles around the circle, evenly spaced and jittered by up to a third
/// of the spacing (so they stay in order), starting anywhere.
fn angles(rng: &mut Rng, n: usize) -> Vec<f64> {
    let step = std::f64::consts::TAU / n as f64;
    let start = rng.range(0.0, std::f64::consts::TAU);
    (0..n)
        .map(|i| start + step * (i as f64 + rng.range(-0.33, 0.33)))
        .collect()
}

fn spec(rng: &mut Rng) -> Spec {
    let s = rng.range(0.4, 0.6)
        * if rng.range(0.0, 1.0) < 0.05 {
            rng.range(5.0, 10.0)
        } else {
            1.0
        };
    match rng.next_u64() % 9 {
        0 => Spec::Circle(s),
        1 => Spec::Obb([s, s * rng.range(0.3, 1.0)]),
        2 => Spec::Aabb([s, s * rng.range(0.3, 1.0)]),
        3 => {
            let r = s * rng.range(0.7, 1.0);
            let a = angles(rng, 3);
            Spec::Triangle(core::array::from_fn(|i| [r * a[i].cos(), r * a[i].sin()]))
        }
        4 => {
            // Points on an ellipse are in convex position: every one is a vertex.
            let count = 5 + (rng.next_u64() % 4) as usize;
            let ry = s * rng.range(0.6, 1.0);
            Spec::Polygon(
                angles(rng, count)
                    .iter()
                    .map(|t| [s * t.cos(), ry * t.sin()])
                    .collect(),
            )
        }
        5 => Spec::Capsule {
            half_height: s * rng.range(0.3, 0.7),
            radius: s * rng.range(0.2, 0.4),
        },
        6 => Spec::Segment([-s, 0.0], [s, 0.0]),
        7 => Spec::Point,
        _ => Spec::Ellipse([s, s * rng.range(0.3, 1.0)]),
    }
}

fn kasanari_shape<T: Real>(spec: &Spec) -> Box<dyn Shape<T>> {
    let l = T::lit;
    let p = |q: [f64; 2]| Point2::new(l(q[0]), l(q[1]));
    let v = |q: [f64; 2]| Vector2::new(l(q[0]), l(q[1]));
    match spec {
        Spec::Circle(r) => Box::new(Circle::new(l(*r)).unwrap()),
        Spec::Obb(h) => Box::new(Obb::new(v(*h)).unwrap()),
        Spec::Aabb(h) => Box::new(Aabb::from_half_extents(v(*h)).unwrap()),
        Spec::Triangle(t) => Box::new(Triangle::new(p(t[0]), p(t[1]), p(t[2])).unwrap()),
        Spec::Polygon(pts) => {
            let pts: Vec<Point2<T>> = pts.iter().map(|q| p(*q)).collect();
            let poly = ConvexPolygon::from_hull(&pts).unwrap();
            assert_eq!(poly.len(), pts.len(), "every polygon point is a vertex");
            Box::new(poly)
        }
        Spec::Capsule {
            half_height,
            radius,
        } => Box::new(Capsule::vertical(l(*half_height), l(*radius)).unwrap()),
        Spec::Segment(a, b) => Box::new(Segment::new(p(*a), p(*b)).unwrap()),
        Spec::Point => Box::new(Point::origin()),
        Spec::Ellipse(r) => Box::new(Ellipse::new(v(*r)).unwrap()),
    }
}

/// The inputs of one scene: shapes and [`POSE_SETS`] pose sets `(x, y, angle)`.
struct Input {
    specs: Vec<Spec>,
    poses: Vec<Vec<[f64; 3]>>,
}

fn input(n: usize, seed: u64) -> Input {
    let mut rng = Rng::new(seed);
    let specs: Vec<Spec> = (0..n).map(|_| spec(&mut rng)).collect();
    let angle: Vec<f64> = (0..n)
        .map(|_| rng.range(-std::f64::consts::PI, std::f64::consts::PI))
        .collect();
    // Size the square from the bounding boxes at the base rotation: uniform
    // centres in a square of side L overlap with probability
    // (wi + wj)(hi + hj) / L², so the mean overlap count per shape is
    // (n − 1)·2·(E[wh] + E[w]E[h]) / L².
    let (mut ew, mut eh, mut ewh) = (0.0, 0.0, 0.0);
    for (s, a) in specs.iter().zip(&angle) {
        let b = kasanari_shape::<f64>(s).bounding_box(&Isometry2::new(Vector2::zeros(), *a));
        let e = b.extents();
        ew += e.x;
        eh += e.y;
        ewh += e.x * e.y;
    }
    let nf = n as f64;
    let (ew, eh, ewh) = (ew / nf, eh / nf, ewh / nf);
    let side = ((nf - 1.0) * 2.0 * (ewh + ew * eh) / TARGET_OVERLAPS).sqrt();
    let base: Vec<[f64; 2]> = (0..n)
        .map(|_| [rng.range(0.0, side), rng.range(0.0, side)])
        .collect();
    let poses = (0..POSE_SETS)
        .map(|_| {
            base.iter()
                .zip(&angle)
                .map(|(c, a)| {
                    [
                        c[0] + rng.range(-MOVE, MOVE),
                        c[1] + rng.range(-MOVE, MOVE),
                        a + rng.range(-TURN, TURN),
                    ]
                })
                .collect()
        })
        .collect();
    Input { specs, poses }
}

/// kasanari's side: a world and its pose sets.
struct KasanariScene<T: Real> {
    world: World<T>,
    handles: Vec<Handle>,
    poses: Vec<Vec<Isometry2<T>>>,
}

impl<T: Real> KasanariScene<T> {
    fn new(input: &Input) -> Self {
        let l = T::lit;
        let poses: Vec<Vec<Isometry2<T>>> = input
            .poses
            .iter()
            .map(|set| {
                set.iter()
                    .map(|q| Isometry2::new(Vector2::new(l(q[0]), l(q[1])), l(q[2])))
                    .collect()
            })
            .collect();
        // Any valid cell size: `auto_cell_size` below picks the real one.
        let mut world = World::<T>::new(T::one()).unwrap();
        let handles = input
            .specs
            .iter()
            .zip(&poses[0])
            .map(|(s, p)| {
                world
                    .insert_boxed(kasanari_shape::<T>(s), *p, Filter::ALL)
                    .unwrap()
            })
            .collect();
        world.auto_cell_size();
        Self {
            world,
            handles,
            poses,
        }
    }

    /// Moves every object to pose set `k` and returns the frame's collisions.
    fn step(&mut self, k: usize) -> &Collisions<Contact<T>, ShapeCastHit<T>> {
        let moves = self
            .handles
            .iter()
            .copied()
            .zip(self.poses[k].iter().copied());
        self.world.set_poses(moves).expect("valid poses");
        self.world.collisions()
    }
}

macro_rules! parry_side {
    ($module:ident, $parry:ident, $real:ty) => {
        /// parry's side: shapes, pose sets, a BVH and reused buffers.
        mod $module {
            use super::{ELLIPSE_SEGMENTS, Input, Spec};
            use $parry::math::{Pose, Vector};
            use $parry::partitioning::{Bvh, BvhBuildStrategy, BvhWorkspace};
            use $parry::query::{Contact, contact};
            use $parry::shape::{Ball, Capsule, ConvexPolygon, Cuboid, Segment, Shape, Triangle};

            fn v(q: [f64; 2]) -> Vector {
                Vector::new(q[0] as $real, q[1] as $real)
            }

            fn shape(spec: &Spec) -> Box<dyn Shape> {
                match spec {
                    Spec::Circle(r) => Box::new(Ball::new(*r as $real)),
                    Spec::Obb(h) | Spec::Aabb(h) => Box::new(Cuboid::new(v(*h))),
                    Spec::Triangle(t) => Box::new(Triangle::new(v(t[0]), v(t[1]), v(t[2]))),
                    Spec::Polygon(pts) => {
                        let pts: Vec<Vector> = pts.iter().map(|q| v(*q)).collect();
                        let poly = ConvexPolygon::from_convex_hull(&pts).unwrap();
                        assert_eq!(poly.points().len(), pts.len());
                        Box::new(poly)
                    }
                    Spec::Capsule {
                        half_height,
                        radius,
                    } => Box::new(Capsule::new_y(*half_height as $real, *radius as $real)),
                    Spec::Segment(a, b) => Box::new(Segment::new(v(*a), v(*b))),
                    // parry has no point shape: a ball of radius 0 is one.
                    Spec::Point => Box::new(Ball::new(0.0)),
                    // parry has no ellipse: an inscribed polygon approximates it.
                    Spec::Ellipse(r) => {
                        let pts: Vec<Vector> = (0..ELLIPSE_SEGMENTS)
                            .map(|i| {
                                let t = std::f64::consts::TAU * i as f64 / ELLIPSE_SEGMENTS as f64;
                                v([r[0] * t.cos(), r[1] * t.sin()])
                            })
                            .collect();
                        Box::new(ConvexPolygon::from_convex_polyline(pts).unwrap())
                    }
                }
            }

            pub struct Scene {
                shapes: Vec<Box<dyn Shape>>,
                poses: Vec<Vec<Pose>>,
                bvh: Bvh,
                workspace: BvhWorkspace,
                candidates: Vec<(u32, u32)>,
                contacts: Vec<(u32, u32, Contact)>,
                errors: usize,
            }

            impl Scene {
                pub fn new(input: &Input) -> Self {
                    let shapes: Vec<Box<dyn Shape>> = input.specs.iter().map(shape).collect();
                    let poses: Vec<Vec<Pose>> = input
                        .poses
                        .iter()
                        .map(|set| {
                            set.iter()
                                .zip(&input.specs)
                                .map(|(q, s)| {
                                    // kasanari's Aabb ignores the rotation.
                                    let angle = if matches!(s, Spec::Aabb(_)) {
                                        0.0
                                    } else {
                                        q[2]
                                    };
                                    Pose::new(v([q[0], q[1]]), angle as $real)
                                })
                                .collect()
                        })
                        .collect();
                    let aabbs: Vec<_> = shapes
                        .iter()
                        .zip(&poses[0])
                        .map(|(s, p)| s.compute_aabb(p))
                        .collect();
                    let bvh = Bvh::from_leaves(BvhBuildStrategy::Binned, &aabbs);
                    Self {
                        shapes,
                        poses,
                        bvh,
                        workspace: BvhWorkspace::default(),
                        candidates: Vec::new(),
                        contacts: Vec::new(),
                        errors: 0,
                    }
                }

                /// Moves every shape to pose set `k`, finds the candidate pairs
                /// and their contacts; returns the number of contacts.
                pub fn step(&mut self, k: usize) -> usize {
                    let Self {
                        shapes,
                        poses,
                        bvh,
                        workspace,
                        candidates,
                        contacts,
                        errors,
                    } = self;
                    let poses = &poses[k];
                    for (i, (s, p)) in shapes.iter().zip(poses).enumerate() {
                        bvh.insert_or_update_partially(s.compute_aabb(p), i as u32, 0.0);
                    }
                    bvh.refit(workspace);
                    candidates.clear();
                    bvh.traverse_bvtt_single_tree::<false>(workspace, &mut |a, b| {
                        candidates.push((a, b))
                    });
                    contacts.clear();
                    for &(a, b) in candidates.iter() {
                        let (ia, ib) = (a as usize, b as usize);
                        match contact(&poses[ia], &*shapes[ia], &poses[ib], &*shapes[ib], 0.0) {
                            Ok(Some(c)) => contacts.push((a, b, c)),
                            Ok(None) => {}
                            Err(_) => *errors += 1,
                        }
                    }
                    contacts.len()
                }

                /// The colliding pairs of the last step as `(smaller, larger)`,
                /// sorted.
                pub fn pairs(&self) -> Vec<(u32, u32)> {
                    let mut v: Vec<(u32, u32)> = self
                        .contacts
                        .iter()
                        .map(|&(a, b, _)| (a.min(b), a.max(b)))
                        .collect();
                    v.sort_unstable();
                    v
                }

                /// Candidate pairs of the last step.
                pub fn candidates(&self) -> usize {
                    self.candidates.len()
                }

                /// Pairs parry could not answer, over all steps.
                pub fn errors(&self) -> usize {
                    self.errors
                }
            }
        }
    };
}

parry_side!(parry_f32, parry2d, f32);
parry_side!(parry_f64, parry2d_f64, f64);

/// Runs both sides through every pose set (built on set 0, then moved through
/// sets 1, 2, .., 0) and counts the pairs only one side finds.
fn verify<T: Real>(
    label: &str,
    input: &Input,
    kasanari: &mut KasanariScene<T>,
    mut parry_step: impl FnMut(usize) -> (Vec<(u32, u32)>, usize),
) {
    let n = input.specs.len();
    let (mut only_k, mut only_p, mut with_ellipse, mut total) = (0, 0, 0, 0);
    let mut kasanari_errors = 0;
    let mut example = None;
    for step in 0..=POSE_SETS {
        let k = step % POSE_SETS;
        let hits = kasanari.step(k).clone();
        kasanari.world.validate().expect("world invariants hold");
        kasanari_errors += hits.errors.len();
        let ours: Vec<(u32, u32)> = hits
            .pairs
            .iter()
            .map(|p| (p.a.index(), p.b.index()))
            .collect();
        let ours = {
            let mut v = ours;
            v.sort_unstable();
            v
        };
        let (theirs, candidates) = parry_step(k);
        total += ours.len();
        let ellipse = |&(a, b): &(u32, u32)| {
            input.specs[a as usize].is_ellipse() || input.specs[b as usize].is_ellipse()
        };
        for p in ours.iter().filter(|p| theirs.binary_search(p).is_err()) {
            only_k += 1;
            with_ellipse += usize::from(ellipse(p));
            if !ellipse(p) && example.is_none() {
                example = Some(("kasanari", *p));
            }
        }
        for p in theirs.iter().filter(|p| ours.binary_search(p).is_err()) {
            only_p += 1;
            with_ellipse += usize::from(ellipse(p));
            if !ellipse(p) && example.is_none() {
                example = Some(("parry", *p));
            }
        }
        if step == 0 {
            eprintln!(
                "{label} n={n}: candidate pairs kasanari {} ({:.2} per shape), parry {}; \
                 colliding kasanari {}, parry {}",
                hits.stats.candidate_pairs,
                2.0 * hits.stats.candidate_pairs as f64 / n as f64,
                candidates,
                ours.len(),
                theirs.len()
            );
        }
    }
    let other = only_k + only_p - with_ellipse;
    eprintln!(
        "verified {label} n={n} over {} pose sets: {total} colliding pairs (kasanari); \
         only kasanari {only_k}, only parry {only_p}; {with_ellipse} of these involve an \
         ellipse (parry's is a {ELLIPSE_SEGMENTS}-gon), {other} do not{}; kasanari errors \
         {kasanari_errors}",
        POSE_SETS + 1,
        example.map_or(String::new(), |(who, p)| format!(
            " (e.g. {p:?} only in {who}: {:?} / {:?})",
            input.specs[p.0 as usize], input.specs[p.1 as usize]
        )),
    );
    assert_eq!(
        kasanari_errors, 0,
        "{label}: kasanari could not answer a pair"
    );
    // Outside the ellipse approximation, disagreements are touching cases only.
    assert!(
        other <= 10 + total / 10_000,
        "{label} n={n}: {other} disagreements not involving an ellipse"
    );
}

fn bench_f32(c: &mut Criterion, inputs: &[(usize, Input)]) {
    let mut group = c.benchmark_group("frame_f32");
    for (n, input) in inputs {
        configure(&mut group, *n);
        let mut ours = KasanariScene::<f32>::new(input);
        let mut theirs = parry_f32::Scene::new(input);
        verify("frame_f32", input, &mut ours, |k| {
            theirs.step(k);
            (theirs.pairs(), theirs.candidates())
        });
        assert_eq!(theirs.errors(), 0, "parry2d could not answer a pair");
        let mut k = 0;
        group.bench_function(BenchmarkId::new("kasanari", n), |b| {
            b.iter(|| {
                k = (k + 1) % POSE_SETS;
                single_thread(|| black_box(ours.step(k).pairs.len()))
            });
        });
        let mut k = 0;
        group.bench_function(BenchmarkId::new("parry", n), |b| {
            b.iter(|| {
                k = (k + 1) % POSE_SETS;
                black_box(theirs.step(k))
            });
        });
    }
    group.finish();
}

fn bench_f64(c: &mut Criterion, inputs: &[(usize, Input)]) {
    let mut group = c.benchmark_group("frame_f64");
    for (n, input) in inputs {
        configure(&mut group, *n);
        let mut ours = KasanariScene::<f64>::new(input);
        let mut theirs = parry_f64::Scene::new(input);
        verify("frame_f64", input, &mut ours, |k| {
            theirs.step(k);
            (theirs.pairs(), theirs.candidates())
        });
        assert_eq!(theirs.errors(), 0, "parry2d-f64 could not answer a pair");
        let mut k = 0;
        group.bench_function(BenchmarkId::new("kasanari", n), |b| {
            b.iter(|| {
                k = (k + 1) % POSE_SETS;
                single_thread(|| black_box(ours.step(k).pairs.len()))
            });
        });
        let mut k = 0;
        group.bench_function(BenchmarkId::new("parry", n), |b| {
            b.iter(|| {
                k = (k + 1) % POSE_SETS;
                black_box(theirs.step(k))
            });
        });
    }
    group.finish();
}

/// With the `rayon` feature: the kasanari f32 frame on one thread and on two
/// (rayon pools of that size), output checked identical; without it, nothing.
/// The other groups run kasanari inside a one-thread pool then, so that the
/// comparison with parry stays one core against one core.
#[cfg(feature = "rayon")]
fn bench_threads(c: &mut Criterion, inputs: &[(usize, Input)]) {
    let mut group = c.benchmark_group("frame_threads_f32");
    for (n, input) in inputs {
        configure(&mut group, *n);
        let mut ours = KasanariScene::<f32>::new(input);
        for threads in [1usize, 2] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("a thread pool");
            let serial: Vec<_> = single_thread(|| ours.step(1).pairs.clone());
            let parallel = pool.install(|| ours.step(1).pairs.clone());
            assert_eq!(serial, parallel, "{threads} threads changed the output");
            let mut k = 0;
            group.bench_function(BenchmarkId::new(format!("kasanari_{threads}t"), n), |b| {
                b.iter(|| {
                    k = (k + 1) % POSE_SETS;
                    pool.install(|| black_box(ours.step(k).pairs.len()))
                });
            });
        }
    }
    group.finish();
}

/// Runs `f` on one thread: in a one-thread rayon pool with the `rayon`
/// feature, directly without it.
fn single_thread<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    #[cfg(feature = "rayon")]
    {
        use std::sync::OnceLock;
        static POOL: OnceLock<rayon::ThreadPool> = OnceLock::new();
        POOL.get_or_init(|| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(1)
                .build()
                .expect("a thread pool")
        })
        .install(f)
    }
    #[cfg(not(feature = "rayon"))]
    {
        f()
    }
}

fn configure(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    n: usize,
) {
    // A frame takes milliseconds: flat sampling, ten samples.
    group.sample_size(10);
    group.sampling_mode(SamplingMode::Flat);
    group.warm_up_time(Duration::from_millis(300));
    group.measurement_time(Duration::from_secs(if n >= 100_000 { 2 } else { 1 }));
}

/// A profiling run instead of the benchmark: with `KASANARI_PROFILE_FRAMES=k`
/// set, builds the 100k scene and runs `k` kasanari f32 frames (no parry, no
/// verification), printing the time per frame and per phase (pose updates,
/// then `collisions()`), for `perf record` / `perf stat` to look at one side
/// alone: `KASANARI_PROFILE_FRAMES=50 perf stat target/release/deps/frame-* --bench`
/// (`KASANARI_PROFILE_N` sets the size; with the `rayon` feature,
/// `KASANARI_PROFILE_THREADS` the threads of `set_poses` and `collisions()`).
fn profile_frames(frames: usize) {
    let n: usize = std::env::var("KASANARI_PROFILE_N")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100_000);
    let input = input(n, 0xF2A3_E001);
    let mut ours = KasanariScene::<f32>::new(&input);
    let (mut poses, mut queries) = (Duration::ZERO, Duration::ZERO);
    #[cfg(feature = "rayon")]
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(
            std::env::var("KASANARI_PROFILE_THREADS")
                .ok()
                .and_then(|s| s.parse().ok())
                .unwrap_or(1),
        )
        .build()
        .expect("a thread pool");
    for f in 0..frames {
        let k = f % POSE_SETS;
        let t = std::time::Instant::now();
        let moves = ours
            .handles
            .iter()
            .copied()
            .zip(ours.poses[k].iter().copied());
        #[cfg(feature = "rayon")]
        pool.install(|| ours.world.set_poses(moves).expect("valid poses"));
        #[cfg(not(feature = "rayon"))]
        ours.world.set_poses(moves).expect("valid poses");
        let u = std::time::Instant::now();
        #[cfg(feature = "rayon")]
        pool.install(|| black_box(ours.world.collisions().pairs.len()));
        #[cfg(not(feature = "rayon"))]
        black_box(ours.world.collisions().pairs.len());
        poses += u - t;
        queries += u.elapsed();
    }
    let per = |d: Duration| d.as_secs_f64() * 1e3 / frames as f64;
    println!(
        "n={n}, {frames} frames: set_poses {:.2} ms + collisions {:.2} ms = {:.2} ms per frame",
        per(poses),
        per(queries),
        per(poses + queries)
    );
}

fn benches(c: &mut Criterion) {
    if let Some(frames) = std::env::var("KASANARI_PROFILE_FRAMES")
        .ok()
        .and_then(|s| s.parse().ok())
    {
        profile_frames(frames);
        return;
    }
    let inputs: Vec<(usize, Input)> = SIZES
        .iter()
        .enumerate()
        .map(|(i, &n)| (n, input(n, 0xF2A3_E000 + i as u64)))
        .collect();
    bench_f32(c, &inputs);
    bench_f64(c, &inputs);
    #[cfg(feature = "rayon")]
    bench_threads(c, &inputs);
}

criterion_group! {
    name = frame_benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
        .sample_size(10);
    targets = benches
}
criterion_main!(frame_benches);
