//! Broad phase, f32: kasanari's sparse grid (`Grid<f32, 2>`) against parry2d's
//! BVH on the same boxes, and the brute-force nC2 baseline of seed 003.
//!
//! Scenes: N boxes with mixed sizes (90 % small, 10 % five to ten times larger),
//! either uniform in a square or in Gaussian-ish clusters, with the square scaled
//! so that a box overlaps about two others on average (checked in set-up).
//! Every input is generated up front from fixed seeds; the moving benchmarks
//! cycle through [`POSITION_SETS`] jittered copies of the scene so the structures
//! really change every iteration. Before timing, every method's pair set is
//! checked against the others (and against brute force where that is cheap).
//!
//! Groups (the report generator parses these names):
//! - `broad_update_{uniform,clustered}_f32` / `grid`, `bvh`: move every box a
//!   little (each copy is jittered by up to [`JITTER`] per axis), then find
//!   all overlapping pairs. The grid is updated in place (`update` per box,
//!   then `candidate_pairs`); the BVH gets `insert_or_update_partially` per
//!   leaf (margin 0), `refit` and a self-traversal
//!   (`traverse_bvtt_single_tree`, no change detection). The grid files each
//!   box by a fat box (its default margin, a tenth of a cell, about 0.22
//!   here) and keeps its set of fat-box pairs between frames: a box that
//!   stays inside its fat box costs a box copy and a re-test of its pairs.
//!   Motions this small (at most 0.2 between copies) never leave the fat
//!   boxes once they are set, so this group shows the grid's best case:
//!   only the filtering of the kept pairs by the new boxes is left.
//! - `broad_update_uniform_far_f32` / `grid`, `bvh`: the uniform scenes, but
//!   every box moves by [`FAR_MARGINS`] grid margins (in a direction of its
//!   own) every frame, so every box leaves its fat box every frame: the
//!   grid's worst case (re-filing everything and the full pass over every
//!   cell, plus the filtering). The BVH does the same as above.
//! - `broad_build_{uniform,clustered}_f32` / `grid`, `bvh`: build from scratch
//!   and find all pairs (`Grid::from_boxes`, the bulk build, + `candidate_pairs`
//!   against `Bvh::from_leaves` + traversal); the structure is dropped inside
//!   the timing.
//! - `broad_brute_f32` / `brute_force`, `grid`: the nC2 box tests against a grid
//!   build + pairs at n = 100, 500, 1000, 4500.
//!
//! Notes: the grid's cell size comes from `Grid::suggest_cell_size`, computed
//! once in set-up (a game picks it once, too). The grid returns its pairs sorted
//! (part of its contract, and of its time); the BVH's pairs are collected in
//! traversal order, unsorted, as a caller of parry would.
//!
//! Run: `cargo bench -p kasanari-benches --bench broad`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{
    BenchmarkGroup, BenchmarkId, Criterion, SamplingMode, criterion_group, criterion_main,
    measurement::WallTime,
};
use kasanari::broadphase::Grid;
use kasanari::nalgebra::Point2;
use kasanari::shape::BoundingBox2;
use kasanari_benches::Rng;
use kasanari_benches::broad_scene::{half_sizes, unit_centres};
use parry2d::bounding_volume::Aabb;
use parry2d::math::Vector;
use parry2d::partitioning::{Bvh, BvhBuildStrategy, BvhWorkspace};

/// Scene sizes of the update and build groups.
const SIZES: [usize; 4] = [1_000, 10_000, 100_000, 1_000_000];
/// Seed 003's sizes for the brute-force baseline.
const BRUTE_SIZES: [usize; 4] = [100, 500, 1_000, 4_500];
/// Mean number of other boxes each box overlaps (the set-up asserts 1..3).
const TARGET_OVERLAPS: f64 = 2.0;
/// Jittered copies of each scene the moving benchmarks cycle through.
const POSITION_SETS: usize = 4;
/// Each box's jitter per copy, in `[-JITTER, JITTER]` per axis (a small box's
/// side is 0.75..1.25).
const JITTER: f64 = 0.1;
/// How far each box moves every frame in `broad_update_uniform_far_f32`, in
/// grid margins (per axis, either sign).
const FAR_MARGINS: f64 = 4.0;
/// Brute force checks the pair sets up to this size.
const BRUTE_CHECK_LIMIT: usize = 10_000;

