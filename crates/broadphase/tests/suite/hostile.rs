//! Hostile numbers given to the world and the grid, and the grid near the float
//! limits, f32 and f64.
//!
//! - Cell sizes, poses, shapes, regions and points with NaN, ±∞, ±0,
//!   subnormals and ±MAX, in 2D and 3D worlds and on the grid: each gives its
//!   typed error (and leaves everything as it was: `validate()` holds, the
//!   count is unchanged, every object keeps its pose) or a correct answer
//!   (unbounded regions hold everything they cover, NaN regions nothing).
//! - Boxes and shapes at ±1e30, ±MAX/2, spanning the whole range, straddling
//!   the saturation of the cell coordinates (`±2⁶²` cells), with cells from
//!   the smallest normal float to MAX: `validate()` holds after every
//!   operation, and the pairs equal brute force (all box pairs for the grid,
//!   the narrow phase over all pairs for the world), with no NaN in any
//!   contact.

use broadphase::{Filter, Grid, GridError, Handle, World, World3, WorldError};
use nalgebra::{Isometry2, Isometry3, Point as VPoint, Point2, Point3, Vector2, Vector3};
use narrowphase::DispatchTable;
use narrowphase::dim3::DispatchTable3;
use num_traits::Float;
use shape::prelude::*;
use shape::{BoundingBox, BoundingBox3};

fn max<T: Real>() -> T {
    <T as Float>::max_value()
}

fn sub<T: Real>() -> T {
    <T as Float>::min_positive_value() / T::lit(2.0)
}

/// Every hostile number.
fn hostile<T: Real>() -> Vec<T> {
    vec![
        T::nan(),
        T::infinity(),
        T::neg_infinity(),
        T::zero(),
        -T::zero(),
        sub::<T>(),
        -sub::<T>(),
        max::<T>(),
        -max::<T>(),
        <T as Float>::min_positive_value(),
        T::lit(5e-324),
    ]
}

// ------------------------------------------------------------ cell sizes

/// The verdict on a cell size: an error, or the size kept.
fn check_cell_size<T: Real>(v: T, r: Result<T, WorldError>) {
    if !Float::is_finite(v) {
        assert_eq!(
            r,
            Err(WorldError::Grid(GridError::NonFiniteCellSize)),
            "{v:?}"
        );
    } else if v <= T::zero() || !Float::is_finite(T::one() / v) {
        match r {
            Err(WorldError::Grid(GridError::NonPositiveCellSize { value })) => {
                assert_eq!(value.to_bits(), v.as_f64().to_bits(), "{v:?}");
            }
            r => panic!("cell size {v:?}: {r:?}"),
        }
    } else {
        assert_eq!(r, Ok(v));
    }
}

fn cell_sizes<T: Real>() {
    for v in hostile::<T>() {
        check_cell_size(v, World::<T>::new(v).map(|w| w.grid().cell_size()));
        check_cell_size(v, World3::<T>::new(v).map(|w| w.grid().cell_size()));
        check_cell_size(
            v,
            Grid::<T, 2>::new(v)
                .map(|g| g.cell_size())
                .map_err(Into::into),
        );
        // Changing the size of a populated world: refused sizes change nothing.
        let (mut world, objects) = populated::<T>();
        let before = snapshot(&world);
        let r = world.set_cell_size(v).map(|()| world.grid().cell_size());
        check_cell_size(v, r.clone());
        if r.is_err() {
            assert_eq!(world.grid().cell_size(), T::one());
            assert_eq!(snapshot(&world), before);
        }
        world.validate().unwrap();
        assert_eq!(world.len(), objects.len());
        assert_pairs_are_brute_force(&mut world);
    }
}
shape::for_each_precision!(cell_sizes, cell_sizes);

// ------------------------------------------------------------ 2D world

/// A world of cell size 1 with a few shapes of every kind near the origin.
fn populated<T: Real>() -> (World<T>, Vec<Handle>) {
    let l = T::lit;
    let p = |x: f64, y: f64| Point2::new(l(x), l(y));
    let shapes: Vec<(Box<dyn Shape<T>>, [f64; 3])> = vec![
        (Box::new(Circle::new(l(1.0)).unwrap()), [0.0, 0.0, 0.0]),
        (
            Box::new(Obb::new(Vector2::new(l(2.0), l(0.5))).unwrap()),
            [1.5, 0.8, 0.3],
        ),
        (
            Box::new(ConvexPolygon::new(&[p(0.0, 0.0), p(2.0, 0.0), p(1.0, 1.5)]).unwrap()),
            [-3.0, 2.0, -0.4],
        ),
        (
            Box::new(Ellipse::new(Vector2::new(l(3.0), l(0.25))).unwrap()),
            [-2.5, 1.5, 1.0],
        ),
        (
            Box::new(Capsule::vertical(l(1.0), l(0.3)).unwrap()),
            [4.0, -1.0, 0.2],
        ),
        (
            Box::new(Aabb::new(p(-1.0, -1.0), p(1.0, 0.5)).unwrap()),
            [5.0, -2.0, 0.7],
        ),
        (
            Box::new(Segment::new(p(-1.0, 0.0), p(1.0, 0.0)).unwrap()),
            [-6.0, -6.0, 0.1],
        ),
        (
            Box::new(Point::new(p(0.5, 0.75)).unwrap()),
            [0.0, -0.5, 0.0],
        ),
    ];
    let mut world = World::<T>::new(T::one()).unwrap();
    let handles = shapes
        .into_iter()
        .map(|(s, q)| {
            let pose = Isometry2::new(Vector2::new(l(q[0]), l(q[1])), l(q[2]));
            world.insert_boxed(s, pose, Filter::ALL).unwrap()
        })
        .collect();
    world.validate().unwrap();
    (world, handles)
}

