//! Composite shapes (`Compound`, `Polyline`, `ConcavePolygon`, `TileMap`) in
//! the World (issue 14), f32 and f64 through one generic body each.
//!
//! - Every World query reaches them: `collisions` (contacts, manifolds,
//!   swept pairs of continuous objects), `cast_ray*`, `project_point`,
//!   `query_region`, `query_point`, `cast_shape`, `move_and_slide`; answers
//!   equal brute force over every object through the table, and name the
//!   parts as `Table::query_parts` (pairs) and the shapes' own
//!   `cast_ray_part` (rays) do; pairs without a composite say
//!   `Parts::NONE`.
//! - Known values: which segment, tile or part a ball rests on, a ray hits.
//! - No ghost collisions: a capsule and a box sliding along a long flat
//!   `Polyline` floor and along a `TileMap` floor, with and without a push
//!   into the floor, go the whole way, never stopped or deflected at a seam
//!   (every hit's normal is the floor's).
//! - Bad input against composites is a typed error; the world stays usable.

use broadphase::{Filter, Handle, MoveOptions, Parts, QueryFilter, World, WorldError};
use nalgebra::{Isometry2, Point2, Vector2};
use narrowphase::{ContactQuery, DispatchTable, ManifoldQuery, ShapeCastArgs, ShapeCastOptions};
use num_traits::Float;
use proptest::prelude::*;
use shape::dim2::composite::ConvexPart;
use shape::{
    BoundingBox2, Capsule, Circle, Compound, ConcavePolygon, Obb, Polyline, Ray, Real, Shape,
    TileMap,
};

fn p<T: Real>(x: f64, y: f64) -> Point2<T> {
    Point2::new(T::lit(x), T::lit(y))
}

fn at<T: Real>(x: f64, y: f64) -> Isometry2<T> {
    Isometry2::translation(T::lit(x), T::lit(y))
}

/// A flat two-sided floor along y = 0 from x = −20 to 20, one segment per
/// unit (segment `i` from x = −20 + i to −19 + i).
fn chain_floor<T: Real>() -> Polyline<T> {
    let points: Vec<Point2<T>> = (0..=40).map(|i| p(-20.0 + f64::from(i), 0.0)).collect();
    Polyline::new(&points, false).unwrap()
}

/// One row of 40 unit tiles, placed at (−20, −1): its top at y = 0 from
/// x = −20 to 20 (tile `i` from x = −20 + i).
fn tile_floor<T: Real>() -> TileMap<T> {
    TileMap::from_rows(Vector2::new(T::one(), T::one()), &[vec![true; 40]]).unwrap()
}

/// A small level: a chain floor (handle 0), a tile-map platform with a step
/// (1), an L-shaped concave block (2), a dumbbell compound (3).
struct Level<T: Real> {
    world: World<T>,
    floor: Handle,
    platform: Handle,
    block: Handle,
    dumbbell: Handle,
}

fn level<T: Real>() -> Level<T> {
    let mut world = World::<T>::new(T::lit(2.0)).unwrap();
    let floor = world
        .insert(chain_floor::<T>(), Isometry2::identity(), Filter::ALL)
        .unwrap();
    // Rows top first: a step on the right. At (30, 0): tiles from x = 30.
    let map = TileMap::from_rows(
        Vector2::new(T::one(), T::one()),
        &[[false, false, true], [true, true, true]],
    )
    .unwrap();
    let platform = world.insert(map, at(30.0, 0.0), Filter::ALL).unwrap();
    let l = ConcavePolygon::new(&[
        p::<T>(0.0, 0.0),
        p(2.0, 0.0),
        p(2.0, 1.0),
        p(1.0, 1.0),
        p(1.0, 2.0),
        p(0.0, 2.0),
    ])
    .unwrap();
    let block = world.insert(l, at(-10.0, 5.0), Filter::ALL).unwrap();
    let parts: Vec<(Isometry2<T>, ConvexPart<T>)> = vec![
        (at(-2.0, 0.0), Circle::new(T::one()).unwrap().into()),
        (at(2.0, 0.0), Circle::new(T::one()).unwrap().into()),
        (
            Isometry2::identity(),
            Obb::new(Vector2::new(T::lit(2.0), T::lit(0.25)))
                .unwrap()
                .into(),
        ),
    ];
    let dumbbell = world
        .insert(Compound::new(parts).unwrap(), at(10.0, 10.0), Filter::ALL)
        .unwrap();
    Level {
        world,
        floor,
        platform,
        block,
        dumbbell,
    }
}

