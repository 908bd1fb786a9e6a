//! The 3D pair dispatch table: [`DispatchTable3`] is the generic
//! [`Table`](crate::table::Table) for [`Dim3`], and [`register_builtin_pairs3`]
//! lists every supported 3D pair and the kernel serving it.
//!
//! There is no 3D fallback yet (GJK/EPA and the generic SAT are 2D only): a
//! pair with no kernel is [`DispatchError::Unsupported`](crate::DispatchError::Unsupported),
//! never a silent `false`. Users may register their own kernels for any pair.

use core::any::Any;

use nalgebra::{Isometry3, UnitQuaternion};
use shape::{Real, Shape3, ShapeKind, ShapeRef3};

use super::{ClosestPoints3, Contact3};
use crate::DispatchError;
use crate::Route;
use crate::cast::{ShapeCastArgs3, ShapeCastHit3};
use crate::dispatch::{builtin_query_fn, check_max_distance, register_block};
use crate::manifold::Manifold3;
use crate::queries::{
    ClosestPointsQuery, ContactQuery, IntersectsQuery, ManifoldQuery, ShapeCastQuery, slot,
};
use crate::table::{
    ContactKernelFn, Dimension, KernelFn, PairQuery, Table, builtin_in_order, unsupported,
};

/// A typed 3D boolean kernel: `(a, b, b_in_a) → intersects`.
pub type IntersectsFn3<T, A, B> = KernelFn<T, Dim3, A, B>;
/// A typed 3D contact kernel: `(a, b, b_in_a) → contact in A's frame`.
pub type ContactFn3<T, A, B> = ContactKernelFn<T, Dim3, A, B, Contact3<T>>;
/// A typed 3D closest-points kernel: `(a, b, b_in_a, max_distance) → closest
/// points in A's frame`.
pub type ClosestPointsFn3<T, A, B> = fn(&A, &B, &Isometry3<T>, T) -> ClosestPoints3<T>;

/// The 3D dimension of the pair table: `dyn Shape3<T>`, `Isometry3<T>`,
/// [`Contact3<T>`], no fallback.
#[derive(Debug, Clone, Copy, Default)]
pub struct Dim3;

/// The 3D pair dispatch table. See [`Table`] for the methods.
///
/// ```
/// use nalgebra::{Isometry3, Vector3};
/// use narrowphase::dim3::DispatchTable3;
/// let cube = shape::Cuboid::new(Vector3::new(0.5, 0.5, 0.5)).unwrap();
/// let ball = shape::Sphere::new(1.0).unwrap();
/// let t = DispatchTable3::<f64>::new();
/// let (o, p) = (Isometry3::identity(), Isometry3::translation(0.0, 1.0, 0.0));
/// assert!(t.intersects(&cube, &o, &cube, &p).unwrap()); // face to face
/// let c = t.contact(&ball, &Isometry3::translation(1.5, 0.0, 0.0), &ball, &o).unwrap().unwrap();
/// assert_eq!((c.depth, c.normal.into_inner()), (0.5, -Vector3::x()));
/// ```
pub type DispatchTable3<T> = Table<T, Dim3>;

impl<T: Real> Default for Table<T, Dim3> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Real> Table<T, Dim3> {
    /// A table with every built-in 3D pair (the register block below) and no
    /// user kernel. Allocates nothing.
    #[must_use]
    pub const fn new() -> Self {
        Self::with_builtins()
    }

    /// A shared table with the built-in 3D pairs, built once per precision.
    ///
    /// Needs the `std` feature (a lock guards the tables built so far).
    #[cfg(feature = "std")]
    pub fn shared() -> &'static Self {
        Self::shared_with(Self::new)
    }
}

impl<T: Real> Dimension<T> for Dim3 {
    type Shape = dyn Shape3<T>;
    type Pose = Isometry3<T>;
    type Builtin<'a> = ShapeRef3<'a, T>;
    const TABLE_NAME: &'static str = "DispatchTable3";

