//! The world far from the origin, with pairs that touch: every pair that the
//! narrow phase calls colliding must be a candidate of the grid, however the
//! bounding boxes round at a large offset. The shapes are placed exactly
//! touching (B moved out of A by the contact depth) at offsets up to 1e5 (f32)
//! and 1e12 (f64), with cell sizes that put cell boundaries at the contacts.

use crate::common;

use broadphase::{Filter, World};
use common::*;
use nalgebra::Translation2;
use narrowphase::DispatchTable;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use shape::prelude::*;

fn runner(cases: u32) -> TestRunner {
    let config = Config {
        cases: shape::testing::cases(cases),
        failure_persistence: None,
        ..Config::default()
    };
    TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha))
}

/// Two shapes touching at a large offset: the world reports the pair exactly
/// when the narrow phase (the same table on the same poses) does.
fn touching_far<T: Real>(
    (sa, sb, pa, pb, u, cell): (Spec, Spec, [f64; 3], [f64; 3], f64, f64),
) -> Result<(), TestCaseError> {
    let table = DispatchTable::<T>::shared();
    let (a, b) = (build::<T>(&sa), build::<T>(&sb));
    let o = max_offset::<T>().powf(u);
    let far = |p: [f64; 3]| iso::<T>([p[0] + o, p[1] - o, p[2]]);
    let (ia, ib) = (far(pa), far(pb));
    // Touch: move B out of A by the contact depth along the normal.
    let Some(c) = table.contact(a.as_ref(), &ia, b.as_ref(), &ib).unwrap() else {
        return Ok(());
    };
    let ib = Translation2::from(c.normal.into_inner() * c.depth) * ib;
    let hit = table.intersects(a.as_ref(), &ia, b.as_ref(), &ib).unwrap();
    // A cell boundary at the contact point along x (when it is representable).
    let x = c.point_a.x.as_f64();
    let cell = x / (x / cell).round();
    let mut world = World::<T>::new(T::lit(cell)).unwrap();
    let ha = world.insert_boxed(a, ia, Filter::ALL).unwrap();
    let hb = world.insert_boxed(b, ib, Filter::ALL).unwrap();
    world.validate().unwrap();
    let pairs: Vec<_> = world
        .collisions()
        .pairs
        .iter()
        .map(|p| (p.a, p.b))
        .collect();
    let want = if hit {
        vec![(ha.min(hb), ha.max(hb))]
    } else {
        vec![]
    };
    prop_assert_eq!(pairs, want, "offset {}, cell {}", o, cell);
    Ok(())
}

fn touching_pairs_far_away<T: Real>() {
    let strategy = (
        spec(),
        spec(),
        pose(2.0),
        pose(2.0),
        0.5f64..=1.0,
        0.05f64..4.0,
    );
    runner(2048)
        .run(&strategy, touching_far::<T>)
        .unwrap_or_else(|e| panic!("{e}"));
}
shape::for_each_precision!(touching_pairs_far_away_are_found, touching_pairs_far_away);

/// Known case: two unit squares sharing the edge `x = 1e5 + 1` (f32) exactly on
/// a cell boundary are one pair, and one spacing apart they are none.
fn squares_on_a_cell_boundary<T: Real>() {
    let o = max_offset::<T>();
    let square = || build::<T>(&Spec::Obb(0.5, 0.5));
    let h = spacing::<T>(o);
    for (gap, want) in [(0.0, 1), (h, 0)] {
        let mut world = World::<T>::new(T::one()).unwrap();
        world
            .insert_boxed(square(), iso::<T>([o + 0.5, 0.5, 0.0]), Filter::ALL)
            .unwrap();
        world
            .insert_boxed(square(), iso::<T>([o + 1.5 + gap, 0.5, 0.0]), Filter::ALL)
            .unwrap();
        assert_eq!(world.collisions().pairs.len(), want, "gap {gap}");
    }
}
shape::for_each_precision!(squares_sharing_an_edge_far_away, squares_on_a_cell_boundary);

/// The two cases the search above found before bounding boxes were widened
/// by their rounding margin: the world lost a touching pair.
#[test]
fn lost_pairs_before_the_rounding_margin() {
    let point_capsule = (
        Spec::Point(1.5123316668315632, -3.1989947108675936),
        Spec::Capsule(
            [1.7017953647615374, -1.3752608820331602],
            [0.0, 0.0],
            2.940727041673841,
        ),
        [-0.5771898888803066, 0.0, 1.9325235650108783],
        [-0.253173714904316, 0.0, 0.9044892336959864],
        0.8182547506966046,
        0.05,
    );
    touching_far::<f32>(point_capsule).unwrap();
    let capsule_aabb = (
        Spec::Capsule(
            [0.0, 0.0],
            [3.0108840158833208, 1.1979640572794006],
            47.67414178208904,
        ),
        Spec::Aabb(
            [1.5013182585089957, -3.9243797958715563],
            [1.5513182585089957, -1.6977753719499664],
        ),
        [-1.674275203613581, -1.642312134239544, -1.0411963444021728],
        [-0.19432608419311437, -1.936712302943567, 2.0817208259159297],
        0.64162525128894,
        2.5236978173192965,
    );
    touching_far::<f64>(capsule_aabb).unwrap();
}

/// Found by the world_ops fuzzer: far out, the grid's widened box of a shape
/// (8 ε of 1e300 is 1.8e285) is wider than any query box can be, and region
/// queries fitted to it answered `Unsupported` for built-in shapes. They fit
/// the shape's own box now.
#[test]
fn region_queries_near_the_float_limit() {
    let mut world = World::<f64>::new(1.0).unwrap();
    let far = iso::<f64>([1e300, 1e300, 0.0]);
    let c = world
        .insert_boxed(build::<f64>(&Spec::Circle(1.0)), far, Filter::ALL)
        .unwrap();
    let s = world
        .insert_boxed(
            build::<f64>(&Spec::Segment([0.0, -1.0], [0.0, 1.0])),
            iso::<f64>([1.0, 1e300, 0.0]),
            Filter::ALL,
        )
        .unwrap();
    let region = |lo: [f64; 2], hi: [f64; 2]| {
        shape::BoundingBox2::new(nalgebra::Point2::from(lo), nalgebra::Point2::from(hi))
    };
    // Unbounded to the right, flat at the circle's centre height.
    let (hits, errors) = world.query_region(&region([1e300, 1e300], [f64::INFINITY, 1e300]));
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(hits, vec![c]);
    // Flat at x = 1, from 1 to 1e300: through the segment.
    let (hits, errors) = world.query_region(&region([1.0, 1.0], [1.0, 1e300]));
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(hits, vec![s]);
}
