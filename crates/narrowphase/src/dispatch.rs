//! The pair dispatch table: `(kind of A, kind of B) → kernel`.
//!
//! A table held as a value (the world owns one), indexed by two small
//! [`ShapeKind`] integers: O(1) for every pair, no chain of type tests, no
//! hashing. [`DispatchTable::new`] registers every built-in pair in one block,
//! [`register_builtin_pairs`], which reads as the list of what is supported and
//! which kernel serves it.
//!
//! A kernel registered for `(A, B)` also serves `(B, A)`: the mirrored cell
//! calls it with the arguments swapped and flips the contact, in one place
//! ([`DispatchTable::contact`]). For two shapes of the same kind the order is
//! made canonical too (by pose, then by address), so `intersects(a, b) ==
//! intersects(b, a)` exactly and the normals are exact negatives for every pair.
//!
//! Kernels work in A's local frame: the table computes B's pose relative to A
//! from the shapes' *effective* poses (an `Aabb` drops rotation), calls the
//! kernel, and maps the contact back to the world.
//!
//! A pair with no kernel falls back to the generic separating-axis test when
//! both shapes implement [`SupportSeparatingAxes`](shape::SupportSeparatingAxes),
//! else to GJK/EPA when both implement [`Convex`](shape::Convex), else returns
//! [`DispatchError::Unsupported`].

use core::any::Any;
use core::cmp::Ordering;
use std::sync::{Arc, OnceLock, RwLock};

use nalgebra::{Isometry2, Translation2};
use shape::{Real, Shape, ShapeKind};

use crate::{Contact, DispatchError};

/// A typed boolean kernel: `(a, b, b_in_a) → intersects`.
pub type IntersectsFn<T, A, B> = fn(&A, &B, &Isometry2<T>) -> bool;
/// A typed contact kernel: `(a, b, b_in_a) → contact in A's frame`.
pub type ContactFn<T, A, B> = fn(&A, &B, &Isometry2<T>) -> Option<Contact<T>>;

/// A kernel with its argument types erased: downcasts, then calls the typed
/// functions. `None` when a downcast fails (the shape's kind and data disagree).
trait ErasedKernel<T: Real>: Send + Sync {
    fn intersects(&self, a: &dyn Any, b: &dyn Any, b_in_a: &Isometry2<T>) -> Option<bool>;
    fn contact(
        &self,
        a: &dyn Any,
        b: &dyn Any,
        b_in_a: &Isometry2<T>,
    ) -> Option<Option<Contact<T>>>;
    fn name(&self) -> &'static str;
}

struct Typed<T: Real, A, B> {
    intersects: IntersectsFn<T, A, B>,
    contact: ContactFn<T, A, B>,
    name: &'static str,
}

impl<T: Real, A: Any, B: Any> ErasedKernel<T> for Typed<T, A, B> {
    #[inline]
    fn intersects(&self, a: &dyn Any, b: &dyn Any, b_in_a: &Isometry2<T>) -> Option<bool> {
        Some((self.intersects)(
            a.downcast_ref::<A>()?,
            b.downcast_ref::<B>()?,
            b_in_a,
        ))
    }
    #[inline]
    fn contact(
        &self,
        a: &dyn Any,
        b: &dyn Any,
        b_in_a: &Isometry2<T>,
    ) -> Option<Option<Contact<T>>> {
        Some((self.contact)(
            a.downcast_ref::<A>()?,
            b.downcast_ref::<B>()?,
            b_in_a,
        ))
    }
    fn name(&self) -> &'static str {
        self.name
    }
}

#[derive(Clone)]
struct Cell<T: Real> {
    kernel: Arc<dyn ErasedKernel<T>>,
    /// The kernel was registered for (B, A): swap the arguments.
    mirrored: bool,
}

/// How a pair is answered, as reported by [`DispatchTable::route`].
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

/// The pair dispatch table. See the [module documentation](self).
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
#[derive(Clone)]
pub struct DispatchTable<T: Real> {
    stride: usize,
    cells: Vec<Option<Cell<T>>>,
}

