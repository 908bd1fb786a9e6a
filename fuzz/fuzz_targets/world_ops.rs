//! The world: a sequence of operations on `World<f32>` and `World<f64>`
//! (and a shorter one on `World3<f32>` / `World3<f64>`): insert shapes built
//! from hostile numbers at hostile poses, set_pose, replace_shape,
//! set_filter, remove, stale and foreign handles, set_cell_size (zero,
//! negative, NaN, ∞, subnormal included), auto_cell_size, collisions(),
//! candidate_pairs(), query_region and query_point with hostile numbers.
//! After every operation `validate()` holds and the world holds exactly the
//! live handles of a simple model. Errors are the expected `WorldError`s
//! (stale, foreign, non-finite pose or bounds, grid) and leave the world
//! unchanged (every object's pose, box and filter, and the cell size).
//! Collisions are sorted, between live objects whose filters accept each
//! other, with finite contacts (unit normal, depth ≥ 0), no `Unsupported`
//! dispatch error (pairs refused as out of range are listed as errors),
//! and `started`/`stopped` follow from the previous answer; candidate pairs
//! have overlapping grid boxes; queries return live objects only (refusals
//! as typed errors), and a region query every object whose bounding box lies
//! inside the region shrunk by 64 ε of its largest coordinate (found or
//! refused).
#![no_main]

use arbitrary::Arbitrary;
use broadphase::{Filter, GridError, Handle, World, World3, WorldError};
use kasanari_fuzz::{
    Num, RawPose, RawPose3, RawShape, RawShape3, allowed_for_builtins, check_contact,
    check_contact3,
};
use libfuzzer_sys::fuzz_target;
use nalgebra::{Point2, Point3};
use num_traits::Float;
use shape::{BoundingBox, Real};

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Sel {
    Live(u8),
    Dead(u8),
    Foreign,
}

#[derive(Arbitrary, Debug)]
enum Op {
    Insert(RawShape, RawPose, u32, u32),
    SetPose(Sel, RawPose),
    Replace(Sel, RawShape),
    SetFilter(Sel, u32, u32),
    Remove(Sel),
    SetCellSize(Num),
    AutoCellSize,
    Collisions,
    CandidatePairs,
    QueryRegion([Num; 2], [Num; 2]),
    QueryPoint([Num; 2]),
}

#[derive(Arbitrary, Debug)]
enum Op3 {
    Insert(RawShape3, RawPose3),
    SetPose(Sel, RawPose3),
    Remove(Sel),
    SetCellSize(Num),
    Collisions,
    QueryRegion([Num; 3], [Num; 3]),
    QueryPoint([Num; 3]),
}

#[derive(Arbitrary, Debug)]
struct Input {
    cell: Num,
    ops: Vec<Op>,
    ops3: Vec<Op3>,
}

/// The model: live and removed handles, a handle of another world, and the
/// previous colliding pairs.
struct Model {
    live: Vec<Handle>,
    dead: Vec<Handle>,
    foreign: Handle,
    previous: Vec<(Handle, Handle)>,
}

impl Model {
    fn pick(&self, s: Sel) -> Option<(Handle, Expect)> {
        match s {
            Sel::Live(i) if !self.live.is_empty() => {
                Some((self.live[usize::from(i) % self.live.len()], Expect::Live))
            }
            Sel::Dead(i) if !self.dead.is_empty() => {
                let h = self.dead[usize::from(i) % self.dead.len()];
                Some((h, Expect::Err(WorldError::StaleHandle(h))))
            }
            Sel::Foreign => Some((
                self.foreign,
                Expect::Err(WorldError::ForeignHandle(self.foreign)),
            )),
            _ => None,
        }
    }

    fn check_len(&self, len: usize, handles: impl Iterator<Item = Handle>) {
        assert_eq!(len, self.live.len(), "len differs from the model");
        let mut h: Vec<Handle> = handles.collect();
        let mut l = self.live.clone();
        h.sort();
        l.sort();
        assert_eq!(h, l, "handles differ from the model");
    }
}

enum Expect {
    Live,
    Err(WorldError),
}

