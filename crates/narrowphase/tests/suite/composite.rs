//! Pair queries against composite shapes through the table (issue 14),
//! with a composite defined here (a user's own [`Composite`]: a bundle of
//! built-in parts with optional admissible normals), so that the narrow
//! phase's part-by-part path is tested independently of the built-in
//! composites:
//!
//! - every query agrees with the same query asked of each part (any, the
//!   deepest, the nearest, the earliest), in both orders, bit for bit
//!   symmetric, f32 and f64 (proptest);
//! - admissible normals remove ghost collisions: a box sunk into a floor of
//!   unit tiles, at every position along it (seams included), gets the
//!   floor's normal and its true depth; a box sliding along the floor is
//!   never stopped; the same floor without admissible normals shows the
//!   ghost (so the test can fail);
//! - one-sided parts, the part ids of `query_parts`, errors.

use core::ops::ControlFlow;
use std::any::Any;

use nalgebra::{Isometry2, Unit, Vector2};
use narrowphase::composite::Parts;
use narrowphase::{
    ClosestPoints, DispatchError, DispatchTable, Route, ShapeCastArgs, ShapeCastOptions,
    ShapeCastStatus,
};
use proptest::prelude::*;
use shape::dim2::composite::{Composite, NormalArc, Part};
use shape::prelude::*;
use shape::testing::{cases, test_tolerance};

use crate::common::{build, iso, pose, spec, spec_of};

/// A user's composite: built-in parts with poses, each with optional
/// admissible normals and an optional one-sided front.
#[derive(Debug)]
struct Bundle<T: Real> {
    parts: Vec<(Isometry2<T>, Box<dyn Shape<T>>)>,
    normals: Vec<Option<Vec<NormalArc<T>>>>,
    front: Option<(nalgebra::Point2<T>, Unit<Vector2<T>>)>,
}

impl<T: Real> Bundle<T> {
    fn new(parts: Vec<(Isometry2<T>, Box<dyn Shape<T>>)>) -> Self {
        let n = parts.len();
        Self {
            parts,
            normals: vec![None; n],
            front: None,
        }
    }

    fn part_at(&self, i: usize) -> Part<'_, T> {
        Part {
            id: i as u32,
            shape: self.parts[i].1.as_builtin().unwrap(),
            pose: self.parts[i].0,
            normals: self.normals[i].as_deref(),
            front: self.front,
        }
    }
}

impl<T: Real> Shape<T> for Bundle<T> {
    fn kind(&self) -> ShapeKind {
        ShapeKind::custom(7)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn bounding_box(&self, pose: &Isometry2<T>) -> BoundingBox2<T> {
        self.parts
            .iter()
            .map(|(p, s)| s.bounding_box(&(pose * p)))
            .reduce(|a, b| a.merged(&b))
            .unwrap()
    }
    fn as_composite(&self) -> Option<&dyn Composite<T>> {
        Some(self)
    }
}

impl<T: Real> Composite<T> for Bundle<T> {
    fn part_count(&self) -> usize {
        self.parts.len()
    }
    fn part(&self, id: u32) -> Option<Part<'_, T>> {
        ((id as usize) < self.parts.len()).then(|| self.part_at(id as usize))
    }
    fn visit_parts(
        &self,
        region: &BoundingBox2<T>,
        visit: &mut dyn FnMut(Part<'_, T>) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        for i in 0..self.parts.len() {
            let (p, s) = &self.parts[i];
            if s.bounding_box(p).intersects(region) {
                visit(self.part_at(i))?;
            }
        }
        ControlFlow::Continue(())
    }
    fn local_bounds(&self) -> BoundingBox2<T> {
        self.bounding_box(&Isometry2::identity())
    }
}

fn v<T: Real>(x: f64, y: f64) -> Vector2<T> {
    Vector2::new(T::lit(x), T::lit(y))
}

