//! The 2D world against brute force and against a reference model, f32 and
//! f64: colliding pairs equal the narrow phase over all nC2 pairs; random
//! operation sequences with invalid inputs mixed in keep the world consistent;
//! events are the difference of consecutive pair sets; seed 003's statistics.

use crate::common;

use broadphase::{Filter, Handle, World, WorldError};
use common::*;
use nalgebra::{Isometry2, Point2, Vector2};
use narrowphase::DispatchTable;
use proptest::prelude::*;
use shape::BoundingBox2;
use shape::prelude::*;

fn scene() -> impl Strategy<Value = Vec<(Spec, [f64; 3])>> {
    prop::collection::vec(
        (
            spec(),
            prop_oneof![3 => pose(20.0), 1 => (pose(5.0)).prop_map(|p| [p[0] - 1e5, p[1] + 1e5, p[2]])],
        ),
        0..40,
    )
}

/// Shapes placed at poses.
type Placed<T> = (Box<dyn Shape<T>>, Isometry2<T>);

/// Brute force: every pair through the same dispatch table, sorted by index.
fn brute_force<T: Real>(objects: &[Placed<T>]) -> Vec<(usize, usize)> {
    let table = DispatchTable::<T>::new();
    let mut v = Vec::new();
    for i in 0..objects.len() {
        for j in i + 1..objects.len() {
            let (a, pa) = &objects[i];
            let (b, pb) = &objects[j];
            if table.intersects(a.as_ref(), pa, b.as_ref(), pb).unwrap() {
                v.push((i, j));
            }
        }
    }
    v
}

fn scene_prop<T: Real>(scene: Vec<(Spec, [f64; 3])>, cell: f64) -> Result<(), TestCaseError> {
    let mut world = World::<T>::new(T::lit(cell)).unwrap();
    let objects: Vec<Placed<T>> = scene
        .iter()
        .map(|(s, p)| (build::<T>(s), iso::<T>(*p)))
        .collect();
    let mut handles = Vec::new();
    for (s, p) in &scene {
        handles.push(
            world
                .insert_boxed(build::<T>(s), iso::<T>(*p), Filter::ALL)
                .unwrap(),
        );
    }
    world.validate().unwrap();
    let got = world.collisions();
    prop_assert!(got.errors.is_empty());
    let want: Vec<(Handle, Handle)> = brute_force(&objects)
        .into_iter()
        .map(|(i, j)| (handles[i], handles[j]))
        .collect();
    let pairs: Vec<(Handle, Handle)> = got.pairs.iter().map(|p| (p.a, p.b)).collect();
    prop_assert_eq!(&pairs, &want);
    prop_assert_eq!(&got.started, &want);
    prop_assert!(got.stopped.is_empty());
    let n = scene.len() as u64;
    prop_assert_eq!(got.stats.all_pairs, n * n.saturating_sub(1) / 2);
    prop_assert!(got.stats.candidate_pairs >= got.stats.colliding_pairs);
    // Contacts equal the table's answer for the same pair.
    let table = DispatchTable::<T>::new();
    for p in &got.pairs {
        let (i, j) = (p.a.index() as usize, p.b.index() as usize);
        let c = table
            .contact(
                objects[i].0.as_ref(),
                &objects[i].1,
                objects[j].0.as_ref(),
                &objects[j].1,
            )
            .unwrap();
        prop_assert_eq!(Some(p.contact), c);
    }
    // Point and region queries agree with testing every object.
    let probe = Point2::new(T::lit(0.5), T::lit(-0.25));
    let (hits, errors) = world.query_point(&probe);
    prop_assert!(errors.is_empty());
    let want: Vec<Handle> = objects
        .iter()
        .zip(&handles)
        .filter(|((s, p), _)| {
            table
                .intersects(
                    &Point::origin(),
                    &Isometry2::translation(probe.x, probe.y),
                    s.as_ref(),
                    p,
                )
                .unwrap()
        })
        .map(|(_, h)| *h)
        .collect();
    prop_assert_eq!(hits, want);
    let region = BoundingBox2::new(
        Point2::new(T::lit(-3.0), T::lit(-2.0)),
        Point2::new(T::lit(4.0), T::lit(1.0)),
    );
    let (hits, _) = world.query_region(&region);
    let boxy = Aabb::new(region.min, region.max).unwrap();
    let want: Vec<Handle> = objects
        .iter()
        .zip(&handles)
        .filter(|((s, p), _)| {
            table
                .intersects(&boxy, &Isometry2::identity(), s.as_ref(), p)
                .unwrap()
        })
        .map(|(_, h)| *h)
        .collect();
    prop_assert_eq!(hits, want);
    Ok(())
}