impl<T: Real> Default for DispatchTable<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Real> core::fmt::Debug for DispatchTable<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let registered = self
            .cells
            .iter()
            .filter(|c| c.as_ref().is_some_and(|c| !c.mirrored))
            .count();
        f.debug_struct("DispatchTable")
            .field("kinds", &self.stride)
            .field("registered_pairs", &registered)
            .finish()
    }
}

impl<T: Real> DispatchTable<T> {
    /// A table with every built-in 2D pair registered.
    #[must_use]
    pub fn new() -> Self {
        let mut t = Self::empty();
        register_builtin_pairs(&mut t);
        t
    }

    /// A table with no kernel: every query goes to the fallbacks.
    #[must_use]
    pub fn empty() -> Self {
        Self {
            stride: 0,
            cells: Vec::new(),
        }
    }

    /// A shared table with the built-in pairs, built once per precision. For
    /// the free functions [`crate::intersects`] and [`crate::contact`]; a game
    /// loop should own its table (or use the world's).
    pub fn shared() -> &'static Self {
        type Registry = RwLock<Vec<(core::any::TypeId, &'static (dyn Any + Send + Sync))>>;
        static TABLES: OnceLock<Registry> = OnceLock::new();
        let registry = TABLES.get_or_init(|| RwLock::new(Vec::new()));
        let id = core::any::TypeId::of::<T>();
        let lookup = |list: &[(core::any::TypeId, &'static (dyn Any + Send + Sync))]| {
            list.iter()
                .find(|(k, _)| *k == id)
                .and_then(|(_, t)| t.downcast_ref::<Self>())
        };
        if let Some(t) = lookup(&registry.read().unwrap_or_else(|e| e.into_inner())) {
            return t;
        }
        let mut list = registry.write().unwrap_or_else(|e| e.into_inner());
        if let Some(t) = lookup(&list) {
            return t;
        }
        let table: &'static Self = Box::leak(Box::new(Self::new()));
        list.push((id, table));
        table
    }

    /// Registers kernels for the pair `(kind_a, kind_b)`, replacing any kernel
    /// already there (built-in ones included). The same kernels then serve
    /// `(kind_b, kind_a)` with the arguments swapped. `A` and `B` are the types
    /// that the shapes' `as_any()` return for those kinds.
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
    pub fn register<A: Any, B: Any>(
        &mut self,
        kind_a: ShapeKind,
        kind_b: ShapeKind,
        name: &'static str,
        intersects: IntersectsFn<T, A, B>,
        contact: ContactFn<T, A, B>,
    ) where
        T: 'static,
    {
        let kernel: Arc<dyn ErasedKernel<T>> = Arc::new(Typed {
            intersects,
            contact,
            name,
        });
        self.grow(kind_a.index().max(kind_b.index()) + 1);
        let (i, j) = (kind_a.index(), kind_b.index());
        self.cells[i * self.stride + j] = Some(Cell {
            kernel: kernel.clone(),
            mirrored: false,
        });
        if i != j {
            self.cells[j * self.stride + i] = Some(Cell {
                kernel,
                mirrored: true,
            });
        }
    }

    fn grow(&mut self, kinds: usize) {
        if kinds <= self.stride {
            return;
        }
        let mut cells = vec![None; kinds * kinds];
        for i in 0..self.stride {
            for j in 0..self.stride {
                cells[i * kinds + j] = self.cells[i * self.stride + j].take();
            }
        }
        self.stride = kinds;
        self.cells = cells;
    }

    #[inline]
    fn cell(&self, a: ShapeKind, b: ShapeKind) -> Option<&Cell<T>> {
        let (i, j) = (a.index(), b.index());
        if i < self.stride && j < self.stride {
            self.cells[i * self.stride + j].as_ref()
        } else {
            None
        }
    }

    /// How the table answers a pair of shapes: a kernel (by name), or a fallback.
    ///
    /// # Errors
    /// [`DispatchError::Unsupported`] when nothing can answer.
    pub fn route(&self, a: &dyn Shape<T>, b: &dyn Shape<T>) -> Result<Route, DispatchError> {
        if let Some(cell) = self.cell(a.kind(), b.kind()) {
            return Ok(Route::Kernel {
                name: cell.kernel.name(),
                mirrored: cell.mirrored,
            });
        }
        if a.as_separating_axes().is_some() && b.as_separating_axes().is_some() {
            return Ok(Route::Sat);
        }
        if a.as_convex().is_some() && b.as_convex().is_some() {
            return Ok(Route::Gjk);
        }
        Err(DispatchError::Unsupported {
            a: a.kind(),
            b: b.kind(),
        })
    }

    /// Whether the two shapes, placed at their poses, intersect (closed sets:
    /// touching counts).
    ///
    /// # Errors
    /// [`DispatchError::Unsupported`] when no kernel and no fallback applies,
    /// [`DispatchError::KindMismatch`] when a shape's `as_any()` is not the type
    /// registered for its kind.
    #[inline]
    pub fn intersects(
        &self,
        a: &dyn Shape<T>,
        pose_a: &Isometry2<T>,
        b: &dyn Shape<T>,
        pose_b: &Isometry2<T>,
    ) -> Result<bool, DispatchError> {
        let o = Ordered::new(self, a, pose_a, b, pose_b);
        match o.cell {
            Some(cell) => {
                let (m, _) = o.relative();
                cell.kernel
                    .intersects(o.first.as_any(), o.second.as_any(), &m)
                    .ok_or_else(|| o.mismatch())
            }
            None => o.fallback_intersects(),
        }
    }

    /// The contact of the two shapes in world space (normal from `a` to `b`),
    /// or `None` when they do not intersect. `Some` exactly when
    /// [`intersects`](Self::intersects) is `true`.
    ///
    /// # Errors
    /// As [`intersects`](Self::intersects).
    #[inline]
    pub fn contact(
        &self,
        a: &dyn Shape<T>,
        pose_a: &Isometry2<T>,
        b: &dyn Shape<T>,
        pose_b: &Isometry2<T>,
    ) -> Result<Option<Contact<T>>, DispatchError> {
        let o = Ordered::new(self, a, pose_a, b, pose_b);
        let c = match o.cell {
            Some(cell) => {
                let (m, frame) = o.relative();
                let local = cell
                    .kernel
                    .contact(o.first.as_any(), o.second.as_any(), &m)
                    .ok_or_else(|| o.mismatch())?;
                local.map(|c| c.transformed(&frame))
            }
            None => o.fallback_contact()?,
        };
        Ok(if o.swapped { c.map(|c| c.flipped()) } else { c })
    }
}

/// A query with its arguments in canonical order.
struct Ordered<'a, T: Real> {
    first: &'a dyn Shape<T>,
    pose_first: &'a Isometry2<T>,
    second: &'a dyn Shape<T>,
    pose_second: &'a Isometry2<T>,
    cell: Option<&'a Cell<T>>,
    swapped: bool,
}

