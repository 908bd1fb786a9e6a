//! Continuous objects: `Collisions::swept` equals brute force over every
//! pair with a continuous object (the same narrow-phase casts, bit for bit);
//! marking objects continuous leaves the other outputs unchanged; random
//! bullets through thin walls in one frame are always reported; removal and
//! unmarking keep the world consistent.

use crate::common;

use broadphase::{Filter, Handle, PairContact, World, WorldError};
use common::{Spec, build, iso, pose, spec};
use nalgebra::{Isometry2, Point2, Vector2};
use narrowphase::{DispatchTable, ShapeCastArgs, ShapeCastHit, ShapeCastOptions};
use proptest::prelude::*;
use shape::{Circle, Obb, Real, Segment};

#[derive(Debug, Clone)]
struct Obj {
    spec: Spec,
    pose: [f64; 3],
    bits: u32,
    continuous: bool,
    /// The move over each of the frames.
    moves: Vec<[f64; 3]>,
}

fn obj(frames: usize) -> impl Strategy<Value = Obj> {
    (
        spec(),
        pose(15.0),
        0u32..3,
        prop::bool::weighted(0.4),
        prop::collection::vec(
            prop_oneof![
                2 => Just([0.0, 0.0, 0.0]),
                2 => [-2.0f64..2.0, -2.0f64..2.0, -0.3f64..0.3],
                1 => [-40.0f64..40.0, -40.0f64..40.0, -3.0f64..3.0],
            ],
            frames,
        ),
    )
        .prop_map(|(spec, pose, bits, continuous, moves)| Obj {
            spec,
            pose,
            bits,
            continuous,
            moves,
        })
}

fn filter_of(bits: u32) -> Filter {
    Filter::new(1 << bits, !(1 << ((bits + 1) % 3)))
}

/// The swept pairs by brute force: every pair with a continuous object,
/// the filters, the cast from the previous positions at the current
/// rotations, in handle order.
fn brute_swept<T: Real>(
    objs: &[Obj],
    hs: &[Handle],
    prev: &[Isometry2<T>],
    now: &[Isometry2<T>],
) -> Vec<PairContact<ShapeCastHit<T>>> {
    let table = DispatchTable::<T>::new();
    let mut out = Vec::new();
    for i in 0..objs.len() {
        for j in i + 1..objs.len() {
            if !(objs[i].continuous || objs[j].continuous)
                || !filter_of(objs[i].bits).accepts(&filter_of(objs[j].bits))
            {
                continue;
            }
            let start = |k: usize| {
                if objs[k].continuous {
                    let mut p = now[k];
                    p.translation = prev[k].translation;
                    p
                } else {
                    now[k]
                }
            };
            let vel = |k: usize| {
                if objs[k].continuous {
                    now[k].translation.vector - prev[k].translation.vector
                } else {
                    Vector2::zeros()
                }
            };
            let (a, b) = if hs[i] < hs[j] { (i, j) } else { (j, i) };
            let args = ShapeCastArgs {
                vel_a: vel(a),
                vel_b: vel(b),
                max_toi: T::one(),
                options: ShapeCastOptions::default(),
            };
            let (sa, sb) = (build::<T>(&objs[a].spec), build::<T>(&objs[b].spec));
            if let Some(hit) = table
                .cast_shapes(sa.as_ref(), &start(a), sb.as_ref(), &start(b), args)
                .unwrap()
            {
                out.push(PairContact {
                    a: hs[a],
                    b: hs[b],
                    contact: hit,
                    parts: broadphase::Parts::NONE,
                });
            }
        }
    }
    out.sort_by_key(|p| (p.a, p.b));
    out
}

