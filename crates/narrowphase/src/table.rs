//! The pair table, written once for every pair query and for 2D and 3D:
//! `(query, kind of A, kind of B) → kernel`.
//!
//! # How a pair is answered
//!
//! A *pair query* ([`PairQuery`]: intersects, contact, closest points, ...)
//! names what its kernels take besides the two shapes and B's pose in A's
//! frame (its `Args`), what they answer in A's frame (its `Answer`), and how
//! an answer is seen from the other shape ([`PairQuery::flipped`]) and from
//! the world ([`PairQuery::transformed`]). [`Table::query`] answers any query
//! for any pair, in one place:
//!
//! 1. both poses must be finite, and the query's arguments valid (for two
//!    built-in shapes the poses are checked through the range check of the
//!    relative pose, see [`builtin_in_order`]);
//! 2. a kernel the user registered for `(query, kind A, kind B)` answers first
//!    (registered for `(A, B)`, it also serves `(B, A)`, mirrored);
//! 3. two built-in shapes are answered by the built-in kernels of the
//!    dimension's register block (`dispatch.rs`, `dim3/dispatch3.rs`): a
//!    `match` on two [`ShapeRef`](shape::ShapeRef)s with an arm per pair and
//!    order, no downcast, no lock, no search (a table with user kernels for
//!    other pairs finds that out from a bit matrix, not a lookup). The
//!    `match` jumps to one function per arm ([`builtin_in_order`], not
//!    inlined), which knows its kinds and their order at compile time. Code
//!    that already knows its shapes are built in (the World, which stores
//!    them by value) passes the `ShapeRef`s to [`Table::query_builtin`] and
//!    skips the two calls through the shapes' vtables that find them;
//! 4. anything else goes to the query's generic fallback (separating axes,
//!    GJK) or is [`DispatchError::Unsupported`], never a silent answer.
//!
//! # The mirror rule
//!
//! The two shapes are put in a canonical order first (by kind; for the same
//! kind, or a fallback, by pose and then address), the kernel runs in the first
//! shape's frame, and the answer is mapped to the world and flipped back when
//! the order was swapped. This happens in two functions: the private
//! `answer_in_order` (user kernels and fallbacks) and [`builtin_in_order`]
//! (the register blocks' arms, with the kinds known at compile time), so
//! `query(a, b)` and `query(b, a)` agree exactly (bit for bit, up to the flip)
//! for every query and pair.
//!
//! For two built-in shapes of the same kind the order is found and applied
//! without a data-dependent branch: random pairs come in either order half of
//! the time, so a branch on it would be mispredicted half of the time (the
//! largest part of the table's cost before). The first pose numbers decide
//! almost always, with a comparison whose result picks the two sides by value
//! (conditional moves); equal first numbers take a rarely taken branch to the
//! rest of the order (`canonical_greater`).
//!
//! # Adding a query
//!
//! A marker type implementing [`PairQuery`] for [`Dim2`](crate::Dim2) (in
//! `dispatch.rs`, beside the register block) and [`Dim3`](crate::dim3::Dim3)
//! (in `dim3/dispatch3.rs`), a column in the two register blocks naming the
//! kernel of every built-in pair, a field of [`UserKernels`] in [`Table`]
//! for the kernels users register, and the kernels themselves.
//! `docs/ARCHITECTURE.md` walks through it.

use alloc::sync::Arc;
use alloc::vec;
use alloc::vec::Vec;
use core::any::Any;
use core::cmp::Ordering;
#[cfg(feature = "std")]
use std::sync::{OnceLock, RwLock};

use shape::{Real, ShapeKind};

use crate::DispatchError;
use crate::queries::{
    ClosestPointsQuery, ContactQuery, IntersectsQuery, ManifoldQuery, ShapeCastQuery,
};

/// What the table needs of a dimension.
pub trait Dimension<T: Real>: Sized + Send + Sync + 'static {
    /// The shape trait object (`dyn Shape<T>` or `dyn Shape3<T>`).
    type Shape: ?Sized;
    /// The pose.
    type Pose: Copy + Send + Sync + 'static;
    /// A built-in shape by reference ([`ShapeRef`](shape::ShapeRef) or
    /// [`ShapeRef3`](shape::ShapeRef3)).
    type Builtin<'a>: Copy;
    /// The table's name in `Debug` output.
    const TABLE_NAME: &'static str;

    /// The shape's kind.
    fn kind(s: &Self::Shape) -> ShapeKind;
    /// The shape's data for user kernels.
    fn as_any(s: &Self::Shape) -> &dyn Any;
    /// The shape's kind and data, in one call through the vtable.
    fn kind_and_data(s: &Self::Shape) -> (ShapeKind, &dyn Any);
    /// The built-in shape, by its type (one call through the vtable).
    fn builtin(s: &Self::Shape) -> Option<Self::Builtin<'_>>;
    /// A built-in shape's kind.
    fn builtin_kind(s: Self::Builtin<'_>) -> ShapeKind;
    /// A built-in shape as the shape trait object.
    fn builtin_shape<'a>(s: Self::Builtin<'a>) -> &'a Self::Shape;
    /// [`bounds_gap`](Self::bounds_gap) of two built-in shapes.
    fn builtin_bounds_gap(
        a: Self::Builtin<'_>,
        pose_a: &Self::Pose,
        b: Self::Builtin<'_>,
        pose_b: &Self::Pose,
    ) -> T;
    /// Whether `kind` is one of this dimension's built-in kinds.
    fn is_builtin_kind(kind: ShapeKind) -> bool;
    /// The pose a built-in kind's geometry is placed with (an axis-aligned
    /// box keeps only the translation). What the pose drops must still spoil
    /// the result when it is not finite: an axis-aligned box's translation is
    /// multiplied by `1 + Σ 0·rotation`, exactly 1 for a finite rotation (so
    /// the translation is kept bit for bit) and NaN otherwise, which the
    /// table's range check on the relative pose then reports.
    fn builtin_effective_pose(kind: ShapeKind, pose: &Self::Pose) -> Self::Pose;
    /// The pose a user shape's geometry is placed with (asks the shape).
    fn effective_pose(s: &Self::Shape, pose: &Self::Pose) -> Self::Pose;
    /// `a⁻¹ · b`.
    fn inv_mul(a: &Self::Pose, b: &Self::Pose) -> Self::Pose;
    /// The pose's numbers as an array (`[T; 4]` in 2D, `[T; 7]` in 3D).
    type PoseNumbers: AsRef<[T]>;
    /// The pose's numbers, translation first, then rotation: for the
    /// canonical order and the finiteness and range checks (a fixed-size
    /// array, so that the checks unroll into straight-line code).
    fn pose_numbers(p: &Self::Pose) -> Self::PoseNumbers;
    /// The name of the built-in kernels of two built-in shapes in canonical
    /// order (`"circle_obb"`); `None` for a pair the register block lacks.
    fn builtin_name(a: Self::Builtin<'_>, b: Self::Builtin<'_>) -> Option<&'static str>;
    /// How a pair with no kernel is answered, if it can be.
    fn fallback_route(a: &Self::Shape, b: &Self::Shape) -> Option<crate::Route>;
    /// A lower bound of the distance between the shapes from their bounding
    /// boxes at their poses (positive when the boxes are apart, possibly
    /// `+∞`; zero when they meet or cannot be compared). Asked only when one
    /// shape's pose relative to the other overflows the kernels' range
    /// (shapes near opposite ends of the float range).
    fn bounds_gap(a: &Self::Shape, pose_a: &Self::Pose, b: &Self::Shape, pose_b: &Self::Pose) -> T;
}

