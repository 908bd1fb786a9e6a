//! World queries and the grid walks under them, 2D and 3D, f32 and f64.
//!
//! The world's queries on random worlds (every 2D kind, the 3D kinds, tiny and
//! oversize shapes, filters, removed objects, a far-off cluster) equal brute
//! force over every object through the same narrow phase, bit for bit; bad
//! input is a typed error and leaves the world unchanged.
//!
//! The walks (`Grid::ray_cells`, `Grid::walk_ray`, `Grid::walk_rings`) on
//! random grids (mixed sizes, far-off and oversize boxes, removed objects,
//! cell sizes from 0.05 to 1000) against an f64 brute force over every cell
//! and box: every cell the ray strictly crosses is visited, every visited cell
//! is crossed up to rounding, entries never decrease, each cell and object
//! once; the nearest box found through the walks equals the brute-force
//! nearest; long rays in sparse grids stay cheap.

use crate::common;

use core::ops::ControlFlow;
use std::collections::HashSet;

use broadphase::{Filter, Grid, Handle, QueryFilter, WalkStats, World, World3, WorldError};
use common::{Spec, build, iso, pose, spec};
use nalgebra::{Isometry2, Isometry3, Point, Point2, SVector, Vector2, Vector3};
use narrowphase::DispatchTable;
use narrowphase::dim3::DispatchTable3;
use proptest::prelude::*;
use shape::{
    Aabb3, BoundingBox, BoundingBox2, Cuboid, Ray, Real, Shape, Shape3, ShapeKind, Sphere,
};

// ---------------------------------------------------------------------------
// Random grids, rays and points (drawn in f64).

/// A box: centre near the origin, far off, or in a far corner; half extents
/// from tiny to oversize (covering thousands of cells).
fn one_box<const D: usize>() -> impl Strategy<Value = ([f64; D], [f64; D])> {
    let centre = prop_oneof![
        4 => prop::array::uniform::<_, D>(-40.0f64..40.0),
        1 => prop::array::uniform::<_, D>(-1e6f64..1e6),
        1 => prop::array::uniform::<_, D>(9.99e5f64..1e6),
    ];
    let half = prop_oneof![
        4 => prop::array::uniform::<_, D>(0.1f64..3.0),
        1 => prop::array::uniform::<_, D>(1e-4f64..1e-2),
        1 => prop::array::uniform::<_, D>(10.0f64..200.0),
        1 => Just([0.0; D]),
    ];
    (centre, half).prop_map(|(c, h): ([f64; D], [f64; D])| {
        (
            core::array::from_fn(|i| c[i] - h[i]),
            core::array::from_fn(|i| c[i] + h[i]),
        )
    })
}

/// A grid scene: boxes, which of them to remove after inserting all, and the
/// cell size.
#[derive(Debug, Clone)]
struct GridScene<const D: usize> {
    boxes: Vec<([f64; D], [f64; D])>,
    removed: Vec<bool>,
    cell: f64,
}

fn grid_scene<const D: usize>() -> impl Strategy<Value = GridScene<D>> {
    (
        prop::collection::vec((one_box::<D>(), prop::bool::weighted(0.15)), 0..50),
        prop_oneof![0.05f64..0.5, 0.5f64..10.0, 10.0f64..1e3],
    )
        .prop_map(|(b, cell)| GridScene {
            boxes: b.iter().map(|x| x.0).collect(),
            removed: b.iter().map(|x| x.1).collect(),
            cell,
        })
}

/// A grid scene with extreme cell sizes: so small that the coordinates
/// saturate the keys at `±2⁶²` (every box far out shares the outermost
/// cells), or so large that everything shares a few cells.
fn extreme_scene<const D: usize>() -> impl Strategy<Value = GridScene<D>> {
    (
        grid_scene::<D>(),
        prop_oneof![1e-30f64..1e-20, 1e-12f64..1e-8, 1e15f64..1e25],
    )
        .prop_map(|(s, cell)| GridScene { cell, ..s })
}

/// A ray: an origin (near, far, at a box's centre, or at an exact cell
/// corner), a direction (random, with zero components, or an exact diagonal
/// through cell corners) of any length, and a `max_toi` (finite or `+∞`).
#[derive(Debug, Clone)]
struct RaySpec<const D: usize> {
    origin: Origin<D>,
    dir: [f64; D],
    zero: [bool; D],
    scale: f64,
    max_toi: Option<f64>,
}

#[derive(Debug, Clone)]
enum Origin<const D: usize> {
    At([f64; D]),
    InBox(usize),
    Corner([i32; D]),
}

fn ray_spec<const D: usize>() -> impl Strategy<Value = RaySpec<D>> {
    let origin = prop_oneof![
        3 => prop::array::uniform::<_, D>(-60.0f64..60.0).prop_map(Origin::At),
        1 => prop::array::uniform::<_, D>(-2e6f64..2e6).prop_map(Origin::At),
        2 => any::<usize>().prop_map(Origin::InBox),
        2 => prop::array::uniform::<_, D>(-20i32..20).prop_map(Origin::Corner),
    ];
    let dir = prop_oneof![
        3 => prop::array::uniform::<_, D>(-1.0f64..1.0),
        1 => prop::array::uniform::<_, D>(prop_oneof![Just(-1.0f64), Just(1.0)]),
    ];
    (
        origin,
        dir,
        prop::array::uniform::<_, D>(prop::bool::weighted(0.25)),
        prop_oneof![Just(1.0f64), 1e-3f64..1e3],
        prop_oneof![1 => Just(None), 2 => (0.0f64..300.0).prop_map(Some)],
    )
        .prop_map(|(origin, dir, zero, scale, max_toi)| RaySpec {
            origin,
            dir,
            zero,
            scale,
            max_toi,
        })
}

/// A live grid and its objects, in precision `T`.
struct Built<T: Real, const D: usize> {
    grid: Grid<T, D>,
    /// `(id, box)` of every live object.
    live: Vec<(u32, BoundingBox<T, D>)>,
}

fn to_box<T: Real, const D: usize>(b: &([f64; D], [f64; D])) -> BoundingBox<T, D> {
    BoundingBox::new(Point::from(b.0.map(T::lit)), Point::from(b.1.map(T::lit)))
}

fn build_grid<T: Real, const D: usize>(s: &GridScene<D>) -> Built<T, D> {
    let mut grid = Grid::<T, D>::new(T::lit(s.cell)).unwrap();
    for (i, b) in s.boxes.iter().enumerate() {
        grid.insert(i as u32, to_box(b)).unwrap();
    }
    for (i, r) in s.removed.iter().enumerate() {
        if *r {
            grid.remove(i as u32).unwrap();
        }
    }
    grid.validate().unwrap();
    let live = grid.iter().map(|(i, b)| (i, *b)).collect();
    Built { grid, live }
}

fn make_ray<T: Real, const D: usize>(s: &RaySpec<D>, b: &Built<T, D>) -> (Ray<T, D>, T) {
    let cell = b.grid.cell_size();
    let origin: Point<T, D> = match &s.origin {
        Origin::At(p) => Point::from(p.map(T::lit)),
        Origin::InBox(i) if !b.live.is_empty() => b.live[i % b.live.len()].1.center(),
        Origin::InBox(_) => Point::origin(),
        Origin::Corner(k) => Point::from(k.map(|k| T::lit(f64::from(k)) * cell)),
    };
    let mut dir: SVector<T, D> = SVector::from(s.dir.map(|x| T::lit(x * s.scale)));
    for i in 0..D {
        if s.zero[i] {
            dir[i] = T::zero();
        }
    }
    if dir.iter().all(|x| *x == T::zero()) {
        dir[0] = T::one();
    }
    if let Origin::Corner(_) = s.origin {
        // Exactly diagonal: through cell corners.
        dir = dir.map(|x| {
            if x > T::zero() {
                cell
            } else if x < T::zero() {
                -cell
            } else {
                T::zero()
            }
        });
    }
    let max_toi = s.max_toi.map_or(T::infinity(), |t| T::lit(t / s.scale));
    (Ray::new(origin, dir), max_toi)
}

// ---------------------------------------------------------------------------
// The f64 reference.

fn f64s<T: Real, const D: usize>(p: &Point<T, D>) -> [f64; D] {
    core::array::from_fn(|i| p[i].as_f64())
}

/// The first time in `[0, t_max]` at which the ray `o + t d` is in the closed
/// box `lo..hi` (a slab test in f64), or `None`.
fn slab<const D: usize>(
    o: &[f64; D],
    d: &[f64; D],
    t_max: f64,
    lo: &[f64; D],
    hi: &[f64; D],
) -> Option<f64> {
    let (mut t0, mut t1) = (0.0f64, t_max);
    for i in 0..D {
        if lo[i] > hi[i] {
            return None; // a cell shrunk to nothing
        }
        if d[i] == 0.0 {
            if o[i] < lo[i] || o[i] > hi[i] {
                return None;
            }
            continue;
        }
        let (a, b) = ((lo[i] - o[i]) / d[i], (hi[i] - o[i]) / d[i]);
        // ±∞ bounds give ±∞ times (o is finite); NaN cannot arise.
        t0 = t0.max(a.min(b));
        t1 = t1.min(a.max(b));
    }
    (t0 <= t1).then_some(t0)
}

/// The f64 box of the cells `lo..=hi`, shrunk (`grow < 0`) or grown by
/// `|grow|`-scaled rounding margins: `64 ε_T (|x| + |o|∞ + s)` per boundary,
/// covering the grid's keying and the walk's margins. The saturated cells
/// (keys `±2⁶²`) reach to infinity.
fn cells_box<T: Real, const D: usize>(
    lo: &[i64; D],
    hi: &[i64; D],
    s: f64,
    o_norm: f64,
    grow: f64,
) -> ([f64; D], [f64; D]) {
    const LIMIT: i64 = 1 << 62;
    let eps = T::epsilon().as_f64();
    let m = |x: f64| 64.0 * eps * (x.abs() + o_norm + s);
    let a: [f64; D] = core::array::from_fn(|i| {
        if lo[i] <= -LIMIT {
            return f64::NEG_INFINITY;
        }
        let x = lo[i] as f64 * s;
        x - grow * m(x)
    });
    let b: [f64; D] = core::array::from_fn(|i| {
        if hi[i] >= LIMIT {
            return f64::INFINITY;
        }
        let x = (hi[i] as f64 + 1.0) * s;
        x + grow * m(x)
    });
    (a, b)
}

/// The key range of a stored box.
/// The cells object `id` is filed in: those of its fat box.
fn range<T: Real, const D: usize>(g: &Grid<T, D>, id: u32) -> ([i64; D], [i64; D]) {
    let b = g.fat_bounds(id).unwrap();
    (g.cell_of(&b.min), g.cell_of(&b.max))
}

fn span(lo: &[i64], hi: &[i64]) -> u128 {
    lo.iter()
        .zip(hi)
        .map(|(a, b)| (i128::from(*b) - i128::from(*a) + 1) as u128)
        .fold(1u128, u128::saturating_mul)
}

fn occupied_cells<T: Real, const D: usize>(b: &Built<T, D>) -> HashSet<[i64; D]> {
    let mut set = HashSet::new();
    for (id, _) in &b.live {
        let (lo, hi) = range(&b.grid, *id);
        if span(&lo, &hi) > broadphase::MAX_CELLS_PER_OBJECT {
            continue;
        }
        let mut k = lo;
        'cells: loop {
            set.insert(k);
            for i in 0..D {
                if k[i] < hi[i] {
                    k[i] += 1;
                    continue 'cells;
                }
                k[i] = lo[i];
            }
            break;
        }
    }
    set
}

// ---------------------------------------------------------------------------
// The ray walk.

