//! `World::move_and_slide`: named levels (corridors, inside corners, thin
//! walls, ramps, a start inside a wall) and random moves against random
//! levels of boxes, segments and polygons, f32 and f64: the final shape never
//! overlaps an object it did not start inside, never crosses a thin wall
//! (segments, boxes 1e-3 thick, any direction and speed), and moves the
//! whole way when nothing is in the way; bad input is a typed error and
//! leaves the world unchanged. Two regression tests pin narrow-phase cast
//! misses of an early version of the casts (now fixed), which the World's
//! ray check also covers.

use crate::common;

use broadphase::{Filter, Handle, MoveOptions, QueryFilter, World, WorldError};
use common::{Spec, build, iso, pose, spec_of};
use nalgebra::{Isometry2, Point2, Vector2};
#[allow(unused_imports)]
use narrowphase as _;
use narrowphase::DispatchTable;
use proptest::prelude::*;
use shape::{Capsule, Circle, Obb, Real, Segment, Shape};

fn wall<T: Real>(w: &mut World<T>, hx: f64, hy: f64, x: f64, y: f64, angle: f64) -> Handle {
    w.insert(
        Obb::new(Vector2::new(T::lit(hx), T::lit(hy))).unwrap(),
        iso::<T>([x, y, angle]),
        Filter::ALL,
    )
    .unwrap()
}

/// Whether `shape` at `pose` overlaps any object of `w` except `except`, by
/// brute force over every object.
fn overlaps_any<T: Real>(
    w: &World<T>,
    shape: &dyn Shape<T>,
    pose: &Isometry2<T>,
    except: &[Handle],
) -> bool {
    let table = DispatchTable::<T>::new();
    w.handles().any(|h| {
        let o = w.get(h).unwrap();
        !except.contains(&h) && table.intersects(shape, pose, o.shape(), o.pose()).unwrap()
    })
}

fn check_free<T: Real>(
    w: &World<T>,
    shape: &dyn Shape<T>,
    start: &Isometry2<T>,
    translation: Vector2<T>,
    skin: T,
) -> broadphase::Moved<T, 2, Isometry2<T>> {
    let m = w
        .move_and_slide(shape, start, &translation, MoveOptions::new(skin))
        .unwrap();
    assert!(!m.started_inside);
    assert!(
        !overlaps_any(w, shape, &m.pose, &[]),
        "ends overlapping: {m:?}"
    );
    assert_eq!(
        m.pose.translation.vector,
        start.translation.vector + m.translation
    );
    m
}

/// A corridor along x, 2 wide; a ball of radius 0.5 walks diagonally: it
/// slides along the walls and ends inside the corridor, far along.
fn corridor<T: Real>() {
    let mut w = World::<T>::new(T::lit(2.0)).unwrap();
    wall(&mut w, 50.0, 0.5, 0.0, 1.5, 0.0);
    wall(&mut w, 50.0, 0.5, 0.0, -1.5, 0.0);
    let ball = Circle::new(T::lit(0.5)).unwrap();
    let start = Isometry2::translation(T::zero(), T::zero());
    for dir in [[10.0, 3.0], [10.0, -7.0], [-4.0, 20.0], [0.0, 5.0]] {
        let v = Vector2::new(T::lit(dir[0]), T::lit(dir[1]));
        let m = check_free(&w, &ball, &start, v, T::lit(0.01));
        let y = m.pose.translation.y;
        assert!(num_traits::Float::abs(y) <= T::lit(0.5), "{y}");
        // The x motion is kept entirely (the walls are parallel to it).
        assert!(
            num_traits::Float::abs(m.translation.x - v.x) <= T::lit(1e-4),
            "{m:?}"
        );
        if dir[1] != 0.0 {
            assert!(!m.hits.is_empty());
        }
    }
}

#[test]
fn corridor_f32() {
    corridor::<f32>();
}
#[test]
fn corridor_f64() {
    corridor::<f64>();
}