/// A pair query: what its kernels take and answer, how an answer is mirrored
/// and mapped to the world, which kernels answer built-in pairs and which
/// fallback the others. See the [module documentation](self).
pub trait PairQuery<T: Real, D: Dimension<T>>: Sized + 'static {
    /// What a kernel takes besides the shapes and `b_in_a` (`()`, or the
    /// `max_distance` of closest points).
    type Args: Copy + Send + Sync + 'static;
    /// What a kernel answers, in A's frame (and the table, in the world).
    type Answer: Copy;
    /// The query's name, for messages.
    const NAME: &'static str;
    /// Where the table keeps the kernels users register for this query: a
    /// number below [`QUERY_SLOTS`], different for every query of a
    /// dimension (listed in `queries.rs`).
    const SLOT: usize;

    /// [`DispatchError`] for arguments the query refuses (a NaN or negative
    /// distance, ...).
    ///
    /// # Errors
    /// The query's own argument errors.
    fn check_args(args: &Self::Args) -> Result<(), DispatchError>;
    /// The arguments as the kernel sees them when it runs in `frame` (the
    /// first shape's effective pose): world vectors (velocities) rotated into
    /// it. `swapped` says that the shapes were swapped for the canonical order
    /// (per-shape arguments swap with them). Most queries take arguments that
    /// no frame changes, and keep the default.
    #[inline]
    fn local_args(args: Self::Args, frame: &D::Pose, swapped: bool) -> Self::Args {
        let _ = (frame, swapped);
        args
    }
    /// Whether every answer is the same seen from either shape
    /// ([`flipped`](Self::flipped) is the identity, as for a boolean): the
    /// built-in path then does not keep track of the order it ran in.
    const SYMMETRIC: bool = false;
    /// The answer seen from the other shape.
    fn flipped(answer: &Self::Answer) -> Self::Answer;
    /// The answer seen from the other shape when `flip`, else itself. A query
    /// whose answers flip cheaply may pick the two by value rather than
    /// branch (`flip` depends on the data for two shapes of the same kind).
    #[inline]
    fn flipped_if(answer: Self::Answer, flip: bool) -> Self::Answer {
        if flip { Self::flipped(&answer) } else { answer }
    }
    /// The answer mapped from a local frame to the world.
    fn transformed(answer: &Self::Answer, frame: &D::Pose) -> Self::Answer;
    /// A kernel's answer (in `frame`, the first shape's effective pose, for
    /// the arguments `local_args(args, frame, swapped)`) in the world, given
    /// the caller's arguments `args` and whether the order was `swapped`; not
    /// yet flipped back. Queries whose answer depends on the world arguments
    /// (a shape cast's points move with the first shape's velocity) override
    /// it; the default is [`transformed`](Self::transformed).
    #[inline]
    fn to_world(
        answer: &Self::Answer,
        frame: &D::Pose,
        args: &Self::Args,
        swapped: bool,
    ) -> Self::Answer {
        let _ = (args, swapped);
        Self::transformed(answer, frame)
    }
    /// A kernel's answer `local` in the world and flipped back when
    /// `swapped`: [`flipped_if`](Self::flipped_if) of
    /// [`to_world`](Self::to_world), the default. A query with a large answer
    /// (a manifold) overrides it to map and flip the answer it is given in
    /// place rather than build two new ones.
    #[inline(always)]
    fn in_world(
        local: Self::Answer,
        frame: &D::Pose,
        args: &Self::Args,
        swapped: bool,
    ) -> Self::Answer {
        Self::flipped_if(Self::to_world(&local, frame, args, swapped), swapped)
    }
    /// The arguments for the shapes in the other order when `swapped` (a
    /// shape cast swaps its two velocities); the default keeps them.
    #[inline]
    fn swapped_args(args: Self::Args, swapped: bool) -> Self::Args {
        let _ = swapped;
        args
    }
    /// The answer for shapes whose bounding boxes are `gap` apart, when their
    /// relative pose is out of the kernels' range; `None` when the gap does not
    /// decide it.
    fn from_gap(gap: T, args: &Self::Args) -> Option<Self::Answer>;
    /// The answer of the built-in kernel for two built-in shapes at their
    /// poses, in the world frame: a `match` on the two shapes whose every arm
    /// calls [`builtin_in_order`] with the pair's kernel and the shapes in the
    /// pair's order (the arms for a pair in the other order pass them swapped
    /// and say so).
    ///
    /// # Errors
    /// As [`builtin_in_order`]; [`DispatchError::Unsupported`] for a pair
    /// the register block lacks.
    fn builtin(
        x: D::Builtin<'_>,
        pose_x: &D::Pose,
        y: D::Builtin<'_>,
        pose_y: &D::Pose,
        args: Self::Args,
    ) -> Result<Self::Answer, DispatchError>;
    /// The answer for two built-in shapes of types `A` and `B` (in the
    /// pair's kernel order) straight from their world poses, for the pairs a
    /// query answers that way (two circles, a circle and a box in 2D: see
    /// `dispatch.rs`, `WorldFrame`); `None` to take the kernel in the first
    /// shape's frame (the default, and a pair's hand-over). Called first by
    /// [`builtin_in_order`]: for the other pairs the types decide at compile
    /// time, and it costs nothing.
    #[inline(always)]
    fn world<A: Any, B: Any>(
        a: &A,
        pose_a: &D::Pose,
        b: &B,
        pose_b: &D::Pose,
        args: Self::Args,
    ) -> Option<Self::Answer> {
        let _ = (a, pose_a, b, pose_b, args);
        None
    }
    /// Whether [`world`](Self::world) serves the types `A` and `B` (in the
    /// pair's kernel order): a constant for the two types (the default: no
    /// pair).
    #[inline(always)]
    #[must_use]
    fn serves_in_world<A: Any, B: Any>() -> bool {
        false
    }
    /// The answer for a pair in which a shape is a composite (made of parts,
    /// see [`crate::composite`]), with the parts that gave it; `None` when
    /// neither shape is one (the default: no composite in this dimension).
    /// `each` answers the query for two convex pieces (parts, or a part and
    /// the other shape) through the table; the shapes come in the caller's
    /// order, which the table makes canonical.
    #[allow(clippy::type_complexity)] // the recursion, spelled out once
    fn composite(
        a: &D::Shape,
        pose_a: &D::Pose,
        b: &D::Shape,
        pose_b: &D::Pose,
        args: Self::Args,
        each: &mut dyn FnMut(
            &D::Shape,
            &D::Pose,
            &D::Shape,
            &D::Pose,
            Self::Args,
        ) -> Result<Self::Answer, DispatchError>,
    ) -> Option<Result<(Self::Answer, crate::composite::Parts), DispatchError>> {
        let _ = (a, pose_a, b, pose_b, args, each);
        None
    }
    /// The generic fallback, in the world frame (arguments as given, poses as
    /// given); `None` when none applies.
    fn fallback(
        a: &D::Shape,
        pose_a: &D::Pose,
        b: &D::Shape,
        pose_b: &D::Pose,
        args: Self::Args,
    ) -> Option<Self::Answer>;
}

/// A typed boolean kernel: `(a, b, b_in_a) → intersects`.
pub type KernelFn<T, D, A, B> = fn(&A, &B, &<D as Dimension<T>>::Pose) -> bool;
/// A typed contact kernel: `(a, b, b_in_a) → contact in A's frame`.
pub type ContactKernelFn<T, D, A, B, C> = fn(&A, &B, &<D as Dimension<T>>::Pose) -> Option<C>;

/// A user kernel with its argument types erased, and the mirror rule around
/// it: given the two sides in the kernel's order (`swapped` when that is the
/// reverse of the caller's), it checks the poses, places B in A's frame,
/// downcasts the data and answers in the world frame. Monomorphised for the
/// kernel's data types: everything after the order is one function behind
/// the one call through the `Arc` (`user_in_order`).
type Erased<T, D, Q> = Arc<
    dyn Fn(
            &Side<'_, T, D>,
            &Side<'_, T, D>,
            bool,
            <Q as PairQuery<T, D>>::Args,
        ) -> Result<<Q as PairQuery<T, D>>::Answer, DispatchError>
        + Send
        + Sync,
>;

struct UserCell<T: Real, D: Dimension<T>, Q: PairQuery<T, D>> {
    kernel: Erased<T, D, Q>,
    name: &'static str,
    /// The kernel was registered for (B, A): swap the arguments.
    mirrored: bool,
}

impl<T: Real, D: Dimension<T>, Q: PairQuery<T, D>> Clone for UserCell<T, D, Q> {
    fn clone(&self) -> Self {
        Self {
            kernel: self.kernel.clone(),
            name: self.name,
            mirrored: self.mirrored,
        }
    }
}

/// The kernels users registered for one query, indexed by two kinds. Empty
/// (and skipped by one comparison) until a user registers one.
pub struct UserKernels<T: Real, D: Dimension<T>, Q: PairQuery<T, D>> {
    stride: usize,
    cells: Vec<Option<UserCell<T, D, Q>>>,
}

impl<T: Real, D: Dimension<T>, Q: PairQuery<T, D>> Clone for UserKernels<T, D, Q> {
    fn clone(&self) -> Self {
        Self {
            stride: self.stride,
            cells: self.cells.clone(),
        }
    }
}

impl<T: Real, D: Dimension<T>, Q: PairQuery<T, D>> Default for UserKernels<T, D, Q> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Real, D: Dimension<T>, Q: PairQuery<T, D>> UserKernels<T, D, Q> {
    /// No kernel.
    #[must_use]
    pub const fn new() -> Self {
        Self {
            stride: 0,
            cells: Vec::new(),
        }
    }

    /// How many kernels are registered (each unordered pair once).
    #[must_use]
    pub fn len(&self) -> usize {
        self.cells
            .iter()
            .filter(|c| c.as_ref().is_some_and(|c| !c.mirrored))
            .count()
    }

    /// Whether no kernel is registered.
    #[must_use]
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    #[inline]
    fn get(&self, a: ShapeKind, b: ShapeKind) -> Option<&UserCell<T, D, Q>> {
        let (i, j) = (a.index(), b.index());
        if i < self.stride && j < self.stride {
            self.cells[i * self.stride + j].as_ref()
        } else {
            None
        }
    }

