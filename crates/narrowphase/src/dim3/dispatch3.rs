//! The 3D pair dispatch table: [`DispatchTable3`] is the generic
//! [`Table`](crate::table::Table) for [`Dim3`], and [`register_builtin_pairs3`]
//! lists every supported 3D pair and the kernel serving it.
//!
//! There is no 3D fallback yet (GJK/EPA and the generic SAT are 2D only): a
//! pair with no kernel is [`DispatchError::Unsupported`](crate::DispatchError::Unsupported),
//! never a silent `false`. Users may register their own kernels for any pair.

use core::any::Any;

use nalgebra::Isometry3;
use shape::{Real, Shape3, ShapeKind};

use super::Contact3;
use crate::Route;
use crate::table::{ContactKernelFn, Dimension, KernelFn, Table};

/// A typed 3D boolean kernel: `(a, b, b_in_a) → intersects`.
pub type IntersectsFn3<T, A, B> = KernelFn<T, Dim3, A, B>;
/// A typed 3D contact kernel: `(a, b, b_in_a) → contact in A's frame`.
pub type ContactFn3<T, A, B> = ContactKernelFn<T, Dim3, A, B>;

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
    /// A table with every built-in 3D pair registered.
    #[must_use]
    pub fn new() -> Self {
        let mut t = Self::empty();
        register_builtin_pairs3(&mut t);
        t
    }

    /// A shared table with the built-in 3D pairs, built once per precision.
    pub fn shared() -> &'static Self {
        Self::shared_with(Self::new)
    }
}

impl<T: Real> Dimension<T> for Dim3 {
    type Shape = dyn Shape3<T>;
    type Pose = Isometry3<T>;
    type Contact = Contact3<T>;
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
    /// Built-in kinds follow their kind's rule without a call (an `Aabb3` keeps
    /// only the translation); user kinds are asked.
    #[inline]
    fn effective_pose(s: &dyn Shape3<T>, kind: ShapeKind, pose: &Isometry3<T>) -> Isometry3<T> {
        match kind {
            ShapeKind::AABB3 => {
                Isometry3::from_parts(pose.translation, nalgebra::UnitQuaternion::identity())
            }
            k if k.is_builtin() => *pose,
            _ => s.effective_pose(pose),
        }
    }
    #[inline]
    fn inv_mul(a: &Isometry3<T>, b: &Isometry3<T>) -> Isometry3<T> {
        a.inv_mul(b)
    }
    #[inline]
    fn transformed(c: &Contact3<T>, frame: &Isometry3<T>) -> Contact3<T> {
        c.transformed(frame)
    }
    #[inline]
    fn flipped(c: &Contact3<T>) -> Contact3<T> {
        c.flipped()
    }
    #[inline]
    fn pose_number(p: &Isometry3<T>, i: usize) -> Option<T> {
        let (t, q) = (&p.translation.vector, p.rotation.quaternion());
        match i {
            0..=2 => Some(t[i]),
            3 => Some(q.w),
            4 => Some(q.i),
            5 => Some(q.j),
            6 => Some(q.k),
            _ => None,
        }
    }
    fn fallback_route(_: &dyn Shape3<T>, _: &dyn Shape3<T>) -> Option<Route> {
        None
    }
    fn bounds_disjoint(
        a: &dyn Shape3<T>,
        pose_a: &Isometry3<T>,
        b: &dyn Shape3<T>,
        pose_b: &Isometry3<T>,
    ) -> bool {
        let (ba, bb) = (a.bounding_box(pose_a), b.bounding_box(pose_b));
        ba.is_valid() && bb.is_valid() && !ba.intersects(&bb)
    }
    fn fallback_contact(
        _: &dyn Shape3<T>,
        _: &Isometry3<T>,
        _: &dyn Shape3<T>,
        _: &Isometry3<T>,
    ) -> Option<Option<Contact3<T>>> {
        None
    }
}

/// Every built-in 3D pair and the kernel that serves it, in canonical order
/// (sphere < cuboid < aabb3). Reading this block tells what kasanari supports
/// in 3D.
///
/// ```
/// use narrowphase::dim3::{DispatchTable3, register_builtin_pairs3};
/// let mut t = DispatchTable3::<f32>::empty();
/// register_builtin_pairs3(&mut t);
/// assert_eq!(format!("{t:?}"), "DispatchTable3 { kinds: 12, registered_pairs: 6 }");
/// ```
pub fn register_builtin_pairs3<T: Real>(t: &mut DispatchTable3<T>) {
    use super::*;
    use ShapeKind as K;

    macro_rules! pairs {
        ($( $ka:ident, $kb:ident => $f:ident, $fc:ident; )*) => {
            $( t.register(K::$ka, K::$kb, stringify!($f), $f::<T>, $fc::<T>); )*
        };
    }
    pairs! {
        SPHERE, SPHERE => sphere_sphere, sphere_sphere_contact;
        SPHERE, CUBOID => sphere_cuboid, sphere_cuboid_contact;
        SPHERE, AABB3 => sphere_aabb3, sphere_aabb3_contact;
        CUBOID, CUBOID => cuboid_cuboid, cuboid_cuboid_contact;
        CUBOID, AABB3 => cuboid_aabb3, cuboid_aabb3_contact;
        AABB3, AABB3 => aabb3_aabb3, aabb3_aabb3_contact;
    }
}
