//! The pair table, written once for 2D and 3D: `(kind of A, kind of B) →
//! kernel`.
//!
//! A table held as a value (the world owns one), indexed by two small
//! [`ShapeKind`] integers: O(1) for every pair, no chain of type tests, no
//! hashing. A kernel registered for `(A, B)` also serves `(B, A)`: the mirrored
//! cell calls it with the arguments swapped and flips the contact, in one place
//! ([`Table::contact`]). For two shapes of the same kind (and for fallbacks) the
//! order is made canonical too (by pose, then by address), so
//! `intersects(a, b) == intersects(b, a)` exactly and the normals are exact
//! negatives for every pair.
//!
//! Kernels work in A's local frame: the table computes B's pose relative to A
//! from the shapes' *effective* poses (an `Aabb` drops rotation), calls the
//! kernel, and maps the contact back to the world.
//!
//! What differs between 2D and 3D (shape trait, pose, contact, fallbacks) is
//! the [`Dimension`] trait: [`crate::DispatchTable`] is `Table<T, Dim2>`,
//! [`crate::dim3::DispatchTable3`] is `Table<T, Dim3>`.

use core::any::{Any, TypeId};
use core::cmp::Ordering;
use std::sync::{Arc, OnceLock, RwLock};

use shape::{Real, ShapeKind};

use crate::DispatchError;

/// What the table needs of a dimension.
pub trait Dimension<T: Real>: Sized + Send + Sync + 'static {
    /// The shape trait object (`dyn Shape<T>` or `dyn Shape3<T>`).
    type Shape: ?Sized;
    /// The pose.
    type Pose: Copy + Send + Sync + 'static;
    /// The contact.
    type Contact: Copy;
    /// The table's name in `Debug` output.
    const TABLE_NAME: &'static str;

    /// The shape's kind.
    fn kind(s: &Self::Shape) -> ShapeKind;
    /// The shape's data for the kernels.
    fn as_any(s: &Self::Shape) -> &dyn Any;
    /// The shape's kind and data, in one call through the vtable.
    fn kind_and_data(s: &Self::Shape) -> (ShapeKind, &dyn Any);
    /// The pose the shape's geometry is placed with; `kind` is the shape's.
    fn effective_pose(s: &Self::Shape, kind: ShapeKind, pose: &Self::Pose) -> Self::Pose;
    /// `a⁻¹ · b`.
    fn inv_mul(a: &Self::Pose, b: &Self::Pose) -> Self::Pose;
    /// The contact mapped from a local frame to the world.
    fn transformed(c: &Self::Contact, frame: &Self::Pose) -> Self::Contact;
    /// The contact seen from the other shape.
    fn flipped(c: &Self::Contact) -> Self::Contact;
    /// The pose's `i`-th number (translation first, then rotation), for the
    /// canonical order; `None` past the last.
    fn pose_number(p: &Self::Pose, i: usize) -> Option<T>;
    /// How a pair with no kernel is answered, if it can be.
    fn fallback_route(a: &Self::Shape, b: &Self::Shape) -> Option<crate::Route>;
    /// Answers a pair with no kernel; `None` when no fallback applies.
    fn fallback_contact(
        a: &Self::Shape,
        pose_a: &Self::Pose,
        b: &Self::Shape,
        pose_b: &Self::Pose,
    ) -> Option<Option<Self::Contact>>;
    /// Whether the shapes' bounding boxes at their poses are provably apart;
    /// asked only when one shape's pose relative to the other overflows (the
    /// shapes sit near opposite ends of the float range). `false` when it
    /// cannot tell: the query is then an error rather than a guess.
    fn bounds_disjoint(
        a: &Self::Shape,
        pose_a: &Self::Pose,
        b: &Self::Shape,
        pose_b: &Self::Pose,
    ) -> bool {
        let _ = (a, pose_a, b, pose_b);
        false
    }
}

/// A typed boolean kernel: `(a, b, b_in_a) → intersects`.
pub type KernelFn<T, D, A, B> = fn(&A, &B, &<D as Dimension<T>>::Pose) -> bool;
/// A typed contact kernel: `(a, b, b_in_a) → contact in A's frame`.
pub type ContactKernelFn<T, D, A, B> =
    fn(&A, &B, &<D as Dimension<T>>::Pose) -> Option<<D as Dimension<T>>::Contact>;