    /// Sets the kernel of `(a, b)` and its mirror; `true` when the cell was
    /// empty.
    fn set(
        &mut self,
        a: ShapeKind,
        b: ShapeKind,
        name: &'static str,
        kernel: Erased<T, D, Q>,
    ) -> bool {
        let (i, j) = (a.index(), b.index());
        let kinds = i.max(j) + 1;
        if kinds > self.stride {
            let mut cells = vec![None; kinds * kinds];
            for x in 0..self.stride {
                for y in 0..self.stride {
                    cells[x * kinds + y] = self.cells[x * self.stride + y].take();
                }
            }
            self.stride = kinds;
            self.cells = cells;
        }
        let was_empty = self.cells[i * self.stride + j].is_none();
        self.cells[i * self.stride + j] = Some(UserCell {
            kernel: kernel.clone(),
            name,
            mirrored: false,
        });
        if i != j {
            self.cells[j * self.stride + i] = Some(UserCell {
                kernel,
                name,
                mirrored: true,
            });
        }
        was_empty
    }
}

/// How many queries a table can hold user kernels for (each query names its
/// slot, [`PairQuery::SLOT`]).
pub const QUERY_SLOTS: usize = 8;

/// Which pairs of kinds (indices below 16) have a user kernel for a query:
/// bit `j` of row `i`.
pub(crate) type UserPairs = [u16; 16];

/// No pair has a user kernel.
pub(crate) const NO_USER_PAIRS: UserPairs = [0; 16];

/// The kernels users registered, per query slot; each slot holds a
/// `UserKernels<T, D, Q>` for its query `Q`.
type UserSlots = [Option<Arc<dyn Any + Send + Sync>>; QUERY_SLOTS];

/// The pair dispatch table for dimension `D`. See the [module documentation](self).
///
/// A table is small and cheap to build: the built-in kernels are code (a
/// `match` in the register block), not entries, and user kernels live in
/// per-query slots that stay empty until a user registers one.
pub struct Table<T: Real, D: Dimension<T>> {
    /// Whether built-in pairs are answered by the built-in kernels (else by
    /// the fallbacks, like user kinds).
    builtins: bool,
    /// Whether any slot holds a kernel (one test on the common path).
    any_user: bool,
    /// Per query slot, which pairs of built-in kinds have a user kernel:
    /// bit `j` of row `i` for the kinds of index `i` and `j` (built-in kinds
    /// have indices below 16). Two built-in shapes whose bit is clear take the
    /// built-in path without looking at the slot.
    user_pairs: [UserPairs; QUERY_SLOTS],
    /// How many kernels were registered (for `Debug`).
    registered: usize,
    user: UserSlots,
    dimension: core::marker::PhantomData<fn() -> (T, D)>,
}

impl<T: Real, D: Dimension<T>> Clone for Table<T, D> {
    fn clone(&self) -> Self {
        Self {
            builtins: self.builtins,
            any_user: self.any_user,
            user_pairs: self.user_pairs,
            registered: self.registered,
            user: self.user.clone(),
            dimension: core::marker::PhantomData,
        }
    }
}

impl<T: Real, D: Dimension<T>> core::fmt::Debug for Table<T, D> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct(D::TABLE_NAME)
            .field("builtins", &self.builtins)
            .field("user_kernels", &self.registered)
            .finish()
    }
}

impl<T: Real, D: Dimension<T>> Table<T, D> {
    /// A table with every built-in kernel and no user kernel. Costs nothing
    /// (no allocation): the built-in kernels are code, not entries.
    #[must_use]
    pub const fn with_builtins() -> Self {
        Self {
            builtins: true,
            any_user: false,
            user_pairs: [NO_USER_PAIRS; QUERY_SLOTS],
            registered: 0,
            user: [const { None }; QUERY_SLOTS],
            dimension: core::marker::PhantomData,
        }
    }

    /// A table with no kernel at all: every pair goes to the fallbacks (2D) or
    /// is unsupported (3D), built-in shapes included.
    #[must_use]
    pub const fn empty() -> Self {
        let mut t = Self::with_builtins();
        t.builtins = false;
        t
    }

    /// Turns the built-in kernels on (what `new` does), keeping the user's.
    pub fn register_builtins(&mut self) {
        self.builtins = true;
    }

    /// Whether built-in pairs are answered by the built-in kernels.
    #[must_use]
    pub fn has_builtins(&self) -> bool {
        self.builtins
    }

    /// The kernels users registered for query `Q`, if any.
    #[inline]
    fn user_kernels<Q: PairQuery<T, D>>(&self) -> Option<&UserKernels<T, D, Q>> {
        if !self.any_user {
            return None;
        }
        self.user
            .get(Q::SLOT)?
            .as_deref()?
            .downcast_ref::<UserKernels<T, D, Q>>()
    }

    /// Registers `kernel` for query `Q` and the pair `(kind_a, kind_b)`,
    /// replacing any kernel there (a built-in one included, for this query
    /// only). The same kernel then serves `(kind_b, kind_a)` with the
    /// arguments swapped and the answer flipped. `A` and `B` are the types the
    /// shapes' `as_any()` return for those kinds; the kernel answers in A's
    /// frame, with B placed by `b_in_a`.
    ///
    /// # Panics
    /// When `Q::SLOT` is not below [`QUERY_SLOTS`] or is already taken by
    /// another query: a programming error in the query's definition, caught
    /// the first time a kernel is registered for it (never on user data).
    pub fn register_query<Q, A, B, F>(
        &mut self,
        kind_a: ShapeKind,
        kind_b: ShapeKind,
        name: &'static str,
        kernel: F,
    ) where
        Q: PairQuery<T, D>,
        A: Any,
        B: Any,
        F: Fn(&A, &B, &D::Pose, Q::Args) -> Q::Answer + Send + Sync + 'static,
    {
        let erased: Erased<T, D, Q> = Arc::new(
            move |first: &Side<'_, T, D>, second: &Side<'_, T, D>, swapped: bool, args| {
                user_in_order::<T, D, Q, A, B>(first, second, swapped, args, &kernel)
            },
        );
        assert!(
            Q::SLOT < QUERY_SLOTS,
            "query {} has slot {} of {QUERY_SLOTS}",
            Q::NAME,
            Q::SLOT
        );
        let mut kernels = match &self.user[Q::SLOT] {
            None => UserKernels::<T, D, Q>::new(),
            Some(any) => any
                .downcast_ref::<UserKernels<T, D, Q>>()
                .unwrap_or_else(|| {
                    panic!(
                        "query {} shares slot {} with another query",
                        Q::NAME,
                        Q::SLOT
                    )
                })
                .clone(),
        };
        if kernels.set(kind_a, kind_b, name, erased) {
            self.registered += 1;
        }
        let rows = &mut self.user_pairs[Q::SLOT];
        let (i, j) = (kind_a.index(), kind_b.index());
        if i < rows.len() && j < rows.len() {
            rows[i] |= 1 << j;
            rows[j] |= 1 << i;
        }
        self.user[Q::SLOT] = Some(Arc::new(kernels));
        self.any_user = true;
    }

    /// Registers a boolean and a contact kernel for the pair `(kind_a,
    /// kind_b)` (see [`register_query`](Self::register_query)). The other
    /// queries keep their kernels (built-in, registered, or fallback); a user
    /// kind that registers these two may also want
    /// [`register_closest_points`](Self::register_closest_points), or gets the
    /// GJK fallback for distances.
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
        IntersectsQuery: PairQuery<T, D, Args = (), Answer = bool>,
        ContactQuery: PairQuery<T, D, Args = ()>,
        F: Fn(&A, &B, &D::Pose) -> bool + Send + Sync + 'static,
        G: Fn(&A, &B, &D::Pose) -> <ContactQuery as PairQuery<T, D>>::Answer
            + Send
            + Sync
            + 'static,
    {
        self.register_query::<IntersectsQuery, A, B, _>(
            kind_a,
            kind_b,
            name,
            move |a: &A, b: &B, m: &D::Pose, ()| intersects(a, b, m),
        );
        self.register_query::<ContactQuery, A, B, _>(
            kind_a,
            kind_b,
            name,
            move |a: &A, b: &B, m: &D::Pose, ()| contact(a, b, m),
        );
    }