/// Every object and its pose.
fn snapshot<T: Real>(world: &World<T>) -> Vec<(Handle, Isometry2<T>)> {
    world
        .handles()
        .map(|h| (h, *world.get(h).unwrap().pose()))
        .collect()
}

fn contact_has_nan<T: Real>(c: &narrowphase::Contact<T>) -> bool {
    [
        c.normal.x,
        c.normal.y,
        c.depth,
        c.point_a.x,
        c.point_a.y,
        c.point_b.x,
        c.point_b.y,
    ]
    .iter()
    .any(|v| v.is_nan())
}

/// The world's pairs (and errors) are the narrow phase over all pairs, and no
/// contact holds a NaN.
fn assert_pairs_are_brute_force<T: Real>(world: &mut World<T>) {
    let table = DispatchTable::<T>::new();
    let handles: Vec<Handle> = world.handles().collect();
    let (mut hits, mut errors) = (Vec::new(), Vec::new());
    for (i, &a) in handles.iter().enumerate() {
        for &b in &handles[i + 1..] {
            let (oa, ob) = (world.get(a).unwrap(), world.get(b).unwrap());
            match table.intersects(oa.shape(), oa.pose(), ob.shape(), ob.pose()) {
                Ok(true) => hits.push((a, b)),
                Ok(false) => {}
                Err(e) => errors.push((a, b, e)),
            }
        }
    }
    world.validate().unwrap();
    let c = world.collisions();
    let got: Vec<(Handle, Handle)> = c.pairs.iter().map(|p| (p.a, p.b)).collect();
    if got != hits {
        let extra: Vec<_> = got.iter().filter(|p| !hits.contains(p)).collect();
        let missing: Vec<_> = hits.iter().filter(|p| !got.contains(p)).collect();
        let describe = |&&(a, b): &&(Handle, Handle)| {
            let (oa, ob) = (world.get(a).unwrap(), world.get(b).unwrap());
            format!(
                "\n  {a} {:?} at {:?}\n  {b} {:?} at {:?}\n  intersects {:?}, contact {:?}",
                oa.shape(),
                oa.pose(),
                ob.shape(),
                ob.pose(),
                table.intersects(oa.shape(), oa.pose(), ob.shape(), ob.pose()),
                table.contact(oa.shape(), oa.pose(), ob.shape(), ob.pose()),
            )
        };
        let extra: Vec<String> = extra.iter().map(describe).collect();
        let missing: Vec<String> = missing.iter().map(describe).collect();
        panic!("world pairs not brute force:\nextra {extra:#?}\nmissing {missing:#?}");
    }
    for p in &c.pairs {
        assert!(!contact_has_nan(&p.contact), "{:?}", p.contact);
        assert!(p.contact.depth >= T::zero());
    }
    // The grid may not offer a pair the narrow phase cannot answer, and then
    // it is not an error of the world: every world error is a brute-force one.
    for e in &c.errors {
        assert!(errors.contains(e), "{e:?} not in {errors:?}");
    }
    assert_eq!(c.stats.objects, handles.len());
}

/// A 2D pose `[x, y, angle]` with slot `k` replaced by `v`.
fn pose_with<T: Real>(base: [f64; 3], k: usize, v: T) -> Isometry2<T> {
    let mut p = base.map(T::lit);
    p[k] = v;
    Isometry2::new(Vector2::new(p[0], p[1]), p[2])
}

fn pose_is_finite<T: Real>(p: &Isometry2<T>) -> bool {
    [
        p.translation.x,
        p.translation.y,
        p.rotation.re,
        p.rotation.im,
    ]
    .iter()
    .all(|v| v.is_finite())
}

