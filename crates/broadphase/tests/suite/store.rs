//! The grid's cell store along each of its paths (`grid/cells.rs` and the
//! grid's module notes), 2D and 3D, f32 and f64:
//!
//! - a bulk build (`Grid::from_boxes`, arbitrary sparse ids) answers the
//!   one-shot pass (records carrying tight boxes, no cell records yet) with
//!   exactly the brute-force pairs, twice, and every query (regions, ray
//!   walks, ray cells, ring searches) exactly as a grid filled one object at
//!   a time and already settled;
//! - then random changes (small and large moves, insertions, removals, every
//!   object moving far: the store set aside and rebuilt in bulk) keep
//!   `validate()` true, the pairs equal to brute force, and the queries equal
//!   to a fresh bulk build of the same boxes;
//! - a sparse world (no dense index), cells created outside the dense box
//!   until the index is rebuilt, cells growing past their room (runs moved,
//!   garbage compacted) and emptied (empty cells compacted).

use core::ops::ControlFlow;

use broadphase::Grid;
use nalgebra::{Point, SVector};
use proptest::prelude::*;
use shape::{BoundingBox, Ray, Real};

/// One box: mostly near the origin, some far, sizes from tiny to large.
fn one_box<const D: usize>() -> impl Strategy<Value = ([f64; D], [f64; D])> {
    let centre = prop_oneof![
        4 => prop::array::uniform::<_, D>(-20.0f64..20.0),
        1 => prop::array::uniform::<_, D>(-1e5f64..1e5),
    ];
    let half = prop_oneof![
        4 => prop::array::uniform::<_, D>(0.1f64..2.0),
        1 => prop::array::uniform::<_, D>(1e-3f64..1e-1),
        1 => prop::array::uniform::<_, D>(3.0f64..30.0),
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

/// Every overlapping pair of the live objects, `(smaller, larger)`, sorted.
fn brute<T: Real, const D: usize>(objects: &[(u32, BoundingBox<T, D>)]) -> Vec<(u32, u32)> {
    let mut v = Vec::new();
    for (x, (a, ba)) in objects.iter().enumerate() {
        for (b, bb) in &objects[x + 1..] {
            if ba.intersects(bb) {
                v.push((*a.min(b), *a.max(b)));
            }
        }
    }
    v.sort_unstable();
    v
}

/// What a grid answers to a fixed set of queries around `at`: regions, the
/// objects a ray walk hands out with their entries, the cells it crosses,
/// and the objects a ring search hands out with their lower bounds (each
/// list sorted; the queries visit everything, so the lists depend only on
/// the objects, not on how the store is laid out).
#[allow(clippy::type_complexity)]
fn answers<T: Real, const D: usize>(
    grid: &Grid<T, D>,
    at: &[f64; D],
    dir: &[f64; D],
) -> (Vec<u32>, Vec<(u32, T)>, Vec<([i64; D], T)>, Vec<(u32, T)>) {
    let p = Point::from(at.map(T::lit));
    let region = BoundingBox::new(
        Point::from(at.map(|x| T::lit(x - 7.0))),
        Point::from(at.map(|x| T::lit(x + 5.0))),
    );
    let mut inside = Vec::new();
    grid.query_region(&region, &mut inside);
    let ray = Ray::new(p, SVector::from(dir.map(T::lit)));
    let mut walked = Vec::new();
    grid.walk_ray(&ray, T::lit(60.0), |id, entry| {
        walked.push((id, entry));
        T::infinity()
    });
    let mut crossed = Vec::new();
    grid.ray_cells(&ray, T::lit(60.0), |key, t| {
        crossed.push((key, t));
        ControlFlow::Continue(())
    });
    let mut near = Vec::new();
    grid.walk_rings(&p, T::lit(12.0), |id, lower| {
        near.push((id, lower));
        T::lit(12.0)
    });
    let by = |a: &(u32, T), b: &(u32, T)| a.0.cmp(&b.0);
    walked.sort_by(by);
    near.sort_by(by);
    crossed.sort_by_key(|c| c.0);
    (inside, walked, crossed, near)
}

/// One change of the scene.
#[derive(Debug, Clone)]
enum Step<const D: usize> {
    /// Moves object `k` by `d`.
    Move(usize, [f64; D]),
    Insert(([f64; D], [f64; D])),
    Remove(usize),
    /// Moves every object by its own offset, scaled by the factor (large:
    /// every object leaves its fat box, the store is set aside).
    MoveAll(f64),
    /// Queries (and checks).
    Query,
}

fn steps<const D: usize>() -> impl Strategy<Value = Vec<Step<D>>> {
    let step = prop_oneof![
        4 => (any::<usize>(), prop::array::uniform(-0.05f64..0.05)).prop_map(|(i, d)| Step::Move(i, d)),
        2 => (any::<usize>(), prop::array::uniform(-8.0f64..8.0)).prop_map(|(i, d)| Step::Move(i, d)),
        2 => one_box::<D>().prop_map(Step::Insert),
        1 => any::<usize>().prop_map(Step::Remove),
        2 => prop_oneof![Just(0.02f64), 1.0f64..6.0].prop_map(Step::MoveAll),
        3 => Just(Step::Query),
    ];
    prop::collection::vec(step, 1..40)
}

#[allow(clippy::too_many_arguments)]
fn store_prop<T: Real, const D: usize>(
    start: Vec<([f64; D], [f64; D])>,
    stride: u32,
    cell: f64,
    at: [f64; D],
    dir: [f64; D],
    steps: Vec<Step<D>>,
) -> Result<(), TestCaseError> {
    let fail = |e: broadphase::GridError| TestCaseError::fail(e.to_string());
    // Sparse ids, not in order of space.
    let mut objects: Vec<(u32, BoundingBox<T, D>)> = start
        .iter()
        .enumerate()
        .map(|(i, b)| (i as u32 * 5 + (i as u32 * stride) % 5, to_box(b)))
        .collect();
    let bulk = Grid::<T, D>::from_boxes(T::lit(cell), objects.iter().copied()).map_err(fail)?;
    bulk.validate().map_err(fail)?;
    let mut pairs = Vec::new();
    bulk.candidate_pairs(&mut pairs);
    prop_assert_eq!(&pairs, &brute(&objects));
    bulk.candidate_pairs(&mut pairs);
    prop_assert_eq!(&pairs, &brute(&objects));
    bulk.validate().map_err(fail)?;
    // The same boxes inserted one by one, the store settled by a change.
    let mut one_by_one = Grid::<T, D>::new(T::lit(cell)).unwrap();
    let mut rest = objects.iter();
    if let Some((id, b)) = rest.next() {
        one_by_one.insert(*id, *b).map_err(fail)?;
        one_by_one.candidate_pairs(&mut pairs);
    }
    for (id, b) in rest {
        one_by_one.insert(*id, *b).map_err(fail)?;
    }
    one_by_one.candidate_pairs(&mut pairs);
    prop_assert_eq!(&pairs, &brute(&objects));
    one_by_one.validate().map_err(fail)?;
    prop_assert_eq!(answers(&bulk, &at, &dir), answers(&one_by_one, &at, &dir));
    prop_assert_eq!(bulk.stats(), one_by_one.stats());

    // Changes after the bulk build.
    let mut grid = bulk;
    let mut next_id = 500;
    let mut steps = steps;
    steps.push(Step::Query);
    for step in steps {
        match step {
            Step::Move(k, d) => {
                if !objects.is_empty() {
                    let k = k % objects.len();
                    let moved = objects[k].1.translated(&SVector::from(d.map(T::lit)));
                    grid.update(objects[k].0, moved).map_err(fail)?;
                    objects[k].1 = moved;
                }
            }
            Step::Insert(b) => {
                grid.insert(next_id, to_box(&b)).map_err(fail)?;
                objects.push((next_id, to_box(&b)));
                next_id += 7;
            }
            Step::Remove(k) => {
                if !objects.is_empty() {
                    let (id, b) = objects.swap_remove(k % objects.len());
                    prop_assert_eq!(grid.remove(id).map_err(fail)?, b);
                }
            }
            Step::MoveAll(f) => {
                for (id, b) in &mut objects {
                    let s = T::lit(f * ((*id % 7) as f64 - 3.0) / 3.0);
                    *b = b.translated(&SVector::from_element(s));
                    grid.update(*id, *b).map_err(fail)?;
                }
            }
            Step::Query => {
                grid.validate().map_err(fail)?;
                grid.candidate_pairs(&mut pairs);
                prop_assert_eq!(&pairs, &brute(&objects));
                grid.validate().map_err(fail)?;
                let fresh = Grid::<T, D>::from_boxes(T::lit(cell), objects.iter().copied())
                    .map_err(fail)?;
                // The fat boxes differ (the changed grid keeps older ones),
                // so do the walks' entries and cells; regions and pairs not.
                let (mut a, mut b) = (Vec::new(), Vec::new());
                let region = BoundingBox::new(
                    Point::from(at.map(|x| T::lit(x - 9.0))),
                    Point::from(at.map(|x| T::lit(x + 9.0))),
                );
                grid.query_region(&region, &mut a);
                fresh.query_region(&region, &mut b);
                prop_assert_eq!(a, b);
            }
        }
    }
    Ok(())
}

fn cell() -> impl Strategy<Value = f64> {
    prop_oneof![0.2f64..1.0, 1.0f64..6.0, 6.0f64..60.0]
}

fn direction<const D: usize>() -> impl Strategy<Value = [f64; D]> {
    prop::array::uniform::<_, D>(-1.0f64..1.0)
        .prop_filter("non-zero", |d| d.iter().any(|x| x.abs() > 1e-3))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: shape::testing::cases(64), ..ProptestConfig::default() })]
    #[test]
    fn store_2d_f32(b in prop::collection::vec(one_box::<2>(), 0..80), k in 1u32..50, c in cell(),
                    at in prop::array::uniform::<_, 2>(-20.0f64..20.0), d in direction::<2>(), s in steps::<2>()) {
        store_prop::<f32, 2>(b, k, c, at, d, s)?;
    }
    #[test]
    fn store_2d_f64(b in prop::collection::vec(one_box::<2>(), 0..80), k in 1u32..50, c in cell(),
                    at in prop::array::uniform::<_, 2>(-20.0f64..20.0), d in direction::<2>(), s in steps::<2>()) {
        store_prop::<f64, 2>(b, k, c, at, d, s)?;
    }
    #[test]
    fn store_3d_f32(b in prop::collection::vec(one_box::<3>(), 0..50), k in 1u32..50, c in cell(),
                    at in prop::array::uniform::<_, 3>(-20.0f64..20.0), d in direction::<3>(), s in steps::<3>()) {
        store_prop::<f32, 3>(b, k, c, at, d, s)?;
    }
    #[test]
    fn store_3d_f64(b in prop::collection::vec(one_box::<3>(), 0..50), k in 1u32..50, c in cell(),
                    at in prop::array::uniform::<_, 3>(-20.0f64..20.0), d in direction::<3>(), s in steps::<3>()) {
        store_prop::<f64, 3>(b, k, c, at, d, s)?;
    }
}

