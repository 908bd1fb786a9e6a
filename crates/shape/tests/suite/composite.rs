//! The composite shapes (issue 14): `Compound`, `Polyline`, `ConcavePolygon`
//! and `TileMap`. Known values for every constructor, box and arc; errors
//! for every bad input; and properties against slow independent references:
//! `visit_parts` against a filter over every part, ray casts against the
//! least hit over every part, the tile map's grid walk against every tile,
//! concave containment against a winding number.

use std::ops::ControlFlow;

use nalgebra::{Isometry2, Point2, Vector2};
use proptest::prelude::*;
use shape::dim2::composite::{Composite, ConvexPart};
use shape::prelude::*;

fn p<T: Real>(x: f64, y: f64) -> Point2<T> {
    Point2::new(T::lit(x), T::lit(y))
}

fn v<T: Real>(x: f64, y: f64) -> Vector2<T> {
    Vector2::new(T::lit(x), T::lit(y))
}

fn iso<T: Real>(x: f64, y: f64, a: f64) -> Isometry2<T> {
    Isometry2::new(v(x, y), T::lit(a))
}

/// Every part id `visit_parts` reports for `region`, sorted.
fn visited<T: Real>(c: &dyn Composite<T>, region: &BoundingBox2<T>) -> Vec<u32> {
    let mut ids = Vec::new();
    let _ = c.visit_parts(region, &mut |part| {
        ids.push(part.id);
        ControlFlow::Continue(())
    });
    ids.sort_unstable();
    ids
}

/// The ids of every part whose box (composite frame) meets `region`: the
/// brute-force reference.
fn brute_visit<T: Real>(c: &dyn Composite<T>, region: &BoundingBox2<T>) -> Vec<u32> {
    (0..c.part_count() as u32)
        .filter(|&id| {
            c.part(id).is_some_and(|part| {
                part.shape
                    .as_shape()
                    .bounding_box(&part.pose)
                    .intersects(region)
            })
        })
        .collect()
}

/// The least hit over every part (ties to the lower id), each part cast on
/// its own at `pose * part.pose`: the brute-force reference. `skip` drops
/// parts (one-sided chains seen from behind).
fn brute_cast<T: Real>(
    c: &dyn Composite<T>,
    pose: &Isometry2<T>,
    ray: &Ray<T>,
    solid: bool,
    skip: impl Fn(u32) -> bool,
) -> Option<(u32, RayHit<T>)> {
    let mut best: Option<(u32, RayHit<T>)> = None;
    for id in 0..c.part_count() as u32 {
        let Some(part) = c.part(id) else { continue };
        if skip(id) {
            continue;
        }
        let caster = part.shape.as_shape().as_ray_cast().unwrap();
        if let Some(h) = caster.cast_ray(&(pose * part.pose), ray, T::infinity(), solid) {
            if best.is_none_or(|(_, b)| h.toi < b.toi) {
                best = Some((id, h));
            }
        }
    }
    best
}

// ---------------------------------------------------------------- Compound

fn compound_known<T: Real>() {
    let c = Compound::new(vec![
        (iso(-2.0, 0.0, 0.0), Circle::new(T::one()).unwrap().into()),
        (iso(2.0, 0.0, 0.0), Circle::new(T::one()).unwrap().into()),
        (
            Isometry2::identity(),
            Obb::new(v(2.0, 0.25)).unwrap().into(),
        ),
    ])
    .unwrap();
    assert_eq!(c.kind(), ShapeKind::COMPOUND);
    assert_eq!(c.part_count(), 3);
    assert!(c.as_composite().is_some() && c.as_convex().is_none());
    assert!(c.as_separating_axes().is_none());
    assert!(c.as_any().downcast_ref::<Compound<T>>().is_some());
    let b = c.bounding_box(&iso(10.0, 1.0, 0.0));
    assert_eq!((b.min, b.max), (p(7.0, 0.0), p(13.0, 2.0)));
    assert_eq!(c.local_bounds().max, p(3.0, 1.0));
    // Turned a quarter: the box turns with it (exact up to the rotation's
    // rounding).
    let b = c.bounding_box(&iso(0.0, 0.0, std::f64::consts::FRAC_PI_2));
    let tol = shape::testing::test_tolerance(T::lit(4.0));
    assert!(num_traits::Float::abs(b.max.y - T::lit(3.0)) < tol);
    assert!(num_traits::Float::abs(b.max.x - T::one()) < tol);
    // Parts: poses and normals.
    let part = c.part(1).unwrap();
    assert_eq!(part.pose.translation.vector, v(2.0, 0.0));
    assert!(part.normals.is_none() && part.front.is_none());
    assert!(c.part(3).is_none());
    // Rays: the left ball, the bar from above, the right ball from inside.
    let id = Isometry2::identity();
    let ray = Ray::new(p(-10.0, 0.0), v(1.0, 0.0));
    let (k, h) = c.cast_ray_part(&id, &ray, T::lit(100.0), true).unwrap();
    assert_eq!((k, h.toi), (0, T::lit(7.0)));
    let (k, h) = c
        .cast_ray_part(
            &id,
            &Ray::new(p(0.0, 5.0), v(0.0, -1.0)),
            T::lit(100.0),
            true,
        )
        .unwrap();
    assert_eq!((k, h.toi, h.point), (2, T::lit(4.75), p(0.0, 0.25)));
    assert!(
        c.cast_ray(
            &id,
            &Ray::new(p(0.0, 5.0), v(0.0, 1.0)),
            T::lit(100.0),
            true
        )
        .is_none()
    );
    assert!(c.cast_ray(&id, &ray, T::lit(6.5), true).is_none());
    // Projections.
    // (0, 1.5): 1.25 above the bar, √6.25 − 1 = 1.5 from either ball.
    let pr = c.project_point(&id, &p(0.0, 1.5), true);
    assert_eq!((pr.point, pr.is_inside), (p(0.0, 0.25), false));
    let pr = c.project_point(&id, &p(2.5, 0.0), true);
    assert_eq!((pr.point, pr.is_inside), (p(2.5, 0.0), true));
    let pr = c.project_point(&id, &p(-2.0, 0.5), false);
    assert!(pr.is_inside);
}
shape::for_each_precision!(compound_known_values, compound_known);

