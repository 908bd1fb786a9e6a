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

#[path = "../../shape/tests/common/mod.rs"]
mod common;

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
fn range<T: Real, const D: usize>(g: &Grid<T, D>, b: &BoundingBox<T, D>) -> ([i64; D], [i64; D]) {
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
    for (_, bx) in &b.live {
        let (lo, hi) = range(&b.grid, bx);
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
    for (id, bx) in &b.live {
        let (lo, hi) = range(&b.grid, bx);
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