fn frames<T: Real>(objs: Vec<Obj>, cell: f64) -> Result<(), TestCaseError> {
    let mut w = World::<T>::new(T::lit(cell)).unwrap();
    // A twin world with no continuous object: the other outputs agree.
    let mut plain = World::<T>::new(T::lit(cell)).unwrap();
    let mut hs = Vec::new();
    let mut ps = Vec::new();
    let mut now: Vec<Isometry2<T>> = Vec::new();
    let mut at: Vec<[f64; 3]> = Vec::new();
    for o in &objs {
        let p = iso::<T>(o.pose);
        let h = w
            .insert_boxed(build::<T>(&o.spec), p, filter_of(o.bits))
            .unwrap();
        ps.push(
            plain
                .insert_boxed(build::<T>(&o.spec), p, filter_of(o.bits))
                .unwrap(),
        );
        if o.continuous {
            w.set_continuous(h, true).unwrap();
        }
        hs.push(h);
        now.push(p);
        at.push(o.pose);
    }
    let frames = objs.first().map_or(0, |o| o.moves.len());
    for f in 0..=frames {
        let prev = now.clone();
        if f > 0 {
            for (k, o) in objs.iter().enumerate() {
                let m = o.moves[f - 1];
                at[k] = [at[k][0] + m[0], at[k][1] + m[1], at[k][2] + m[2]];
                now[k] = iso::<T>(at[k]);
                w.set_pose(hs[k], now[k]).unwrap();
                plain.set_pose(ps[k], now[k]).unwrap();
            }
        }
        let want = brute_swept::<T>(&objs, &hs, &prev, &now);
        let got = w.collisions().clone();
        let base = plain.collisions().clone();
        prop_assert!(base.swept.is_empty());
        prop_assert_eq!(&got.swept, &want);
        // The two worlds' handles differ only by the world: compare indices.
        let ix = |v: &[(Handle, Handle)]| {
            v.iter()
                .map(|(a, b)| (a.index(), b.index()))
                .collect::<Vec<_>>()
        };
        let px = |v: &[PairContact<narrowphase::Contact<T>>]| {
            v.iter()
                .map(|p| (p.a.index(), p.b.index(), p.contact))
                .collect::<Vec<_>>()
        };
        prop_assert_eq!(px(&got.pairs), px(&base.pairs));
        prop_assert_eq!(ix(&got.started), ix(&base.started));
        prop_assert_eq!(ix(&got.stopped), ix(&base.stopped));
        prop_assert!(got.errors.is_empty() && base.errors.is_empty());
        prop_assert_eq!(got.stats, base.stats);
        // (A pair overlapping at the end of the frame touches along the
        // sweep at its last time, so it should be swept; the narrow phase's
        // casts miss some such hits today, e.g. a triangle against an
        // ellipse overlapping by 0.028, so that is not asserted here: the
        // World's part is that `swept` is exactly brute force.)
        w.validate().unwrap();
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: shape::testing::cases(96), ..ProptestConfig::default() })]
    #[test]
    fn swept_equals_brute_force_f32(o in prop::collection::vec(obj(3), 0..20), cell in prop_oneof![0.5f64..3.0, 3.0f64..20.0]) {
        frames::<f32>(o, cell)?;
    }
    #[test]
    fn swept_equals_brute_force_f64(o in prop::collection::vec(obj(3), 0..20), cell in prop_oneof![0.5f64..3.0, 3.0f64..20.0]) {
        frames::<f64>(o, cell)?;
    }
}

/// No tunnelling: a bullet (a small circle) fired through a thin wall (a
/// segment or a box 1e-3 thick, any angle) in one frame, at any speed, is
/// reported in `swept`, with a time of impact before it left.
fn bullet<T: Real>(
    angle: f64,
    segment: bool,
    r: f64,
    from: f64,
    to: f64,
    slide: f64,
) -> Result<(), TestCaseError> {
    let mut w = World::<T>::new(T::lit(1.0)).unwrap();
    let (c, s) = (angle.cos(), angle.sin());
    let wall = if segment {
        w.insert(
            Segment::new(
                Point2::new(T::lit(-10.0 * c), T::lit(-10.0 * s)),
                Point2::new(T::lit(10.0 * c), T::lit(10.0 * s)),
            )
            .unwrap(),
            Isometry2::identity(),
            Filter::ALL,
        )
        .unwrap()
    } else {
        w.insert(
            Obb::new(Vector2::new(T::lit(10.0), T::lit(5e-4))).unwrap(),
            iso::<T>([0.0, 0.0, angle]),
            Filter::ALL,
        )
        .unwrap()
    };
    // The wall's normal; the bullet crosses it at `slide` along the wall.
    let n = [-s, c];
    let p = |d: f64| iso::<T>([n[0] * d + c * slide, n[1] * d + s * slide, 0.0]);
    let b = w
        .insert(
            Circle::new(T::lit(r)).unwrap(),
            p(-(from + r + 1e-3)),
            Filter::ALL,
        )
        .unwrap();
    w.set_continuous(b, true).unwrap();
    prop_assert!(w.collisions().swept.is_empty());
    w.set_pose(b, p(to + r + 1e-3)).unwrap();
    let frame = w.collisions();
    prop_assert!(frame.pairs.is_empty());
    prop_assert_eq!(frame.swept.len(), 1);
    prop_assert_eq!((frame.swept[0].a, frame.swept[0].b), (wall, b));
    let toi = frame.swept[0].contact.toi;
    prop_assert!(toi > T::zero() && toi < T::one());
    // Then it is gone: nothing next frame.
    w.set_pose(b, p(to + 2.0 * r + 5.0)).unwrap();
    prop_assert!(w.collisions().swept.is_empty());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: shape::testing::cases(512), ..ProptestConfig::default() })]
    #[test]
    fn bullets_through_thin_walls_f32(angle in -3.2f64..3.2, segment: bool, r in 0.01f64..0.3, from in 0.0f64..50.0, to in 0.0f64..500.0, slide in -9.0f64..9.0) {
        bullet::<f32>(angle, segment, r, from, to, slide)?;
    }
    #[test]
    fn bullets_through_thin_walls_f64(angle in -3.2f64..3.2, segment: bool, r in 0.01f64..0.3, from in 0.0f64..50.0, to in 0.0f64..500.0, slide in -9.0f64..9.0) {
        bullet::<f64>(angle, segment, r, from, to, slide)?;
    }
}