fn compound_errors<T: Real>() {
    assert_eq!(Compound::<T>::new(vec![]).unwrap_err(), ShapeError::NoParts);
    let part: ConvexPart<T> = Circle::new(T::one()).unwrap().into();
    for bad in [
        Isometry2::translation(T::nan(), T::zero()),
        Isometry2::translation(T::zero(), T::infinity()),
        Isometry2::translation(shape::tolerance::max_size::<T>() * T::two(), T::zero()),
        Isometry2::new(Vector2::zeros(), T::nan()),
    ] {
        assert_eq!(
            Compound::new(vec![
                (Isometry2::identity(), part.clone()),
                (bad, part.clone())
            ])
            .unwrap_err(),
            ShapeError::InvalidPartPose { index: 1 }
        );
    }
}
shape::for_each_precision!(compound_rejects, compound_errors);

// ---------------------------------------------------------------- Polyline

fn arc_admits<T: Real>(c: &dyn Composite<T>, id: u32, n: (f64, f64)) -> bool {
    c.part(id).unwrap().admits(&v(n.0, n.1))
}

fn polyline_known<T: Real>() {
    // A flat floor, drawn left to right, two-sided.
    let floor =
        Polyline::new(&[p(0.0, 0.0), p(1.0, 0.0), p(2.0, 0.0), p(3.0, 0.0)], false).unwrap();
    assert_eq!(floor.kind(), ShapeKind::POLYLINE);
    assert_eq!(floor.part_count(), 3);
    let b = floor.bounding_box(&iso(1.0, 1.0, 0.0));
    assert_eq!((b.min, b.max), (p(1.0, 1.0), p(4.0, 1.0)));
    // The middle segment: flat on both sides at both ends: only ±y.
    for n in [(0.0, 1.0), (0.0, -1.0)] {
        assert!(arc_admits(&floor, 1, n));
    }
    for n in [(1.0, 1.0), (-1.0, 1.0), (1.0, 0.0), (-1.0, -0.01)] {
        assert!(!arc_admits(&floor, 1, n), "{n:?}");
    }
    // The first segment: the open start takes the round cap (the left half
    // plane), the inner end is flat.
    assert!(arc_admits(&floor, 0, (-1.0, 0.0)));
    assert!(arc_admits(&floor, 0, (-1.0, 1.0)));
    assert!(arc_admits(&floor, 0, (-1.0, -1.0)));
    assert!(!arc_admits(&floor, 0, (1.0, 1.0)));
    assert!(!arc_admits(&floor, 0, (1.0, -1.0)));
    // The last one: the right half plane.
    assert!(arc_admits(&floor, 2, (1.0, 1.0)));
    assert!(!arc_admits(&floor, 2, (-1.0, 1.0)));
    // A single two-sided segment admits everything.
    let one = Polyline::new(&[p::<T>(0.0, 0.0), p(1.0, 0.0)], false).unwrap();
    assert!(one.part(0).unwrap().normals.is_none());

    // A closed counter-clockwise square, one-sided: faces out.
    let square = Polyline::new(&[p(0.0, 0.0), p(2.0, 0.0), p(2.0, 2.0), p(0.0, 2.0)], true)
        .unwrap()
        .with_one_sided(true);
    assert_eq!(square.part_count(), 4);
    let bottom = square.part(0).unwrap();
    let (o, n) = bottom.front.unwrap();
    assert_eq!((o, n.into_inner()), (p(0.0, 0.0), v(0.0, -1.0)));
    // Convex corners: the bottom edge admits its corners' cones, from
    // (−1, 0) through (0, −1) to (1, 0), not inward.
    for n in [
        (0.0, -1.0),
        (1.0, -1.0),
        (-1.0, -1.0),
        (1.0, 0.0),
        (-1.0, 0.0),
    ] {
        assert!(bottom.admits(&v(n.0, n.1)), "{n:?}");
    }
    assert!(!bottom.admits(&v(0.0, 1.0)));
    assert!(!bottom.admits(&v(1.0, 0.5)));
    assert!(bottom.faces(&p(1.0, -1.0)) && bottom.faces(&p(1.0, 0.0)));
    assert!(!bottom.faces(&p(1.0, 0.5)));
    // Rays: from outside it hits; from inside (behind every edge) it passes.
    let id = Isometry2::identity();
    let (k, h) = square
        .cast_ray_part(
            &id,
            &Ray::new(p(1.0, -3.0), v(0.0, 1.0)),
            T::lit(10.0),
            true,
        )
        .unwrap();
    assert_eq!(
        (k, h.toi, h.normal.into_inner()),
        (0, T::lit(3.0), v(0.0, -1.0))
    );
    assert!(
        square
            .cast_ray(&id, &Ray::new(p(1.0, 1.0), v(0.0, 1.0)), T::lit(10.0), true)
            .is_none()
    );
    // Two-sided, the same ray from inside hits the top.
    let two = Polyline::new(square.points(), true).unwrap();
    let (k, h) = two
        .cast_ray_part(&id, &Ray::new(p(1.0, 1.0), v(0.0, 1.0)), T::lit(10.0), true)
        .unwrap();
    assert_eq!(
        (k, h.toi, h.normal.into_inner()),
        (2, T::one(), v(0.0, -1.0))
    );
    // Concave corner as seen from the front: an L-shaped floor going right
    // then up (drawn right to left so that the front faces up/left). The
    // vertex (2, 0) is concave from the front: the floor segment's arc stops
    // at "up".
    let valley = Polyline::<T>::new(&[p(2.0, 2.0), p(2.0, 0.0), p(0.0, 0.0)], false)
        .unwrap()
        .with_one_sided(true);
    let wall = valley.part(0).unwrap();
    let floor_part = valley.part(1).unwrap();
    assert_eq!(floor_part.front.unwrap().1.into_inner(), v(0.0, 1.0));
    assert_eq!(wall.front.unwrap().1.into_inner(), v(-1.0, 0.0));
    assert!(floor_part.admits(&v(0.0, 1.0)));
    assert!(!floor_part.admits(&v(1.0, 1.0)));
    assert!(!wall.admits(&v(-1.0, -1.0)) && wall.admits(&v(-1.0, 0.0)));
    // The floor's open end at (0, 0) extends to its outward tangent (−1, 0).
    assert!(floor_part.admits(&v(-1.0, 0.5)));
    // Projections: nearest point; on the chain is inside (a segment's rule).
    let pr = floor.project_point(&id, &p(1.5, 2.0), true);
    assert_eq!((pr.point, pr.is_inside), (p(1.5, 0.0), false));
    let pr = floor.project_point(&id, &p(2.5, 0.0), false);
    assert_eq!((pr.point, pr.is_inside), (p(2.5, 0.0), true));
}
shape::for_each_precision!(polyline_known_values, polyline_known);