/// The pairs of `w` that collide, by brute force over every pair through
/// the table's `query_parts`, sorted by handle.
#[allow(clippy::type_complexity)]
fn brute_contacts<T: Real>(w: &World<T>) -> Vec<(Handle, Handle, narrowphase::Contact<T>, Parts)> {
    let table = DispatchTable::<T>::new();
    let hs: Vec<Handle> = w.handles().collect();
    let mut out = Vec::new();
    for (i, &a) in hs.iter().enumerate() {
        for &b in &hs[i + 1..] {
            let (oa, ob) = (w.get(a).unwrap(), w.get(b).unwrap());
            if !oa.filter().accepts(&ob.filter()) {
                continue;
            }
            let (c, parts) = table
                .query_parts::<ContactQuery>(oa.shape(), oa.pose(), ob.shape(), ob.pose(), ())
                .unwrap();
            if let Some(c) = c {
                let (x, y) = if a.index() < b.index() {
                    (a, b)
                } else {
                    (b, a)
                };
                assert_eq!(x, a, "handles in index order");
                out.push((x, y, c, parts));
            }
        }
    }
    out.sort_by_key(|e| (e.0, e.1));
    out
}

fn is_composite<T: Real>(w: &World<T>, h: Handle) -> bool {
    w.get(h).unwrap().shape().as_composite().is_some()
}

/// A ball resting on segment 25 of the chain floor, a box on the step of
/// the platform, a ball touching the dumbbell's right ball, two balls
/// touching each other: every colliding pair is found with the brute-force
/// contact and the parts; pairs without a composite have `Parts::NONE`.
fn collisions_name_parts<T: Real>() {
    let mut lv = level::<T>();
    let w = &mut lv.world;
    let ball = Circle::new(T::lit(0.5)).unwrap();
    // Sunk 1/8 into the floor over x ∈ [5, 6] (segment 25).
    let on_floor = w.insert(ball, at(5.5, 0.375), Filter::ALL).unwrap();
    // A box sunk 1/4 into the top of the step (tile col 2, row 1: id 5).
    let crate_ = w
        .insert(
            Obb::new(Vector2::new(T::lit(0.25), T::lit(0.25))).unwrap(),
            at(32.5, 2.0),
            Filter::ALL,
        )
        .unwrap();
    // Touching the dumbbell's right ball (part 1) from the right.
    let by_bell = w.insert(ball, at(13.25, 10.0), Filter::ALL).unwrap();
    let x = w.insert(ball, at(-30.0, 3.0), Filter::ALL).unwrap();
    let y = w.insert(ball, at(-29.0, 3.0), Filter::ALL).unwrap();
    w.collisions();
    let frame = w.last_collisions();
    assert!(frame.errors.is_empty(), "{:?}", frame.errors);
    let brute = brute_contacts(w);
    let got: Vec<_> = frame
        .pairs
        .iter()
        .map(|p| (p.a, p.b, p.contact, p.parts))
        .collect();
    assert_eq!(got, brute);
    let find = |a: Handle, b: Handle| {
        frame
            .pairs
            .iter()
            .find(|p| (p.a, p.b) == (a, b))
            .unwrap_or_else(|| panic!("{a} {b} not colliding"))
    };
    let c = find(lv.floor, on_floor);
    assert_eq!(
        c.parts,
        Parts {
            a: Some(25),
            b: None
        }
    );
    assert_eq!(
        c.contact.normal.into_inner(),
        Vector2::new(T::zero(), T::one())
    );
    assert_eq!(c.contact.depth, T::lit(0.125));
    let c = find(lv.platform, crate_);
    assert_eq!(
        c.parts,
        Parts {
            a: Some(5),
            b: None
        }
    );
    assert_eq!(c.contact.depth, T::lit(0.25));
    let c = find(lv.dumbbell, by_bell);
    assert_eq!(
        c.parts,
        Parts {
            a: Some(1),
            b: None
        }
    );
    assert_eq!(find(x, y).parts, Parts::NONE);
    for p in &frame.pairs {
        if !is_composite(w, p.a) && !is_composite(w, p.b) {
            assert_eq!(p.parts, Parts::NONE);
        } else {
            assert!(p.parts != Parts::NONE, "{p:?}");
        }
    }
    // Nothing else collides: the level's own shapes are apart.
    assert_eq!(frame.pairs.len(), 4);
}