impl<'a, T: Real> Ordered<'a, T> {
    #[inline]
    fn new(
        table: &'a DispatchTable<T>,
        a: &'a dyn Shape<T>,
        pose_a: &'a Isometry2<T>,
        b: &'a dyn Shape<T>,
        pose_b: &'a Isometry2<T>,
    ) -> Self {
        let (ka, kb) = (a.kind(), b.kind());
        let cell = table.cell(ka, kb);
        let swapped = match cell {
            Some(c) if c.mirrored => true,
            Some(_) if ka != kb => false,
            // Same kind, or a fallback: a canonical order keeps the answer
            // exactly symmetric.
            _ => canonical_order(ka, pose_a, a, kb, pose_b, b) == Ordering::Greater,
        };
        if swapped {
            Self {
                first: b,
                pose_first: pose_b,
                second: a,
                pose_second: pose_a,
                cell,
                swapped,
            }
        } else {
            Self {
                first: a,
                pose_first: pose_a,
                second: b,
                pose_second: pose_b,
                cell,
                swapped,
            }
        }
    }

    /// B's effective pose in A's, and A's effective pose (the kernel's frame).
    #[inline]
    fn relative(&self) -> (Isometry2<T>, Isometry2<T>) {
        let fa = self.first.effective_pose(self.pose_first);
        let fb = self.second.effective_pose(self.pose_second);
        (fa.inv_mul(&fb), fa)
    }