/// `n` unit tiles in a row, x in [0, n], y in [−1, 0]; with `smooth`, each
/// tile admits only the normals of its faces on the row's boundary.
fn floor<T: Real>(n: usize, smooth: bool) -> Bundle<T> {
    let tile = || -> Box<dyn Shape<T>> { Box::new(Obb::new(v::<T>(0.5, 0.5)).unwrap()) };
    let parts = (0..n)
        .map(|i| {
            (
                Isometry2::translation(T::lit(i as f64 + 0.5), T::lit(-0.5)),
                tile(),
            )
        })
        .collect();
    let mut b = Bundle::new(parts);
    if smooth {
        let (u, d): (Unit<Vector2<T>>, Unit<Vector2<T>>) = (Vector2::y_axis(), -Vector2::y_axis());
        for i in 0..n {
            // Faces counter-clockwise from the right: right, up, left, down.
            let arcs = match (i == 0, i + 1 == n) {
                (true, true) => None,
                (true, false) => Some(vec![NormalArc::new(u, d)]),
                (false, true) => Some(vec![NormalArc::new(d, u)]),
                (false, false) => Some(vec![NormalArc::single(u), NormalArc::single(d)]),
            };
            b.normals[i] = arcs;
        }
    }
    b
}

fn table<T: Real>() -> DispatchTable<T> {
    DispatchTable::new()
}

fn ghost_free_floor<T: Real>() {
    let tol = test_tolerance::<T>(T::lit(10.0));
    let t = table::<T>();
    let (smooth, rough) = (floor::<T>(8, true), floor::<T>(8, false));
    let crate_ = Obb::new(v::<T>(0.5, 0.5)).unwrap();
    let up = v::<T>(0.0, 1.0);
    let mut ghosts = 0;
    // The crate sunk 0.01 into the floor, at x from 1 to 7 in steps of 1/16
    // (seams at the integers included).
    for k in 16..=112 {
        let x = k as f64 / 16.0;
        let pc = Isometry2::translation(T::lit(x), T::lit(0.49));
        let id = Isometry2::identity();
        let c = t.contact(&smooth, &id, &crate_, &pc).unwrap().unwrap();
        assert!((c.normal.into_inner() - up).norm() <= tol, "x = {x}: {c:?}");
        assert!(
            num_traits::Float::abs(c.depth - T::lit(0.01)) <= tol,
            "x = {x}: {c:?}"
        );
        let back = t.contact(&crate_, &pc, &smooth, &id).unwrap().unwrap();
        assert_eq!(back, c.flipped(), "x = {x}");
        let m = t
            .contact_manifold(&smooth, &id, &crate_, &pc, T::zero())
            .unwrap()
            .unwrap();
        assert!(
            (m.normal().into_inner() - up).norm() <= tol,
            "x = {x}: {m:?}"
        );
        assert_eq!(m.len(), 2, "x = {x}: {m:?}");
        for q in m.points() {
            assert!(
                num_traits::Float::abs(q.separation + T::lit(0.01)) <= tol,
                "{m:?}"
            );
        }
        // The tiles one by one: the tile the crate just reaches pushes it
        // sideways (the ghost the admissible normals remove).
        for (pt, tile) in &rough.parts {
            if let Some(raw) = t.contact(&**tile, pt, &crate_, &pc).unwrap() {
                if (raw.normal.into_inner() - up).norm() > tol {
                    ghosts += 1;
                }
            }
        }
    }
    // The tiles alone have the ghost: without admissible normals a part
    // could give the contact above.
    assert!(ghosts > 0, "no ghost among the tiles");
}

#[test]
fn ghost_free_floor_f32() {
    ghost_free_floor::<f32>();
}
#[test]
fn ghost_free_floor_f64() {
    ghost_free_floor::<f64>();
}

