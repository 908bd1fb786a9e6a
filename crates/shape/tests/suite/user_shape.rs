//! The user story: a game's own entity types implement the traits in a few
//! lines and then work wherever a built-in shape works. Two kinds of entity:
//! a hexagon tile that is a shape kind of its own, and a player that collides
//! as a built-in rotated box.

use crate::common;

use core::any::Any;

use common::*;
use nalgebra::{Isometry2, Point2, Vector2};
use num_traits::Float;
use proptest::prelude::*;
use shape::prelude::*;
use shape::sat::sat_contact;

/// A regular hexagon tile of a strategy game, flat side up.
#[derive(Debug)]
struct HexTile<T: Real> {
    /// Centre to corner.
    radius: T,
    terrain: &'static str,
}

impl<T: Real> HexTile<T> {
    const KIND: ShapeKind = ShapeKind::custom(0);

    fn corner(&self, k: usize) -> Point2<T> {
        let a = T::pi() / T::lit(3.0) * T::lit(k as f64);
        Point2::new(self.radius * Float::cos(a), self.radius * Float::sin(a))
    }

    fn corners(&self, pose: &Isometry2<T>) -> [Point2<T>; 6] {
        core::array::from_fn(|k| pose * self.corner(k))
    }
}

impl<T: Real> Shape<T> for HexTile<T> {
    fn kind(&self) -> ShapeKind {
        Self::KIND
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn bounding_box(&self, pose: &Isometry2<T>) -> BoundingBox2<T> {
        BoundingBox2::from_points(&self.corners(pose)).unwrap()
    }
    fn as_convex(&self) -> Option<&dyn Convex<T>> {
        Some(self)
    }
    fn as_separating_axes(&self) -> Option<&dyn SupportSeparatingAxes<T>> {
        Some(self)
    }
}

impl<T: Real> Convex<T> for HexTile<T> {
    fn support_point(&self, pose: &Isometry2<T>, dir: &Vector2<T>) -> Point2<T> {
        let c = self.corners(pose);
        *c.iter()
            .max_by(|p, q| p.coords.dot(dir).partial_cmp(&q.coords.dot(dir)).unwrap())
            .unwrap()
    }
    fn contains_point(&self, pose: &Isometry2<T>, p: &Point2<T>) -> bool {
        let c = self.corners(pose);
        (0..6).all(|k| (c[(k + 1) % 6] - c[k]).perp(&(p - c[k])) >= T::zero())
    }
}

impl<T: Real> SupportSeparatingAxes<T> for HexTile<T> {
    fn project(&self, pose: &Isometry2<T>, axis: &Vector2<T>) -> Interval<T> {
        Interval::hull(self.corners(pose).iter().map(|p| p.coords.dot(axis))).unwrap()
    }
    fn candidate_axes(
        &self,
        pose: &Isometry2<T>,
        _other: &dyn SupportSeparatingAxes<T>,
        _other_pose: &Isometry2<T>,
        axis: &mut dyn FnMut(Vector2<T>),
    ) {
        let c = self.corners(pose);
        // Opposite edges are parallel: three normals suffice.
        for k in 0..3 {
            let e = c[k + 1] - c[k];
            axis(Vector2::new(e.y, -e.x));
        }
    }
    fn nearest_core_point(&self, pose: &Isometry2<T>, p: &Point2<T>) -> Point2<T> {
        let c = self.corners(pose);
        *c.iter()
            .min_by(|u, v| {
                (*u - p)
                    .norm_squared()
                    .partial_cmp(&(*v - p).norm_squared())
                    .unwrap()
            })
            .unwrap()
    }
}

/// A player whose hit box is a rotated rectangle: it collides as an `Obb`.
#[derive(Debug)]
struct Player<T: Real> {
    hit_box: Obb<T>,
    health: u32,
}

impl<T: Real> Shape<T> for Player<T> {
    fn kind(&self) -> ShapeKind {
        ShapeKind::OBB
    }
    fn as_any(&self) -> &dyn Any {
        &self.hit_box
    }
    fn bounding_box(&self, pose: &Isometry2<T>) -> BoundingBox2<T> {
        self.hit_box.bounding_box(pose)
    }
    fn as_convex(&self) -> Option<&dyn Convex<T>> {
        Some(&self.hit_box)
    }
    fn as_separating_axes(&self) -> Option<&dyn SupportSeparatingAxes<T>> {
        Some(&self.hit_box)
    }
}

fn hexagon_polygon<T: Real>(tile: &HexTile<T>) -> ConvexPolygon<T> {
    ConvexPolygon::new(&tile.corners(&Isometry2::identity())).unwrap()
}

/// The tile answers like the equivalent built-in polygon against every built-in
/// shape with separating axes.
fn tile_matches_polygon<T: Real>(
    s: Spec,
    pa: [f64; 3],
    pb: [f64; 3],
    r: f64,
) -> Result<(), TestCaseError> {
    let tile = HexTile {
        radius: T::lit(r),
        terrain: "forest",
    };
    let poly = hexagon_polygon(&tile);
    let other = build::<T>(&s);
    let Some(other) = other.as_separating_axes() else {
        return Ok(());
    };
    let (ia, ib) = (iso::<T>(pa), iso::<T>(pb));
    let by_tile = sat_contact(&tile, &ia, other, &ib);
    let by_poly = sat_contact(&poly, &ia, other, &ib);
    let tol = shape::testing::test_tolerance::<T>(T::lit(100.0)) * T::lit(16.0);
    match (by_tile, by_poly) {
        (Some(x), Some(y)) => prop_assert!(Float::abs(x.depth - y.depth) <= tol, "{x:?} vs {y:?}"),
        (None, None) => {}
        // Rounding differs between the two corner computations: allowed only at
        // touching.
        (Some(x), None) => prop_assert!(x.depth <= tol, "{x:?}"),
        (None, Some(y)) => prop_assert!(y.depth <= tol, "{y:?}"),
    }
    let (bt, bp) = (tile.bounding_box(&ia), poly.bounding_box(&ia));
    prop_assert!((bt.min - bp.min).norm() <= tol && (bt.max - bp.max).norm() <= tol);
    Ok(())
}

proptest! {
    #[test]
    fn hex_tile_f32(s in spec(), pa in pose(5.0), pb in pose(5.0), r in 0.1f64..5.0) {
        tile_matches_polygon::<f32>(s, pa, pb, r)?;
    }
    #[test]
    fn hex_tile_f64(s in spec(), pa in pose(5.0), pb in pose(5.0), r in 0.1f64..5.0) {
        tile_matches_polygon::<f64>(s, pa, pb, r)?;
    }
}

fn known_values<T: Real>() {
    let tile = HexTile {
        radius: T::two(),
        terrain: "water",
    };
    assert_eq!(tile.kind(), ShapeKind::custom(0));
    assert!(!tile.kind().is_builtin());
    assert_eq!(tile.terrain, "water");
    assert!(tile.as_any().downcast_ref::<HexTile<T>>().is_some());
    let at = |x: f64, y: f64| Isometry2::translation(T::lit(x), T::lit(y));
    // Two tiles side by side, corner (2, 0) of one against corner (-2, 0) of the
    // other (the corners come from cos and sin, so touching exactly at 4 is not
    // representable: test either side of it).
    let (a, b) = (&tile as &dyn Shape<T>, &tile as &dyn Shape<T>);
    let sat = |p: f64| {
        sat_contact(
            a.as_separating_axes().unwrap(),
            &at(0.0, 0.0),
            b.as_separating_axes().unwrap(),
            &at(p, 0.0),
        )
    };
    assert!(sat(3.99).is_some());
    assert!(sat(4.01).is_none());
    // The hex tile against a built-in circle resting on its flat top (√3 up).
    let circle = Circle::new(T::one()).unwrap();
    let top = Float::sqrt(T::lit(3.0));
    let c = sat_contact(
        &tile,
        &Isometry2::identity(),
        &circle,
        &Isometry2::translation(T::zero(), top + T::half()),
    );
    let c = c.expect("overlapping by one half");
    let tol = shape::testing::test_tolerance::<T>(T::lit(4.0));
    assert!(Float::abs(c.depth - T::half()) < tol);
    assert!((c.normal.into_inner() - Vector2::y()).norm() < tol);

    // The player collides as its hit box: the framework reaches the Obb.
    let player = Player {
        hit_box: Obb::new(Vector2::new(T::half(), T::one())).unwrap(),
        health: 3,
    };
    assert_eq!(player.health, 3);
    assert_eq!(player.kind(), ShapeKind::OBB);
    assert_eq!(
        player.as_any().downcast_ref::<Obb<T>>(),
        Some(&player.hit_box)
    );
    let pose = Isometry2::new(Vector2::new(T::lit(1.5), T::zero()), T::zero());
    assert!(
        sat_contact(
            player.as_separating_axes().unwrap(),
            &pose,
            &tile,
            &Isometry2::identity()
        )
        .is_some()
    );
    assert!(
        player
            .as_convex()
            .unwrap()
            .contains_point(&pose, &Point2::new(T::one(), T::one()))
    );
}
shape::for_each_precision!(known, known_values);