    #[inline]
    fn kind(s: &dyn Shape3<T>) -> ShapeKind {
        s.kind()
    }
    #[inline]
    fn as_any(s: &dyn Shape3<T>) -> &dyn Any {
        s.as_any()
    }
    #[inline]
    fn kind_and_data(s: &dyn Shape3<T>) -> (ShapeKind, &dyn Any) {
        s.kind_and_data()
    }
    #[inline]
    fn builtin(s: &dyn Shape3<T>) -> Option<ShapeRef3<'_, T>> {
        s.as_builtin()
    }
    #[inline]
    fn builtin_kind(s: ShapeRef3<'_, T>) -> ShapeKind {
        s.kind()
    }
    #[inline]
    fn builtin_shape<'a>(s: Self::Builtin<'a>) -> &'a Self::Shape {
        s.as_shape()
    }
    fn builtin_bounds_gap(
        a: ShapeRef3<'_, T>,
        pose_a: &Isometry3<T>,
        b: ShapeRef3<'_, T>,
        pose_b: &Isometry3<T>,
    ) -> T {
        let (a, b) = (a.as_shape(), b.as_shape());
        crate::table::boxes_gap(&a.bounding_box(pose_a), &b.bounding_box(pose_b))
    }
    #[inline]
    fn is_builtin_kind(kind: ShapeKind) -> bool {
        ShapeKind::BUILTIN_3D.contains(&kind)
    }
    /// An `Aabb3` keeps only the translation (times `1 + Σ 0·q`: itself for
    /// a finite rotation, NaN otherwise).
    #[inline]
    fn builtin_effective_pose(kind: ShapeKind, pose: &Isometry3<T>) -> Isometry3<T> {
        if kind == ShapeKind::AABB3 {
            let q = pose.rotation.quaternion();
            let z = T::zero();
            let one = T::one() + ((q.w * z + q.i * z) + (q.j * z + q.k * z));
            Isometry3::from_parts(
                nalgebra::Translation3::from(pose.translation.vector * one),
                UnitQuaternion::identity(),
            )
        } else {
            *pose
        }
    }
    #[inline]
    fn effective_pose(s: &dyn Shape3<T>, pose: &Isometry3<T>) -> Isometry3<T> {
        s.effective_pose(pose)
    }
    #[inline]
    fn inv_mul(a: &Isometry3<T>, b: &Isometry3<T>) -> Isometry3<T> {
        a.inv_mul(b)
    }
    type PoseNumbers = [T; 7];
    #[inline]
    fn pose_numbers(p: &Isometry3<T>) -> [T; 7] {
        let (t, q) = (&p.translation.vector, p.rotation.quaternion());
        [t.x, t.y, t.z, q.w, q.i, q.j, q.k]
    }
    fn builtin_name(a: ShapeRef3<'_, T>, b: ShapeRef3<'_, T>) -> Option<&'static str> {
        builtin_name(a, b)
    }
    fn fallback_route(_: &dyn Shape3<T>, _: &dyn Shape3<T>) -> Option<Route> {
        None
    }
    fn bounds_gap(
        a: &dyn Shape3<T>,
        pose_a: &Isometry3<T>,
        b: &dyn Shape3<T>,
        pose_b: &Isometry3<T>,
    ) -> T {
        crate::table::boxes_gap(&a.bounding_box(pose_a), &b.bounding_box(pose_b))
    }
}

// ------------------------------------------------------------- the queries

impl<T: Real> PairQuery<T, Dim3> for IntersectsQuery {
    type Args = ();
    type Answer = bool;
    const NAME: &'static str = "intersects";
    const SLOT: usize = slot::INTERSECTS;
    const SYMMETRIC: bool = true;

    #[inline]
    fn check_args((): &()) -> Result<(), DispatchError> {
        Ok(())
    }
    #[inline]
    fn flipped(answer: &bool) -> bool {
        *answer
    }
    #[inline]
    fn transformed(answer: &bool, _frame: &Isometry3<T>) -> bool {
        *answer
    }
    fn from_gap(gap: T, (): &()) -> Option<bool> {
        (gap > T::zero()).then_some(false)
    }
    #[inline(always)]
    fn builtin(
        x: ShapeRef3<'_, T>,
        pose_x: &Isometry3<T>,
        y: ShapeRef3<'_, T>,
        pose_y: &Isometry3<T>,
        (): (),
    ) -> Result<bool, DispatchError> {
        builtin_intersects(x, pose_x, y, pose_y, ())
    }
    fn fallback(
        _: &dyn Shape3<T>,
        _: &Isometry3<T>,
        _: &dyn Shape3<T>,
        _: &Isometry3<T>,
        (): (),
    ) -> Option<bool> {
        None
    }
}

impl<T: Real> PairQuery<T, Dim3> for ContactQuery {
    type Args = ();
    type Answer = Option<Contact3<T>>;
    const NAME: &'static str = "contact";
    const SLOT: usize = slot::CONTACT;

