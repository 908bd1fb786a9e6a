//! The two traits of 3D collidable things: [`Shape3`] (what the framework needs
//! of any shape) and [`Convex3`] (support function and containment, for
//! support-map algorithms such as GJK).
//!
//! They mirror the 2D [`Shape`](crate::Shape) and [`Convex`](crate::Convex) with
//! `Isometry3` poses. There is no 3D separating-axis trait yet: the built-in 3D
//! shapes offer an inherent `project` instead.

use core::any::Any;
use core::fmt::Debug;

use nalgebra::{Isometry3, Point3, Vector3};

use crate::{BoundingBox3, PointQuery3, RayCast3, Real, ShapeKind, ShapeRef3};

/// What every 3D collidable thing provides to the framework.
///
/// A pose (`Isometry3`: a rotation then a translation) places the shape's local
/// frame in the world. The dispatch table of the narrow phase looks at
/// [`kind`](Shape3::kind) to pick a kernel and at [`as_any`](Shape3::as_any) to
/// reach the concrete data the kernel works on.
///
/// # Implementing it for a game entity
///
/// An entity can *be* a built-in shape for collision purposes: report the
/// built-in kind and hand out the built-in shape from `as_any`, and every
/// specialised kernel applies. Or it can be a new kind of its own (see
/// [`ShapeKind::custom`]) and reach the generic algorithms through
/// [`as_convex`](Shape3::as_convex).
///
/// ```
/// use core::any::Any;
/// use nalgebra::{Isometry3, Vector3};
/// use shape::prelude::*;
///
/// /// A wooden crate that collides as a cube turning with its pose.
/// #[derive(Debug)]
/// struct Crate {
///     contents: u32,
///     body: Cuboid<f32>,
/// }
///
/// impl Shape3<f32> for Crate {
///     fn kind(&self) -> ShapeKind { ShapeKind::CUBOID }
///     fn as_any(&self) -> &dyn Any { &self.body }
///     fn bounding_box(&self, pose: &Isometry3<f32>) -> BoundingBox3<f32> {
///         self.body.bounding_box(pose)
///     }
///     fn as_convex(&self) -> Option<&dyn Convex3<f32>> { Some(&self.body) }
/// }
///
/// let c = Crate { contents: 12, body: Cuboid::new(Vector3::new(0.5, 0.5, 0.5)).unwrap() };
/// let pose = Isometry3::translation(10.0, 0.0, 2.0);
/// let b = c.bounding_box(&pose);
/// assert_eq!((b.min.x, b.max.z), (9.5, 2.5));
/// assert!(c.as_any().downcast_ref::<Cuboid<f32>>().is_some());
/// assert_eq!(c.contents, 12);
/// ```
pub trait Shape3<T: Real>: Any + Debug + Send + Sync {
    /// The kind the dispatch table keys on.
    fn kind(&self) -> ShapeKind;

    /// The concrete data for the kernels of [`kind`](Shape3::kind): for a
    /// built-in kind, the built-in shape (`Sphere<T>`, `Cuboid<T>`, `Aabb3<T>`);
    /// for a custom kind, whatever type the user's kernels downcast to (usually
    /// `self`).
    fn as_any(&self) -> &dyn Any;

    /// [`kind`](Self::kind) and [`as_any`](Self::as_any) in one call: what the
    /// dispatch table reads of every shape, fetched through the vtable once.
    /// Provided; there is no reason to override it.
    #[inline]
    fn kind_and_data(&self) -> (ShapeKind, &dyn Any) {
        (self.kind(), self.as_any())
    }

    /// The tightest axis-aligned box around the shape placed at `pose`.
    fn bounding_box(&self, pose: &Isometry3<T>) -> BoundingBox3<T>;

    /// The pose the shape's geometry is actually placed with. Shapes that ignore
    /// rotation (the [`Aabb3`](crate::Aabb3)) drop it here; everything else
    /// returns `pose` unchanged. Kernels receive relative poses built from this.
    fn effective_pose(&self, pose: &Isometry3<T>) -> Isometry3<T> {
        *pose
    }

    /// Support function and containment, for convex shapes (GJK fallbacks, point
    /// queries). `None` for shapes that are not convex.
    fn as_convex(&self) -> Option<&dyn Convex3<T>> {
        None
    }

    /// The built-in shape this is, by its type (see
    /// [`Shape::as_builtin`](crate::Shape::as_builtin)). Provided; there is no
    /// reason to override it.
    #[inline]
    fn as_builtin(&self) -> Option<ShapeRef3<'_, T>> {
        ShapeRef3::from_kind(self.kind(), self.as_any())
    }

    /// The shape's own ray cast, for a user kind that has one.
    fn as_ray_cast(&self) -> Option<&dyn RayCast3<T>> {
        None
    }

    /// The shape's own point projection, for a user kind that has one.
    fn as_point_query(&self) -> Option<&dyn PointQuery3<T>> {
        None
    }
}

/// A closed convex set in 3D, described by its support function.
///
/// All points are in the frame that `pose` maps the shape's local frame into
/// (usually the world).
///
/// ```
/// use nalgebra::{Isometry3, Point3, Vector3};
/// use shape::prelude::*;
///
/// let ball = Sphere::new(2.0_f64).unwrap();
/// let pose = Isometry3::translation(1.0, 0.0, 0.0);
/// let down = Vector3::new(0.0, 0.0, -7.0);
/// assert_eq!(ball.support_point(&pose, &down), Point3::new(1.0, 0.0, -2.0));
/// assert!(ball.contains_point(&pose, &Point3::new(3.0, 0.0, 0.0))); // the boundary counts
/// ```
pub trait Convex3<T: Real> {
    /// A point of the shape that maximises `p · dir`.
    ///
    /// `dir` need not be unit. For a zero direction every point is a maximiser and
    /// a deterministic one is returned (documented by each shape).
    fn support_point(&self, pose: &Isometry3<T>, dir: &Vector3<T>) -> Point3<T>;

    /// Whether `p` lies in the closed shape (the boundary counts).
    fn contains_point(&self, pose: &Isometry3<T>, p: &Point3<T>) -> bool;
}