type Pairs = Vec<(u32, u32)>;

#[derive(Debug, Clone, Copy)]
enum Layout {
    Uniform,
    Clustered,
}

impl Layout {
    fn name(self) -> &'static str {
        match self {
            Self::Uniform => "uniform",
            Self::Clustered => "clustered",
        }
    }
}

/// One scene: the same f32 boxes for both libraries, in [`POSITION_SETS`]
/// jittered copies.
struct Scene {
    boxes: Vec<Vec<BoundingBox2<f32>>>,
    aabbs: Vec<Vec<Aabb>>,
    cell_size: f32,
    mean_overlaps: f64,
}

fn to_box(c: [f64; 2], h: [f64; 2]) -> BoundingBox2<f32> {
    BoundingBox2::new(
        Point2::new((c[0] - h[0]) as f32, (c[1] - h[1]) as f32),
        Point2::new((c[0] + h[0]) as f32, (c[1] + h[1]) as f32),
    )
}

fn to_aabb(b: &BoundingBox2<f32>) -> Aabb {
    Aabb::new(Vector::new(b.min.x, b.min.y), Vector::new(b.max.x, b.max.y))
}

fn grid_pairs(boxes: &[BoundingBox2<f32>], cell_size: f32) -> Pairs {
    let mut grid = Grid::new(cell_size).expect("valid cell size");
    for (i, b) in boxes.iter().enumerate() {
        grid.insert(i as u32, *b).expect("valid box");
    }
    let mut pairs = Vec::new();
    grid.candidate_pairs(&mut pairs);
    pairs
}

fn boxes_with_ids(
    boxes: &[BoundingBox2<f32>],
) -> impl Iterator<Item = (u32, BoundingBox2<f32>)> + '_ {
    boxes.iter().enumerate().map(|(i, b)| (i as u32, *b))
}

fn bvh_pairs(bvh: &Bvh, ws: &mut BvhWorkspace, pairs: &mut Pairs) {
    pairs.clear();
    bvh.traverse_bvtt_single_tree::<false>(ws, &mut |a, b| pairs.push((a, b)));
}

fn brute_pairs(boxes: &[BoundingBox2<f32>], pairs: &mut Pairs) {
    pairs.clear();
    for (i, a) in boxes.iter().enumerate() {
        for (j, b) in boxes.iter().enumerate().skip(i + 1) {
            if a.intersects(b) {
                pairs.push((i as u32, j as u32));
            }
        }
    }
}

/// Pairs as `(smaller, larger)`, sorted; panics on a duplicate.
fn normalised(pairs: &[(u32, u32)], who: &str) -> Pairs {
    let mut v: Pairs = pairs.iter().map(|&(a, b)| (a.min(b), a.max(b))).collect();
    v.sort_unstable();
    let before = v.len();
    v.dedup();
    assert_eq!(
        before,
        v.len(),
        "{who}: reported {} duplicate pairs",
        before - v.len()
    );
    v
}

/// Panics with the first difference when two pair sets disagree.
fn check_same(what: &str, a_name: &str, a: &[(u32, u32)], b_name: &str, b: &[(u32, u32)]) {
    let a = normalised(a, a_name);
    let b = normalised(b, b_name);
    if a != b {
        let only_a = a.iter().find(|p| b.binary_search(p).is_err());
        let only_b = b.iter().find(|p| a.binary_search(p).is_err());
        panic!(
            "{what}: {a_name} found {} pairs, {b_name} found {}; first only in {a_name}: \
             {only_a:?}, first only in {b_name}: {only_b:?}",
            a.len(),
            b.len()
        );
    }
}