/// An inside corner (a floor and a wall): moving into it ends a skin away
/// from both.
fn inside_corner<T: Real>() {
    let mut w = World::<T>::new(T::lit(2.0)).unwrap();
    wall(&mut w, 10.0, 0.5, 0.0, -0.5, 0.0); // floor, top at y = 0
    wall(&mut w, 0.5, 10.0, 5.5, 0.0, 0.0); // wall, face at x = 5
    let ball = Circle::new(T::lit(0.5)).unwrap();
    let start = Isometry2::translation(T::zero(), T::lit(2.0));
    let skin = T::lit(0.01);
    for v in [[10.0, -10.0], [30.0, -3.0], [10.0, -3.0], [6.0, -1.6]] {
        let m = check_free(
            &w,
            &ball,
            &start,
            Vector2::new(T::lit(v[0]), T::lit(v[1])),
            skin,
        );
        let p = m.pose.translation.vector;
        assert!(
            num_traits::Float::abs(p.x - T::lit(4.49)) < T::lit(2e-3),
            "{p:?}"
        );
        assert!(
            num_traits::Float::abs(p.y - T::lit(0.51)) < T::lit(2e-3),
            "{p:?}"
        );
        assert!(m.hits.len() >= 2);
    }
}

#[test]
fn inside_corner_f32() {
    inside_corner::<f32>();
}
#[test]
fn inside_corner_f64() {
    inside_corner::<f64>();
}

/// Thin walls (a segment, a box 1e-3 thick) and a move a thousand times
/// longer than the level: the shape stops in front of the wall.
fn thin_walls<T: Real>() {
    for thin in 0..2 {
        let mut w = World::<T>::new(T::lit(1.0)).unwrap();
        if thin == 0 {
            let s = Segment::new(
                Point2::new(T::zero(), T::lit(-5.0)),
                Point2::new(T::zero(), T::lit(5.0)),
            )
            .unwrap();
            w.insert(
                s,
                Isometry2::translation(T::lit(3.0), T::zero()),
                Filter::ALL,
            )
            .unwrap();
        } else {
            wall(&mut w, 5e-4, 5.0, 3.0, 0.0, 0.0);
        }
        let shapes: Vec<Box<dyn Shape<T>>> = vec![
            Box::new(Circle::new(T::lit(0.25)).unwrap()),
            Box::new(Obb::new(Vector2::new(T::lit(0.2), T::lit(0.4))).unwrap()),
            Box::new(
                Capsule::new(
                    Point2::new(T::zero(), T::lit(-0.3)),
                    Point2::new(T::zero(), T::lit(0.3)),
                    T::lit(0.1),
                )
                .unwrap(),
            ),
        ];
        for shape in &shapes {
            for v in [[1000.0, 0.0], [1000.0, 1.0], [1000.0, -3000.0 / 1000.0]] {
                let m = check_free(
                    &w,
                    shape.as_ref(),
                    &Isometry2::identity(),
                    Vector2::new(T::lit(v[0]), T::lit(v[1])),
                    T::lit(0.005),
                );
                let b = shape.bounding_box(&m.pose);
                assert!(b.max.x < T::lit(3.0), "crossed: {m:?}");
            }
        }
    }
}

#[test]
fn thin_walls_f32() {
    thin_walls::<f32>();
}
#[test]
fn thin_walls_f64() {
    thin_walls::<f64>();
}

/// A ramp at 30°: walking into it horizontally climbs it (slides up).
fn ramp<T: Real>() {
    let mut w = World::<T>::new(T::lit(2.0)).unwrap();
    wall(&mut w, 20.0, 0.5, 0.0, -0.5, 0.0); // floor
    // The ramp: a long box rotated by 30°, its lower end near x = 3.
    let a = core::f64::consts::FRAC_PI_6;
    wall(
        &mut w,
        10.0,
        0.5,
        3.0 + 10.0 * a.cos(),
        -0.5 + 10.0 * a.sin() - 0.5,
        a,
    );
    let ball = Circle::new(T::lit(0.5)).unwrap();
    let start = Isometry2::translation(T::zero(), T::lit(0.51));
    let m = check_free(
        &w,
        &ball,
        &start,
        Vector2::new(T::lit(8.0), T::zero()),
        T::lit(0.01),
    );
    assert!(m.pose.translation.y > T::lit(1.0), "did not climb: {m:?}");
    assert!(m.pose.translation.x > T::lit(3.0), "{m:?}");
}

