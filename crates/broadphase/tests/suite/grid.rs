//! The grid against brute force, 2D and 3D, f32 and f64: random scenes with
//! mixed sizes (tiny to huge), negative and far-off coordinates and varied cell
//! sizes give exactly the brute-force set of overlapping box pairs; random
//! operation sequences keep `validate()` true and agree with a simple model.

use broadphase::{Grid, GridError};
use nalgebra::Point;
use proptest::prelude::*;
use shape::{BoundingBox, Real};

/// A box: a centre anywhere from -1e6 to 1e6 (some near the origin, some far),
/// half extents from 1e-4 to 1e4.
fn boxes<const D: usize>(max: usize) -> impl Strategy<Value = Vec<([f64; D], [f64; D])>> {
    prop::collection::vec(one_box::<D>(), 0..max)
}

/// One box, drawn as in [`boxes`] (no rejection: deep runs draw millions).
fn one_box<const D: usize>() -> impl Strategy<Value = ([f64; D], [f64; D])> {
    let centre = prop_oneof![
        3 => prop::array::uniform::<_, D>(-50.0f64..50.0),
        1 => prop::array::uniform::<_, D>(-1e6f64..1e6),
        1 => prop::array::uniform::<_, D>(-1e6f64..-9.99e5),
    ];
    let half = prop_oneof![
        4 => prop::array::uniform::<_, D>(0.1f64..3.0),
        1 => prop::array::uniform::<_, D>(1e-4f64..1e-2),
        1 => prop::array::uniform::<_, D>(10.0f64..1e4),
        1 => Just([0.0; D]),
    ];
    (centre, half).prop_map(|(c, h): ([f64; D], [f64; D])| {
        (
            core::array::from_fn(|i| c[i] - h[i]),
            core::array::from_fn(|i| c[i] + h[i]),
        )
    })
}

fn to_box<T: Real, const D: usize>(b: &([f64; D], [f64; D])) -> BoundingBox<T, D> {
    BoundingBox::new(Point::from(b.0.map(T::lit)), Point::from(b.1.map(T::lit)))
}

fn brute_force<T: Real, const D: usize>(bs: &[BoundingBox<T, D>]) -> Vec<(u32, u32)> {
    let mut v = Vec::new();
    for i in 0..bs.len() {
        for j in i + 1..bs.len() {
            if bs[i].intersects(&bs[j]) {
                v.push((i as u32, j as u32));
            }
        }
    }
    v
}

fn scene_prop<T: Real, const D: usize>(
    scene: Vec<([f64; D], [f64; D])>,
    cell: f64,
) -> Result<(), TestCaseError> {
    let bs: Vec<BoundingBox<T, D>> = scene.iter().map(to_box).collect();
    let mut grid = Grid::<T, D>::new(T::lit(cell)).unwrap();
    for (i, b) in bs.iter().enumerate() {
        grid.insert(i as u32, *b).unwrap();
    }
    grid.validate().unwrap();
    let mut pairs = Vec::new();
    grid.candidate_pairs(&mut pairs);
    prop_assert_eq!(&pairs, &brute_force(&bs));
    // Region and point queries against brute force.
    if let Some(q) = bs.first() {
        let mut got = Vec::new();
        grid.query_region(q, &mut got);
        let want: Vec<u32> = (0..bs.len() as u32)
            .filter(|&i| bs[i as usize].intersects(q))
            .collect();
        prop_assert_eq!(&got, &want);
        grid.query_point(&q.center(), &mut got);
        let want: Vec<u32> = (0..bs.len() as u32)
            .filter(|&i| bs[i as usize].contains_point(&q.center()))
            .collect();
        prop_assert_eq!(&got, &want);
    }
    Ok(())
}