fn sliding_is_never_stopped<T: Real>() {
    let t = table::<T>();
    let (smooth, rough) = (floor::<T>(8, true), floor::<T>(8, false));
    let crate_ = Obb::new(v::<T>(0.5, 0.5)).unwrap();
    let args = ShapeCastArgs {
        vel_a: Vector2::zeros(),
        vel_b: v::<T>(1.0, 0.0),
        max_toi: T::lit(6.0),
        options: ShapeCastOptions {
            stop_at_penetration: false,
        },
    };
    let id = Isometry2::identity();
    let start = Isometry2::translation(T::lit(0.5), T::lit(0.5));
    // Resting on the floor (touching), sliding right across six seams.
    let hit = t.cast_shapes(&smooth, &id, &crate_, &start, args).unwrap();
    assert_eq!(hit, None);
    // Moving down-right into the floor: stopped at once, by the floor's
    // normal.
    let down = ShapeCastArgs {
        vel_b: v::<T>(1.0, -1.0),
        ..args
    };
    let hit = t
        .cast_shapes(&smooth, &id, &crate_, &start, down)
        .unwrap()
        .unwrap();
    assert_eq!(hit.toi, T::zero());
    assert_eq!(hit.status, ShapeCastStatus::Penetrating);
    assert!((hit.normal.into_inner() - v::<T>(0.0, 1.0)).norm() <= test_tolerance::<T>(T::one()));
    // Without admissible normals the next tile's corner stops the crate
    // (the ghost), so the first assertion can fail.
    let rough_hit = t.cast_shapes(&rough, &id, &crate_, &start, args).unwrap();
    assert!(rough_hit.is_some(), "the rough floor did not catch");
}

#[test]
fn sliding_is_never_stopped_f32() {
    sliding_is_never_stopped::<f32>();
}
#[test]
fn sliding_is_never_stopped_f64() {
    sliding_is_never_stopped::<f64>();
}

fn one_sided_and_parts<T: Real>() {
    let t = table::<T>();
    let mut f = floor::<T>(4, true);
    let ball = Circle::new(T::lit(0.25)).unwrap();
    let id = Isometry2::identity();
    // Over tile 2 (x in [2, 3]), sunk 0.05: part 2 gives the contact.
    let over = Isometry2::translation(T::lit(2.5), T::lit(0.2));
    let (c, parts) = t
        .query_parts::<narrowphase::ContactQuery>(&f, &id, &ball, &over, ())
        .unwrap();
    assert!(c.is_some());
    assert_eq!(
        parts,
        Parts {
            a: Some(2),
            b: None
        }
    );
    let (_, back) = t
        .query_parts::<narrowphase::ContactQuery>(&ball, &over, &f, &id, ())
        .unwrap();
    assert_eq!(back, parts.flipped());
    assert_eq!(t.route(&f, &ball).unwrap(), Route::Composite);
    // One-sided, facing up: a ball below the top (its centre at y = −0.2,
    // inside the tile) passes; above, it collides.
    f.front = Some((nalgebra::Point2::origin(), Vector2::y_axis()));
    let below = Isometry2::translation(T::lit(2.5), T::lit(-0.2));
    assert!(!t.intersects(&f, &id, &ball, &below).unwrap());
    assert_eq!(t.contact(&ball, &below, &f, &id).unwrap(), None);
    assert!(t.intersects(&f, &id, &ball, &over).unwrap());
    // Errors: a pose with a NaN.
    let nan = Isometry2::translation(T::nan(), T::zero());
    assert_eq!(
        t.intersects(&f, &nan, &ball, &over),
        Err(DispatchError::NonFinitePose)
    );
    assert_eq!(
        t.contact(&ball, &over, &f, &nan),
        Err(DispatchError::NonFinitePose)
    );
    assert!(matches!(
        t.closest_points(&f, &id, &ball, &over, T::nan()),
        Err(DispatchError::InvalidMaxDistance)
    ));
    // Far apart: closest points name the nearest tile (tile 3, x in [3, 4]).
    let far = Isometry2::translation(T::lit(6.0), T::lit(0.5));
    let (cp, parts) = t
        .query_parts::<narrowphase::ClosestPointsQuery>(&f, &id, &ball, &far, T::infinity())
        .unwrap();
    assert_eq!(parts.a, Some(3));
    let ClosestPoints::WithinMargin { point_a, .. } = cp else {
        panic!("{cp:?}")
    };
    assert_eq!(point_a, nalgebra::Point2::new(T::lit(4.0), T::zero()));
}