#[test]
fn collisions_name_parts_f32() {
    collisions_name_parts::<f32>();
}

#[test]
fn collisions_name_parts_f64() {
    collisions_name_parts::<f64>();
}

/// Manifolds on: each pair's manifold and parts are the table's
/// (`query_parts::<ManifoldQuery>`); a box lying across a seam of the tile
/// floor has one manifold, normal straight up, two points.
fn manifolds_name_parts<T: Real>() {
    let mut w = World::<T>::new(T::lit(2.0)).unwrap();
    let floor = w
        .insert(tile_floor::<T>(), at(-20.0, -1.0), Filter::ALL)
        .unwrap();
    // 2 wide, sunk 1/16, centred on the seam at x = 0 (tiles 19 and 20).
    let crate_ = w
        .insert(
            Obb::new(Vector2::new(T::one(), T::lit(0.5))).unwrap(),
            at(0.0, 0.4375),
            Filter::ALL,
        )
        .unwrap();
    w.set_manifolds(Some(T::lit(0.1))).unwrap();
    w.collisions();
    let frame = w.last_collisions();
    assert!(frame.errors.is_empty());
    assert_eq!(frame.manifolds.len(), 1);
    let m = &frame.manifolds[0];
    assert_eq!((m.a, m.b), (floor, crate_));
    let table = DispatchTable::<T>::new();
    let (oa, ob) = (w.get(floor).unwrap(), w.get(crate_).unwrap());
    let (want, parts) = table
        .query_parts::<ManifoldQuery>(oa.shape(), oa.pose(), ob.shape(), ob.pose(), T::lit(0.1))
        .unwrap();
    assert_eq!(Some(m.manifold), want);
    assert_eq!(m.parts, parts);
    // Tiles 18 and 21 touch the box's corners (closed sets): every tile
    // under it is as deep along the floor's normal; ties go to the lowest id.
    assert_eq!(m.parts.a, Some(18), "{:?}", m.parts);
    assert_eq!(m.parts.b, None);
    assert_eq!(
        m.manifold.normal().into_inner(),
        Vector2::new(T::zero(), T::one())
    );
    assert_eq!(m.manifold.len(), 2);
    for q in m.manifold.points() {
        assert_eq!(q.separation, T::lit(-0.0625));
    }
    // The contact too: straight up, not sideways through the seam.
    let c = &frame.pairs[0];
    assert_eq!(
        c.contact.normal.into_inner(),
        Vector2::new(T::zero(), T::one())
    );
    assert_eq!(c.contact.depth, T::lit(0.0625));
}

#[test]
fn manifolds_name_parts_f32() {
    manifolds_name_parts::<f32>();
}

#[test]
fn manifolds_name_parts_f64() {
    manifolds_name_parts::<f64>();
}