#[derive(Debug, Clone)]
enum Op<const D: usize> {
    Insert(([f64; D], [f64; D])),
    Move(usize, [f64; D]),
    /// One `update_many`: the moves in order (an id may come twice), and
    /// maybe a bad one at the end (a NaN box, or an unknown id) that must
    /// leave the grid unchanged.
    MoveMany(Vec<(usize, [f64; D])>, Option<bool>),
    Replace(usize, ([f64; D], [f64; D])),
    Remove(usize),
    RemoveStale(u32),
    InsertNan,
}

fn ops<const D: usize>() -> impl Strategy<Value = Vec<Op<D>>> {
    let op = prop_oneof![
        4 => one_box::<D>().prop_map(Op::Insert),
        4 => (any::<usize>(), prop::array::uniform(-3.0f64..3.0)).prop_map(|(i, d)| Op::Move(i, d)),
        2 => (
            prop::collection::vec((any::<usize>(), prop::array::uniform(-3.0f64..3.0)), 0..8),
            prop::option::of(any::<bool>()),
        )
            .prop_map(|(m, bad)| Op::MoveMany(m, bad)),
        1 => (any::<usize>(), one_box::<D>()).prop_map(|(i, b)| Op::Replace(i, b)),
        2 => any::<usize>().prop_map(Op::Remove),
        1 => (1000u32..2000).prop_map(Op::RemoveStale),
        1 => Just(Op::InsertNan),
    ];
    prop::collection::vec(op, 1..60)
}

fn model_prop<T: Real, const D: usize>(ops: Vec<Op<D>>, cell: f64) -> Result<(), TestCaseError> {
    let mut grid = Grid::<T, D>::new(T::lit(cell)).unwrap();
    // The model: id → box.
    let mut model: Vec<Option<BoundingBox<T, D>>> = Vec::new();
    let live = |m: &[Option<BoundingBox<T, D>>]| {
        m.iter()
            .enumerate()
            .filter(|(_, b)| b.is_some())
            .map(|(i, _)| i)
            .collect::<Vec<_>>()
    };
    for op in ops {
        match op {
            Op::Insert(b) => {
                let id = model.len() as u32;
                grid.insert(id, to_box(&b)).unwrap();
                model.push(Some(to_box(&b)));
                prop_assert_eq!(
                    grid.insert(id, to_box(&b)),
                    Err(GridError::DuplicateId { id })
                );
            }
            Op::Move(k, d) => {
                let ids = live(&model);
                if let Some(&id) = ids.get(k % ids.len().max(1)) {
                    let b = model[id].unwrap();
                    let v = nalgebra::SVector::<T, D>::from(d.map(T::lit));
                    let moved = b.translated(&v);
                    grid.update(id as u32, moved).unwrap();
                    model[id] = Some(moved);
                }
            }
            Op::MoveMany(moves, bad) => {
                let ids = live(&model);
                let mut after = model.clone();
                let mut batch = Vec::new();
                for (k, d) in moves.iter().filter(|_| !ids.is_empty()) {
                    let id = ids[k % ids.len()];
                    let v = nalgebra::SVector::<T, D>::from(d.map(T::lit));
                    let moved = after[id].unwrap().translated(&v);
                    batch.push((id as u32, moved));
                    after[id] = Some(moved);
                }
                match bad {
                    Some(nan_box) => {
                        let mut b = to_box::<T, D>(&([0.0; D], [1.0; D]));
                        let (id, e) = match (nan_box, ids.first()) {
                            (true, Some(&id)) => {
                                b.min[0] = T::nan();
                                (id as u32, GridError::InvalidBounds { id: id as u32 })
                            }
                            _ => (5000, GridError::UnknownId { id: 5000 }),
                        };
                        batch.push((id, b));
                        prop_assert_eq!(grid.update_many(&batch), Err(e));
                    }
                    None => {
                        grid.update_many(&batch).unwrap();
                        model = after;
                    }
                }
            }
            Op::Replace(k, b) => {
                let ids = live(&model);
                if let Some(&id) = ids.get(k % ids.len().max(1)) {
                    grid.update(id as u32, to_box(&b)).unwrap();
                    model[id] = Some(to_box(&b));
                }
            }
            Op::Remove(k) => {
                let ids = live(&model);
                if let Some(&id) = ids.get(k % ids.len().max(1)) {
                    prop_assert_eq!(grid.remove(id as u32).unwrap(), model[id].unwrap());
                    model[id] = None;
                    prop_assert_eq!(
                        grid.remove(id as u32),
                        Err(GridError::UnknownId { id: id as u32 })
                    );
                }
            }
            Op::RemoveStale(id) => {
                prop_assert_eq!(grid.remove(id), Err(GridError::UnknownId { id }));
                prop_assert!(grid.update(id, to_box(&([0.0; D], [1.0; D]))).is_err());
            }
            Op::InsertNan => {
                let mut b = to_box::<T, D>(&([0.0; D], [1.0; D]));
                b.max[0] = T::nan();
                let id = model.len() as u32;
                prop_assert_eq!(grid.insert(id, b), Err(GridError::InvalidBounds { id }));
                if let Some(&live_id) = live(&model).first() {
                    prop_assert_eq!(
                        grid.update(live_id as u32, b),
                        Err(GridError::InvalidBounds { id: live_id as u32 })
                    );
                }
            }
        }
        grid.validate()
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(grid.len(), live(&model).len());
        for id in live(&model) {
            prop_assert_eq!(grid.bounds(id as u32), model[id].as_ref());
        }
        let boxes: Vec<BoundingBox<T, D>> = model
            .iter()
            .map(|b| b.unwrap_or_else(|| to_box(&([1e30; D], [1e30; D]))))
            .collect();
        let want: Vec<(u32, u32)> = brute_force(&boxes)
            .into_iter()
            .filter(|(a, b)| model[*a as usize].is_some() && model[*b as usize].is_some())
            .collect();
        let mut got = Vec::new();
        grid.candidate_pairs(&mut got);
        prop_assert_eq!(got, want);
    }
    Ok(())
}