#[test]
fn ramp_f32() {
    ramp::<f32>();
}
#[test]
fn ramp_f64() {
    ramp::<f64>();
}

/// A start inside a wall: pushed out, then moved; the answer says so.
#[test]
fn start_inside() {
    let mut w = World::<f64>::new(2.0).unwrap();
    let floor = wall(&mut w, 10.0, 0.5, 0.0, -0.5, 0.0);
    let ball = Circle::new(0.5).unwrap();
    let start = Isometry2::translation(0.0, 0.3); // 0.2 deep
    let m = w
        .move_and_slide(
            &ball,
            &start,
            &Vector2::new(2.0, 0.0),
            MoveOptions::new(0.01),
        )
        .unwrap();
    assert!(m.started_inside);
    assert_eq!(m.hits[0].handle, floor);
    assert!(!overlaps_any(&w, &ball, &m.pose, &[]));
    assert!((m.pose.translation.y - 0.51).abs() < 1e-9, "{m:?}");
    assert!((m.translation.x - 2.0).abs() < 1e-9);
}

/// Bad input: typed errors; the world unchanged.
#[test]
fn move_bad_input() {
    let mut w = World::<f64>::new(1.0).unwrap();
    wall(&mut w, 1.0, 1.0, 3.0, 0.0, 0.0);
    let before = format!("{:?}", w.collisions());
    let ball = Circle::new(0.5).unwrap();
    let ok = Isometry2::identity();
    let v = Vector2::new(1.0, 0.0);
    let o = MoveOptions::new(0.01);
    assert_eq!(
        w.move_and_slide(&ball, &Isometry2::translation(f64::NAN, 0.0), &v, o),
        Err(WorldError::NonFinitePose)
    );
    for bad in [
        Vector2::new(f64::NAN, 0.0),
        Vector2::new(0.0, f64::INFINITY),
    ] {
        assert_eq!(
            w.move_and_slide(&ball, &ok, &bad, o),
            Err(WorldError::NonFiniteVelocity)
        );
    }
    for skin in [0.0, -0.1, f64::NAN, f64::INFINITY] {
        assert_eq!(
            w.move_and_slide(&ball, &ok, &v, MoveOptions::new(skin)),
            Err(WorldError::InvalidSkin)
        );
    }
    // Zero iterations: no motion.
    let m = w
        .move_and_slide(&ball, &ok, &v, o.with_max_iterations(0))
        .unwrap();
    assert_eq!(m.translation, Vector2::zeros());
    w.validate().unwrap();
    assert_eq!(format!("{:?}", w.last_collisions()), before);
}

// ---------------------------------------------------------------------------
// Random levels.

/// A level piece: a segment, a box, an oriented box or a polygon.
fn piece() -> impl Strategy<Value = (Spec, [f64; 3])> {
    (
        prop_oneof![Just(1usize), Just(3), Just(4), Just(6)].prop_flat_map(spec_of),
        pose(15.0),
    )
}

/// A character: a circle, a box or a capsule, small.
fn character() -> impl Strategy<Value = Spec> {
    prop_oneof![
        (0.05f64..1.0).prop_map(Spec::Circle),
        (0.05f64..1.0, 0.05f64..1.0).prop_map(|(x, y)| Spec::Obb(x, y)),
        (0.05f64..1.0, 0.02f64..0.5).prop_map(|(h, r)| Spec::Capsule([0.0, -h], [0.0, h], r)),
    ]
}

