//! The built-in composite shapes (issue 14) through the table, f32 and f64
//! from one generic body: a crate and a capsule pressed into a tile-map
//! floor and into a 100-segment chain floor (one- and two-sided) get the
//! floor's normal and true depth at every position, seams included; sliding
//! along either floor is never stopped; a concave polygon's diagonals never
//! give a normal; a compound car on a chain; the parts are named.

use nalgebra::{Isometry2, Point2, Vector2};
use narrowphase::composite::Parts;
use narrowphase::{
    ClosestPoints, ContactQuery, DispatchTable, ShapeCastArgs, ShapeCastOptions, ShapeCastStatus,
};
use num_traits::Float;
use shape::prelude::*;
use shape::testing::test_tolerance;

fn v<T: Real>(x: f64, y: f64) -> Vector2<T> {
    Vector2::new(T::lit(x), T::lit(y))
}
fn p<T: Real>(x: f64, y: f64) -> Point2<T> {
    Point2::new(T::lit(x), T::lit(y))
}
fn at<T: Real>(x: f64, y: f64) -> Isometry2<T> {
    Isometry2::translation(T::lit(x), T::lit(y))
}

/// A 16-tile floor, one row of unit tiles, top at y = 1 (x in [0, 16]),
/// over a second row with a gap, so that some tiles have solid ground
/// below and some not.
fn tile_floor<T: Real>() -> TileMap<T> {
    TileMap::from_rows(
        v::<T>(1.0, 1.0),
        &[
            [true; 16],
            [
                true, true, true, false, true, true, true, true, true, true, true, true, true,
                true, true, true,
            ],
        ],
    )
    .unwrap()
}

/// A straight chain from x = 100 to x = 0 at y = 0 in 100 segments (drawn
/// right to left, so a one-sided chain faces up).
fn chain_floor<T: Real>(one_sided: bool) -> Polyline<T> {
    let pts: Vec<Point2<T>> = (0..=100).rev().map(|i| p::<T>(i as f64, 0.0)).collect();
    Polyline::new(&pts, false)
        .unwrap()
        .with_one_sided(one_sided)
}

/// `shape` pressed `sink` into a floor whose top is at `top`, at each `x`:
/// the contact's normal is up and its depth `sink`, in both orders; the
/// manifold's normal is up.
fn pressed_in<T: Real>(
    floor: &dyn Shape<T>,
    floor_pose: &Isometry2<T>,
    shape: &dyn Shape<T>,
    bottom: f64,
    top: f64,
    xs: impl Iterator<Item = f64>,
) {
    let t = DispatchTable::<T>::new();
    let tol = test_tolerance::<T>(T::lit(100.0));
    let sink = 0.01;
    for x in xs {
        let pose = at::<T>(x, top - bottom - sink);
        let c = t.contact(floor, floor_pose, shape, &pose).unwrap().unwrap();
        assert!(
            (c.normal.into_inner() - v::<T>(0.0, 1.0)).norm() <= tol,
            "x = {x}: {c:?}"
        );
        assert!(Float::abs(c.depth - T::lit(sink)) <= tol, "x = {x}: {c:?}");
        assert_eq!(
            t.contact(shape, &pose, floor, floor_pose).unwrap(),
            Some(c.flipped())
        );
        let m = t
            .contact_manifold(floor, floor_pose, shape, &pose, T::zero())
            .unwrap()
            .unwrap();
        assert!(
            (m.normal().into_inner() - v::<T>(0.0, 1.0)).norm() <= tol,
            "x = {x}: {m:?}"
        );
        assert!(
            Float::abs(m.deepest().separation + T::lit(sink)) <= tol,
            "x = {x}: {m:?}"
        );
    }
}