fn is_finite<T: Real>(v: &[T]) -> bool {
    v.iter().all(|x| Float::is_finite(*x))
}

/// Every object's pose, box and filter, and the cell size (2D).
fn snapshot2<T: Real>(
    w: &World<T>,
) -> (
    Vec<(Handle, nalgebra::Isometry2<T>, BoundingBox<T, 2>, Filter)>,
    T,
) {
    let objects = w
        .handles()
        .map(|h| {
            let o = w.get(h).unwrap();
            (h, *o.pose(), o.shape().bounding_box(o.pose()), o.filter())
        })
        .collect();
    (objects, w.grid().cell_size())
}

fn snapshot3<T: Real>(w: &World3<T>) -> (Vec<(Handle, nalgebra::Isometry3<T>)>, T) {
    let objects = w
        .handles()
        .map(|h| (h, *w.get(h).unwrap().pose()))
        .collect();
    (objects, w.grid().cell_size())
}

/// The region shrunk by 64 ε of its largest coordinate on every side: an
/// object whose box lies in it must be found by a region query. (On the
/// region's exact boundary the query may miss, since it rebuilds the region
/// from a rounded centre and half extents: an open issue, reproduced by
/// fuzz/regressions/world_ops-region-corner-miss-3d.bin.)
fn shrunk<T: Real, const D: usize>(r: &BoundingBox<T, D>) -> BoundingBox<T, D> {
    let m = r
        .min
        .iter()
        .chain(r.max.iter())
        .fold(T::zero(), |m, x| Float::max(m, Float::abs(*x)));
    let e = T::lit(64.0) * <T as Float>::epsilon() * m;
    BoundingBox::new(r.min.map(|x| x + e), r.max.map(|x| x - e))
}

/// The error expected for a shape at a pose, if any.
fn placement_error<T: Real>(
    pose: &nalgebra::Isometry2<T>,
    bounds: Option<BoundingBox<T, 2>>,
) -> Option<WorldError> {
    let t = pose.translation.vector;
    if !is_finite(&[t.x, t.y, pose.rotation.re, pose.rotation.im]) {
        Some(WorldError::NonFinitePose)
    } else if !bounds.is_some_and(|b| b.is_valid()) {
        Some(WorldError::NonFiniteBounds)
    } else {
        None
    }
}

fn check_cell_result<T: Real>(x: T, r: &Result<(), WorldError>) {
    match r {
        Ok(()) => assert!(
            Float::is_finite(x) && x > T::zero(),
            "cell size {x:?} accepted"
        ),
        Err(e) => assert!(
            matches!(
                e,
                WorldError::Grid(
                    GridError::NonFiniteCellSize | GridError::NonPositiveCellSize { .. }
                )
            ),
            "cell size {x:?}: {e:?}"
        ),
    }
}

