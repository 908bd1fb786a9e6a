//! The single-shape queries: [`cast_ray`] and [`project_point`] in 2D,
//! [`cast_ray3`] and [`project_point3`] in 3D (re-exported from
//! [`crate::dim3`]). The contracts are in [`shape::RayCast`] /
//! [`shape::PointQuery`] and `docs/conventions.md` ("Ray casts", "Point
//! projection").
//!
//! Each query:
//! 1. validates its input (pose, ray, `max_toi`, point: a typed error, never
//!    a panic). A query first asks one vectorisable question (every number
//!    finite, the direction not zero, `max_toi ≥ 0`, the origin or point in
//!    range: `plain_ray`, `plain_point`); only input that fails it is
//!    checked step by step, in the order of the errors below;
//! 2. sends a built-in shape to its own exact implementation by a `match` on
//!    [`shape::ShapeRef`] (one call through the vtable, `as_builtin`, and no
//!    downcast), then a jump to one function per kernel (`kernel`) where the
//!    kernel is inlined and its hit checked and written once, so
//!    that `cast_ray` itself stays small enough to inline into the caller's
//!    loop. The `Aabb`s ignore the pose's rotation themselves, as their
//!    `effective_pose` says. A ray origin or query point farther than
//!    [`shape::tolerance::max_query_coordinate`] from the shape's position is
//!    answered by the bounding box when the ray misses it, else refused
//!    ([`DispatchError::QueryOutOfRange`]);
//! 3. otherwise a shape reporting a built-in kind with data of another type
//!    is [`DispatchError::KindMismatch`]; a user shape answers itself through
//!    `as_ray_cast` / `as_point_query`; failing that, a 2D shape with a
//!    support function (`as_convex`) goes to the support-map fallback
//!    ([`crate::gjk::gjk_cast_ray`], [`crate::gjk::gjk_project_point`]) at
//!    its `effective_pose`; anything else is
//!    [`DispatchError::UnsupportedShape`]. 3D has no support-map fallback:
//!    a 3D user shape answers itself or gets the error.
//!
//! Every built-in and fallback answer is finite; one that would not be (a
//! shape placed within its own size of the float range's end) is
//! [`DispatchError::QueryOutOfRange`]. Answers of a user's own
//! implementation are passed on as they are.

use nalgebra::{Isometry2, Isometry3, Point, Point2, Point3, SVector};
use num_traits::Float;
use shape::{
    BoundingBox, PointProjection, PointProjection3, PointQuery, PointQuery3, Ray, Ray3, RayCast,
    RayCast3, RayHit, RayHit3, Real, Shape, Shape3, ShapeKind, ShapeRef, ShapeRef3,
};

use crate::DispatchError;
use crate::dim3::Dim3;
use crate::dispatch::Dim2;
use crate::gjk::{gjk_cast_ray, gjk_project_point};
use crate::table::pose_is_finite;