/// A resting `shape` sliding along the floor at `vx` is never stopped.
fn slides<T: Real>(
    floor: &dyn Shape<T>,
    floor_pose: &Isometry2<T>,
    shape: &dyn Shape<T>,
    start: Isometry2<T>,
    distance: f64,
) {
    let t = DispatchTable::<T>::new();
    for dir in [1.0, -1.0] {
        let args = ShapeCastArgs {
            vel_a: Vector2::zeros(),
            vel_b: v::<T>(dir, 0.0),
            max_toi: T::lit(distance),
            options: ShapeCastOptions {
                stop_at_penetration: false,
            },
        };
        let s = if dir > 0.0 {
            start
        } else {
            at::<T>(
                start.translation.x.to_f64() + distance,
                start.translation.y.to_f64(),
            )
        };
        assert_eq!(
            t.cast_shapes(floor, floor_pose, shape, &s, args).unwrap(),
            None
        );
        // And pressing down while moving is a hit at once, up.
        let down = ShapeCastArgs {
            vel_b: v::<T>(dir, -1.0),
            ..args
        };
        let hit = t
            .cast_shapes(floor, floor_pose, shape, &s, down)
            .unwrap()
            .unwrap();
        // At once: time 0 (or, for a chain segment's kernel, within rounding
        // of it).
        assert!(hit.toi <= test_tolerance::<T>(T::one()), "{hit:?}");
        if hit.toi == T::zero() {
            assert_eq!(hit.status, ShapeCastStatus::Penetrating);
        }
        assert!(
            (hit.normal.into_inner() - v::<T>(0.0, 1.0)).norm() <= test_tolerance::<T>(T::one())
        );
    }
}

trait ToF64 {
    fn to_f64(self) -> f64;
}
impl<T: Real> ToF64 for T {
    fn to_f64(self) -> f64 {
        num_traits::ToPrimitive::to_f64(&self).unwrap()
    }
}

fn tile_map_floor<T: Real>() {
    let floor = tile_floor::<T>();
    let crate_ = Obb::new(v::<T>(0.5, 0.5)).unwrap();
    let capsule = Capsule::new(p::<T>(0.0, -0.5), p::<T>(0.0, 0.5), T::lit(0.3)).unwrap();
    // Every sixteenth of a tile from x = 1 to 15 (seams at the integers).
    let xs = || (16..=240).map(|k| k as f64 / 16.0);
    let id = Isometry2::identity();
    pressed_in(&floor, &id, &crate_, -0.5, 2.0, xs());
    pressed_in(&floor, &id, &capsule, -0.8, 2.0, xs());
    // The map ignores rotation, as its tiles do.
    let turned = Isometry2::rotation(T::lit(0.7));
    pressed_in(&floor, &turned, &crate_, -0.5, 2.0, xs());
    slides(
        &floor,
        &Isometry2::identity(),
        &crate_,
        at::<T>(1.0, 2.5),
        13.0,
    );
    slides(
        &floor,
        &Isometry2::identity(),
        &capsule,
        at::<T>(1.0, 2.8),
        13.0,
    );
    // The parts: tile (col 7, row 1) under x = 7.5 is part 1·16 + 7 = 23.
    let t = DispatchTable::<T>::new();
    let ball = Circle::new(T::lit(0.25)).unwrap();
    let (c, parts) = t
        .query_parts::<ContactQuery>(
            &floor,
            &Isometry2::identity(),
            &ball,
            &at::<T>(7.5, 2.2),
            (),
        )
        .unwrap();
    assert!(c.is_some());
    assert_eq!(
        parts,
        Parts {
            a: Some(23),
            b: None
        }
    );
}

#[test]
fn tile_map_floor_f32() {
    tile_map_floor::<f32>();
}
#[test]
fn tile_map_floor_f64() {
    tile_map_floor::<f64>();
}