/// Generates a scene of `n` boxes scaled to about [`TARGET_OVERLAPS`] overlaps per
/// box, and its jittered copies.
fn scene(n: usize, layout: Layout, seed: u64) -> Scene {
    let mut rng = Rng::new(seed);
    let half = half_sizes(&mut rng, n);
    let unit = unit_centres(&mut rng, n, matches!(layout, Layout::Clustered));
    let jitter: Vec<Vec<[f64; 2]>> = (0..POSITION_SETS)
        .map(|_| {
            (0..n)
                .map(|_| [rng.range(-JITTER, JITTER), rng.range(-JITTER, JITTER)])
                .collect()
        })
        .collect();
    // Uniform placement in a square of side L: box i overlaps box j with
    // probability (wi + wj)(hi + hj) / L², so the mean overlap count is
    // (n − 1)·2·(E[wh] + E[w]E[h]) / L² (w, h full sides). Start there, then
    // correct by measuring (clusters are denser than the square suggests).
    let (mut ew, mut eh, mut ewh) = (0.0, 0.0, 0.0);
    for h in &half {
        let (w, hh) = (2.0 * h[0], 2.0 * h[1]);
        ew += w;
        eh += hh;
        ewh += w * hh;
    }
    let nf = n as f64;
    let (ew, eh, ewh) = (ew / nf, eh / nf, ewh / nf);
    let mut side = ((nf - 1.0) * 2.0 * (ewh + ew * eh) / TARGET_OVERLAPS).sqrt();
    let place = |side: f64, set: Option<&[[f64; 2]]>| -> Vec<BoundingBox2<f32>> {
        unit.iter()
            .zip(&half)
            .enumerate()
            .map(|(i, (u, h))| {
                let d = set.map_or([0.0, 0.0], |s| s[i]);
                to_box([u[0] * side + d[0], u[1] * side + d[1]], *h)
            })
            .collect()
    };
    let cell_size =
        Grid::<f32, 2>::suggest_cell_size(&place(side, None)).expect("boxes have a size");
    for _ in 0..6 {
        let pairs = grid_pairs(&place(side, None), cell_size);
        let mean = 2.0 * pairs.len() as f64 / nf;
        if (mean / TARGET_OVERLAPS - 1.0).abs() < 0.1 {
            break;
        }
        // Overlaps scale as 1 / side² for a fixed layout.
        side *= (mean / TARGET_OVERLAPS).sqrt();
    }
    let boxes: Vec<Vec<BoundingBox2<f32>>> = jitter.iter().map(|j| place(side, Some(j))).collect();
    let mean_overlaps = 2.0 * grid_pairs(&boxes[0], cell_size).len() as f64 / nf;
    assert!(
        (1.0..=3.0).contains(&mean_overlaps),
        "{} n={n}: mean overlaps per box {mean_overlaps:.2} is outside 1..3",
        layout.name()
    );
    let aabbs = boxes
        .iter()
        .map(|set| set.iter().map(to_aabb).collect())
        .collect();
    Scene {
        boxes,
        aabbs,
        cell_size,
        mean_overlaps,
    }
}

/// The scene with its copies moved so that consecutive copies (cyclically)
/// differ by [`FAR_MARGINS`] grid margins along every axis for every box:
/// copy `k` is copy `k` of `s` shifted by `±FAR_MARGINS · margin` per axis
/// (signs drawn per box) on odd `k` only.
fn far_scene(s: &Scene, seed: u64) -> Scene {
    let margin = f64::from(
        Grid::<f32, 2>::new(s.cell_size)
            .expect("valid cell size")
            .margin(),
    );
    let step = FAR_MARGINS * margin;
    let mut rng = Rng::new(seed);
    let n = s.boxes[0].len();
    let dirs: Vec<[f64; 2]> = (0..n)
        .map(|_| {
            let mut sign = || {
                if rng.range(0.0, 1.0) < 0.5 {
                    -step
                } else {
                    step
                }
            };
            [sign(), sign()]
        })
        .collect();
    let boxes: Vec<Vec<BoundingBox2<f32>>> = s
        .boxes
        .iter()
        .enumerate()
        .map(|(k, set)| {
            set.iter()
                .zip(&dirs)
                .map(|(b, d)| {
                    let d = if k % 2 == 1 { *d } else { [0.0, 0.0] };
                    let (dx, dy) = (d[0] as f32, d[1] as f32);
                    BoundingBox2::new(
                        Point2::new(b.min.x + dx, b.min.y + dy),
                        Point2::new(b.max.x + dx, b.max.y + dy),
                    )
                })
                .collect()
        })
        .collect();
    let aabbs = boxes
        .iter()
        .map(|set| set.iter().map(to_aabb).collect())
        .collect();
    Scene {
        boxes,
        aabbs,
        cell_size: s.cell_size,
        mean_overlaps: s.mean_overlaps,
    }
}

