//! The 3D pair dispatch table: `(kind of A, kind of B) → kernel`, the 3D form
//! of [`DispatchTable`](crate::DispatchTable).
//!
//! A table held as a value, indexed by two small [`ShapeKind`] integers: O(1)
//! for every pair. [`DispatchTable3::new`] registers every built-in 3D pair in
//! one block, [`register_builtin_pairs3`], which reads as the list of what is
//! supported and which kernel serves it.
//!
//! A kernel registered for `(A, B)` also serves `(B, A)`: the mirrored cell
//! calls it with the arguments swapped and flips the contact, in one place
//! ([`DispatchTable3::contact`]). For two shapes of the same kind the order is
//! made canonical too (by pose, then by address), so `intersects(a, b) ==
//! intersects(b, a)` exactly and the normals are exact negatives.
//!
//! Kernels work in A's local frame: the table computes B's pose relative to A
//! from the shapes' *effective* poses (an [`Aabb3`](shape::Aabb3) drops
//! rotation), calls the kernel, and maps the contact back to the world.
//!
//! There is no 3D fallback yet (GJK/EPA and the generic SAT are 2D only): a
//! pair with no kernel is [`DispatchError::Unsupported`], never a silent
//! `false`. Users may register their own kernels for any pair.
//!
//! The erased-kernel machinery duplicates the 2D table's with `Isometry3` and
//! [`Contact3`]; [`Route`] and [`DispatchError`] are shared.

use core::any::Any;
use core::cmp::Ordering;
use std::sync::{Arc, OnceLock, RwLock};

use nalgebra::Isometry3;
use shape::{Real, Shape3, ShapeKind};

use super::Contact3;
use crate::{DispatchError, Route};

/// A typed 3D boolean kernel: `(a, b, b_in_a) → intersects`.
pub type IntersectsFn3<T, A, B> = fn(&A, &B, &Isometry3<T>) -> bool;
/// A typed 3D contact kernel: `(a, b, b_in_a) → contact in A's frame`.
pub type ContactFn3<T, A, B> = fn(&A, &B, &Isometry3<T>) -> Option<Contact3<T>>;

/// A kernel with its argument types erased: downcasts, then calls the typed
/// functions. `None` when a downcast fails.
trait ErasedKernel3<T: Real>: Send + Sync {
    fn intersects(&self, a: &dyn Any, b: &dyn Any, b_in_a: &Isometry3<T>) -> Option<bool>;
    fn contact(
        &self,
        a: &dyn Any,
        b: &dyn Any,
        b_in_a: &Isometry3<T>,
    ) -> Option<Option<Contact3<T>>>;
    fn name(&self) -> &'static str;
}

struct Typed3<T: Real, A, B> {
    intersects: IntersectsFn3<T, A, B>,
    contact: ContactFn3<T, A, B>,
    name: &'static str,
}

impl<T: Real, A: Any, B: Any> ErasedKernel3<T> for Typed3<T, A, B> {
    #[inline]
    fn intersects(&self, a: &dyn Any, b: &dyn Any, b_in_a: &Isometry3<T>) -> Option<bool> {
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
        b_in_a: &Isometry3<T>,
    ) -> Option<Option<Contact3<T>>> {
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
struct Cell3<T: Real> {
    kernel: Arc<dyn ErasedKernel3<T>>,
    /// The kernel was registered for (B, A): swap the arguments.
    mirrored: bool,
}

/// The 3D pair dispatch table. See the [module documentation](self).
///
/// ```
/// use nalgebra::{Isometry3, Vector3};
/// use narrowphase::dim3::DispatchTable3;
/// use shape::{Cuboid, Sphere};
///
/// let table = DispatchTable3::<f32>::new();
/// let ball = Sphere::new(1.0).unwrap();
/// let crate_ = Cuboid::new(Vector3::new(1.0, 1.0, 1.0)).unwrap();
/// let at = |x: f32, y: f32, z: f32| Isometry3::translation(x, y, z);
/// assert!(table.intersects(&ball, &at(0.0, 0.0, 2.0), &crate_, &at(0.0, 0.0, 0.0)).unwrap());
/// let c = table.contact(&ball, &at(0.0, 0.0, 1.5), &crate_, &at(0.0, 0.0, 0.0)).unwrap().unwrap();
/// assert!((c.depth - 0.5).abs() < 1e-6 && (c.normal.z + 1.0).abs() < 1e-6);
/// ```
#[derive(Clone)]
pub struct DispatchTable3<T: Real> {
    stride: usize,
    cells: Vec<Option<Cell3<T>>>,
}

impl<T: Real> Default for DispatchTable3<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Real> core::fmt::Debug for DispatchTable3<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let registered = self
            .cells
            .iter()
            .filter(|c| c.as_ref().is_some_and(|c| !c.mirrored))
            .count();
        f.debug_struct("DispatchTable3")
            .field("kinds", &self.stride)
            .field("registered_pairs", &registered)
            .finish()
    }
}