/// Rays: `cast_ray` hits the composites as the shapes' own ray casts do,
/// `cast_ray_part` names the part, `cast_ray_all` lists them in order,
/// `ray_part` is `None` for a shape that is not a composite.
fn rays_name_parts<T: Real>() {
    let mut lv = level::<T>();
    let w = &mut lv.world;
    let ball = w
        .insert(Circle::new(T::one()).unwrap(), at(0.0, 20.0), Filter::ALL)
        .unwrap();
    let any = QueryFilter::default();
    let inf = T::infinity();
    // Down onto the floor at x = 5.5: segment 25, from 10 units up.
    let down = Ray::new(p(5.5, 10.0), Vector2::new(T::zero(), -T::one()));
    let (h, hit, part) = w.cast_ray_part(&down, inf, any).unwrap().unwrap();
    assert_eq!((h, hit.toi, part), (lv.floor, T::lit(10.0), Some(25)));
    assert_eq!(w.cast_ray(&down, inf, any).unwrap(), Some((h, hit)));
    // Down onto the step: tile id 5 at 1 below the top of the map (2).
    let down = Ray::new(p(32.5, 12.0), Vector2::new(T::zero(), -T::one()));
    let (h, hit, part) = w.cast_ray_part(&down, inf, any).unwrap().unwrap();
    assert_eq!((h, hit.toi, part), (lv.platform, T::lit(10.0), Some(5)));
    // Along the dumbbell from the left: part 0 (the left ball) at x = 7.
    let right = Ray::new(p(0.0, 10.0), Vector2::new(T::one(), T::zero()));
    let (h, hit, part) = w.cast_ray_part(&right, inf, any).unwrap().unwrap();
    assert_eq!((h, hit.toi, part), (lv.dumbbell, T::lit(7.0), Some(0)));
    // Into the L's notch from above, x = 1.5 → 5: hits the lower arm (y = 6)
    // which is one part of the two; the world's answer names the same part as
    // the shape's own `cast_ray_part`.
    let notch = Ray::new(p(-8.5, 9.0), Vector2::new(T::zero(), -T::one()));
    let (h, hit, part) = w.cast_ray_part(&notch, inf, any).unwrap().unwrap();
    assert_eq!((h, hit.toi), (lv.block, T::lit(3.0)));
    let o = w.get(lv.block).unwrap();
    let l = o
        .shape()
        .as_any()
        .downcast_ref::<ConcavePolygon<T>>()
        .unwrap();
    assert_eq!(
        part,
        l.cast_ray_part(o.pose(), &notch, inf, true)
            .map(|(id, _)| id)
    );
    assert!(part.is_some());
    // Every hit in order: the ball above the floor, then the floor.
    let up_down = Ray::new(p(0.5, 30.0), Vector2::new(T::zero(), -T::one()));
    let all = w.cast_ray_all(&up_down, inf, any).unwrap();
    let order: Vec<Handle> = all.iter().map(|(h, _)| *h).collect();
    assert_eq!(order, vec![ball, lv.floor]);
    let parts: Vec<Option<u32>> = all
        .iter()
        .map(|(h, _)| w.ray_part(*h, &up_down, inf, true).unwrap())
        .collect();
    assert_eq!(parts, vec![None, Some(20)]);
    // A miss, a bad ray, a stale handle: typed answers.
    let away = Ray::new(p(0.5, 30.0), Vector2::new(T::zero(), T::one()));
    assert_eq!(w.cast_ray_part(&away, inf, any).unwrap(), None);
    assert_eq!(w.ray_part(lv.floor, &away, inf, true).unwrap(), None);
    let nan = Ray::new(p(T::nan().as_f64(), 0.0), Vector2::new(T::one(), T::zero()));
    assert_eq!(w.cast_ray_part(&nan, inf, any), Err(WorldError::InvalidRay));
    assert_eq!(
        w.ray_part(lv.floor, &down, -T::one(), true),
        Err(WorldError::InvalidMaxToi)
    );
    w.remove(ball).unwrap();
    assert_eq!(
        w.ray_part(ball, &down, inf, true),
        Err(WorldError::StaleHandle(ball))
    );
    // Still usable.
    assert_eq!(
        w.cast_ray_part(&up_down, inf, any)
            .unwrap()
            .map(|(h, _, p)| (h, p)),
        Some((lv.floor, Some(20)))
    );
}

#[test]
fn rays_name_parts_f32() {
    rays_name_parts::<f32>();
}

#[test]
fn rays_name_parts_f64() {
    rays_name_parts::<f64>();
}