#[derive(Debug, Clone)]
enum Op {
    Insert(Spec, [f64; 3]),
    Move(usize, [f64; 3]),
    /// One `set_poses` call: the moves (an object may come twice), and
    /// maybe a bad move (0: a removed handle, 1: a NaN pose, 2: another
    /// world's handle) inserted at a position, which must leave the world
    /// unchanged.
    MoveMany(Vec<(usize, [f64; 3])>, Option<(usize, u8)>),
    Replace(usize, Spec),
    Remove(usize),
    UseStale(usize),
    NanPose(usize),
    Query,
}

fn ops() -> impl Strategy<Value = Vec<Op>> {
    prop::collection::vec(
        prop_oneof![
            4 => (spec(), pose(10.0)).prop_map(|(s, p)| Op::Insert(s, p)),
            4 => (any::<usize>(), pose(10.0)).prop_map(|(i, p)| Op::Move(i, p)),
            2 => (
                prop::collection::vec((any::<usize>(), pose(10.0)), 0..8),
                prop::option::of((any::<usize>(), 0u8..3)),
            )
                .prop_map(|(m, bad)| Op::MoveMany(m, bad)),
            1 => (any::<usize>(), spec()).prop_map(|(i, s)| Op::Replace(i, s)),
            2 => any::<usize>().prop_map(Op::Remove),
            1 => any::<usize>().prop_map(Op::UseStale),
            1 => any::<usize>().prop_map(Op::NanPose),
            2 => Just(Op::Query),
        ],
        1..40,
    )
}