    #[inline]
    fn check_args((): &()) -> Result<(), DispatchError> {
        Ok(())
    }
    #[inline]
    fn flipped(answer: &Self::Answer) -> Self::Answer {
        answer.as_ref().map(Contact3::flipped)
    }
    #[inline]
    fn transformed(answer: &Self::Answer, frame: &Isometry3<T>) -> Self::Answer {
        answer.as_ref().map(|c| c.transformed(frame))
    }
    fn from_gap(gap: T, (): &()) -> Option<Self::Answer> {
        (gap > T::zero()).then_some(None)
    }
    #[inline(always)]
    fn builtin(
        x: ShapeRef3<'_, T>,
        pose_x: &Isometry3<T>,
        y: ShapeRef3<'_, T>,
        pose_y: &Isometry3<T>,
        (): (),
    ) -> Result<Self::Answer, DispatchError> {
        builtin_contact(x, pose_x, y, pose_y, ())
    }
    fn fallback(
        _: &dyn Shape3<T>,
        _: &Isometry3<T>,
        _: &dyn Shape3<T>,
        _: &Isometry3<T>,
        (): (),
    ) -> Option<Self::Answer> {
        None
    }
}

impl<T: Real> PairQuery<T, Dim3> for ClosestPointsQuery {
    type Args = T;
    type Answer = ClosestPoints3<T>;
    const NAME: &'static str = "closest_points";
    const SLOT: usize = slot::CLOSEST_POINTS;

    #[inline]
    fn check_args(max_distance: &T) -> Result<(), DispatchError> {
        check_max_distance(*max_distance)
    }
    #[inline]
    fn flipped(answer: &Self::Answer) -> Self::Answer {
        answer.flipped()
    }
    #[inline]
    fn transformed(answer: &Self::Answer, frame: &Isometry3<T>) -> Self::Answer {
        answer.transformed(frame)
    }
    fn from_gap(gap: T, max_distance: &T) -> Option<Self::Answer> {
        (gap > *max_distance).then_some(ClosestPoints3::Farther)
    }
    #[inline(always)]
    fn builtin(
        x: ShapeRef3<'_, T>,
        pose_x: &Isometry3<T>,
        y: ShapeRef3<'_, T>,
        pose_y: &Isometry3<T>,
        max_distance: T,
    ) -> Result<Self::Answer, DispatchError> {
        builtin_closest_points(x, pose_x, y, pose_y, max_distance)
    }
    fn fallback(
        _: &dyn Shape3<T>,
        _: &Isometry3<T>,
        _: &dyn Shape3<T>,
        _: &Isometry3<T>,
        _: T,
    ) -> Option<Self::Answer> {
        None
    }
}

impl<T: Real> PairQuery<T, Dim3> for ShapeCastQuery {
    type Args = ShapeCastArgs3<T>;
    type Answer = Option<ShapeCastHit3<T>>;
    const NAME: &'static str = "cast_shapes";
    const SLOT: usize = slot::SHAPE_CAST;

    #[inline]
    fn check_args(args: &ShapeCastArgs3<T>) -> Result<(), DispatchError> {
        args.check()
    }
    #[inline]
    fn local_args(
        args: ShapeCastArgs3<T>,
        frame: &Isometry3<T>,
        swapped: bool,
    ) -> ShapeCastArgs3<T> {
        args.swapped_if(swapped).local(frame)
    }
    #[inline]
    fn swapped_args(args: ShapeCastArgs3<T>, swapped: bool) -> ShapeCastArgs3<T> {
        args.swapped_if(swapped)
    }
    #[inline]
    fn flipped(answer: &Self::Answer) -> Self::Answer {
        answer.as_ref().map(ShapeCastHit3::flipped)
    }
    #[inline]
    fn transformed(answer: &Self::Answer, frame: &Isometry3<T>) -> Self::Answer {
        answer.as_ref().map(|h| h.transformed(frame))
    }
    #[inline]
    fn to_world(
        answer: &Self::Answer,
        frame: &Isometry3<T>,
        args: &ShapeCastArgs3<T>,
        swapped: bool,
    ) -> Self::Answer {
        let v = if swapped { args.vel_b } else { args.vel_a };
        answer
            .as_ref()
            .map(|h| h.transformed(frame).shifted(&(v * h.toi)))
    }
    fn from_gap(gap: T, args: &ShapeCastArgs3<T>) -> Option<Self::Answer> {
        args.gap_rules_out(gap).then_some(None)
    }
    #[inline(always)]
    fn builtin(
        x: ShapeRef3<'_, T>,
        pose_x: &Isometry3<T>,
        y: ShapeRef3<'_, T>,
        pose_y: &Isometry3<T>,
        args: ShapeCastArgs3<T>,
    ) -> Result<Self::Answer, DispatchError> {
        builtin_shape_cast(x, pose_x, y, pose_y, args)
    }
    fn fallback(
        _: &dyn Shape3<T>,
        _: &Isometry3<T>,
        _: &dyn Shape3<T>,
        _: &Isometry3<T>,
        _: ShapeCastArgs3<T>,
    ) -> Option<Self::Answer> {
        None
    }
}