fn ray_walk_prop<T: Real, const D: usize>(
    scene: GridScene<D>,
    spec: RaySpec<D>,
) -> Result<(), TestCaseError> {
    let b = build_grid::<T, D>(&scene);
    let (ray, max_toi) = make_ray(&spec, &b);
    let (o, d) = (f64s(&ray.origin), f64s(&Point::from(ray.dir)));
    let t_max = max_toi.as_f64();
    let o_norm = o.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    let s = b.grid.cell_size().as_f64();

    // Cells.
    let mut cells: Vec<([i64; D], f64)> = Vec::new();
    b.grid.ray_cells(&ray, max_toi, |k, t| {
        cells.push((k, t.as_f64()));
        ControlFlow::Continue(())
    });
    let occupied = occupied_cells(&b);
    let seen: HashSet<[i64; D]> = cells.iter().map(|c| c.0).collect();
    prop_assert_eq!(seen.len(), cells.len(), "a cell visited twice");
    for w in cells.windows(2) {
        prop_assert!(w[0].1 <= w[1].1, "entries decrease: {:?}", w);
    }
    for (k, t) in &cells {
        prop_assert!(occupied.contains(k), "visited an empty cell {:?}", k);
        let (lo, hi) = cells_box::<T, D>(k, k, s, o_norm, 1.0);
        let Some(e) = slab(&o, &d, t_max, &lo, &hi) else {
            return Err(TestCaseError::fail(format!(
                "visited cell {k:?} is off the ray"
            )));
        };
        prop_assert!(
            *t >= e && *t <= t_max,
            "cell {:?}: entry {} before {}",
            k,
            t,
            e
        );
    }
    for k in &occupied {
        let (lo, hi) = cells_box::<T, D>(k, k, s, o_norm, -1.0);
        if let Some(e) = slab(&o, &d, t_max, &lo, &hi) {
            let got = cells.iter().find(|c| c.0 == *k);
            prop_assert!(got.is_some(), "missed cell {:?} (entered at {})", k, e);
            prop_assert!(got.unwrap().1 <= e, "cell {:?}: entry after {}", k, e);
        }
    }

    // Objects, each once, with the bound fixed.
    let mut objects: Vec<(u32, f64)> = Vec::new();
    let stats = b.grid.walk_ray(&ray, max_toi, |id, t| {
        objects.push((id, t.as_f64()));
        max_toi
    });
    prop_assert_eq!(stats.objects, objects.len());
    let ids: HashSet<u32> = objects.iter().map(|x| x.0).collect();
    prop_assert_eq!(ids.len(), objects.len(), "an object handed out twice");
    for w in objects.windows(2) {
        prop_assert!(w[0].1 <= w[1].1, "entries decrease: {:?}", w);
    }
    for (id, _) in &b.live {
        let (lo, hi) = range(&b.grid, *id);
        let strict = cells_box::<T, D>(&lo, &hi, s, o_norm, -1.0);
        let loose = cells_box::<T, D>(&lo, &hi, s, o_norm, 1.0);
        let got = objects.iter().find(|x| x.0 == *id);
        if let Some(e) = slab(&o, &d, t_max, &strict.0, &strict.1) {
            prop_assert!(got.is_some(), "missed object {} (entered at {})", id, e);
            prop_assert!(got.unwrap().1 <= e);
        }
        if let Some((_, t)) = got {
            let e = slab(&o, &d, t_max, &loose.0, &loose.1);
            prop_assert!(e.is_some_and(|e| *t >= e), "object {} is off the ray", id);
        }
    }
    prop_assert!(objects.iter().all(|x| b.live.iter().any(|l| l.0 == x.0)));

    // The nearest box through the walk, the bound lowered as boxes are hit,
    // equals the brute-force nearest (ties by id).
    let hit =
        |bx: &BoundingBox<T, D>, t_max: f64| slab(&o, &d, t_max, &f64s(&bx.min), &f64s(&bx.max));
    let mut best: Option<(f64, u32)> = None;
    b.grid.walk_ray(&ray, max_toi, |id, _| {
        let bx = b.grid.bounds(id).unwrap();
        if let Some(t) = hit(bx, best.map_or(t_max, |x| x.0)) {
            if best.is_none_or(|x| (t, id) < x) {
                best = Some((t, id));
            }
        }
        // Rounded up to T, so that a tie is never cut off.
        best.map_or(max_toi, |x| T::lit(x.0 + 1e-6 * (x.0.abs() + 1.0)))
    });
    let want = b
        .live
        .iter()
        .filter_map(|(id, bx)| hit(bx, t_max).map(|t| (t, *id)))
        .min_by(|a, b| a.partial_cmp(b).unwrap());
    prop_assert_eq!(best, want);
    Ok(())
}

// ---------------------------------------------------------------------------
// The ring search.

fn box_distance<T: Real, const D: usize>(p: &[f64; D], b: &BoundingBox<T, D>) -> f64 {
    (0..D)
        .map(|i| {
            let g = (b.min[i].as_f64() - p[i])
                .max(p[i] - b.max[i].as_f64())
                .max(0.0);
            g * g
        })
        .sum::<f64>()
        .sqrt()
}

fn rings_prop<T: Real, const D: usize>(
    scene: GridScene<D>,
    at: Origin<D>,
    max_distance: Option<f64>,
) -> Result<(), TestCaseError> {
    let b = build_grid::<T, D>(&scene);
    let cell = b.grid.cell_size();
    let p: Point<T, D> = match &at {
        Origin::At(p) => Point::from(p.map(T::lit)),
        Origin::InBox(i) if !b.live.is_empty() => b.live[i % b.live.len()].1.center(),
        Origin::InBox(_) => Point::origin(),
        Origin::Corner(k) => Point::from(k.map(|k| T::lit(f64::from(k)) * cell)),
    };
    let pf = f64s(&p);
    let max_d = max_distance.map_or(T::infinity(), T::lit);
    let slack = |x: f64| x * (1.0 + 64.0 * T::epsilon().as_f64());

    let mut got: Vec<(u32, f64)> = Vec::new();
    let stats = b.grid.walk_rings(&p, max_d, |id, lb| {
        got.push((id, lb.as_f64()));
        max_d
    });
    prop_assert_eq!(stats.objects, got.len());
    let ids: HashSet<u32> = got.iter().map(|x| x.0).collect();
    prop_assert_eq!(ids.len(), got.len(), "an object handed out twice");
    for (id, lb) in &got {
        let bx = b.grid.bounds(*id).unwrap();
        let dist = box_distance(&pf, bx);
        prop_assert!(
            *lb <= dist,
            "object {}: lower bound {} above {}",
            id,
            lb,
            dist
        );
        prop_assert!(
            dist <= slack(max_d.as_f64()),
            "object {} at {} beyond",
            id,
            dist
        );
    }
    for (id, bx) in &b.live {
        if slack(box_distance(&pf, bx)) < max_d.as_f64() {
            prop_assert!(ids.contains(id), "missed object {}", id);
        }
    }

    // The nearest box (ties by id) through the search equals brute force.
    let mut best: Option<(f64, u32)> = None;
    b.grid.walk_rings(&p, max_d, |id, _| {
        let dist = box_distance(&pf, b.grid.bounds(id).unwrap());
        if dist <= max_d.as_f64() && best.is_none_or(|x| (dist, id) < x) {
            best = Some((dist, id));
        }
        best.map_or(max_d, |x| T::lit(slack(x.0) + 1e-30))
    });
    let want = b
        .live
        .iter()
        .map(|(id, bx)| (box_distance(&pf, bx), *id))
        .filter(|x| x.0 <= max_d.as_f64())
        .min_by(|a, b| a.partial_cmp(b).unwrap());
    prop_assert_eq!(best, want);
    Ok(())
}

fn at<const D: usize>() -> impl Strategy<Value = Origin<D>> {
    prop_oneof![
        3 => prop::array::uniform::<_, D>(-60.0f64..60.0).prop_map(Origin::At),
        1 => prop::array::uniform::<_, D>(-2e6f64..2e6).prop_map(Origin::At),
        2 => any::<usize>().prop_map(Origin::InBox),
        1 => prop::array::uniform::<_, D>(-20i32..20).prop_map(Origin::Corner),
    ]
}

fn max_distance() -> impl Strategy<Value = Option<f64>> {
    prop_oneof![Just(None), (0.0f64..50.0).prop_map(Some)]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: shape::testing::cases(192), ..ProptestConfig::default() })]
    #[test]
    fn ray_walk_2d_f32(s in grid_scene::<2>(), r in ray_spec::<2>()) { ray_walk_prop::<f32, 2>(s, r)?; }
    #[test]
    fn ray_walk_2d_f64(s in grid_scene::<2>(), r in ray_spec::<2>()) { ray_walk_prop::<f64, 2>(s, r)?; }
    #[test]
    fn ray_walk_3d_f32(s in grid_scene::<3>(), r in ray_spec::<3>()) { ray_walk_prop::<f32, 3>(s, r)?; }
    #[test]
    fn ray_walk_3d_f64(s in grid_scene::<3>(), r in ray_spec::<3>()) { ray_walk_prop::<f64, 3>(s, r)?; }
    #[test]
    fn ray_walk_extreme_cells_2d_f32(s in extreme_scene::<2>(), r in ray_spec::<2>()) { ray_walk_prop::<f32, 2>(s, r)?; }
    #[test]
    fn ray_walk_extreme_cells_3d_f64(s in extreme_scene::<3>(), r in ray_spec::<3>()) { ray_walk_prop::<f64, 3>(s, r)?; }
    #[test]
    fn rings_extreme_cells_2d_f64(s in extreme_scene::<2>(), p in at::<2>(), m in max_distance()) { rings_prop::<f64, 2>(s, p, m)?; }
    #[test]
    fn rings_extreme_cells_3d_f32(s in extreme_scene::<3>(), p in at::<3>(), m in max_distance()) { rings_prop::<f32, 3>(s, p, m)?; }
    #[test]
    fn rings_2d_f32(s in grid_scene::<2>(), p in at::<2>(), m in max_distance()) { rings_prop::<f32, 2>(s, p, m)?; }
    #[test]
    fn rings_2d_f64(s in grid_scene::<2>(), p in at::<2>(), m in max_distance()) { rings_prop::<f64, 2>(s, p, m)?; }
    #[test]
    fn rings_3d_f32(s in grid_scene::<3>(), p in at::<3>(), m in max_distance()) { rings_prop::<f32, 3>(s, p, m)?; }
    #[test]
    fn rings_3d_f64(s in grid_scene::<3>(), p in at::<3>(), m in max_distance()) { rings_prop::<f64, 3>(s, p, m)?; }
}

// ---------------------------------------------------------------------------
// Cost.

/// A ray a million cells long through a sparse grid (ten small boxes strung
/// along it, 1e5 cells apart) takes a bounded number of steps: the walk gives
/// up after `cells + 64` look-ups and scans the ten objects.
fn long_ray_in_a_sparse_grid<T: Real>() {
    let mut grid = Grid::<T, 2>::new(T::one()).unwrap();
    let unit = |x: f64| {
        BoundingBox::new(
            Point::from([T::lit(x), T::lit(0.25)]),
            Point::from([T::lit(x + 0.5), T::lit(0.75)]),
        )
    };
    for i in 0..10 {
        grid.insert(i, unit(f64::from(i) * 1e5)).unwrap();
    }
    let ray = Ray::new(
        Point::from([T::lit(-5.0), T::half()]),
        SVector::<T, 2>::from([T::one(), T::zero()]),
    );
    let mut ids = Vec::new();
    let stats = grid.walk_ray(&ray, T::lit(1e6), |id, _| {
        ids.push(id);
        T::lit(1e6)
    });
    assert_eq!(ids, (0..10).collect::<Vec<_>>());
    assert!(stats.scanned, "{stats:?}");
    assert!(stats.steps <= 10 + 64 + 2 * 10 + 10, "{stats:?}");
    // The same with the ray starting far before the first box (a million
    // cells in f64, ten thousand in f32, whose spacing at a million is
    // 1/16 of a cell: the walk's margins would cover several cells there):
    // the walk jumps to the occupied box, and stops at the first hit.
    let start = if T::epsilon().as_f64() > 1e-10 {
        -1e4
    } else {
        -1e6
    };
    let far = Ray::new(
        Point::from([T::lit(start), T::half()]),
        SVector::<T, 2>::from([T::one(), T::zero()]),
    );
    let mut first = None;
    let stats = grid.walk_ray(&far, T::infinity(), |id, t| {
        first.get_or_insert(id);
        t // stop at the first object
    });
    assert_eq!(first, Some(0));
    assert!(!stats.scanned && stats.steps < 8, "{stats:?}");
    // A diagonal ray through a dense block of 100 × 100 cells crosses about
    // 200 cells, however many the grid holds.
    let mut dense = Grid::<T, 2>::new(T::one()).unwrap();
    let mut id = 0;
    for x in 0..100 {
        for y in 0..100 {
            let b = BoundingBox::new(
                Point::from([T::lit(f64::from(x) + 0.25), T::lit(f64::from(y) + 0.25)]),
                Point::from([T::lit(f64::from(x) + 0.75), T::lit(f64::from(y) + 0.75)]),
            );
            dense.insert(id, b).unwrap();
            id += 1;
        }
    }
    let diag = Ray::new(
        Point::from([T::lit(-3.0), T::lit(-2.9)]),
        SVector::<T, 2>::from([T::one(), T::one()]),
    );
    let stats: WalkStats = dense.walk_ray(&diag, T::infinity(), |_, _| T::infinity());
    assert!(!stats.scanned && stats.steps < 700, "{stats:?}");
    assert!(stats.cells >= 100, "{stats:?}");
}
shape::for_each_precision!(long_ray, long_ray_in_a_sparse_grid);