fn model_prop<T: Real>(ops: Vec<Op>, cell: f64) -> Result<(), TestCaseError> {
    let mut world = World::<T>::new(T::lit(cell)).unwrap();
    let other = World::<T>::new(T::one()).unwrap();
    // The model: live objects in insertion order, and removed handles.
    let mut live: Vec<(Handle, Spec, [f64; 3])> = Vec::new();
    let mut dead: Vec<Handle> = Vec::new();
    let mut previous: Vec<(Handle, Handle)> = Vec::new();
    for op in ops {
        match op {
            Op::Insert(s, p) => {
                let h = world
                    .insert_boxed(build::<T>(&s), iso::<T>(p), Filter::ALL)
                    .unwrap();
                prop_assert!(!live.iter().any(|(x, _, _)| *x == h) && !dead.contains(&h));
                live.push((h, s, p));
            }
            Op::Move(i, p) if !live.is_empty() => {
                let k = i % live.len();
                world.set_pose(live[k].0, iso::<T>(p)).unwrap();
                live[k].2 = p;
            }
            Op::MoveMany(moves, bad) if !live.is_empty() => {
                let mut batch: Vec<(Handle, Isometry2<T>)> = moves
                    .iter()
                    .map(|(i, p)| (live[i % live.len()].0, iso::<T>(*p)))
                    .collect();
                let bad = bad.and_then(|(at, which)| {
                    let at = at % (batch.len() + 1);
                    let h = live[at % live.len()].0;
                    let nan = Isometry2::new(Vector2::new(T::nan(), T::zero()), T::zero());
                    match which {
                        0 => dead
                            .first()
                            .map(|d| (at, (*d, iso::<T>([0.0; 3])), WorldError::StaleHandle(*d))),
                        1 => Some((at, (h, nan), WorldError::NonFinitePose)),
                        _ => {
                            let mut foreign = World::<T>::new(T::one()).unwrap();
                            let f = foreign
                                .insert(
                                    Circle::new(T::one()).unwrap(),
                                    Isometry2::identity(),
                                    Filter::ALL,
                                )
                                .unwrap();
                            Some((at, (f, iso::<T>([0.0; 3])), WorldError::ForeignHandle(f)))
                        }
                    }
                });
                match bad {
                    Some((at, m, e)) => {
                        batch.insert(at, m);
                        prop_assert_eq!(world.set_poses(batch.iter().copied()), Err(e));
                    }
                    None => {
                        world.set_poses(batch.iter().copied()).unwrap();
                        for (i, p) in &moves {
                            let k = i % live.len();
                            live[k].2 = *p;
                        }
                    }
                }
            }
            Op::Replace(i, s) if !live.is_empty() => {
                let k = i % live.len();
                world
                    .replace_shape_boxed(live[k].0, build::<T>(&s))
                    .unwrap();
                live[k].1 = s;
            }
            Op::Remove(i) if !live.is_empty() => {
                let (h, _, _) = live.remove(i % live.len());
                world.remove(h).unwrap();
                dead.push(h);
            }
            Op::UseStale(i) if !dead.is_empty() => {
                let h = dead[i % dead.len()];
                prop_assert_eq!(world.remove(h).unwrap_err(), WorldError::StaleHandle(h));
                prop_assert!(world.set_pose(h, Isometry2::identity()).is_err());
                prop_assert!(world.get(h).is_err());
            }
            Op::NanPose(i) => {
                let bad = Isometry2::new(Vector2::new(T::nan(), T::zero()), T::zero());
                if !live.is_empty() {
                    let h = live[i % live.len()].0;
                    prop_assert_eq!(
                        world.set_pose(h, bad).unwrap_err(),
                        WorldError::NonFinitePose
                    );
                }
                prop_assert_eq!(
                    world
                        .insert(Circle::new(T::one()).unwrap(), bad, Filter::ALL)
                        .unwrap_err(),
                    WorldError::NonFinitePose
                );
                let inf = Isometry2::new(Vector2::new(T::zero(), T::infinity()), T::zero());
                prop_assert!(
                    world
                        .insert(Circle::new(T::one()).unwrap(), inf, Filter::ALL)
                        .is_err()
                );
            }
            Op::Query => {
                let objects: Vec<Placed<T>> = live
                    .iter()
                    .map(|(_, s, p)| (build::<T>(s), iso::<T>(*p)))
                    .collect();
                let mut want: Vec<(Handle, Handle)> = brute_force(&objects)
                    .into_iter()
                    .map(|(i, j)| {
                        let (a, b) = (live[i].0, live[j].0);
                        if a < b { (a, b) } else { (b, a) }
                    })
                    .collect();
                want.sort();
                let got = world.collisions();
                let pairs: Vec<(Handle, Handle)> = got.pairs.iter().map(|p| (p.a, p.b)).collect();
                prop_assert_eq!(&pairs, &want);
                let started: Vec<_> = want
                    .iter()
                    .filter(|p| !previous.contains(p))
                    .copied()
                    .collect();
                let stopped: Vec<_> = previous
                    .iter()
                    .filter(|p| !want.contains(p))
                    .copied()
                    .collect();
                prop_assert_eq!(&got.started, &started);
                prop_assert_eq!(&got.stopped, &stopped);
                previous = want;
            }
            _ => {}
        }
        // After every operation: no lost object, no phantom, consistent grid.
        world
            .validate()
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(world.len(), live.len());
        for (h, _, p) in &live {
            prop_assert_eq!(*world.get(*h).unwrap().pose(), iso::<T>(*p));
        }
        let mut handles: Vec<Handle> = live.iter().map(|(h, _, _)| *h).collect();
        handles.sort_by_key(|h| h.index());
        prop_assert_eq!(world.handles().collect::<Vec<_>>(), handles);
        if let Some((h, _, _)) = live.first() {
            prop_assert!(matches!(other.get(*h), Err(WorldError::ForeignHandle(_))));
        }
    }
    Ok(())
}

fn cell() -> impl Strategy<Value = f64> {
    prop_oneof![0.1f64..1.0, 1.0f64..10.0, 10.0f64..200.0]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: shape::testing::cases(128), ..ProptestConfig::default() })]
    #[test]
    fn scenes_f32(s in scene(), c in cell()) { scene_prop::<f32>(s, c)?; }
    #[test]
    fn scenes_f64(s in scene(), c in cell()) { scene_prop::<f64>(s, c)?; }
    #[test]
    fn model_f32(o in ops(), c in cell()) { model_prop::<f32>(o, c)?; }
    #[test]
    fn model_f64(o in ops(), c in cell()) { model_prop::<f64>(o, c)?; }
}