/// Point and region queries against the composites: a point in the L's
/// notch is in no object, one in its arm is; a region over the floor finds
/// it, one in the notch does not; the projection onto the chain floor.
fn point_and_region_queries<T: Real>() {
    let lv = level::<T>();
    let w = &lv.world;
    let (inside, errors) = w.query_point(&p(-9.5, 6.5));
    assert!(errors.is_empty());
    assert_eq!(inside, vec![lv.block]);
    let (notch, _) = w.query_point(&p(-8.5, 6.5));
    assert!(notch.is_empty());
    // On the floor (closed): the chain holds the point.
    let (on, _) = w.query_point(&p(3.25, 0.0));
    assert_eq!(on, vec![lv.floor]);
    // Between the dumbbell's balls, above the bar: nothing.
    let (gap, _) = w.query_point(&p(10.0, 10.75));
    assert!(gap.is_empty());
    let (bar, _) = w.query_point(&p(10.0, 10.25));
    assert_eq!(bar, vec![lv.dumbbell]);
    let region = |x0, y0, x1, y1| BoundingBox2::new(p::<T>(x0, y0), p(x1, y1));
    let (hits, errors) = w.query_region(&region(2.0, -0.5, 3.0, 0.5));
    assert!(errors.is_empty());
    assert_eq!(hits, vec![lv.floor]);
    let (hits, _) = w.query_region(&region(-8.75, 6.25, -8.25, 6.75));
    assert!(hits.is_empty(), "the notch is empty: {hits:?}");
    let (hits, _) = w.query_region(&region(30.25, 1.25, 31.75, 1.75));
    assert!(hits.is_empty(), "above the low tiles: {hits:?}");
    let (hits, _) = w.query_region(&region(30.25, 0.75, 31.75, 1.75));
    assert_eq!(hits, vec![lv.platform]);
    // Projections: onto the floor from above; into the step's corner.
    let (h, proj) = w
        .project_point(&p(7.25, 3.0), T::lit(100.0), QueryFilter::default())
        .unwrap()
        .unwrap();
    assert_eq!(
        (h, proj.point, proj.is_inside),
        (lv.floor, p(7.25, 0.0), false)
    );
    let (h, proj) = w
        .project_point(&p(31.5, 1.5), T::lit(0.75), QueryFilter::default())
        .unwrap()
        .unwrap();
    assert_eq!(h, lv.platform);
    assert!(
        proj.point == p(31.5, 1.0) || proj.point == p(32.0, 1.5),
        "{proj:?}"
    );
    assert_eq!(
        w.project_point(&p(T::nan().as_f64(), 0.0), T::one(), QueryFilter::default()),
        Err(WorldError::NonFinitePoint)
    );
}

#[test]
fn point_and_region_queries_f32() {
    point_and_region_queries::<f32>();
}

#[test]
fn point_and_region_queries_f64() {
    point_and_region_queries::<f64>();
}

/// Shape casts: a ball dropped onto the floor lands on the segment under
/// it, a box moved right into the step meets the step's left face (tile 5),
/// and `cast_shape` gives the same hit as `cast_shape_parts`.
fn casts_name_parts<T: Real>() {
    let lv = level::<T>();
    let w = &lv.world;
    let ball = Circle::new(T::lit(0.5)).unwrap();
    let any = QueryFilter::default();
    let opts = ShapeCastOptions::default();
    let down = Vector2::new(T::zero(), -T::one());
    let (h, hit, parts) = w
        .cast_shape_parts(&ball, &at(-3.5, 4.5), &down, T::lit(100.0), any, opts)
        .unwrap()
        .unwrap();
    assert_eq!(
        (h, parts),
        (
            lv.floor,
            Parts {
                a: None,
                b: Some(16)
            }
        )
    );
    assert!(Float::abs(hit.toi - T::lit(4.0)) <= T::lit(1e-4), "{hit:?}");
    assert_eq!(
        w.cast_shape(&ball, &at(-3.5, 4.5), &down, T::lit(100.0), any),
        Ok(Some((h, hit)))
    );
    // A small box sliding right along the low tiles (its bottom 1/8 above
    // them) meets the step's left face at x = 32.
    let small = Obb::new(Vector2::new(T::lit(0.25), T::lit(0.25))).unwrap();
    let right = Vector2::new(T::one(), T::zero());
    let (h, hit, parts) = w
        .cast_shape_parts(&small, &at(30.5, 1.375), &right, T::lit(10.0), any, opts)
        .unwrap()
        .unwrap();
    assert_eq!(
        (h, parts),
        (
            lv.platform,
            Parts {
                a: None,
                b: Some(5)
            }
        )
    );
    assert!(
        Float::abs(hit.toi - T::lit(1.25)) <= T::lit(1e-4),
        "{hit:?}"
    );
    assert!(hit.normal.x > T::lit(0.999), "{hit:?}");
    // Bad input: typed errors.
    assert_eq!(
        w.cast_shape_parts(&ball, &at(0.0, 5.0), &down, -T::one(), any, opts),
        Err(WorldError::InvalidMaxToi)
    );
}

#[test]
fn casts_name_parts_f32() {
    casts_name_parts::<f32>();
}

#[test]
fn casts_name_parts_f64() {
    casts_name_parts::<f64>();
}