/// A direction so small that crossing a cell takes longer than the float
/// range (every gain at `+∞`), in a world whose occupied box stretches
/// 1e30 along the ray: the walk stops at once instead of stepping through
/// 1e29 cells at time `∞` (found by the `kasanari rays` hostile-file test,
/// which hung on `"dir": [5e-324, 0]`). The answer is brute force's.
fn subnormal_direction_ends<T: Real>() {
    let mut world = World::<T>::new(T::lit(2.0)).unwrap();
    let ball = shape::Circle::new(T::one()).unwrap();
    let near = world
        .insert(
            ball,
            Isometry2::translation(T::lit(-4.5), T::lit(0.25)),
            Filter::default(),
        )
        .unwrap();
    let far = shape::Circle::new(T::lit(1e15)).unwrap();
    world
        .insert(
            far,
            Isometry2::translation(T::lit(1e30), -T::lit(1e30)),
            Filter::default(),
        )
        .unwrap();
    let tiny = T::min_positive_value() * T::epsilon();
    let ray = Ray::new(
        Point2::new(-T::lit(5.0), T::lit(0.25)),
        Vector2::new(tiny, T::zero()),
    );
    // The origin is 0.5 from the near ball's centre, inside: a solid cast
    // hits there at time 0; a hollow one would leave 1.5 further on, at a
    // time beyond the float range, so it hits nothing.
    let solid = QueryFilter::default();
    let (h, hit) = world.cast_ray(&ray, T::lit(20.0), solid).unwrap().unwrap();
    assert_eq!((h, hit.toi), (near, T::zero()));
    let all = world.cast_ray_all(&ray, T::infinity(), solid).unwrap();
    assert_eq!(all.len(), 1);
    let hollow = solid.with_solid(false);
    assert_eq!(world.cast_ray(&ray, T::infinity(), hollow), Ok(None));
    let outside = Ray::new(
        Point2::new(-T::lit(8.0), T::lit(5.0)),
        Vector2::new(tiny, T::zero()),
    );
    assert_eq!(
        world.cast_ray(&outside, T::infinity(), QueryFilter::default()),
        Ok(None)
    );
}
shape::for_each_precision!(subnormal_direction, subnormal_direction_ends);

/// A ring search from a point a million cells away from a sparse grid, and
/// one inside a dense block, cost little.
fn ring_search_cost<T: Real>() {
    let mut grid = Grid::<T, 2>::new(T::one()).unwrap();
    for i in 0..10u32 {
        let x = f64::from(i) * 3.0;
        let b = BoundingBox::new(
            Point::from([T::lit(x), T::zero()]),
            Point::from([T::lit(x + 0.5), T::half()]),
        );
        grid.insert(i, b).unwrap();
    }
    let far = Point::from([T::lit(1e6), T::lit(1e6)]);
    let mut nearest = (u32::MAX, T::infinity());
    let stats = grid.walk_rings(&far, T::infinity(), |id, lb| {
        if lb < nearest.1 {
            nearest = (id, lb);
        }
        nearest.1
    });
    assert_eq!(nearest.0, 9);
    assert!(stats.steps <= 10 + 64 + 10, "{stats:?}");
    let near = Point::from([T::lit(6.1), T::lit(0.1)]);
    let mut inside = Vec::new();
    let stats = grid.walk_rings(&near, T::zero(), |id, lb| {
        inside.push((id, lb));
        T::zero()
    });
    assert_eq!(inside, vec![(2, T::zero())]);
    assert!(!stats.scanned && stats.steps < 20, "{stats:?}");
}
shape::for_each_precision!(ring_cost, ring_search_cost);

// ---------------------------------------------------------------------------
// Random worlds (2D: every built-in kind; 3D: spheres, cuboids, boxes).

/// One object: a shape, a pose (near the origin, or in a cluster 1e5 out),
/// filter bits, and whether it is removed after every object is inserted.
#[derive(Debug, Clone)]
struct Obj<S, P> {
    spec: S,
    pose: P,
    bits: u8,
    removed: bool,
}

/// The collision filter of `bits`: one of four groups, colliding with all or
/// with groups 0 and 2.
fn filter_of(bits: u8) -> Filter {
    Filter::new(
        1 << (bits % 4),
        if bits & 8 != 0 { 0b0101 } else { u32::MAX },
    )
}

/// The query filter of `bits`, excluding the `exclude`-th live object.
fn query_filter(bits: u8, exclude: Option<usize>, live: &[Handle]) -> QueryFilter {
    let mut f = QueryFilter::default();
    if bits & 16 != 0 {
        f = f.with_groups(filter_of(bits));
    }
    if let Some(i) = exclude {
        if !live.is_empty() {
            f = f.excluding(live[i % live.len()]);
        }
    }
    f.with_solid(bits & 32 == 0)
}

/// Far-off objects and queries sit in a cluster this far out (f32's far
/// range, `docs/conventions.md`).
const FAR: f64 = 1e5;

fn obj2() -> impl Strategy<Value = Obj<Spec, [f64; 3]>> {
    (
        spec(),
        prop_oneof![4 => pose(20.0), 1 => pose(5.0).prop_map(|p| [p[0] + FAR, p[1] - FAR, p[2]])],
        any::<u8>(),
        prop::bool::weighted(0.15),
    )
        .prop_map(|(spec, pose, bits, removed)| Obj {
            spec,
            pose,
            bits,
            removed,
        })
}

/// A 2D world, and every object's handle (`None` when removed).
fn world2<T: Real>(objs: &[Obj<Spec, [f64; 3]>], cell: f64) -> (World<T>, Vec<Option<Handle>>) {
    let mut world = World::<T>::new(T::lit(cell)).unwrap();
    let handles: Vec<Handle> = objs
        .iter()
        .map(|o| {
            world
                .insert_boxed(build::<T>(&o.spec), iso::<T>(o.pose), filter_of(o.bits))
                .unwrap()
        })
        .collect();
    let handles = objs
        .iter()
        .zip(handles)
        .map(|(o, h)| {
            if o.removed {
                world.remove(h).unwrap();
                None
            } else {
                Some(h)
            }
        })
        .collect();
    world.validate().unwrap();
    (world, handles)
}

#[derive(Debug, Clone)]
enum Spec3 {
    Sphere(f64),
    Cuboid([f64; 3]),
    Aabb3([f64; 3]),
}

fn spec3() -> impl Strategy<Value = Spec3> {
    let size = prop_oneof![4 => 0.1f64..3.0, 1 => 0.01f64..0.1, 1 => 3.0f64..20.0];
    prop_oneof![
        size.clone().prop_map(Spec3::Sphere),
        prop::array::uniform3(size.clone()).prop_map(Spec3::Cuboid),
        prop::array::uniform3(size).prop_map(Spec3::Aabb3),
    ]
}

fn build3<T: Real>(s: &Spec3) -> Box<dyn Shape3<T>> {
    let v = |a: &[f64; 3]| Vector3::new(T::lit(a[0]), T::lit(a[1]), T::lit(a[2]));
    match s {
        Spec3::Sphere(r) => Box::new(Sphere::new(T::lit(*r)).unwrap()),
        Spec3::Cuboid(h) => Box::new(Cuboid::new(v(h)).unwrap()),
        Spec3::Aabb3(h) => Box::new(Aabb3::from_half_extents(v(h)).unwrap()),
    }
}

fn pose3() -> impl Strategy<Value = [f64; 6]> {
    let t = prop_oneof![
        4 => prop::array::uniform3(-15.0f64..15.0),
        1 => prop::array::uniform3(-5.0f64..5.0).prop_map(|t| [t[0] + FAR, t[1] - FAR, t[2]]),
    ];
    (t, prop::array::uniform3(-3.2f64..3.2)).prop_map(|(t, r)| [t[0], t[1], t[2], r[0], r[1], r[2]])
}

fn iso3<T: Real>(p: [f64; 6]) -> Isometry3<T> {
    Isometry3::new(
        Vector3::new(T::lit(p[0]), T::lit(p[1]), T::lit(p[2])),
        Vector3::new(T::lit(p[3]), T::lit(p[4]), T::lit(p[5])),
    )
}

fn obj3() -> impl Strategy<Value = Obj<Spec3, [f64; 6]>> {
    (spec3(), pose3(), any::<u8>(), prop::bool::weighted(0.15)).prop_map(
        |(spec, pose, bits, removed)| Obj {
            spec,
            pose,
            bits,
            removed,
        },
    )
}

fn world3<T: Real>(objs: &[Obj<Spec3, [f64; 6]>], cell: f64) -> (World3<T>, Vec<Option<Handle>>) {
    let mut world = World3::<T>::new(T::lit(cell)).unwrap();
    let handles: Vec<Handle> = objs
        .iter()
        .map(|o| {
            world
                .insert_boxed(build3::<T>(&o.spec), iso3::<T>(o.pose), filter_of(o.bits))
                .unwrap()
        })
        .collect();
    let handles = objs
        .iter()
        .zip(handles)
        .map(|(o, h)| {
            if o.removed {
                world.remove(h).unwrap();
                None
            } else {
                Some(h)
            }
        })
        .collect();
    world.validate().unwrap();
    (world, handles)
}

fn cell_size() -> impl Strategy<Value = f64> {
    prop_oneof![0.2f64..2.0, 2.0f64..20.0]
}

/// A query: bits for its filter, an excluded object, and a `max_distance`
/// (finite or `+∞`).
#[derive(Debug, Clone)]
struct Query {
    bits: u8,
    exclude: Option<usize>,
    max_distance: Option<f64>,
}

fn query() -> impl Strategy<Value = Query> {
    (
        any::<u8>(),
        prop::option::weighted(0.2, any::<usize>()),
        prop_oneof![1 => Just(None), 3 => (0.0f64..10.0).prop_map(Some)],
    )
        .prop_map(|(bits, exclude, max_distance)| Query {
            bits,
            exclude,
            max_distance,
        })
}

// ---------------------------------------------------------------------------
// Objects within a distance.

fn query_distance_2d<T: Real>(
    objs: Vec<Obj<Spec, [f64; 3]>>,
    cell: f64,
    (qs, qp): (Spec, [f64; 3]),
    q: Query,
) -> Result<(), TestCaseError> {
    let (world, handles) = world2::<T>(&objs, cell);
    let live: Vec<Handle> = handles.iter().flatten().copied().collect();
    let filter = query_filter(q.bits, q.exclude, &live);
    let max_d = q.max_distance.map_or(T::infinity(), T::lit);
    let (shape, pose) = (build::<T>(&qs), iso::<T>(qp));
    let got = world
        .query_distance(shape.as_ref(), &pose, max_d, filter)
        .unwrap();
    let table = DispatchTable::<T>::new();
    let want: Vec<(Handle, T)> = objs
        .iter()
        .zip(&handles)
        .filter_map(|(o, h)| Some((o, (*h)?)))
        .filter(|(o, h)| filter.accepts(*h, &filter_of(o.bits)))
        .filter_map(|(o, h)| {
            let b = build::<T>(&o.spec);
            let cp = table
                .closest_points(shape.as_ref(), &pose, b.as_ref(), &iso::<T>(o.pose), max_d)
                .unwrap();
            cp.distance().map(|d| (h, d))
        })
        .collect();
    prop_assert_eq!(got, want);
    world.validate().unwrap();
    Ok(())
}