/// The first point where a ray meets a shape (solid) or its boundary
/// (hollow), with the time of impact (in units of `ray.dir`), the point and
/// the unit normal facing the ray, or `None` when there is none with
/// `toi ≤ max_toi`.
///
/// A ray starting in a solid shape hits at time 0 at its origin with normal
/// `−dir/|dir|`; with `solid = false` it reports where it leaves the shape.
/// Exact (closed forms) for every built-in shape; user shapes answer through
/// their own [`RayCast`] or, with a support function, by a GJK ray cast
/// (accurate to `gjk_tolerance · scale`). The full contract is in
/// `docs/conventions.md`, "Ray casts".
///
/// # Errors
/// [`DispatchError::NonFinitePose`] for a NaN or infinite pose,
/// [`DispatchError::InvalidRay`] for a NaN or infinite origin or direction
/// or a zero direction, [`DispatchError::InvalidMaxToi`] for a NaN or
/// negative `max_toi` (`+∞` is allowed), [`DispatchError::KindMismatch`] for
/// a shape whose `kind()` and `as_any()` disagree,
/// [`DispatchError::UnsupportedShape`] for a shape that offers no way to
/// answer, [`DispatchError::QueryOutOfRange`] for an origin beyond
/// [`shape::tolerance::max_query_coordinate`] from the shape whose ray meets
/// the shape's bounding box.
///
/// ```
/// use nalgebra::{Isometry2, Point2, Vector2};
/// use narrowphase::{DispatchError, cast_ray};
/// use shape::{Obb, Ray};
/// let wall = Obb::new(Vector2::new(1.0, 3.0)).unwrap();
/// let pose = Isometry2::translation(5.0, 0.0);
/// let ray = Ray::new(Point2::new(0.0, 1.0), Vector2::new(2.0, 0.0));
/// let hit = cast_ray(&wall, &pose, &ray, f64::INFINITY, true).unwrap().unwrap();
/// assert_eq!((hit.toi, hit.point), (2.0, Point2::new(4.0, 1.0)));
/// assert_eq!(hit.normal.into_inner(), Vector2::new(-1.0, 0.0));
/// assert_eq!(cast_ray(&wall, &pose, &ray, 1.5, true), Ok(None));
/// let zero = Ray::new(Point2::new(0.0, 1.0), Vector2::new(0.0, 0.0));
/// assert_eq!(cast_ray(&wall, &pose, &zero, 1.0, true), Err(DispatchError::InvalidRay));
/// ```
#[inline]
pub fn cast_ray<T: Real>(
    shape: &dyn Shape<T>,
    pose: &Isometry2<T>,
    ray: &Ray<T>,
    max_toi: T,
    solid: bool,
) -> Result<Option<RayHit<T>>, DispatchError> {
    // The common case first: valid input, origin in range, a built-in shape.
    let plain = plain_ray(
        [pose.rotation.re, pose.rotation.im],
        &pose.translation.vector,
        ray,
        max_toi,
    );
    if plain {
        if let Some(b) = shape.as_builtin() {
            return builtin_cast_ray(b, pose, ray, max_toi, solid);
        }
    }
    cast_ray_checked(shape, pose, ray, max_toi, solid)
}

/// [`cast_ray`] for a built-in shape (input validated, origin in range):
/// a jump to one kernel.
#[inline]
fn builtin_cast_ray<T: Real>(
    b: ShapeRef<'_, T>,
    pose: &Isometry2<T>,
    ray: &Ray<T>,
    max_toi: T,
    solid: bool,
) -> Result<Option<RayHit<T>>, DispatchError> {
    match b {
        ShapeRef::Point(s) => kernel(s, pose, ray, max_toi, solid),
        ShapeRef::Segment(s) => kernel(s, pose, ray, max_toi, solid),
        ShapeRef::Circle(s) => kernel(s, pose, ray, max_toi, solid),
        ShapeRef::Aabb(s) => kernel(s, pose, ray, max_toi, solid),
        ShapeRef::Obb(s) => kernel(s, pose, ray, max_toi, solid),
        ShapeRef::Triangle(s) => kernel(s, pose, ray, max_toi, solid),
        ShapeRef::Polygon(s) => kernel(s, pose, ray, max_toi, solid),
        ShapeRef::Capsule(s) => kernel(s, pose, ray, max_toi, solid),
        ShapeRef::Ellipse(s) => kernel(s, pose, ray, max_toi, solid),
        ShapeRef::RoundedPolygon(s) => kernel(s, pose, ray, max_toi, solid),
    }
}

/// One built-in kernel with its answer checked ([`finite_hit`]): a function
/// of its own, so that [`cast_ray`] stays small enough to inline into the
/// caller's loop, while the kernel inlines here and its hit is checked and
/// written once, where the caller wants it.
#[inline(never)]
fn kernel<T: Real, S: RayCast<T>>(
    shape: &S,
    pose: &Isometry2<T>,
    ray: &Ray<T>,
    max_toi: T,
    solid: bool,
) -> Result<Option<RayHit<T>>, DispatchError> {
    finite_hit(shape.cast_ray(pose, ray, max_toi, solid))
}