    /// Registers a closest-points kernel for the pair `(kind_a, kind_b)`
    /// (see [`register_query`](Self::register_query)): `(a, b, b_in_a,
    /// max_distance)` answering in A's frame, `Intersecting` exactly when the
    /// pair's boolean kernel says so.
    pub fn register_closest_points<A, B, F>(
        &mut self,
        kind_a: ShapeKind,
        kind_b: ShapeKind,
        name: &'static str,
        kernel: F,
    ) where
        A: Any,
        B: Any,
        ClosestPointsQuery: PairQuery<T, D, Args = T>,
        F: Fn(&A, &B, &D::Pose, T) -> <ClosestPointsQuery as PairQuery<T, D>>::Answer
            + Send
            + Sync
            + 'static,
    {
        self.register_query::<ClosestPointsQuery, A, B, _>(kind_a, kind_b, name, kernel);
    }

    /// How the table answers the boolean query for a pair of shapes: a kernel
    /// (by name), or a fallback.
    ///
    /// # Errors
    /// [`DispatchError::Unsupported`] when nothing can answer.
    pub fn route(&self, a: &D::Shape, b: &D::Shape) -> Result<crate::Route, DispatchError>
    where
        IntersectsQuery: PairQuery<T, D>,
    {
        self.route_for::<IntersectsQuery>(a, b)
    }

    /// How the table answers query `Q` for a pair of shapes.
    ///
    /// # Errors
    /// [`DispatchError::Unsupported`] when nothing can answer.
    pub fn route_for<Q: PairQuery<T, D>>(
        &self,
        a: &D::Shape,
        b: &D::Shape,
    ) -> Result<crate::Route, DispatchError> {
        let (ka, kb) = (D::kind(a), D::kind(b));
        if let Some(cell) = self.user_kernels::<Q>().and_then(|u| u.get(ka, kb)) {
            return Ok(crate::Route::Kernel {
                name: cell.name,
                mirrored: cell.mirrored,
            });
        }
        if let (Some(x), Some(y), true) = (D::builtin(a), D::builtin(b), self.builtins) {
            let (first, second) = if ka <= kb { (x, y) } else { (y, x) };
            if let Some(name) = D::builtin_name(first, second) {
                return Ok(crate::Route::Kernel {
                    name,
                    mirrored: ka > kb,
                });
            }
        }
        D::fallback_route(a, b).ok_or(DispatchError::Unsupported { a: ka, b: kb })
    }

    /// Answers query `Q` for the two shapes at their poses, in the world frame
    /// (see the [module documentation](self) for the steps).
    ///
    /// # Errors
    /// [`DispatchError::NonFinitePose`] when a pose has a NaN or infinite
    /// number; the query's argument errors;
    /// [`DispatchError::KindMismatch`] when a shape reports a built-in kind
    /// but its `as_any()` is not of that kind's type (or, for a user kernel,
    /// not of the registered type); [`DispatchError::Unsupported`] when no
    /// kernel and no fallback applies.
    #[inline]
    pub fn query<Q: PairQuery<T, D>>(
        &self,
        a: &D::Shape,
        pose_a: &D::Pose,
        b: &D::Shape,
        pose_b: &D::Pose,
        args: Q::Args,
    ) -> Result<Q::Answer, DispatchError> {
        query_with::<T, D, Q>(
            self.builtins,
            &self.user_pairs[Q::SLOT],
            || self.user_kernels::<Q>(),
            a,
            pose_a,
            b,
            pose_b,
            args,
        )
    }

    /// [`query`](Self::query), and the parts that gave the answer when a
    /// shape is a composite (a compound, a chain, a concave polygon, a tile
    /// map: see [`crate::composite`]); [`Parts::NONE`](crate::composite::Parts::NONE)
    /// for other pairs and for answers no part gave ("no contact").
    ///
    /// # Errors
    /// As [`query`](Self::query).
    pub fn query_parts<Q: PairQuery<T, D>>(
        &self,
        a: &D::Shape,
        pose_a: &D::Pose,
        b: &D::Shape,
        pose_b: &D::Pose,
        args: Q::Args,
    ) -> Result<(Q::Answer, crate::composite::Parts), DispatchError> {
        if let Err(e) = Q::check_args(&args) {
            return Err(argument_error::<T, D>(pose_a, pose_b, e));
        }
        let ((ka, da), (kb, db)) = (D::kind_and_data(a), D::kind_and_data(b));
        let kernels = self.user_kernels::<Q>();
        if kernels.and_then(|u| u.get(ka, kb)).is_none() {
            let side = |shape, pose, kind, data| Side {
                shape,
                pose,
                kind,
                data,
            };
            if let Some(found) = composite_pair::<T, D, Q>(
                (self.builtins, &self.user_pairs[Q::SLOT], kernels),
                &side(a, pose_a, ka, da),
                &side(b, pose_b, kb, db),
                args,
            ) {
                return found;
            }
        }
        self.query::<Q>(a, pose_a, b, pose_b, args)
            .map(|answer| (answer, crate::composite::Parts::NONE))
    }

    /// [`query`](Self::query) for two built-in shapes given by their types
    /// ([`ShapeRef`](shape::ShapeRef)s): the same answer, without the calls
    /// through the shapes' vtables that find out what they are. For code that
    /// keeps built-in shapes by value (the World does).
    ///
    /// # Errors
    /// As [`query`](Self::query).
    #[inline]
    pub fn query_builtin<'s, Q: PairQuery<T, D>>(
        &self,
        x: D::Builtin<'s>,
        pose_x: &'s D::Pose,
        y: D::Builtin<'s>,
        pose_y: &'s D::Pose,
        args: Q::Args,
    ) -> Result<Q::Answer, DispatchError> {
        query_with_refs::<T, D, Q>(
            (self.builtins, &self.user_pairs[Q::SLOT], || {
                self.user_kernels::<Q>()
            }),
            (D::builtin_shape(x), pose_x, Some(x)),
            (D::builtin_shape(y), pose_y, Some(y)),
            args,
        )
    }

    /// Whether the two shapes, placed at their poses, intersect (closed sets:
    /// touching counts).
    ///
    /// # Errors
    /// As [`query`](Self::query).
    #[inline]
    pub fn intersects(
        &self,
        a: &D::Shape,
        pose_a: &D::Pose,
        b: &D::Shape,
        pose_b: &D::Pose,
    ) -> Result<bool, DispatchError>
    where
        IntersectsQuery: PairQuery<T, D, Args = (), Answer = bool>,
    {
        self.query::<IntersectsQuery>(a, pose_a, b, pose_b, ())
    }

    /// The contact of the two shapes in world space (normal from `a` to `b`),
    /// or `None` when they do not intersect. `Some` exactly when
    /// [`intersects`](Self::intersects) is `true`.
    ///
    /// # Errors
    /// As [`query`](Self::query).
    #[inline]
    pub fn contact(
        &self,
        a: &D::Shape,
        pose_a: &D::Pose,
        b: &D::Shape,
        pose_b: &D::Pose,
    ) -> Result<<ContactQuery as PairQuery<T, D>>::Answer, DispatchError>
    where
        ContactQuery: PairQuery<T, D, Args = ()>,
    {
        self.query::<ContactQuery>(a, pose_a, b, pose_b, ())
    }

    /// Whether the shapes intersect, or their closest points (world frame,
    /// normal from `a` to `b`) when they are at most `max_distance` apart, or
    /// [`Farther`](crate::ClosestPoints::Farther). `max_distance` may be
    /// `+∞`.
    ///
    /// # Errors
    /// As [`query`](Self::query); [`DispatchError::InvalidMaxDistance`] for a
    /// NaN or negative `max_distance`.
    #[inline]
    pub fn closest_points(
        &self,
        a: &D::Shape,
        pose_a: &D::Pose,
        b: &D::Shape,
        pose_b: &D::Pose,
        max_distance: T,
    ) -> Result<<ClosestPointsQuery as PairQuery<T, D>>::Answer, DispatchError>
    where
        ClosestPointsQuery: PairQuery<T, D, Args = T>,
    {
        self.query::<ClosestPointsQuery>(a, pose_a, b, pose_b, max_distance)
    }

    /// The first time in `[0, args.max_toi]` at which the shapes, moving at
    /// `args.vel_a` and `args.vel_b`, touch (world frame; see
    /// [`crate::cast_shapes`] for the contract and an example).
    ///
    /// # Errors
    /// As [`query`](Self::query); [`DispatchError::NonFiniteVelocity`] and
    /// [`DispatchError::InvalidMaxToi`] for bad arguments.
    #[inline]
    pub fn cast_shapes(
        &self,
        a: &D::Shape,
        pose_a: &D::Pose,
        b: &D::Shape,
        pose_b: &D::Pose,
        args: <ShapeCastQuery as PairQuery<T, D>>::Args,
    ) -> Result<<ShapeCastQuery as PairQuery<T, D>>::Answer, DispatchError>
    where
        ShapeCastQuery: PairQuery<T, D>,
    {
        self.query::<ShapeCastQuery>(a, pose_a, b, pose_b, args)
    }

    /// The contact manifold of the shapes within `prediction` (world frame;
    /// see [`crate::contact_manifold`] for the contract and an example).
    ///
    /// # Errors
    /// As [`query`](Self::query); [`DispatchError::InvalidPrediction`] for a
    /// NaN or negative `prediction`.
    #[inline]
    pub fn contact_manifold(
        &self,
        a: &D::Shape,
        pose_a: &D::Pose,
        b: &D::Shape,
        pose_b: &D::Pose,
        prediction: T,
    ) -> Result<<ManifoldQuery as PairQuery<T, D>>::Answer, DispatchError>
    where
        ManifoldQuery: PairQuery<T, D, Args = T>,
    {
        self.query::<ManifoldQuery>(a, pose_a, b, pose_b, prediction)
    }

    /// A shared table built once per precision and dimension by `build`. The
    /// free functions do not use it (they call the built-in kernels directly,
    /// with no lock); it is there for code that wants a `&'static` table.
    #[cfg(feature = "std")]
    pub(crate) fn shared_with(build: fn() -> Self) -> &'static Self {
        type Registry = RwLock<Vec<(core::any::TypeId, &'static (dyn Any + Send + Sync))>>;
        static TABLES: OnceLock<Registry> = OnceLock::new();
        let registry = TABLES.get_or_init(|| RwLock::new(Vec::new()));
        let id = core::any::TypeId::of::<Self>();
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
        let table: &'static Self = alloc::boxed::Box::leak(alloc::boxed::Box::new(build()));
        list.push((id, table));
        table
    }
}