fn chain_floor_test<T: Real>() {
    let crate_ = Obb::new(v::<T>(0.5, 0.5)).unwrap();
    let capsule = Capsule::new(p::<T>(0.0, -0.5), p::<T>(0.0, 0.5), T::lit(0.3)).unwrap();
    let xs = || (16..=1584).step_by(7).map(|k| k as f64 / 16.0);
    for one_sided in [false, true] {
        let floor = chain_floor::<T>(one_sided);
        let id = Isometry2::identity();
        pressed_in(&floor, &id, &crate_, -0.5, 0.0, xs());
        pressed_in(&floor, &id, &capsule, -0.8, 0.0, xs());
        slides(&floor, &id, &crate_, at::<T>(1.0, 0.5), 98.0);
        slides(&floor, &id, &capsule, at::<T>(1.0, 0.8), 98.0);
    }
    // One-sided: a ball whose centre is below the floor passes; two-sided,
    // it is pushed down.
    let t = DispatchTable::<T>::new();
    let ball = Circle::new(T::lit(0.25)).unwrap();
    let below = at::<T>(50.5, -0.1);
    let id = Isometry2::identity();
    assert!(
        !t.intersects(&chain_floor::<T>(true), &id, &ball, &below)
            .unwrap()
    );
    let c = t
        .contact(&chain_floor::<T>(false), &id, &ball, &below)
        .unwrap()
        .unwrap();
    assert!((c.normal.into_inner() - v::<T>(0.0, -1.0)).norm() <= test_tolerance::<T>(T::one()));
    // Closest points name the segment: x = 50.5 is on segment 49 (points 49
    // and 50 are x = 51 and x = 50, drawn right to left).
    let (cp, parts) = t
        .query_parts::<narrowphase::ClosestPointsQuery>(
            &chain_floor::<T>(false),
            &id,
            &ball,
            &at::<T>(50.5, 1.0),
            T::infinity(),
        )
        .unwrap();
    assert_eq!(parts.a, Some(49));
    let ClosestPoints::WithinMargin { distance, .. } = cp else {
        panic!("{cp:?}")
    };
    assert!(Float::abs(distance - T::lit(0.75)) <= test_tolerance::<T>(T::one()));
}

#[test]
fn chain_floor_f32() {
    chain_floor_test::<f32>();
}
#[test]
fn chain_floor_f64() {
    chain_floor_test::<f64>();
}

fn concave_and_compound<T: Real>() {
    let t = DispatchTable::<T>::new();
    let tol = test_tolerance::<T>(T::lit(10.0));
    // A U: outer 0..6 × 0..4, the notch 2..4 × 1..4.
    let u = ConcavePolygon::new(&[
        p::<T>(0.0, 0.0),
        p(6.0, 0.0),
        p(6.0, 4.0),
        p(4.0, 4.0),
        p(4.0, 1.0),
        p(2.0, 1.0),
        p(2.0, 4.0),
        p(0.0, 4.0),
    ])
    .unwrap();
    let id = Isometry2::identity();
    // A crate pressed into the U's bottom at every x between the walls: the
    // normal is up whatever part and diagonal lies below.
    let small = Obb::new(v::<T>(0.4, 0.4)).unwrap();
    for k in 0..=16 {
        let x = 2.4 + 1.2 * k as f64 / 16.0;
        let pose = at::<T>(x, 1.39);
        let c = t.contact(&u, &id, &small, &pose).unwrap().unwrap();
        assert!(
            (c.normal.into_inner() - v::<T>(0.0, 1.0)).norm() <= tol,
            "x = {x}: {c:?}"
        );
        assert!(Float::abs(c.depth - T::lit(0.01)) <= tol, "x = {x}: {c:?}");
    }
    // Under the U, pressed up into its flat bottom at every x: the normal is
    // down, the depth 0.01.
    for k in 0..=48 {
        let x = 0.5 + 5.0 * k as f64 / 48.0;
        let pose = at::<T>(x, -0.39);
        let c = t.contact(&u, &id, &small, &pose).unwrap().unwrap();
        assert!(
            (c.normal.into_inner() - v::<T>(0.0, -1.0)).norm() <= tol,
            "x = {x}: {c:?}"
        );
        assert!(Float::abs(c.depth - T::lit(0.01)) <= tol, "x = {x}: {c:?}");
    }
    // A car: a body and two wheels, on the chain floor, wheels sunk 0.02.
    let body = Obb::new(v::<T>(1.5, 0.3)).unwrap();
    let wheel = Circle::new(T::lit(0.4)).unwrap();
    let car = Compound::new(vec![
        (Isometry2::identity(), body.into()),
        (at::<T>(-1.0, -0.5), wheel.into()),
        (at::<T>(1.0, -0.5), wheel.into()),
    ])
    .unwrap();
    let floor = chain_floor::<T>(true);
    let car_pose = at::<T>(20.0, 0.88);
    let (c, parts) = t
        .query_parts::<ContactQuery>(&car, &car_pose, &floor, &id, ())
        .unwrap();
    let c = c.unwrap();
    assert!(Float::abs(c.depth - T::lit(0.02)) <= tol, "{c:?}");
    assert!(
        (c.normal.into_inner() - v::<T>(0.0, -1.0)).norm() <= tol,
        "{c:?}"
    );
    // Both wheels are equally deep: the lower part ids win (wheel 1; the
    // floor's segment under x = 19 is 80).
    assert_eq!(
        parts,
        Parts {
            a: Some(1),
            b: Some(80)
        }
    );
    let m = t
        .contact_manifold(&car, &car_pose, &floor, &id, T::zero())
        .unwrap()
        .unwrap();
    assert_eq!(m.len(), 2, "{m:?}");
    let mut xs: Vec<f64> = m.points().iter().map(|q| q.point_a.x.to_f64()).collect();
    xs.sort_by(f64::total_cmp);
    assert!(
        (xs[0] - 19.0).abs() < 1e-3 && (xs[1] - 21.0).abs() < 1e-3,
        "{m:?}"
    );
}