/// [`cast_ray`] with every check in order: the errors, far origins, user
/// shapes.
#[inline(never)]
fn cast_ray_checked<T: Real>(
    shape: &dyn Shape<T>,
    pose: &Isometry2<T>,
    ray: &Ray<T>,
    max_toi: T,
    solid: bool,
) -> Result<Option<RayHit<T>>, DispatchError> {
    check_ray(pose_is_finite::<T, Dim2>(pose), ray, max_toi)?;
    if let Some(b) = shape.as_builtin() {
        if !near(&ray.origin, &pose.translation.vector) {
            return far_ray(&shape.bounding_box(pose), ray, max_toi);
        }
        return builtin_cast_ray(b, pose, ray, max_toi, solid);
    }
    let kind = user_kind(shape.kind(), &ShapeKind::BUILTIN_2D)?;
    if let Some(own) = shape.as_ray_cast() {
        return Ok(own.cast_ray(pose, ray, max_toi, solid));
    }
    let Some(convex) = shape.as_convex() else {
        return Err(DispatchError::UnsupportedShape { kind });
    };
    let frame = shape.effective_pose(pose);
    if !pose_is_finite::<T, Dim2>(&frame) {
        return Err(DispatchError::NonFinitePose);
    }
    if !near(&ray.origin, &frame.translation.vector) {
        return far_ray(&shape.bounding_box(pose), ray, max_toi);
    }
    finite_hit(gjk_cast_ray(convex, &frame, ray, max_toi, solid))
}

/// The point of a shape nearest `point` and whether `point` lies in the
/// closed shape: `point` itself inside a solid shape, the nearest boundary
/// point inside a hollow one (`solid = false`).
///
/// Exact for every built-in shape (the ellipse by Eberly's root finder);
/// user shapes answer through their own [`PointQuery`] or, with a support
/// function, by GJK distance (outside) and EPA (the nearest boundary point
/// from inside), accurate to `gjk_tolerance · scale`. The full contract is
/// in `docs/conventions.md`, "Point projection".
///
/// # Errors
/// [`DispatchError::NonFinitePose`], [`DispatchError::NonFinitePoint`] for a
/// NaN or infinite coordinate, [`DispatchError::KindMismatch`],
/// [`DispatchError::UnsupportedShape`], [`DispatchError::QueryOutOfRange`]
/// for a point beyond [`shape::tolerance::max_query_coordinate`] from the
/// shape.
///
/// ```
/// use nalgebra::{Isometry2, Point2};
/// use narrowphase::project_point;
/// use shape::Circle;
/// let ball = Circle::new(5.0).unwrap();
/// let at = Isometry2::translation(1.0, 1.0);
/// let out = project_point(&ball, &at, &Point2::new(7.0, 9.0), true).unwrap();
/// assert_eq!((out.point, out.is_inside), (Point2::new(4.0, 5.0), false));
/// let shell = project_point(&ball, &at, &Point2::new(1.0, 2.0), false).unwrap();
/// assert_eq!((shell.point, shell.is_inside), (Point2::new(1.0, 6.0), true));
/// ```
#[inline]
pub fn project_point<T: Real>(
    shape: &dyn Shape<T>,
    pose: &Isometry2<T>,
    point: &Point2<T>,
    solid: bool,
) -> Result<PointProjection<T>, DispatchError> {
    // The common case first, as in `cast_ray`.
    let plain = plain_point(
        [pose.rotation.re, pose.rotation.im],
        &pose.translation.vector,
        point,
    );
    if plain {
        if let Some(b) = shape.as_builtin() {
            return builtin_project_point(b, pose, point, solid);
        }
    }
    project_point_checked(shape, pose, point, solid)
}