/// Inserting and moving objects with hostile poses, and replacing shapes by
/// ones too large for their pose: typed errors leave the world as it was;
/// accepted poses (±0, subnormal, ±MAX) keep it consistent and its pairs
/// exact.
fn hostile_poses_2d<T: Real>() {
    let (mut world, handles) = populated::<T>();
    let base = [0.5, 0.25, 0.3];
    for k in 0..3 {
        for v in hostile::<T>() {
            let pose = pose_with(base, k, v);
            let finite = pose_is_finite(&pose);
            // Insert.
            let before = snapshot(&world);
            let r = world.insert(Circle::new(T::half()).unwrap(), pose, Filter::ALL);
            if finite {
                let h = r.unwrap();
                assert_eq!(*world.get(h).unwrap().pose(), pose);
                assert_pairs_are_brute_force(&mut world);
                world.remove(h).unwrap();
            } else {
                assert_eq!(r, Err(WorldError::NonFinitePose), "{pose:?}");
            }
            world.validate().unwrap();
            assert_eq!(snapshot(&world), before);
            // Move each object there.
            for &h in &handles {
                let old = *world.get(h).unwrap().pose();
                let r = world.set_pose(h, pose);
                if finite {
                    r.unwrap();
                    assert_eq!(*world.get(h).unwrap().pose(), pose);
                    assert_pairs_are_brute_force(&mut world);
                    world.set_pose(h, old).unwrap();
                } else {
                    assert_eq!(r, Err(WorldError::NonFinitePose));
                }
                world.validate().unwrap();
                assert_eq!(snapshot(&world), before);
            }
        }
    }
    assert_pairs_are_brute_force(&mut world);
    // The largest shape at the largest pose: its box saturates at ±MAX (a
    // shape's size is at most `max_size`, far below the spacing of floats
    // there), so it is accepted and the world stays consistent. A circle of
    // radius MAX cannot be built at all.
    let h = handles[1];
    let far = Isometry2::translation(max::<T>(), T::zero());
    world.set_pose(h, far).unwrap();
    assert!(matches!(
        Circle::new(max::<T>()),
        Err(ShapeError::TooLarge {
            field: "radius",
            ..
        })
    ));
    let huge = Circle::new(shape::tolerance::max_size::<T>()).unwrap();
    let extra = world.insert(huge, far, Filter::ALL).unwrap();
    world.validate().unwrap();
    assert_pairs_are_brute_force(&mut world);
    world.remove(extra).unwrap();
    world.replace_shape(h, huge).unwrap();
    world.validate().unwrap();
    assert_pairs_are_brute_force(&mut world);
    world
        .replace_shape(h, Obb::new(Vector2::new(T::one(), T::one())).unwrap())
        .unwrap();
    world.validate().unwrap();
    assert_eq!(world.len(), handles.len());
    // A subnormal circle is a valid shape; in place of the box it collides
    // with what covers the box's centre.
    world
        .set_pose(h, Isometry2::translation(T::zero(), T::zero()))
        .unwrap();
    world
        .replace_shape(h, Circle::new(sub::<T>()).unwrap())
        .unwrap();
    assert_pairs_are_brute_force(&mut world);
}
shape::for_each_precision!(hostile_poses_2d, hostile_poses_2d);