fn cell() -> impl Strategy<Value = f64> {
    prop_oneof![0.05f64..0.5, 0.5f64..10.0, 10.0f64..1e3]
}

proptest! {
    #[test]
    fn scenes_2d_f32(s in boxes::<2>(80), c in cell()) { scene_prop::<f32, 2>(s, c)?; }
    #[test]
    fn scenes_2d_f64(s in boxes::<2>(80), c in cell()) { scene_prop::<f64, 2>(s, c)?; }
    #[test]
    fn scenes_3d_f32(s in boxes::<3>(60), c in cell()) { scene_prop::<f32, 3>(s, c)?; }
    #[test]
    fn scenes_3d_f64(s in boxes::<3>(60), c in cell()) { scene_prop::<f64, 3>(s, c)?; }
    #[test]
    fn model_2d_f32(o in ops::<2>(), c in cell()) { model_prop::<f32, 2>(o, c)?; }
    #[test]
    fn model_2d_f64(o in ops::<2>(), c in cell()) { model_prop::<f64, 2>(o, c)?; }
    #[test]
    fn model_3d_f32(o in ops::<3>(), c in cell()) { model_prop::<f32, 3>(o, c)?; }
    #[test]
    fn model_3d_f64(o in ops::<3>(), c in cell()) { model_prop::<f64, 3>(o, c)?; }
}