/// [`project_point`] for a built-in shape (input validated, point in
/// range): a jump to one kernel.
#[inline]
fn builtin_project_point<T: Real>(
    b: ShapeRef<'_, T>,
    pose: &Isometry2<T>,
    point: &Point2<T>,
    solid: bool,
) -> Result<PointProjection<T>, DispatchError> {
    match b {
        ShapeRef::Point(s) => projection_kernel(s, pose, point, solid),
        ShapeRef::Segment(s) => projection_kernel(s, pose, point, solid),
        ShapeRef::Circle(s) => projection_kernel(s, pose, point, solid),
        ShapeRef::Aabb(s) => projection_kernel(s, pose, point, solid),
        ShapeRef::Obb(s) => projection_kernel(s, pose, point, solid),
        ShapeRef::Triangle(s) => projection_kernel(s, pose, point, solid),
        ShapeRef::Polygon(s) => projection_kernel(s, pose, point, solid),
        ShapeRef::Capsule(s) => projection_kernel(s, pose, point, solid),
        ShapeRef::Ellipse(s) => projection_kernel(s, pose, point, solid),
        ShapeRef::RoundedPolygon(s) => projection_kernel(s, pose, point, solid),
    }
}

/// One built-in projection with its answer checked (as [`kernel`]).
#[inline(never)]
fn projection_kernel<T: Real, S: PointQuery<T>>(
    shape: &S,
    pose: &Isometry2<T>,
    point: &Point2<T>,
    solid: bool,
) -> Result<PointProjection<T>, DispatchError> {
    finite_projection(shape.project_point(pose, point, solid))
}

/// [`project_point`] with every check in order.
#[inline(never)]
fn project_point_checked<T: Real>(
    shape: &dyn Shape<T>,
    pose: &Isometry2<T>,
    point: &Point2<T>,
    solid: bool,
) -> Result<PointProjection<T>, DispatchError> {
    check_point(pose_is_finite::<T, Dim2>(pose), point)?;
    if let Some(b) = shape.as_builtin() {
        if !near(point, &pose.translation.vector) {
            return Err(DispatchError::QueryOutOfRange);
        }
        return builtin_project_point(b, pose, point, solid);
    }
    let kind = user_kind(shape.kind(), &ShapeKind::BUILTIN_2D)?;
    if let Some(own) = shape.as_point_query() {
        return Ok(own.project_point(pose, point, solid));
    }
    let Some(convex) = shape.as_convex() else {
        return Err(DispatchError::UnsupportedShape { kind });
    };
    let frame = shape.effective_pose(pose);
    if !pose_is_finite::<T, Dim2>(&frame) {
        return Err(DispatchError::NonFinitePose);
    }
    if !near(point, &frame.translation.vector) {
        return Err(DispatchError::QueryOutOfRange);
    }
    finite_projection(gjk_project_point(convex, &frame, point, solid))
}

/// The 3D form of [`cast_ray`]: built-in shapes (sphere, cuboid, aabb3)
/// exactly, user shapes through their own [`RayCast3`]; there is no 3D
/// support-map fallback.
///
/// # Errors
/// As [`cast_ray`]; a 3D user shape without `as_ray_cast` is
/// [`DispatchError::UnsupportedShape`].
///
/// ```
/// use nalgebra::{Isometry3, Point3, Vector3};
/// use narrowphase::dim3::cast_ray3;
/// use shape::{Ray3, Sphere};
/// let ball = Sphere::new(1.0_f32).unwrap();
/// let ray = Ray3::new(Point3::new(0.0, 0.0, -5.0), Vector3::new(0.0, 0.0, 1.0));
/// let hit = cast_ray3(&ball, &Isometry3::identity(), &ray, 10.0, true).unwrap().unwrap();
/// assert_eq!((hit.toi, hit.normal.into_inner()), (4.0, -Vector3::z()));
/// ```
#[inline]
pub fn cast_ray3<T: Real>(
    shape: &dyn Shape3<T>,
    pose: &Isometry3<T>,
    ray: &Ray3<T>,
    max_toi: T,
    solid: bool,
) -> Result<Option<RayHit3<T>>, DispatchError> {
    let q = pose.rotation.coords;
    let plain = plain_ray(
        [q[0], q[1], q[2], q[3]],
        &pose.translation.vector,
        ray,
        max_toi,
    );
    if plain {
        if let Some(b) = shape.as_builtin() {
            return builtin_cast_ray3(b, pose, ray, max_toi, solid);
        }
    }
    cast_ray3_checked(shape, pose, ray, max_toi, solid)
}