fn polyline_errors<T: Real>() {
    assert_eq!(
        Polyline::new(&[p::<T>(0.0, 0.0)], false).unwrap_err(),
        ShapeError::TooFewVertices { count: 1, min: 2 }
    );
    assert_eq!(
        Polyline::new(&[p::<T>(0.0, 0.0), p(1.0, 0.0)], true).unwrap_err(),
        ShapeError::TooFewVertices { count: 2, min: 3 }
    );
    assert_eq!(
        Polyline::new(&[p::<T>(0.0, 0.0), p(1.0, 0.0), p(1.0, 0.0)], false).unwrap_err(),
        ShapeError::DuplicateVertex { index: 2 }
    );
    assert_eq!(
        Polyline::new(&[p::<T>(0.0, 0.0), p(1.0, 0.0), p(0.0, 0.0)], true).unwrap_err(),
        ShapeError::DuplicateVertex { index: 0 }
    );
    assert_eq!(
        Polyline::new(&[p::<T>(0.0, 0.0), Point2::new(T::nan(), T::zero())], false).unwrap_err(),
        ShapeError::NonFiniteVertex { index: 1 }
    );
    let big = shape::tolerance::max_size::<T>() * T::two();
    assert!(matches!(
        Polyline::new(&[p::<T>(0.0, 0.0), Point2::new(big, T::zero())], false),
        Err(ShapeError::TooLarge { .. })
    ));
    // Crossings are allowed.
    assert!(
        Polyline::new(
            &[p::<T>(0.0, 0.0), p(1.0, 1.0), p(1.0, 0.0), p(0.0, 1.0)],
            false
        )
        .is_ok()
    );
}
shape::for_each_precision!(polyline_rejects, polyline_errors);

// ---------------------------------------------------------------- TileMap