/// Region and point queries with hostile numbers, 2D.
fn hostile_queries_2d<T: Real>() {
    let (mut world, handles) = populated::<T>();
    let l = T::lit;
    let b = |x0: T, y0: T, x1: T, y1: T| BoundingBox::new(Point2::new(x0, y0), Point2::new(x1, y1));
    let query = |w: &World<T>, r: &BoundingBox<T, 2>| {
        let (hits, errors) = w.query_region(r);
        assert!(errors.is_empty(), "{errors:?}");
        hits
    };
    let all: Vec<Handle> = handles.clone();
    let (inf, big) = (T::infinity(), l(1e6));
    // Unbounded regions hold what the same region bounded at 1e6 holds (every
    // object lies within ±10).
    for (lo, hi) in [
        ([-inf, -inf], [inf, inf]),
        ([-max::<T>(), -max::<T>()], [max::<T>(), max::<T>()]),
        ([l(0.0), -inf], [inf, inf]),
        ([-inf, l(1.0)], [l(-2.0), inf]),
        ([-max::<T>(), l(-1.0)], [max::<T>(), l(0.0)]),
        ([-inf, l(-1.0)], [l(0.0), l(0.0)]),
    ] {
        let r = b(lo[0], lo[1], hi[0], hi[1]);
        let clip = |v: T| Float::max(Float::min(v, big), -big);
        let bounded = b(clip(lo[0]), clip(lo[1]), clip(hi[0]), clip(hi[1]));
        assert_eq!(query(&world, &r), query(&world, &bounded), "{r:?}");
    }
    assert_eq!(query(&world, &b(-inf, -inf, inf, inf)), all);
    // NaN anywhere, or an inverted axis: nothing.
    for k in 0..4 {
        let mut c = [l(-10.0), l(-10.0), l(10.0), l(10.0)];
        c[k] = T::nan();
        assert!(query(&world, &b(c[0], c[1], c[2], c[3])).is_empty());
    }
    assert!(query(&world, &b(inf, l(0.0), -inf, l(1.0))).is_empty());
    assert!(query(&world, &b(l(1.0), l(0.0), l(0.0), l(1.0))).is_empty());
    // ±0 and subnormal bounds answer as 0 (nothing has a boundary that close
    // to the lines x = 0 and y = 0 but the circle at the origin, covering them).
    let at_zero = query(&world, &b(l(0.0), l(0.0), l(0.5), l(0.5)));
    assert!(at_zero.contains(&handles[0]));
    for z in [
        -T::zero(),
        sub::<T>(),
        -sub::<T>(),
        <T as Float>::min_positive_value(),
    ] {
        assert_eq!(query(&world, &b(z, z, l(0.5), l(0.5))), at_zero);
    }
    // Points.
    let point = |w: &World<T>, x: T, y: T| {
        let (hits, errors) = w.query_point(&Point2::new(x, y));
        assert!(errors.is_empty(), "{errors:?}");
        hits
    };
    let origin = point(&world, T::zero(), T::zero());
    assert!(origin.contains(&handles[0]));
    for z in [-T::zero(), sub::<T>(), -sub::<T>()] {
        assert_eq!(point(&world, z, z), origin);
        assert_eq!(point(&world, z, T::zero()), origin);
    }
    for v in [T::nan(), inf, -inf, max::<T>(), -max::<T>()] {
        assert!(point(&world, v, T::zero()).is_empty(), "{v:?}");
        assert!(point(&world, T::zero(), v).is_empty(), "{v:?}");
    }
    // Objects near the ends of the range are found there, by points and by
    // regions whose centre overflows. (They sit 0.1 MAX inside the regions:
    // the spacing of floats there, 2e292 in f64, dwarfs any shape, so a
    // shape on a region's edge would be decided within rounding.)
    let m = max::<T>();
    let at = m * l(0.9);
    let far = world
        .insert(
            Circle::new(T::one()).unwrap(),
            Isometry2::translation(at, -at),
            Filter::ALL,
        )
        .unwrap();
    let far_box = world
        .insert(
            Obb::new(Vector2::new(l(3.0), l(1.0))).unwrap(),
            Isometry2::new(Vector2::new(-at, at), l(0.5)),
            Filter::ALL,
        )
        .unwrap();
    world.validate().unwrap();
    assert_eq!(point(&world, at, -at), vec![far]);
    assert_eq!(point(&world, -at, at), vec![far_box]);
    assert!(point(&world, m, -m).is_empty());
    assert_eq!(
        query(&world, &b(m / T::two(), -m, m, -m / T::two())),
        vec![far]
    );
    assert_eq!(
        query(&world, &b(-m, m / T::two(), -m / T::two(), m)),
        vec![far_box]
    );
    assert_eq!(
        query(&world, &b(m / T::two(), -inf, inf, l(0.0))),
        vec![far]
    );
    assert!(query(&world, &b(m * l(0.95), -inf, inf, inf)).is_empty());
    // A point object at the very end of the range: found at MAX, not at +∞
    // (no finite point is).
    let end = world
        .insert(
            Point::new(Point2::origin()).unwrap(),
            Isometry2::translation(m, T::zero()),
            Filter::ALL,
        )
        .unwrap();
    assert_eq!(point(&world, m, T::zero()), vec![end]);
    assert!(point(&world, inf, T::zero()).is_empty());
    assert!(query(&world, &b(inf, -inf, inf, inf)).is_empty());
    assert!(query(&world, &b(-inf, -inf, -inf, inf)).is_empty());
    assert_eq!(query(&world, &b(m, -inf, inf, inf)), vec![end]);
    world.remove(end).unwrap();
    let mut everything = all.clone();
    everything.extend([far, far_box]);
    assert_eq!(query(&world, &b(-inf, -inf, inf, inf)), everything);
    assert_eq!(query(&world, &b(-m, -m, m, m)), everything);
    assert_pairs_are_brute_force(&mut world);
}
shape::for_each_precision!(hostile_queries_2d, hostile_queries_2d);

// ------------------------------------------------------------ 3D world

fn pose3_is_finite<T: Real>(p: &Isometry3<T>) -> bool {
    let q = p.rotation.quaternion();
    p.translation
        .vector
        .iter()
        .chain(q.coords.iter())
        .all(|v| v.is_finite())
}

fn snapshot3<T: Real>(world: &World3<T>) -> Vec<(Handle, Isometry3<T>)> {
    world
        .handles()
        .map(|h| (h, *world.get(h).unwrap().pose()))
        .collect()
}

fn assert_pairs_are_brute_force_3d<T: Real>(world: &mut World3<T>) {
    let table = DispatchTable3::<T>::new();
    let handles: Vec<Handle> = world.handles().collect();
    let mut hits = Vec::new();
    for (i, &a) in handles.iter().enumerate() {
        for &b in &handles[i + 1..] {
            let (oa, ob) = (world.get(a).unwrap(), world.get(b).unwrap());
            let hit = table.intersects(oa.shape(), oa.pose(), ob.shape(), ob.pose());
            if hit.unwrap_or_else(|e| panic!("{e:?}: {oa:?} / {ob:?}")) {
                hits.push((a, b));
            }
        }
    }
    world.validate().unwrap();
    let c = world.collisions();
    let got: Vec<(Handle, Handle)> = c.pairs.iter().map(|p| (p.a, p.b)).collect();
    assert_eq!(got, hits);
    assert!(c.errors.is_empty(), "{:?}", c.errors);
    for p in &c.pairs {
        let k = &p.contact;
        assert!(
            k.normal
                .iter()
                .chain(k.point_a.iter())
                .chain(k.point_b.iter())
                .chain([k.depth].iter())
                .all(|v| !v.is_nan()),
            "{k:?}"
        );
    }
}