fn bad_cell_sizes<T: Real>() {
    assert_eq!(
        Grid::<T, 2>::new(T::zero()).unwrap_err(),
        GridError::NonPositiveCellSize { value: 0.0 }
    );
    assert!(matches!(
        Grid::<T, 2>::new(-T::one()),
        Err(GridError::NonPositiveCellSize { .. })
    ));
    assert_eq!(
        Grid::<T, 3>::new(T::nan()).unwrap_err(),
        GridError::NonFiniteCellSize
    );
    assert_eq!(
        Grid::<T, 3>::new(T::infinity()).unwrap_err(),
        GridError::NonFiniteCellSize
    );
    // A subnormal cell size would make 1/s overflow.
    assert!(Grid::<T, 2>::new(T::min_positive_value() / T::lit(4.0)).is_err());
    let mut g = Grid::<T, 2>::new(T::one()).unwrap();
    g.insert(0, to_box(&([0.0, 0.0], [1.0, 1.0]))).unwrap();
    assert!(g.set_cell_size(T::zero()).is_err());
    assert_eq!(g.cell_size(), T::one());
    g.set_cell_size(T::lit(0.25)).unwrap();
    g.validate().unwrap();
    assert_eq!(g.len(), 1);
}
shape::for_each_precision!(bad_cell_sizes, bad_cell_sizes);

/// Coordinates near the float limits: saturated cell keys, no overflow, and the
/// pairs still exact.
fn extreme_coordinates<T: Real>() {
    let big = <T as num_traits::Float>::max_value() / T::lit(4.0);
    let mut g = Grid::<T, 2>::new(T::lit(1e-3)).unwrap();
    let b = |x0: T, x1: T| BoundingBox::new(Point::from([x0, x0]), Point::from([x1, x1]));
    g.insert(0, b(big, big)).unwrap();
    g.insert(1, b(big, big * T::two())).unwrap();
    g.insert(2, b(-big * T::two(), -big)).unwrap();
    g.insert(3, b(-big * T::two(), big * T::two())).unwrap(); // covers everything
    g.insert(4, b(T::zero(), T::min_positive_value())).unwrap();
    g.validate().unwrap();
    let mut pairs = Vec::new();
    g.candidate_pairs(&mut pairs);
    assert_eq!(pairs, vec![(0, 1), (0, 3), (1, 3), (2, 3), (3, 4)]);
    assert_eq!(g.stats().oversize, 1);
}
shape::for_each_precision!(extreme, extreme_coordinates);

/// Seed 003: 500 objects in 10 clusters of 50: nC2 = 124,750 pair tests by
/// brute force; the grid tests at most the pairs within clusters, 10 × 50C2 =
/// 12,250, and reports exactly the overlapping ones.
#[test]
fn seed_003_clusters() {
    let mut grid = Grid::<f64, 2>::new(4.0).unwrap();
    let mut bs = Vec::new();
    for c in 0..10 {
        for k in 0..50 {
            // Clusters 1000 apart; within a cluster, 50 unit boxes in a 5 x 10 block.
            let (x, y) = (
                1000.0 * f64::from(c) + f64::from(k % 5) * 0.9,
                f64::from(k / 5) * 0.9,
            );
            let b = BoundingBox::new(Point::from([x, y]), Point::from([x + 1.0, y + 1.0]));
            grid.insert(bs.len() as u32, b).unwrap();
            bs.push(b);
        }
    }
    let n = bs.len();
    assert_eq!(n * (n - 1) / 2, 124_750);
    let mut pairs = Vec::new();
    grid.candidate_pairs(&mut pairs);
    assert_eq!(pairs, brute_force(&bs));
    assert!(pairs.len() <= 12_250);
    assert!(
        pairs.iter().all(|(a, b)| a / 50 == b / 50),
        "pairs stay within clusters"
    );
    let s = grid.stats();
    // The within-cell pair tests the grid makes: Σ over cells of k(k-1)/2.
    assert!(s.max_per_cell <= 50 && s.oversize == 0);
}

// ---------------------------------------------------------------------------
// Fat boxes, the persistent pair set and the move buffer.

/// One frame of a fat-box sequence.
#[derive(Debug, Clone)]
enum Step<const D: usize> {
    /// Moves object `k` by `d` (small: inside the margin, or large).
    Move(usize, [f64; D]),
    Insert(([f64; D], [f64; D])),
    Remove(usize),
    /// Moves every object by its own offset, scaled by the factor.
    MoveAll(f64),
    /// Asks for the pairs (and checks them).
    Query,
}