/// A kernel with its argument types erased: downcasts, then calls the typed
/// functions. `None` when a downcast fails (the shape's kind and data disagree).
trait ErasedKernel<T: Real, D: Dimension<T>>: Send + Sync {
    fn intersects(&self, a: &dyn Any, b: &dyn Any, b_in_a: &D::Pose) -> Option<bool>;
    fn contact(&self, a: &dyn Any, b: &dyn Any, b_in_a: &D::Pose) -> Option<Option<D::Contact>>;
    fn name(&self) -> &'static str;
}

/// The typed kernels, held by type (a function item is a zero-sized type), so
/// that the erased wrapper calls them directly and can inline them.
struct Typed<A, B, F, G> {
    intersects: F,
    contact: G,
    name: &'static str,
    types: core::marker::PhantomData<fn(&A, &B)>,
}

impl<T, D, A, B, F, G> ErasedKernel<T, D> for Typed<A, B, F, G>
where
    T: Real,
    D: Dimension<T>,
    A: Any,
    B: Any,
    F: Fn(&A, &B, &D::Pose) -> bool + Send + Sync,
    G: Fn(&A, &B, &D::Pose) -> Option<D::Contact> + Send + Sync,
{
    #[inline]
    fn intersects(&self, a: &dyn Any, b: &dyn Any, b_in_a: &D::Pose) -> Option<bool> {
        Some((self.intersects)(
            a.downcast_ref::<A>()?,
            b.downcast_ref::<B>()?,
            b_in_a,
        ))
    }
    #[inline]
    fn contact(&self, a: &dyn Any, b: &dyn Any, b_in_a: &D::Pose) -> Option<Option<D::Contact>> {
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

struct Cell<T: Real, D: Dimension<T>> {
    kernel: Arc<dyn ErasedKernel<T, D>>,
    /// The kernel was registered for (B, A): swap the arguments.
    mirrored: bool,
}

impl<T: Real, D: Dimension<T>> Clone for Cell<T, D> {
    fn clone(&self) -> Self {
        Self {
            kernel: self.kernel.clone(),
            mirrored: self.mirrored,
        }
    }
}

/// The pair dispatch table for dimension `D`. See the [module documentation](self).
pub struct Table<T: Real, D: Dimension<T>> {
    stride: usize,
    cells: Vec<Option<Cell<T, D>>>,
}

impl<T: Real, D: Dimension<T>> Clone for Table<T, D> {
    fn clone(&self) -> Self {
        Self {
            stride: self.stride,
            cells: self.cells.clone(),
        }
    }
}

impl<T: Real, D: Dimension<T>> core::fmt::Debug for Table<T, D> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let registered = self
            .cells
            .iter()
            .filter(|c| c.as_ref().is_some_and(|c| !c.mirrored))
            .count();
        f.debug_struct(D::TABLE_NAME)
            .field("kinds", &self.stride)
            .field("registered_pairs", &registered)
            .finish()
    }
}

impl<T: Real, D: Dimension<T>> Table<T, D> {
    /// A table with no kernel: every query goes to the fallbacks (2D) or is
    /// unsupported (3D).
    #[must_use]
    pub fn empty() -> Self {
        Self {
            stride: 0,
            cells: Vec::new(),
        }
    }