/// 3D: hostile cell sizes, poses (translation and rotation numbers) and
/// queries.
fn hostile_world_3d<T: Real>() {
    let l = T::lit;
    let mut world = World3::<T>::new(T::one()).unwrap();
    let shapes: Vec<Box<dyn Shape3<T>>> = vec![
        Box::new(Sphere::new(T::one()).unwrap()),
        Box::new(Cuboid::new(Vector3::new(l(2.0), l(0.5), l(1.0))).unwrap()),
        Box::new(Aabb3::from_half_extents(Vector3::new(l(1.0), l(1.0), l(0.25))).unwrap()),
        Box::new(Cuboid::new(Vector3::new(T::one(), T::one(), l(1e-7))).unwrap()),
    ];
    let mut handles = Vec::new();
    for (i, s) in shapes.into_iter().enumerate() {
        let x = l(1.5 * i as f64);
        let pose = Isometry3::new(
            Vector3::new(x, l(0.2), l(-0.1)),
            Vector3::new(l(0.1), l(0.2), l(0.3)),
        );
        handles.push(world.insert_boxed(s, pose, Filter::ALL).unwrap());
    }
    assert_pairs_are_brute_force_3d(&mut world);
    for slot in 0..6 {
        for v in hostile::<T>() {
            let mut t = [l(0.5), l(0.25), l(-0.5)];
            let mut r = [l(0.3), l(-0.2), l(0.1)];
            if slot < 3 {
                t[slot] = v;
            } else {
                r[slot - 3] = v;
            }
            let pose = Isometry3::new(Vector3::from(t), Vector3::from(r));
            let finite = pose3_is_finite(&pose);
            let before = snapshot3(&world);
            let ins = world.insert(Sphere::new(T::half()).unwrap(), pose, Filter::ALL);
            if finite {
                let h = ins.unwrap();
                assert_pairs_are_brute_force_3d(&mut world);
                world.remove(h).unwrap();
            } else {
                assert_eq!(ins, Err(WorldError::NonFinitePose));
            }
            for &h in &handles {
                let old = *world.get(h).unwrap().pose();
                let r = world.set_pose(h, pose);
                if finite {
                    r.unwrap();
                    assert_pairs_are_brute_force_3d(&mut world);
                    world.set_pose(h, old).unwrap();
                } else {
                    assert_eq!(r, Err(WorldError::NonFinitePose));
                }
            }
            world.validate().unwrap();
            assert_eq!(snapshot3(&world), before);
        }
    }
    // Queries: unbounded regions, NaN regions, hostile points.
    let inf = T::infinity();
    let b3 = |lo: [T; 3], hi: [T; 3]| BoundingBox3::new(Point3::from(lo), Point3::from(hi));
    let query = |w: &World3<T>, r: &BoundingBox3<T>| {
        let (hits, errors) = w.query_region(r);
        assert!(errors.is_empty(), "{errors:?}");
        hits
    };
    assert_eq!(query(&world, &b3([-inf; 3], [inf; 3])), handles);
    assert_eq!(
        query(&world, &b3([-max::<T>(); 3], [max::<T>(); 3])),
        handles
    );
    assert_eq!(
        query(&world, &b3([l(3.5), -inf, -inf], [inf, inf, inf])),
        query(&world, &b3([l(3.5), l(-1e6), l(-1e6)], [l(1e6); 3]))
    );
    assert!(query(&world, &b3([T::nan(), l(0.0), l(0.0)], [l(1.0); 3])).is_empty());
    assert!(query(&world, &b3([inf; 3], [-inf; 3])).is_empty());
    let m = max::<T>();
    let at = m * l(0.9);
    let far = world
        .insert(
            Sphere::new(T::one()).unwrap(),
            Isometry3::translation(at, -at, at),
            Filter::ALL,
        )
        .unwrap();
    assert_eq!(
        query(
            &world,
            &b3([m / T::two(), -m, m / T::two()], [m, -m / T::two(), m])
        ),
        vec![far]
    );
    for p in [
        [T::nan(), T::zero(), T::zero()],
        [inf, T::zero(), T::zero()],
        [-m, m, -m],
        [m, -m, m],
    ] {
        let (hits, errors) = world.query_point(&Point3::from(p));
        assert!(hits.is_empty() && errors.is_empty(), "{p:?}");
    }
    let (hits, errors) = world.query_point(&Point3::new(at, -at, at));
    assert_eq!((hits, errors), (vec![far], vec![]));
    assert_pairs_are_brute_force_3d(&mut world);
}
shape::for_each_precision!(hostile_world_3d, hostile_world_3d);

// ------------------------------------------------------------ grid API