fn random_moves<T: Real>(
    level: Vec<(Spec, [f64; 3])>,
    who: Spec,
    moves: Vec<([f64; 3], [f64; 2], f64)>,
) -> Result<(), TestCaseError> {
    let mut w = World::<T>::new(T::lit(2.0)).unwrap();
    for (s, p) in &level {
        w.insert_boxed(build::<T>(s), iso::<T>(*p), Filter::ALL)
            .unwrap();
    }
    let shape = build::<T>(&who);
    for (start, v, skin) in moves {
        let start = iso::<T>(start);
        let v = Vector2::new(T::lit(v[0]), T::lit(v[1]));
        let inside: Vec<Handle> = w
            .handles()
            .filter(|h| {
                let o = w.get(*h).unwrap();
                DispatchTable::<T>::new()
                    .intersects(shape.as_ref(), &start, o.shape(), o.pose())
                    .unwrap()
            })
            .collect();
        let m = w
            .move_and_slide(shape.as_ref(), &start, &v, MoveOptions::new(T::lit(skin)))
            .unwrap();
        prop_assert_eq!(m.started_inside, !inside.is_empty());
        prop_assert!(
            !overlaps_any(&w, shape.as_ref(), &m.pose, &inside),
            "ends overlapping: {:?}",
            m
        );
        prop_assert!(m.translation.iter().all(|x| x.is_finite()));
        // Nothing in the way of the whole move (no hit of the shape cast nor
        // of the ray of the shape's origin, which `move_and_slide` also
        // asks: see `segment_cast_misses`), nor touching the end: it is
        // walked entirely.
        let end = Isometry2::from_parts((start.translation.vector + v).into(), start.rotation);
        if inside.is_empty()
            && w.cast_shape(shape.as_ref(), &start, &v, T::one(), QueryFilter::default())
                .unwrap()
                .is_none()
            && !overlaps_any(&w, shape.as_ref(), &end, &[])
            && w.cast_ray(
                &shape::Ray::new(start.translation.vector.into(), v),
                T::one(),
                QueryFilter::default(),
            )
            .map_or(true, |h| h.is_none())
        {
            prop_assert_eq!(m.translation, v);
            prop_assert!(m.hits.is_empty());
        }
    }
    Ok(())
}

fn a_move() -> impl Strategy<Value = ([f64; 3], [f64; 2], f64)> {
    (
        pose(15.0),
        prop_oneof![3 => [-5.0f64..5.0, -5.0f64..5.0], 1 => [-100.0f64..100.0, -100.0f64..100.0]],
        prop_oneof![0.001f64..0.05, 0.05f64..0.3],
    )
}

proptest! {
    // Each case is 16 moves: `PROPTEST_CASES=6250` makes 100,000.
    #![proptest_config(ProptestConfig { cases: shape::testing::cases(128), ..ProptestConfig::default() })]
    #[test]
    fn random_moves_never_end_inside_f32(level in prop::collection::vec(piece(), 0..25), who in character(), moves in prop::collection::vec(a_move(), 16)) {
        random_moves::<f32>(level, who, moves)?;
    }
    #[test]
    fn random_moves_never_end_inside_f64(level in prop::collection::vec(piece(), 0..25), who in character(), moves in prop::collection::vec(a_move(), 16)) {
        random_moves::<f64>(level, who, moves)?;
    }
}