/// A whole frame's moves through `set_poses` give the world `set_pose` one
/// by one gives: the same poses, pairs, events and a valid grid, frame
/// after frame, for batches large enough for the parallel path (with the
/// `rayon` feature) in handle order, in a shuffled order with repeats
/// (the serial path), and with objects jumping out of their fat boxes. A
/// bad move deep in a large batch changes nothing.
fn bulk_moves<T: Real>() {
    let n = 6000;
    let side = (n as f64).sqrt() * 1.2;
    let mut rng = 0x9E37_79B9_7F4A_7C15_u64;
    let mut unit = || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng >> 11) as f64 / (1u64 << 53) as f64
    };
    let specs: Vec<Spec> = (0..n)
        .map(|i| match i % 3 {
            0 => Spec::Circle(0.3 + 0.4 * unit()),
            1 => Spec::Obb(0.2 + 0.5 * unit(), 0.2 + 0.5 * unit()),
            _ => Spec::Triangle([[0.0, 0.0], [0.8, 0.1], [0.2, 0.7]]),
        })
        .collect();
    let mut poses: Vec<[f64; 3]> = (0..n)
        .map(|_| [side * unit(), side * unit(), 6.0 * unit()])
        .collect();
    let (mut one, mut bulk) = (
        World::<T>::new(T::lit(1.5)).unwrap(),
        World::<T>::new(T::lit(1.5)).unwrap(),
    );
    let mut handles = Vec::new();
    for (s, p) in specs.iter().zip(&poses) {
        let a = one
            .insert_boxed(build::<T>(s), iso::<T>(*p), Filter::ALL)
            .unwrap();
        let b = bulk
            .insert_boxed(build::<T>(s), iso::<T>(*p), Filter::ALL)
            .unwrap();
        assert_eq!(a.index(), b.index());
        handles.push((a, b));
    }
    for frame in 0..6 {
        let mut moves: Vec<(usize, [f64; 3])> = Vec::new();
        for (i, p) in poses.iter_mut().enumerate() {
            // Most objects jitter; one in twenty jumps far.
            let jump = if unit() < 0.05 { 8.0 } else { 0.1 };
            p[0] += jump * (unit() - 0.5);
            p[1] += jump * (unit() - 0.5);
            p[2] += 0.2 * (unit() - 0.5);
            moves.push((i, *p));
        }
        if frame % 2 == 1 {
            // Shuffled, and some objects listed twice (an earlier pose,
            // then their final one later).
            for k in (1..moves.len()).rev() {
                let j = (unit() * (k + 1) as f64) as usize % (k + 1);
                moves.swap(k, j);
            }
            for k in 0..50 {
                let (i, p) = moves[k];
                moves.insert(0, (i, [p[0] + 3.0, p[1], p[2]]));
            }
        }
        for (i, p) in &moves {
            one.set_pose(handles[*i].0, iso::<T>(*p)).unwrap();
        }
        bulk.set_poses(moves.iter().map(|(i, p)| (handles[*i].1, iso::<T>(*p))))
            .unwrap();
        if frame == 4 {
            // A NaN pose near the end of a large batch in handle order.
            let mut bad: Vec<(Handle, Isometry2<T>)> = handles
                .iter()
                .zip(&poses)
                .map(|((_, h), p)| (*h, iso::<T>([p[0] + 1.0, p[1], p[2]])))
                .collect();
            bad[n - 10].1 = Isometry2::new(Vector2::new(T::zero(), T::nan()), T::zero());
            assert_eq!(bulk.set_poses(bad), Err(WorldError::NonFinitePose));
        }
        bulk.validate().unwrap();
        for ((a, b), p) in handles.iter().zip(&poses) {
            assert_eq!(*one.get(*a).unwrap().pose(), iso::<T>(*p));
            assert_eq!(*bulk.get(*b).unwrap().pose(), iso::<T>(*p));
        }
        let index = |v: &[(Handle, Handle)]| -> Vec<(u32, u32)> {
            v.iter().map(|(x, y)| (x.index(), y.index())).collect()
        };
        let (x, y) = (one.collisions().clone(), bulk.collisions());
        let pairs = |c: &broadphase::world::Collisions<_, _>| -> Vec<(u32, u32)> {
            c.pairs.iter().map(|p| (p.a.index(), p.b.index())).collect()
        };
        assert!(!x.pairs.is_empty());
        assert_eq!(pairs(&x), pairs(y), "frame {frame}");
        assert_eq!(index(&x.started), index(&y.started), "frame {frame}");
        assert_eq!(index(&x.stopped), index(&y.stopped), "frame {frame}");
    }
}