/// A continuous ball crossing the chain floor in one frame: the swept pair
/// names the segment it crosses.
fn continuous_names_parts<T: Real>() {
    let mut w = World::<T>::new(T::lit(2.0)).unwrap();
    let floor = w
        .insert(chain_floor::<T>(), Isometry2::identity(), Filter::ALL)
        .unwrap();
    let bullet = w
        .insert(
            Circle::new(T::lit(0.125)).unwrap(),
            at(2.5, 5.0),
            Filter::ALL,
        )
        .unwrap();
    w.set_continuous(bullet, true).unwrap();
    w.collisions();
    w.set_pose(bullet, at(2.5, -5.0)).unwrap();
    let frame = w.collisions();
    assert!(frame.pairs.is_empty());
    assert_eq!(frame.swept.len(), 1, "{:?}", frame.swept);
    let s = &frame.swept[0];
    assert_eq!((s.a, s.b), (floor, bullet));
    assert_eq!(
        s.parts,
        Parts {
            a: Some(22),
            b: None
        }
    );
    assert!(Float::abs(s.contact.toi - T::lit(4.875 / 10.0)) <= T::lit(1e-4));
}

#[test]
fn continuous_names_parts_f32() {
    continuous_names_parts::<f32>();
}

#[test]
fn continuous_names_parts_f64() {
    continuous_names_parts::<f64>();
}

/// Slides `shape` along the floor of `w` and checks that it goes the whole
/// way (`dx`), keeps its height within `skin`, and that every hit faces
/// straight into the floor: no seam stops or deflects it.
fn slides_the_whole_way<T: Real>(
    w: &World<T>,
    floor: Handle,
    shape: &dyn Shape<T>,
    start: Isometry2<T>,
    motion: Vector2<T>,
    label: &str,
) {
    let skin = T::lit(0.01);
    let tol = T::lit(if T::epsilon().as_f64() > 1e-10 {
        2e-3
    } else {
        1e-9
    });
    let m = w
        .move_and_slide(shape, &start, &motion, MoveOptions::new(skin))
        .unwrap();
    assert!(
        Float::abs(m.translation.x - motion.x) <= tol,
        "{label}: stopped at {:?} of {motion:?}: {:?}",
        m.translation,
        m.hits
    );
    let y0 = start.translation.y;
    let y = m.pose.translation.y;
    assert!(
        y >= y0 - tol && y <= y0 + T::lit(2.0) * skin + tol,
        "{label}: deflected to y = {y} from {y0}: {:?}",
        m.hits
    );
    for hit in &m.hits {
        assert_eq!(hit.handle, floor, "{label}");
        assert!(
            hit.hit.normal.y < T::lit(-0.999),
            "{label}: a ghost hit: {hit:?}"
        );
        assert!(hit.parts.b.is_some(), "{label}: {hit:?}");
        assert_eq!(hit.parts.a, None);
    }
}