/// [`cast_ray3`] for a built-in shape (input validated, origin in range):
/// a jump to one kernel.
#[inline]
fn builtin_cast_ray3<T: Real>(
    b: ShapeRef3<'_, T>,
    pose: &Isometry3<T>,
    ray: &Ray3<T>,
    max_toi: T,
    solid: bool,
) -> Result<Option<RayHit3<T>>, DispatchError> {
    match b {
        ShapeRef3::Sphere(s) => kernel3(s, pose, ray, max_toi, solid),
        ShapeRef3::Cuboid(s) => kernel3(s, pose, ray, max_toi, solid),
        ShapeRef3::Aabb3(s) => kernel3(s, pose, ray, max_toi, solid),
    }
}

/// The 3D form of [`kernel`].
#[inline(never)]
fn kernel3<T: Real, S: RayCast3<T>>(
    shape: &S,
    pose: &Isometry3<T>,
    ray: &Ray3<T>,
    max_toi: T,
    solid: bool,
) -> Result<Option<RayHit3<T>>, DispatchError> {
    finite_hit(shape.cast_ray(pose, ray, max_toi, solid))
}

/// [`cast_ray3`] with every check in order.
#[inline(never)]
fn cast_ray3_checked<T: Real>(
    shape: &dyn Shape3<T>,
    pose: &Isometry3<T>,
    ray: &Ray3<T>,
    max_toi: T,
    solid: bool,
) -> Result<Option<RayHit3<T>>, DispatchError> {
    check_ray(pose_is_finite::<T, Dim3>(pose), ray, max_toi)?;
    if let Some(b) = shape.as_builtin() {
        if !near(&ray.origin, &pose.translation.vector) {
            return far_ray(&shape.bounding_box(pose), ray, max_toi);
        }
        return builtin_cast_ray3(b, pose, ray, max_toi, solid);
    }
    let kind = user_kind(shape.kind(), &ShapeKind::BUILTIN_3D)?;
    match shape.as_ray_cast() {
        Some(own) => Ok(own.cast_ray(pose, ray, max_toi, solid)),
        None => Err(DispatchError::UnsupportedShape { kind }),
    }
}

/// The 3D form of [`project_point`]: built-in shapes exactly, user shapes
/// through their own [`PointQuery3`]; there is no 3D support-map fallback.
///
/// # Errors
/// As [`project_point`]; a 3D user shape without `as_point_query` is
/// [`DispatchError::UnsupportedShape`].
///
/// ```
/// use nalgebra::{Isometry3, Point3, Vector3};
/// use narrowphase::dim3::project_point3;
/// use shape::Cuboid;
/// let cube = Cuboid::new(Vector3::new(1.0, 1.0, 1.0)).unwrap();
/// let out = project_point3(&cube, &Isometry3::identity(), &Point3::new(0.5, 0.25, 0.0), false).unwrap();
/// assert_eq!((out.point, out.is_inside), (Point3::new(1.0, 0.25, 0.0), true));
/// ```
#[inline]
pub fn project_point3<T: Real>(
    shape: &dyn Shape3<T>,
    pose: &Isometry3<T>,
    point: &Point3<T>,
    solid: bool,
) -> Result<PointProjection3<T>, DispatchError> {
    let q = pose.rotation.coords;
    let plain = plain_point([q[0], q[1], q[2], q[3]], &pose.translation.vector, point);
    if plain {
        if let Some(b) = shape.as_builtin() {
            return builtin_project_point3(b, pose, point, solid);
        }
    }
    project_point3_checked(shape, pose, point, solid)
}

/// [`project_point3`] for a built-in shape: a jump to one kernel.
#[inline]
fn builtin_project_point3<T: Real>(
    b: ShapeRef3<'_, T>,
    pose: &Isometry3<T>,
    point: &Point3<T>,
    solid: bool,
) -> Result<PointProjection3<T>, DispatchError> {
    match b {
        ShapeRef3::Sphere(s) => projection_kernel3(s, pose, point, solid),
        ShapeRef3::Cuboid(s) => projection_kernel3(s, pose, point, solid),
        ShapeRef3::Aabb3(s) => projection_kernel3(s, pose, point, solid),
    }
}