    fn mismatch(&self) -> DispatchError {
        // Find which of the two shapes does not downcast; report the first's kind
        // when both could be at fault.
        DispatchError::KindMismatch {
            kind: self.first.kind(),
        }
    }

    /// Poses shifted so the first shape sits at the origin's translation: the
    /// fallbacks compute with relative coordinates, rotations kept (an `Aabb`
    /// interprets its own pose).
    fn shifted(&self) -> (Isometry2<T>, Isometry2<T>, Translation2<T>) {
        let t = self.pose_first.translation;
        let back = Translation2::from(-t.vector);
        (back * self.pose_first, back * self.pose_second, t)
    }

    fn fallback_intersects(&self) -> Result<bool, DispatchError> {
        Ok(self.fallback_contact()?.is_some())
    }

    fn fallback_contact(&self) -> Result<Option<Contact<T>>, DispatchError> {
        let (pa, pb, t) = self.shifted();
        let shift = Isometry2::from_parts(t, nalgebra::UnitComplex::identity());
        if let (Some(a), Some(b)) = (
            self.first.as_separating_axes(),
            self.second.as_separating_axes(),
        ) {
            return Ok(shape::sat::sat_contact(a, &pa, b, &pb).map(|p| {
                let point_a = self.first.as_convex().map_or_else(
                    || nalgebra::Point2::from(pa.translation.vector),
                    |c| c.support_point(&pa, &p.normal),
                );
                let point_b = point_a - p.normal.into_inner() * p.depth;
                Contact {
                    normal: p.normal,
                    depth: p.depth,
                    point_a,
                    point_b,
                }
                .transformed(&shift)
            }));
        }
        if let (Some(a), Some(b)) = (self.first.as_convex(), self.second.as_convex()) {
            return Ok(crate::gjk::epa_contact(a, &pa, b, &pb).map(|c| c.transformed(&shift)));
        }
        Err(self.unsupported())
    }

    /// The unsupported-pair error, with the kinds in the caller's order.
    fn unsupported(&self) -> DispatchError {
        let (a, b) = (self.first.kind(), self.second.kind());
        if self.swapped {
            DispatchError::Unsupported { a: b, b: a }
        } else {
            DispatchError::Unsupported { a, b }
        }
    }
}

/// A total order on (kind, pose, address) used to put the two shapes of a
/// query in a canonical order.
fn canonical_order<T: Real>(
    ka: ShapeKind,
    pa: &Isometry2<T>,
    a: &dyn Shape<T>,
    kb: ShapeKind,
    pb: &Isometry2<T>,
    b: &dyn Shape<T>,
) -> Ordering {
    let key = |p: &Isometry2<T>| {
        [
            p.translation.x,
            p.translation.y,
            p.rotation.re,
            p.rotation.im,
        ]
    };
    let (x, y) = (key(pa), key(pb));
    ka.cmp(&kb)
        .then_with(|| {
            x.iter()
                .zip(&y)
                .map(|(u, v)| u.partial_cmp(v).unwrap_or(Ordering::Equal))
                .find(|o| o.is_ne())
                .unwrap_or(Ordering::Equal)
        })
        .then_with(|| {
            let addr = |s: &dyn Shape<T>| (s.as_any() as *const dyn Any).cast::<()>() as usize;
            addr(a).cmp(&addr(b))
        })
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