fn run2<T: Real>(input: &Input) {
    let cell = input.cell.get::<T>();
    let mut world = match World::<T>::new(cell) {
        Ok(w) => w,
        Err(e) => {
            check_cell_result(cell, &Err(e));
            World::<T>::new(T::one()).unwrap()
        }
    };
    let mut other = World::<T>::new(T::one()).unwrap();
    let foreign = other
        .insert(
            shape::Circle::new(T::one()).unwrap(),
            nalgebra::Isometry2::identity(),
            Filter::ALL,
        )
        .unwrap();
    let mut m = Model {
        live: Vec::new(),
        dead: Vec::new(),
        foreign,
        previous: Vec::new(),
    };
    for op in input.ops.iter().take(64) {
        let before = snapshot2(&world);
        // Some(result) for a fallible operation, with the error expected.
        let mut outcome: Option<(Result<(), WorldError>, Option<WorldError>)> = None;
        match op {
            Op::Insert(raw, pose, mb, mk) => {
                let Ok(shape) = raw.build::<T>() else {
                    continue;
                };
                let pose = pose.get::<T>();
                let expected = placement_error(&pose, Some(shape.bounding_box(&pose)));
                let r = world.insert_boxed(shape, pose, Filter::new(*mb, *mk));
                if let Ok(h) = r {
                    assert!(
                        !m.live.contains(&h) && !m.dead.contains(&h),
                        "reused handle {h}"
                    );
                    assert_eq!(*world.get(h).unwrap().pose(), pose);
                    m.live.push(h);
                }
                outcome = Some((r.map(|_| ()), expected));
            }
            Op::SetPose(sel, pose) => {
                let Some((h, e)) = m.pick(*sel) else { continue };
                let pose = pose.get::<T>();
                let expected = match e {
                    Expect::Live => {
                        let o = world.get(h).unwrap();
                        placement_error(&pose, Some(o.shape().bounding_box(&pose)))
                    }
                    Expect::Err(e) => Some(e),
                };
                let r = world.set_pose(h, pose);
                if r.is_ok() {
                    assert_eq!(*world.get(h).unwrap().pose(), pose);
                }
                outcome = Some((r, expected));
            }
            Op::Replace(sel, raw) => {
                let Some((h, e)) = m.pick(*sel) else { continue };
                let Ok(shape) = raw.build::<T>() else {
                    continue;
                };
                let expected = match e {
                    Expect::Live => {
                        let pose = *world.get(h).unwrap().pose();
                        placement_error(&pose, Some(shape.bounding_box(&pose)))
                    }
                    Expect::Err(e) => Some(e),
                };
                let kind = shape.kind();
                let r = world.replace_shape_boxed(h, shape).map(|_| ());
                if r.is_ok() {
                    assert_eq!(world.get(h).unwrap().shape().kind(), kind);
                }
                outcome = Some((r, expected));
            }
            Op::SetFilter(sel, mb, mk) => {
                let Some((h, e)) = m.pick(*sel) else { continue };
                let f = Filter::new(*mb, *mk);
                let r = world.set_filter(h, f);
                if r.is_ok() {
                    assert_eq!(world.get(h).unwrap().filter(), f);
                }
                outcome = Some((
                    r,
                    match e {
                        Expect::Live => None,
                        Expect::Err(e) => Some(e),
                    },
                ));
            }
            Op::Remove(sel) => {
                let Some((h, e)) = m.pick(*sel) else { continue };
                let r = world.remove(h).map(|_| ());
                if r.is_ok() {
                    m.live.retain(|x| *x != h);
                    m.dead.push(h);
                    assert!(!world.contains(h));
                }
                outcome = Some((
                    r,
                    match e {
                        Expect::Live => None,
                        Expect::Err(e) => Some(e),
                    },
                ));
            }
            Op::SetCellSize(x) => {
                let x = x.get::<T>();
                let r = world.set_cell_size(x);
                check_cell_result(x, &r);
                if r.is_ok() {
                    assert_eq!(world.grid().cell_size(), x);
                } else {
                    assert_eq!(snapshot2(&world), before, "set_cell_size changed the world");
                }
            }
            Op::AutoCellSize => {
                world.auto_cell_size();
                let s = world.grid().cell_size();
                assert!(Float::is_finite(s) && s > T::zero(), "auto cell size {s:?}");
            }
            Op::Collisions => {
                let hits = world.collisions().clone();
                for (a, b, e) in &hits.errors {
                    assert!(a < b && m.live.contains(a) && m.live.contains(b));
                    assert!(allowed_for_builtins(e), "dispatch error {e:?}");
                }
                let pairs: Vec<(Handle, Handle)> = hits.pairs.iter().map(|p| (p.a, p.b)).collect();
                assert!(pairs.windows(2).all(|w| w[0] < w[1]), "pairs not sorted");
                for p in &hits.pairs {
                    assert!(p.a < p.b && m.live.contains(&p.a) && m.live.contains(&p.b));
                    let (oa, ob) = (world.get(p.a).unwrap(), world.get(p.b).unwrap());
                    assert!(oa.filter().accepts(&ob.filter()), "filtered pair reported");
                    check_contact(&p.contact, &(oa, ob));
                }
                let started: Vec<_> = pairs
                    .iter()
                    .filter(|x| !m.previous.contains(x))
                    .copied()
                    .collect();
                let stopped: Vec<_> = m
                    .previous
                    .iter()
                    .filter(|x| !pairs.contains(x))
                    .copied()
                    .collect();
                assert_eq!(hits.started, started, "started");
                assert_eq!(hits.stopped, stopped, "stopped");
                assert_eq!(hits.stats.objects, m.live.len());
                m.previous = pairs;
            }
            Op::CandidatePairs => {
                for (a, b) in world.candidate_pairs() {
                    assert!(a < b && m.live.contains(&a) && m.live.contains(&b));
                    let (oa, ob) = (world.get(a).unwrap(), world.get(b).unwrap());
                    assert!(oa.filter().accepts(&ob.filter()));
                    // The grid's boxes (which may be widened by rounding margins).
                    let (ba, bb) = (
                        world.grid().bounds(a.index()).unwrap(),
                        world.grid().bounds(b.index()).unwrap(),
                    );
                    assert!(ba.intersects(bb), "candidate pair with apart boxes");
                }
            }
            Op::QueryRegion(lo, hi) => {
                let region = BoundingBox::new(
                    Point2::new(lo[0].get::<T>(), lo[1].get::<T>()),
                    Point2::new(hi[0].get::<T>(), hi[1].get::<T>()),
                );
                let (hits, errors) = world.query_region(&region);
                // Every shape here is built in: no region is refused (the
                // two inputs of fuzz/regressions/world_ops-*-region-unsupported.bin
                // were, before region queries fitted the shape's own box).
                assert!(
                    errors.is_empty(),
                    "region refused: {errors:?} for {region:?}"
                );
                for h in &hits {
                    assert!(m.live.contains(h), "query returned a dead handle");
                }
                if region.is_valid() {
                    for h in &m.live {
                        let o = world.get(*h).unwrap();
                        if shrunk(&region).contains(&o.shape().bounding_box(o.pose())) {
                            let refused = errors.iter().any(|(x, _)| x == h);
                            assert!(
                                hits.contains(h) || refused,
                                "object {h} inside {region:?} not found: {o:?}"
                            );
                        }
                    }
                }
            }
            Op::QueryPoint(p) => {
                let p = Point2::new(p[0].get::<T>(), p[1].get::<T>());
                let (hits, errors) = world.query_point(&p);
                let _ = errors.iter().map(|(_, e)| e.to_string()).count();
                for h in &hits {
                    assert!(m.live.contains(h), "query returned a dead handle");
                }
            }
        }
        if let Some((r, expected)) = outcome {
            match (&r, &expected) {
                (Ok(()), None) => {}
                (Err(e), Some(x)) => {
                    assert_eq!(e, x, "{op:?}");
                    assert_eq!(snapshot2(&world), before, "error changed the world: {op:?}");
                }
                _ => panic!("{op:?}: got {r:?}, expected {expected:?}"),
            }
        }
        world.validate().expect("validate");
        m.check_len(world.len(), world.handles());
    }
    other.validate().unwrap();
}