/// Marking, unmarking, removing: the list follows; stale handles are
/// errors; a removed continuous object's slot reused by a plain object is
/// not swept.
#[test]
fn continuous_bookkeeping() {
    let mut w = World::<f64>::new(1.0).unwrap();
    let wall = w
        .insert(
            Obb::new(Vector2::new(0.05, 5.0)).unwrap(),
            Isometry2::translation(5.0, 0.0),
            Filter::ALL,
        )
        .unwrap();
    let a = w
        .insert(
            Circle::new(0.1).unwrap(),
            Isometry2::identity(),
            Filter::ALL,
        )
        .unwrap();
    let b = w
        .insert(
            Circle::new(0.1).unwrap(),
            Isometry2::translation(0.0, 1.0),
            Filter::ALL,
        )
        .unwrap();
    w.set_continuous(b, true).unwrap();
    w.set_continuous(a, true).unwrap();
    w.set_continuous(a, true).unwrap(); // twice: once
    assert_eq!(w.continuous_objects().collect::<Vec<_>>(), vec![a, b]);
    assert!(w.get(a).unwrap().is_continuous() && !w.get(wall).unwrap().is_continuous());
    w.collisions();
    w.set_pose(a, Isometry2::translation(10.0, 0.0)).unwrap();
    w.set_pose(b, Isometry2::translation(10.0, 1.0)).unwrap();
    w.set_continuous(b, false).unwrap();
    let f = w.collisions();
    assert_eq!(f.swept.len(), 1);
    assert_eq!((f.swept[0].a, f.swept[0].b), (wall, a));
    w.remove(a).unwrap();
    assert_eq!(w.set_continuous(a, true), Err(WorldError::StaleHandle(a)));
    assert_eq!(w.continuous_objects().count(), 0);
    let c = w
        .insert(
            Circle::new(0.1).unwrap(),
            Isometry2::identity(),
            Filter::ALL,
        )
        .unwrap();
    assert_eq!(c.index(), a.index());
    w.collisions();
    w.set_pose(c, Isometry2::translation(10.0, 0.0)).unwrap();
    assert!(w.collisions().swept.is_empty());
    w.validate().unwrap();
}

/// Two bullets crossing each other's path in one frame meet; 3D works too.
#[test]
fn two_bullets_and_3d() {
    let mut w = World::<f64>::new(1.0).unwrap();
    let a = w
        .insert(
            Circle::new(0.1).unwrap(),
            Isometry2::translation(-5.0, 0.0),
            Filter::ALL,
        )
        .unwrap();
    let b = w
        .insert(
            Circle::new(0.1).unwrap(),
            Isometry2::translation(5.0, 0.0),
            Filter::ALL,
        )
        .unwrap();
    w.set_continuous(a, true).unwrap();
    w.set_continuous(b, true).unwrap();
    w.collisions();
    w.set_pose(a, Isometry2::translation(5.0, 0.0)).unwrap();
    w.set_pose(b, Isometry2::translation(-5.0, 0.0)).unwrap();
    let f = w.collisions();
    assert_eq!(f.swept.len(), 1);
    assert!(
        (f.swept[0].contact.toi - 0.49).abs() < 1e-9,
        "{:?}",
        f.swept[0]
    );

    use nalgebra::{Isometry3, Vector3};
    let mut w = broadphase::World3::<f32>::new(1.0).unwrap();
    let wall = w
        .insert(
            shape::Cuboid::new(Vector3::new(5.0, 5.0, 0.01)).unwrap(),
            Isometry3::identity(),
            Filter::ALL,
        )
        .unwrap();
    let s = w
        .insert(
            shape::Sphere::new(0.1).unwrap(),
            Isometry3::translation(0.0, 0.0, -10.0),
            Filter::ALL,
        )
        .unwrap();
    w.set_continuous(s, true).unwrap();
    w.collisions();
    w.set_pose(s, Isometry3::translation(0.0, 0.0, 10.0))
        .unwrap();
    let f = w.collisions();
    assert_eq!((f.swept[0].a, f.swept[0].b), (wall, s));
    assert!((f.swept[0].contact.toi - 0.4945).abs() < 1e-5);
}