fn brute_force<T: Real, const D: usize>(bs: &[(u32, BoundingBox<T, D>)]) -> Vec<(u32, u32)> {
    let mut v = Vec::new();
    for (i, (a, ba)) in bs.iter().enumerate() {
        for (b, bb) in &bs[i + 1..] {
            if ba.intersects(bb) {
                v.push(if a < b { (*a, *b) } else { (*b, *a) });
            }
        }
    }
    v.sort_unstable();
    v
}

/// Everything the grid answers, against brute force over its stored boxes.
fn assert_grid_is_brute_force<T: Real, const D: usize>(g: &Grid<T, D>) {
    g.validate().unwrap();
    let bs: Vec<(u32, BoundingBox<T, D>)> = g.iter().map(|(i, b)| (i, *b)).collect();
    assert_eq!(g.len(), bs.len());
    let mut pairs = Vec::new();
    g.candidate_pairs(&mut pairs);
    assert_eq!(pairs, brute_force(&bs));
    let mut got = Vec::new();
    for (_, q) in &bs {
        g.query_region(q, &mut got);
        let want: Vec<u32> = bs
            .iter()
            .filter(|(_, b)| b.intersects(q))
            .map(|(i, _)| *i)
            .collect();
        assert_eq!(got, want, "region {q:?}");
        for p in [q.min, q.max] {
            g.query_point(&p, &mut got);
            let want: Vec<u32> = bs
                .iter()
                .filter(|(_, b)| b.contains_point(&p))
                .map(|(i, _)| *i)
                .collect();
            assert_eq!(got, want, "point {p:?}");
        }
    }
}

/// Boxes with hostile coordinates are refused (the grid unchanged); unbounded
/// and NaN query regions; suggested cell sizes are valid.
fn hostile_grid_api<T: Real>() {
    let l = T::lit;
    let bx = |x0: T, y0: T, x1: T, y1: T| {
        BoundingBox::new(VPoint::from([x0, y0]), VPoint::from([x1, y1]))
    };
    let mut g = Grid::<T, 2>::new(T::one()).unwrap();
    g.insert(0, bx(l(0.0), l(0.0), l(1.0), l(1.0))).unwrap();
    g.insert(1, bx(l(0.5), l(-3.0), l(4.0), l(0.5))).unwrap();
    g.insert(2, bx(l(-100.0), l(-100.0), l(100.0), l(100.0)))
        .unwrap(); // oversize
    assert_eq!(g.stats().oversize, 1);
    for v in hostile::<T>() {
        for k in 0..4 {
            let mut c = [l(-1.0), l(-1.0), l(1.0), l(1.0)];
            c[k] = v;
            let b = bx(c[0], c[1], c[2], c[3]);
            let valid = b.is_valid();
            let before: Vec<_> = g.iter().map(|(i, b)| (i, *b)).collect();
            let r = g.insert(7, b);
            if valid {
                r.unwrap();
                assert_grid_is_brute_force(&g);
                assert_eq!(g.remove(7).unwrap(), b);
            } else {
                assert_eq!(r, Err(GridError::InvalidBounds { id: 7 }), "{b:?}");
            }
            for id in 0..3 {
                let old = *g.bounds(id).unwrap();
                let r = g.update(id, b);
                if valid {
                    r.unwrap();
                    assert_grid_is_brute_force(&g);
                    g.update(id, old).unwrap();
                } else {
                    assert_eq!(r, Err(GridError::InvalidBounds { id }));
                }
            }
            let after: Vec<_> = g.iter().map(|(i, b)| (i, *b)).collect();
            assert_eq!(after, before);
            assert_grid_is_brute_force(&g);
        }
    }
    assert_eq!(
        g.update(9, bx(l(0.0), l(0.0), l(1.0), l(1.0))),
        Err(GridError::UnknownId { id: 9 })
    );
    assert_eq!(g.remove(9), Err(GridError::UnknownId { id: 9 }));
    // Region queries: unbounded, NaN, inverted.
    let inf = T::infinity();
    let mut out = Vec::new();
    g.query_region(&bx(-inf, -inf, inf, inf), &mut out);
    assert_eq!(out, vec![0, 1, 2]);
    g.query_region(&bx(l(2.0), -inf, inf, l(0.0)), &mut out);
    assert_eq!(out, vec![1, 2]);
    g.query_region(&bx(l(200.0), -inf, inf, inf), &mut out);
    assert!(out.is_empty());
    for k in 0..4 {
        let mut c = [-inf, -inf, inf, inf];
        c[k] = T::nan();
        g.query_region(&bx(c[0], c[1], c[2], c[3]), &mut out);
        assert!(out.is_empty(), "{c:?}");
    }
    g.query_region(&bx(inf, inf, -inf, -inf), &mut out);
    assert!(out.is_empty());
    g.query_point(&VPoint::from([T::nan(), T::zero()]), &mut out);
    assert!(out.is_empty());
    g.query_point(&VPoint::from([-T::zero(), -T::zero()]), &mut out);
    assert_eq!(out, vec![0, 2]);
    // Suggested cell sizes: a valid size or none, whatever the boxes.
    let m = max::<T>();
    for boxes in [
        vec![bx(-m, -m, m, m)],
        vec![bx(l(0.0), l(0.0), sub::<T>(), sub::<T>())],
        vec![bx(l(0.0), l(0.0), m, m), bx(-m, l(0.0), l(0.0), m)],
        vec![bx(l(0.0), l(0.0), l(0.0), l(0.0))],
        vec![],
    ] {
        if let Some(s) = Grid::<T, 2>::suggest_cell_size(&boxes) {
            assert!(Grid::<T, 2>::new(s).is_ok(), "{s:?}");
        }
    }
    let mut w = World::<T>::new(T::one()).unwrap();
    w.insert(
        Segment::new(
            Point2::new(-shape::tolerance::max_size::<T>(), T::zero()),
            Point2::new(shape::tolerance::max_size::<T>(), T::zero()),
        )
        .unwrap(),
        Isometry2::identity(),
        Filter::ALL,
    )
    .unwrap();
    w.insert(
        Point::new(Point2::origin()).unwrap(),
        Isometry2::identity(),
        Filter::ALL,
    )
    .unwrap();
    w.auto_cell_size();
    assert!(Float::is_finite(w.grid().cell_size()));
    assert_pairs_are_brute_force(&mut w);
}
shape::for_each_precision!(hostile_grid_api, hostile_grid_api);