/// Checks that the grid (built and updated), the BVH (built and updated) and,
/// for small scenes, brute force agree on every position set.
fn verify(label: &str, s: &Scene) {
    let n = s.boxes[0].len();
    let mut grid = Grid::new(s.cell_size).expect("valid cell size");
    for (i, b) in s.boxes[0].iter().enumerate() {
        grid.insert(i as u32, *b).expect("valid box");
    }
    let mut bvh = Bvh::from_leaves(BvhBuildStrategy::Binned, &s.aabbs[0]);
    let mut ws = BvhWorkspace::default();
    let (mut g, mut p, mut brute) = (Vec::new(), Vec::new(), Vec::new());
    let mut total = 0;
    // Built from scratch on set 0, then updated through sets 1, 2, .., 0.
    for step in 0..=POSITION_SETS {
        let k = step % POSITION_SETS;
        if step > 0 {
            for (i, b) in s.boxes[k].iter().enumerate() {
                grid.update(i as u32, *b).expect("valid box");
            }
            for (i, a) in s.aabbs[k].iter().enumerate() {
                bvh.insert_or_update_partially(*a, i as u32, 0.0);
            }
            bvh.refit(&mut ws);
        }
        grid.candidate_pairs(&mut g);
        bvh_pairs(&bvh, &mut ws, &mut p);
        let what = format!("{label} n={n} position set {k} (step {step})");
        check_same(&what, "grid", &g, "bvh", &p);
        let fresh = grid_pairs(&s.boxes[k], s.cell_size);
        check_same(&what, "grid (updated)", &g, "grid (built)", &fresh);
        let bulk = Grid::from_boxes(s.cell_size, boxes_with_ids(&s.boxes[k])).expect("valid boxes");
        let mut b = Vec::new();
        bulk.candidate_pairs(&mut b);
        check_same(&what, "grid (updated)", &g, "grid (bulk)", &b);
        let built = Bvh::from_leaves(BvhBuildStrategy::Binned, &s.aabbs[k]);
        bvh_pairs(&built, &mut ws, &mut p);
        check_same(&what, "grid", &g, "bvh (built)", &p);
        if n <= BRUTE_CHECK_LIMIT {
            brute_pairs(&s.boxes[k], &mut brute);
            check_same(&what, "grid", &g, "brute force", &brute);
        }
        total += g.len();
    }
    grid.validate()
        .expect("grid invariants hold after the updates");
    let stats = grid.stats();
    eprintln!(
        "verified {label} n={n}: grid = bvh{} on {} position sets ({} pairs in all); \
         mean overlaps/box {:.2}; cell {:.2}, {} cells, {} oversize, max {} per cell",
        if n <= BRUTE_CHECK_LIMIT {
            " = brute force"
        } else {
            ""
        },
        POSITION_SETS + 1,
        total,
        s.mean_overlaps,
        s.cell_size,
        stats.cells,
        stats.oversize,
        stats.max_per_cell,
    );
}

fn configure(group: &mut BenchmarkGroup<'_, WallTime>, n: usize) {
    group.sample_size(10);
    if n >= 100_000 {
        group.sampling_mode(SamplingMode::Flat);
        group.warm_up_time(Duration::from_millis(300));
        group.measurement_time(Duration::from_secs(2));
    } else {
        group.sampling_mode(SamplingMode::Auto);
        group.warm_up_time(Duration::from_millis(300));
        group.measurement_time(Duration::from_secs(1));
    }
}

