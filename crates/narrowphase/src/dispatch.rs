//! The 2D pair dispatch table: [`DispatchTable`] is the generic
//! [`Table`] for [`Dim2`], and [`register_builtin_pairs`]
//! is the one block that lists every supported pair and the kernel serving it.
//!
//! A pair with no kernel falls back to the generic separating-axis test when
//! both shapes implement [`SupportSeparatingAxes`](shape::SupportSeparatingAxes),
//! else to GJK/EPA when both implement [`Convex`](shape::Convex), else returns
//! [`DispatchError::Unsupported`](crate::DispatchError::Unsupported).

use core::any::Any;

use nalgebra::{Isometry2, Translation2, UnitComplex};
use shape::{Real, Shape, ShapeKind};

use crate::Contact;
use crate::table::{ContactKernelFn, Dimension, KernelFn, Table};

/// A typed 2D boolean kernel: `(a, b, b_in_a) → intersects`.
pub type IntersectsFn<T, A, B> = KernelFn<T, Dim2, A, B>;
/// A typed 2D contact kernel: `(a, b, b_in_a) → contact in A's frame`.
pub type ContactFn<T, A, B> = ContactKernelFn<T, Dim2, A, B>;

/// How a pair is answered, as reported by the tables' `route`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    /// A registered kernel, by name; `mirrored` when it was registered for the
    /// pair in the other order.
    Kernel {
        /// The kernel's name (`"obb_obb"`).
        name: &'static str,
        /// Whether the arguments are swapped.
        mirrored: bool,
    },
    /// The generic separating-axis test.
    Sat,
    /// GJK (boolean) and EPA (contact) on support functions.
    Gjk,
}

/// The 2D dimension of the pair table: `dyn Shape<T>`, `Isometry2<T>`,
/// [`Contact<T>`], fallbacks to SAT and GJK/EPA.
#[derive(Debug, Clone, Copy, Default)]
pub struct Dim2;

/// The 2D pair dispatch table. See [`Table`] for the methods.
///
/// ```
/// use nalgebra::{Isometry2, Vector2};
/// use narrowphase::DispatchTable;
/// use shape::{Circle, Obb};
///
/// let table = DispatchTable::<f32>::new();
/// let ball = Circle::new(1.0).unwrap();
/// let wall = Obb::new(Vector2::new(3.0, 1.0)).unwrap();
/// let at = |x: f32, y: f32| Isometry2::translation(x, y);
/// assert!(table.intersects(&ball, &at(0.0, 2.0), &wall, &at(0.0, 0.0)).unwrap());
/// let c = table.contact(&ball, &at(0.0, 1.5), &wall, &at(0.0, 0.0)).unwrap().unwrap();
/// assert!((c.depth - 0.5).abs() < 1e-6 && (c.normal.y + 1.0).abs() < 1e-6);
/// ```
///
/// Registering a kernel (here replacing a built-in one):
///
/// ```
/// use nalgebra::Isometry2;
/// use narrowphase::{Contact, DispatchTable};
/// use shape::{Circle, ShapeKind};
///
/// // Bouncy balls: a custom circle-circle kernel that ignores small overlaps.
/// fn lenient(a: &Circle<f64>, b: &Circle<f64>, m: &Isometry2<f64>) -> bool {
///     m.translation.vector.norm() < a.radius() + b.radius() - 0.1
/// }
/// fn lenient_contact(a: &Circle<f64>, b: &Circle<f64>, m: &Isometry2<f64>) -> Option<Contact<f64>> {
///     if lenient(a, b, m) { narrowphase::circle::circle_circle_contact(a, b, m) } else { None }
/// }
/// let mut table = DispatchTable::new();
/// table.register(ShapeKind::CIRCLE, ShapeKind::CIRCLE, "lenient", lenient, lenient_contact);
/// let c = Circle::new(1.0).unwrap();
/// let (o, p) = (Isometry2::identity(), Isometry2::translation(1.95, 0.0));
/// assert!(!table.intersects(&c, &o, &c, &p).unwrap());
/// ```
pub type DispatchTable<T> = Table<T, Dim2>;

impl<T: Real> Default for Table<T, Dim2> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Real> Table<T, Dim2> {
    /// A table with every built-in 2D pair registered.
    #[must_use]
    pub fn new() -> Self {
        let mut t = Self::empty();
        register_builtin_pairs(&mut t);
        t
    }