fn tile_map_known<T: Real>() {
    // Rows top to bottom:
    //   ..#
    //   ###
    let map = TileMap::from_rows(v(2.0, 1.0), &[[false, false, true], [true, true, true]]).unwrap();
    assert_eq!(map.kind(), ShapeKind::TILE_MAP);
    assert_eq!((map.width(), map.height(), map.part_count()), (3, 2, 6));
    assert!(map.is_solid(0, 0) && map.is_solid(2, 1) && !map.is_solid(0, 1));
    assert!(!map.is_solid(3, 0) && map.tile_id(5, 5).is_none());
    let b = map.bounding_box(&iso(10.0, 20.0, 0.7)); // rotation ignored
    assert_eq!((b.min, b.max), (p(10.0, 20.0), p(16.0, 22.0)));
    assert_eq!(map.effective_pose(&iso(1.0, 2.0, 0.7)), iso(1.0, 2.0, 0.0));
    // Parts: id = row · width + col, the tile's centre as pose.
    let part = map.part(5).unwrap();
    assert_eq!(part.pose.translation.vector, v(5.0, 1.5));
    assert!(map.part(3).is_none() && map.part(99).is_none());
    // Arcs: the middle of the floor admits only up; the floor's left end
    // the cone from up over left to down; the tall column's top the cone
    // right → up → left; (2, 0) has right and down exposed (cone down → right).
    let up = |id: u32, n: (f64, f64)| arc_admits(&map, id, n);
    // Tile 1's bottom is the map's edge: exposed too (two single arcs).
    assert!(up(1, (0.0, 1.0)) && !up(1, (1.0, 1.0)) && !up(1, (-1.0, 1.0)) && up(1, (0.0, -1.0)));
    assert!(!up(1, (1.0, 0.0)) && !up(1, (1.0, -1.0)));
    assert!(up(0, (0.0, 1.0)) && up(0, (-1.0, 1.0)) && up(0, (-1.0, -1.0)) && !up(0, (1.0, 0.5)));
    assert!(up(5, (1.0, 0.0)) && up(5, (0.0, 1.0)) && up(5, (-1.0, 0.5)) && !up(5, (0.0, -1.0)));
    assert!(up(2, (1.0, -1.0)) && !up(2, (0.0, 1.0)) && !up(2, (-1.0, 0.0)));
    // A lone tile admits all; an inner tile nothing.
    let lone = TileMap::from_rows(v::<T>(1.0, 1.0), &[[true]]).unwrap();
    assert!(lone.part(0).unwrap().normals.is_none());
    let block = TileMap::from_rows(v::<T>(1.0, 1.0), &[[true; 3]; 3]).unwrap();
    assert_eq!(block.part(4).unwrap().normals.map(<[_]>::len), Some(0));
    // The middle of a floor with ground below: only up.
    let top_middle = block.part(7).unwrap();
    assert!(top_middle.admits(&v(0.0, 1.0)));
    for n in [
        (1.0, 0.0),
        (-1.0, 0.0),
        (0.0, -1.0),
        (1.0, 1.0),
        (-1.0, 1.0),
    ] {
        assert!(!top_middle.admits(&v(n.0, n.1)), "{n:?}");
    }
    // visit_parts: the tiles under a region.
    let region = BoundingBox2::new(p(1.0, 0.25), p(4.5, 0.5));
    assert_eq!(visited(&map, &region), vec![0, 1, 2]);
    let region = BoundingBox2::new(p(4.0, 1.0), p(9.0, 9.0)); // touching counts
    assert_eq!(visited(&map, &region), vec![1, 2, 5]);
    // Ray casts.
    let id = Isometry2::identity();
    let cast = |o: Point2<T>, d: Vector2<T>, solid: bool| {
        map.cast_ray_part(&id, &Ray::new(o, d), T::lit(100.0), solid)
    };
    let (k, h) = cast(p(1.0, 5.0), v(0.0, -1.0), true).unwrap();
    assert_eq!(
        (k, h.toi, h.normal.into_inner()),
        (0, T::lit(4.0), v(0.0, 1.0))
    );
    let (k, h) = cast(p(-3.0, 0.5), v(1.0, 0.0), true).unwrap();
    assert_eq!(
        (k, h.toi, h.normal.into_inner()),
        (0, T::lit(3.0), v(-1.0, 0.0))
    );
    // Along the floor's top, from the left: grazing the top counts.
    let (k, h) = cast(p(-1.0, 1.0), v(1.0, 0.0), true).unwrap();
    assert_eq!((k, h.toi), (0, T::one()));
    // Through the corner (4, 2)… touches tile 5's top-left corner only.
    let (k, h) = cast(p(2.0, 4.0), v(1.0, -1.0), true).unwrap();
    assert_eq!((k, h.toi, h.point), (5, T::two(), p(4.0, 2.0)));
    // Inside: solid at the origin; hollow where it leaves the solid region
    // (not the inner face between tiles).
    let (_, h) = cast(p(1.0, 0.5), v(1.0, 0.0), true).unwrap();
    assert_eq!(h.toi, T::zero());
    let (k, h) = cast(p(1.0, 0.5), v(1.0, 0.0), false).unwrap();
    assert_eq!(
        (k, h.toi, h.normal.into_inner()),
        (2, T::lit(5.0), v(-1.0, 0.0))
    );
    assert!(cast(p(1.0, 5.0), v(0.0, 1.0), true).is_none());
    assert!(cast(p(1.0, 1.5), v(-1.0, 0.0), true).is_none());
    // Projections.
    let pr = map.project_point(&id, &p(1.0, 1.5), true);
    assert_eq!((pr.point, pr.is_inside), (p(1.0, 1.0), false));
    let pr = map.project_point(&id, &p(3.0, 0.5), true);
    assert_eq!((pr.point, pr.is_inside), (p(3.0, 0.5), true));
    // Hollow inside: the nearest exposed face (the floor's top, not the
    // inner face at x = 2).
    let pr = map.project_point(&id, &p(2.25, 0.75), false);
    assert_eq!((pr.point, pr.is_inside), (p(2.25, 1.0), true));
    let pr = map.project_point(&id, &p(9.0, 3.0), true);
    assert_eq!(pr.point, p(6.0, 2.0));
}
shape::for_each_precision!(tile_map_known_values, tile_map_known);

fn tile_map_errors<T: Real>() {
    let one = v::<T>(1.0, 1.0);
    let rows: [&[bool]; 0] = [];
    assert_eq!(
        TileMap::from_rows(one, &rows).unwrap_err(),
        ShapeError::EmptyMap
    );
    assert_eq!(
        TileMap::from_rows(one, &[vec![true, false], vec![true]]).unwrap_err(),
        ShapeError::RaggedRow {
            row: 1,
            len: 1,
            expected: 2
        }
    );
    assert_eq!(
        TileMap::from_ids(one, 0, &[1]).unwrap_err(),
        ShapeError::EmptyMap
    );
    assert_eq!(
        TileMap::from_rows(one, &[[false, false]]).unwrap_err(),
        ShapeError::NoParts
    );
    for (size, field) in [
        (v::<T>(0.0, 1.0), "tile_size.x"),
        (v::<T>(1.0, -1.0), "tile_size.y"),
    ] {
        assert!(matches!(
            TileMap::from_rows(size, &[[true]]),
            Err(ShapeError::NonPositiveSize { field: f, .. }) if f == field
        ));
    }
    assert!(matches!(
        TileMap::from_rows(Vector2::new(T::nan(), T::one()), &[[true]]),
        Err(ShapeError::NonFinite {
            field: "tile_size.x"
        })
    ));
    let huge = shape::tolerance::max_size::<T>();
    assert!(matches!(
        TileMap::from_rows(Vector2::new(huge, T::one()), &[[true, true]]),
        Err(ShapeError::TooLarge { .. })
    ));
}
shape::for_each_precision!(tile_map_rejects, tile_map_errors);

// ---------------------------------------------------------- ConcavePolygon

/// A U: three parts' worth of reflex corners at (1, 1) and (2, 1).
fn u_shape<T: Real>() -> Vec<Point2<T>> {
    [
        (0.0, 0.0),
        (3.0, 0.0),
        (3.0, 3.0),
        (2.0, 3.0),
        (2.0, 1.0),
        (1.0, 1.0),
        (1.0, 3.0),
        (0.0, 3.0),
    ]
    .iter()
    .map(|&(x, y)| p(x, y))
    .collect()
}