#[test]
fn concave_and_compound_f32() {
    concave_and_compound::<f32>();
}
#[test]
fn concave_and_compound_f64() {
    concave_and_compound::<f64>();
}

/// Time of impact with rotation against composites: a crate spinning as it
/// falls onto the tile-map floor and onto the chain floor stops at the
/// target separation, and no sampled time before it is closer.
fn spinning_crate_lands<T: Real>() {
    use narrowphase::toi::{Sweep, ToiOptions, ToiStatus};
    let t = DispatchTable::<T>::new();
    let crate_ = Obb::new(v::<T>(0.5, 0.5)).unwrap();
    let opts = ToiOptions::default();
    let still = Sweep::linear(&Isometry2::identity(), &Vector2::zeros()).unwrap();
    let tiles = tile_floor::<T>();
    let chain = chain_floor::<T>(true);
    for (floor, top) in [
        (&tiles as &dyn Shape<T>, 2.0),
        (&chain as &dyn Shape<T>, 0.0),
    ] {
        let start = Isometry2::new(v::<T>(7.3, top + 3.0), T::zero());
        let end = Isometry2::new(v::<T>(8.1, top - 1.0), T::lit(1.3));
        let fall = Sweep::from_poses(&start, &end).unwrap();
        let hit = t
            .time_of_impact(floor, &still, &crate_, &fall, &opts)
            .unwrap();
        assert_eq!(hit.status, ToiStatus::Hit, "{hit:?}");
        let slack = opts.target + opts.tolerance;
        assert!(
            hit.distance >= opts.target - opts.tolerance && hit.distance <= slack,
            "{hit:?}"
        );
        // Before the hit, the crate is never closer than the target minus
        // the tolerance (sampled).
        for k in 0..64 {
            let s = hit.t * T::lit(k as f64 / 64.0);
            let d = match t
                .closest_points(
                    floor,
                    &Isometry2::identity(),
                    &crate_,
                    &fall.pose_at(s),
                    T::infinity(),
                )
                .unwrap()
            {
                ClosestPoints::WithinMargin { distance, .. } => distance,
                other => panic!("{other:?} at {s:?}"),
            };
            assert!(d >= opts.target - opts.tolerance, "{d:?} at {s:?}");
        }
    }
}

#[test]
fn spinning_crate_lands_f32() {
    spinning_crate_lands::<f32>();
}
#[test]
fn spinning_crate_lands_f64() {
    spinning_crate_lands::<f64>();
}