/// A deterministic stream of numbers in `[0, 1)`.
fn stream(mut x: u64) -> impl FnMut() -> f64 {
    move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Checks the grid and its pairs against brute force.
fn check(grid: &Grid<f64, 2>, objects: &[(u32, BoundingBox<f64, 2>)], what: &str) {
    grid.validate().unwrap_or_else(|e| panic!("{what}: {e}"));
    let mut pairs = Vec::new();
    grid.candidate_pairs(&mut pairs);
    assert_eq!(pairs, brute(objects), "{what}");
    grid.validate().unwrap_or_else(|e| panic!("{what}: {e}"));
}

fn square(x: f64, y: f64, h: f64) -> BoundingBox<f64, 2> {
    to_box(&([x - h, y - h], [x + h, y + h]))
}

/// A world far too sparse for a dense index (the hash map holds every
/// cell), built in bulk and one by one, then emptied until the empty cells
/// are compacted away.
#[test]
fn sparse_world() {
    let mut next = stream(0x5eed);
    let mut objects: Vec<(u32, BoundingBox<f64, 2>)> = (0..300)
        .map(|i| {
            let (x, y) = (next() * 2e6 - 1e6, next() * 2e6 - 1e6);
            (i, square(x, y, 0.3 + next()))
        })
        .collect();
    // Neighbours, so that there are pairs.
    for i in 0..40 {
        let b = objects[i].1.translated(&SVector::from([0.5, 0.25]));
        objects.push((1000 + i as u32, b));
    }
    let bulk = Grid::from_boxes(1.0, objects.iter().copied()).unwrap();
    check(&bulk, &objects, "sparse bulk build");
    let mut grid = Grid::new(1.0).unwrap();
    for (id, b) in &objects {
        grid.insert(*id, *b).unwrap();
        if id % 17 == 0 {
            check(
                &grid,
                &objects[..=objects.iter().position(|o| o.0 == *id).unwrap()],
                "inserting",
            );
        }
    }
    check(&grid, &objects, "sparse, one by one");
    assert_eq!(grid.stats(), bulk.stats());
    // Remove most objects one by one: cells empty and are compacted.
    while objects.len() > 20 {
        let (id, _) = objects.remove(objects.len() / 2);
        grid.remove(id).unwrap();
        if objects.len() % 13 == 0 {
            check(&grid, &objects, "removing");
        }
    }
    check(&grid, &objects, "after removals");
}

/// A dense bulk build, then objects inserted one by one far outside the
/// dense box (their cells go to the hash map until the index is rebuilt
/// around every cell), then objects piling into one cell (its run moves to
/// the end of the buffer, again and again, and the garbage is compacted).
#[test]
fn dense_box_outgrown_and_runs_moved() {
    let mut next = stream(0xd0_5e);
    let mut objects: Vec<(u32, BoundingBox<f64, 2>)> = (0..2000)
        .map(|i| (i, square(next() * 60.0, next() * 60.0, 0.2 + 0.6 * next())))
        .collect();
    let mut grid = Grid::from_boxes(1.5, objects.iter().copied()).unwrap();
    check(&grid, &objects, "dense bulk build");
    for i in 0..600u32 {
        let b = square(200.0 + next() * 400.0, -300.0 - next() * 400.0, 0.3);
        grid.insert(10_000 + i, b).unwrap();
        objects.push((10_000 + i, b));
        if i % 50 == 0 {
            check(&grid, &objects, "outside the dense box");
        }
    }
    check(&grid, &objects, "after the far insertions");
    for i in 0..300u32 {
        let b = square(30.0 + 0.01 * next(), 30.0 + 0.01 * next(), 0.05);
        grid.insert(20_000 + i, b).unwrap();
        objects.push((20_000 + i, b));
        if i % 37 == 0 {
            check(&grid, &objects, "piling up");
        }
    }
    check(&grid, &objects, "after piling up");
    // And away again, one by one.
    for i in 0..300u32 {
        let id = 20_000 + i;
        let k = objects.iter().position(|o| o.0 == id).unwrap();
        let b = square(next() * 60.0, next() * 60.0, 0.3);
        grid.update(id, b).unwrap();
        objects[k].1 = b;
    }
    check(&grid, &objects, "spread out again");
}

/// Frames where every object moves far (the store set aside and rebuilt in
/// bulk, the one-shot pass), quiet frames (the fat set rebuilt, then kept
/// up to date incrementally), and a quiet frame right after a mass move
/// (the store set aside at the first far move, by anticipation).
#[test]
fn mass_moves_and_quiet_frames() {
    let mut next = stream(0xfa_57);
    let mut objects: Vec<(u32, BoundingBox<f64, 2>)> = (0..3000)
        .map(|i| {
            (
                i * 3,
                square(next() * 100.0, next() * 100.0, 0.3 + 0.5 * next()),
            )
        })
        .collect();
    let mut grid = Grid::new(2.0).unwrap();
    for (id, b) in &objects {
        grid.insert(*id, *b).unwrap();
    }
    check(&grid, &objects, "first frame");
    let offsets: Vec<[f64; 2]> = (0..objects.len())
        .map(|_| [next() * 2.0 - 1.0, next() * 2.0 - 1.0])
        .collect();
    let frames = [
        (1.5, 1),  // mass
        (1.5, 1),  // mass again
        (0.01, 1), // quiet, every object a little
        (1.5, 50), // one far move right after a mass frame
        (0.01, 1), // quiet
        (0.01, 1), // quiet: incremental
        (1.5, 1),  // mass
        (0.0, 1),  // nothing moves
    ];
    for (f, (scale, every)) in frames.into_iter().enumerate() {
        for (k, (id, b)) in objects.iter_mut().enumerate() {
            if k % every == 0 && scale > 0.0 {
                *b = b.translated(&SVector::from(offsets[k].map(|x| x * scale)));
                grid.update(*id, *b).unwrap();
            }
        }
        check(&grid, &objects, &format!("frame {f}"));
    }
}