fn concave_known<T: Real>() {
    let mut cw = u_shape::<T>();
    cw.reverse();
    let u = ConcavePolygon::new(&cw).unwrap();
    assert_eq!(u.kind(), ShapeKind::CONCAVE_POLYGON);
    assert_eq!(u.area(), T::lit(7.0));
    // Stored counter-clockwise, first input vertex first.
    assert_eq!(u.vertices()[0], cw[0]);
    assert_eq!(u.vertices()[1], cw[cw.len() - 1]);
    let sum = u.parts().iter().fold(T::zero(), |s, q| s + q.area());
    assert_eq!(sum, T::lit(7.0));
    let b = u.bounding_box(&iso(1.0, 0.0, 0.0));
    assert_eq!((b.min, b.max), (p(1.0, 0.0), p(4.0, 3.0)));
    let id = Isometry2::identity();
    assert!(u.contains_point(&id, &p(0.5, 2.5)) && u.contains_point(&id, &p(1.5, 1.0)));
    assert!(!u.contains_point(&id, &p(1.5, 1.5)));
    // Admissible normals: no part admits a diagonal's normal unless the
    // boundary has it too. Each part's normals: every boundary edge's normal
    // is admitted by the part holding that edge.
    let n = u.vertices().len();
    for k in 0..u.part_count() as u32 {
        let part = u.part(k).unwrap();
        let ShapeRef::Polygon(poly) = part.shape else {
            panic!("parts are convex polygons")
        };
        assert_eq!(part.pose, Isometry2::identity());
        let pv = poly.vertices();
        for e in 0..pv.len() {
            let (a, c) = (pv[e], pv[(e + 1) % pv.len()]);
            let boundary = (0..n).any(|i| u.vertices()[i] == a && u.vertices()[(i + 1) % n] == c);
            let normal = poly.normals()[e];
            if boundary {
                assert!(part.admits(&normal), "part {k} edge {e}");
            } else {
                // A diagonal of the U: vertical or horizontal inner lines,
                // whose normal is not the normal of any boundary edge at its
                // ends, or leads into the polygon.
                let mid = nalgebra::center(&a, &c);
                let inward = mid - normal * T::lit(1e-3);
                let outward = mid + normal * T::lit(1e-3);
                assert!(u.contains_point(&id, &inward) && u.contains_point(&id, &outward));
                assert!(!part.admits(&normal), "part {k} diagonal {e} admitted");
            }
        }
    }
    // Rays: solid from outside and inside; hollow from inside leaves.
    let ray = Ray::new(p(1.5, 5.0), v(0.0, -1.0));
    let h = u.cast_ray(&id, &ray, T::lit(10.0), true).unwrap();
    assert_eq!(
        (h.toi, h.point, h.normal.into_inner()),
        (T::lit(4.0), p(1.5, 1.0), v(0.0, 1.0))
    );
    let inside = Ray::new(p(0.5, 0.5), v(1.0, 0.0));
    assert_eq!(
        u.cast_ray(&id, &inside, T::lit(10.0), true).unwrap().toi,
        T::zero()
    );
    let h = u.cast_ray(&id, &inside, T::lit(10.0), false).unwrap();
    assert_eq!(
        (h.toi, h.point, h.normal.into_inner()),
        (T::lit(2.5), p(3.0, 0.5), v(-1.0, 0.0))
    );
    // Projections.
    let pr = u.project_point(&id, &p(1.5, 2.0), true);
    assert!(!pr.is_inside);
    assert!(pr.point == p(1.0, 2.0) || pr.point == p(2.0, 2.0) || pr.point == p(1.5, 1.0));
    let pr = u.project_point(&id, &p(0.5, 2.0), false);
    assert_eq!((pr.point, pr.is_inside), (p(0.0, 2.0), true));
    // A convex polygon is one part admitting everything.
    let sq =
        ConcavePolygon::new(&[p::<T>(0.0, 0.0), p(1.0, 0.0), p(1.0, 1.0), p(0.0, 1.0)]).unwrap();
    assert_eq!(sq.part_count(), 1);
    assert!(sq.part(0).unwrap().normals.is_none());
}
shape::for_each_precision!(concave_known_values, concave_known);

fn concave_errors<T: Real>() {
    let bowtie = [p::<T>(0.0, 0.0), p(1.0, 1.0), p(1.0, 0.0), p(0.0, 1.0)];
    assert_eq!(
        ConcavePolygon::new(&bowtie).unwrap_err(),
        ShapeError::EdgesCross { edge: 0, other: 2 }
    );
    assert_eq!(
        ConcavePolygon::new(&[p::<T>(0.0, 0.0), p(1.0, 0.0)]).unwrap_err(),
        ShapeError::TooFewVertices { count: 2, min: 3 }
    );
    assert_eq!(
        ConcavePolygon::new(&[p::<T>(0.0, 0.0), p(1.0, 0.0), p(2.0, 0.0), p(1.0, 1.0)])
            .unwrap_err(),
        ShapeError::CollinearVertices { index: 1 }
    );
    assert_eq!(
        ConcavePolygon::new(&[p::<T>(0.0, 0.0), p(1.0, 0.0), p(1.0, 0.0), p(1.0, 1.0)])
            .unwrap_err(),
        ShapeError::DuplicateVertex { index: 2 }
    );
    assert_eq!(
        ConcavePolygon::new(&[
            p::<T>(0.0, 0.0),
            Point2::new(T::infinity(), T::zero()),
            p(1.0, 1.0)
        ])
        .unwrap_err(),
        ShapeError::NonFiniteVertex { index: 1 }
    );
}
shape::for_each_precision!(concave_rejects, concave_errors);

// ------------------------------------------------- hostile queries: no panic

