//! World queries and the grid walks under them, 2D and 3D, f32 and f64.
//!
//! The walks (`Grid::ray_cells`, `Grid::walk_ray`, `Grid::walk_rings`) on
//! random grids (mixed sizes, far-off and oversize boxes, removed objects,
//! cell sizes from 0.05 to 1000) against an f64 brute force over every cell
//! and box: every cell the ray strictly crosses is visited, every visited cell
//! is crossed up to rounding, entries never decrease, each cell and object
//! once; the nearest box found through the walks equals the brute-force
//! nearest; long rays in sparse grids stay cheap.

use core::ops::ControlFlow;
use std::collections::HashSet;

use broadphase::{Grid, WalkStats};
use nalgebra::{Point, SVector};
use proptest::prelude::*;
use shape::{BoundingBox, Ray, Real};

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
        t0 = t0.max(a.min(b));
        t1 = t1.min(a.max(b));
    }
    (t0 <= t1).then_some(t0)
}

/// The f64 box of the cells `lo..=hi`, shrunk (`grow < 0`) or grown by
/// `|grow|`-scaled rounding margins: `64 ε_T (|x| + |o|∞ + s)` per boundary,
/// covering the grid's keying and the walk's margins.
fn cells_box<T: Real, const D: usize>(
    lo: &[i64; D],
    hi: &[i64; D],
    s: f64,
    o_norm: f64,
    grow: f64,
) -> ([f64; D], [f64; D]) {
    let eps = T::epsilon().as_f64();
    let m = |x: f64| 64.0 * eps * (x.abs() + o_norm + s);
    let a: [f64; D] = core::array::from_fn(|i| {
        let x = lo[i] as f64 * s;
        x - grow * m(x)
    });
    let b: [f64; D] = core::array::from_fn(|i| {
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
        .map(|(a, b)| (b - a + 1) as u128)
        .product()
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