#[test]
fn one_sided_and_parts_f32() {
    one_sided_and_parts::<f32>();
}
#[test]
fn one_sided_and_parts_f64() {
    one_sided_and_parts::<f64>();
}

/// A random bundle: 1 to 4 parts of any kind but the axis-aligned box
/// (whose geometry ignores rotation, so it cannot turn with its composite)
/// with random poses.
fn bundle_spec() -> impl Strategy<Value = Vec<(crate::common::Spec, [f64; 3])>> {
    let part = spec().prop_filter("no Aabb part", |s| {
        !matches!(s, crate::common::Spec::Aabb(..))
    });
    prop::collection::vec((part, pose(3.0)), 1..5)
}

fn build_bundle<T: Real>(s: &[(crate::common::Spec, [f64; 3])]) -> Bundle<T> {
    Bundle::new(
        s.iter()
            .map(|(sp, p)| (iso::<T>(*p), build::<T>(sp)))
            .collect(),
    )
}

fn agrees_with_parts<T: Real>(
    parts: &[(crate::common::Spec, [f64; 3])],
    other: &crate::common::Spec,
    pa: [f64; 3],
    pb: [f64; 3],
    vel: [f64; 2],
) -> Result<(), TestCaseError> {
    let t = table::<T>();
    let bundle = build_bundle::<T>(parts);
    let b = build::<T>(other);
    let (pa, pb) = (iso::<T>(pa), iso::<T>(pb));
    let pieces: Vec<(Isometry2<T>, &dyn Shape<T>)> =
        bundle.parts.iter().map(|(p, s)| (pa * p, &**s)).collect();
    // intersects: any part.
    let any = pieces
        .iter()
        .any(|(p, s)| t.intersects(*s, p, &*b, &pb).unwrap());
    prop_assert_eq!(t.intersects(&bundle, &pa, &*b, &pb).unwrap(), any);
    prop_assert_eq!(t.intersects(&*b, &pb, &bundle, &pa).unwrap(), any);
    // contact: the deepest part's depth; symmetric bit for bit.
    let c = t.contact(&bundle, &pa, &*b, &pb).unwrap();
    prop_assert_eq!(c.is_some(), any);
    let deepest = pieces
        .iter()
        .filter_map(|(p, s)| t.contact(*s, p, &*b, &pb).unwrap())
        .map(|c| c.depth)
        .fold(None, |m: Option<T>, d| {
            Some(m.map_or(d, |m| if d > m { d } else { m }))
        });
    prop_assert_eq!(c.map(|c| c.depth), deepest);
    prop_assert_eq!(
        t.contact(&*b, &pb, &bundle, &pa).unwrap(),
        c.map(|c| c.flipped())
    );
    // closest points: the nearest part's distance.
    let cp = t
        .closest_points(&bundle, &pa, &*b, &pb, T::infinity())
        .unwrap();
    let dist = |c: ClosestPoints<T>| match c {
        ClosestPoints::Intersecting => Some(T::zero()),
        ClosestPoints::WithinMargin { distance, .. } => Some(distance),
        ClosestPoints::Farther => None,
    };
    let nearest = pieces
        .iter()
        .filter_map(|(p, s)| dist(t.closest_points(*s, p, &*b, &pb, T::infinity()).unwrap()))
        .fold(T::infinity(), |m, d| if d < m { d } else { m });
    prop_assert_eq!(dist(cp), Some(nearest));
    // distance (the scalar path, nearest subtrees first): the same number,
    // from either side.
    prop_assert_eq!(narrowphase::distance(&bundle, &pa, &*b, &pb), Ok(nearest));
    prop_assert_eq!(narrowphase::distance(&*b, &pb, &bundle, &pa), Ok(nearest));
    let back = t
        .closest_points(&*b, &pb, &bundle, &pa, T::infinity())
        .unwrap();
    prop_assert_eq!(back, cp.flipped());
    // shape cast: the earliest part's time.
    let args = ShapeCastArgs {
        vel_a: Vector2::zeros(),
        vel_b: v::<T>(vel[0], vel[1]),
        max_toi: T::lit(4.0),
        options: ShapeCastOptions::default(),
    };
    let hit = t.cast_shapes(&bundle, &pa, &*b, &pb, args).unwrap();
    let earliest = pieces
        .iter()
        .filter_map(|(p, s)| t.cast_shapes(*s, p, &*b, &pb, args).unwrap())
        .map(|h| h.toi)
        .fold(None, |m: Option<T>, d| {
            Some(m.map_or(d, |m| if d < m { d } else { m }))
        });
    prop_assert_eq!(hit.map(|h| h.toi), earliest);
    let swapped = ShapeCastArgs {
        vel_a: args.vel_b,
        vel_b: args.vel_a,
        ..args
    };
    let back = t.cast_shapes(&*b, &pb, &bundle, &pa, swapped).unwrap();
    prop_assert_eq!(back, hit.map(|h| h.flipped()));
    // manifold: one exactly when some part has one; the deepest point at
    // least as deep as every part's.
    let prediction = T::lit(0.1);
    let m = t
        .contact_manifold(&bundle, &pa, &*b, &pb, prediction)
        .unwrap();
    let part_deepest = pieces
        .iter()
        .filter_map(|(p, s)| t.contact_manifold(*s, p, &*b, &pb, prediction).unwrap())
        .map(|m| m.deepest().separation)
        .fold(None, |m: Option<T>, d| {
            Some(m.map_or(d, |m| if d < m { d } else { m }))
        });
    prop_assert_eq!(m.map(|m| m.deepest().separation), part_deepest);
    let back = t
        .contact_manifold(&*b, &pb, &bundle, &pa, prediction)
        .unwrap();
    prop_assert_eq!(back, m.map(|m| m.flipped()));
    Ok(())
}

