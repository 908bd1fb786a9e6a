//! The 3D world (spheres, rotating cubes, axis-aligned boxes) against brute
//! force and a reference model, f32 and f64.

use broadphase::{Filter, Handle, World3, WorldError};
use nalgebra::{Isometry3, Point3, Vector3};
use narrowphase::dim3::DispatchTable3;
use proptest::prelude::*;
use shape::{Aabb3, BoundingBox3, Cuboid, Real, Shape3, Sphere};

#[derive(Debug, Clone)]
enum Spec3 {
    Sphere(f64),
    Cuboid([f64; 3]),
    Aabb3([f64; 3]),
}

fn spec3() -> impl Strategy<Value = Spec3> {
    let size = prop_oneof![4 => 0.1f64..3.0, 1 => 0.01f64..0.1, 1 => 3.0f64..20.0];
    prop_oneof![
        size.clone().prop_map(Spec3::Sphere),
        prop::array::uniform3(size.clone()).prop_map(Spec3::Cuboid),
        prop::array::uniform3(size).prop_map(Spec3::Aabb3),
    ]
}

fn pose3() -> impl Strategy<Value = [f64; 6]> {
    (
        prop::array::uniform3(-15.0f64..15.0),
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

type Placed3<T> = (Box<dyn Shape3<T>>, Isometry3<T>);

fn brute_force<T: Real>(objects: &[Placed3<T>]) -> Vec<(usize, usize)> {
    let table = DispatchTable3::<T>::new();
    let mut v = Vec::new();
    for i in 0..objects.len() {
        for j in i + 1..objects.len() {
            if table
                .intersects(
                    objects[i].0.as_ref(),
                    &objects[i].1,
                    objects[j].0.as_ref(),
                    &objects[j].1,
                )
                .unwrap()
            {
                v.push((i, j));
            }
        }
    }
    v
}

fn scene_prop<T: Real>(scene: Vec<(Spec3, [f64; 6])>, cell: f64) -> Result<(), TestCaseError> {
    let mut world = World3::<T>::new(T::lit(cell)).unwrap();
    let objects: Vec<Placed3<T>> = scene
        .iter()
        .map(|(s, p)| (build3::<T>(s), iso3::<T>(*p)))
        .collect();
    let handles: Vec<Handle> = scene
        .iter()
        .map(|(s, p)| {
            world
                .insert_boxed(build3::<T>(s), iso3::<T>(*p), Filter::ALL)
                .unwrap()
        })
        .collect();
    world.validate().unwrap();
    let got = world.collisions();
    prop_assert!(got.errors.is_empty());
    let want: Vec<(Handle, Handle)> = brute_force(&objects)
        .into_iter()
        .map(|(i, j)| (handles[i], handles[j]))
        .collect();
    let pairs: Vec<(Handle, Handle)> = got.pairs.iter().map(|p| (p.a, p.b)).collect();
    prop_assert_eq!(pairs, want);
    // Point queries: exact containment.
    let probe = Point3::new(T::lit(0.5), T::lit(-0.5), T::lit(1.0));
    let (hits, errors) = world.query_point(&probe);
    prop_assert!(errors.is_empty());
    let want: Vec<Handle> = objects
        .iter()
        .zip(&handles)
        .filter(|((s, p), _)| s.as_convex().unwrap().contains_point(p, &probe))
        .map(|(_, h)| *h)
        .collect();
    prop_assert_eq!(hits, want);
    Ok(())
}

fn model_prop<T: Real>(
    ops: Vec<(u8, usize, Spec3, [f64; 6])>,
    cell: f64,
) -> Result<(), TestCaseError> {
    let mut world = World3::<T>::new(T::lit(cell)).unwrap();
    let mut live: Vec<(Handle, Spec3, [f64; 6])> = Vec::new();
    let mut dead: Vec<Handle> = Vec::new();
    for (op, k, s, p) in ops {
        match op % 5 {
            0 | 1 => live.push((
                world
                    .insert_boxed(build3::<T>(&s), iso3::<T>(p), Filter::ALL)
                    .unwrap(),
                s,
                p,
            )),
            2 if !live.is_empty() => {
                let i = k % live.len();
                if k % 2 == 0 {
                    world.set_pose(live[i].0, iso3::<T>(p)).unwrap();
                } else {
                    // One batch: every object at its pose, object i last at
                    // its new one.
                    let batch = live.iter().map(|(h, _, q)| (*h, iso3::<T>(*q)));
                    world
                        .set_poses(batch.chain([(live[i].0, iso3::<T>(p))]))
                        .unwrap();
                }
                live[i].2 = p;
            }
            3 if !live.is_empty() => {
                let (h, _, _) = live.remove(k % live.len());
                world.remove(h).unwrap();
                dead.push(h);
            }
            _ => {
                if let Some(h) = dead.last() {
                    prop_assert_eq!(world.remove(*h).unwrap_err(), WorldError::StaleHandle(*h));
                }
                let nan = Isometry3::translation(T::nan(), T::zero(), T::zero());
                prop_assert_eq!(
                    world
                        .insert(Sphere::new(T::one()).unwrap(), nan, Filter::ALL)
                        .unwrap_err(),
                    WorldError::NonFinitePose
                );
            }
        }
        world
            .validate()
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(world.len(), live.len());
        let objects: Vec<Placed3<T>> = live
            .iter()
            .map(|(_, s, p)| (build3::<T>(s), iso3::<T>(*p)))
            .collect();
        let mut want: Vec<(Handle, Handle)> = brute_force(&objects)
            .into_iter()
            .map(|(i, j)| {
                if live[i].0 < live[j].0 {
                    (live[i].0, live[j].0)
                } else {
                    (live[j].0, live[i].0)
                }
            })
            .collect();
        want.sort();
        let pairs: Vec<(Handle, Handle)> = world
            .collisions()
            .pairs
            .iter()
            .map(|p| (p.a, p.b))
            .collect();
        prop_assert_eq!(pairs, want);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: shape::testing::cases(128), ..ProptestConfig::default() })]
    #[test]
    fn scenes_f32(s in prop::collection::vec((spec3(), pose3()), 0..40), c in 0.2f64..20.0) { scene_prop::<f32>(s, c)?; }
    #[test]
    fn scenes_f64(s in prop::collection::vec((spec3(), pose3()), 0..40), c in 0.2f64..20.0) { scene_prop::<f64>(s, c)?; }
    #[test]
    fn model_f32(o in prop::collection::vec((any::<u8>(), any::<usize>(), spec3(), pose3()), 1..30), c in 0.2f64..20.0) { model_prop::<f32>(o, c)?; }
    #[test]
    fn model_f64(o in prop::collection::vec((any::<u8>(), any::<usize>(), spec3(), pose3()), 1..30), c in 0.2f64..20.0) { model_prop::<f64>(o, c)?; }
}