/// The point of issue 14: a capsule and a box sliding along a long flat
/// floor made of 40 chain segments, or of 40 tiles, cross every seam: moving
/// flat from resting on the floor, and pushed into it while moving (each
/// step hits the floor and slides on), in both directions.
/// A named floor and its pose.
type Floor<T> = (&'static str, Box<dyn Shape<T>>, Isometry2<T>);

fn no_ghost_collisions<T: Real>() {
    let capsule = Capsule::new(p::<T>(0.0, -0.5), p(0.0, 0.5), T::lit(0.5)).unwrap();
    let crate_ = Obb::new(Vector2::new(T::lit(0.5), T::lit(0.5))).unwrap();
    let floors: [Floor<T>; 3] = [
        ("chain", Box::new(chain_floor::<T>()), Isometry2::identity()),
        (
            "one-sided chain",
            // Drawn right to left: its front faces up.
            Box::new({
                let points: Vec<Point2<T>> =
                    (0..=40).map(|i| p(20.0 - f64::from(i), 0.0)).collect();
                Polyline::new(&points, false).unwrap().with_one_sided(true)
            }),
            Isometry2::identity(),
        ),
        ("tiles", Box::new(tile_floor::<T>()), at(-20.0, -1.0)),
    ];
    for (name, floor, pose) in floors {
        let mut w = World::<T>::new(T::lit(2.0)).unwrap();
        let h = w.insert_boxed(floor, pose, Filter::ALL).unwrap();
        let shapes: [(&str, &dyn Shape<T>, f64); 2] =
            [("capsule", &capsule, 1.0), ("box", &crate_, 0.5)];
        for (kind, shape, half_height) in shapes {
            // Resting a skin above the floor, at a seam and between seams.
            for x0 in [-15.0, -14.5, 12.25] {
                let start = at(x0, half_height + 0.01);
                for (dx, dy) in [(20.0, 0.0), (-20.0, 0.0), (20.0, -0.5), (-7.0, -3.0)] {
                    let label = format!("{name}, {kind} from x = {x0} by ({dx}, {dy})");
                    let dx = if x0 + dx > 19.0 || x0 + dx < -19.0 {
                        -dx
                    } else {
                        dx
                    };
                    let motion = Vector2::new(T::lit(dx), T::lit(dy));
                    slides_the_whole_way(&w, h, shape, start, motion, &label);
                }
            }
        }
        // Contacts, too: a box sunk into the floor across a seam is pushed
        // straight up, at every seam.
        for i in -19..19 {
            let b = w
                .insert(crate_, at(f64::from(i), 0.4375), Filter::ALL)
                .unwrap();
            w.collisions();
            let c = w.last_collisions().pairs[0];
            assert_eq!(
                c.contact.normal.into_inner(),
                Vector2::new(T::zero(), T::one()),
                "{name} at x = {i}: {c:?}"
            );
            assert_eq!(c.contact.depth, T::lit(0.0625), "{name} at x = {i}");
            w.remove(b).unwrap();
        }
    }
}

#[test]
fn no_ghost_collisions_f32() {
    no_ghost_collisions::<f32>();
}

#[test]
fn no_ghost_collisions_f64() {
    no_ghost_collisions::<f64>();
}

/// The same slide over a floor of 40 separate boxes (no composite) is
/// stopped at a seam, which is why the composites exist: the test above can
/// fail.
#[test]
fn separate_tiles_do_catch_a_box() {
    let mut w = World::<f64>::new(2.0).unwrap();
    for i in 0..40 {
        w.insert(
            Obb::new(Vector2::new(0.5, 0.5)).unwrap(),
            at(-19.5 + f64::from(i), -0.5),
            Filter::ALL,
        )
        .unwrap();
    }
    let crate_ = Obb::new(Vector2::new(0.5, 0.5)).unwrap();
    let mut caught = 0;
    for i in 0..40 {
        let b = w
            .insert(crate_, at(-19.0 + f64::from(i) * 0.9, 0.4375), Filter::ALL)
            .unwrap();
        w.collisions();
        caught += w
            .last_collisions()
            .pairs
            .iter()
            .filter(|c| c.contact.normal.y.abs() < 0.5)
            .count();
        w.remove(b).unwrap();
    }
    assert!(caught > 0, "separate boxes never push sideways");
}

/// Random balls and boxes over the level: `collisions` equals brute force
/// through `query_parts` (contacts and parts), and `cast_ray_part` names the
/// part the composite's own ray cast names.
fn random_level<T: Real>(bodies: &[(u8, f64, f64, f64)], rays: &[(f64, f64, f64)]) {
    let mut lv = level::<T>();
    let w = &mut lv.world;
    for &(kind, x, y, s) in bodies {
        let shape: Box<dyn Shape<T>> = if kind % 2 == 0 {
            Box::new(Circle::new(T::lit(s)).unwrap())
        } else {
            Box::new(Obb::new(Vector2::new(T::lit(s), T::lit(s * 0.5))).unwrap())
        };
        w.insert_boxed(shape, at(x, y), Filter::ALL).unwrap();
    }
    w.collisions();
    let frame = w.last_collisions();
    assert!(frame.errors.is_empty(), "{:?}", frame.errors);
    let got: Vec<_> = frame
        .pairs
        .iter()
        .map(|p| (p.a, p.b, p.contact, p.parts))
        .collect();
    assert_eq!(got, brute_contacts(w));
    let table = DispatchTable::<T>::new();
    for &(x, y, angle) in rays {
        let (s, c) = angle.sin_cos();
        let ray = Ray::new(p(x, y), Vector2::new(T::lit(c), T::lit(s)));
        let Some((h, hit, part)) = w
            .cast_ray_part(&ray, T::lit(100.0), QueryFilter::default())
            .unwrap()
        else {
            continue;
        };
        let o = w.get(h).unwrap();
        let own = narrowphase::cast_ray(o.shape(), o.pose(), &ray, T::lit(100.0), true).unwrap();
        assert_eq!(own, Some(hit));
        assert_eq!(part.is_some(), o.shape().as_composite().is_some());
        if let Some(id) = part {
            // The part named is hit at the same time.
            let comp = o.shape().as_composite().unwrap();
            let piece = comp.part(id).unwrap();
            let pose = o.shape().effective_pose(o.pose()) * piece.pose;
            let ph = piece
                .shape
                .as_shape()
                .as_ray_cast()
                .unwrap()
                .cast_ray(&pose, &ray, T::lit(100.0), true)
                .unwrap();
            assert!(
                Float::abs(ph.toi - hit.toi) <= T::lit(1e-5) * (T::one() + hit.toi),
                "{ph:?} {hit:?}"
            );
        }
        // A cast along the ray names the parts as the table does.
        let ball = Circle::new(T::lit(0.125)).unwrap();
        let start =
            Isometry2::from_parts(ray.origin.coords.into(), nalgebra::UnitComplex::identity());
        if let Ok(Some((h, cast, parts))) = w.cast_shape_parts(
            &ball,
            &start,
            &ray.dir,
            T::lit(100.0),
            QueryFilter::default(),
            ShapeCastOptions::default(),
        ) {
            let o = w.get(h).unwrap();
            let args = ShapeCastArgs {
                vel_a: ray.dir,
                vel_b: Vector2::zeros(),
                max_toi: T::lit(100.0),
                options: ShapeCastOptions::default(),
            };
            let (want, want_parts) = table
                .query_parts::<narrowphase::ShapeCastQuery>(
                    &ball,
                    &start,
                    o.shape(),
                    o.pose(),
                    args,
                )
                .unwrap();
            assert_eq!(want, Some(cast));
            assert_eq!(parts, want_parts);
        }
    }
}

fn bodies() -> impl Strategy<Value = Vec<(u8, f64, f64, f64)>> {
    prop::collection::vec((0u8..2, -22.0f64..35.0, -1.0f64..12.0, 0.1f64..1.5), 1..12)
}

fn rays() -> impl Strategy<Value = Vec<(f64, f64, f64)>> {
    prop::collection::vec(
        (
            -25.0f64..40.0,
            -2.0f64..15.0,
            0.0f64..core::f64::consts::TAU,
        ),
        1..6,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(shape::testing::cases(48)))]

    #[test]
    fn random_level_f64(b in bodies(), r in rays()) {
        random_level::<f64>(&b, &r);
    }

    #[test]
    fn random_level_f32(b in bodies(), r in rays()) {
        random_level::<f32>(&b, &r);
    }
}