fn no_panic_on_nan<T: Real>() {
    let compound = Compound::new(vec![(
        Isometry2::identity(),
        ConvexPart::from(Circle::new(T::one()).unwrap()),
    )])
    .unwrap();
    let chain = Polyline::new(&[p::<T>(0.0, 0.0), p(1.0, 0.0), p(2.0, 1.0)], false).unwrap();
    let concave = ConcavePolygon::new(&u_shape::<T>()).unwrap();
    let map = TileMap::from_rows(v::<T>(1.0, 1.0), &[[true, false], [true, true]]).unwrap();
    let shapes: [&dyn Shape<T>; 4] = [&compound, &chain, &concave, &map];
    let (nan, inf) = (T::nan(), T::infinity());
    for s in shapes {
        for pose in [
            Isometry2::identity(),
            Isometry2::translation(nan, T::zero()),
        ] {
            let _ = s.bounding_box(&pose);
            for o in [
                p::<T>(0.5, 0.5),
                Point2::new(nan, T::zero()),
                Point2::new(inf, -inf),
            ] {
                for d in [
                    v::<T>(1.0, 0.0),
                    Vector2::new(nan, T::one()),
                    Vector2::new(inf, T::zero()),
                    Vector2::zeros(),
                ] {
                    for solid in [true, false] {
                        let _ =
                            s.as_ray_cast()
                                .unwrap()
                                .cast_ray(&pose, &Ray::new(o, d), inf, solid);
                        let _ =
                            s.as_ray_cast()
                                .unwrap()
                                .cast_ray(&pose, &Ray::new(o, d), nan, solid);
                    }
                }
                let _ = s.as_point_query().unwrap().project_point(&pose, &o, true);
                let _ = s.as_point_query().unwrap().project_point(&pose, &o, false);
            }
            let c = s.as_composite().unwrap();
            for region in [
                BoundingBox2::new(Point2::new(nan, nan), Point2::new(nan, nan)),
                BoundingBox2::new(Point2::new(-inf, -inf), Point2::new(inf, inf)),
            ] {
                let _ = visited(c, &region);
            }
            let _ = c.part(u32::MAX);
        }
    }
}
shape::for_each_precision!(hostile, no_panic_on_nan);

// --------------------------------------------------------------- properties

/// Random circles, boxes and triangles with poses: a compound of 1 to 30
/// parts.
fn compound_spec() -> impl Strategy<Value = Vec<(u8, [f64; 3], [f64; 2])>> {
    prop::collection::vec(
        (
            0u8..4,
            [-20.0f64..20.0, -20.0f64..20.0, -3.2f64..3.2],
            [0.2f64..3.0, 0.2f64..3.0],
        ),
        1..30,
    )
}

fn build_compound<T: Real>(spec: &[(u8, [f64; 3], [f64; 2])]) -> Compound<T> {
    Compound::new(
        spec.iter()
            .map(|&(kind, [x, y, a], [s, t])| {
                let part: ConvexPart<T> = match kind {
                    0 => Circle::new(T::lit(s)).unwrap().into(),
                    1 => Obb::new(v(s, t)).unwrap().into(),
                    2 => Aabb::from_half_extents(v(s, t)).unwrap().into(),
                    _ => Triangle::new(p(-s, 0.0), p(s, 0.0), p(0.0, t))
                        .unwrap()
                        .into(),
                };
                (iso(x, y, a), part)
            })
            .collect(),
    )
    .unwrap()
}

/// A random walk: 2 to 40 points with steps of random length and heading.
fn chain_spec() -> impl Strategy<Value = (Vec<(f64, f64)>, bool, bool)> {
    (
        prop::collection::vec((0.1f64..3.0, -3.2f64..3.2), 2..40),
        any::<bool>(),
        any::<bool>(),
    )
}

fn build_chain<T: Real>(
    steps: &[(f64, f64)],
    closed: bool,
    one_sided: bool,
) -> Option<Polyline<T>> {
    let mut at = (0.0f64, 0.0f64);
    let mut points = vec![p::<T>(0.0, 0.0)];
    for &(len, heading) in steps {
        at = (at.0 + len * heading.cos(), at.1 + len * heading.sin());
        points.push(p(at.0, at.1));
    }
    Polyline::new(&points, closed)
        .ok()
        .map(|c| c.with_one_sided(one_sided))
}

fn tile_spec() -> impl Strategy<Value = (Vec<Vec<bool>>, [f64; 2])> {
    (1usize..12, 1usize..12, [0.25f64..3.0, 0.25f64..3.0]).prop_flat_map(|(w, h, size)| {
        (
            prop::collection::vec(prop::collection::vec(prop::bool::weighted(0.35), w), h),
            Just(size),
        )
    })
}

fn ray_spec() -> impl Strategy<Value = ([f64; 2], [f64; 2], [f64; 3])> {
    (
        [-40.0f64..40.0, -40.0f64..40.0],
        [-1.0f64..1.0, -1.0f64..1.0],
        [-50.0f64..50.0, -50.0f64..50.0, -3.2f64..3.2],
    )
}

fn check_cast<T: Real>(
    c: &dyn Composite<T>,
    shape: &dyn Shape<T>,
    pose: &Isometry2<T>,
    ray: &Ray<T>,
    solid: bool,
    skip: impl Fn(u32) -> bool,
) -> Result<(), TestCaseError> {
    if !ray.is_valid() {
        return Ok(());
    }
    let got = shape
        .as_ray_cast()
        .unwrap()
        .cast_ray(pose, ray, T::infinity(), solid);
    let want = brute_cast(c, pose, ray, solid, skip);
    prop_assert_eq!(
        got.map(|h| (h.toi, h.point)),
        want.map(|(_, h)| (h.toi, h.point))
    );
    Ok(())
}

fn region_of<T: Real>(r: [f64; 4]) -> BoundingBox2<T> {
    BoundingBox2::new(
        p(r[0].min(r[2]), r[1].min(r[3])),
        p(r[0].max(r[2]), r[1].max(r[3])),
    )
}