// ------------------------------------------------------------ float limits

/// Boxes near the float limits, in 1D coordinates `(lo, hi)` along each axis.
fn limit_intervals<T: Real>(cell: T) -> Vec<(T, T)> {
    let l = T::lit;
    let m = max::<T>();
    let eps = T::epsilon();
    // Where the cell coordinates saturate: 2⁶² cells.
    let edge = l(4_611_686_018_427_387_904.0) * cell;
    let mut v = vec![
        (l(1e30), l(1e30)),
        (l(1e30) - l(1e29), l(1e30) + l(1e29)),
        (l(-1e30), l(-1e30) + l(1e20)),
        (l(-1e30) - l(1e30), l(-1e30)),
        (m / T::two(), m / T::two()),
        (m / T::two() - l(1e30), m / T::two()),
        (-m / T::two(), -m / T::two() + m / l(8.0)),
        (-m / T::two(), m / T::two()),
        (-m, m),
        (m, m),
        (-m, -m),
        (-m, -m / T::two()),
        (T::zero(), sub::<T>()),
        (-sub::<T>(), -T::zero()),
        (-T::zero(), T::zero()),
        (l(-1.0), l(1.0)),
    ];
    if Float::is_finite(edge) {
        // Straddling and just inside the saturation, on both sides.
        for s in [T::one(), -T::one()] {
            let e = edge * s;
            v.push((e * (T::one() - eps * l(4.0)), e * (T::one() - eps)));
            v.push((e * (T::one() - eps * l(2.0)), e * (T::one() + eps * l(2.0))));
            v.push((e, e));
            v.push((e * (T::one() + eps), e * l(2.0)));
        }
    }
    v.into_iter()
        .map(|(a, b)| if a <= b { (a, b) } else { (b, a) })
        .filter(|(a, b)| Float::is_finite(*a) && Float::is_finite(*b))
        .collect()
}

fn limit_cells<T: Real>() -> Vec<T> {
    let l = T::lit;
    vec![
        T::one(),
        l(1e-30),
        <T as Float>::min_positive_value(),
        l(1e28),
        max::<T>() / l(4.0),
        max::<T>(),
    ]
}

/// The grid with boxes near the float limits, 2D and 3D, each cell size:
/// inserted, moved, re-sized and removed, exactly brute force after each step.
fn grid_near_float_limits<T: Real>() {
    for cell in limit_cells::<T>() {
        let iv = limit_intervals::<T>(cell);
        let n = iv.len();
        // 2D: pairs of intervals (i, i + k) for a spread of combinations.
        let mut g2 = Grid::<T, 2>::new(cell).unwrap();
        let mut g3 = Grid::<T, 3>::new(cell).unwrap();
        let mut id = 0u32;
        for i in 0..n {
            for k in [0, 1, 3, 7] {
                let (x, y, z) = (iv[i], iv[(i + k) % n], iv[(i + 2 * k + 1) % n]);
                g2.insert(
                    id,
                    BoundingBox::new(VPoint::from([x.0, y.0]), VPoint::from([x.1, y.1])),
                )
                .unwrap();
                g3.insert(
                    id,
                    BoundingBox::new(VPoint::from([x.0, y.0, z.0]), VPoint::from([x.1, y.1, z.1])),
                )
                .unwrap();
                id += 1;
            }
        }
        assert_grid_is_brute_force(&g2);
        assert_grid_is_brute_force(&g3);
        // Move every third object onto another's box.
        for i in (0..id).step_by(3) {
            let j = (i * 7 + 5) % id;
            let b2 = *g2.bounds(j).unwrap();
            g2.update(i, b2).unwrap();
            let b3 = *g3.bounds(j).unwrap();
            g3.update(i, b3).unwrap();
        }
        assert_grid_is_brute_force(&g2);
        assert_grid_is_brute_force(&g3);
        // Every other cell size.
        for other in limit_cells::<T>() {
            g2.set_cell_size(other).unwrap();
            g2.validate().unwrap();
        }
        g2.set_cell_size(cell).unwrap();
        // Remove every other object.
        for i in (0..id).step_by(2) {
            g2.remove(i).unwrap();
            g3.remove(i).unwrap();
        }
        assert_grid_is_brute_force(&g2);
        assert_grid_is_brute_force(&g3);
    }
}
shape::for_each_precision!(grid_near_float_limits, grid_near_float_limits);