/// The least distance from `b` to the parts of the built-in composite `c`,
/// each part asked on its own at the pose the composite places it with.
fn nearest_part<T: Real>(
    c: &dyn Shape<T>,
    pose: &Isometry2<T>,
    b: &dyn Shape<T>,
    pose_b: &Isometry2<T>,
) -> T {
    let parts = c.as_composite().unwrap();
    let placed = c.effective_pose(pose);
    (0..parts.part_count() as u32)
        .filter_map(|id| parts.part(id))
        .map(|part| {
            narrowphase::distance(part.shape.as_shape(), &(placed * part.pose), b, pose_b).unwrap()
        })
        .fold(T::infinity(), |m, d| if d < m { d } else { m })
}

/// Distances to built-in composites with many parts (a chain's part tree,
/// walked nearer subtrees first with a falling bound; a tile map's grid):
/// the least distance over the parts, bit for bit, from either side, the
/// closest points' distance and `intersects` agreeing.
fn many_parts_distance<T: Real>(
    steps: &[(f64, f64)],
    tiles: &[bool],
    other: &crate::common::Spec,
    pa: [f64; 3],
    pb: [f64; 3],
) -> Result<(), TestCaseError> {
    let t = table::<T>();
    let mut at = (0.0, 0.0);
    let mut points = vec![nalgebra::Point2::new(T::zero(), T::zero())];
    for &(dx, dy) in steps {
        // Steps of at least 0.1: no point repeats the one before it.
        let (dx, dy) = if dx.abs() + dy.abs() < 0.1 {
            (0.5, dy)
        } else {
            (dx, dy)
        };
        at = (at.0 + dx, at.1 + dy);
        points.push(nalgebra::Point2::new(T::lit(at.0), T::lit(at.1)));
    }
    let chain = Polyline::new(&points, false).unwrap();
    let mut tiles = tiles.to_vec();
    tiles[0] = true;
    let map = TileMap::from_ids(
        v::<T>(0.75, 0.5),
        8,
        &tiles.iter().map(|&s| u32::from(s)).collect::<Vec<_>>(),
    )
    .unwrap();
    let b = build::<T>(other);
    let (pa, pb) = (iso::<T>(pa), iso::<T>(pb));
    for c in [&chain as &dyn Shape<T>, &map] {
        let nearest = nearest_part(c, &pa, &*b, &pb);
        prop_assert_eq!(narrowphase::distance(c, &pa, &*b, &pb), Ok(nearest));
        prop_assert_eq!(narrowphase::distance(&*b, &pb, c, &pa), Ok(nearest));
        let cp = t.closest_points(c, &pa, &*b, &pb, T::infinity()).unwrap();
        prop_assert_eq!(cp.distance(), Some(nearest));
        prop_assert_eq!(
            t.intersects(c, &pa, &*b, &pb).unwrap(),
            nearest == T::zero()
        );
    }
    Ok(())
}

