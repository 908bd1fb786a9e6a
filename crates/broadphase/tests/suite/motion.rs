//! Motion in the World: `World::cast_shape` (2D and 3D, f32 and f64) against
//! brute force over every object through the same narrow phase, bit for bit;
//! bad input is a typed error and leaves the world unchanged.

use crate::common;

use broadphase::{Filter, Handle, QueryFilter, World, World3, WorldError};
use common::{Spec, build, iso, pose, spec};
use nalgebra::{Isometry2, Isometry3, Vector2, Vector3};
use narrowphase::{DispatchTable, ShapeCastArgs, ShapeCastHit, ShapeCastOptions};
use proptest::prelude::*;
use shape::{Circle, Cuboid, Obb, Real, Sphere};

/// A random 2D level: shapes and poses.
fn level() -> impl Strategy<Value = Vec<(Spec, [f64; 3], u32)>> {
    prop::collection::vec((spec(), pose(20.0), 0u32..4), 0..30)
}

fn world2<T: Real>(objs: &[(Spec, [f64; 3], u32)], cell: f64) -> (World<T>, Vec<Handle>) {
    let mut w = World::<T>::new(T::lit(cell)).unwrap();
    let hs = objs
        .iter()
        .map(|(s, p, bits)| {
            w.insert_boxed(
                build::<T>(s),
                iso::<T>(*p),
                Filter::new(1 << bits, u32::MAX),
            )
            .unwrap()
        })
        .collect();
    (w, hs)
}

/// The first hit by brute force: every object, the same table call, the
/// least time, ties by handle.
#[allow(clippy::too_many_arguments)]
fn brute_cast<T: Real>(
    objs: &[(Spec, [f64; 3], u32)],
    hs: &[Handle],
    shape: &dyn shape::Shape<T>,
    pose: &Isometry2<T>,
    vel: Vector2<T>,
    max_toi: T,
    filter: QueryFilter,
    options: ShapeCastOptions,
) -> Option<(Handle, ShapeCastHit<T>)> {
    let table = DispatchTable::<T>::new();
    let mut best: Option<(Handle, ShapeCastHit<T>)> = None;
    for ((s, p, bits), h) in objs.iter().zip(hs) {
        if !filter.accepts(*h, &Filter::new(1 << bits, u32::MAX)) {
            continue;
        }
        let b = build::<T>(s);
        let args = ShapeCastArgs {
            vel_a: vel,
            vel_b: Vector2::zeros(),
            max_toi,
            options,
        };
        if let Some(hit) = table
            .cast_shapes(shape, pose, b.as_ref(), &iso::<T>(*p), args)
            .unwrap()
        {
            if best
                .as_ref()
                .is_none_or(|(bh, bhit)| hit.toi < bhit.toi || (hit.toi == bhit.toi && *h < *bh))
            {
                best = Some((*h, hit));
            }
        }
    }
    best
}

#[derive(Debug, Clone)]
struct Cast {
    shape: Spec,
    pose: [f64; 3],
    vel: [f64; 2],
    max_toi: Option<f64>,
    mask: u32,
    slide: bool,
}

fn cast() -> impl Strategy<Value = Cast> {
    (
        spec(),
        pose(25.0),
        prop_oneof![
            3 => [-10.0f64..10.0, -10.0f64..10.0],
            1 => [-100.0f64..100.0, -100.0f64..100.0],
            1 => (-10.0f64..10.0).prop_map(|x| [x, 0.0]),
            1 => Just([0.0, 0.0]),
        ],
        prop_oneof![2 => (0.0f64..5.0).prop_map(Some), 1 => Just(None)],
        prop_oneof![3 => Just(u32::MAX), 1 => 0u32..16],
        any::<bool>(),
    )
        .prop_map(|(shape, pose, vel, max_toi, mask, slide)| Cast {
            shape,
            pose,
            vel,
            max_toi,
            mask,
            slide,
        })
}