fn compound_properties<T: Real>(
    spec: &[(u8, [f64; 3], [f64; 2])],
    (o, d, pose): ([f64; 2], [f64; 2], [f64; 3]),
    region: [f64; 4],
) -> Result<(), TestCaseError> {
    let c = build_compound::<T>(spec);
    let region = region_of::<T>(region);
    // Aabb parts: their tree boxes are wider (any rotation), so visit may
    // report more; every part whose box meets the region must be there.
    let got = visited(&c, &region);
    for id in brute_visit(&c, &region) {
        prop_assert!(got.contains(&id), "part {} missed", id);
    }
    let pose = iso::<T>(pose[0], pose[1], pose[2]);
    let ray = Ray::new(
        p(
            o[0] + pose.translation.x.as_f64(),
            o[1] + pose.translation.y.as_f64(),
        ),
        v(d[0], d[1]),
    );
    for solid in [true, false] {
        check_cast(&c, &c, &pose, &ray, solid, |_| false)?;
    }
    // The bounding box holds every part's box and touches them.
    let b = c.bounding_box(&pose);
    let mut merged: Option<BoundingBox2<T>> = None;
    for (q, s) in c.parts() {
        let pb = s.as_ref().as_shape().bounding_box(&(pose * q));
        merged = Some(merged.map_or(pb, |m| m.merged(&pb)));
    }
    prop_assert_eq!(Some(b), merged);
    // Projection: the nearest over every part.
    let q = ray.origin;
    let pr = c.project_point(&pose, &q, true);
    let best = c
        .parts()
        .iter()
        .map(|(qp, s)| {
            let pp = s
                .as_ref()
                .as_shape()
                .as_point_query()
                .unwrap()
                .project_point(&(pose * qp), &q, true);
            ((pp.point - q).norm(), pp.is_inside)
        })
        .fold((T::infinity(), false), |(d, i), (e, j)| {
            (if e < d { e } else { d }, i || j)
        });
    prop_assert_eq!((pr.point - q).norm(), best.0);
    prop_assert_eq!(pr.is_inside, best.1);
    Ok(())
}

fn chain_properties<T: Real>(
    chain: &Polyline<T>,
    (o, d, pose): ([f64; 2], [f64; 2], [f64; 3]),
    region: [f64; 4],
) -> Result<(), TestCaseError> {
    let region = region_of::<T>(region);
    prop_assert_eq!(visited(chain, &region), brute_visit(chain, &region));
    let pose = iso::<T>(pose[0], pose[1], pose[2]);
    let ray = Ray::new(
        p(
            o[0] + pose.translation.x.as_f64(),
            o[1] + pose.translation.y.as_f64(),
        ),
        v(d[0], d[1]),
    );
    let local_dir = pose.inverse_transform_vector(&ray.dir);
    let skip = |id: u32| {
        chain
            .part(id)
            .and_then(|part| part.front)
            .is_some_and(|(_, n)| local_dir.dot(&n) >= T::zero())
    };
    check_cast(chain, chain, &pose, &ray, true, skip)?;
    // Every segment's arcs contain its own face normal(s) on its colliding
    // side(s): the stored unit right normals (an arc's end counts when the
    // direction is exactly parallel to it).
    let sided = chain.clone().with_one_sided(true);
    for id in 0..chain.part_count() as u32 {
        let part = chain.part(id).unwrap();
        let right = sided.part(id).unwrap().front.unwrap().1.into_inner();
        prop_assert!(part.admits(&right));
        prop_assert_eq!(part.admits(&-right), !chain.is_one_sided());
    }
    Ok(())
}

fn tile_properties<T: Real>(
    rows: &[Vec<bool>],
    size: [f64; 2],
    (o, d, pose): ([f64; 2], [f64; 2], [f64; 3]),
    region: [f64; 4],
) -> Result<(), TestCaseError> {
    let Ok(map) = TileMap::from_rows(v::<T>(size[0], size[1]), rows) else {
        return Ok(()); // no solid tile
    };
    let region = region_of::<T>([
        region[0] / 4.0,
        region[1] / 4.0,
        region[2] / 4.0,
        region[3] / 4.0,
    ]);
    prop_assert_eq!(visited(&map, &region), brute_visit(&map, &region));
    // Rays: the grid walk against every tile (the map's flat pose).
    let pose = iso::<T>(pose[0], pose[1], pose[2]);
    let flat = map.effective_pose(&pose);
    let ray = Ray::new(
        p(
            o[0] / 2.0 + pose.translation.x.as_f64(),
            o[1] / 2.0 + pose.translation.y.as_f64(),
        ),
        v(d[0], d[1]),
    );
    if ray.is_valid() {
        let got = map.cast_ray_part(&pose, &ray, T::infinity(), true);
        let want = brute_cast(&map, &flat, &ray, true, |_| false);
        prop_assert_eq!(
            got.map(|(_, h)| (h.toi, h.point)),
            want.map(|(_, h)| (h.toi, h.point))
        );
    }
    // Exposure: a solid tile's face normal is admitted exactly when the
    // neighbour across it is empty or outside.
    for row in 0..map.height() {
        for col in 0..map.width() {
            if !map.is_solid(col, row) {
                continue;
            }
            let part = map.part((row * map.width() + col) as u32).unwrap();
            let faces = [
                ((1.0, 0.0), map.is_solid(col + 1, row)),
                ((0.0, 1.0), map.is_solid(col, row + 1)),
                ((-1.0, 0.0), col > 0 && map.is_solid(col - 1, row)),
                ((0.0, -1.0), row > 0 && map.is_solid(col, row - 1)),
            ];
            for ((x, y), covered) in faces {
                prop_assert_eq!(part.admits(&v(x, y)), !covered);
            }
        }
    }
    // Containment of tile centres and the map's box.
    let b = map.bounding_box(&pose);
    for id in 0..map.part_count() as u32 {
        if let Some(part) = map.part(id) {
            let pb = part.shape.as_shape().bounding_box(&(flat * part.pose));
            prop_assert!(b.contains(&pb));
            let c = flat * Point2::from(part.pose.translation.vector);
            prop_assert!(map.project_point(&pose, &c, true).is_inside);
        }
    }
    Ok(())
}

/// Winding number of `q` about the closed polygon (f64): the reference for
/// containment.
fn winding(poly: &[Point2<f64>], q: &Point2<f64>) -> i32 {
    let n = poly.len();
    let mut w = 0;
    for i in 0..n {
        let (a, b) = (poly[i], poly[(i + 1) % n]);
        let side = (b - a).perp(&(q - a));
        if a.y <= q.y {
            if b.y > q.y && side > 0.0 {
                w += 1;
            }
        } else if b.y <= q.y && side < 0.0 {
            w -= 1;
        }
    }
    w
}