fn query_distance_3d<T: Real>(
    objs: Vec<Obj<Spec3, [f64; 6]>>,
    cell: f64,
    (qs, qp): (Spec3, [f64; 6]),
    q: Query,
) -> Result<(), TestCaseError> {
    let (world, handles) = world3::<T>(&objs, cell);
    let live: Vec<Handle> = handles.iter().flatten().copied().collect();
    let filter = query_filter(q.bits, q.exclude, &live);
    let max_d = q.max_distance.map_or(T::infinity(), T::lit);
    let (shape, pose) = (build3::<T>(&qs), iso3::<T>(qp));
    let got = world
        .query_distance(shape.as_ref(), &pose, max_d, filter)
        .unwrap();
    let table = DispatchTable3::<T>::new();
    let want: Vec<(Handle, T)> = objs
        .iter()
        .zip(&handles)
        .filter_map(|(o, h)| Some((o, (*h)?)))
        .filter(|(o, h)| filter.accepts(*h, &filter_of(o.bits)))
        .filter_map(|(o, h)| {
            let b = build3::<T>(&o.spec);
            let cp = table
                .closest_points(shape.as_ref(), &pose, b.as_ref(), &iso3::<T>(o.pose), max_d)
                .unwrap();
            cp.distance().map(|d| (h, d))
        })
        .collect();
    prop_assert_eq!(got, want);
    world.validate().unwrap();
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: shape::testing::cases(96), ..ProptestConfig::default() })]
    #[test]
    fn query_distance_2d_f32(o in prop::collection::vec(obj2(), 0..30), c in cell_size(), s in (spec(), prop_oneof![3 => pose(20.0), 1 => pose(5.0).prop_map(|p| [p[0] + FAR, p[1] - FAR, p[2]])]), q in query()) {
        query_distance_2d::<f32>(o, c, s, q)?;
    }
    #[test]
    fn query_distance_2d_f64(o in prop::collection::vec(obj2(), 0..30), c in cell_size(), s in (spec(), prop_oneof![3 => pose(20.0), 1 => pose(5.0).prop_map(|p| [p[0] + FAR, p[1] - FAR, p[2]])]), q in query()) {
        query_distance_2d::<f64>(o, c, s, q)?;
    }
    #[test]
    fn query_distance_3d_f32(o in prop::collection::vec(obj3(), 0..30), c in cell_size(), s in (spec3(), pose3()), q in query()) {
        query_distance_3d::<f32>(o, c, s, q)?;
    }
    #[test]
    fn query_distance_3d_f64(o in prop::collection::vec(obj3(), 0..30), c in cell_size(), s in (spec3(), pose3()), q in query()) {
        query_distance_3d::<f64>(o, c, s, q)?;
    }
}

// ---------------------------------------------------------------------------
// Bad input.

/// A user shape with a bounding box and nothing else: the narrow phase can
/// answer no query about it.
#[derive(Debug, Clone, Copy)]
struct Opaque;