fn run3<T: Real>(input: &Input) {
    let mut world = World3::<T>::new(T::one()).unwrap();
    let mut other = World3::<T>::new(T::one()).unwrap();
    let foreign = other
        .insert(
            shape::Sphere::new(T::one()).unwrap(),
            nalgebra::Isometry3::identity(),
            Filter::ALL,
        )
        .unwrap();
    let mut m = Model {
        live: Vec::new(),
        dead: Vec::new(),
        foreign,
        previous: Vec::new(),
    };
    let finite_pose = |p: &nalgebra::Isometry3<T>| {
        let (t, q) = (p.translation.vector, p.rotation.quaternion());
        is_finite(&[t.x, t.y, t.z, q.w, q.i, q.j, q.k])
    };
    for op in input.ops3.iter().take(32) {
        let before = snapshot3(&world);
        let mut outcome: Option<(Result<(), WorldError>, Option<WorldError>)> = None;
        match op {
            Op3::Insert(raw, pose) => {
                let Ok(shape) = raw.build::<T>() else {
                    continue;
                };
                let pose = pose.get::<T>();
                let expected = if !finite_pose(&pose) {
                    Some(WorldError::NonFinitePose)
                } else if !shape.bounding_box(&pose).is_valid() {
                    Some(WorldError::NonFiniteBounds)
                } else {
                    None
                };
                let r = world.insert_boxed(shape, pose, Filter::ALL);
                if let Ok(h) = r {
                    m.live.push(h);
                }
                outcome = Some((r.map(|_| ()), expected));
            }
            Op3::SetPose(sel, pose) => {
                let Some((h, e)) = m.pick(*sel) else { continue };
                let pose = pose.get::<T>();
                let expected = match e {
                    Expect::Live if !finite_pose(&pose) => Some(WorldError::NonFinitePose),
                    Expect::Live => {
                        let o = world.get(h).unwrap();
                        (!o.shape().bounding_box(&pose).is_valid())
                            .then_some(WorldError::NonFiniteBounds)
                    }
                    Expect::Err(e) => Some(e),
                };
                outcome = Some((world.set_pose(h, pose), expected));
            }
            Op3::Remove(sel) => {
                let Some((h, e)) = m.pick(*sel) else { continue };
                let r = world.remove(h).map(|_| ());
                if r.is_ok() {
                    m.live.retain(|x| *x != h);
                    m.dead.push(h);
                }
                outcome = Some((
                    r,
                    match e {
                        Expect::Live => None,
                        Expect::Err(e) => Some(e),
                    },
                ));
            }
            Op3::SetCellSize(x) => {
                let x = x.get::<T>();
                let r = world.set_cell_size(x);
                check_cell_result(x, &r);
                if r.is_err() {
                    assert_eq!(snapshot3(&world), before);
                }
            }
            Op3::Collisions => {
                let hits = world.collisions();
                for (_, _, e) in &hits.errors {
                    assert!(allowed_for_builtins(e), "dispatch error {e:?}");
                }
                for p in &hits.pairs {
                    assert!(p.a < p.b && m.live.contains(&p.a) && m.live.contains(&p.b));
                    check_contact3(&p.contact, &(p.a, p.b));
                }
            }
            Op3::QueryRegion(lo, hi) => {
                let g =
                    |n: &[Num; 3]| Point3::new(n[0].get::<T>(), n[1].get::<T>(), n[2].get::<T>());
                let region = BoundingBox::new(g(lo), g(hi));
                let (hits, errors) = world.query_region(&region);
                // Refusals are typed errors, listed per object. (Not yet
                // checked: that a built-in shape is never `Unsupported` here;
                // the region code answers so for regions far beyond √MAX,
                // see fuzz/regressions/world_ops-*-region-unsupported.bin.)
                let _ = errors.iter().map(|(_, e)| e.to_string()).count();
                if region.is_valid() {
                    for h in &m.live {
                        let o = world.get(*h).unwrap();
                        if shrunk(&region).contains(&o.shape().bounding_box(o.pose())) {
                            let refused = errors.iter().any(|(x, _)| x == h);
                            assert!(
                                hits.contains(h) || refused,
                                "object {h} inside {region:?} not found: {o:?}"
                            );
                        }
                    }
                }
            }
            Op3::QueryPoint(p) => {
                let p = Point3::new(p[0].get::<T>(), p[1].get::<T>(), p[2].get::<T>());
                let (hits, errors) = world.query_point(&p);
                let _ = errors.iter().map(|(_, e)| e.to_string()).count();
                for h in &hits {
                    assert!(m.live.contains(h));
                }
            }
        }
        if let Some((r, expected)) = outcome {
            match (&r, &expected) {
                (Ok(()), None) => {}
                (Err(e), Some(x)) => {
                    assert_eq!(e, x, "{op:?}");
                    assert_eq!(snapshot3(&world), before, "error changed the world: {op:?}");
                }
                _ => panic!("{op:?}: got {r:?}, expected {expected:?}"),
            }
        }
        world.validate().expect("validate");
        m.check_len(world.len(), world.handles());
    }
}

fuzz_target!(|input: Input| {
    run2::<f32>(&input);
    run2::<f64>(&input);
    run3::<f32>(&input);
    run3::<f64>(&input);
});