/// No tunnelling: a long thin wall (a segment through a random point at a
/// random angle), a character starting on one side, any move: the final
/// pose is still on that side.
fn thin_wall_side<T: Real>(
    at: [f64; 2],
    angle: f64,
    who: Spec,
    offset: f64,
    v: [f64; 2],
    segment: bool,
) -> Result<(), TestCaseError> {
    let mut w = World::<T>::new(T::lit(1.0)).unwrap();
    let (c, s) = (angle.cos(), angle.sin());
    if segment {
        let seg = Segment::new(
            Point2::new(T::lit(-40.0 * c), T::lit(-40.0 * s)),
            Point2::new(T::lit(40.0 * c), T::lit(40.0 * s)),
        )
        .unwrap();
        w.insert(
            seg,
            Isometry2::translation(T::lit(at[0]), T::lit(at[1])),
            Filter::ALL,
        )
        .unwrap();
    } else {
        // A box 1e-3 thick, centred on the line.
        wall(&mut w, 40.0, 5e-4, at[0], at[1], angle);
    }
    // The normal of the wall; the character starts `offset` beyond its reach on the negative side.
    let n = [-s, c];
    let shape = build::<T>(&who);
    let reach = common::extent(&who);
    let gap = reach + offset + 1e-3;
    let start = iso::<T>([at[0] - n[0] * gap, at[1] - n[1] * gap, 0.0]);
    let m = w
        .move_and_slide(
            shape.as_ref(),
            &start,
            &Vector2::new(T::lit(v[0]), T::lit(v[1])),
            MoveOptions::new(T::lit(0.01)),
        )
        .unwrap();
    let p = m.pose.translation.vector;
    let side = (p.x.to_f64().unwrap() - at[0]) * n[0] + (p.y.to_f64().unwrap() - at[1]) * n[1];
    // Still on the negative side, within the wall's length.
    let along = (p.x.to_f64().unwrap() - at[0]) * c + (p.y.to_f64().unwrap() - at[1]) * s;
    if along.abs() < 30.0 && side >= 0.0 {
        let h = w.handles().next().unwrap();
        let o = w.get(h).unwrap();
        let vv = Vector2::new(T::lit(v[0]), T::lit(v[1]));
        let direct = DispatchTable::<T>::new().cast_shapes(
            shape.as_ref(),
            &start,
            o.shape(),
            o.pose(),
            narrowphase::ShapeCastArgs {
                vel_a: vv,
                vel_b: Vector2::zeros(),
                max_toi: T::one(),
                options: Default::default(),
            },
        );
        let world = w.cast_shape(
            shape.as_ref(),
            &start,
            &vv,
            T::one(),
            QueryFilter::default(),
        );
        prop_assert!(
            false,
            "crossed: side {side}, {m:?}; direct {direct:?}; world {world:?}"
        );
    }
    prop_assert!(!overlaps_any(&w, shape.as_ref(), &m.pose, &[]));
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: shape::testing::cases(256), ..ProptestConfig::default() })]
    #[test]
    fn no_tunnelling_through_thin_boxes_f32(at in [-5.0f64..5.0, -5.0f64..5.0], angle in -3.2f64..3.2, who in character(), offset in 0.0f64..2.0, v in [-500.0f64..500.0, -500.0f64..500.0]) {
        thin_wall_side::<f32>(at, angle, who, offset, v, false)?;
    }
    #[test]
    fn no_tunnelling_through_thin_boxes_f64(at in [-5.0f64..5.0, -5.0f64..5.0], angle in -3.2f64..3.2, who in character(), offset in 0.0f64..2.0, v in [-500.0f64..500.0, -500.0f64..500.0]) {
        thin_wall_side::<f64>(at, angle, who, offset, v, false)?;
    }
    /// The narrow phase's shape casts of a segment against a polygonal
    /// shape miss some hits of long segments (`segment_cast_misses`):
    /// `move_and_slide`'s ray check (module notes, step 5) stops those.
    #[test]
    fn no_tunnelling_through_thin_segments_f32(at in [-5.0f64..5.0, -5.0f64..5.0], angle in -3.2f64..3.2, who in character(), offset in 0.0f64..2.0, v in [-500.0f64..500.0, -500.0f64..500.0]) {
        thin_wall_side::<f32>(at, angle, who, offset, v, true)?;
    }
    #[test]
    fn no_tunnelling_through_thin_segments_f64(at in [-5.0f64..5.0, -5.0f64..5.0], angle in -3.2f64..3.2, who in character(), offset in 0.0f64..2.0, v in [-500.0f64..500.0, -500.0f64..500.0]) {
        thin_wall_side::<f64>(at, angle, who, offset, v, true)?;
    }
}