impl<T: Real> DispatchTable3<T> {
    /// A table with every built-in 3D pair registered.
    ///
    /// ```
    /// use narrowphase::{Route, dim3::DispatchTable3};
    /// use shape::{Aabb3, Sphere};
    /// let t = DispatchTable3::<f64>::new();
    /// let s = Sphere::new(1.0).unwrap();
    /// let b = Aabb3::from_half_extents(nalgebra::Vector3::new(1.0, 1.0, 1.0)).unwrap();
    /// assert_eq!(t.route(&b, &s), Ok(Route::Kernel { name: "sphere_aabb3", mirrored: true }));
    /// ```
    #[must_use]
    pub fn new() -> Self {
        let mut t = Self::empty();
        register_builtin_pairs3(&mut t);
        t
    }

    /// A table with no kernel: every query is
    /// [`DispatchError::Unsupported`] until kernels are registered.
    ///
    /// ```
    /// use nalgebra::Isometry3;
    /// use narrowphase::{DispatchError, dim3::DispatchTable3};
    /// use shape::{ShapeKind, Sphere};
    /// let s = Sphere::new(1.0_f64).unwrap();
    /// let o = Isometry3::identity();
    /// assert_eq!(
    ///     DispatchTable3::empty().intersects(&s, &o, &s, &o),
    ///     Err(DispatchError::Unsupported { a: ShapeKind::SPHERE, b: ShapeKind::SPHERE }),
    /// );
    /// ```
    #[must_use]
    pub fn empty() -> Self {
        Self {
            stride: 0,
            cells: Vec::new(),
        }
    }

