//! The table's routes for built-in pairs agree: the free functions, an owned
//! table with no user kernel, and a table with user kernels registered for
//! other pairs (which must not disturb the built-in ones) give the same
//! answers bit for bit, mirrored exactly; and a pose with a NaN or an
//! infinity anywhere, the rotation an axis-aligned box drops included, is
//! still [`DispatchError::NonFinitePose`] on the fast path. The entry point
//! that takes built-in shapes by type (`Table::query_builtin`, what the World
//! calls) answers the same as the one that takes `&dyn Shape`, user kernels
//! that override a built-in pair included.

use core::any::Any;

use nalgebra::{
    Isometry2, Isometry3, Point2, Quaternion, Translation2, UnitComplex, Vector2, Vector3,
};
use narrowphase::dim3::DispatchTable3;
use narrowphase::{
    ClosestPoints, ClosestPointsQuery, Contact, ContactQuery, DispatchError, DispatchTable,
    IntersectsQuery,
};
use proptest::prelude::*;
use shape::prelude::*;

/// A user kind, so that the table below holds a user kernel.
#[derive(Debug)]
struct Dot;

impl<T: Real> Shape<T> for Dot {
    fn kind(&self) -> ShapeKind {
        ShapeKind::custom(4)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn bounding_box(&self, pose: &Isometry2<T>) -> BoundingBox2<T> {
        let c = Point2::from(pose.translation.vector);
        BoundingBox2::new(c, c)
    }
}

fn dot_circle<T: Real>(_: &Dot, c: &Circle<T>, m: &Isometry2<T>) -> bool {
    m.translation.vector.norm() <= c.radius()
}

fn dot_circle_contact<T: Real>(_: &Dot, _: &Circle<T>, _: &Isometry2<T>) -> Option<Contact<T>> {
    None
}

/// A table with a user kernel for (dot, circle): every built-in pair must
/// still be answered by the built-in kernels.
fn table_with_user_kernel<T: Real>() -> DispatchTable<T> {
    let mut t = DispatchTable::new();
    t.register(
        ShapeKind::custom(4),
        ShapeKind::CIRCLE,
        "dot_circle",
        dot_circle::<T>,
        dot_circle_contact::<T>,
    );
    t
}

/// A user kernel that overrides a built-in pair (circle, obb): never touching.
fn never<T: Real>(_: &Circle<T>, _: &Obb<T>, _: &Isometry2<T>) -> bool {
    false
}

fn never_contact<T: Real>(_: &Circle<T>, _: &Obb<T>, _: &Isometry2<T>) -> Option<Contact<T>> {
    None
}

/// A table whose (circle, obb) pair is answered by a user kernel.
fn table_overriding_circle_obb<T: Real>() -> DispatchTable<T> {
    let mut t = DispatchTable::new();
    t.register(
        ShapeKind::CIRCLE,
        ShapeKind::OBB,
        "never",
        never::<T>,
        never_contact::<T>,
    );
    t
}

/// `query_builtin` (shapes by type) answers as `query` (shapes as trait
/// objects) on `table`, for every query.
fn by_type_agrees<T: Real>(
    table: &DispatchTable<T>,
    (a, pa): (&dyn Shape<T>, &Isometry2<T>),
    (b, pb): (&dyn Shape<T>, &Isometry2<T>),
    far: T,
) -> Result<(), TestCaseError> {
    let (x, y) = (a.as_builtin().unwrap(), b.as_builtin().unwrap());
    prop_assert_eq!(
        table.query_builtin::<IntersectsQuery>(x, pa, y, pb, ()),
        table.intersects(a, pa, b, pb)
    );
    prop_assert_eq!(
        table.query_builtin::<ContactQuery>(x, pa, y, pb, ()),
        table.contact(a, pa, b, pb)
    );
    prop_assert_eq!(
        table.query_builtin::<ClosestPointsQuery>(x, pa, y, pb, far),
        table.closest_points(a, pa, b, pb, far)
    );
    Ok(())
}

/// One shape of every built-in 2D kind.
fn shapes<T: Real>() -> Vec<Box<dyn Shape<T>>> {
    let l = T::lit;
    let p = |x: f64, y: f64| Point2::new(l(x), l(y));
    vec![
        Box::new(Point::origin()),
        Box::new(Segment::new(p(-1.0, 0.2), p(1.0, -0.1)).unwrap()),
        Box::new(Circle::new(l(0.8)).unwrap()),
        Box::new(Aabb::from_half_extents(Vector2::new(l(0.7), l(0.4))).unwrap()),
        Box::new(Obb::new(Vector2::new(l(0.9), l(0.3))).unwrap()),
        Box::new(Triangle::new(p(-0.8, -0.5), p(0.9, -0.4), p(0.1, 0.9)).unwrap()),
        Box::new(
            ConvexPolygon::new(&[
                p(-0.6, -0.6),
                p(0.7, -0.5),
                p(0.8, 0.4),
                p(0.0, 0.9),
                p(-0.7, 0.3),
            ])
            .unwrap(),
        ),
        Box::new(Capsule::new(p(0.0, -0.5), p(0.0, 0.5), l(0.4)).unwrap()),
        Box::new(Ellipse::new(Vector2::new(l(0.9), l(0.5))).unwrap()),
    ]
}

fn pose<T: Real>(x: f64, y: f64, angle: f64) -> Isometry2<T> {
    Isometry2::new(Vector2::new(T::lit(x), T::lit(y)), T::lit(angle))
}

/// Every route, every query, both orders: the same answers.
fn routes_agree<T: Real>(pa: &Isometry2<T>, pb: &Isometry2<T>) -> Result<(), TestCaseError> {
    let (plain, user) = (DispatchTable::<T>::new(), table_with_user_kernel::<T>());
    let overriding = table_overriding_circle_obb::<T>();
    let all = shapes::<T>();
    let far = T::lit(4.0);
    for a in &all {
        for b in &all {
            let (a, b) = (&**a, &**b);
            // One object against itself at the same pose has no mirror (its
            // normal would have to equal its own negation): nothing to check.
            if core::ptr::addr_eq(a, b) && pa == pb {
                continue;
            }
            for table in [&plain, &user, &overriding] {
                by_type_agrees(table, (a, pa), (b, pb), far)?;
            }
            let hit = narrowphase::intersects(a, pa, b, pb);
            prop_assert_eq!(hit, plain.intersects(a, pa, b, pb));
            prop_assert_eq!(hit, user.intersects(a, pa, b, pb));
            prop_assert_eq!(hit, narrowphase::intersects(b, pb, a, pa));
            let c = narrowphase::contact(a, pa, b, pb);
            prop_assert_eq!(c, plain.contact(a, pa, b, pb));
            prop_assert_eq!(c, user.contact(a, pa, b, pb));
            prop_assert_eq!(
                c,
                narrowphase::contact(b, pb, a, pa).map(|c| c.map(|c| c.flipped()))
            );
            let cp = narrowphase::closest_points(a, pa, b, pb, far);
            prop_assert_eq!(cp, plain.closest_points(a, pa, b, pb, far));
            prop_assert_eq!(cp, user.closest_points(a, pa, b, pb, far));
            prop_assert_eq!(
                cp,
                narrowphase::closest_points(b, pb, a, pa, far).map(|c| c.flipped())
            );
            prop_assert_eq!(
                hit.is_ok_and(|h| h),
                matches!(cp, Ok(ClosestPoints::Intersecting))
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(shape::testing::cases(64)))]

    #[test]
    fn routes_agree_f32(x in -3.0..3.0f64, y in -3.0..3.0f64, a in -3.2..3.2f64, b in -3.2..3.2f64) {
        routes_agree::<f32>(&pose(0.5, -0.25, a), &pose(0.5 + x, y - 0.25, b))?;
    }

    #[test]
    fn routes_agree_f64(x in -3.0..3.0f64, y in -3.0..3.0f64, a in -3.2..3.2f64, b in -3.2..3.2f64) {
        routes_agree::<f64>(&pose(0.5, -0.25, a), &pose(0.5 + x, y - 0.25, b))?;
    }
}

/// Two shapes of the same kind whose first pose numbers are equal (or whose
/// poses are equal: then their addresses decide the order) still agree
/// mirrored, bit for bit (the rarely taken part of the canonical order).
#[test]
fn tied_poses_agree() {
    fn check<T: Real>() {
        for (pa, pb) in [
            (pose::<T>(0.5, -0.25, 0.3), pose::<T>(0.5, 0.75, -1.1)),
            (pose::<T>(0.5, 0.25, 0.3), pose::<T>(0.5, 0.25, 2.0)),
            (pose::<T>(0.5, 0.25, 0.3), pose::<T>(0.5, 0.25, 0.3)),
        ] {
            routes_agree::<T>(&pa, &pb).unwrap();
            routes_agree::<T>(&pb, &pa).unwrap();
        }
        // Two distinct objects of the same kind at the same pose: their
        // addresses decide the order, and the answers still mirror.
        let p = pose::<T>(0.5, 0.25, 0.3);
        for (a, b) in shapes::<T>().into_iter().zip(shapes::<T>()) {
            let (a, b) = (&*a, &*b);
            let c = narrowphase::contact(a, &p, b, &p).unwrap();
            let mirrored = narrowphase::contact(b, &p, a, &p).unwrap();
            assert_eq!(c, mirrored.map(|c| c.flipped()), "{:?}", a.kind());
            let far = T::lit(4.0);
            let cp = narrowphase::closest_points(a, &p, b, &p, far);
            assert_eq!(
                cp,
                narrowphase::closest_points(b, &p, a, &p, far).map(|c| c.flipped())
            );
        }
    }
    check::<f32>();
    check::<f64>();
}

/// `query_builtin` routes a pair with a user kernel to it, as `query` does.
#[test]
fn by_type_takes_user_kernels() {
    let t = table_overriding_circle_obb::<f64>();
    let c = Circle::new(1.0).unwrap();
    let o = Obb::new(Vector2::new(1.0, 1.0)).unwrap();
    let at = Isometry2::identity();
    let (x, y) = (ShapeRef::Circle(&c), ShapeRef::Obb(&o));
    assert_eq!(
        t.query_builtin::<IntersectsQuery>(x, &at, y, &at, ()),
        Ok(false)
    );
    assert_eq!(
        t.query_builtin::<IntersectsQuery>(y, &at, x, &at, ()),
        Ok(false)
    );
    assert_eq!(
        t.query_builtin::<ContactQuery>(y, &at, x, &at, ()),
        Ok(None)
    );
    let plain = DispatchTable::<f64>::new();
    assert_eq!(
        plain.query_builtin::<IntersectsQuery>(x, &at, y, &at, ()),
        Ok(true)
    );
}

/// A pose with one bad number, at each of its four places.
fn bad_poses<T: Real>(bad: T) -> Vec<Isometry2<T>> {
    let (o, one) = (T::zero(), T::one());
    let rot = |re, im| UnitComplex::from_cos_sin_unchecked(re, im);
    vec![
        Isometry2::from_parts(Translation2::new(bad, o), rot(one, o)),
        Isometry2::from_parts(Translation2::new(o, bad), rot(one, o)),
        Isometry2::from_parts(Translation2::new(o, o), rot(bad, o)),
        Isometry2::from_parts(Translation2::new(o, o), rot(one, bad)),
    ]
}

/// Every built-in pair with a bad pose on either side, through every route
/// and query: `NonFinitePose`, the box's dropped rotation included, and
/// before an invalid `max_distance`.
fn bad_poses_are_errors<T: Real>() {
    let user = table_with_user_kernel::<T>();
    let all = shapes::<T>();
    let good = pose::<T>(0.25, 0.0, 0.5);
    let e = DispatchError::NonFinitePose;
    for bad in [T::nan(), T::infinity(), T::neg_infinity()] {
        for p in bad_poses(bad) {
            for a in &all {
                for b in &all {
                    let (a, b) = (&**a, &**b);
                    for (pa, pb) in [(&p, &good), (&good, &p)] {
                        assert_eq!(
                            narrowphase::intersects(a, pa, b, pb).err(),
                            Some(e),
                            "{a:?} {b:?} {pa:?} {pb:?}"
                        );
                        assert_eq!(user.intersects(a, pa, b, pb).err(), Some(e));
                        assert_eq!(narrowphase::contact(a, pa, b, pb).err(), Some(e));
                        assert_eq!(user.contact(a, pa, b, pb).err(), Some(e));
                        assert_eq!(
                            narrowphase::closest_points(a, pa, b, pb, T::one()).err(),
                            Some(e)
                        );
                        assert_eq!(
                            narrowphase::closest_points(a, pa, b, pb, T::nan()).err(),
                            Some(e)
                        );
                        assert_eq!(user.closest_points(a, pa, b, pb, -T::one()).err(), Some(e));
                        let (x, y) = (a.as_builtin().unwrap(), b.as_builtin().unwrap());
                        assert_eq!(
                            user.query_builtin::<ContactQuery>(x, pa, y, pb, ()).err(),
                            Some(e)
                        );
                    }
                }
            }
        }
    }
    // A valid pose and an invalid distance: the distance's error.
    let c = &*all[2];
    assert_eq!(
        narrowphase::closest_points(c, &good, c, &good, T::nan()),
        Err(DispatchError::InvalidMaxDistance)
    );
}

#[test]
fn bad_poses_are_errors_f32() {
    bad_poses_are_errors::<f32>();
}

#[test]
fn bad_poses_are_errors_f64() {
    bad_poses_are_errors::<f64>();
}

/// In 3D, an `Aabb3` whose dropped rotation is not finite, on either side.
#[test]
fn aabb3_bad_rotation_is_an_error() {
    let boxed = Aabb3::from_half_extents(Vector3::new(1.0, 1.0, 1.0)).unwrap();
    let ball = Sphere::new(1.0).unwrap();
    let table = DispatchTable3::<f64>::new();
    let good = Isometry3::translation(0.5, 0.0, 0.0);
    for q in [
        Quaternion::new(f64::NAN, 0.0, 0.0, 0.0),
        Quaternion::new(1.0, 0.0, f64::INFINITY, 0.0),
    ] {
        let bad = Isometry3::from_parts(
            nalgebra::Translation3::identity(),
            nalgebra::UnitQuaternion::new_unchecked(q),
        );
        let shapes: [&dyn Shape3<f64>; 2] = [&boxed, &ball];
        for other in shapes {
            let e = DispatchError::NonFinitePose;
            assert_eq!(
                narrowphase::dim3::intersects3(&boxed, &bad, other, &good).err(),
                Some(e)
            );
            assert_eq!(
                narrowphase::dim3::intersects3(other, &good, &boxed, &bad).err(),
                Some(e)
            );
            assert_eq!(table.contact(&boxed, &bad, other, &good).err(), Some(e));
            assert_eq!(table.contact(other, &good, &boxed, &bad).err(), Some(e));
        }
    }
}