fn cast_shape_2d<T: Real>(
    objs: Vec<(Spec, [f64; 3], u32)>,
    cell: f64,
    c: Cast,
) -> Result<(), TestCaseError> {
    let (world, hs) = world2::<T>(&objs, cell);
    let shape = build::<T>(&c.shape);
    let pose = iso::<T>(c.pose);
    let vel = Vector2::new(T::lit(c.vel[0]), T::lit(c.vel[1]));
    let max_toi = c.max_toi.map_or(T::infinity(), T::lit);
    let filter = QueryFilter::default().with_groups(Filter::new(u32::MAX, c.mask));
    let options = ShapeCastOptions {
        stop_at_penetration: !c.slide,
    };
    let got = world
        .cast_shape_with_options(shape.as_ref(), &pose, &vel, max_toi, filter, options)
        .unwrap();
    let want = brute_cast(
        &objs,
        &hs,
        shape.as_ref(),
        &pose,
        vel,
        max_toi,
        filter,
        options,
    );
    prop_assert_eq!(got, want);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: shape::testing::cases(256), ..ProptestConfig::default() })]
    #[test]
    fn cast_shape_equals_brute_force_f32(o in level(), cell in prop_oneof![0.3f64..2.0, 2.0f64..20.0], c in cast()) {
        cast_shape_2d::<f32>(o, cell, c)?;
    }
    #[test]
    fn cast_shape_equals_brute_force_f64(o in level(), cell in prop_oneof![0.3f64..2.0, 2.0f64..20.0], c in cast()) {
        cast_shape_2d::<f64>(o, cell, c)?;
    }
}

/// Ties: two equal walls at the same place (inserted after a third, so the
/// smaller handle is not the first slot); the smaller handle wins.
#[test]
fn cast_shape_ties_by_handle() {
    let mut w = World::<f64>::new(1.0).unwrap();
    let wall = Obb::new(Vector2::new(0.5, 0.5)).unwrap();
    let c = w
        .insert(wall, Isometry2::translation(50.0, 0.0), Filter::ALL)
        .unwrap();
    let a = w
        .insert(wall, Isometry2::translation(10.0, 0.0), Filter::ALL)
        .unwrap();
    let b = w
        .insert(wall, Isometry2::translation(10.0, 0.0), Filter::ALL)
        .unwrap();
    w.remove(c).unwrap();
    let ball = Circle::new(0.5).unwrap();
    let (h, hit) = w
        .cast_shape(
            &ball,
            &Isometry2::identity(),
            &Vector2::new(1.0, 0.0),
            f64::INFINITY,
            QueryFilter::default(),
        )
        .unwrap()
        .unwrap();
    assert_eq!(h, a);
    assert!((hit.toi - 9.0).abs() < 1e-9, "{}", hit.toi);
    // Excluding the first, the other.
    let (h, _) = w
        .cast_shape(
            &ball,
            &Isometry2::identity(),
            &Vector2::new(1.0, 0.0),
            f64::INFINITY,
            QueryFilter::default().excluding(a),
        )
        .unwrap()
        .unwrap();
    assert_eq!(h, b);
}

/// A long cast over a long row of objects stops at the first; an infinite
/// cast into empty space ends; a cast into an empty world is `None`.
#[test]
fn cast_shape_long_and_empty() {
    let mut w = World::<f32>::new(1.0).unwrap();
    let ball = Circle::new(0.25).unwrap();
    let none = w
        .cast_shape(
            &ball,
            &Isometry2::identity(),
            &Vector2::new(1.0, 0.0),
            f32::INFINITY,
            QueryFilter::default(),
        )
        .unwrap();
    assert!(none.is_none());
    let mut hs = Vec::new();
    for i in 0..1000 {
        hs.push(
            w.insert(
                Circle::new(0.25).unwrap(),
                Isometry2::translation(2.0 + i as f32, 0.0),
                Filter::ALL,
            )
            .unwrap(),
        );
    }
    let (h, hit) = w
        .cast_shape(
            &ball,
            &Isometry2::identity(),
            &Vector2::new(1.0, 0.0),
            f32::INFINITY,
            QueryFilter::default(),
        )
        .unwrap()
        .unwrap();
    assert_eq!(h, hs[0]);
    assert!((hit.toi - 1.5).abs() < 1e-5);
    // Away from everything, forever.
    let none = w
        .cast_shape(
            &ball,
            &Isometry2::identity(),
            &Vector2::new(-1.0, 0.3),
            f32::INFINITY,
            QueryFilter::default(),
        )
        .unwrap();
    assert!(none.is_none());
    // From the far end backwards.
    let (h, _) = w
        .cast_shape(
            &ball,
            &Isometry2::translation(2000.0, 0.0),
            &Vector2::new(-3.0, 0.0),
            f32::INFINITY,
            QueryFilter::default(),
        )
        .unwrap()
        .unwrap();
    assert_eq!(h, hs[999]);
}