proptest! {
    #[test]
    fn many_parts_distances_are_the_nearest_parts(
        steps in prop::collection::vec((-2.0f64..2.0, -2.0f64..2.0), 1..60),
        tiles in prop::collection::vec(any::<bool>(), 64),
        other in spec(),
        pa in pose(3.0),
        pb in pose(8.0),
    ) {
        many_parts_distance::<f64>(&steps, &tiles, &other, pa, pb)?;
        many_parts_distance::<f32>(&steps, &tiles, &other, pa, pb)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(64)))]

    #[test]
    fn agrees_with_its_parts(
        parts in bundle_spec(),
        other in spec(),
        pa in pose(4.0),
        pb in pose(4.0),
        vel in [-2.0f64..2.0, -2.0f64..2.0],
    ) {
        agrees_with_parts::<f64>(&parts, &other, pa, pb, vel)?;
        agrees_with_parts::<f32>(&parts, &other, pa, pb, vel)?;
    }

    #[test]
    fn two_composites_agree_with_their_part_pairs(
        a in prop::collection::vec((spec_of(4), pose(2.0)), 1..4),
        b in prop::collection::vec((spec_of(2), pose(2.0)), 1..4),
        pa in pose(3.0),
        pb in pose(3.0),
    ) {
        fn check<T: Real>(
            a: &[(crate::common::Spec, [f64; 3])],
            b: &[(crate::common::Spec, [f64; 3])],
            pa: [f64; 3],
            pb: [f64; 3],
        ) -> Result<(), TestCaseError> {
            let t = table::<T>();
            let (x, y) = (build_bundle::<T>(a), build_bundle::<T>(b));
            let (pa, pb) = (iso::<T>(pa), iso::<T>(pb));
            let mut any = false;
            let mut nearest = T::infinity();
            for (p, s) in &x.parts {
                for (q, u) in &y.parts {
                    let (pp, qq) = (pa * p, pb * q);
                    any |= t.intersects(&**s, &pp, &**u, &qq).unwrap();
                    if let ClosestPoints::WithinMargin { distance, .. } =
                        t.closest_points(&**s, &pp, &**u, &qq, T::infinity()).unwrap()
                    {
                        if distance < nearest {
                            nearest = distance;
                        }
                    }
                }
            }
            prop_assert_eq!(t.intersects(&x, &pa, &y, &pb).unwrap(), any);
            let d = if any { T::zero() } else { nearest };
            prop_assert_eq!(narrowphase::distance(&x, &pa, &y, &pb), Ok(d));
            prop_assert_eq!(narrowphase::distance(&y, &pb, &x, &pa), Ok(d));
            let cp = t.closest_points(&x, &pa, &y, &pb, T::infinity()).unwrap();
            match cp {
                ClosestPoints::Intersecting => prop_assert!(any),
                ClosestPoints::WithinMargin { distance, .. } => {
                    prop_assert!(!any);
                    prop_assert_eq!(distance, nearest);
                }
                ClosestPoints::Farther => prop_assert!(false, "farther than infinity"),
            }
            prop_assert_eq!(t.closest_points(&y, &pb, &x, &pa, T::infinity()).unwrap(), cp.flipped());
            let c = t.contact(&x, &pa, &y, &pb).unwrap();
            prop_assert_eq!(t.contact(&y, &pb, &x, &pa).unwrap(), c.map(|c| c.flipped()));
            Ok(())
        }
        check::<f64>(&a, &b, pa, pb)?;
        check::<f32>(&a, &b, pa, pb)?;
    }
}