/// A narrow-phase regression (an early advancement trusted the normal of a
/// rounding-level distance): a shape moving across a long diagonal segment,
/// apart at time 0 and overlapping the segment's line well before
/// `max_toi`, must hit it for every segment length.
#[test]

fn segment_cast_misses() {
    let angle: f64 = 0.825572498494496;
    let (c, s) = (angle.cos(), angle.sin());
    let table = DispatchTable::<f64>::new();
    let start = Isometry2::translation(s * 1.5, -c * 1.5);
    let tri = shape::Triangle::new(
        Point2::new(-0.2, -0.5),
        Point2::new(0.2, -0.5),
        Point2::new(0.0, 0.5),
    )
    .unwrap();
    let aabb = shape::Aabb::new(Point2::new(-0.2, -0.5), Point2::new(0.2, 0.5)).unwrap();
    let obb = Obb::new(Vector2::new(0.2118614090874028, 0.5529985653131371)).unwrap();
    let args = narrowphase::ShapeCastArgs {
        vel_a: Vector2::new(-19.0, 0.0),
        vel_b: Vector2::zeros(),
        max_toi: 1.0,
        options: narrowphase::ShapeCastOptions::default(),
    };
    let seg = |len: f64| {
        Segment::new(
            Point2::new(-len * c, -len * s),
            Point2::new(len * c, len * s),
        )
        .unwrap()
    };
    let id = Isometry2::identity();
    assert!(
        table
            .cast_shapes(&tri, &start, &seg(10.0), &id, args)
            .unwrap()
            .is_some()
    );
    assert!(
        table
            .cast_shapes(&aabb, &start, &seg(20.0), &id, args)
            .unwrap()
            .is_some()
    );
    let far = Isometry2::translation(s * 1.46 + 0.0, -3.078004660295684 - c * 1.46);
    let args = narrowphase::ShapeCastArgs {
        vel_a: Vector2::new(-18.975910390155516, 0.0),
        ..args
    };
    assert!(
        table
            .cast_shapes(
                &obb,
                &far,
                &seg(40.0),
                &Isometry2::translation(0.0, -3.078004660295684),
                args
            )
            .unwrap()
            .is_some()
    );
}

/// Another narrow-phase regression: an f32 OBB cast at an 80-long box 1e-3
/// thick must hit it (at t ≈ 0.177, as in f64 and with a box 1e-2 thick).
/// `move_and_slide`'s ray check stops the character at such walls too.
#[test]

fn thin_box_cast_misses_f32() {
    let at = [4.857_256_783_296_036_5_f64, 0.0];
    let angle = -0.798_913_373_503_998_6_f64;
    let n = [-angle.sin(), angle.cos()];
    let (hx, hy, offset) = (
        0.650_225_265_995_207_9_f64,
        0.239_106_239_016_177_75_f64,
        1.713_079_893_087_205_8_f64,
    );
    let gap = (hx * hx + hy * hy).sqrt() + offset + 1e-3;
    let wall = Obb::new(Vector2::new(40.0f32, 5e-4)).unwrap();
    let wall_pose = Isometry2::new(Vector2::new(at[0] as f32, at[1] as f32), angle as f32);
    let who = Obb::new(Vector2::new(hx as f32, hy as f32)).unwrap();
    let start = Isometry2::translation((at[0] - n[0] * gap) as f32, (at[1] - n[1] * gap) as f32);
    let args = narrowphase::ShapeCastArgs {
        vel_a: Vector2::new(13.984_956_460_976_392_f64 as f32, 0.0),
        vel_b: Vector2::zeros(),
        max_toi: 1.0,
        options: narrowphase::ShapeCastOptions::default(),
    };
    let hit = DispatchTable::<f32>::new()
        .cast_shapes(&who, &start, &wall, &wall_pose, args)
        .unwrap();
    assert!(hit.is_some());
}