/// A narrow-phase bug found here, fixed (speculative pieces with a
/// non-admissible normal are left to the piece that owns that boundary).
/// A ball of radius 1/2
/// sunk 1/16 into a tile floor at x = 0.25 of its tile, with a prediction
/// of 0.1: the neighbouring tile (its corner 0.0039 away from the ball) is
/// a speculative piece; its manifold normal, from the corner, is not
/// admissible and is turned straight up, and its separation measured along
/// up from the support functions comes out −1/16, as if the ball overlapped
/// that tile. The merged manifold then holds a point at the tile's corner,
/// (0, 0) on the floor and (0, −1/16) on the ball, which is not on the
/// ball (0.559 from its centre), and names that tile as the deepest part.
/// Expected: every manifold point's `point_b` on the ball, and the deepest
/// part the tile under the ball.
#[test]
fn speculative_tile_manifold_points_lie_on_the_shapes() {
    let table = DispatchTable::<f64>::new();
    let floor = tile_floor::<f64>();
    let ball = Circle::new(0.5).unwrap();
    let (floor_at, ball_at) = (at::<f64>(-20.0, -1.0), at::<f64>(0.25, 0.4375));
    let (m, parts) = table
        .query_parts::<ManifoldQuery>(&floor, &floor_at, &ball, &ball_at, 0.1)
        .unwrap();
    let m = m.unwrap();
    for q in m.points() {
        let r = (q.point_b - ball_at.translation.vector).coords.norm();
        assert!(
            r <= 0.5 + 1e-9,
            "a manifold point off the ball: {q:?} ({r})"
        );
    }
    assert_eq!(parts.a, Some(20), "{m:?}");
}