    /// A shared table with the built-in pairs, built once per precision (for
    /// [`intersects3`](super::intersects3) and [`contact3`](super::contact3); a
    /// game loop should own its table).
    ///
    /// ```
    /// use narrowphase::dim3::DispatchTable3;
    /// assert!(core::ptr::eq(DispatchTable3::<f32>::shared(), DispatchTable3::<f32>::shared()));
    /// ```
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
    /// use nalgebra::Isometry3;
    /// use narrowphase::dim3::{Contact3, DispatchTable3, sphere_sphere_contact};
    /// use shape::{ShapeKind, Sphere};
    ///
    /// // Soft balls: ignore overlaps under 0.1.
    /// fn lenient(a: &Sphere<f64>, b: &Sphere<f64>, m: &Isometry3<f64>) -> bool {
    ///     m.translation.vector.norm() < a.radius() + b.radius() - 0.1
    /// }
    /// fn lenient_contact(a: &Sphere<f64>, b: &Sphere<f64>, m: &Isometry3<f64>) -> Option<Contact3<f64>> {
    ///     if lenient(a, b, m) { sphere_sphere_contact(a, b, m) } else { None }
    /// }
    /// let mut table = DispatchTable3::new();
    /// table.register(ShapeKind::SPHERE, ShapeKind::SPHERE, "lenient", lenient, lenient_contact);
    /// let s = Sphere::new(1.0).unwrap();
    /// let (o, p) = (Isometry3::identity(), Isometry3::translation(0.0, 1.95, 0.0));
    /// assert!(!table.intersects(&s, &o, &s, &p).unwrap());
    /// ```
    pub fn register<A: Any, B: Any>(
        &mut self,
        kind_a: ShapeKind,
        kind_b: ShapeKind,
        name: &'static str,
        intersects: IntersectsFn3<T, A, B>,
        contact: ContactFn3<T, A, B>,
    ) where
        T: 'static,
    {
        let kernel: Arc<dyn ErasedKernel3<T>> = Arc::new(Typed3 {
            intersects,
            contact,
            name,
        });
        self.grow(kind_a.index().max(kind_b.index()) + 1);
        let (i, j) = (kind_a.index(), kind_b.index());
        self.cells[i * self.stride + j] = Some(Cell3 {
            kernel: kernel.clone(),
            mirrored: false,
        });
        if i != j {
            self.cells[j * self.stride + i] = Some(Cell3 {
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
    fn cell(&self, a: ShapeKind, b: ShapeKind) -> Option<&Cell3<T>> {
        let (i, j) = (a.index(), b.index());
        if i < self.stride && j < self.stride {
            self.cells[i * self.stride + j].as_ref()
        } else {
            None
        }
    }

    /// How the table answers a pair of shapes: always a registered kernel (by
    /// name) in 3D.
    ///
    /// # Errors
    /// [`DispatchError::Unsupported`] when no kernel is registered for the
    /// pair (there is no 3D fallback).
    pub fn route(&self, a: &dyn Shape3<T>, b: &dyn Shape3<T>) -> Result<Route, DispatchError> {
        self.cell(a.kind(), b.kind())
            .map(|cell| Route::Kernel {
                name: cell.kernel.name(),
                mirrored: cell.mirrored,
            })
            .ok_or(DispatchError::Unsupported {
                a: a.kind(),
                b: b.kind(),
            })
    }

    /// Whether the two shapes, placed at their poses, intersect (closed sets:
    /// touching counts).
    ///
    /// # Errors
    /// [`DispatchError::Unsupported`] when no kernel is registered for the
    /// pair, [`DispatchError::KindMismatch`] when a shape's `as_any()` is not
    /// the type registered for its kind.
    ///
    /// ```
    /// use nalgebra::{Isometry3, Vector3};
    /// use narrowphase::dim3::DispatchTable3;
    /// let cube = shape::Cuboid::new(Vector3::new(0.5, 0.5, 0.5)).unwrap();
    /// let t = DispatchTable3::<f64>::new();
    /// let (o, p) = (Isometry3::identity(), Isometry3::translation(0.0, 1.0, 0.0));
    /// assert!(t.intersects(&cube, &o, &cube, &p).unwrap()); // face to face
    /// ```
    #[inline]
    pub fn intersects(
        &self,
        a: &dyn Shape3<T>,
        pose_a: &Isometry3<T>,
        b: &dyn Shape3<T>,
        pose_b: &Isometry3<T>,
    ) -> Result<bool, DispatchError> {
        let o = Ordered3::new(self, a, pose_a, b, pose_b);
        let cell = o.cell.ok_or_else(|| o.unsupported())?;
        let (m, _) = o.relative();
        cell.kernel
            .intersects(o.first.as_any(), o.second.as_any(), &m)
            .ok_or_else(|| o.mismatch())
    }

    /// The contact of the two shapes in world space (normal from `a` to `b`),
    /// or `None` when they do not intersect. `Some` exactly when
    /// [`intersects`](Self::intersects) is `true`.
    ///
    /// # Errors
    /// As [`intersects`](Self::intersects).
    ///
    /// ```
    /// use nalgebra::{Isometry3, Vector3};
    /// use narrowphase::dim3::DispatchTable3;
    /// let ball = shape::Sphere::new(1.0).unwrap();
    /// let t = DispatchTable3::<f64>::new();
    /// let (o, p) = (Isometry3::identity(), Isometry3::translation(1.5, 0.0, 0.0));
    /// let c = t.contact(&ball, &p, &ball, &o).unwrap().unwrap();
    /// assert_eq!((c.depth, c.normal.into_inner()), (0.5, -Vector3::x()));
    /// ```
    #[inline]
    pub fn contact(
        &self,
        a: &dyn Shape3<T>,
        pose_a: &Isometry3<T>,
        b: &dyn Shape3<T>,
        pose_b: &Isometry3<T>,
    ) -> Result<Option<Contact3<T>>, DispatchError> {
        let o = Ordered3::new(self, a, pose_a, b, pose_b);
        let cell = o.cell.ok_or_else(|| o.unsupported())?;
        let (m, frame) = o.relative();
        let local = cell
            .kernel
            .contact(o.first.as_any(), o.second.as_any(), &m)
            .ok_or_else(|| o.mismatch())?;
        let c = local.map(|c| c.transformed(&frame));
        Ok(if o.swapped { c.map(|c| c.flipped()) } else { c })
    }
}

/// A query with its arguments in canonical order.
struct Ordered3<'a, T: Real> {
    first: &'a dyn Shape3<T>,
    pose_first: &'a Isometry3<T>,
    second: &'a dyn Shape3<T>,
    pose_second: &'a Isometry3<T>,
    cell: Option<&'a Cell3<T>>,
    swapped: bool,
}

impl<'a, T: Real> Ordered3<'a, T> {
    #[inline]
    fn new(
        table: &'a DispatchTable3<T>,
        a: &'a dyn Shape3<T>,
        pose_a: &'a Isometry3<T>,
        b: &'a dyn Shape3<T>,
        pose_b: &'a Isometry3<T>,
    ) -> Self {
        let (ka, kb) = (a.kind(), b.kind());
        let cell = table.cell(ka, kb);
        let swapped = match cell {
            Some(c) if c.mirrored => true,
            Some(_) if ka != kb => false,
            // Same kind: a canonical order keeps the answer exactly symmetric.
            Some(_) => canonical_order(pose_a, a, pose_b, b) == Ordering::Greater,
            None => false,
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
    fn relative(&self) -> (Isometry3<T>, Isometry3<T>) {
        let fa = self.first.effective_pose(self.pose_first);
        let fb = self.second.effective_pose(self.pose_second);
        (fa.inv_mul(&fb), fa)
    }

    fn mismatch(&self) -> DispatchError {
        DispatchError::KindMismatch {
            kind: self.first.kind(),
        }
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

/// A total order on (pose, address) for two shapes of the same kind.
fn canonical_order<T: Real>(
    pa: &Isometry3<T>,
    a: &dyn Shape3<T>,
    pb: &Isometry3<T>,
    b: &dyn Shape3<T>,
) -> Ordering {
    let key = |p: &Isometry3<T>| {
        let (t, q) = (p.translation.vector, p.rotation.quaternion());
        [t.x, t.y, t.z, q.w, q.i, q.j, q.k]
    };
    let (x, y) = (key(pa), key(pb));
    x.iter()
        .zip(&y)
        .map(|(u, v)| u.partial_cmp(v).unwrap_or(Ordering::Equal))
        .find(|o| o.is_ne())
        .unwrap_or(Ordering::Equal)
        .then_with(|| {
            let addr = |s: &dyn Shape3<T>| (s.as_any() as *const dyn Any).cast::<()>() as usize;
            addr(a).cmp(&addr(b))
        })
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
