//! Contact manifolds in the 2D world (`World::set_manifolds`), f32 and f64
//! from one generic body each: the manifolds agree with brute force (every
//! filtered pair within the prediction has the manifold the dispatch table
//! gives, and no other pair), including speculative pairs farther apart than
//! the grid's margin; `pairs`, `started` and `stopped` are those of the world
//! with manifolds off; points are matched to the previous query's by feature
//! id (a resting box jiggled keeps its matches, a box sliding over an edge gets
//! `None` for its new point); history is forgotten on remove, replace and
//! off/on; a bad prediction is a typed error that leaves the world as it was.
//! The matching is checked against an independent model (a map from handle
//! pairs to the previous ids) over random operation sequences.

use crate::common;

use std::collections::HashMap;

use broadphase::{Filter, Handle, PairManifold, World, WorldError};
use common::*;
use nalgebra::{Isometry2, Vector2};
use narrowphase::{DispatchTable, FeatureId, MAX_MANIFOLD_POINTS, Manifold};
use proptest::prelude::*;
use shape::prelude::*;

/// Filters drawn from two groups, so that some pairs are rejected.
fn filter() -> impl Strategy<Value = Filter> {
    prop_oneof![
        3 => Just(Filter::ALL),
        1 => Just(Filter::new(1, 1)),
        1 => Just(Filter::new(2, !2)),
    ]
}

/// Predictions from zero to many times the default grid margin (a tenth of
/// the cell size, drawn below from 0.1 to 200).
fn prediction() -> impl Strategy<Value = f64> {
    prop_oneof![
        1 => Just(0.0),
        2 => 0.0f64..0.1,
        2 => 0.1f64..1.0,
        2 => 1.0f64..6.0,
    ]
}

fn cell() -> impl Strategy<Value = f64> {
    prop_oneof![0.1f64..1.0, 1.0f64..10.0, 10.0f64..200.0]
}

/// A pose near the origin or far from it (about 10⁵ out).
fn placed_pose() -> impl Strategy<Value = [f64; 3]> {
    prop_oneof![
        3 => pose(12.0),
        1 => pose(4.0).prop_map(|p| [p[0] - 1e5, p[1] + 1e5, p[2]]),
    ]
}

/// One object of the reference model.
#[derive(Debug, Clone)]
struct Live {
    handle: Handle,
    spec: Spec,
    pose: [f64; 3],
    filter: Filter,
}

/// Brute force: every pair of live objects (sorted by handle) that passes
/// the filters and has a manifold within `p`, through a fresh table.
fn brute_force<T: Real>(live: &[Live], p: T) -> Vec<(Handle, Handle, Manifold<T>)> {
    let table = DispatchTable::<T>::new();
    let mut sorted: Vec<&Live> = live.iter().collect();
    sorted.sort_by_key(|l| l.handle);
    let mut out = Vec::new();
    for (i, x) in sorted.iter().enumerate() {
        for y in &sorted[i + 1..] {
            if !x.filter.accepts(&y.filter) {
                continue;
            }
            let (sa, sb) = (build::<T>(&x.spec), build::<T>(&y.spec));
            let m = table
                .contact_manifold(
                    sa.as_ref(),
                    &iso::<T>(x.pose),
                    sb.as_ref(),
                    &iso::<T>(y.pose),
                    p,
                )
                .expect("built-in pairs have a manifold kernel");
            if let Some(m) = m {
                out.push((x.handle, y.handle, m));
            }
        }
    }
    out
}

/// The expected matches of `m`'s points against `previous` ids: the index of
/// the first previous point with the same id.
fn expected_matches<T: Real>(
    m: &Manifold<T>,
    previous: Option<&Vec<FeatureId>>,
) -> [Option<u8>; MAX_MANIFOLD_POINTS] {
    let mut out = [None; MAX_MANIFOLD_POINTS];
    if let Some(prev) = previous {
        for (o, p) in out.iter_mut().zip(m.points()) {
            *o = prev.iter().position(|id| *id == p.id).map(|k| k as u8);
        }
    }
    out
}

/// `|a − b| < tol`.
fn close<T: Real>(a: T, b: T, tol: f64) -> bool {
    num_traits::Float::abs(a - b) < T::lit(tol)
}

fn ids<T: Real>(m: &Manifold<T>) -> Vec<FeatureId> {
    m.points().iter().map(|p| p.id).collect()
}

#[derive(Debug, Clone)]
enum Op {
    Insert(Spec, [f64; 3], Filter),
    /// A small move of object `i` (a fraction of a unit, a few degrees).
    Nudge(usize, [f64; 3]),
    /// A move anywhere.
    Move(usize, [f64; 3]),
    Replace(usize, Spec),
    Remove(usize),
    Query,
    Off,
    On(f64),
    Bad(f64),
}