fn steps<const D: usize>() -> impl Strategy<Value = Vec<Step<D>>> {
    let step = prop_oneof![
        6 => (any::<usize>(), prop::array::uniform(-0.05f64..0.05)).prop_map(|(i, d)| Step::Move(i, d)),
        3 => (any::<usize>(), prop::array::uniform(-6.0f64..6.0)).prop_map(|(i, d)| Step::Move(i, d)),
        2 => one_box::<D>().prop_map(Step::Insert),
        1 => any::<usize>().prop_map(Step::Remove),
        1 => (0.0f64..3.0).prop_map(Step::MoveAll),
        3 => Just(Step::Query),
    ];
    prop::collection::vec(step, 1..80)
}

/// Random insert / small and large moves / remove sequences, queried now and
/// then: the pairs equal brute force over the tight boxes and `validate()`
/// holds before and after every query, for margins 0, the default and
/// random ones.
fn fat_prop<T: Real, const D: usize>(
    start: Vec<([f64; D], [f64; D])>,
    steps: Vec<Step<D>>,
    cell: f64,
    margin: Option<f64>,
) -> Result<(), TestCaseError> {
    let mut grid = match margin {
        Some(m) => Grid::<T, D>::with_margin(T::lit(cell), T::lit(m)).unwrap(),
        None => Grid::<T, D>::new(T::lit(cell)).unwrap(),
    };
    let mut model: Vec<Option<BoundingBox<T, D>>> = Vec::new();
    for b in &start {
        grid.insert(model.len() as u32, to_box(b)).unwrap();
        model.push(Some(to_box(b)));
    }
    let live = |m: &[Option<BoundingBox<T, D>>]| -> Vec<usize> {
        (0..m.len()).filter(|&i| m[i].is_some()).collect()
    };
    let check = |grid: &Grid<T, D>, model: &[Option<BoundingBox<T, D>>]| {
        grid.validate()
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let mut want = Vec::new();
        for a in 0..model.len() {
            for b in a + 1..model.len() {
                if let (Some(x), Some(y)) = (&model[a], &model[b]) {
                    if x.intersects(y) {
                        want.push((a as u32, b as u32));
                    }
                }
            }
        }
        let mut got = Vec::new();
        grid.candidate_pairs(&mut got);
        prop_assert_eq!(got, want);
        grid.validate()
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        Ok(())
    };
    let mut steps = steps;
    steps.push(Step::Query);
    for step in steps {
        match step {
            Step::Move(k, d) => {
                let ids = live(&model);
                if let Some(&id) = ids.get(k % ids.len().max(1)) {
                    let v = nalgebra::SVector::<T, D>::from(d.map(T::lit));
                    let moved = model[id].unwrap().translated(&v);
                    grid.update(id as u32, moved).unwrap();
                    model[id] = Some(moved);
                }
            }
            Step::Insert(b) => {
                grid.insert(model.len() as u32, to_box(&b)).unwrap();
                model.push(Some(to_box(&b)));
            }
            Step::Remove(k) => {
                let ids = live(&model);
                if let Some(&id) = ids.get(k % ids.len().max(1)) {
                    grid.remove(id as u32).unwrap();
                    model[id] = None;
                }
            }
            Step::MoveAll(f) => {
                for id in live(&model) {
                    let s = T::lit(f * ((id % 7) as f64 - 3.0) / 3.0);
                    let v = nalgebra::SVector::<T, D>::from_element(s);
                    let moved = model[id].unwrap().translated(&v);
                    grid.update(id as u32, moved).unwrap();
                    model[id] = Some(moved);
                }
            }
            Step::Query => check(&grid, &model)?,
        }
    }
    // The bulk build of the same boxes gives the same pairs.
    let items = live(&model)
        .into_iter()
        .map(|i| (i as u32, model[i].unwrap()));
    let bulk = Grid::<T, D>::from_boxes(T::lit(cell), items).unwrap();
    check(&bulk, &model)?;
    Ok(())
}