impl<T: Real> Shape<T> for Opaque {
    fn kind(&self) -> ShapeKind {
        ShapeKind::custom(9)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn bounding_box(&self, pose: &Isometry2<T>) -> BoundingBox2<T> {
        let c = Point2::from(pose.translation.vector);
        let h = Vector2::repeat(T::one());
        BoundingBox2::new(c - h, c + h)
    }
}

fn bad_input<T: Real>() {
    let mut world = World::<T>::new(T::one()).unwrap();
    let ball = shape::Circle::new(T::one()).unwrap();
    let a = world
        .insert(ball, Isometry2::identity(), Filter::ALL)
        .unwrap();
    let opaque = world
        .insert(
            Opaque,
            Isometry2::translation(T::lit(5.0), T::zero()),
            Filter::ALL,
        )
        .unwrap();
    let f = QueryFilter::default();
    let at = |x: f64| Isometry2::translation(T::lit(x), T::zero());
    for bad in [T::nan(), -T::one(), T::neg_infinity()] {
        assert_eq!(
            world.query_distance(&ball, &at(0.0), bad, f),
            Err(WorldError::InvalidMaxDistance)
        );
    }
    let nan_pose = Isometry2::translation(T::nan(), T::zero());
    assert_eq!(
        world.query_distance(&ball, &nan_pose, T::one(), f),
        Err(WorldError::NonFinitePose)
    );
    // The opaque object fails the query when it is looked at, and only then.
    assert_eq!(
        world.query_distance(&ball, &at(5.0), T::one(), f),
        Err(WorldError::Narrowphase {
            handle: opaque,
            error: narrowphase::DispatchError::Unsupported {
                a: ShapeKind::CIRCLE,
                b: ShapeKind::custom(9)
            }
        })
    );
    assert_eq!(
        world.query_distance(&ball, &at(5.0), T::one(), f.excluding(opaque)),
        Ok(vec![])
    );
    assert_eq!(
        world.query_distance(&ball, &at(-3.0), T::one(), f),
        Ok(vec![(a, T::one())])
    );
    // Nothing changed.
    world.validate().unwrap();
    assert_eq!(world.len(), 2);
    assert_eq!(world.handles().collect::<Vec<_>>(), vec![a, opaque]);
    assert_eq!(*world.get(opaque).unwrap().pose(), at(5.0));
}
shape::for_each_precision!(bad_input_is_refused, bad_input);

// ---------------------------------------------------------------------------
// Ray casts and point projections against brute force.
//
// The reference asks the narrow phase (`Space::cast_ray`, `project_point`)
// about every live object the filter accepts, in handle order, and keeps the
// least (time, handle) / (distance, handle): the world's walk must find the
// very same answers, bit for bit.

use broadphase::{Dim, Space};
use shape::{PointProjection, RayHit};

/// The time (in f64) at which the exact ray enters object `h`'s bounding
/// box grown along each axis the ray moves along by `8 ε (|box| + |o|)`
/// (that axis's largest box coordinate and origin coordinate), or `None`:
/// the region within which the world promises to test an object (the
/// walk's cell margins and the box test both cover it, `world/rays.rs`).
fn grown_box_entry<T: Real, const D: usize>(
    world: &World<T, D>,
    ray: &Ray<T, D>,
    h: Handle,
) -> Option<f64>
where
    Dim<D>: Space<T, D>,
{
    let b = world.grid().bounds(h.index()).unwrap();
    let (o, d) = (f64s(&ray.origin), f64s(&Point::from(ray.dir)));
    let (lo, hi) = (f64s(&b.min), f64s(&b.max));
    let g: [f64; D] = core::array::from_fn(|j| {
        if d[j] == 0.0 {
            0.0
        } else {
            8.0 * T::epsilon().as_f64() * (lo[j].abs().max(hi[j].abs()) + o[j].abs())
        }
    });
    let lo: [f64; D] = core::array::from_fn(|j| lo[j] - g[j]);
    let hi: [f64; D] = core::array::from_fn(|j| hi[j] + g[j]);
    slab(&o, &d, f64::INFINITY, &lo, &hi)
}

/// The brute-force answer for one ray: every hit over every accepted
/// object, sorted by time, ties by handle (a stable sort of the objects in
/// handle order); and the `sure` ones among them, whose objects the exact
/// ray enters within [`grown_box_entry`]'s region, and no later than the
/// hit allows (the premise of the world's slack). The others (rare, f32
/// only) are the narrow phase's rounding gone wrong: f32 sliver triangles
/// seen from 1e5 away are answered up to units off their box; the world
/// may or may not report those.
struct Brute<T: Real, const D: usize> {
    all: Vec<(Handle, RayHit<T, D>)>,
    sure: Vec<(Handle, RayHit<T, D>)>,
}

fn brute_hits<T: Real, const D: usize>(
    world: &World<T, D>,
    ray: &Ray<T, D>,
    max_toi: T,
    filter: QueryFilter,
) -> Brute<T, D>
where
    Dim<D>: Space<T, D>,
{
    let mut all: Vec<(Handle, RayHit<T, D>)> = world
        .handles()
        .filter_map(|h| {
            let o = world.get(h).unwrap();
            if !filter.accepts(h, &o.filter()) {
                return None;
            }
            <Dim<D> as Space<T, D>>::cast_ray(o.shape(), o.pose(), ray, max_toi, filter.solid)
                .unwrap()
                .map(|hit| (h, hit))
        })
        .collect();
    all.sort_by(|a, b| a.1.toi.partial_cmp(&b.1.toi).unwrap());
    // The walk's slack (`world/rays.rs`): an object whose box the ray
    // enters no later than `toi + 64 ε (toi + ‖o‖∞ / ‖d‖∞)`.
    let scale = (ray.origin.coords.amax() / ray.dir.amax()).as_f64();
    let eps = T::epsilon().as_f64();
    let sure = all
        .iter()
        .filter(|(h, hit)| {
            let toi = hit.toi.as_f64();
            grown_box_entry(world, ray, *h).is_some_and(|t| t <= toi + 64.0 * eps * (toi + scale))
        })
        .copied()
        .collect();
    Brute { all, sure }
}

/// Whether `got` lists hits of `all`, in `all`'s order, among them every
/// one of `sure`.
fn brackets<T: Real, const D: usize>(got: &[(Handle, RayHit<T, D>)], b: &Brute<T, D>) -> bool {
    let mut rest = b.all.iter();
    got.iter().all(|g| rest.any(|a| a == g)) && b.sure.iter().all(|s| got.contains(s))
}

/// The distance the world's `project_point` ranks objects by: 0 inside,
/// else `|projection − point|` scaled by its largest component.
fn projected_distance<T: Real, const D: usize>(p: &PointProjection<T, D>, q: &Point<T, D>) -> T {
    if p.is_inside {
        return T::zero();
    }
    let v = p.point - q;
    let m = v.amax();
    if m == T::zero() {
        return m;
    }
    (v / m).norm() * m
}

/// The nearest accepted object within `max_distance`, ties by handle.
fn brute_nearest<T: Real, const D: usize>(
    world: &World<T, D>,
    q: &Point<T, D>,
    max_distance: T,
    filter: QueryFilter,
) -> Option<(Handle, PointProjection<T, D>)>
where
    Dim<D>: Space<T, D>,
{
    let mut best: Option<(T, Handle, PointProjection<T, D>)> = None;
    for h in world.handles() {
        let o = world.get(h).unwrap();
        if !filter.accepts(h, &o.filter()) {
            continue;
        }
        let p =
            <Dim<D> as Space<T, D>>::project_point(o.shape(), o.pose(), q, filter.solid).unwrap();
        let d = projected_distance(&p, q);
        if d <= max_distance && best.is_none_or(|b| d < b.0) {
            best = Some((d, h, p));
        }
    }
    best.map(|b| (b.1, b.2))
}

/// A query ray in a random world: where it starts, where it points, how fast
/// (times scale with `1 / scale`), how far, and the filter bits.
#[derive(Debug, Clone)]
struct WorldRay<const D: usize> {
    origin: Origin<D>,
    dir: RayDir<D>,
    scale: f64,
    max_toi: Option<f64>,
    bits: u8,
    exclude: Option<usize>,
    /// Hits to take from `cast_ray_with` before breaking.
    take: usize,
}

#[derive(Debug, Clone)]
enum RayDir<const D: usize> {
    /// Random, with some components zeroed (parallel to axes or planes).
    Random([f64; D], [bool; D]),
    /// `±1` per axis, times the cell size: through cell corners from a
    /// corner origin.
    Diagonal([bool; D]),
    /// Towards the far cluster (a ray across the whole world).
    Across([f64; D]),
    /// Towards a live object's box centre, a little off.
    AtBox(usize, [f64; D]),
}

/// `p` moved into the far cluster.
fn far<const D: usize>(mut p: [f64; D]) -> [f64; D] {
    p[0] += FAR;
    p[1] -= FAR;
    p
}

fn world_ray<const D: usize>() -> impl Strategy<Value = WorldRay<D>> {
    let origin = prop_oneof![
        3 => prop::array::uniform::<_, D>(-25.0f64..25.0).prop_map(Origin::At),
        1 => prop::array::uniform::<_, D>(-8.0f64..8.0).prop_map(|p| Origin::At(far(p))),
        2 => any::<usize>().prop_map(Origin::InBox),
        2 => prop::array::uniform::<_, D>(-12i32..12).prop_map(Origin::Corner),
        // Far from every object (then aimed at one): the narrow phase's
        // rounding grows with the distance.
        2 => (prop::array::uniform::<_, D>(-1.0f64..1.0), 1e3f64..1e5)
            .prop_map(|(u, r)| Origin::At(u.map(|x| x * r))),
    ];
    let dir = prop_oneof![
        4 => (
            prop::array::uniform::<_, D>(-1.0f64..1.0),
            prop::array::uniform::<_, D>(prop::bool::weighted(0.3)),
        )
            .prop_map(|(d, z)| RayDir::Random(d, z)),
        2 => prop::array::uniform::<_, D>(any::<bool>()).prop_map(RayDir::Diagonal),
        1 => prop::array::uniform::<_, D>(-0.01f64..0.01).prop_map(RayDir::Across),
        4 => (any::<usize>(), prop::array::uniform::<_, D>(-0.5f64..0.5))
            .prop_map(|(i, off)| RayDir::AtBox(i, off)),
    ];
    (
        origin,
        dir,
        prop_oneof![Just(1.0f64), 1e-2f64..1e2],
        prop_oneof![1 => Just(None), 2 => (0.0f64..80.0).prop_map(Some)],
        any::<u8>(),
        prop::option::weighted(0.2, any::<usize>()),
        0usize..6,
    )
        .prop_map(
            |(origin, dir, scale, max_toi, bits, exclude, take)| WorldRay {
                origin,
                dir,
                scale,
                max_toi,
                bits,
                exclude,
                take,
            },
        )
}

/// A point where `origin` says, in the world `world` (a live object's box
/// centre for `InBox`; a cell corner for `Corner`).
fn place<T: Real, const D: usize>(world: &World<T, D>, origin: &Origin<D>) -> Point<T, D>
where
    Dim<D>: Space<T, D>,
{
    let cell = world.grid().cell_size();
    match origin {
        Origin::At(p) => Point::from(p.map(T::lit)),
        Origin::InBox(i) => {
            let boxes: Vec<_> = world.grid().iter().map(|(_, b)| *b).collect();
            if boxes.is_empty() {
                Point::origin()
            } else {
                boxes[i % boxes.len()].center()
            }
        }
        Origin::Corner(k) => Point::from(k.map(|k| T::lit(f64::from(k)) * cell)),
    }
}

fn build_ray<T: Real, const D: usize>(world: &World<T, D>, r: &WorldRay<D>) -> (Ray<T, D>, T)
where
    Dim<D>: Space<T, D>,
{
    let origin = place(world, &r.origin);
    let cell = world.grid().cell_size();
    let mut dir: SVector<T, D> = match &r.dir {
        RayDir::Random(d, z) => SVector::from(core::array::from_fn(|i| {
            if z[i] {
                T::zero()
            } else {
                T::lit(d[i] * r.scale)
            }
        })),
        RayDir::Diagonal(s) => SVector::from(s.map(|s| if s { cell } else { -cell })),
        RayDir::Across(noise) => {
            let target = far([0.0; D]);
            SVector::from(core::array::from_fn(|i| {
                T::lit((target[i] - origin[i].as_f64()) * (1.0 + noise[i]) * r.scale)
            }))
        }
        RayDir::AtBox(k, off) => {
            let target = place(world, &Origin::InBox(*k));
            SVector::from(core::array::from_fn(|i| {
                T::lit((target[i].as_f64() + off[i] - origin[i].as_f64()) * r.scale)
            }))
        }
    };
    if dir.iter().all(|x| *x == T::zero()) {
        dir[D - 1] = T::lit(r.scale);
    }
    let max_toi = r.max_toi.map_or(T::infinity(), |t| T::lit(t / r.scale));
    (Ray::new(origin, dir), max_toi)
}

/// The world's three ray casts equal brute force: the first hit, every hit
/// in order, and the first `take` hits of the callback form.
fn rays_against_brute_force<T: Real, const D: usize>(
    world: &World<T, D>,
    rays: &[WorldRay<D>],
) -> Result<(), TestCaseError>
where
    Dim<D>: Space<T, D>,
{
    let live: Vec<Handle> = world.handles().collect();
    for r in rays {
        let (ray, max_toi) = build_ray(world, r);
        let filter = query_filter(r.bits, r.exclude, &live);
        let brute = brute_hits(world, &ray, max_toi, filter);
        let exact = brute.all.len() == brute.sure.len();
        prop_assert!(
            exact || T::epsilon().as_f64() > 1e-10,
            "the narrow phase hits {} objects off the ray in f64",
            brute.all.len() - brute.sure.len()
        );
        let first = world.cast_ray(&ray, max_toi, filter).unwrap();
        let all = world.cast_ray_all(&ray, max_toi, filter).unwrap();
        let mut taken = Vec::new();
        world
            .cast_ray_with(&ray, max_toi, filter, |h, hit| {
                taken.push((h, *hit));
                if taken.len() > r.take {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            })
            .unwrap();
        let n = (r.take + 1).min(all.len());
        prop_assert_eq!(&taken[..], &all[..n], "callback hits of {:?}", ray);
        prop_assert_eq!(first, all.first().copied(), "first hit of {:?}", ray);
        if exact {
            prop_assert_eq!(&all, &brute.all, "every hit of {:?}", ray);
        } else {
            prop_assert!(brackets(&all, &brute), "every hit of {:?}: {:?}", ray, all);
        }
    }
    world.validate().unwrap();
    Ok(())
}

/// A projection query: the point, `max_distance` and the filter bits.
#[derive(Debug, Clone)]
struct WorldPoint<const D: usize> {
    at: Origin<D>,
    max_distance: Option<f64>,
    bits: u8,
    exclude: Option<usize>,
}

fn world_point<const D: usize>() -> impl Strategy<Value = WorldPoint<D>> {
    (
        prop_oneof![
            3 => prop::array::uniform::<_, D>(-30.0f64..30.0).prop_map(Origin::At),
            1 => prop::array::uniform::<_, D>(-8.0f64..8.0).prop_map(|p| Origin::At(far(p))),
            1 => prop::array::uniform::<_, D>(-3e5f64..3e5).prop_map(Origin::At),
            2 => any::<usize>().prop_map(Origin::InBox),
            1 => prop::array::uniform::<_, D>(-12i32..12).prop_map(Origin::Corner),
        ],
        prop_oneof![1 => Just(None), 2 => (0.0f64..10.0).prop_map(Some)],
        any::<u8>(),
        prop::option::weighted(0.2, any::<usize>()),
    )
        .prop_map(|(at, max_distance, bits, exclude)| WorldPoint {
            at,
            max_distance,
            bits,
            exclude,
        })
}

fn points_against_brute_force<T: Real, const D: usize>(
    world: &World<T, D>,
    points: &[WorldPoint<D>],
) -> Result<(), TestCaseError>
where
    Dim<D>: Space<T, D>,
{
    let live: Vec<Handle> = world.handles().collect();
    for q in points {
        let p = place(world, &q.at);
        let filter = query_filter(q.bits, q.exclude, &live);
        let max_d = q.max_distance.map_or(T::infinity(), T::lit);
        let got = world.project_point(&p, max_d, filter).unwrap();
        let want = brute_nearest(world, &p, max_d, filter);
        prop_assert_eq!(got, want, "nearest to {:?} within {:?}", p, max_d);
    }
    world.validate().unwrap();
    Ok(())
}

fn rays_2d<T: Real>(
    objs: Vec<Obj<Spec, [f64; 3]>>,
    cell: f64,
    rays: Vec<WorldRay<2>>,
    points: Vec<WorldPoint<2>>,
) -> Result<(), TestCaseError> {
    let (world, _) = world2::<T>(&objs, cell);
    rays_against_brute_force(&world, &rays)?;
    points_against_brute_force(&world, &points)
}

fn rays_3d<T: Real>(
    objs: Vec<Obj<Spec3, [f64; 6]>>,
    cell: f64,
    rays: Vec<WorldRay<3>>,
    points: Vec<WorldPoint<3>>,
) -> Result<(), TestCaseError> {
    let (world, _) = world3::<T>(&objs, cell);
    rays_against_brute_force(&world, &rays)?;
    points_against_brute_force(&world, &points)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: shape::testing::cases(96), ..ProptestConfig::default() })]
    #[test]
    fn world_rays_2d_f32(o in prop::collection::vec(obj2(), 0..40), c in cell_size(), r in prop::collection::vec(world_ray::<2>(), 1..5), p in prop::collection::vec(world_point::<2>(), 1..4)) {
        rays_2d::<f32>(o, c, r, p)?;
    }
    #[test]
    fn world_rays_2d_f64(o in prop::collection::vec(obj2(), 0..40), c in cell_size(), r in prop::collection::vec(world_ray::<2>(), 1..5), p in prop::collection::vec(world_point::<2>(), 1..4)) {
        rays_2d::<f64>(o, c, r, p)?;
    }
    #[test]
    fn world_rays_3d_f32(o in prop::collection::vec(obj3(), 0..40), c in cell_size(), r in prop::collection::vec(world_ray::<3>(), 1..5), p in prop::collection::vec(world_point::<3>(), 1..4)) {
        rays_3d::<f32>(o, c, r, p)?;
    }
    #[test]
    fn world_rays_3d_f64(o in prop::collection::vec(obj3(), 0..40), c in cell_size(), r in prop::collection::vec(world_ray::<3>(), 1..5), p in prop::collection::vec(world_point::<3>(), 1..4)) {
        rays_3d::<f64>(o, c, r, p)?;
    }
}

// ---------------------------------------------------------------------------
// Ray casts and projections: known values.

fn aabb<T: Real>(x0: f64, y0: f64, x1: f64, y1: f64) -> shape::Aabb<T> {
    shape::Aabb::new(
        Point2::new(T::lit(x0), T::lit(y0)),
        Point2::new(T::lit(x1), T::lit(y1)),
    )
    .unwrap()
}

fn ray2<T: Real>(o: [f64; 2], d: [f64; 2]) -> Ray<T> {
    Ray::new(
        Point2::new(T::lit(o[0]), T::lit(o[1])),
        Vector2::new(T::lit(d[0]), T::lit(d[1])),
    )
}

/// Two boxes whose shared face lies on the ray's line, on a cell boundary:
/// both are hit at the same time, and the smaller handle wins whichever was
/// inserted first; `cast_ray_all` lists both, by handle.
fn ray_ties<T: Real>() {
    let id = Isometry2::identity();
    let f = QueryFilter::default();
    let ray = ray2::<T>([0.0, 0.0], [1.0, 0.0]);
    for above_first in [true, false] {
        let mut world = World::<T>::new(T::one()).unwrap();
        let (a, b) = if above_first {
            let a = world
                .insert(aabb(2.0, 0.0, 3.0, 1.0), id, Filter::ALL)
                .unwrap();
            let b = world
                .insert(aabb(2.0, -1.0, 3.0, 0.0), id, Filter::ALL)
                .unwrap();
            (a, b)
        } else {
            let b = world
                .insert(aabb(2.0, -1.0, 3.0, 0.0), id, Filter::ALL)
                .unwrap();
            let a = world
                .insert(aabb(2.0, 0.0, 3.0, 1.0), id, Filter::ALL)
                .unwrap();
            (a, b)
        };
        let (h, hit) = world.cast_ray(&ray, T::infinity(), f).unwrap().unwrap();
        assert_eq!(h, a.min(b));
        assert_eq!(
            (hit.toi, hit.point),
            (T::two(), Point2::new(T::two(), T::zero()))
        );
        let all = world.cast_ray_all(&ray, T::infinity(), f).unwrap();
        let order: Vec<(Handle, T)> = all.iter().map(|(h, x)| (*h, x.toi)).collect();
        assert_eq!(order, vec![(a.min(b), T::two()), (a.max(b), T::two())]);
        // Excluding the winner gives the other.
        let (h, _) = world
            .cast_ray(&ray, T::infinity(), f.excluding(a.min(b)))
            .unwrap()
            .unwrap();
        assert_eq!(h, a.max(b));
        // A max_toi just short of the boxes: nothing; exactly at them: a hit.
        let short = T::two() * (T::one() - T::epsilon());
        assert_eq!(world.cast_ray(&ray, short, f), Ok(None));
        assert!(world.cast_ray(&ray, T::two(), f).unwrap().is_some());
    }
}
shape::for_each_precision!(world_ray_ties, ray_ties);