#[test]
fn bulk_moves_f32() {
    bulk_moves::<f32>();
}

#[test]
fn bulk_moves_f64() {
    bulk_moves::<f64>();
}

/// Bullets ignore bullets; the player is hit by both.
fn filters<T: Real>() {
    const PLAYER: u32 = 1;
    const BULLET: u32 = 2;
    let mut world = World::<T>::new(T::one()).unwrap();
    let c = || Circle::new(T::one()).unwrap();
    let p = world
        .insert(c(), Isometry2::identity(), Filter::new(PLAYER, u32::MAX))
        .unwrap();
    let b1 = world
        .insert(
            c(),
            Isometry2::translation(T::half(), T::zero()),
            Filter::new(BULLET, !BULLET),
        )
        .unwrap();
    let b2 = world
        .insert(
            c(),
            Isometry2::translation(T::one(), T::zero()),
            Filter::new(BULLET, !BULLET),
        )
        .unwrap();
    let hits = world.collisions();
    let pairs: Vec<_> = hits.pairs.iter().map(|x| (x.a, x.b)).collect();
    assert_eq!(pairs, vec![(p, b1), (p, b2)]);
    assert_eq!(hits.stats.candidate_pairs, 3);
    assert_eq!(hits.stats.filtered_pairs, 2);
    assert_eq!(world.candidate_pairs(), vec![(p, b1), (p, b2)]);
    world.set_filter(b2, Filter::new(BULLET, 0)).unwrap();
    assert_eq!(world.collisions().pairs.len(), 1);
}
shape::for_each_precision!(filters, filters);

/// Seed 003: 500 objects in 10 clusters of 50 report nC2 = 124,750 and at most
/// about 10 × 50C2 = 12,250 candidate pairs.
#[test]
fn seed_003_statistics() {
    let mut world = World::<f64>::new(2.0).unwrap();
    for c in 0..10 {
        for k in 0..50 {
            let (x, y) = (
                500.0 * f64::from(c) + f64::from(k % 7) * 1.3,
                f64::from(k / 7) * 1.3,
            );
            world
                .insert(
                    Circle::new(0.75).unwrap(),
                    Isometry2::translation(x, y),
                    Filter::ALL,
                )
                .unwrap();
        }
    }
    let hits = world.collisions();
    assert_eq!(hits.stats.objects, 500);
    assert_eq!(hits.stats.all_pairs, 124_750);
    assert!(hits.stats.candidate_pairs <= 12_250, "{:?}", hits.stats);
    assert!(
        hits.stats.colliding_pairs > 0 && hits.stats.colliding_pairs <= hits.stats.candidate_pairs
    );
    assert!(
        hits.pairs
            .iter()
            .all(|p| p.a.index() / 50 == p.b.index() / 50)
    );
}

/// A user shape a quarter of the float range wide, with no narrow phase.
#[derive(Debug, Clone, Copy)]
struct Huge;