fn margin() -> impl Strategy<Value = Option<f64>> {
    prop_oneof![
        Just(None),
        Just(Some(0.0)),
        (0.0f64..2.0).prop_map(Some),
        (10.0f64..1e3).prop_map(Some),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: shape::testing::cases(96), ..ProptestConfig::default() })]
    #[test]
    fn fat_2d_f32(s in boxes::<2>(40), o in steps::<2>(), c in cell(), m in margin()) { fat_prop::<f32, 2>(s, o, c, m)?; }
    #[test]
    fn fat_2d_f64(s in boxes::<2>(40), o in steps::<2>(), c in cell(), m in margin()) { fat_prop::<f64, 2>(s, o, c, m)?; }
    #[test]
    fn fat_3d_f32(s in boxes::<3>(30), o in steps::<3>(), c in cell(), m in margin()) { fat_prop::<f32, 3>(s, o, c, m)?; }
    #[test]
    fn fat_3d_f64(s in boxes::<3>(30), o in steps::<3>(), c in cell(), m in margin()) { fat_prop::<f64, 3>(s, o, c, m)?; }
}

fn bad_margins<T: Real>() {
    let one = T::one();
    for m in [-one, T::nan(), T::infinity(), T::neg_infinity()] {
        assert!(
            matches!(
                Grid::<T, 2>::with_margin(one, m),
                Err(GridError::InvalidMargin { .. })
            ),
            "margin {m:?}"
        );
    }
    // The cell size is checked first.
    assert_eq!(
        Grid::<T, 2>::with_margin(T::nan(), -one).unwrap_err(),
        GridError::NonFiniteCellSize
    );
    let g = Grid::<T, 3>::with_margin(one, T::zero()).unwrap();
    assert_eq!(g.margin(), T::zero());
    assert_eq!(
        Grid::<T, 2>::new(T::lit(2.0)).unwrap().margin(),
        T::lit(0.2)
    );
    // A kept margin survives a change of cell size; the default follows it.
    let mut g = Grid::<T, 2>::with_margin(one, T::lit(0.5)).unwrap();
    g.set_cell_size(T::lit(4.0)).unwrap();
    assert_eq!(g.margin(), T::lit(0.5));
    let mut g = Grid::<T, 2>::new(one).unwrap();
    g.set_cell_size(T::lit(4.0)).unwrap();
    assert_eq!(g.margin(), T::lit(0.4));
}

#[test]
fn bad_margins_f32() {
    bad_margins::<f32>();
}

#[test]
fn bad_margins_f64() {
    bad_margins::<f64>();
}

/// A box inside its fat box changes nothing but the box; one that leaves it
/// gets a new fat box around its new box.
#[test]
fn fat_box_follows_large_moves() {
    let b = |x: f64| to_box::<f64, 2>(&([x, 0.0], [x + 1.0, 1.0]));
    let mut g = Grid::<f64, 2>::with_margin(2.0, 0.5).unwrap();
    g.insert(0, b(0.0)).unwrap();
    assert_eq!(g.fat_bounds(0), Some(&to_box(&([-0.5, -0.5], [1.5, 1.5]))));
    g.update(0, b(0.25)).unwrap();
    assert_eq!(g.bounds(0), Some(&b(0.25)));
    assert_eq!(g.fat_bounds(0), Some(&to_box(&([-0.5, -0.5], [1.5, 1.5]))));
    g.update(0, b(3.0)).unwrap();
    assert_eq!(g.fat_bounds(0), Some(&to_box(&([2.5, -0.5], [4.5, 1.5]))));
    // Fat boxes overlap but tight ones do not: no pair.
    g.insert(1, b(4.25)).unwrap();
    let mut pairs = Vec::new();
    g.candidate_pairs(&mut pairs);
    assert!(pairs.is_empty());
    g.update(1, b(4.0)).unwrap(); // touching counts
    g.candidate_pairs(&mut pairs);
    assert_eq!(pairs, vec![(0, 1)]);
    g.validate().unwrap();
}