/// A diagonal ray through the corners of a block of unit cells, each holding
/// a small box on the diagonal and one off it: the boxes on the diagonal, in
/// order, with exact times; a ray along a cell boundary; a ray starting
/// inside a box (solid: time 0 at the origin; hollow: where it leaves).
fn ray_corners<T: Real>() {
    let mut world = World::<T>::new(T::one()).unwrap();
    let mut diagonal = Vec::new();
    for i in 0..10 {
        let x = f64::from(i);
        diagonal.push(
            world
                .insert(
                    aabb(x + 0.25, x + 0.25, x + 0.75, x + 0.75),
                    Isometry2::identity(),
                    Filter::ALL,
                )
                .unwrap(),
        );
        world
            .insert(
                aabb(x + 0.25, x + 1.25, x + 0.75, x + 1.75),
                Isometry2::identity(),
                Filter::ALL,
            )
            .unwrap();
    }
    let f = QueryFilter::default();
    let ray = ray2::<T>([0.0, 0.0], [1.0, 1.0]);
    let all = world.cast_ray_all(&ray, T::infinity(), f).unwrap();
    let want: Vec<(Handle, T)> = (0..10)
        .map(|i| (diagonal[i], T::lit(i as f64 + 0.25)))
        .collect();
    assert_eq!(
        all.iter().map(|(h, x)| (*h, x.toi)).collect::<Vec<_>>(),
        want
    );
    assert_eq!(all, brute_hits(&world, &ray, T::infinity(), f).all);
    // Stop after three.
    let mut seen = Vec::new();
    world
        .cast_ray_with(&ray, T::infinity(), f, |h, _| {
            seen.push(h);
            if seen.len() == 3 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .unwrap();
    assert_eq!(seen, diagonal[..3]);
    // Along the cell boundary x = 5, upwards: touches nothing (the boxes
    // keep a quarter cell from the boundaries).
    let up = ray2::<T>([5.0, -3.0], [0.0, 1.0]);
    assert_eq!(world.cast_ray(&up, T::infinity(), f), Ok(None));
    // Along x = 5.25, the left faces of the boxes in column 5.
    let up = ray2::<T>([5.25, -3.0], [0.0, 2.0]);
    let hits = world.cast_ray_all(&up, T::infinity(), f).unwrap();
    assert_eq!(hits.len(), 2);
    assert_eq!((hits[0].0, hits[0].1.toi), (diagonal[5], T::lit(4.125)));
    // From inside box 7, solid and hollow.
    let inside = ray2::<T>([7.5, 7.5], [1.0, 0.0]);
    let (h, hit) = world.cast_ray(&inside, T::infinity(), f).unwrap().unwrap();
    assert_eq!(
        (h, hit.toi, hit.point),
        (diagonal[7], T::zero(), inside.origin)
    );
    let (h, hit) = world
        .cast_ray(&inside, T::infinity(), f.with_solid(false))
        .unwrap()
        .unwrap();
    assert_eq!((h, hit.toi), (diagonal[7], T::lit(0.25)));
    assert_eq!(hit.normal.into_inner(), Vector2::new(-T::one(), T::zero()));
}
shape::for_each_precision!(world_ray_corners, ray_corners);

/// `max_toi = +∞` reaches an object far out (a ray across 1e5 cells through
/// an empty world costs a jump, not a walk), and a tiny object beside an
/// oversize one is found in order.
fn ray_far_and_oversize<T: Real>() {
    let mut world = World::<T>::new(T::one()).unwrap();
    let big = world
        .insert(
            aabb(-500.0, 40.0, 500.0, 60.0),
            Isometry2::identity(),
            Filter::ALL,
        )
        .unwrap();
    let tiny = world
        .insert(
            shape::Circle::new(T::lit(1e-3)).unwrap(),
            Isometry2::translation(T::zero(), T::lit(10.0)),
            Filter::ALL,
        )
        .unwrap();
    let far = world
        .insert(
            shape::Circle::new(T::one()).unwrap(),
            Isometry2::translation(T::lit(FAR), T::zero()),
            Filter::ALL,
        )
        .unwrap();
    let f = QueryFilter::default();
    let right = ray2::<T>([0.0, 0.0], [1.0, 0.0]);
    let (h, hit) = world.cast_ray(&right, T::infinity(), f).unwrap().unwrap();
    assert_eq!((h, hit.toi), (far, T::lit(FAR - 1.0)));
    assert_eq!(world.cast_ray(&right, T::lit(FAR - 2.0), f), Ok(None));
    let up = ray2::<T>([0.0, 0.0], [0.0, 1.0]);
    let all = world.cast_ray_all(&up, T::infinity(), f).unwrap();
    let order: Vec<(Handle, T)> = all.iter().map(|(h, x)| (*h, x.toi)).collect();
    assert_eq!(
        order,
        vec![(tiny, T::lit(10.0 - 1e-3)), (big, T::lit(40.0))]
    );
    // The nearest object to a point far out on the +x axis, and to one near
    // the big box.
    let q = Point2::new(T::lit(2.0 * FAR), T::zero());
    let (h, p) = world.project_point(&q, T::infinity(), f).unwrap().unwrap();
    assert_eq!(
        (h, p.point),
        (far, Point2::new(T::lit(FAR + 1.0), T::zero()))
    );
    let q = Point2::new(T::lit(300.0), T::lit(35.0));
    assert_eq!(
        world
            .project_point(&q, T::lit(5.0), f)
            .unwrap()
            .map(|x| x.0),
        Some(big)
    );
    assert_eq!(world.project_point(&q, T::lit(4.5), f), Ok(None));
}
shape::for_each_precision!(world_ray_far_and_oversize, ray_far_and_oversize);

/// Point projections: inside overlapping shapes (distance 0, the smaller
/// handle), solid and hollow, ties, filters.
fn projection_known<T: Real>() {
    let mut world = World::<T>::new(T::lit(2.0)).unwrap();
    let wide = world
        .insert(
            aabb(-4.0, -1.0, 4.0, 1.0),
            Isometry2::identity(),
            Filter::new(1, u32::MAX),
        )
        .unwrap();
    let ball = world
        .insert(
            shape::Circle::new(T::one()).unwrap(),
            Isometry2::translation(T::lit(0.5), T::zero()),
            Filter::new(2, u32::MAX),
        )
        .unwrap();
    let f = QueryFilter::default();
    let q = Point2::new(T::lit(0.5), T::lit(0.25));
    // Inside both: distance 0 for both; the smaller handle, solid: the
    // point itself.
    let (h, p) = world.project_point(&q, T::zero(), f).unwrap().unwrap();
    assert_eq!((h, p.point, p.is_inside), (wide, q, true));
    // Hollow: still the smaller handle (distance 0), the boundary point.
    let (h, p) = world
        .project_point(&q, T::zero(), f.with_solid(false))
        .unwrap()
        .unwrap();
    assert_eq!(
        (h, p.point, p.is_inside),
        (wide, Point2::new(T::lit(0.5), T::one()), true)
    );
    // Only the ball's group.
    let only_ball = f.with_groups(Filter::new(u32::MAX, 2));
    let (h, p) = world
        .project_point(&q, T::zero(), only_ball)
        .unwrap()
        .unwrap();
    assert_eq!((h, p.point), (ball, q));
    // Outside both, as near the box as the ball (2): the smaller handle.
    let q = Point2::new(T::lit(0.5), T::lit(3.0));
    let (h, p) = world.project_point(&q, T::lit(2.0), f).unwrap().unwrap();
    assert_eq!((h, p.point), (wide, Point2::new(T::lit(0.5), T::one())));
    assert_eq!(
        world
            .project_point(&q, T::lit(2.0), f.excluding(wide))
            .unwrap()
            .map(|x| x.0),
        Some(ball)
    );
    assert_eq!(
        world.project_point(&q, T::lit(1.5), f.excluding(wide)),
        Ok(None)
    );
    assert_eq!(
        world.project_point(&q, T::lit(2.0), f),
        Ok(brute_nearest(&world, &q, T::lit(2.0), f))
    );
}
shape::for_each_precision!(world_projection_known, projection_known);

/// Bad input to the ray casts and projections: typed errors, checked first
/// (ray, then `max_toi`; point, then `max_distance`), the world unchanged;
/// an object the narrow phase cannot answer fails a query exactly when it
/// could change the answer.
fn bad_ray_input<T: Real>() {
    let mut world = World::<T>::new(T::one()).unwrap();
    let ball = world
        .insert(
            shape::Circle::new(T::one()).unwrap(),
            Isometry2::identity(),
            Filter::ALL,
        )
        .unwrap();
    let opaque = world
        .insert(
            Opaque,
            Isometry2::translation(T::lit(5.0), T::zero()),
            Filter::ALL,
        )
        .unwrap();
    let f = QueryFilter::default();
    let ok = ray2::<T>([-5.0, 0.0], [1.0, 0.0]);
    let bad_rays = [
        ray2::<T>([f64::NAN, 0.0], [1.0, 0.0]),
        ray2::<T>([0.0, f64::INFINITY], [1.0, 0.0]),
        ray2::<T>([0.0, 0.0], [f64::NEG_INFINITY, 0.0]),
        ray2::<T>([0.0, 0.0], [0.0, f64::NAN]),
        ray2::<T>([0.0, 0.0], [0.0, 0.0]),
    ];
    let mut sink = |_: Handle, _: &RayHit<T>| -> ControlFlow<()> { panic!("no hit expected") };
    for r in &bad_rays {
        for m in [T::one(), T::nan()] {
            assert_eq!(world.cast_ray(r, m, f), Err(WorldError::InvalidRay));
            assert_eq!(world.cast_ray_all(r, m, f), Err(WorldError::InvalidRay));
            assert_eq!(
                world.cast_ray_with(r, m, f, &mut sink),
                Err(WorldError::InvalidRay)
            );
        }
    }
    for m in [
        T::nan(),
        -T::one(),
        T::neg_infinity(),
        -T::min_positive_value(),
    ] {
        assert_eq!(world.cast_ray(&ok, m, f), Err(WorldError::InvalidMaxToi));
        assert_eq!(
            world.cast_ray_all(&ok, m, f),
            Err(WorldError::InvalidMaxToi)
        );
        assert_eq!(
            world.cast_ray_with(&ok, m, f, &mut sink),
            Err(WorldError::InvalidMaxToi)
        );
    }
    for p in [
        [f64::NAN, 0.0],
        [0.0, f64::INFINITY],
        [f64::NEG_INFINITY, 1.0],
    ] {
        let p = Point2::new(T::lit(p[0]), T::lit(p[1]));
        for m in [T::one(), T::nan()] {
            assert_eq!(
                world.project_point(&p, m, f),
                Err(WorldError::NonFinitePoint)
            );
        }
    }
    for m in [T::nan(), -T::one(), T::neg_infinity()] {
        assert_eq!(
            world.project_point(&Point2::origin(), m, f),
            Err(WorldError::InvalidMaxDistance)
        );
    }
    // The ball is hit first and certainly before the opaque object: no
    // error; a ray from the other side meets the opaque object first.
    let unsupported = |h| WorldError::Narrowphase {
        handle: h,
        error: narrowphase::DispatchError::UnsupportedShape {
            kind: ShapeKind::custom(9),
        },
    };
    assert_eq!(
        world.cast_ray(&ok, T::infinity(), f).unwrap().unwrap().0,
        ball
    );
    let back = ray2::<T>([10.0, 0.0], [-1.0, 0.0]);
    assert_eq!(
        world.cast_ray(&back, T::infinity(), f),
        Err(unsupported(opaque))
    );
    assert_eq!(world.cast_ray(&back, T::lit(3.0), f), Ok(None)); // stops short of it
    assert_eq!(
        world
            .cast_ray(&back, T::infinity(), f.excluding(opaque))
            .unwrap()
            .unwrap()
            .0,
        ball
    );
    // Every hit: the opaque object is on the ray, so the query fails, after
    // handing out the ball's hit (certainly before it).
    assert_eq!(
        world.cast_ray_all(&ok, T::infinity(), f),
        Err(unsupported(opaque))
    );
    let mut before = Vec::new();
    let r = world.cast_ray_with(&ok, T::infinity(), f, |h, _| {
        before.push(h);
        ControlFlow::Continue(())
    });
    assert_eq!((r, before), (Err(unsupported(opaque)), vec![ball]));
    assert_eq!(world.cast_ray_all(&ok, T::lit(5.0), f).unwrap().len(), 1);
    // Projections: the ball is nearer than the opaque object's box can be.
    assert_eq!(
        world
            .project_point(&Point2::new(-T::two(), T::zero()), T::infinity(), f)
            .unwrap()
            .unwrap()
            .0,
        ball
    );
    let near_opaque = Point2::new(T::lit(4.0), T::zero());
    assert_eq!(
        world.project_point(&near_opaque, T::infinity(), f),
        Err(unsupported(opaque))
    );
    assert_eq!(
        world
            .project_point(&near_opaque, T::infinity(), f.excluding(opaque))
            .unwrap()
            .unwrap()
            .0,
        ball
    );
    // Nothing changed.
    world.validate().unwrap();
    assert_eq!(world.handles().collect::<Vec<_>>(), vec![ball, opaque]);
    assert_eq!(
        *world.get(opaque).unwrap().pose(),
        Isometry2::translation(T::lit(5.0), T::zero())
    );
}
shape::for_each_precision!(bad_ray_input_is_refused, bad_ray_input);

/// Unanswerable objects sharing a grid cell with answerable ones: the query
/// fails only if the ray enters the unanswerable object's box before the
/// first hit is certain; the callback form first hands out the hits that
/// are certainly before it; among several, the earliest box, ties by handle.
fn failures_in_one_cell<T: Real>() {
    // Cells of side 10: everything below shares the cell [0, 10)².
    let mut world = World::<T>::new(T::lit(10.0)).unwrap();
    let at = |x: f64, y: f64| Isometry2::translation(T::lit(x), T::lit(y));
    let opaque = world.insert(Opaque, at(5.0, 1.0), Filter::ALL).unwrap(); // box [4, 6] × [0, 2]
    let ball = world
        .insert(
            shape::Circle::new(T::one()).unwrap(),
            at(3.0, 1.0),
            Filter::ALL,
        )
        .unwrap();
    let f = QueryFilter::default();
    let unsupported = |h| WorldError::Narrowphase {
        handle: h,
        error: narrowphase::DispatchError::UnsupportedShape {
            kind: ShapeKind::custom(9),
        },
    };
    // From x = −5 along y = 1: the ball at time 7, the opaque box at 9.
    let ray = ray2::<T>([-5.0, 1.0], [1.0, 0.0]);
    let (h, hit) = world.cast_ray(&ray, T::infinity(), f).unwrap().unwrap();
    assert_eq!((h, hit.toi), (ball, T::lit(7.0)));
    let mut seen = Vec::new();
    let r = world.cast_ray_with(&ray, T::infinity(), f, |h, hit| {
        seen.push((h, hit.toi));
        ControlFlow::Continue(())
    });
    assert_eq!(r, Err(unsupported(opaque)));
    assert_eq!(seen, vec![(ball, T::lit(7.0))]);
    assert_eq!(world.cast_ray_all(&ray, T::lit(8.5), f).unwrap().len(), 1);
    // From the other side the opaque box comes first.
    let back = ray2::<T>([15.0, 1.0], [-1.0, 0.0]);
    assert_eq!(
        world.cast_ray(&back, T::infinity(), f),
        Err(unsupported(opaque))
    );
    // Two more opaque objects: one entered at the same time as the first
    // (a tie, by handle), one earlier but with a larger handle.
    let twin = world.insert(Opaque, at(5.0, 0.5), Filter::ALL).unwrap();
    assert!(opaque < twin);
    assert_eq!(
        world.cast_ray(&back, T::infinity(), f),
        Err(unsupported(opaque))
    );
    let nearer = world.insert(Opaque, at(8.0, 1.0), Filter::ALL).unwrap();
    assert_eq!(
        world.cast_ray(&back, T::infinity(), f),
        Err(unsupported(nearer))
    );
    assert_eq!(
        world.cast_ray(&back, T::infinity(), f.excluding(nearer)),
        Err(unsupported(opaque))
    );
    world.validate().unwrap();
}
shape::for_each_precision!(world_ray_failures_in_one_cell, failures_in_one_cell);

/// Degenerate starts at the origin, where every rounding margin is zero: a
/// ray starting on a point shape hits it at time 0, and a ray starting
/// inside a box with `max_toi = 0` hits at 0 (solid) and not at all
/// (hollow: it leaves later). Hollow casts from inside a 3D sphere and box
/// report where the ray leaves, as the narrow phase does.
fn degenerate_starts<T: Real>() {
    let mut world = World::<T>::new(T::one()).unwrap();
    let dot = world
        .insert(shape::Point::origin(), Isometry2::identity(), Filter::ALL)
        .unwrap();
    let f = QueryFilter::default();
    let ray = ray2::<T>([0.0, 0.0], [1.0, 1.0]);
    let (h, hit) = world.cast_ray(&ray, T::zero(), f).unwrap().unwrap();
    assert_eq!((h, hit.toi), (dot, T::zero()));
    let mut w = World::<T>::new(T::one()).unwrap();
    let b = w
        .insert(
            aabb(-1.0, -1.0, 1.0, 1.0),
            Isometry2::identity(),
            Filter::ALL,
        )
        .unwrap();
    let (h, hit) = w.cast_ray(&ray, T::zero(), f).unwrap().unwrap();
    assert_eq!((h, hit.toi, hit.point), (b, T::zero(), Point2::origin()));
    assert_eq!(w.cast_ray(&ray, T::zero(), f.with_solid(false)), Ok(None));
    let (h, hit) = w
        .cast_ray(&ray, T::infinity(), f.with_solid(false))
        .unwrap()
        .unwrap();
    assert_eq!((h, hit.toi), (b, T::one()));

    let mut w3 = World3::<T>::new(T::one()).unwrap();
    let ball = w3
        .insert(
            Sphere::new(T::two()).unwrap(),
            Isometry3::identity(),
            Filter::ALL,
        )
        .unwrap();
    let cube = w3
        .insert(
            Cuboid::new(Vector3::repeat(T::half())).unwrap(),
            Isometry3::translation(T::lit(5.0), T::zero(), T::zero()),
            Filter::ALL,
        )
        .unwrap();
    let up = Ray::new(
        Point::origin(),
        Vector3::new(T::zero(), T::zero(), T::one()),
    );
    let (h, hit) = w3.cast_ray(&up, T::infinity(), f).unwrap().unwrap();
    assert_eq!((h, hit.toi), (ball, T::zero()));
    let (h, hit) = w3
        .cast_ray(&up, T::infinity(), f.with_solid(false))
        .unwrap()
        .unwrap();
    assert_eq!((h, hit.toi, hit.normal.z), (ball, T::two(), -T::one()));
    let from_cube = Ray::new(
        Point::from([T::lit(5.0), T::zero(), T::zero()]),
        Vector3::new(-T::one(), T::zero(), T::zero()),
    );
    let hits = w3
        .cast_ray_all(&from_cube, T::infinity(), f.with_solid(false))
        .unwrap();
    let order: Vec<(Handle, T)> = hits.iter().map(|(h, x)| (*h, x.toi)).collect();
    assert_eq!(order, vec![(cube, T::half()), (ball, T::lit(3.0))]);
    let q = Point::from([T::lit(5.25), T::zero(), T::zero()]);
    let (h, p) = w3
        .project_point(&q, T::zero(), f.with_solid(false))
        .unwrap()
        .unwrap();
    assert_eq!((h, p.point.x, p.is_inside), (cube, T::lit(5.5), true));
}
shape::for_each_precision!(world_ray_degenerate_starts, degenerate_starts);

/// Rays from 1e5 away (f32's far range) aimed within a few float spacings
/// of the edge of small shapes near the origin: the narrow phase decides
/// these grazes by its own rounding (the exact ray may miss the shape's
/// box); the world reports exactly what brute force reports.
fn far_grazes<T: Real>() {
    let mut w2 = World::<T>::new(T::one()).unwrap();
    w2.insert(
        shape::Circle::new(T::lit(0.1)).unwrap(),
        Isometry2::identity(),
        Filter::ALL,
    )
    .unwrap();
    w2.insert(
        shape::Obb::new(Vector2::new(T::lit(0.1), T::lit(0.05))).unwrap(),
        Isometry2::new(Vector2::new(T::lit(0.5), T::zero()), T::lit(0.3)),
        Filter::ALL,
    )
    .unwrap();
    let mut w3 = World3::<T>::new(T::one()).unwrap();
    w3.insert(
        Sphere::new(T::lit(0.1)).unwrap(),
        Isometry3::identity(),
        Filter::ALL,
    )
    .unwrap();
    // A point shape, hit only by a ray through it: decided by an
    // orientation test in its frame, whose rounding at 1e5 far exceeds the
    // point's own (tiny) bounding box.
    let dot_pose = Isometry2::new(
        Vector2::new(T::lit(3.0896463), T::lit(-7.16639)),
        T::lit(1.137),
    );
    let dot_at = Point2::new(T::lit(0.99763167), T::lit(1.8440098));
    w2.insert(shape::Point::new(dot_at).unwrap(), dot_pose, Filter::ALL)
        .unwrap();
    let dot = dot_pose * dot_at;
    let (mut hits, mut dots) = (0, 0);
    for i in 0..48 {
        let a = f64::from(i) * 0.13;
        let (c, s) = (a.cos(), a.sin());
        for k in -12..=12 {
            // The perpendicular offset from the centre: the radius, give or
            // take k spacings at 1e5.
            let off = 0.1 + f64::from(k) * 1e5 * T::epsilon().as_f64();
            let o = [1e5 * c, 1e5 * s];
            let target = [-off * s, off * c];
            let ray = ray2::<T>(o, [target[0] - o[0], target[1] - o[1]]);
            hits += same_hits(&w2, &ray);
            let ray3 = Ray::new(
                Point::from([T::lit(o[0]), T::lit(o[1]), T::lit(1e5 * s)]),
                Vector3::new(
                    T::lit(target[0] - o[0]),
                    T::lit(target[1] - o[1]),
                    T::lit(-1e5 * s),
                ),
            );
            hits += same_hits(&w3, &ray3);
        }
    }
    // Aimed within a few float spacings (at 1e5) of the point, from 1e5
    // away.
    let o = Point2::new(T::lit(99993.4), T::lit(-99995.05));
    let across = Vector2::new(T::one(), T::one());
    for k in -400..=400 {
        let target = dot + across * T::lit(f64::from(k) * 1e-5);
        let ray = Ray::new(o, target - o);
        dots += same_hits(&w2, &ray);
    }
    assert!(hits > 100 && dots > 0, "{hits} {dots}");
    eprintln!("DOTS {dots}");
}
shape::for_each_precision!(world_ray_far_grazes, far_grazes);

/// The world's first hit and every hit of `ray` against brute force (equal,
/// or bracketed when the narrow phase hits an object off the ray); the
/// number of hits.
fn same_hits<T: Real, const D: usize>(world: &World<T, D>, ray: &Ray<T, D>) -> usize
where
    Dim<D>: Space<T, D>,
{
    let f = QueryFilter::default();
    let brute = brute_hits(world, ray, T::infinity(), f);
    let all = world.cast_ray_all(ray, T::infinity(), f).unwrap();
    assert_eq!(
        world.cast_ray(ray, T::infinity(), f).unwrap(),
        all.first().copied()
    );
    if brute.all.len() == brute.sure.len() {
        assert_eq!(all, brute.all, "{ray:?}");
    } else {
        assert!(brackets(&all, &brute), "{ray:?}");
    }
    all.len()
}

/// Reproductions found by the property tests (f32, the numbers as stored):
/// a point shape that the narrow phase reports hit by a ray from 1e5 away
/// whose exact line passes outside the point's own bounding box (the
/// orientation test's rounding at 1e5 is a few thousandths); the world's
/// box test, grown by `32 ε (‖o‖∞ + ‖box‖∞)`, still passes it, so the
/// world reports the hit exactly as brute force does.
#[test]
fn far_point_grazes_f32() {
    use nalgebra::{Complex, Translation2, Unit};
    // (ray origin, ray direction, local point, rotation (re, im), translation)
    let cases: [[[f32; 2]; 5]; 5] = [
        [
            [99996.78, -99999.2],
            [-6350549.5, 6351421.5],
            [-2.619838, -4.779766],
            [-0.99994546, -0.010441026],
            [18.488403, -14.5598545],
        ],
        [
            [-17108.938, -18558.365],
            [40934.543, 44330.047],
            [4.6875243, 3.8451538],
            [-0.80968064, -0.58687073],
            [10.043486, -15.174189],
        ],
        [
            [100002.45, -100002.66],
            [-6562335.5, 6563004.5],
            [-3.6472409, -4.5858145],
            [0.350662, -0.9365021],
            [1.0707082, 12.68429],
        ],
        [
            [99993.4, -99995.05],
            [-99985.375, 99983.375],
            [0.99763167, 1.8440098],
            [0.4201642, 0.9074481],
            [3.0896463, -7.16639],
        ],
        [
            [99996.92, -99999.22],
            [-99986.31, 100016.445],
            [-0.17008336, -2.1659102],
            [0.9507497, -0.30995977],
            [11.123232, 19.544706],
        ],
    ];
    let f = QueryFilter::default();
    let mut outside = 0;
    for [o, d, at, rot, t] in cases {
        let pose = Isometry2::from_parts(
            Translation2::new(t[0], t[1]),
            Unit::new_unchecked(Complex::new(rot[0], rot[1])),
        );
        let dot = shape::Point::new(Point2::new(at[0], at[1])).unwrap();
        let ray = Ray::new(Point2::new(o[0], o[1]), Vector2::new(d[0], d[1]));
        let want = narrowphase::cast_ray(&dot, &pose, &ray, f32::INFINITY, true).unwrap();
        assert!(want.is_some(), "the narrow phase hits {at:?}");
        for cell in [0.2f32, 1.0, 7.0] {
            let mut world = World::<f32>::new(cell).unwrap();
            let h = world.insert(dot, pose, Filter::ALL).unwrap();
            assert_eq!(
                world.cast_ray(&ray, f32::INFINITY, f).unwrap(),
                want.map(|x| (h, x))
            );
            // The exact line misses the point's stored box.
            let b = world.grid().bounds(h.index()).unwrap();
            let box_t = slab(
                &f64s(&ray.origin),
                &f64s(&Point::from(ray.dir)),
                f64::INFINITY,
                &f64s(&b.min),
                &f64s(&b.max),
            );
            outside += usize::from(box_t.is_none());
        }
    }
    assert!(outside > 0);
}

/// A reproduction found by the property tests (f32): a thin triangle that
/// the narrow phase reports hit by a ray from 6e4 away 0.37 outside the
/// triangle's own bounding box (its edge crossings are ill-conditioned at
/// that distance), beyond the region the world promises to test: the
/// world's hits are brute force's, in order, without that one.
#[test]
fn far_sliver_graze_f32() {
    let objs = vec![
        Obj {
            spec: Spec::Point(-3.226222522246273, 0.0),
            pose: [19.614592651969776, -7.709295383866017, 1.9952608020286593],
            bits: 0,
            removed: false,
        },
        Obj {
            spec: Spec::Triangle([
                [-2.150323954544865, 4.662070947392608],
                [-2.339890619730993, -0.16764695268162635],
                [-2.638490053140633, -3.7268069973648625],
            ]),
            pose: [14.933436956109897, -15.019866342650324, 0.0337902246501232],
            bits: 0,
            removed: false,
        },
    ];
    let (world, _) = world2::<f32>(&objs, 0.2);
    let r = WorldRay {
        origin: Origin::At([59752.62314564777, -4246.873107076962]),
        dir: RayDir::AtBox(0, [0.0, 0.0]),
        scale: 1.0,
        max_toi: None,
        bits: 0,
        exclude: None,
        take: 5,
    };
    rays_against_brute_force(&world, &[r]).unwrap();
}

/// A user shape with its own ray cast, answering within a tolerance `fuzz`
/// around a disc of radius 1 (as an iterative method would), at a time
/// `early` before where the ray really meets it; its bounding box is the
/// disc's.
#[derive(Debug, Clone, Copy)]
struct FuzzyDisc {
    fuzz: f64,
    early: f64,
}

impl<T: Real> Shape<T> for FuzzyDisc {
    fn kind(&self) -> ShapeKind {
        ShapeKind::custom(10)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn bounding_box(&self, pose: &Isometry2<T>) -> BoundingBox2<T> {
        let c = Point2::from(pose.translation.vector);
        let h = Vector2::repeat(T::one());
        BoundingBox2::new(c - h, c + h)
    }
    fn as_ray_cast(&self) -> Option<&dyn shape::RayCast<T>> {
        Some(self)
    }
    fn as_point_query(&self) -> Option<&dyn shape::PointQuery<T>> {
        Some(self)
    }
}

impl<T: Real> shape::PointQuery<T> for FuzzyDisc {
    /// The point at radius `1 + fuzz` towards `p` (inside: `p` itself).
    fn project_point(
        &self,
        pose: &Isometry2<T>,
        p: &Point2<T>,
        _solid: bool,
    ) -> PointProjection<T> {
        let v = [
            p.x.as_f64() - pose.translation.x.as_f64(),
            p.y.as_f64() - pose.translation.y.as_f64(),
        ];
        let n = v[0].hypot(v[1]);
        let r = 1.0 + self.fuzz;
        if n <= r {
            return PointProjection {
                point: *p,
                is_inside: true,
            };
        }
        PointProjection {
            point: Point2::new(
                T::lit(pose.translation.x.as_f64() + v[0] / n * r),
                T::lit(pose.translation.y.as_f64() + v[1] / n * r),
            ),
            is_inside: false,
        }
    }
}

impl<T: Real> shape::RayCast<T> for FuzzyDisc {
    fn cast_ray(
        &self,
        pose: &Isometry2<T>,
        ray: &Ray<T>,
        max_toi: T,
        _solid: bool,
    ) -> Option<RayHit<T>> {
        // In f64: the ray against the disc of radius 1 + fuzz.
        let c = [pose.translation.x.as_f64(), pose.translation.y.as_f64()];
        let (o, d) = (
            [ray.origin.x.as_f64() - c[0], ray.origin.y.as_f64() - c[1]],
            [ray.dir.x.as_f64(), ray.dir.y.as_f64()],
        );
        let dd = d[0] * d[0] + d[1] * d[1];
        let tc = -(o[0] * d[0] + o[1] * d[1]) / dd;
        let p = [o[0] + tc * d[0], o[1] + tc * d[1]];
        let h2 = p[0] * p[0] + p[1] * p[1];
        let r = 1.0 + self.fuzz;
        if h2 > r * r {
            return None;
        }
        let toi = (tc - ((r * r - h2).max(0.0) / dd).sqrt() - self.early).max(0.0);
        (T::lit(toi) <= max_toi).then(|| RayHit {
            toi: T::lit(toi),
            point: ray.point_at(T::lit(toi)),
            normal: nalgebra::Unit::new_normalize(-ray.dir),
        })
    }
}

/// The world's handling of answers that disagree with an object's bounding
/// box: a hit just outside the box (within the world's margin,
/// `32 ε (‖o‖∞ + ‖box‖∞)`) is reported; a hit claimed well before the ray
/// can reach the object's box is not (it would break the order of hits);
/// either way the world's hits stay in order.
fn answers_off_the_box<T: Real>() {
    let f = QueryFilter::default();
    let far = 1e4;
    let eps = T::epsilon().as_f64();
    // Rays from 1e4 away, passing 2 ε·1e4 above the disc's box.
    let y = 1.0 + 2.0 * eps * far;
    let ray = ray2::<T>([far, y], [-1.0, 0.0]);
    let mut world = World::<T>::new(T::one()).unwrap();
    let fuzzy = world
        .insert(
            FuzzyDisc {
                fuzz: 4.0 * eps * far,
                early: 0.0,
            },
            Isometry2::identity(),
            Filter::ALL,
        )
        .unwrap();
    let hit = world.cast_ray(&ray, T::infinity(), f).unwrap();
    assert_eq!(hit.map(|x| x.0), Some(fuzzy));
    // A disc claiming its hit 100 units early: set aside, the next object
    // is the first hit; with cells of 1 the walk reaches the disc's cells
    // after the claimed time, with cells of 400 before it (then only the
    // box tells).
    let ray = ray2::<T>([far, 0.0], [-1.0, 0.0]);
    for cell in [1.0, 400.0] {
        let mut world = World::<T>::new(T::lit(cell)).unwrap();
        let early = FuzzyDisc {
            fuzz: 0.0,
            early: 100.0,
        };
        world
            .insert(early, Isometry2::identity(), Filter::ALL)
            .unwrap();
        let wall = world
            .insert(
                aabb(-20.0, -5.0, -19.0, 5.0),
                Isometry2::identity(),
                Filter::ALL,
            )
            .unwrap();
        let all = world.cast_ray_all(&ray, T::infinity(), f).unwrap();
        assert_eq!(all.iter().map(|x| x.0).collect::<Vec<_>>(), vec![wall]);
        assert_eq!(
            world.cast_ray(&ray, T::infinity(), f).unwrap().map(|x| x.0),
            Some(wall)
        );
    }
    // A disc claiming its hit just a little early (within rounding) is
    // reported, in order.
    let mut world = World::<T>::new(T::one()).unwrap();
    let near = world
        .insert(
            FuzzyDisc {
                fuzz: 0.0,
                early: 8.0 * eps * far,
            },
            Isometry2::identity(),
            Filter::ALL,
        )
        .unwrap();
    let wall = world
        .insert(
            aabb(-20.0, -5.0, -19.0, 5.0),
            Isometry2::identity(),
            Filter::ALL,
        )
        .unwrap();
    let all = world.cast_ray_all(&ray, T::infinity(), f).unwrap();
    assert_eq!(
        all.iter().map(|x| x.0).collect::<Vec<_>>(),
        vec![near, wall]
    );
}
shape::for_each_precision!(world_ray_answers_off_the_box, answers_off_the_box);

/// A projection that comes out a little nearer than the object's bounding
/// box (a user shape answering within a tolerance): the ring search's slack
/// (`64 ε (d + ‖p‖∞)`) still reaches it, and it wins over an object found
/// first at the slightly larger distance.
fn projection_within_slack<T: Real>() {
    let eps = T::epsilon().as_f64();
    let d = 10.0;
    let mut world = World::<T>::new(T::lit(4.0)).unwrap();
    let ball = world
        .insert(
            shape::Circle::new(T::one()).unwrap(),
            Isometry2::translation(T::lit(1.0 + d), T::zero()),
            Filter::ALL,
        )
        .unwrap();
    // Its box is 20 ε d farther than the ball; its answer 10 ε d nearer;
    // its cells are a ring farther out than the ball's (found first).
    let fuzzy = world
        .insert(
            FuzzyDisc {
                fuzz: 30.0 * eps * d,
                early: 0.0,
            },
            Isometry2::translation(T::lit(-(1.0 + d + 20.0 * eps * d)), T::zero()),
            Filter::ALL,
        )
        .unwrap();
    let f = QueryFilter::default();
    let q = Point2::origin();
    let want = brute_nearest(&world, &q, T::infinity(), f);
    assert_eq!(want.map(|x| x.0), Some(fuzzy));
    assert_eq!(world.project_point(&q, T::infinity(), f), Ok(want));
    assert!(ball < fuzzy);
}
shape::for_each_precision!(world_projection_within_slack, projection_within_slack);