/// Shapes far out: clusters at ±1e30 and ±MAX/2, shapes spanning the range,
/// with cells from tiny to huge; the world's pairs are the narrow phase over
/// all pairs after every step.
fn world_near_float_limits<T: Real>() {
    let l = T::lit;
    let m = max::<T>();
    // Sizes within the kernels' range (products of four lengths finite):
    // f32 shapes 1e4 wide at 1e30, where floats are 7.6e22 apart, coincide
    // or are neighbours; f64 shapes 1e27 wide overlap in varied ways.
    let single = T::epsilon().as_f64() > 1e-10;
    let size = if single { 1e4 } else { 1e27 };
    let span = if single { 1e9 } else { 1e40 };
    let centres = [
        (l(1e30), l(1e30)),
        (l(-1e30), l(1e30)),
        (m / T::two(), -m / T::two()),
        (-m / T::two(), T::zero()),
        (T::zero(), T::zero()),
    ];
    for cell in [T::one(), l(1e-30), l(1e28), m / l(4.0)] {
        let mut world = World::<T>::new(cell).unwrap();
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            (rng >> 11) as f64 / (1u64 << 53) as f64 - 0.5
        };
        let s = l(size);
        for &(cx, cy) in &centres {
            for k in 0..6 {
                let shape: Box<dyn Shape<T>> = match k % 4 {
                    0 => Box::new(Circle::new(s).unwrap()),
                    1 => Box::new(Obb::new(Vector2::new(s * l(2.0), s * l(0.5))).unwrap()),
                    2 => Box::new(Ellipse::new(Vector2::new(s * l(1.5), s * l(0.5))).unwrap()),
                    _ => Box::new(
                        ConvexPolygon::new(&[
                            Point2::new(-s, -s),
                            Point2::new(s, -s),
                            Point2::new(T::zero(), s),
                        ])
                        .unwrap(),
                    ),
                };
                // f32: on the centre's float or one of its neighbours.
                let (dx, dy) = if single {
                    let ulp = Float::abs(cx) * T::epsilon();
                    (
                        ulp * l((2.0 * next()).round()),
                        ulp * l((2.0 * next()).round()),
                    )
                } else {
                    (s * l(4.0 * next()), s * l(4.0 * next()))
                };
                let pose = Isometry2::new(Vector2::new(cx + dx, cy + dy), l(6.0 * next()));
                world.insert_boxed(shape, pose, Filter::ALL).unwrap();
            }
        }
        // Shapes whose boxes span huge ranges of cells, through the origin's
        // cluster (long enough that ε times their length stays below the
        // small shapes' size: the kernels decide to within rounding of it).
        let h = l(span);
        world
            .insert(
                Segment::new(Point2::new(-h, T::zero()), Point2::new(h, T::zero())).unwrap(),
                Isometry2::new(Vector2::zeros(), l(0.1)),
                Filter::ALL,
            )
            .unwrap();
        world
            .insert(
                Aabb::new(Point2::new(-h, -h), Point2::new(h, h / l(1e3))).unwrap(),
                Isometry2::identity(),
                Filter::ALL,
            )
            .unwrap();
        world
            .insert(
                Capsule::new(Point2::new(T::zero(), -h), Point2::new(T::zero(), h), s).unwrap(),
                Isometry2::translation(s, T::zero()),
                Filter::ALL,
            )
            .unwrap();
        world
            .insert(
                Point::new(Point2::origin()).unwrap(),
                Isometry2::translation(m, m),
                Filter::ALL,
            )
            .unwrap();
        world
            .insert(
                Point::new(Point2::origin()).unwrap(),
                Isometry2::translation(m, m),
                Filter::ALL,
            )
            .unwrap();
        assert_pairs_are_brute_force(&mut world);
        // Move shapes between clusters, then remove some.
        let handles: Vec<Handle> = world.handles().collect();
        for (i, &hd) in handles.iter().enumerate().step_by(4) {
            let (cx, cy) = centres[(i / 4) % centres.len()];
            let p = Isometry2::new(Vector2::new(cx + s * l(next()), cy), l(next()));
            world.set_pose(hd, p).unwrap();
        }
        assert_pairs_are_brute_force(&mut world);
        for &hd in handles.iter().step_by(3) {
            world.remove(hd).unwrap();
        }
        assert_pairs_are_brute_force(&mut world);
        world.set_cell_size(l(1e29)).unwrap();
        assert_pairs_are_brute_force(&mut world);
    }
}
shape::for_each_precision!(world_near_float_limits, world_near_float_limits);