    /// A shared table with the built-in pairs, built once per precision. For
    /// the free functions [`crate::intersects`] and [`crate::contact`]; a game
    /// loop should own its table (or use the world's).
    pub fn shared() -> &'static Self {
        Self::shared_with(Self::new)
    }
}

impl<T: Real> Dimension<T> for Dim2 {
    type Shape = dyn Shape<T>;
    type Pose = Isometry2<T>;
    type Contact = Contact<T>;
    const TABLE_NAME: &'static str = "DispatchTable";

    #[inline]
    fn kind(s: &dyn Shape<T>) -> ShapeKind {
        s.kind()
    }
    #[inline]
    fn as_any(s: &dyn Shape<T>) -> &dyn Any {
        s.as_any()
    }
    #[inline]
    fn kind_and_data(s: &dyn Shape<T>) -> (ShapeKind, &dyn Any) {
        s.kind_and_data()
    }
    /// Built-in kinds follow their kind's rule without a call (an `Aabb` keeps
    /// only the translation, everything else the whole pose); user kinds are
    /// asked.
    #[inline]
    fn effective_pose(s: &dyn Shape<T>, kind: ShapeKind, pose: &Isometry2<T>) -> Isometry2<T> {
        match kind {
            ShapeKind::AABB => Isometry2::from_parts(pose.translation, UnitComplex::identity()),
            k if k.is_builtin() => *pose,
            _ => s.effective_pose(pose),
        }
    }
    #[inline]
    fn inv_mul(a: &Isometry2<T>, b: &Isometry2<T>) -> Isometry2<T> {
        a.inv_mul(b)
    }
    #[inline]
    fn transformed(c: &Contact<T>, frame: &Isometry2<T>) -> Contact<T> {
        c.transformed(frame)
    }
    #[inline]
    fn flipped(c: &Contact<T>) -> Contact<T> {
        c.flipped()
    }
    #[inline]
    fn pose_number(p: &Isometry2<T>, i: usize) -> Option<T> {
        match i {
            0 => Some(p.translation.x),
            1 => Some(p.translation.y),
            2 => Some(p.rotation.re),
            3 => Some(p.rotation.im),
            _ => None,
        }
    }
    fn fallback_route(a: &dyn Shape<T>, b: &dyn Shape<T>) -> Option<Route> {
        if a.as_separating_axes().is_some() && b.as_separating_axes().is_some() {
            Some(Route::Sat)
        } else if a.as_convex().is_some() && b.as_convex().is_some() {
            Some(Route::Gjk)
        } else {
            None
        }
    }
    fn bounds_disjoint(
        a: &dyn Shape<T>,
        pose_a: &Isometry2<T>,
        b: &dyn Shape<T>,
        pose_b: &Isometry2<T>,
    ) -> bool {
        let (ba, bb) = (a.bounding_box(pose_a), b.bounding_box(pose_b));
        ba.is_valid() && bb.is_valid() && !ba.intersects(&bb)
    }
    /// The generic SAT or GJK/EPA, computed with the poses shifted so that A
    /// sits at the origin's translation (relative coordinates for precision;
    /// rotations kept, since an `Aabb` interprets its own pose).
    fn fallback_contact(
        a: &dyn Shape<T>,
        pose_a: &Isometry2<T>,
        b: &dyn Shape<T>,
        pose_b: &Isometry2<T>,
    ) -> Option<Option<Contact<T>>> {
        let t = pose_a.translation;
        let back = Translation2::from(-t.vector);
        let (pa, pb) = (back * pose_a, back * pose_b);
        let shift = Isometry2::from_parts(t, UnitComplex::identity());
        if let (Some(sa), Some(sb)) = (a.as_separating_axes(), b.as_separating_axes()) {
            return Some(shape::sat::sat_contact(sa, &pa, sb, &pb).map(|p| {
                let n = p.normal.into_inner();
                let point_a = a.as_convex().map_or_else(
                    || nalgebra::Point2::from(pa.translation.vector),
                    |c| c.support_point(&pa, &n),
                );
                let point_b = b
                    .as_convex()
                    .map_or_else(|| point_a - n * p.depth, |c| c.support_point(&pb, &-n));
                Contact {
                    normal: p.normal,
                    depth: p.depth,
                    point_a,
                    point_b,
                }
                .transformed(&shift)
            }));
        }
        if let (Some(ca), Some(cb)) = (a.as_convex(), b.as_convex()) {
            return Some(crate::gjk::epa_contact(ca, &pa, cb, &pb).map(|c| c.transformed(&shift)));
        }
        None
    }
}