/// [`Table::query`] given the table's parts: whether built-in kernels are on,
/// which built-in pairs have user kernels, and the user kernels for the query
/// (asked for only when needed). The free functions call it with
/// `(true, &NO_USER_PAIRS, || None)`: the built-in kernels and the fallbacks,
/// with nothing to look up.
///
/// Two built-in shapes with no user kernel for their pair (the common case)
/// take [`builtin_pair`]: two calls through the vtables (`as_builtin`), a
/// `match`, no downcast. Everything else goes to [`general`].
#[inline(always)]
#[allow(clippy::too_many_arguments)] // the table's three parts, so that no table is needed
pub(crate) fn query_with<'u, T: Real, D: Dimension<T>, Q: PairQuery<T, D>>(
    builtins: bool,
    user_pairs: &UserPairs,
    user: impl FnOnce() -> Option<&'u UserKernels<T, D, Q>>,
    a: &D::Shape,
    pose_a: &D::Pose,
    b: &D::Shape,
    pose_b: &D::Pose,
    args: Q::Args,
) -> Result<Q::Answer, DispatchError> {
    let (ra, rb) = (D::builtin(a), D::builtin(b));
    query_with_refs::<T, D, Q>(
        (builtins, user_pairs, user),
        (a, pose_a, ra),
        (b, pose_b, rb),
        args,
    )
}

/// [`query_with`] with the shapes' [`Dimension::builtin`] already known (the
/// World knows them from how it stores its shapes).
#[inline(always)]
#[allow(clippy::type_complexity)] // the table's three parts, and two sides
pub(crate) fn query_with_refs<'u, 's, T: Real, D: Dimension<T>, Q: PairQuery<T, D>>(
    (builtins, user_pairs, user): (
        bool,
        &UserPairs,
        impl FnOnce() -> Option<&'u UserKernels<T, D, Q>>,
    ),
    (a, pose_a, ra): (&'s D::Shape, &'s D::Pose, Option<D::Builtin<'s>>),
    (b, pose_b, rb): (&'s D::Shape, &'s D::Pose, Option<D::Builtin<'s>>),
    args: Q::Args,
) -> Result<Q::Answer, DispatchError> {
    if let Err(e) = Q::check_args(&args) {
        return Err(argument_error::<T, D>(pose_a, pose_b, e));
    }
    if let (Some(x), Some(y), true) = (ra, rb, builtins) {
        let (i, j) = (D::builtin_kind(x).index(), D::builtin_kind(y).index());
        let user_pair =
            i >= user_pairs.len() || j >= user_pairs.len() || (user_pairs[i] >> j) & 1 == 1;
        if !user_pair {
            return builtin_pair::<T, D, Q>(x, pose_a, y, pose_b, args);
        }
    }
    // The sides' parts one by one: a tuple would be built in memory before
    // the test above, on the common path too.
    not_builtin_pair::<T, D, Q>(
        builtins, user, a, pose_a, ra, b, pose_b, rb, args, user_pairs,
    )
}

/// [`query_with`] for every pair but two built-in shapes without a user
/// kernel: a user kernel, user kinds, fallbacks (not inlined: the common path
/// stays small).
#[inline(never)]
#[allow(clippy::too_many_arguments)] // see the caller
fn not_builtin_pair<'u, 's, T: Real, D: Dimension<T>, Q: PairQuery<T, D>>(
    builtins: bool,
    user: impl FnOnce() -> Option<&'u UserKernels<T, D, Q>>,
    a: &'s D::Shape,
    pose_a: &'s D::Pose,
    ra: Option<D::Builtin<'s>>,
    b: &'s D::Shape,
    pose_b: &'s D::Pose,
    rb: Option<D::Builtin<'s>>,
    args: Q::Args,
    user_pairs: &UserPairs,
) -> Result<Q::Answer, DispatchError> {
    let ((ka, da), (kb, db)) = (D::kind_and_data(a), D::kind_and_data(b));
    let sa = Side {
        shape: a,
        pose: pose_a,
        kind: ka,
        data: da,
    };
    let sb = Side {
        shape: b,
        pose: pose_b,
        kind: kb,
        data: db,
    };
    let kernels = user();
    if let Some(cell) = kernels.and_then(|u| u.get(ka, kb)) {
        return user_pair::<T, D, Q>(cell, &sa, &sb, args);
    }
    general::<T, D, Q>((builtins, user_pairs, kernels), (&sa, ra), (&sb, rb), args)
}

/// A pair in which a shape is a composite: [`PairQuery::composite`] with the
/// shapes in the canonical order (so that the answer is exactly symmetric)
/// and the table answering each pair of pieces; `None` when neither shape is
/// a composite. Not inlined: it keeps the user kernels' path small. The
/// sides by reference: the callers' copies were a measurable part of a
/// composite query.
#[inline(never)]
fn composite_pair<T: Real, D: Dimension<T>, Q: PairQuery<T, D>>(
    (builtins, user_pairs, kernels): (bool, &UserPairs, Option<&UserKernels<T, D, Q>>),
    sa: &Side<'_, T, D>,
    sb: &Side<'_, T, D>,
    args: Q::Args,
) -> Option<Result<(Q::Answer, crate::composite::Parts), DispatchError>> {
    let swapped = match sa.kind.cmp(&sb.kind) {
        Ordering::Equal => same_kind_swapped(sa, sb),
        o => o == Ordering::Greater,
    };
    let (first, second) = if swapped { (sb, sa) } else { (sa, sb) };
    let mut each = |a: &D::Shape, pa: &D::Pose, b: &D::Shape, pb: &D::Pose, args: Q::Args| {
        piece_query::<T, D, Q>((builtins, user_pairs, kernels), a, pa, b, pb, args)
    };
    let found = Q::composite(
        first.shape,
        first.pose,
        second.shape,
        second.pose,
        Q::swapped_args(args, swapped),
        &mut each,
    )?;
    // Checked here rather than first: whether a shape is a composite is
    // known only now, and every other pair checks its poses on its own path.
    if !(pose_is_finite::<T, D>(sa.pose) && pose_is_finite::<T, D>(sb.pose)) {
        return Some(Err(DispatchError::NonFinitePose));
    }
    Some(found.map(|(answer, parts)| {
        if swapped {
            (Q::flipped(&answer), parts.flipped())
        } else {
            (answer, parts)
        }
    }))
}

/// The query for two pieces of a composite pair, through the table (one
/// function, so that the recursion instantiates the generic path once).
fn piece_query<T: Real, D: Dimension<T>, Q: PairQuery<T, D>>(
    (builtins, user_pairs, kernels): (bool, &UserPairs, Option<&UserKernels<T, D, Q>>),
    a: &D::Shape,
    pose_a: &D::Pose,
    b: &D::Shape,
    pose_b: &D::Pose,
    args: Q::Args,
) -> Result<Q::Answer, DispatchError> {
    query_with::<T, D, Q>(
        builtins,
        user_pairs,
        move || kernels,
        a,
        pose_a,
        b,
        pose_b,
        args,
    )
}

/// A pair with a user kernel: the sides in the kernel's order, then the
/// kernel with the mirror rule around it (`user_in_order`, behind the
/// cell's `Arc`). A kernel registered for (B, A) takes them swapped; two
/// shapes of one kind go in the canonical order, picked by value (the
/// references, with conditional moves) rather than by a branch, which random
/// pairs would mispredict half of the time.
#[inline]
fn user_pair<T: Real, D: Dimension<T>, Q: PairQuery<T, D>>(
    cell: &UserCell<T, D, Q>,
    sa: &Side<'_, T, D>,
    sb: &Side<'_, T, D>,
    args: Q::Args,
) -> Result<Q::Answer, DispatchError> {
    let swapped = cell.mirrored | (sa.kind == sb.kind && same_kind_swapped(sa, sb));
    let [first, second] = select_pair(swapped, [sa, sb]);
    (cell.kernel)(first, second, swapped, args)
}

/// The mirror rule around a user kernel of data types `A` and `B`, with the
/// sides in the kernel's order (`swapped` when that is the reverse of the
/// caller's): both poses finite, B's effective pose in A's (relative poses
/// out of the kernels' range go to the bounding boxes first), the data
/// downcast, the kernel in A's frame, the answer mapped to the world and
/// flipped back when swapped. The poses are checked one by one: a user
/// shape's effective pose may drop part of its pose.
#[inline(always)]
fn user_in_order<T, D, Q, A, B>(
    first: &Side<'_, T, D>,
    second: &Side<'_, T, D>,
    swapped: bool,
    args: Q::Args,
    kernel: &impl Fn(&A, &B, &D::Pose, Q::Args) -> Q::Answer,
) -> Result<Q::Answer, DispatchError>
where
    T: Real,
    D: Dimension<T>,
    Q: PairQuery<T, D>,
    A: Any,
    B: Any,
{
    if !(pose_is_finite::<T, D>(first.pose) & pose_is_finite::<T, D>(second.pose)) {
        return Err(DispatchError::NonFinitePose);
    }
    let frame = first.effective_pose();
    let m = D::inv_mul(&frame, &second.effective_pose());
    if !pose_in_range::<T, D>(&m) {
        if let Some(answer) = beyond_range::<T, D, Q>(&m, *first, *second, &args)? {
            return Ok(Q::flipped_if(answer, swapped));
        }
    }
    let (Some(a), Some(b)) = (
        first.data.downcast_ref::<A>(),
        second.data.downcast_ref::<B>(),
    ) else {
        // The shape whose data is not of the registered type (the first
        // when both are).
        let kind = if first.data.is::<A>() {
            second.kind
        } else {
            first.kind
        };
        return Err(DispatchError::KindMismatch { kind });
    };
    let local = kernel(a, b, &m, Q::local_args(args, &frame, swapped));
    Ok(Q::in_world(local, &frame, &args, swapped))
}

/// Whether two shapes of the same kind are in the reverse of the canonical
/// order (by pose, then the address of their data).
#[inline]
fn same_kind_swapped<T: Real, D: Dimension<T>>(a: &Side<'_, T, D>, b: &Side<'_, T, D>) -> bool {
    canonical_greater::<T, D>(a.pose, address(a.data), b.pose, address(b.data))
}

/// The error for arguments the query refuses, unless a pose is not finite
/// (which is reported first, as when the arguments are valid).
#[cold]
#[inline(never)]
fn argument_error<T: Real, D: Dimension<T>>(
    pose_a: &D::Pose,
    pose_b: &D::Pose,
    e: DispatchError,
) -> DispatchError {
    if pose_is_finite::<T, D>(pose_a) && pose_is_finite::<T, D>(pose_b) {
        e
    } else {
        DispatchError::NonFinitePose
    }
}

/// One side of a query: the shape, its pose, and how its geometry is placed.
struct Side<'a, T: Real, D: Dimension<T>> {
    shape: &'a D::Shape,
    pose: &'a D::Pose,
    kind: ShapeKind,
    /// The shape's `as_any()`.
    data: &'a dyn Any,
}

impl<T: Real, D: Dimension<T>> Clone for Side<'_, T, D> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T: Real, D: Dimension<T>> Copy for Side<'_, T, D> {}

impl<T: Real, D: Dimension<T>> Side<'_, T, D> {
    #[inline]
    fn effective_pose(&self) -> D::Pose {
        if D::is_builtin_kind(self.kind) {
            D::builtin_effective_pose(self.kind, self.pose)
        } else {
            D::effective_pose(self.shape, self.pose)
        }
    }
}