    /// Registers kernels for the pair `(kind_a, kind_b)`, replacing any kernel
    /// already there (built-in ones included). The same kernels then serve
    /// `(kind_b, kind_a)` with the arguments swapped. `A` and `B` are the types
    /// that the shapes' `as_any()` return for those kinds; the kernels are
    /// functions (or closures) `(a, b, b_in_a)` answering in A's frame, such as
    /// [`KernelFn`] and [`ContactKernelFn`]. Function items are called directly
    /// (and can be inlined) by the table's erased wrapper.
    pub fn register<A, B, F, G>(
        &mut self,
        kind_a: ShapeKind,
        kind_b: ShapeKind,
        name: &'static str,
        intersects: F,
        contact: G,
    ) where
        A: Any,
        B: Any,
        F: Fn(&A, &B, &D::Pose) -> bool + Send + Sync + 'static,
        G: Fn(&A, &B, &D::Pose) -> Option<D::Contact> + Send + Sync + 'static,
    {
        let kernel: Arc<dyn ErasedKernel<T, D>> = Arc::new(Typed {
            intersects,
            contact,
            name,
            types: core::marker::PhantomData::<fn(&A, &B)>,
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
    fn cell(&self, a: ShapeKind, b: ShapeKind) -> Option<&Cell<T, D>> {
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
    pub fn route(&self, a: &D::Shape, b: &D::Shape) -> Result<crate::Route, DispatchError> {
        if let Some(cell) = self.cell(D::kind(a), D::kind(b)) {
            return Ok(crate::Route::Kernel {
                name: cell.kernel.name(),
                mirrored: cell.mirrored,
            });
        }
        D::fallback_route(a, b).ok_or(DispatchError::Unsupported {
            a: D::kind(a),
            b: D::kind(b),
        })
    }

    /// Whether the two shapes, placed at their poses, intersect (closed sets:
    /// touching counts).
    ///
    /// # Errors
    /// [`DispatchError::Unsupported`] when no kernel and no fallback applies,
    /// [`DispatchError::KindMismatch`] when a shape's `as_any()` is not the type
    /// registered for its kind, [`DispatchError::NonFinitePose`] when a pose has
    /// a NaN or infinite number.
    #[inline]
    pub fn intersects(
        &self,
        a: &D::Shape,
        pose_a: &D::Pose,
        b: &D::Shape,
        pose_b: &D::Pose,
    ) -> Result<bool, DispatchError> {
        check_poses::<T, D>(pose_a, pose_b)?;
        let o = Ordered::new(self, a, pose_a, b, pose_b);
        let (m, _) = o.relative();
        if let Some(apart) = o.out_of_range(&m) {
            return apart.map(|()| false);
        }
        match o.cell {
            Some(cell) => cell
                .kernel
                .intersects(o.data.0, o.data.1, &m)
                .ok_or_else(|| o.mismatch()),
            None => Ok(o.fallback()?.is_some()),
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
        a: &D::Shape,
        pose_a: &D::Pose,
        b: &D::Shape,
        pose_b: &D::Pose,
    ) -> Result<Option<D::Contact>, DispatchError> {
        check_poses::<T, D>(pose_a, pose_b)?;
        let o = Ordered::new(self, a, pose_a, b, pose_b);
        let (m, frame) = o.relative();
        if let Some(apart) = o.out_of_range(&m) {
            return apart.map(|()| None);
        }
        let c = match o.cell {
            Some(cell) => {
                let local = cell
                    .kernel
                    .contact(o.data.0, o.data.1, &m)
                    .ok_or_else(|| o.mismatch())?;
                local.map(|c| D::transformed(&c, &frame))
            }
            None => o.fallback()?,
        };
        Ok(if o.swapped {
            c.map(|c| D::flipped(&c))
        } else {
            c
        })
    }

    /// A shared table built once per precision and dimension by `build`, for
    /// the free functions; a game loop should own its table (or use the
    /// world's).
    pub(crate) fn shared_with(build: fn() -> Self) -> &'static Self {
        type Registry = RwLock<Vec<(TypeId, &'static (dyn Any + Send + Sync))>>;
        static TABLES: OnceLock<Registry> = OnceLock::new();
        let registry = TABLES.get_or_init(|| RwLock::new(Vec::new()));
        let id = TypeId::of::<Self>();
        let lookup = |list: &[(TypeId, &'static (dyn Any + Send + Sync))]| {
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
        let table: &'static Self = Box::leak(Box::new(build()));
        list.push((id, table));
        table
    }
}

/// Whether every number of the pose is finite.
#[inline]
fn pose_is_finite<T: Real, D: Dimension<T>>(p: &D::Pose) -> bool {
    let mut i = 0;
    while let Some(x) = D::pose_number(p, i) {
        if !num_traits::Float::is_finite(x) {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether every number of the pose is at most `√MAX` in magnitude (NaN is
/// not), so that squared distances in the kernels cannot overflow.
#[inline]
fn pose_in_range<T: Real, D: Dimension<T>>(p: &D::Pose) -> bool {
    let limit = num_traits::Float::sqrt(<T as num_traits::Float>::max_value());
    let mut i = 0;
    while let Some(x) = D::pose_number(p, i) {
        let a = num_traits::Float::abs(x);
        if a > limit || a.is_nan() {
            return false;
        }
        i += 1;
    }
    true
}

/// [`DispatchError::NonFinitePose`] unless every number of both poses is
/// finite (a NaN or infinite pose has no answer; kernels would compute NaN).
#[inline]
fn check_poses<T: Real, D: Dimension<T>>(a: &D::Pose, b: &D::Pose) -> Result<(), DispatchError> {
    if pose_is_finite::<T, D>(a) && pose_is_finite::<T, D>(b) {
        Ok(())
    } else {
        Err(DispatchError::NonFinitePose)
    }
}

/// A query with its arguments in canonical order.
struct Ordered<'a, T: Real, D: Dimension<T>> {
    kinds: (ShapeKind, ShapeKind),
    data: (&'a dyn Any, &'a dyn Any),
    first: &'a D::Shape,
    pose_first: &'a D::Pose,
    second: &'a D::Shape,
    pose_second: &'a D::Pose,
    cell: Option<&'a Cell<T, D>>,
    swapped: bool,
}

impl<'a, T: Real, D: Dimension<T>> Ordered<'a, T, D> {
    #[inline]
    fn new(
        table: &'a Table<T, D>,
        a: &'a D::Shape,
        pose_a: &'a D::Pose,
        b: &'a D::Shape,
        pose_b: &'a D::Pose,
    ) -> Self {
        let ((ka, da), (kb, db)) = (D::kind_and_data(a), D::kind_and_data(b));
        let cell = table.cell(ka, kb);
        let swapped = match cell {
            Some(c) if c.mirrored => true,
            Some(_) if ka != kb => false,
            // Same kind, or a fallback: a canonical order keeps the answer
            // exactly symmetric.
            _ => canonical_order::<T, D>(ka, pose_a, da, kb, pose_b, db) == Ordering::Greater,
        };
        if swapped {
            Self {
                kinds: (kb, ka),
                data: (db, da),
                first: b,
                pose_first: pose_b,
                second: a,
                pose_second: pose_a,
                cell,
                swapped,
            }
        } else {
            Self {
                kinds: (ka, kb),
                data: (da, db),
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
    fn relative(&self) -> (D::Pose, D::Pose) {
        let fa = D::effective_pose(self.first, self.kinds.0, self.pose_first);
        let fb = D::effective_pose(self.second, self.kinds.1, self.pose_second);
        (D::inv_mul(&fa, &fb), fa)
    }

    /// Whether a kernel or a fallback applies (else the query is
    /// [`DispatchError::Unsupported`] wherever the shapes are).
    fn answerable(&self) -> bool {
        self.cell.is_some() || D::fallback_route(self.first, self.second).is_some()
    }

    /// The answer for a relative pose `m` outside the kernels' range, where
    /// squared distances overflow (a number above `√MAX`: shapes near opposite
    /// ends of the float range, or `∞` when the difference of two finite poses
    /// overflowed): `Some(Ok(()))` when the shapes' bounding boxes prove them
    /// apart, `Some(Err(NonFinitePose))` when they do not and `m` is not
    /// finite. `None` lets the kernel answer (in range, or finite with boxes
    /// that meet: shapes themselves beyond `√MAX`).
    #[inline]
    fn out_of_range(&self, m: &D::Pose) -> Option<Result<(), DispatchError>> {
        if pose_in_range::<T, D>(m) || !self.answerable() {
            return None;
        }
        self.beyond_range(m)
    }

    #[cold]
    fn beyond_range(&self, m: &D::Pose) -> Option<Result<(), DispatchError>> {
        if D::bounds_disjoint(self.first, self.pose_first, self.second, self.pose_second) {
            Some(Ok(()))
        } else if !pose_is_finite::<T, D>(m) {
            Some(Err(DispatchError::NonFinitePose))
        } else {
            None
        }
    }

    fn mismatch(&self) -> DispatchError {
        // Report the shape whose data is not of its kind's registered type
        // (the first when both could be at fault).
        DispatchError::KindMismatch {
            kind: D::kind(self.first),
        }
    }

    fn fallback(&self) -> Result<Option<D::Contact>, DispatchError> {
        D::fallback_contact(self.first, self.pose_first, self.second, self.pose_second).ok_or_else(
            || {
                let (a, b) = self.kinds;
                if self.swapped {
                    DispatchError::Unsupported { a: b, b: a }
                } else {
                    DispatchError::Unsupported { a, b }
                }
            },
        )
    }
}

/// A total order on (kind, pose, address) used to put the two shapes of a
/// query in a canonical order. Usually decided by the first coordinate of the
/// translations, so it costs a comparison or two.
#[inline]
fn canonical_order<T: Real, D: Dimension<T>>(
    ka: ShapeKind,
    pa: &D::Pose,
    a: &dyn Any,
    kb: ShapeKind,
    pb: &D::Pose,
    b: &dyn Any,
) -> Ordering {
    if ka != kb {
        return ka.cmp(&kb);
    }
    let mut i = 0;
    while let (Some(x), Some(y)) = (D::pose_number(pa, i), D::pose_number(pb, i)) {
        match x.partial_cmp(&y) {
            Some(Ordering::Equal) | None => i += 1,
            Some(o) => return o,
        }
    }
    let addr = |s: &dyn Any| (s as *const dyn Any).cast::<()>() as usize;
    addr(a).cmp(&addr(b))
}