/// A large scene (enough cells for the parallel pass under `rayon`): the
/// pairs equal a sort-and-sweep reference, through the full pass and the
/// incremental one, and the bulk build agrees.
#[test]
fn large_scene_matches_sweep() {
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x >> 11) as f64 / (1u64 << 53) as f64
    };
    let n = 20_000;
    let mut boxes: Vec<BoundingBox<f64, 2>> = (0..n)
        .map(|_| {
            let (cx, cy) = (next() * 300.0, next() * 300.0);
            let h = if next() < 0.05 { 6.0 } else { 0.6 };
            to_box(&([cx - h, cy - h], [cx + h, cy + h]))
        })
        .collect();
    let sweep = |bs: &[BoundingBox<f64, 2>]| {
        let mut order: Vec<usize> = (0..bs.len()).collect();
        order.sort_by(|&a, &b| bs[a].min.x.total_cmp(&bs[b].min.x));
        let mut v = Vec::new();
        for (k, &a) in order.iter().enumerate() {
            for &b in &order[k + 1..] {
                if bs[b].min.x > bs[a].max.x {
                    break;
                }
                if bs[a].intersects(&bs[b]) {
                    v.push((a.min(b) as u32, a.max(b) as u32));
                }
            }
        }
        v.sort_unstable();
        v
    };
    let mut grid = Grid::<f64, 2>::new(2.0).unwrap();
    for (i, b) in boxes.iter().enumerate() {
        grid.insert(i as u32, *b).unwrap();
    }
    let mut got = Vec::new();
    grid.candidate_pairs(&mut got);
    assert_eq!(got, sweep(&boxes));
    // A few move far (incremental pass), then all move far (full pass).
    for round in 0..2 {
        let every = if round == 0 { 97 } else { 1 };
        for (i, b) in boxes.iter_mut().enumerate().filter(|(i, _)| i % every == 0) {
            let d = nalgebra::Vector2::new(next() * 4.0 - 2.0, next() * 4.0 - 2.0);
            *b = b.translated(&d);
            grid.update(i as u32, *b).unwrap();
        }
        grid.candidate_pairs(&mut got);
        assert_eq!(got, sweep(&boxes), "round {round}");
        grid.validate().unwrap();
    }
    let bulk =
        Grid::<f64, 2>::from_boxes(2.0, boxes.iter().enumerate().map(|(i, b)| (i as u32, *b)))
            .unwrap();
    let mut again = Vec::new();
    bulk.candidate_pairs(&mut again);
    assert_eq!(again, got);
    bulk.validate().unwrap();
}

/// `from_boxes` refuses what `insert` refuses.
#[test]
fn bulk_build_errors() {
    let ok = to_box::<f32, 2>(&([0.0, 0.0], [1.0, 1.0]));
    let mut bad = ok;
    bad.min[1] = f32::NAN;
    assert_eq!(
        Grid::from_boxes(1.0, [(0, ok), (3, bad)]).unwrap_err(),
        GridError::InvalidBounds { id: 3 }
    );
    assert_eq!(
        Grid::from_boxes(1.0, [(0, ok), (0, ok)]).unwrap_err(),
        GridError::DuplicateId { id: 0 }
    );
    assert!(Grid::<f32, 2>::from_boxes(0.0, [(0, ok)]).is_err());
    let empty = Grid::<f32, 2>::from_boxes(1.0, []).unwrap();
    assert!(empty.is_empty());
    empty.validate().unwrap();
}