fn ops() -> impl Strategy<Value = Vec<Op>> {
    prop::collection::vec(
        prop_oneof![
            4 => (spec(), placed_pose(), filter()).prop_map(|(s, p, f)| Op::Insert(s, p, f)),
            4 => (any::<usize>(), (-0.05f64..0.05, -0.05f64..0.05, -0.03f64..0.03))
                .prop_map(|(i, (x, y, a))| Op::Nudge(i, [x, y, a])),
            2 => (any::<usize>(), placed_pose()).prop_map(|(i, p)| Op::Move(i, p)),
            1 => (any::<usize>(), spec()).prop_map(|(i, s)| Op::Replace(i, s)),
            1 => any::<usize>().prop_map(Op::Remove),
            5 => Just(Op::Query),
            1 => Just(Op::Off),
            1 => prediction().prop_map(Op::On),
            1 => prop_oneof![Just(f64::NAN), Just(-1.0), Just(f64::INFINITY), Just(-1e-30)]
                .prop_map(Op::Bad),
        ],
        1..40,
    )
}

/// Random operations against a model: at every query the world's manifolds
/// equal brute force, with the matches the model's history gives, and the
/// contact pairs and events equal those of a twin world with manifolds off.
fn model_prop<T: Real>(ops: Vec<Op>, cell: f64, first: Option<f64>) -> Result<(), TestCaseError> {
    let mut world = World::<T>::new(T::lit(cell)).unwrap();
    let mut twin = World::<T>::new(T::lit(cell)).unwrap();
    let mut live: Vec<Live> = Vec::new();
    let mut twin_handles: Vec<Handle> = Vec::new();
    let mut history: HashMap<(Handle, Handle), Vec<FeatureId>> = HashMap::new();
    let mut on: Option<T> = None;
    let set = |world: &mut World<T>, on: &mut Option<T>, p: Option<f64>| {
        let p = p.map(T::lit);
        world.set_manifolds(p).unwrap();
        *on = p;
    };
    if first.is_some() {
        set(&mut world, &mut on, first);
    }
    for op in ops {
        match op {
            Op::Insert(s, p, f) => {
                let h = world.insert_boxed(build::<T>(&s), iso::<T>(p), f).unwrap();
                twin_handles.push(twin.insert_boxed(build::<T>(&s), iso::<T>(p), f).unwrap());
                live.push(Live {
                    handle: h,
                    spec: s,
                    pose: p,
                    filter: f,
                });
            }
            Op::Nudge(i, d) | Op::Move(i, d) if !live.is_empty() => {
                let k = i % live.len();
                let p = if matches!(op, Op::Nudge(..)) {
                    let q = live[k].pose;
                    [q[0] + d[0], q[1] + d[1], q[2] + d[2]]
                } else {
                    d
                };
                world.set_pose(live[k].handle, iso::<T>(p)).unwrap();
                twin.set_pose(twin_handles[k], iso::<T>(p)).unwrap();
                live[k].pose = p;
            }
            Op::Replace(i, s) if !live.is_empty() => {
                let k = i % live.len();
                world
                    .replace_shape_boxed(live[k].handle, build::<T>(&s))
                    .unwrap();
                twin.replace_shape_boxed(twin_handles[k], build::<T>(&s))
                    .unwrap();
                live[k].spec = s;
                let h = live[k].handle;
                history.retain(|(a, b), _| *a != h && *b != h);
            }
            Op::Remove(i) if !live.is_empty() => {
                let k = i % live.len();
                let gone = live.remove(k);
                world.remove(gone.handle).unwrap();
                twin.remove(twin_handles.remove(k)).unwrap();
                history.retain(|(a, b), _| *a != gone.handle && *b != gone.handle);
            }
            Op::Off => {
                set(&mut world, &mut on, None);
                history.clear();
                prop_assert!(world.last_collisions().manifolds.is_empty());
            }
            Op::On(p) => set(&mut world, &mut on, Some(p)),
            Op::Bad(p) => {
                prop_assert_eq!(
                    world.set_manifolds(Some(T::lit(p))),
                    Err(WorldError::InvalidPrediction)
                );
                prop_assert_eq!(world.manifold_prediction(), on);
            }
            Op::Query => {
                world.validate().unwrap();
                let got = world.collisions().clone();
                let plain = twin.collisions();
                // Handles of the twin map to the world's by position.
                let to_world =
                    |h: Handle| live[twin_handles.iter().position(|t| *t == h).unwrap()].handle;
                let map = |v: &[(Handle, Handle)]| -> Vec<(Handle, Handle)> {
                    let mut w: Vec<_> = v
                        .iter()
                        .map(|(a, b)| (to_world(*a), to_world(*b)))
                        .collect();
                    w.iter_mut().for_each(|p| {
                        if p.0 > p.1 {
                            *p = (p.1, p.0)
                        }
                    });
                    w.sort();
                    w
                };
                let pairs: Vec<_> = got.pairs.iter().map(|p| (p.a, p.b)).collect();
                let twin_pairs: Vec<_> = plain.pairs.iter().map(|p| (p.a, p.b)).collect();
                prop_assert_eq!(&pairs, &map(&twin_pairs));
                prop_assert_eq!(&got.started, &map(&plain.started));
                prop_assert_eq!(got.stopped.len(), plain.stopped.len());
                prop_assert!(got.errors.is_empty());
                prop_assert!(got.stats.colliding_pairs == plain.stats.colliding_pairs);
                same_queries(&world, &twin)?;
                match on {
                    None => prop_assert!(got.manifolds.is_empty()),
                    Some(p) => {
                        let want = brute_force::<T>(&live, p);
                        let have: Vec<(Handle, Handle, Manifold<T>)> = got
                            .manifolds
                            .iter()
                            .map(|m| (m.a, m.b, m.manifold))
                            .collect();
                        prop_assert_eq!(&have, &want);
                        for pm in &got.manifolds {
                            let e = expected_matches(&pm.manifold, history.get(&(pm.a, pm.b)));
                            prop_assert_eq!(pm.matched, e, "pair {} {}", pm.a, pm.b);
                        }
                        // Every touching pair has a manifold.
                        for c in &got.pairs {
                            prop_assert!(got.manifolds.iter().any(|m| (m.a, m.b) == (c.a, c.b)));
                        }
                        history = got
                            .manifolds
                            .iter()
                            .map(|m| ((m.a, m.b), ids(&m.manifold)))
                            .collect();
                    }
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// The other queries answer the same with manifolds on (objects filed by
/// grown boxes) as in the twin world with them off (the same operations, so
/// the same slot indices).
fn same_queries<T: Real>(world: &World<T>, twin: &World<T>) -> Result<(), TestCaseError> {
    use broadphase::QueryFilter;
    use shape::Ray;
    let f = QueryFilter::default();
    let idx = |v: Vec<Handle>| v.into_iter().map(Handle::index).collect::<Vec<_>>();
    let probe = nalgebra::Point2::new(T::lit(0.5), T::lit(-0.25));
    prop_assert_eq!(
        idx(world.query_point(&probe).0),
        idx(twin.query_point(&probe).0)
    );
    let ray = Ray::new(
        nalgebra::Point2::new(T::lit(-15.0), T::lit(0.3)),
        Vector2::new(T::one(), T::lit(0.1)),
    );
    let (x, y) = (
        world.cast_ray(&ray, T::infinity(), f).unwrap(),
        twin.cast_ray(&ray, T::infinity(), f).unwrap(),
    );
    prop_assert_eq!(
        x.map(|(h, r)| (h.index(), r.toi)),
        y.map(|(h, r)| (h.index(), r.toi))
    );
    let (x, y) = (
        world.project_point(&probe, T::infinity(), f).unwrap(),
        twin.project_point(&probe, T::infinity(), f).unwrap(),
    );
    prop_assert_eq!(
        x.map(|(h, p)| (h.index(), p.point)),
        y.map(|(h, p)| (h.index(), p.point))
    );
    let ball = Circle::new(T::half()).unwrap();
    let at = Isometry2::translation(T::one(), T::one());
    let near = |w: &World<T>| -> Vec<(u32, T)> {
        w.query_distance(&ball, &at, T::lit(3.0), f)
            .unwrap()
            .into_iter()
            .map(|(h, d)| (h.index(), d))
            .collect()
    };
    prop_assert_eq!(near(world), near(twin));
    Ok(())
}

/// A scene built at once and queried twice (the second time after every
/// object moved a little): brute force both times, and the matches of the
/// second query against the first's ids.
fn scene_prop<T: Real>(
    scene: Vec<(Spec, [f64; 3], Filter)>,
    nudges: Vec<[f64; 3]>,
    cell: f64,
    p: f64,
) -> Result<(), TestCaseError> {
    let mut world = World::<T>::new(T::lit(cell)).unwrap();
    world.set_manifolds(Some(T::lit(p))).unwrap();
    prop_assert_eq!(world.manifold_prediction(), Some(T::lit(p)));
    let mut live: Vec<Live> = scene
        .iter()
        .map(|(s, q, f)| Live {
            handle: world.insert_boxed(build::<T>(s), iso::<T>(*q), *f).unwrap(),
            spec: s.clone(),
            pose: *q,
            filter: *f,
        })
        .collect();
    let first = world.collisions().clone();
    let want = brute_force::<T>(&live, T::lit(p));
    let have: Vec<_> = first
        .manifolds
        .iter()
        .map(|m| (m.a, m.b, m.manifold))
        .collect();
    prop_assert_eq!(&have, &want);
    prop_assert!(
        first
            .manifolds
            .iter()
            .all(|m| m.matched == [None; MAX_MANIFOLD_POINTS])
    );
    for (l, d) in live.iter_mut().zip(nudges.iter().cycle()) {
        l.pose = [l.pose[0] + d[0], l.pose[1] + d[1], l.pose[2] + d[2]];
        world.set_pose(l.handle, iso::<T>(l.pose)).unwrap();
    }
    let second = world.collisions();
    let want = brute_force::<T>(&live, T::lit(p));
    let have: Vec<_> = second
        .manifolds
        .iter()
        .map(|m| (m.a, m.b, m.manifold))
        .collect();
    prop_assert_eq!(&have, &want);
    for pm in &second.manifolds {
        let before = first
            .manifolds
            .iter()
            .find(|m| (m.a, m.b) == (pm.a, pm.b))
            .map(|m| ids(&m.manifold));
        prop_assert_eq!(pm.matched, expected_matches(&pm.manifold, before.as_ref()));
    }
    Ok(())
}

fn scene() -> impl Strategy<Value = Vec<(Spec, [f64; 3], Filter)>> {
    prop::collection::vec((spec(), placed_pose(), filter()), 0..30)
}

fn nudges() -> impl Strategy<Value = Vec<[f64; 3]>> {
    prop::collection::vec(
        (-0.05f64..0.05, -0.05f64..0.05, -0.03f64..0.03).prop_map(|(x, y, a)| [x, y, a]),
        1..8,
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: shape::testing::cases(96), ..ProptestConfig::default() })]
    #[test]
    fn scenes_f32(s in scene(), n in nudges(), c in cell(), p in prediction()) {
        scene_prop::<f32>(s, n, c, p)?;
    }
    #[test]
    fn scenes_f64(s in scene(), n in nudges(), c in cell(), p in prediction()) {
        scene_prop::<f64>(s, n, c, p)?;
    }
    #[test]
    fn model_f32(o in ops(), c in cell(), p in prop::option::of(prediction())) {
        model_prop::<f32>(o, c, p)?;
    }
    #[test]
    fn model_f64(o in ops(), c in cell(), p in prop::option::of(prediction())) {
        model_prop::<f64>(o, c, p)?;
    }
}

/// A 10×1 floor and a 2×2 crate resting on it, sunk by 0.01, in a world with
/// cells of 2 (a default margin of 0.2).
fn resting<T: Real>(prediction: f64) -> (World<T>, Handle, Handle) {
    let mut world = World::<T>::new(T::two()).unwrap();
    let floor = world
        .insert(
            Obb::new(Vector2::new(T::lit(5.0), T::half())).unwrap(),
            Isometry2::identity(),
            Filter::ALL,
        )
        .unwrap();
    let crate_ = world
        .insert(
            Obb::new(Vector2::new(T::one(), T::one())).unwrap(),
            Isometry2::translation(T::zero(), T::lit(1.49)),
            Filter::ALL,
        )
        .unwrap();
    world.set_manifolds(Some(T::lit(prediction))).unwrap();
    (world, floor, crate_)
}

/// The only manifold of the frame.
fn only<T: Real>(world: &mut World<T>) -> PairManifold<Manifold<T>> {
    let c = world.collisions();
    assert_eq!(c.manifolds.len(), 1, "{:?}", c.manifolds);
    c.manifolds[0]
}

/// A resting crate jiggled by tiny motions (up to 2·10⁻³ across, 10⁻³ rad)
/// for 200 frames keeps both points matched to the same corners.
fn jiggle<T: Real>() {
    let (mut world, floor, crate_) = resting::<T>(0.05);
    let first = only(&mut world);
    assert_eq!((first.a, first.b), (floor, crate_));
    assert_eq!(first.manifold.len(), 2);
    assert_eq!(first.matched, [None; MAX_MANIFOLD_POINTS]);
    let mut previous = first;
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    };
    for _ in 0..200 {
        let pose = Isometry2::new(
            Vector2::new(T::lit(1e-3 * next()), T::lit(1.49 + 1e-3 * next())),
            T::lit(1e-3 * next()),
        );
        world.set_pose(crate_, pose).unwrap();
        let now = only(&mut world);
        assert_eq!(now.manifold.len(), 2);
        for (i, p) in now.manifold.points().iter().enumerate() {
            let k = usize::from(now.matched[i].expect("every point matched"));
            let before = &previous.manifold.points()[k];
            assert_eq!(before.id, p.id);
            // The same corner: it moved by at most the jiggle (a few 10⁻³).
            assert!((before.point_b - p.point_b).norm() < T::lit(0.01));
        }
        assert_ne!(now.matched[0], now.matched[1]);
        assert_eq!(now.matched[2..], [None, None]);
        previous = now;
    }
}
shape::for_each_precision!(jiggle_keeps_matches, jiggle);

/// A 1×1 crate sliding right over the end of a 4×1 floor: while it is all
/// over the floor both points match; once its right corner passes the
/// floor's corner, the point under the floor's corner is new (`None`) and the
/// left corner's point still matches.
fn slide_over_the_edge<T: Real>() {
    let mut world = World::<T>::new(T::two()).unwrap();
    world
        .insert(
            Obb::new(Vector2::new(T::two(), T::half())).unwrap(),
            Isometry2::identity(),
            Filter::ALL,
        )
        .unwrap();
    let crate_ = world
        .insert(
            Obb::new(Vector2::new(T::half(), T::half())).unwrap(),
            Isometry2::translation(T::lit(1.0), T::lit(0.99)),
            Filter::ALL,
        )
        .unwrap();
    world.set_manifolds(Some(T::zero())).unwrap();
    let first = only(&mut world);
    assert_eq!(first.manifold.len(), 2);
    world
        .set_pose(crate_, Isometry2::translation(T::lit(1.2), T::lit(0.99)))
        .unwrap();
    let inside = only(&mut world);
    assert_eq!(inside.manifold.len(), 2);
    assert!(inside.matched[..2].iter().all(Option::is_some));
    // Right corner at 2.3, past the floor's end at 2.
    world
        .set_pose(crate_, Isometry2::translation(T::lit(1.8), T::lit(0.99)))
        .unwrap();
    let over = only(&mut world);
    assert_eq!(over.manifold.len(), 2);
    let mut new = 0;
    for (i, p) in over.manifold.points().iter().enumerate() {
        let x = p.point_b.x;
        if close(x, T::lit(1.3), 1e-4) {
            // The crate's left corner, still on the floor.
            assert!(over.matched[i].is_some(), "{over:?}");
        } else {
            // Under the floor's corner (x = 2): a new feature pair.
            assert!(close(x, T::two(), 1e-4), "{over:?}");
            assert_eq!(over.matched[i], None, "{over:?}");
            new += 1;
        }
    }
    assert_eq!(new, 1);
}
shape::for_each_precision!(slide_over_the_edge_loses_one_match, slide_over_the_edge);

/// Two unit circles 1.5 apart in a world of 2-cells (margin 0.2): no contact;
/// a manifold with a prediction of 2 (ten times the margin), none with 1.
fn speculative<T: Real>() {
    let mut world = World::<T>::new(T::two()).unwrap();
    let a = world
        .insert(
            Circle::new(T::one()).unwrap(),
            Isometry2::identity(),
            Filter::ALL,
        )
        .unwrap();
    let b = world
        .insert(
            Circle::new(T::one()).unwrap(),
            Isometry2::translation(T::lit(3.5), T::zero()),
            Filter::ALL,
        )
        .unwrap();
    assert!(world.grid().margin() < T::lit(0.25));
    world.set_manifolds(Some(T::two())).unwrap();
    let c = world.collisions();
    assert!(c.pairs.is_empty() && c.started.is_empty());
    assert_eq!(c.manifolds.len(), 1);
    let pm = c.manifolds[0];
    assert_eq!((pm.a, pm.b), (a, b));
    assert_eq!(pm.manifold.len(), 1);
    let s = pm.manifold.points()[0].separation;
    assert!(close(s, T::lit(1.5), 1e-5), "{s:?}");
    assert_eq!(c.stats.candidate_pairs, 1);
    assert_eq!(world.candidate_pairs(), vec![(a, b)]);
    world.validate().unwrap();
    // Moving within the prediction keeps the match; a smaller prediction
    // drops the pair, and turning manifolds off files plain boxes again.
    world
        .set_pose(b, Isometry2::translation(T::lit(3.6), T::lit(0.1)))
        .unwrap();
    assert_eq!(only(&mut world).matched[0], Some(0));
    world.set_manifolds(Some(T::one())).unwrap();
    assert!(world.collisions().manifolds.is_empty());
    world.set_manifolds(None).unwrap();
    world.validate().unwrap();
    assert!(world.candidate_pairs().is_empty());
}
shape::for_each_precision!(speculative_beyond_the_margin, speculative);

/// Removing the crate and inserting an identical one, replacing its shape,
/// and turning manifolds off then on each forget the history; changing the
/// prediction while on keeps it.
fn forget<T: Real>() {
    let crate_shape = || Obb::new(Vector2::new(T::one(), T::one())).unwrap();
    let at = Isometry2::translation(T::zero(), T::lit(1.49));
    let (mut world, _floor, crate_) = resting::<T>(0.05);
    only(&mut world);
    assert!(only(&mut world).matched[..2].iter().all(Option::is_some));
    // Remove and insert again: the slot is reused with a new generation.
    world.remove(crate_).unwrap();
    let again = world.insert(crate_shape(), at, Filter::ALL).unwrap();
    assert_eq!(again.index(), crate_.index());
    let pm = only(&mut world);
    assert_eq!(pm.b, again);
    assert_eq!(pm.matched, [None; MAX_MANIFOLD_POINTS]);
    assert!(only(&mut world).matched[..2].iter().all(Option::is_some));
    // Replace the shape by an identical one.
    world.replace_shape(again, crate_shape()).unwrap();
    assert_eq!(only(&mut world).matched, [None; MAX_MANIFOLD_POINTS]);
    assert!(only(&mut world).matched[..2].iter().all(Option::is_some));
    // A new prediction keeps the history.
    world.set_manifolds(Some(T::lit(0.5))).unwrap();
    assert!(only(&mut world).matched[..2].iter().all(Option::is_some));
    // Off then on forgets it.
    world.set_manifolds(None).unwrap();
    assert!(world.last_collisions().manifolds.is_empty());
    assert!(world.collisions().manifolds.is_empty());
    world.set_manifolds(Some(T::lit(0.05))).unwrap();
    assert_eq!(only(&mut world).matched, [None; MAX_MANIFOLD_POINTS]);
    assert!(only(&mut world).matched[..2].iter().all(Option::is_some));
}
shape::for_each_precision!(history_is_forgotten, forget);

/// A NaN, infinite or negative prediction is refused and changes nothing.
fn bad_prediction<T: Real>() {
    let (mut world, _, crate_) = resting::<T>(0.05);
    let before = world.collisions().clone();
    for p in [
        T::nan(),
        T::infinity(),
        T::neg_infinity(),
        -T::one(),
        -T::min_positive_value(),
    ] {
        assert_eq!(
            world.set_manifolds(Some(p)),
            Err(WorldError::InvalidPrediction)
        );
        assert_eq!(world.manifold_prediction(), Some(T::lit(0.05)));
    }
    world.validate().unwrap();
    let after = world.collisions();
    assert_eq!(after.pairs, before.pairs);
    assert_eq!(after.manifolds.len(), 1);
    assert!(after.manifolds[0].matched[..2].iter().all(Option::is_some));
    // Still usable: off, a bad value while off, on again.
    world.set_manifolds(None).unwrap();
    assert!(world.set_manifolds(Some(T::nan())).is_err());
    assert_eq!(world.manifold_prediction(), None);
    world.set_manifolds(Some(T::zero())).unwrap();
    world
        .set_pose(crate_, Isometry2::translation(T::zero(), T::lit(1.4)))
        .unwrap();
    assert_eq!(world.collisions().manifolds.len(), 1);
    world.validate().unwrap();
}
shape::for_each_precision!(bad_prediction_is_refused, bad_prediction);

/// With manifolds off (the default) `manifolds` stays empty and the
/// prediction is `None`.
fn off_by_default<T: Real>() {
    let mut world = World::<T>::new(T::two()).unwrap();
    assert_eq!(world.manifold_prediction(), None);
    world
        .insert(
            Circle::new(T::one()).unwrap(),
            Isometry2::identity(),
            Filter::ALL,
        )
        .unwrap();
    world
        .insert(
            Circle::new(T::one()).unwrap(),
            Isometry2::translation(T::one(), T::zero()),
            Filter::ALL,
        )
        .unwrap();
    let c = world.collisions();
    assert_eq!(c.pairs.len(), 1);
    assert!(c.manifolds.is_empty());
}
shape::for_each_precision!(manifolds_are_off_by_default, off_by_default);

/// A user shape with no narrow phase (no kernel, no convex view).
#[derive(Debug, Clone, Copy)]
struct Opaque;

impl Shape<f64> for Opaque {
    fn kind(&self) -> ShapeKind {
        ShapeKind::custom(9)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn bounding_box(&self, pose: &Isometry2<f64>) -> shape::BoundingBox2<f64> {
        let c = nalgebra::Point2::from(pose.translation.vector);
        shape::BoundingBox2::new(c - Vector2::repeat(0.5), c + Vector2::repeat(0.5))
    }
}

/// A pair the narrow phase cannot answer is reported once in `errors` (its
/// contact's error), with manifolds on as off; the other pairs keep their
/// manifolds.
#[test]
fn unanswerable_pairs_are_reported_once() {
    let mut world = World::<f64>::new(2.0).unwrap();
    let circle = world
        .insert(
            Circle::new(1.0).unwrap(),
            Isometry2::identity(),
            Filter::ALL,
        )
        .unwrap();
    let opaque = world
        .insert(Opaque, Isometry2::translation(1.2, 0.0), Filter::ALL)
        .unwrap();
    let other = world
        .insert(
            Circle::new(1.0).unwrap(),
            Isometry2::translation(-2.1, 0.0),
            Filter::ALL,
        )
        .unwrap();
    let off = world.collisions().errors.clone();
    assert_eq!(off.len(), 1);
    assert_eq!((off[0].0, off[0].1), (circle, opaque));
    world.set_manifolds(Some(0.5)).unwrap();
    let on = world.collisions();
    assert_eq!(on.errors, off);
    assert_eq!(on.manifolds.len(), 1);
    assert_eq!((on.manifolds[0].a, on.manifolds[0].b), (circle, other));
    assert!(on.pairs.is_empty());
}

// ---------------------------------------------------------------------------
// 3D: spheres, cuboids and axis-aligned boxes.

mod dim3 {
    use super::*;
    use broadphase::World3;
    use nalgebra::{Isometry3, Vector3};
    use narrowphase::Manifold3;
    use narrowphase::dim3::DispatchTable3;
    use shape::{Aabb3, Cuboid, Shape3, Sphere};

    #[derive(Debug, Clone)]
    enum Spec3 {
        Sphere(f64),
        Cuboid([f64; 3]),
        Aabb3([f64; 3]),
    }

    fn spec3() -> impl Strategy<Value = Spec3> {
        let size = prop_oneof![4 => 0.1f64..3.0, 1 => 0.01f64..0.1, 1 => 3.0f64..10.0];
        prop_oneof![
            size.clone().prop_map(Spec3::Sphere),
            prop::array::uniform3(size.clone()).prop_map(Spec3::Cuboid),
            prop::array::uniform3(size).prop_map(Spec3::Aabb3),
        ]
    }

    fn pose3() -> impl Strategy<Value = [f64; 6]> {
        (
            prop::array::uniform3(-8.0f64..8.0),
            prop::array::uniform3(-3.2f64..3.2),
        )
            .prop_map(|(t, r)| [t[0], t[1], t[2], r[0], r[1], r[2]])
    }

    fn build3<T: Real>(s: &Spec3) -> Box<dyn Shape3<T>> {
        let v = |a: &[f64; 3]| Vector3::new(T::lit(a[0]), T::lit(a[1]), T::lit(a[2]));
        match s {
            Spec3::Sphere(r) => Box::new(Sphere::new(T::lit(*r)).unwrap()),
            Spec3::Cuboid(h) => Box::new(Cuboid::new(v(h)).unwrap()),
            Spec3::Aabb3(h) => Box::new(Aabb3::from_half_extents(v(h)).unwrap()),
        }
    }

    fn iso3<T: Real>(p: [f64; 6]) -> Isometry3<T> {
        Isometry3::new(
            Vector3::new(T::lit(p[0]), T::lit(p[1]), T::lit(p[2])),
            Vector3::new(T::lit(p[3]), T::lit(p[4]), T::lit(p[5])),
        )
    }

    fn ids3<T: Real>(m: &Manifold3<T>) -> Vec<FeatureId> {
        m.points().iter().map(|p| p.id).collect()
    }

    /// Brute force over every pair that passes the filters, by insertion
    /// order (the handles' order in a fresh world).
    fn brute_force3<T: Real>(
        objects: &[(Spec3, [f64; 6], Filter)],
        p: T,
    ) -> Vec<(usize, usize, Manifold3<T>)> {
        let table = DispatchTable3::<T>::new();
        let mut out = Vec::new();
        for i in 0..objects.len() {
            for j in i + 1..objects.len() {
                let (x, y) = (&objects[i], &objects[j]);
                if !x.2.accepts(&y.2) {
                    continue;
                }
                let (sa, sb) = (build3::<T>(&x.0), build3::<T>(&y.0));
                let m = table
                    .contact_manifold(
                        sa.as_ref(),
                        &iso3::<T>(x.1),
                        sb.as_ref(),
                        &iso3::<T>(y.1),
                        p,
                    )
                    .expect("built-in 3D pairs have a manifold kernel");
                if let Some(m) = m {
                    out.push((i, j, m));
                }
            }
        }
        out
    }

    /// Brute force in a scene, then after every object moved a little, with
    /// the matches of the second query against the first's ids; the contact
    /// pairs equal those of a world with manifolds off.
    fn scene3_prop<T: Real>(
        mut scene: Vec<(Spec3, [f64; 6], Filter)>,
        nudge: [f64; 6],
        cell: f64,
        p: f64,
    ) -> Result<(), TestCaseError> {
        let mut world = World3::<T>::new(T::lit(cell)).unwrap();
        let mut twin = World3::<T>::new(T::lit(cell)).unwrap();
        world.set_manifolds(Some(T::lit(p))).unwrap();
        let mut handles = Vec::new();
        let mut twins = Vec::new();
        for (s, q, f) in &scene {
            handles.push(
                world
                    .insert_boxed(build3::<T>(s), iso3::<T>(*q), *f)
                    .unwrap(),
            );
            twins.push(
                twin.insert_boxed(build3::<T>(s), iso3::<T>(*q), *f)
                    .unwrap(),
            );
        }
        let mut previous: HashMap<(Handle, Handle), Vec<FeatureId>> = HashMap::new();
        for round in 0..2 {
            if round == 1 {
                for (k, (_, q, _)) in scene.iter_mut().enumerate() {
                    for (c, d) in q.iter_mut().zip(nudge) {
                        *c += d;
                    }
                    world.set_pose(handles[k], iso3::<T>(*q)).unwrap();
                    twin.set_pose(twins[k], iso3::<T>(*q)).unwrap();
                }
            }
            world.validate().unwrap();
            let got = world.collisions().clone();
            let plain = twin.collisions();
            prop_assert!(got.errors.is_empty());
            prop_assert_eq!(got.pairs.len(), plain.pairs.len());
            for (x, y) in got.pairs.iter().zip(&plain.pairs) {
                prop_assert_eq!((x.a.index(), x.b.index()), (y.a.index(), y.b.index()));
                prop_assert_eq!(x.contact, y.contact);
            }
            let want: Vec<_> = brute_force3::<T>(&scene, T::lit(p))
                .into_iter()
                .map(|(i, j, m)| (handles[i], handles[j], m))
                .collect();
            let have: Vec<_> = got
                .manifolds
                .iter()
                .map(|m| (m.a, m.b, m.manifold))
                .collect();
            prop_assert_eq!(&have, &want);
            for pm in &got.manifolds {
                let mut e = [None; MAX_MANIFOLD_POINTS];
                if let Some(prev) = previous.get(&(pm.a, pm.b)) {
                    for (o, q) in e.iter_mut().zip(pm.manifold.points()) {
                        *o = prev.iter().position(|id| *id == q.id).map(|k| k as u8);
                    }
                }
                prop_assert_eq!(pm.matched, e);
            }
            previous = got
                .manifolds
                .iter()
                .map(|m| ((m.a, m.b), ids3(&m.manifold)))
                .collect();
        }
        Ok(())
    }

    fn filter3() -> impl Strategy<Value = Filter> {
        prop_oneof![3 => Just(Filter::ALL), 1 => Just(Filter::new(2, !2))]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: shape::testing::cases(64), ..ProptestConfig::default() })]
        #[test]
        fn scenes3_f32(
            s in prop::collection::vec((spec3(), pose3(), filter3()), 0..20),
            n in (prop::array::uniform3(-0.05f64..0.05), prop::array::uniform3(-0.02f64..0.02)),
            c in prop_oneof![0.2f64..2.0, 2.0f64..40.0],
            p in prediction(),
        ) {
            scene3_prop::<f32>(s, [n.0[0], n.0[1], n.0[2], n.1[0], n.1[1], n.1[2]], c, p)?;
        }
        #[test]
        fn scenes3_f64(
            s in prop::collection::vec((spec3(), pose3(), filter3()), 0..20),
            n in (prop::array::uniform3(-0.05f64..0.05), prop::array::uniform3(-0.02f64..0.02)),
            c in prop_oneof![0.2f64..2.0, 2.0f64..40.0],
            p in prediction(),
        ) {
            scene3_prop::<f64>(s, [n.0[0], n.0[1], n.0[2], n.1[0], n.1[1], n.1[2]], c, p)?;
        }
    }

    /// A unit cube resting on a slab, sunk by 0.01, slid by tiny
    /// translations: every point stays matched to a point of the same
    /// features.
    fn resting3<T: Real>() {
        let mut world = World3::<T>::new(T::two()).unwrap();
        let slab = world
            .insert(
                Cuboid::new(Vector3::new(T::lit(5.0), T::lit(5.0), T::half())).unwrap(),
                Isometry3::identity(),
                Filter::ALL,
            )
            .unwrap();
        let cube = world
            .insert(
                Cuboid::new(Vector3::new(T::half(), T::half(), T::half())).unwrap(),
                Isometry3::translation(T::zero(), T::zero(), T::lit(0.99)),
                Filter::ALL,
            )
            .unwrap();
        world.set_manifolds(Some(T::lit(0.05))).unwrap();
        let first = world.collisions().manifolds.clone();
        assert_eq!(first.len(), 1);
        assert_eq!((first[0].a, first[0].b), (slab, cube));
        assert_eq!(first[0].matched, [None; MAX_MANIFOLD_POINTS]);
        for k in 0..50 {
            let t = T::lit(1e-3 * f64::from(k % 7) - 3e-3);
            world
                .set_pose(
                    cube,
                    Isometry3::translation(t, -t, T::lit(0.99) + t * T::lit(0.1)),
                )
                .unwrap();
            let now = world.collisions().manifolds.clone();
            assert_eq!(now.len(), 1);
            let pm = now[0];
            for (i, _) in pm.manifold.points().iter().enumerate() {
                assert!(pm.matched[i].is_some(), "{pm:?}");
            }
        }
        // Replacing the cube's shape forgets its history.
        world
            .replace_shape(
                cube,
                Cuboid::new(Vector3::new(T::half(), T::half(), T::half())).unwrap(),
            )
            .unwrap();
        assert_eq!(
            world.collisions().manifolds[0].matched,
            [None; MAX_MANIFOLD_POINTS]
        );
    }
    shape::for_each_precision!(resting_cube_keeps_matches, resting3);

    /// Two unit spheres 1.5 apart in 2-cells: a speculative manifold with a
    /// prediction of 2, none with 1.
    fn speculative3<T: Real>() {
        let mut world = World3::<T>::new(T::two()).unwrap();
        world
            .insert(
                Sphere::new(T::one()).unwrap(),
                Isometry3::identity(),
                Filter::ALL,
            )
            .unwrap();
        world
            .insert(
                Sphere::new(T::one()).unwrap(),
                Isometry3::translation(T::lit(2.5), T::lit(2.0), T::zero()),
                Filter::ALL,
            )
            .unwrap();
        world.set_manifolds(Some(T::two())).unwrap();
        let c = world.collisions();
        assert!(c.pairs.is_empty());
        assert_eq!(c.manifolds.len(), 1);
        let s = c.manifolds[0].manifold.points()[0].separation;
        let want = (2.5f64 * 2.5 + 4.0).sqrt() - 2.0;
        assert!(close(s, T::lit(want), 1e-5), "{s:?}");
        world.set_manifolds(Some(T::one())).unwrap();
        assert!(world.collisions().manifolds.is_empty());
        world.validate().unwrap();
        assert_eq!(
            world.set_manifolds(Some(T::nan())),
            Err(WorldError::InvalidPrediction)
        );
        assert_eq!(world.manifold_prediction(), Some(T::one()));
    }
    shape::for_each_precision!(speculative_spheres, speculative3);
}