fn concave_properties<T: Real>(
    spokes: &[(f64, f64)],
    (o, d, _): ([f64; 2], [f64; 2], [f64; 3]),
) -> Result<(), TestCaseError> {
    let mut spokes = spokes.to_vec();
    spokes.sort_by(|a, b| a.0.total_cmp(&b.0));
    let verts: Vec<Point2<T>> = spokes
        .iter()
        .map(|&(t, r)| {
            let (c, s) = shape::math::cos_sin(t * std::f64::consts::TAU);
            p(r * c, r * s)
        })
        .collect();
    let poly = match ConcavePolygon::new(&verts) {
        Ok(poly) => poly,
        Err(_) => return Err(TestCaseError::reject("degenerate input")),
    };
    let p64: Vec<Point2<f64>> = poly
        .vertices()
        .iter()
        .map(|q| Point2::new(q.x.as_f64(), q.y.as_f64()))
        .collect();
    let sum: f64 = poly.parts().iter().map(|q| q.area().as_f64()).sum();
    let area = poly.area().as_f64();
    prop_assert!(
        (sum - area).abs() <= T::epsilon().as_f64() * 1e4 * area.max(1.0),
        "{} vs {}",
        sum,
        area
    );
    let id = Isometry2::identity();
    for i in 0..16 {
        for j in 0..16 {
            let q = Point2::new(
                -10.0 + 20.0 * (f64::from(i) + 0.37) / 16.0,
                -10.0 + 20.0 * (f64::from(j) + 0.61) / 16.0,
            );
            let near = (0..p64.len()).any(|k| {
                let (a, b) = (p64[k], p64[(k + 1) % p64.len()]);
                let e = b - a;
                let t = ((q - a).dot(&e) / e.norm_squared()).clamp(0.0, 1.0);
                (a + e * t - q).norm() < 1e-3
            });
            if near {
                continue;
            }
            let qt = p::<T>(q.x, q.y);
            prop_assert_eq!(
                poly.contains_point(&id, &qt),
                winding(&p64, &q) != 0,
                "at {}",
                q
            );
        }
    }
    let ray = Ray::new(p::<T>(o[0] / 3.0, o[1] / 3.0), v(d[0], d[1]));
    check_cast(&poly, &poly, &id, &ray, true, |_| false)?;
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: shape::testing::cases(128),
        max_global_rejects: shape::testing::cases(128) * 8,
        ..ProptestConfig::default()
    })]

    #[test]
    fn compound_f64(spec in compound_spec(), ray in ray_spec(), region in [-30.0f64..30.0, -30.0f64..30.0, -30.0f64..30.0, -30.0f64..30.0]) {
        compound_properties::<f64>(&spec, ray, region)?;
    }

    #[test]
    fn compound_f32(spec in compound_spec(), ray in ray_spec(), region in [-30.0f64..30.0, -30.0f64..30.0, -30.0f64..30.0, -30.0f64..30.0]) {
        compound_properties::<f32>(&spec, ray, region)?;
    }

    #[test]
    fn polyline_f64((steps, closed, one_sided) in chain_spec(), ray in ray_spec(), region in [-30.0f64..30.0, -30.0f64..30.0, -30.0f64..30.0, -30.0f64..30.0]) {
        let Some(chain) = build_chain::<f64>(&steps, closed, one_sided) else { return Err(TestCaseError::reject("degenerate")) };
        chain_properties(&chain, ray, region)?;
    }

    #[test]
    fn polyline_f32((steps, closed, one_sided) in chain_spec(), ray in ray_spec(), region in [-30.0f64..30.0, -30.0f64..30.0, -30.0f64..30.0, -30.0f64..30.0]) {
        let Some(chain) = build_chain::<f32>(&steps, closed, one_sided) else { return Err(TestCaseError::reject("degenerate")) };
        chain_properties(&chain, ray, region)?;
    }

    #[test]
    fn tile_map_f64((rows, size) in tile_spec(), ray in ray_spec(), region in [-30.0f64..30.0, -30.0f64..30.0, -30.0f64..30.0, -30.0f64..30.0]) {
        tile_properties::<f64>(&rows, size, ray, region)?;
    }

    #[test]
    fn tile_map_f32((rows, size) in tile_spec(), ray in ray_spec(), region in [-30.0f64..30.0, -30.0f64..30.0, -30.0f64..30.0, -30.0f64..30.0]) {
        tile_properties::<f32>(&rows, size, ray, region)?;
    }

    #[test]
    fn concave_f64(spokes in prop::collection::vec((0.0f64..1.0, 1.0f64..9.0), 3..30), ray in ray_spec()) {
        concave_properties::<f64>(&spokes, ray)?;
    }

    #[test]
    fn concave_f32(spokes in prop::collection::vec((0.0f64..1.0, 1.0f64..9.0), 3..30), ray in ray_spec()) {
        concave_properties::<f32>(&spokes, ray)?;
    }

    /// Rays along the grid lines and through tile corners (integer
    /// coordinates, tile size 1): the walk's corner handling against every
    /// tile.
    #[test]
    fn tile_map_grid_rays((rows, _) in tile_spec(), o in [-3i32..15, -3i32..15], d in [-3i32..4, -3i32..4]) {
        let map = match TileMap::from_rows(Vector2::new(1.0f64, 1.0), &rows) { Ok(m) => m, Err(_) => return Ok(()) };
        let ray = Ray::new(Point2::new(f64::from(o[0]), f64::from(o[1])), Vector2::new(f64::from(d[0]), f64::from(d[1])));
        if ray.is_valid() {
            let id = Isometry2::identity();
            let got = map.cast_ray_part(&id, &ray, f64::INFINITY, true);
            let want = brute_cast(&map, &id, &ray, true, |_| false);
            prop_assert_eq!(
                got.map(|(_, h)| (h.toi, h.point)),
                want.map(|(_, h)| (h.toi, h.point))
            );
        }
    }
}