/// 3D: a sphere cast at a cube.
#[test]
fn cast_shape_3d() {
    let mut w = World3::<f64>::new(2.0).unwrap();
    let cube = w
        .insert(
            Cuboid::new(Vector3::new(1.0, 1.0, 1.0)).unwrap(),
            Isometry3::translation(0.0, 0.0, 10.0),
            Filter::ALL,
        )
        .unwrap();
    let ball = Sphere::new(0.5).unwrap();
    let (h, hit) = w
        .cast_shape(
            &ball,
            &Isometry3::identity(),
            &Vector3::new(0.0, 0.0, 2.0),
            100.0,
            QueryFilter::default(),
        )
        .unwrap()
        .unwrap();
    assert_eq!(h, cube);
    assert!((hit.toi - 4.25).abs() < 1e-9, "{}", hit.toi);
    assert!((hit.normal.z - 1.0).abs() < 1e-9);
    assert!(
        w.cast_shape(
            &ball,
            &Isometry3::identity(),
            &Vector3::new(0.0, 2.0, 0.0),
            100.0,
            QueryFilter::default()
        )
        .unwrap()
        .is_none()
    );
}

/// Bad input: typed errors, in the documented order; the world unchanged.
#[test]
fn cast_shape_bad_input() {
    let mut w = World::<f64>::new(1.0).unwrap();
    w.insert(
        Circle::new(1.0).unwrap(),
        Isometry2::translation(3.0, 0.0),
        Filter::ALL,
    )
    .unwrap();
    let before = format!("{:?}", w.collisions());
    let ball = Circle::new(0.5).unwrap();
    let ok = Isometry2::identity();
    let v = Vector2::new(1.0, 0.0);
    let f = QueryFilter::default();
    let nan = f64::NAN;
    assert_eq!(
        w.cast_shape(&ball, &Isometry2::translation(nan, 0.0), &v, 1.0, f),
        Err(WorldError::NonFinitePose)
    );
    assert_eq!(
        w.cast_shape(
            &ball,
            &Isometry2::translation(f64::INFINITY, 0.0),
            &v,
            1.0,
            f
        ),
        Err(WorldError::NonFinitePose)
    );
    for bad in [
        Vector2::new(nan, 0.0),
        Vector2::new(0.0, f64::INFINITY),
        Vector2::new(f64::NEG_INFINITY, 1.0),
    ] {
        assert_eq!(
            w.cast_shape(&ball, &ok, &bad, 1.0, f),
            Err(WorldError::NonFiniteVelocity)
        );
    }
    for bad in [nan, -1.0, -f64::MIN_POSITIVE] {
        assert_eq!(
            w.cast_shape(&ball, &ok, &v, bad, f),
            Err(WorldError::InvalidMaxToi)
        );
    }
    // Zero and infinite bounds are valid.
    assert_eq!(w.cast_shape(&ball, &ok, &v, 0.0, f), Ok(None));
    assert!(
        w.cast_shape(&ball, &ok, &v, f64::INFINITY, f)
            .unwrap()
            .is_some()
    );
    w.validate().unwrap();
    assert_eq!(format!("{:?}", w.last_collisions()), before);
}