impl<T: Real> PairQuery<T, Dim3> for ManifoldQuery {
    type Args = T;
    type Answer = Option<Manifold3<T>>;
    const NAME: &'static str = "contact_manifold";
    const SLOT: usize = slot::MANIFOLD;

    #[inline]
    fn check_args(prediction: &T) -> Result<(), DispatchError> {
        crate::manifold::check_prediction(*prediction)
    }
    #[inline]
    fn flipped(answer: &Self::Answer) -> Self::Answer {
        answer.as_ref().map(Manifold3::flipped)
    }
    #[inline]
    fn transformed(answer: &Self::Answer, frame: &Isometry3<T>) -> Self::Answer {
        answer.as_ref().map(|m| m.transformed(frame))
    }
    /// Boxes farther apart than the prediction prove the shapes are too.
    fn from_gap(gap: T, prediction: &T) -> Option<Self::Answer> {
        (gap > *prediction).then_some(None)
    }
    /// Mapped and flipped in place (the manifold is large to copy).
    #[inline(always)]
    fn in_world(
        mut local: Self::Answer,
        frame: &Isometry3<T>,
        _prediction: &T,
        swapped: bool,
    ) -> Self::Answer {
        if let Some(m) = &mut local {
            m.place(frame, swapped);
        }
        local
    }
    #[inline(always)]
    fn builtin(
        x: ShapeRef3<'_, T>,
        pose_x: &Isometry3<T>,
        y: ShapeRef3<'_, T>,
        pose_y: &Isometry3<T>,
        prediction: T,
    ) -> Result<Self::Answer, DispatchError> {
        builtin_manifold(x, pose_x, y, pose_y, prediction)
    }
    /// No 3D fallback (the 3D contact and closest-points queries have none):
    /// a pair without a kernel is unsupported.
    fn fallback(
        _: &dyn Shape3<T>,
        _: &Isometry3<T>,
        _: &dyn Shape3<T>,
        _: &Isometry3<T>,
        _: T,
    ) -> Option<Self::Answer> {
        None
    }
}

// ---------------------------------------------------------- register block

use super::cast3::*;
use super::manifold3::*;
use super::*;

// Every built-in 3D pair and the kernels that serve it, in canonical order
// (sphere < cuboid < aabb3). Reading this block tells what kasanari supports
// in 3D.
register_block! {
    ShapeRef3, Isometry3, Dim3;
    Contact3, ClosestPoints3, ShapeCastArgs3, ShapeCastHit3, Manifold3;
    // pair            intersects      contact                closest points               shape cast          manifold
    Sphere, Sphere => sphere_sphere,  sphere_sphere_contact, sphere_sphere_closest_points, sphere_sphere_cast, sphere_sphere_manifold;
    Sphere, Cuboid => sphere_cuboid,  sphere_cuboid_contact, sphere_cuboid_closest_points, sphere_cuboid_cast, sphere_cuboid_manifold;
    Sphere, Aabb3  => sphere_aabb3,   sphere_aabb3_contact,  sphere_aabb3_closest_points, sphere_aabb3_cast, sphere_aabb3_manifold;
    Cuboid, Cuboid => cuboid_cuboid,  cuboid_cuboid_contact, cuboid_cuboid_closest_points, cuboid_cuboid_cast, cuboid_cuboid_manifold;
    Cuboid, Aabb3  => cuboid_aabb3,   cuboid_aabb3_contact,  cuboid_aabb3_closest_points, cuboid_aabb3_cast, cuboid_aabb3_manifold;
    Aabb3, Aabb3   => aabb3_aabb3,    aabb3_aabb3_contact,   aabb3_aabb3_closest_points, aabb3_aabb3_cast, aabb3_aabb3_manifold;
}