impl Shape<f64> for Huge {
    fn kind(&self) -> ShapeKind {
        ShapeKind::custom(7)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn bounding_box(&self, pose: &Isometry2<f64>) -> BoundingBox2<f64> {
        let h = Vector2::repeat(f64::MAX / 4.0);
        let c = Point2::from(pose.translation.vector);
        BoundingBox2::new(c - h, c + h)
    }
}

#[test]
fn errors_leave_the_world_unchanged() {
    let mut world = World::<f64>::new(1.0).unwrap();
    assert!(World::<f64>::new(0.0).is_err());
    assert!(World::<f64>::new(f64::NAN).is_err());
    let h = world
        .insert(
            Circle::new(1.0).unwrap(),
            Isometry2::identity(),
            Filter::ALL,
        )
        .unwrap();
    // A user shape whose bounding box overflows at this pose (a built-in
    // shape cannot: its size is at most `max_size`, far below the float
    // spacing near MAX).
    assert!(Circle::new(f64::MAX).is_err());
    let huge = Huge;
    assert_eq!(
        world
            .insert(huge, Isometry2::translation(f64::MAX, 0.0), Filter::ALL)
            .unwrap_err(),
        WorldError::NonFiniteBounds
    );
    // At the origin its box is finite; moved far out it is not, and the move is refused.
    world.replace_shape(h, huge).unwrap();
    assert_eq!(
        world
            .set_pose(h, Isometry2::translation(f64::MAX, 0.0))
            .unwrap_err(),
        WorldError::NonFiniteBounds
    );
    assert_eq!(*world.get(h).unwrap().pose(), Isometry2::identity());
    world.validate().unwrap();
    let removed = world.remove(h).unwrap();
    assert!(removed.as_any().is::<Huge>());
    assert_eq!(world.remove(h).unwrap_err(), WorldError::StaleHandle(h));
    let again = world
        .insert(
            Circle::new(1.0).unwrap(),
            Isometry2::identity(),
            Filter::ALL,
        )
        .unwrap();
    assert_eq!(again.index(), h.index());
    assert_ne!(again, h);
    assert!(world.get(h).is_err() && world.get(again).is_ok());
    world.validate().unwrap();
}

/// A game entity that reports the circle kind and lends its body to the
/// circle kernels.
#[derive(Debug)]
struct Enemy {
    body: Circle<f64>,
}

impl Shape<f64> for Enemy {
    fn kind(&self) -> ShapeKind {
        ShapeKind::CIRCLE
    }
    fn as_any(&self) -> &dyn std::any::Any {
        &self.body
    }
    fn bounding_box(&self, pose: &Isometry2<f64>) -> BoundingBox2<f64> {
        self.body.bounding_box(pose)
    }
}

/// The world keeps built-in shapes by value and everything else boxed: what
/// comes back out (`get`, `replace_shape`, `remove`) is what went in, with its
/// own type, and a wrapper of a built-in shape is never turned into it.
#[test]
fn shapes_come_back_as_inserted() {
    let mut world = World::<f64>::new(2.0).unwrap();
    let enemy = Enemy {
        body: Circle::new(1.0).unwrap(),
    };
    let e = world
        .insert(enemy, Isometry2::identity(), Filter::ALL)
        .unwrap();
    let c = world
        .insert(
            Circle::new(0.5).unwrap(),
            Isometry2::translation(1.25, 0.0),
            Filter::ALL,
        )
        .unwrap();
    let p = world
        .insert(
            ConvexPolygon::new(&[
                Point2::new(-1.0, -1.0),
                Point2::new(1.0, -1.0),
                Point2::new(0.0, 1.0),
            ])
            .unwrap(),
            Isometry2::translation(0.0, 1.5),
            Filter::ALL,
        )
        .unwrap();
    // Both kinds of storage take part in the narrow phase alike.
    let hits = world.collisions();
    let found: Vec<_> = hits.pairs.iter().map(|x| (x.a, x.b)).collect();
    assert_eq!(found, vec![(e, c), (e, p)]);
    let shape = world.get(e).unwrap().shape();
    assert_eq!(shape.kind(), ShapeKind::CIRCLE);
    assert_eq!(
        std::any::Any::type_id(shape),
        std::any::TypeId::of::<Enemy>()
    );
    let circle = world.get(c).unwrap().shape();
    assert_eq!(
        circle
            .as_any()
            .downcast_ref::<Circle<f64>>()
            .unwrap()
            .radius(),
        0.5
    );
    let old = world.replace_shape(c, Circle::new(0.25).unwrap()).unwrap();
    assert_eq!(
        old.as_any().downcast_ref::<Circle<f64>>().unwrap().radius(),
        0.5
    );
    let polygon = world.remove(p).unwrap();
    assert_eq!(
        polygon
            .as_any()
            .downcast_ref::<ConvexPolygon<f64>>()
            .unwrap()
            .vertices()
            .len(),
        3
    );
    let back = world.remove(e).unwrap();
    assert_eq!(
        std::any::Any::type_id(&*back),
        std::any::TypeId::of::<Enemy>()
    );
    world.validate().unwrap();
}