/// Seed 003's game: unit cubes on a grid, rotating about three axes. Cubes on
/// neighbouring grid points touch face to face when aligned; turned, their
/// corners reach into the neighbours.
fn cubes_on_a_grid<T: Real>() {
    let mut world = World3::<T>::new(T::two()).unwrap();
    let cube = || Cuboid::new(Vector3::repeat(T::half())).unwrap();
    let mut handles = Vec::new();
    for x in 0..4 {
        for y in 0..4 {
            let p = Isometry3::translation(T::lit(f64::from(x)), T::lit(f64::from(y)), T::zero());
            handles.push(world.insert(cube(), p, Filter::ALL).unwrap());
        }
    }
    // Aligned: every grid neighbour (including diagonals, which share an edge)
    // touches: 4x4 grid has 24 side neighbours and 18 diagonal ones.
    let hits = world.collisions();
    assert_eq!(hits.stats.all_pairs, 120);
    assert_eq!(hits.pairs.len(), 24 + 18);
    // Spread them 1.2 apart: nothing touches (gaps of 0.2); then turn one about
    // all three axes: its reach along x and y grows past 0.7 (up to √3/2 ≈ 0.866
    // for a corner), into its neighbours.
    for (i, h) in handles.iter().enumerate() {
        let (x, y) = ((i / 4) as f64 * 1.2, (i % 4) as f64 * 1.2);
        world
            .set_pose(*h, Isometry3::translation(T::lit(x), T::lit(y), T::zero()))
            .unwrap();
    }
    assert!(world.collisions().pairs.is_empty());
    let turned = Isometry3::new(
        Vector3::new(T::zero(), T::zero(), T::zero()),
        Vector3::new(T::lit(0.6), T::lit(0.4), T::lit(0.785)),
    );
    world.set_pose(handles[0], turned).unwrap();
    let hits = world.collisions();
    assert!(!hits.started.is_empty());
    assert!(
        hits.started.iter().all(|(a, _)| *a == handles[0]),
        "{:?}",
        hits.started
    );
    assert!(hits.stopped.is_empty());
    world.validate().unwrap();
    let region = BoundingBox3::new(
        Point3::new(T::lit(-0.1), T::lit(-0.1), T::lit(-0.1)),
        Point3::new(T::lit(0.1), T::lit(0.1), T::lit(0.1)),
    );
    assert_eq!(world.query_region(&region).0, vec![handles[0]]);
}
shape::for_each_precision!(cubes, cubes_on_a_grid);