/// Every built-in 2D pair and the kernel that serves it, in canonical order.
/// Reading this block tells what kasanari supports.
pub fn register_builtin_pairs<T: Real>(t: &mut DispatchTable<T>) {
    use crate::circle::*;
    use crate::ellipse::*;
    use crate::point::*;
    use crate::sat::*;
    use ShapeKind as K;

    macro_rules! pairs {
        ($( $ka:ident, $kb:ident => $f:ident, $fc:ident; )*) => {
            $( t.register(K::$ka, K::$kb, stringify!($f), $f::<T>, $fc::<T>); )*
        };
    }
    pairs! {
        POINT, POINT => point_point, point_point_contact;
        POINT, SEGMENT => point_segment, point_segment_contact;
        POINT, CIRCLE => point_circle, point_circle_contact;
        POINT, AABB => point_aabb, point_aabb_contact;
        POINT, OBB => point_obb, point_obb_contact;
        POINT, TRIANGLE => point_triangle, point_triangle_contact;
        POINT, CONVEX_POLYGON => point_polygon, point_polygon_contact;
        POINT, CAPSULE => point_capsule, point_capsule_contact;
        SEGMENT, SEGMENT => segment_segment, segment_segment_contact;
        SEGMENT, CIRCLE => segment_circle, segment_circle_contact;
        SEGMENT, AABB => segment_aabb, segment_aabb_contact;
        SEGMENT, OBB => segment_obb, segment_obb_contact;
        SEGMENT, TRIANGLE => segment_triangle, segment_triangle_contact;
        SEGMENT, CONVEX_POLYGON => segment_polygon, segment_polygon_contact;
        SEGMENT, CAPSULE => segment_capsule, segment_capsule_contact;
        CIRCLE, CIRCLE => circle_circle, circle_circle_contact;
        CIRCLE, AABB => circle_aabb, circle_aabb_contact;
        CIRCLE, OBB => circle_obb, circle_obb_contact;
        CIRCLE, TRIANGLE => circle_triangle, circle_triangle_contact;
        CIRCLE, CONVEX_POLYGON => circle_polygon, circle_polygon_contact;
        CIRCLE, CAPSULE => circle_capsule, circle_capsule_contact;
        AABB, AABB => aabb_aabb, aabb_aabb_contact;
        AABB, OBB => aabb_obb, aabb_obb_contact;
        AABB, TRIANGLE => aabb_triangle, aabb_triangle_contact;
        AABB, CONVEX_POLYGON => aabb_polygon, aabb_polygon_contact;
        AABB, CAPSULE => aabb_capsule, aabb_capsule_contact;
        OBB, OBB => obb_obb, obb_obb_contact;
        OBB, TRIANGLE => obb_triangle, obb_triangle_contact;
        OBB, CONVEX_POLYGON => obb_polygon, obb_polygon_contact;
        OBB, CAPSULE => obb_capsule, obb_capsule_contact;
        TRIANGLE, TRIANGLE => triangle_triangle, triangle_triangle_contact;
        TRIANGLE, CONVEX_POLYGON => triangle_polygon, triangle_polygon_contact;
        TRIANGLE, CAPSULE => triangle_capsule, triangle_capsule_contact;
        CONVEX_POLYGON, CONVEX_POLYGON => polygon_polygon, polygon_polygon_contact;
        CONVEX_POLYGON, CAPSULE => polygon_capsule, polygon_capsule_contact;
        CAPSULE, CAPSULE => capsule_capsule, capsule_capsule_contact;
        POINT, ELLIPSE => point_ellipse, point_ellipse_contact;
        SEGMENT, ELLIPSE => segment_ellipse, segment_ellipse_contact;
        CIRCLE, ELLIPSE => circle_ellipse, circle_ellipse_contact;
        AABB, ELLIPSE => aabb_ellipse, aabb_ellipse_contact;
        OBB, ELLIPSE => obb_ellipse, obb_ellipse_contact;
        TRIANGLE, ELLIPSE => triangle_ellipse, triangle_ellipse_contact;
        CONVEX_POLYGON, ELLIPSE => polygon_ellipse, polygon_ellipse_contact;
        CAPSULE, ELLIPSE => capsule_ellipse, capsule_ellipse_contact;
        ELLIPSE, ELLIPSE => ellipse_ellipse, ellipse_ellipse_contact;
    }
}