/// Two built-in shapes through the built-in kernels:
/// [`PairQuery::builtin`]'s `match` picks the pair's arm, which knows the
/// kinds and their order at compile time and calls [`builtin_in_order`].
#[inline(always)]
fn builtin_pair<'s, T: Real, D: Dimension<T>, Q: PairQuery<T, D>>(
    x: D::Builtin<'s>,
    pose_x: &'s D::Pose,
    y: D::Builtin<'s>,
    pose_y: &'s D::Pose,
    args: Q::Args,
) -> Result<Q::Answer, DispatchError> {
    Q::builtin(x, pose_x, y, pose_y, args)
}

/// `[a, b]`, or `[b, a]` when `swap`, as a selection rather than a branch.
#[inline(always)]
fn select_pair<X: Copy>(swap: bool, [a, b]: [X; 2]) -> [X; 2] {
    let pair = [a, b];
    [pair[usize::from(swap)], pair[usize::from(!swap)]]
}

/// [`DispatchError::Unsupported`] for two kinds, in canonical order.
#[cold]
#[inline(never)]
pub(crate) fn unsupported(a: ShapeKind, b: ShapeKind) -> DispatchError {
    DispatchError::Unsupported {
        a: a.min(b),
        b: a.max(b),
    }
}

/// The mirror rule for two built-in shapes, typed: what each arm of the
/// register blocks' `match` runs (inlined into it). `a` and `b` are in the
/// order of the pair's kernel, `reversed` when that is the reverse of the
/// caller's (a constant of the arm); `variants` are the
/// [`ShapeRef`](shape::ShapeRef) variants of their kinds, so the kinds are
/// known at compile time. Two shapes of the same kind are put in the
/// canonical order here (by pose, then address); then the arm jumps to one
/// function per pair and query (`builtin_placed`, not inlined): B's
/// effective pose in A's, `kernel` in A's frame, the answer mapped to the
/// world and flipped back when the order was swapped.
///
/// The canonical order of two shapes of the same kind has no data-dependent
/// branch: random pairs come in either order half of the time, and a branch
/// on it would be mispredicted as often. The first pose numbers decide
/// almost always, and the two sides are picked by the result as values
/// (conditional moves of the references); equal first numbers (or a NaN)
/// take a rarely taken branch to a cold function that answers the whole
/// query (`builtin_tied`), so that the common path makes no call and saves
/// no register. The references are picked *before* the call to
/// `builtin_placed`, which only sees the two it is given: inlined, the
/// compiler would load the numbers of both poses and pick the numbers
/// instead, which x86 does with a branch for floating-point values.
///
/// The poses are not checked one by one: a NaN or an infinity in either
/// effective pose always reaches the relative pose `m = A⁻¹·B` (every number
/// of `m` is a sum of products of a number of A with one of B; NaN spreads
/// through sums and products, `∞·0` and `∞ − ∞` are NaN, and an infinity not
/// cancelled stays one), so the range check on `m`, needed anyway, sends
/// every non-finite pose to a cold path that checks the poses and reports
/// [`DispatchError::NonFinitePose`]. (The rotation an axis-aligned box drops
/// is kept in its effective pose's translation as a factor `1 + 0·rotation`,
/// exactly 1 unless the rotation is not finite: see
/// [`Dimension::builtin_effective_pose`].)
///
/// # Errors
/// [`DispatchError::NonFinitePose`] for a pose with a NaN or an infinity, or
/// a relative pose that overflows when the bounding boxes cannot decide.
#[inline(always)]
pub fn builtin_in_order<'s, T, D, Q, A, B>(
    (a, pose_x): (&'s A, &'s D::Pose),
    (b, pose_y): (&'s B, &'s D::Pose),
    reversed: bool,
    args: Q::Args,
    variants: (
        impl Fn(&'s A) -> D::Builtin<'s>,
        impl Fn(&'s B) -> D::Builtin<'s>,
    ),
    kernel: impl FnOnce(&A, &B, &D::Pose, Q::Args) -> Q::Answer,
) -> Result<Q::Answer, DispatchError>
where
    T: Real,
    D: Dimension<T>,
    Q: PairQuery<T, D>,
    A: Any,
    B: Any,
{
    // An answer the same from either side needs no record of the order.
    let reversed = reversed && !Q::SYMMETRIC;
    if Q::serves_in_world::<A, B>() {
        // A pair answered from the world poses (decided by the types, at
        // compile time): in a function of its own, so that the other arms
        // stay jumps to `builtin_placed` and save no register.
        return builtin_world::<T, D, Q, A, B>(
            (a, pose_x),
            (b, pose_y),
            reversed,
            args,
            variants,
            kernel,
        );
    }
    builtin_ordered::<T, D, Q, A, B>((a, pose_x), (b, pose_y), reversed, args, variants, kernel)
}

/// [`builtin_in_order`] for the pairs [`PairQuery::world`] answers: its
/// answer, or on hand-over the general way.
#[inline(never)]
fn builtin_world<'s, T, D, Q, A, B>(
    (a, pose_x): (&'s A, &'s D::Pose),
    (b, pose_y): (&'s B, &'s D::Pose),
    reversed: bool,
    args: Q::Args,
    variants: (
        impl Fn(&'s A) -> D::Builtin<'s>,
        impl Fn(&'s B) -> D::Builtin<'s>,
    ),
    kernel: impl FnOnce(&A, &B, &D::Pose, Q::Args) -> Q::Answer,
) -> Result<Q::Answer, DispatchError>
where
    T: Real,
    D: Dimension<T>,
    Q: PairQuery<T, D>,
    A: Any,
    B: Any,
{
    if let Some(answer) = Q::world(a, pose_x, b, pose_y, Q::swapped_args(args, reversed)) {
        return Ok(Q::flipped_if(answer, reversed));
    }
    builtin_handed_over::<T, D, Q, A, B>((a, pose_x), (b, pose_y), reversed, args, variants, kernel)
}

/// [`builtin_world`]'s hand-over (bad or out-of-range poses, the degenerate
/// cases): rare, out of line so that the world path stays small.
#[cold]
#[inline(never)]
fn builtin_handed_over<'s, T, D, Q, A, B>(
    (a, pose_x): (&'s A, &'s D::Pose),
    (b, pose_y): (&'s B, &'s D::Pose),
    reversed: bool,
    args: Q::Args,
    variants: (
        impl Fn(&'s A) -> D::Builtin<'s>,
        impl Fn(&'s B) -> D::Builtin<'s>,
    ),
    kernel: impl FnOnce(&A, &B, &D::Pose, Q::Args) -> Q::Answer,
) -> Result<Q::Answer, DispatchError>
where
    T: Real,
    D: Dimension<T>,
    Q: PairQuery<T, D>,
    A: Any,
    B: Any,
{
    builtin_ordered::<T, D, Q, A, B>((a, pose_x), (b, pose_y), reversed, args, variants, kernel)
}

/// The rest of [`builtin_in_order`] (`reversed` already cleared for a
/// symmetric query): two kinds in the arm's order, or two shapes of one kind
/// put in the canonical order, then `builtin_placed`.
#[inline(always)]
fn builtin_ordered<'s, T, D, Q, A, B>(
    (a, pose_x): (&'s A, &'s D::Pose),
    (b, pose_y): (&'s B, &'s D::Pose),
    reversed: bool,
    args: Q::Args,
    variants: (
        impl Fn(&'s A) -> D::Builtin<'s>,
        impl Fn(&'s B) -> D::Builtin<'s>,
    ),
    kernel: impl FnOnce(&A, &B, &D::Pose, Q::Args) -> Q::Answer,
) -> Result<Q::Answer, DispatchError>
where
    T: Real,
    D: Dimension<T>,
    Q: PairQuery<T, D>,
    A: Any,
    B: Any,
{
    let (ka, kb) = (
        D::builtin_kind(variants.0(a)),
        D::builtin_kind(variants.1(b)),
    );
    if ka != kb {
        // Two different kinds: the arm's order is the canonical one.
        return builtin_placed::<T, D, Q, A, B>(
            reversed,
            (a, pose_x),
            (b, pose_y),
            args,
            variants,
            kernel,
        );
    }
    let (x, y) = (
        D::pose_numbers(pose_x).as_ref()[0],
        D::pose_numbers(pose_y).as_ref()[0],
    );
    if x.partial_cmp(&y).is_none_or(Ordering::is_eq) {
        // Equal first numbers (or a NaN): the rest of the order, in a cold
        // function that answers the whole query (no call on the common path,
        // so that it saves no register).
        return builtin_tied::<T, D, Q, A, B>(
            (a, pose_x),
            (b, pose_y),
            reversed,
            args,
            variants,
            kernel,
        );
    }
    let swap = x > y;
    let (a, b) = swap_if_same_type(swap, a, b);
    let [pose_a, pose_b] = select_pair(swap, [pose_x, pose_y]);
    builtin_placed::<T, D, Q, A, B>(
        reversed ^ (swap && !Q::SYMMETRIC),
        (a, pose_a),
        (b, pose_b),
        args,
        variants,
        kernel,
    )
}

/// [`builtin_in_order`] for two shapes of the same kind whose first pose
/// numbers are equal (or NaN): the whole canonical order
/// (`canonical_greater`), then the query. Rarely called: shapes at the same
/// first coordinate.
#[cold]
#[inline(never)]
fn builtin_tied<'s, T, D, Q, A, B>(
    (a, pose_x): (&'s A, &'s D::Pose),
    (b, pose_y): (&'s B, &'s D::Pose),
    reversed: bool,
    args: Q::Args,
    variants: (
        impl Fn(&'s A) -> D::Builtin<'s>,
        impl Fn(&'s B) -> D::Builtin<'s>,
    ),
    kernel: impl FnOnce(&A, &B, &D::Pose, Q::Args) -> Q::Answer,
) -> Result<Q::Answer, DispatchError>
where
    T: Real,
    D: Dimension<T>,
    Q: PairQuery<T, D>,
    A: Any,
    B: Any,
{
    let swap = canonical_greater::<T, D>(pose_x, thin_address(a), pose_y, thin_address(b));
    let (a, b) = swap_if_same_type(swap, a, b);
    let [pose_a, pose_b] = select_pair(swap, [pose_x, pose_y]);
    builtin_placed::<T, D, Q, A, B>(
        reversed ^ swap,
        (a, pose_a),
        (b, pose_b),
        args,
        variants,
        kernel,
    )
}

/// The rest of [`builtin_in_order`] once the two shapes are in canonical
/// order (`swapped` when that is the reverse of the caller's): B's effective
/// pose in A's, the range check, the kernel, the answer in the world.
#[inline(never)]
fn builtin_placed<'s, T, D, Q, A, B>(
    swapped: bool,
    (a, pose_a): (&'s A, &'s D::Pose),
    (b, pose_b): (&'s B, &'s D::Pose),
    args: Q::Args,
    variants: (
        impl Fn(&'s A) -> D::Builtin<'s>,
        impl Fn(&'s B) -> D::Builtin<'s>,
    ),
    kernel: impl FnOnce(&A, &B, &D::Pose, Q::Args) -> Q::Answer,
) -> Result<Q::Answer, DispatchError>
where
    T: Real,
    D: Dimension<T>,
    Q: PairQuery<T, D>,
    A: Any,
    B: Any,
{
    let (ka, kb) = (
        D::builtin_kind(variants.0(a)),
        D::builtin_kind(variants.1(b)),
    );
    let frame = D::builtin_effective_pose(ka, pose_a);
    let m = D::inv_mul(&frame, &D::builtin_effective_pose(kb, pose_b));
    if !pose_in_range::<T, D>(&m) {
        // The whole rest in a cold function: no register of the common path
        // has to survive a call, so the common path saves none.
        return builtin_out_of_range::<T, D, Q, A, B>(
            (m, frame, swapped, args),
            ((variants.0)(a), a, pose_a),
            ((variants.1)(b), b, pose_b),
            kernel,
        );
    }
    Ok(answer_in_world::<T, D, Q, A, B>(
        (a, b, &m, &frame, swapped, args),
        kernel,
    ))
}

/// The kernel's answer for `b_in_a = m` in the frame `frame`, mapped to the
/// world and flipped back when `swapped`.
#[inline(always)]
fn answer_in_world<T, D, Q, A, B>(
    (a, b, m, frame, swapped, args): (&A, &B, &D::Pose, &D::Pose, bool, Q::Args),
    kernel: impl FnOnce(&A, &B, &D::Pose, Q::Args) -> Q::Answer,
) -> Q::Answer
where
    T: Real,
    D: Dimension<T>,
    Q: PairQuery<T, D>,
{
    let local = kernel(a, b, m, Q::local_args(args, frame, swapped));
    Q::in_world(local, frame, &args, swapped)
}

/// `(a, b)`, or `(b, a)` when `swap` and `A` and `B` are one type (two
/// shapes of the same kind), picked as values.
#[inline(always)]
fn swap_if_same_type<'s, A: Any, B: Any>(swap: bool, a: &'s A, b: &'s B) -> (&'s A, &'s B) {
    // With the types known, both downcasts are decided at compile time.
    let (b_as_a, a_as_b) = (
        (b as &dyn Any).downcast_ref::<A>(),
        (a as &dyn Any).downcast_ref::<B>(),
    );
    match (b_as_a, a_as_b) {
        (Some(b_as_a), Some(a_as_b)) => {
            let ([first, _], [second, _]) = (
                select_pair(swap, [a, b_as_a]),
                select_pair(swap, [b, a_as_b]),
            );
            (first, second)
        }
        _ => (a, b),
    }
}

/// The address of a shape's data, for the canonical order.
#[inline(always)]
fn thin_address<A>(a: &A) -> usize {
    core::ptr::from_ref(a) as usize
}

/// [`builtin_in_order`] for a relative pose `m` out of the kernels' range,
/// as [`beyond_range`] for two built-in shapes whose poses are not yet
/// checked: a pose with a NaN or an infinity is
/// [`DispatchError::NonFinitePose`] first; then the bounding boxes' gap, or
/// the kernel when the gap does not decide and `m` is finite.
#[cold]
#[inline(never)]
fn builtin_out_of_range<T, D, Q, A, B>(
    (m, frame, swapped, args): (D::Pose, D::Pose, bool, Q::Args),
    (x, a, pose_a): (D::Builtin<'_>, &A, &D::Pose),
    (y, b, pose_b): (D::Builtin<'_>, &B, &D::Pose),
    kernel: impl FnOnce(&A, &B, &D::Pose, Q::Args) -> Q::Answer,
) -> Result<Q::Answer, DispatchError>
where
    T: Real,
    D: Dimension<T>,
    Q: PairQuery<T, D>,
{
    if !(pose_is_finite::<T, D>(pose_a) && pose_is_finite::<T, D>(pose_b)) {
        return Err(DispatchError::NonFinitePose);
    }
    let gap = D::builtin_bounds_gap(x, pose_a, y, pose_b);
    if let Some(answer) = Q::from_gap(gap, &args) {
        Ok(Q::flipped_if(answer, swapped))
    } else if !pose_is_finite::<T, D>(&m) {
        Err(DispatchError::NonFinitePose)
    } else {
        Ok(answer_in_world::<T, D, Q, A, B>(
            (a, b, &m, &frame, swapped, args),
            kernel,
        ))
    }
}

/// The answer for a relative pose `m` outside the kernels' range (a number
/// above `√MAX`: shapes near opposite ends of the float range, or `∞` when the
/// difference of two finite poses overflowed): the bounding boxes' gap decides
/// when it can (`Ok(Some)`, in the first shape's order); else, when `m` is not
/// finite, there is no answer (`Err(NonFinitePose)`); else the kernel answers
/// (`Ok(None)`).
#[cold]
fn beyond_range<T: Real, D: Dimension<T>, Q: PairQuery<T, D>>(
    m: &D::Pose,
    first: Side<'_, T, D>,
    second: Side<'_, T, D>,
    args: &Q::Args,
) -> Result<Option<Q::Answer>, DispatchError> {
    let gap = D::bounds_gap(first.shape, first.pose, second.shape, second.pose);
    if let Some(answer) = Q::from_gap(gap, args) {
        Ok(Some(answer))
    } else if !pose_is_finite::<T, D>(m) {
        Err(DispatchError::NonFinitePose)
    } else {
        Ok(None)
    }
}

/// Every other case: a user kernel, built-in kernels turned off, user kinds,
/// fallbacks.
fn general<'s, T: Real, D: Dimension<T>, Q: PairQuery<T, D>>(
    (builtins, user_pairs, kernels): (bool, &UserPairs, Option<&UserKernels<T, D, Q>>),
    (sa, ra): (&Side<'s, T, D>, Option<D::Builtin<'s>>),
    (sb, rb): (&Side<'s, T, D>, Option<D::Builtin<'s>>),
    args: Q::Args,
) -> Result<Q::Answer, DispatchError> {
    if let Some(answer) = composite_pair::<T, D, Q>((builtins, user_pairs, kernels), sa, sb, args) {
        return answer.map(|(answer, _)| answer);
    }
    let (pose_a, pose_b, ka, kb) = (sa.pose, sb.pose, sa.kind, sb.kind);
    if !(pose_is_finite::<T, D>(pose_a) && pose_is_finite::<T, D>(pose_b)) {
        return Err(DispatchError::NonFinitePose);
    }
    // A shape that reports a built-in kind must carry that kind's type.
    for (r, k) in [(ra.is_some(), ka), (rb.is_some(), kb)] {
        if !r && D::is_builtin_kind(k) {
            return Err(DispatchError::KindMismatch { kind: k });
        }
    }
    if let (Some(x), Some(y), true) = (ra, rb, builtins) {
        return builtin_pair::<T, D, Q>(x, pose_a, y, pose_b, args);
    }
    // A fallback, in a canonical order so that it is exactly symmetric. It
    // works in the world frame; the order alone is what makes it symmetric.
    let swapped = match ka.cmp(&kb) {
        Ordering::Equal => same_kind_swapped(sa, sb),
        o => o == Ordering::Greater,
    };
    let (first, second) = if swapped { (sb, sa) } else { (sa, sb) };
    if D::fallback_route(first.shape, second.shape).is_none() {
        return Err(DispatchError::Unsupported { a: ka, b: kb });
    }
    let m = D::inv_mul(&first.effective_pose(), &second.effective_pose());
    let answer = match pose_in_range::<T, D>(&m) {
        true => None,
        false => beyond_range::<T, D, Q>(&m, *first, *second, &args)?,
    };
    let answer = match answer {
        Some(a) => a,
        None => Q::fallback(
            first.shape,
            first.pose,
            second.shape,
            second.pose,
            Q::swapped_args(args, swapped),
        )
        .ok_or(DispatchError::Unsupported { a: ka, b: kb })?,
    };
    Ok(if swapped { Q::flipped(&answer) } else { answer })
}

#[inline]
fn address(s: &dyn Any) -> usize {
    (s as *const dyn Any).cast::<()>() as usize
}

/// Whether every number of the pose is finite, with no branch per number
/// (`&` rather than `&&`; NaN compares false).
#[inline]
pub(crate) fn pose_is_finite<T: Real, D: Dimension<T>>(p: &D::Pose) -> bool {
    D::pose_numbers(p).as_ref().iter().fold(true, |ok, x| {
        ok & (num_traits::Float::abs(*x) < T::infinity())
    })
}

/// Whether every number of the pose is at most `√MAX` in magnitude (NaN is
/// not), so that squared distances in the kernels cannot overflow.
#[inline]
fn pose_in_range<T: Real, D: Dimension<T>>(p: &D::Pose) -> bool {
    // A constant: LLVM folds the square root of the constant.
    let limit = num_traits::Float::sqrt(<T as num_traits::Float>::max_value());
    // `&` rather than `&&`: no branch per number; NaN compares false.
    D::pose_numbers(p)
        .as_ref()
        .iter()
        .fold(true, |ok, x| ok & (num_traits::Float::abs(*x) <= limit))
}

/// Whether `(pa, a)` comes after `(pb, b)` in the total order used to put
/// two shapes of the same kind in a canonical order: the pose numbers
/// compared one after the other (translation first), the first that differ
/// deciding (a pair with a NaN counts as equal and goes on to the next), then
/// the addresses.
///
/// Almost always the first numbers differ and decide: that answer is taken
/// without a branch on which is greater (a branch on the order of random
/// pairs is mispredicted half of the time); the rest, for shapes at the same
/// first coordinate, is a branch that is rarely taken.
#[inline(always)]
fn canonical_greater<T: Real, D: Dimension<T>>(
    pa: &D::Pose,
    a: usize,
    pb: &D::Pose,
    b: usize,
) -> bool {
    let (x, y) = (
        D::pose_numbers(pa).as_ref()[0],
        D::pose_numbers(pb).as_ref()[0],
    );
    let (lt, gt) = (x < y, x > y);
    if lt | gt {
        gt
    } else {
        canonical_greater_after_first::<T, D>(pa, a, pb, b)
    }
}

/// [`canonical_greater`] when the first numbers are equal (or NaN).
#[inline(never)]
fn canonical_greater_after_first<T: Real, D: Dimension<T>>(
    pa: &D::Pose,
    a: usize,
    pb: &D::Pose,
    b: usize,
) -> bool {
    let (na, nb) = (D::pose_numbers(pa), D::pose_numbers(pb));
    for (x, y) in na.as_ref().iter().zip(nb.as_ref()).skip(1) {
        if x < y {
            return false;
        }
        if x > y {
            return true;
        }
    }
    a > b
}

/// A lower bound of the distance between two bounding boxes: the largest gap
/// along one axis (positive when apart, possibly `+∞`), or zero when they
/// meet or one is not valid (a NaN corner).
pub(crate) fn boxes_gap<T: Real, const N: usize>(
    a: &shape::BoundingBox<T, N>,
    b: &shape::BoundingBox<T, N>,
) -> T {
    if !(a.is_valid() && b.is_valid()) {
        return T::zero();
    }
    let mut gap = T::zero();
    for i in 0..N {
        gap = num_traits::Float::max(gap, a.min[i] - b.max[i]);
        gap = num_traits::Float::max(gap, b.min[i] - a.max[i]);
    }
    gap
}