/// The 3D form of [`projection_kernel`].
#[inline(never)]
fn projection_kernel3<T: Real, S: PointQuery3<T>>(
    shape: &S,
    pose: &Isometry3<T>,
    point: &Point3<T>,
    solid: bool,
) -> Result<PointProjection3<T>, DispatchError> {
    finite_projection(shape.project_point(pose, point, solid))
}

/// [`project_point3`] with every check in order.
#[inline(never)]
fn project_point3_checked<T: Real>(
    shape: &dyn Shape3<T>,
    pose: &Isometry3<T>,
    point: &Point3<T>,
    solid: bool,
) -> Result<PointProjection3<T>, DispatchError> {
    check_point(pose_is_finite::<T, Dim3>(pose), point)?;
    if let Some(b) = shape.as_builtin() {
        if !near(point, &pose.translation.vector) {
            return Err(DispatchError::QueryOutOfRange);
        }
        return builtin_project_point3(b, pose, point, solid);
    }
    let kind = user_kind(shape.kind(), &ShapeKind::BUILTIN_3D)?;
    match shape.as_point_query() {
        Some(own) => Ok(own.project_point(pose, point, solid)),
        None => Err(DispatchError::UnsupportedShape { kind }),
    }
}

/// Whether a ray cast may go straight to a built-in shape's kernel: the
/// pose finite, the direction finite and not zero, `max_toi` not NaN nor
/// negative, and the origin within
/// [`shape::tolerance::max_query_coordinate`] of the pose's translation in
/// every coordinate. A few sums and comparisons, no branch per number: a
/// sum of absolute values is NaN or infinite when one of its terms is, and
/// `Σ |oᵢ − tᵢ| ≤ limit` implies every `|oᵢ − tᵢ| ≤ limit` (the test is
/// stricter than the rule: what it turns away, such as a huge direction
/// whose sum overflows, takes the careful path, which finds the error or
/// the far-ray answer or goes on to the kernel).
#[inline]
fn plain_ray<T: Real, const N: usize, const R: usize>(
    rotation: [T; R],
    translation: &SVector<T, N>,
    ray: &Ray<T, N>,
    max_toi: T,
) -> bool {
    let (mut off, mut size) = (T::zero(), T::zero());
    for i in 0..N {
        off += Float::abs(ray.origin[i] - translation[i]);
        size += Float::abs(ray.dir[i]);
    }
    let turn = rotation.iter().fold(T::zero(), |s, x| s + Float::abs(*x));
    let max = <T as Float>::max_value();
    (off <= shape::tolerance::max_query_coordinate::<T>())
        & (size > T::zero())
        & (size <= max)
        & (turn <= max)
        & (max_toi >= T::zero())
}

/// [`plain_ray`] for a point projection: the pose finite and the point
/// within [`shape::tolerance::max_query_coordinate`] of the translation.
#[inline]
fn plain_point<T: Real, const N: usize, const R: usize>(
    rotation: [T; R],
    translation: &SVector<T, N>,
    point: &Point<T, N>,
) -> bool {
    let mut off = T::zero();
    for i in 0..N {
        off += Float::abs(point[i] - translation[i]);
    }
    let turn = rotation.iter().fold(T::zero(), |s, x| s + Float::abs(*x));
    (off <= shape::tolerance::max_query_coordinate::<T>()) & (turn <= <T as Float>::max_value())
}

/// Step 1 for a ray cast (the pose's finiteness checked by the caller).
#[inline]
fn check_ray<T: Real, const N: usize>(
    pose_finite: bool,
    ray: &Ray<T, N>,
    max_toi: T,
) -> Result<(), DispatchError> {
    if !pose_finite {
        return Err(DispatchError::NonFinitePose);
    }
    if !ray.is_valid() {
        return Err(DispatchError::InvalidRay);
    }
    if max_toi.is_nan() || max_toi < T::zero() {
        return Err(DispatchError::InvalidMaxToi);
    }
    Ok(())
}