fn bench_update(c: &mut Criterion, name: &str, scenes: &[(usize, Scene)]) {
    let mut group = c.benchmark_group(format!("broad_update_{name}_f32"));
    for (n, s) in scenes {
        let n = *n;
        configure(&mut group, n);
        let mut pairs: Pairs = Vec::with_capacity(2 * n);

        let mut grid = Grid::new(s.cell_size).expect("valid cell size");
        for (i, b) in s.boxes[0].iter().enumerate() {
            grid.insert(i as u32, *b).expect("valid box");
        }
        let mut k = 0;
        group.bench_function(BenchmarkId::new("grid", n), |b| {
            b.iter(|| {
                k = (k + 1) % POSITION_SETS;
                for (i, bx) in s.boxes[k].iter().enumerate() {
                    grid.update(i as u32, *bx).expect("valid box");
                }
                grid.candidate_pairs(&mut pairs);
                black_box(pairs.len())
            });
        });
        drop(grid);

        let mut bvh = Bvh::from_leaves(BvhBuildStrategy::Binned, &s.aabbs[0]);
        let mut ws = BvhWorkspace::default();
        let mut k = 0;
        group.bench_function(BenchmarkId::new("bvh", n), |b| {
            b.iter(|| {
                k = (k + 1) % POSITION_SETS;
                for (i, a) in s.aabbs[k].iter().enumerate() {
                    bvh.insert_or_update_partially(*a, i as u32, 0.0);
                }
                bvh.refit(&mut ws);
                bvh_pairs(&bvh, &mut ws, &mut pairs);
                black_box(pairs.len())
            });
        });
    }
    group.finish();
}

fn bench_build(c: &mut Criterion, layout: Layout, scenes: &[(usize, Scene)]) {
    let mut group = c.benchmark_group(format!("broad_build_{}_f32", layout.name()));
    for (n, s) in scenes {
        let n = *n;
        configure(&mut group, n);
        let mut pairs: Pairs = Vec::with_capacity(2 * n);
        group.bench_function(BenchmarkId::new("grid", n), |b| {
            b.iter(|| {
                let grid = Grid::from_boxes(s.cell_size, boxes_with_ids(&s.boxes[0]))
                    .expect("valid boxes");
                grid.candidate_pairs(&mut pairs);
                black_box(pairs.len())
            });
        });
        let mut ws = BvhWorkspace::default();
        group.bench_function(BenchmarkId::new("bvh", n), |b| {
            b.iter(|| {
                let bvh = Bvh::from_leaves(BvhBuildStrategy::Binned, &s.aabbs[0]);
                bvh_pairs(&bvh, &mut ws, &mut pairs);
                black_box(pairs.len())
            });
        });
    }
    group.finish();
}

fn bench_brute(c: &mut Criterion) {
    let mut group = c.benchmark_group("broad_brute_f32");
    for (idx, &n) in BRUTE_SIZES.iter().enumerate() {
        let s = scene(n, Layout::Uniform, 0xB207_0000 + idx as u64);
        verify("brute uniform", &s);
        configure(&mut group, n);
        let boxes = &s.boxes[0];
        let mut pairs: Pairs = Vec::with_capacity(2 * n);
        group.bench_function(BenchmarkId::new("brute_force", n), |b| {
            b.iter(|| {
                brute_pairs(boxes, &mut pairs);
                black_box(pairs.len())
            });
        });
        group.bench_function(BenchmarkId::new("grid", n), |b| {
            b.iter(|| {
                let mut grid = Grid::new(s.cell_size).expect("valid cell size");
                for (i, bx) in boxes.iter().enumerate() {
                    grid.insert(i as u32, *bx).expect("valid box");
                }
                grid.candidate_pairs(&mut pairs);
                black_box(pairs.len())
            });
        });
    }
    group.finish();
}

fn benches(c: &mut Criterion) {
    for (li, layout) in [Layout::Uniform, Layout::Clustered].into_iter().enumerate() {
        let scenes: Vec<(usize, Scene)> = SIZES
            .iter()
            .enumerate()
            .map(|(si, &n)| {
                let s = scene(n, layout, 0x00B2_0AD0 + 16 * li as u64 + si as u64);
                verify(layout.name(), &s);
                (n, s)
            })
            .collect();
        bench_update(c, layout.name(), &scenes);
        bench_build(c, layout, &scenes);
        if let Layout::Uniform = layout {
            let far: Vec<(usize, Scene)> = scenes
                .iter()
                .enumerate()
                .map(|(si, (n, s))| {
                    let f = far_scene(s, 0x00FA_0000 + si as u64);
                    verify("uniform far", &f);
                    (*n, f)
                })
                .collect();
            bench_update(c, "uniform_far", &far);
        }
    }
    bench_brute(c);
}

criterion_group! {
    name = broad_benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
        .sample_size(10);
    targets = benches
}
criterion_main!(broad_benches);