/// Step 1 for a point projection.
#[inline]
fn check_point<T: Real, const N: usize>(
    pose_finite: bool,
    point: &Point<T, N>,
) -> Result<(), DispatchError> {
    if !pose_finite {
        return Err(DispatchError::NonFinitePose);
    }
    if !point.iter().all(|v| Float::is_finite(*v)) {
        return Err(DispatchError::NonFinitePoint);
    }
    Ok(())
}

/// A kind that is not built in (the caller found no built-in data), or
/// [`DispatchError::KindMismatch`] for one that is.
#[inline]
fn user_kind(kind: ShapeKind, builtin: &[ShapeKind]) -> Result<ShapeKind, DispatchError> {
    if builtin.contains(&kind) {
        Err(DispatchError::KindMismatch { kind })
    } else {
        Ok(kind)
    }
}

/// Whether `p` is within [`shape::tolerance::max_query_coordinate`] of the
/// shape's position `at` in every coordinate (NaN is not).
#[inline]
fn near<T: Real, const N: usize>(p: &Point<T, N>, at: &SVector<T, N>) -> bool {
    let limit = shape::tolerance::max_query_coordinate::<T>();
    p.iter()
        .zip(at.iter())
        .all(|(a, b)| Float::abs(*a - *b) <= limit)
}

/// A ray from beyond the supported range: no hit when it misses the shape's
/// bounding box (or meets it only after `max_toi`), else
/// [`DispatchError::QueryOutOfRange`].
#[cold]
fn far_ray<T: Real, const N: usize>(
    bounds: &BoundingBox<T, N>,
    ray: &Ray<T, N>,
    max_toi: T,
) -> Result<Option<RayHit<T, N>>, DispatchError> {
    match box_entry(bounds, ray) {
        Some(t) if t <= max_toi => Err(DispatchError::QueryOutOfRange),
        _ => Ok(None),
    }
}

/// The time at which `ray` enters the closed box (0 if it starts inside), or
/// `None` when it misses: the slab method in world coordinates, where
/// overflowing differences become infinities (never NaN: an axis the ray
/// runs parallel to is tested without dividing). A box with a non-finite
/// corner (a user shape's) is met by every ray.
fn box_entry<T: Real, const N: usize>(b: &BoundingBox<T, N>, ray: &Ray<T, N>) -> Option<T> {
    if !b.is_valid() {
        return Some(T::zero());
    }
    let (mut t_in, mut t_out) = (T::zero(), T::infinity());
    for i in 0..N {
        let (o, d) = (ray.origin[i], ray.dir[i]);
        if d == T::zero() {
            if o < b.min[i] || o > b.max[i] {
                return None;
            }
            continue;
        }
        let (ta, tb) = ((b.min[i] - o) / d, (b.max[i] - o) / d);
        let (near, far) = if ta <= tb { (ta, tb) } else { (tb, ta) };
        t_in = Float::max(t_in, near);
        t_out = Float::min(t_out, far);
        if t_in > t_out {
            return None;
        }
    }
    Some(t_in)
}

/// A hit with every number finite, or [`DispatchError::QueryOutOfRange`]
/// (`Σ x·0 = 0`: one comparison for the five or seven numbers).
#[inline]
fn finite_hit<T: Real, const N: usize>(
    hit: Option<RayHit<T, N>>,
) -> Result<Option<RayHit<T, N>>, DispatchError> {
    match hit {
        Some(h) => {
            let mut zero = h.toi * T::zero();
            for i in 0..N {
                zero += h.point[i] * T::zero() + h.normal[i] * T::zero();
            }
            if zero == T::zero() {
                Ok(Some(h))
            } else {
                Err(DispatchError::QueryOutOfRange)
            }
        }
        None => Ok(None),
    }
}

/// A projection with every number finite, or
/// [`DispatchError::QueryOutOfRange`] (`Σ x·0 = 0`).
#[inline]
fn finite_projection<T: Real, const N: usize>(
    p: PointProjection<T, N>,
) -> Result<PointProjection<T, N>, DispatchError> {
    let zero = p.point.iter().fold(T::zero(), |z, v| z + *v * T::zero());
    if zero == T::zero() {
        Ok(p)
    } else {
        Err(DispatchError::QueryOutOfRange)
    }
}
