//! The 2D pair dispatch table: [`DispatchTable`] is the generic
//! [`Table`] for [`Dim2`], and the register block at the end of this file
//! (`register_block_2d!`, over the shared `register_block!`) is the one
//! place that lists every supported pair and the kernel serving it for each
//! query.
//!
//! A pair with no kernel falls back to the generic separating-axis test when
//! both shapes implement [`SupportSeparatingAxes`](shape::SupportSeparatingAxes),
//! else to GJK/EPA when both implement [`Convex`](shape::Convex), else returns
//! [`DispatchError::Unsupported`].

use core::any::Any;

use nalgebra::{Isometry2, Translation2, UnitComplex};
use shape::{Aabb, Circle, ConvexPolygon, Obb, Real, Shape, ShapeKind, ShapeRef, Triangle};

use crate::cast::{ShapeCastArgs, ShapeCastHit};
use crate::manifold::{Feature, FeatureId, Manifold};
use crate::queries::{
    ClosestPointsQuery, ContactQuery, DistanceQuery, IntersectsQuery, ManifoldQuery,
    ShapeCastQuery, slot,
};
use crate::table::{
    ContactKernelFn, Dimension, KernelFn, PairQuery, Table, builtin_in_order, unsupported,
};
use crate::{ClosestPoints, Contact, DispatchError};

/// A typed 2D boolean kernel: `(a, b, b_in_a) → intersects`.
pub type IntersectsFn<T, A, B> = KernelFn<T, Dim2, A, B>;
/// A typed 2D contact kernel: `(a, b, b_in_a) → contact in A's frame`.
pub type ContactFn<T, A, B> = ContactKernelFn<T, Dim2, A, B, Contact<T>>;
/// A typed 2D closest-points kernel: `(a, b, b_in_a, max_distance) → closest
/// points in A's frame`.
pub type ClosestPointsFn<T, A, B> = fn(&A, &B, &Isometry2<T>, T) -> ClosestPoints<T>;

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
    /// A composite shape, part by part (see [`crate::composite`]).
    Composite,
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
    /// A table with every built-in 2D pair (the register block below) and no
    /// user kernel. Allocates nothing.
    #[must_use]
    pub const fn new() -> Self {
        Self::with_builtins()
    }

    /// A shared table with the built-in pairs, built once per precision. The
    /// free functions ([`crate::intersects`], ...) do not need it: they call
    /// the built-in kernels directly.
    ///
    /// Needs the `std` feature (a lock guards the tables built so far).
    #[cfg(feature = "std")]
    pub fn shared() -> &'static Self {
        Self::shared_with(Self::new)
    }
}

impl<T: Real> Dimension<T> for Dim2 {
    type Shape = dyn Shape<T>;
    type Pose = Isometry2<T>;
    type Builtin<'a> = ShapeRef<'a, T>;
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
    #[inline]
    fn builtin(s: &dyn Shape<T>) -> Option<ShapeRef<'_, T>> {
        s.as_builtin()
    }
    #[inline]
    fn builtin_kind(s: ShapeRef<'_, T>) -> ShapeKind {
        s.kind()
    }
    #[inline]
    fn builtin_shape<'a>(s: Self::Builtin<'a>) -> &'a Self::Shape {
        s.as_shape()
    }
    fn builtin_bounds_gap(
        a: ShapeRef<'_, T>,
        pose_a: &Isometry2<T>,
        b: ShapeRef<'_, T>,
        pose_b: &Isometry2<T>,
    ) -> T {
        let (a, b) = (a.as_shape(), b.as_shape());
        crate::table::boxes_gap(&a.bounding_box(pose_a), &b.bounding_box(pose_b))
    }
    #[inline]
    fn is_builtin_kind(kind: ShapeKind) -> bool {
        // The list, as in 3D: the 2D ids are not contiguous (the rounded
        // polygon came after the 3D kinds). Off the built-in pairs' path.
        ShapeKind::BUILTIN_2D.contains(&kind)
    }
    /// An `Aabb` keeps only the translation (times `1 + 0·re + 0·im`: itself
    /// for a finite rotation, NaN otherwise), everything else the whole pose.
    #[inline]
    fn builtin_effective_pose(kind: ShapeKind, pose: &Isometry2<T>) -> Isometry2<T> {
        if kind == ShapeKind::AABB {
            let r = &pose.rotation;
            let one = T::one() + (r.re * T::zero() + r.im * T::zero());
            Isometry2::from_parts(
                Translation2::from(pose.translation.vector * one),
                UnitComplex::identity(),
            )
        } else {
            *pose
        }
    }
    #[inline]
    fn effective_pose(s: &dyn Shape<T>, pose: &Isometry2<T>) -> Isometry2<T> {
        s.effective_pose(pose)
    }
    #[inline]
    fn inv_mul(a: &Isometry2<T>, b: &Isometry2<T>) -> Isometry2<T> {
        a.inv_mul(b)
    }
    type PoseNumbers = [T; 4];
    #[inline]
    fn pose_numbers(p: &Isometry2<T>) -> [T; 4] {
        [
            p.translation.x,
            p.translation.y,
            p.rotation.re,
            p.rotation.im,
        ]
    }
    fn builtin_name(a: ShapeRef<'_, T>, b: ShapeRef<'_, T>) -> Option<&'static str> {
        builtin_name(a, b)
    }
    fn fallback_route(a: &dyn Shape<T>, b: &dyn Shape<T>) -> Option<Route> {
        if a.as_composite().is_some() || b.as_composite().is_some() {
            Some(Route::Composite)
        } else if a.as_separating_axes().is_some() && b.as_separating_axes().is_some() {
            Some(Route::Sat)
        } else if a.as_convex().is_some() && b.as_convex().is_some() {
            Some(Route::Gjk)
        } else {
            None
        }
    }
    fn bounds_gap(
        a: &dyn Shape<T>,
        pose_a: &Isometry2<T>,
        b: &dyn Shape<T>,
        pose_b: &Isometry2<T>,
    ) -> T {
        crate::table::boxes_gap(&a.bounding_box(pose_a), &b.bounding_box(pose_b))
    }
}

// ------------------------------------------------------------- the queries

/// The two [`PairQuery`] methods through which a 2D query serves the pairs
/// answered from the world poses ([`WorldFrame`]): written once for the five
/// queries.
macro_rules! world_frame_methods {
    () => {
        #[inline(always)]
        fn world<A: Any, B: Any>(
            a: &A,
            pose_a: &Isometry2<T>,
            b: &B,
            pose_b: &Isometry2<T>,
            args: Self::Args,
        ) -> Option<Self::Answer> {
            world_frame::<T, Self, A, B>(a, pose_a, b, pose_b, args)
        }
        #[inline(always)]
        fn serves_in_world<A: Any, B: Any>() -> bool {
            world_pair::<T, Self, A, B>()
        }
    };
}

impl<T: Real> PairQuery<T, Dim2> for IntersectsQuery {
    type Args = ();
    type Answer = bool;
    const NAME: &'static str = "intersects";
    const SLOT: usize = slot::INTERSECTS;
    world_frame_methods!();
    const SYMMETRIC: bool = true;
    fn composite(
        a: &dyn Shape<T>,
        pose_a: &Isometry2<T>,
        b: &dyn Shape<T>,
        pose_b: &Isometry2<T>,
        _args: (),
        each: &mut crate::composite::Each<'_, T, (), bool>,
    ) -> Option<Result<(bool, crate::composite::Parts), DispatchError>> {
        crate::composite::intersects((a, pose_a), (b, pose_b), each)
    }

    #[inline]
    fn check_args((): &()) -> Result<(), DispatchError> {
        Ok(())
    }
    #[inline]
    fn flipped(answer: &bool) -> bool {
        *answer
    }
    #[inline]
    fn transformed(answer: &bool, _frame: &Isometry2<T>) -> bool {
        *answer
    }
    fn from_gap(gap: T, (): &()) -> Option<bool> {
        (gap > T::zero()).then_some(false)
    }
    #[inline(always)]
    fn builtin(
        x: ShapeRef<'_, T>,
        pose_x: &Isometry2<T>,
        y: ShapeRef<'_, T>,
        pose_y: &Isometry2<T>,
        (): (),
    ) -> Result<bool, DispatchError> {
        builtin_intersects(x, pose_x, y, pose_y, ())
    }
    fn fallback(
        a: &dyn Shape<T>,
        pose_a: &Isometry2<T>,
        b: &dyn Shape<T>,
        pose_b: &Isometry2<T>,
        (): (),
    ) -> Option<bool> {
        fallback_intersects(a, pose_a, b, pose_b)
    }
}

impl<T: Real> PairQuery<T, Dim2> for ContactQuery {
    type Args = ();
    type Answer = Option<Contact<T>>;
    const NAME: &'static str = "contact";
    const SLOT: usize = slot::CONTACT;
    world_frame_methods!();
    fn composite(
        a: &dyn Shape<T>,
        pose_a: &Isometry2<T>,
        b: &dyn Shape<T>,
        pose_b: &Isometry2<T>,
        _args: (),
        each: &mut crate::composite::Each<'_, T, (), Option<Contact<T>>>,
    ) -> Option<Result<(Option<Contact<T>>, crate::composite::Parts), DispatchError>> {
        crate::composite::contact((a, pose_a), (b, pose_b), each)
    }

    #[inline]
    fn check_args((): &()) -> Result<(), DispatchError> {
        Ok(())
    }
    #[inline]
    fn flipped(answer: &Self::Answer) -> Self::Answer {
        answer.as_ref().map(Contact::flipped)
    }
    #[inline]
    fn transformed(answer: &Self::Answer, frame: &Isometry2<T>) -> Self::Answer {
        answer.as_ref().map(|c| c.transformed(frame))
    }
    fn from_gap(gap: T, (): &()) -> Option<Self::Answer> {
        (gap > T::zero()).then_some(None)
    }
    #[inline(always)]
    fn builtin(
        x: ShapeRef<'_, T>,
        pose_x: &Isometry2<T>,
        y: ShapeRef<'_, T>,
        pose_y: &Isometry2<T>,
        (): (),
    ) -> Result<Self::Answer, DispatchError> {
        builtin_contact(x, pose_x, y, pose_y, ())
    }
    fn fallback(
        a: &dyn Shape<T>,
        pose_a: &Isometry2<T>,
        b: &dyn Shape<T>,
        pose_b: &Isometry2<T>,
        (): (),
    ) -> Option<Self::Answer> {
        fallback_contact(a, pose_a, b, pose_b)
    }
}

impl<T: Real> PairQuery<T, Dim2> for ClosestPointsQuery {
    type Args = T;
    type Answer = ClosestPoints<T>;
    const NAME: &'static str = "closest_points";
    const SLOT: usize = slot::CLOSEST_POINTS;
    world_frame_methods!();
    fn composite(
        a: &dyn Shape<T>,
        pose_a: &Isometry2<T>,
        b: &dyn Shape<T>,
        pose_b: &Isometry2<T>,
        args: T,
        each: &mut crate::composite::Each<'_, T, T, ClosestPoints<T>>,
    ) -> Option<Result<(ClosestPoints<T>, crate::composite::Parts), DispatchError>> {
        crate::composite::closest_points((a, pose_a), (b, pose_b), args, each)
    }

    #[inline]
    fn check_args(max_distance: &T) -> Result<(), DispatchError> {
        check_max_distance(*max_distance)
    }
    #[inline]
    fn flipped(answer: &Self::Answer) -> Self::Answer {
        answer.flipped()
    }
    #[inline]
    fn transformed(answer: &Self::Answer, frame: &Isometry2<T>) -> Self::Answer {
        answer.transformed(frame)
    }
    /// Boxes farther apart than `max_distance` prove the shapes are too; a
    /// smaller gap bounds the distance from below only.
    fn from_gap(gap: T, max_distance: &T) -> Option<Self::Answer> {
        (gap > *max_distance).then_some(ClosestPoints::Farther)
    }
    #[inline(always)]
    fn builtin(
        x: ShapeRef<'_, T>,
        pose_x: &Isometry2<T>,
        y: ShapeRef<'_, T>,
        pose_y: &Isometry2<T>,
        max_distance: T,
    ) -> Result<Self::Answer, DispatchError> {
        builtin_closest_points(x, pose_x, y, pose_y, max_distance)
    }
    fn fallback(
        a: &dyn Shape<T>,
        pose_a: &Isometry2<T>,
        b: &dyn Shape<T>,
        pose_b: &Isometry2<T>,
        max_distance: T,
    ) -> Option<Self::Answer> {
        fallback_closest_points(a, pose_a, b, pose_b, max_distance)
    }
}

/// The internal scalar distance (see [`DistanceQuery`]): the closest-points
/// kernels with `max_distance = +∞`, their distance taken in the kernel's
/// frame. Nothing is mapped or flipped, and the bounding boxes never decide
/// (they do not for the closest points with an infinite margin either), so
/// the answer is bit for bit the closest points' distance.
impl<T: Real> PairQuery<T, Dim2> for DistanceQuery {
    type Args = ();
    type Answer = T;
    const NAME: &'static str = "distance";
    const SLOT: usize = slot::DISTANCE;
    const SYMMETRIC: bool = true;
    world_frame_methods!();
    fn composite(
        a: &dyn Shape<T>,
        pose_a: &Isometry2<T>,
        b: &dyn Shape<T>,
        pose_b: &Isometry2<T>,
        (): (),
        each: &mut crate::composite::Each<'_, T, (), T>,
    ) -> Option<Result<(T, crate::composite::Parts), DispatchError>> {
        crate::composite::distance((a, pose_a), (b, pose_b), each)
    }

    #[inline]
    fn check_args((): &()) -> Result<(), DispatchError> {
        Ok(())
    }
    #[inline(always)]
    fn flipped(answer: &T) -> T {
        *answer
    }
    #[inline(always)]
    fn transformed(answer: &T, _frame: &Isometry2<T>) -> T {
        *answer
    }
    fn from_gap(_gap: T, (): &()) -> Option<T> {
        None
    }
    #[inline(always)]
    fn builtin(
        x: ShapeRef<'_, T>,
        pose_x: &Isometry2<T>,
        y: ShapeRef<'_, T>,
        pose_y: &Isometry2<T>,
        (): (),
    ) -> Result<T, DispatchError> {
        builtin_distance(x, pose_x, y, pose_y, ())
    }
    fn fallback(
        a: &dyn Shape<T>,
        pose_a: &Isometry2<T>,
        b: &dyn Shape<T>,
        pose_b: &Isometry2<T>,
        (): (),
    ) -> Option<T> {
        fallback_closest_points(a, pose_a, b, pose_b, T::infinity()).map(|c| distance_of(&c))
    }
}

/// The distance of a closest-points answer for `max_distance = +∞` (never
/// `Farther`; `+∞` if it were).
#[inline(always)]
pub(crate) fn distance_of<T: Real>(c: &ClosestPoints<T>) -> T {
    c.distance().unwrap_or_else(T::infinity)
}

impl<T: Real> PairQuery<T, Dim2> for ShapeCastQuery {
    type Args = ShapeCastArgs<T>;
    type Answer = Option<ShapeCastHit<T>>;
    const NAME: &'static str = "cast_shapes";
    const SLOT: usize = slot::SHAPE_CAST;
    world_frame_methods!();
    fn composite(
        a: &dyn Shape<T>,
        pose_a: &Isometry2<T>,
        b: &dyn Shape<T>,
        pose_b: &Isometry2<T>,
        args: ShapeCastArgs<T>,
        each: &mut crate::composite::Each<'_, T, ShapeCastArgs<T>, Option<ShapeCastHit<T>>>,
    ) -> Option<Result<(Option<ShapeCastHit<T>>, crate::composite::Parts), DispatchError>> {
        crate::composite::cast_shapes((a, pose_a), (b, pose_b), args, each)
    }

    #[inline]
    fn check_args(args: &ShapeCastArgs<T>) -> Result<(), DispatchError> {
        args.check()
    }
    /// A at rest, B at its velocity relative to A in A's frame (the
    /// velocities swapped first when the shapes were).
    #[inline]
    fn local_args(args: ShapeCastArgs<T>, frame: &Isometry2<T>, swapped: bool) -> ShapeCastArgs<T> {
        args.swapped_if(swapped).local(frame)
    }
    #[inline]
    fn swapped_args(args: ShapeCastArgs<T>, swapped: bool) -> ShapeCastArgs<T> {
        args.swapped_if(swapped)
    }
    #[inline]
    fn flipped(answer: &Self::Answer) -> Self::Answer {
        answer.as_ref().map(ShapeCastHit::flipped)
    }
    #[inline]
    fn transformed(answer: &Self::Answer, frame: &Isometry2<T>) -> Self::Answer {
        answer.as_ref().map(|h| h.transformed(frame))
    }
    /// The kernel's frame moves with the first shape: its points are carried
    /// by that shape's velocity to the time of impact.
    #[inline]
    fn to_world(
        answer: &Self::Answer,
        frame: &Isometry2<T>,
        args: &ShapeCastArgs<T>,
        swapped: bool,
    ) -> Self::Answer {
        let v = if swapped { args.vel_b } else { args.vel_a };
        answer
            .as_ref()
            .map(|h| h.transformed(frame).shifted(&(v * h.toi)))
    }
    fn from_gap(gap: T, args: &ShapeCastArgs<T>) -> Option<Self::Answer> {
        args.gap_rules_out(gap).then_some(None)
    }
    #[inline(always)]
    fn builtin(
        x: ShapeRef<'_, T>,
        pose_x: &Isometry2<T>,
        y: ShapeRef<'_, T>,
        pose_y: &Isometry2<T>,
        args: ShapeCastArgs<T>,
    ) -> Result<Self::Answer, DispatchError> {
        builtin_shape_cast(x, pose_x, y, pose_y, args)
    }
    fn fallback(
        a: &dyn Shape<T>,
        pose_a: &Isometry2<T>,
        b: &dyn Shape<T>,
        pose_b: &Isometry2<T>,
        args: ShapeCastArgs<T>,
    ) -> Option<Self::Answer> {
        let sizes = (
            crate::cast::advance::shape_scale(a),
            crate::cast::advance::shape_scale(b),
        );
        crate::cast::advance::cast_world_2d(
            pose_b,
            &args,
            |pb| fallback_closest_points(a, pose_a, b, pb, T::infinity()),
            |pb| fallback_contact(a, pose_a, b, pb),
            sizes,
        )
    }
}

impl<T: Real> PairQuery<T, Dim2> for ManifoldQuery {
    type Args = T;
    type Answer = Option<Manifold<T>>;
    const NAME: &'static str = "contact_manifold";
    const SLOT: usize = slot::MANIFOLD;
    world_frame_methods!();
    fn composite(
        a: &dyn Shape<T>,
        pose_a: &Isometry2<T>,
        b: &dyn Shape<T>,
        pose_b: &Isometry2<T>,
        args: T,
        each: &mut crate::composite::Each<'_, T, T, Option<Manifold<T>>>,
    ) -> Option<Result<(Option<Manifold<T>>, crate::composite::Parts), DispatchError>> {
        crate::composite::contact_manifold((a, pose_a), (b, pose_b), args, each)
    }

    #[inline]
    fn check_args(prediction: &T) -> Result<(), DispatchError> {
        crate::manifold::check_prediction(*prediction)
    }
    #[inline]
    fn flipped(answer: &Self::Answer) -> Self::Answer {
        answer.as_ref().map(Manifold::flipped)
    }
    #[inline]
    fn transformed(answer: &Self::Answer, frame: &Isometry2<T>) -> Self::Answer {
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
        frame: &Isometry2<T>,
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
        x: ShapeRef<'_, T>,
        pose_x: &Isometry2<T>,
        y: ShapeRef<'_, T>,
        pose_y: &Isometry2<T>,
        prediction: T,
    ) -> Result<Self::Answer, DispatchError> {
        builtin_manifold(x, pose_x, y, pose_y, prediction)
    }
    /// One point: the fallback contact when the shapes intersect, else the
    /// fallback closest points within the prediction; features unknown
    /// ([`Feature::Surface`]).
    fn fallback(
        a: &dyn Shape<T>,
        pose_a: &Isometry2<T>,
        b: &dyn Shape<T>,
        pose_b: &Isometry2<T>,
        prediction: T,
    ) -> Option<Self::Answer> {
        let id = FeatureId {
            a: Feature::Surface,
            b: Feature::Surface,
        };
        let contact = fallback_contact(a, pose_a, b, pose_b)?;
        let closest = match contact {
            Some(_) => ClosestPoints::Intersecting,
            None => fallback_closest_points(a, pose_a, b, pose_b, prediction)?,
        };
        Some(
            crate::manifold::polygonal::exact(contact, || closest)
                .map(|e| crate::manifold::polygonal::single_point(&e, id)),
        )
    }
}

/// [`DispatchError::InvalidMaxDistance`] unless `max_distance ≥ 0` (`+∞`
/// allowed, NaN refused).
#[inline]
pub(crate) fn check_max_distance<T: Real>(max_distance: T) -> Result<(), DispatchError> {
    if max_distance >= T::zero() {
        Ok(())
    } else {
        Err(DispatchError::InvalidMaxDistance)
    }
}

// ------------------------------------------------------------- fallbacks

/// Runs `f` with the poses shifted so that A sits at the origin's
/// translation (relative coordinates for precision; rotations kept, since an
/// `Aabb` interprets its own pose), and the shift that maps the answer back.
fn shifted<T: Real, R>(
    pose_a: &Isometry2<T>,
    pose_b: &Isometry2<T>,
    f: impl FnOnce(&Isometry2<T>, &Isometry2<T>) -> R,
) -> (R, Isometry2<T>) {
    let t = pose_a.translation;
    let back = Translation2::from(-t.vector);
    let (pa, pb) = (back * pose_a, back * pose_b);
    (
        f(&pa, &pb),
        Isometry2::from_parts(t, UnitComplex::identity()),
    )
}

/// The generic SAT (when both shapes offer separating axes) or GJK/EPA (when
/// both are convex); `None` when neither applies.
fn fallback_contact<T: Real>(
    a: &dyn Shape<T>,
    pose_a: &Isometry2<T>,
    b: &dyn Shape<T>,
    pose_b: &Isometry2<T>,
) -> Option<Option<Contact<T>>> {
    if let (Some(sa), Some(sb)) = (a.as_separating_axes(), b.as_separating_axes()) {
        let (c, shift) = shifted(pose_a, pose_b, |pa, pb| {
            shape::sat::sat_contact(sa, pa, sb, pb).map(|p| {
                let n = p.normal.into_inner();
                let point_a = a.as_convex().map_or_else(
                    || nalgebra::Point2::from(pa.translation.vector),
                    |c| c.support_point(pa, &n),
                );
                let point_b = b
                    .as_convex()
                    .map_or_else(|| point_a - n * p.depth, |c| c.support_point(pb, &-n));
                Contact {
                    normal: p.normal,
                    depth: p.depth,
                    point_a,
                    point_b,
                }
            })
        });
        return Some(c.map(|c| c.transformed(&shift)));
    }
    if let (Some(ca), Some(cb)) = (a.as_convex(), b.as_convex()) {
        let (c, shift) = shifted(pose_a, pose_b, |pa, pb| {
            crate::gjk::epa_contact(ca, pa, cb, pb)
        });
        return Some(c.map(|c| c.transformed(&shift)));
    }
    None
}

/// The boolean fallback: the generic SAT or GJK, as [`fallback_contact`]
/// (each boolean test agrees with its contact test).
fn fallback_intersects<T: Real>(
    a: &dyn Shape<T>,
    pose_a: &Isometry2<T>,
    b: &dyn Shape<T>,
    pose_b: &Isometry2<T>,
) -> Option<bool> {
    if let (Some(sa), Some(sb)) = (a.as_separating_axes(), b.as_separating_axes()) {
        return Some(
            shifted(pose_a, pose_b, |pa, pb| {
                shape::sat::sat_intersects(sa, pa, sb, pb)
            })
            .0,
        );
    }
    let (ca, cb) = (a.as_convex()?, b.as_convex()?);
    Some(
        shifted(pose_a, pose_b, |pa, pb| {
            crate::gjk::gjk_intersects(ca, pa, cb, pb)
        })
        .0,
    )
}

/// The boolean fallback decides whether they intersect (so that the answer
/// agrees with `intersects`); apart, GJK measures the distance (both shapes
/// must be convex; `None` otherwise).
fn fallback_closest_points<T: Real>(
    a: &dyn Shape<T>,
    pose_a: &Isometry2<T>,
    b: &dyn Shape<T>,
    pose_b: &Isometry2<T>,
    max_distance: T,
) -> Option<ClosestPoints<T>> {
    if fallback_intersects(a, pose_a, b, pose_b)? {
        return Some(ClosestPoints::Intersecting);
    }
    let (ca, cb) = (a.as_convex()?, b.as_convex()?);
    let (answer, shift) = shifted(pose_a, pose_b, |pa, pb| {
        match crate::gjk::gjk_distance(ca, pa, cb, pb) {
            crate::gjk::GjkResult::Separated {
                distance,
                point_a,
                point_b,
                normal,
            } => ClosestPoints::apart(point_a, point_b, normal, distance, max_distance),
            // The separating axes found the shapes apart by less than GJK's
            // touching tolerance: a distance at rounding level, between the
            // support points along the line of the centres' boxes.
            crate::gjk::GjkResult::Intersecting => {
                let d = b.bounding_box(pb).center() - a.bounding_box(pa).center();
                let n =
                    nalgebra::Unit::try_new(d, T::zero()).unwrap_or_else(nalgebra::Vector2::x_axis);
                let (p, q) = (
                    ca.support_point(pa, &n),
                    cb.support_point(pb, &-n.into_inner()),
                );
                ClosestPoints::apart(p, q, n, (q - p).dot(&n), max_distance)
            }
        }
    });
    Some(answer.transformed(&shift))
}

// ------------------------------------------------------ world-frame pairs

/// The queries that answer some built-in pairs straight from the world
/// poses instead of in the first shape's frame (through
/// [`PairQuery::world`], which the register block's arms ask first when the
/// pair's types are served, `world_pair`): two circles
/// (`circle/circle_circle_world.rs`), a circle and a box
/// (`circle/circle_box_world.rs`), a circle and a triangle or a convex
/// polygon of at most `SCAN_UP_TO` vertices
/// (`circle/circle_polygon_world.rs`). Each method answers `None` to hand the
/// pair over to the general way (out-of-range or bad poses, the documented
/// degenerate cases); a query without a world-frame form keeps the default.
trait WorldFrame<T: Real>: PairQuery<T, Dim2> {
    /// Whether [`circle_box`](Self::circle_box) has a world-frame form.
    const CIRCLE_BOX: bool = true;
    /// Whether [`circle_polygon`](Self::circle_polygon) has one.
    const CIRCLE_POLYGON: bool = true;
    /// Two circles.
    fn circles(
        _: &Circle<T>,
        _: &Isometry2<T>,
        _: &Circle<T>,
        _: &Isometry2<T>,
        _: Self::Args,
    ) -> Option<Self::Answer> {
        None
    }
    /// A circle and a box, the circle first.
    fn circle_box<B: PlacedBox<T>>(
        _: &Circle<T>,
        _: &Isometry2<T>,
        _: &B,
        _: &Isometry2<T>,
        _: Self::Args,
    ) -> Option<Self::Answer> {
        None
    }
    /// A circle and a triangle or a small convex polygon, the circle first.
    fn circle_polygon<P: SmallPolygon<T>>(
        _: &Circle<T>,
        _: &Isometry2<T>,
        _: &P,
        _: &Isometry2<T>,
        _: Self::Args,
    ) -> Option<Self::Answer> {
        None
    }
}

impl<T: Real> WorldFrame<T> for IntersectsQuery {
    #[inline(always)]
    fn circles(
        a: &Circle<T>,
        pa: &Isometry2<T>,
        b: &Circle<T>,
        pb: &Isometry2<T>,
        (): (),
    ) -> Option<bool> {
        circles::intersects(a, pa, b, pb)
    }
    #[inline(always)]
    fn circle_box<B: PlacedBox<T>>(
        a: &Circle<T>,
        pa: &Isometry2<T>,
        b: &B,
        pb: &Isometry2<T>,
        (): (),
    ) -> Option<bool> {
        boxes::intersects(a, pa, b, pb)
    }
    #[inline(always)]
    fn circle_polygon<P: SmallPolygon<T>>(
        a: &Circle<T>,
        pa: &Isometry2<T>,
        b: &P,
        pb: &Isometry2<T>,
        (): (),
    ) -> Option<Self::Answer> {
        polygons::intersects(a, pa, b, pb)
    }
}

impl<T: Real> WorldFrame<T> for ContactQuery {
    #[inline(always)]
    fn circles(
        a: &Circle<T>,
        pa: &Isometry2<T>,
        b: &Circle<T>,
        pb: &Isometry2<T>,
        (): (),
    ) -> Option<Option<Contact<T>>> {
        circles::contact(a, pa, b, pb)
    }
    #[inline(always)]
    fn circle_box<B: PlacedBox<T>>(
        a: &Circle<T>,
        pa: &Isometry2<T>,
        b: &B,
        pb: &Isometry2<T>,
        (): (),
    ) -> Option<Option<Contact<T>>> {
        boxes::contact(a, pa, b, pb)
    }
    #[inline(always)]
    fn circle_polygon<P: SmallPolygon<T>>(
        a: &Circle<T>,
        pa: &Isometry2<T>,
        b: &P,
        pb: &Isometry2<T>,
        (): (),
    ) -> Option<Self::Answer> {
        polygons::contact(a, pa, b, pb)
    }
}

impl<T: Real> WorldFrame<T> for ClosestPointsQuery {
    #[inline(always)]
    fn circles(
        a: &Circle<T>,
        pa: &Isometry2<T>,
        b: &Circle<T>,
        pb: &Isometry2<T>,
        max_distance: T,
    ) -> Option<ClosestPoints<T>> {
        circles::closest_points(a, pa, b, pb, max_distance)
    }
    #[inline(always)]
    fn circle_box<B: PlacedBox<T>>(
        a: &Circle<T>,
        pa: &Isometry2<T>,
        b: &B,
        pb: &Isometry2<T>,
        max_distance: T,
    ) -> Option<ClosestPoints<T>> {
        boxes::closest_points(a, pa, b, pb, max_distance)
    }
    #[inline(always)]
    fn circle_polygon<P: SmallPolygon<T>>(
        a: &Circle<T>,
        pa: &Isometry2<T>,
        b: &P,
        pb: &Isometry2<T>,
        max_distance: T,
    ) -> Option<Self::Answer> {
        polygons::closest_points(a, pa, b, pb, max_distance)
    }
}

impl<T: Real> WorldFrame<T> for DistanceQuery {
    #[inline(always)]
    fn circles(
        a: &Circle<T>,
        pa: &Isometry2<T>,
        b: &Circle<T>,
        pb: &Isometry2<T>,
        (): (),
    ) -> Option<T> {
        circles::distance(a, pa, b, pb)
    }
    #[inline(always)]
    fn circle_box<B: PlacedBox<T>>(
        a: &Circle<T>,
        pa: &Isometry2<T>,
        b: &B,
        pb: &Isometry2<T>,
        (): (),
    ) -> Option<T> {
        boxes::closest_points(a, pa, b, pb, T::infinity()).map(|c| distance_of(&c))
    }
    #[inline(always)]
    fn circle_polygon<P: SmallPolygon<T>>(
        a: &Circle<T>,
        pa: &Isometry2<T>,
        b: &P,
        pb: &Isometry2<T>,
        (): (),
    ) -> Option<Self::Answer> {
        polygons::closest_points(a, pa, b, pb, T::infinity()).map(|c| distance_of(&c))
    }
}

/// A circle and a box cast through the general arm (its separating-axis
/// sweep is already in closed form in the box's terms).
impl<T: Real> WorldFrame<T> for ShapeCastQuery {
    const CIRCLE_BOX: bool = false;
    const CIRCLE_POLYGON: bool = false;
    #[inline(always)]
    fn circles(
        a: &Circle<T>,
        pa: &Isometry2<T>,
        b: &Circle<T>,
        pb: &Isometry2<T>,
        args: ShapeCastArgs<T>,
    ) -> Option<Option<ShapeCastHit<T>>> {
        circles::cast(a, pa, b, pb, &args)
    }
}

impl<T: Real> WorldFrame<T> for ManifoldQuery {
    #[inline(always)]
    fn circles(
        a: &Circle<T>,
        pa: &Isometry2<T>,
        b: &Circle<T>,
        pb: &Isometry2<T>,
        prediction: T,
    ) -> Option<Option<Manifold<T>>> {
        circles::manifold(a, pa, b, pb, prediction)
    }
    #[inline(always)]
    fn circle_box<B: PlacedBox<T>>(
        a: &Circle<T>,
        pa: &Isometry2<T>,
        b: &B,
        pb: &Isometry2<T>,
        prediction: T,
    ) -> Option<Option<Manifold<T>>> {
        boxes::manifold(a, pa, b, pb, prediction)
    }
    #[inline(always)]
    fn circle_polygon<P: SmallPolygon<T>>(
        a: &Circle<T>,
        pa: &Isometry2<T>,
        b: &P,
        pb: &Isometry2<T>,
        prediction: T,
    ) -> Option<Self::Answer> {
        polygons::manifold(a, pa, b, pb, prediction)
    }
}

/// Whether [`world_frame`] serves the shape types `A` and `B` (kernel
/// order): a circle and a circle, an oriented box, an axis-aligned box, a
/// triangle or a convex polygon (a big polygon is handed over). A
/// constant once the types are known.
#[inline(always)]
fn world_pair<T: Real, Q: WorldFrame<T>, A: Any, B: Any>() -> bool {
    use core::any::TypeId;
    TypeId::of::<A>() == TypeId::of::<Circle<T>>()
        && (TypeId::of::<B>() == TypeId::of::<Circle<T>>()
            || (Q::CIRCLE_BOX
                && (TypeId::of::<B>() == TypeId::of::<Obb<T>>()
                    || TypeId::of::<B>() == TypeId::of::<Aabb<T>>()))
            || (Q::CIRCLE_POLYGON
                && (TypeId::of::<B>() == TypeId::of::<Triangle<T>>()
                    || TypeId::of::<B>() == TypeId::of::<ConvexPolygon<T>>())))
}

/// The world-frame answer of the pairs [`WorldFrame`] serves, `A` and `B`
/// in the pair's kernel order (the circle first); `None` for every other
/// pair and on hand-over. The types are known where it is called (the
/// register block's arms, through `PairQuery::world`), so the downcasts are
/// decided at compile time and the other pairs pay nothing.
#[inline(always)]
fn world_frame<T: Real, Q: WorldFrame<T>, A: Any, B: Any>(
    a: &A,
    pose_a: &Isometry2<T>,
    b: &B,
    pose_b: &Isometry2<T>,
    args: Q::Args,
) -> Option<Q::Answer> {
    let (a, b) = (a as &dyn Any, b as &dyn Any);
    let circle = a.downcast_ref::<Circle<T>>()?;
    if let Some(b) = b.downcast_ref::<Circle<T>>() {
        Q::circles(circle, pose_a, b, pose_b, args)
    } else if let Some(b) = b.downcast_ref::<Obb<T>>() {
        Q::circle_box(circle, pose_a, b, pose_b, args)
    } else if let Some(b) = b.downcast_ref::<Aabb<T>>() {
        Q::circle_box(circle, pose_a, b, pose_b, args)
    } else if let Some(b) = b.downcast_ref::<Triangle<T>>() {
        Q::circle_polygon(circle, pose_a, b, pose_b, args)
    } else if let Some(b) = b.downcast_ref::<ConvexPolygon<T>>() {
        Q::circle_polygon(circle, pose_a, b, pose_b, args)
    } else {
        None
    }
}

// ---------------------------------------------------------- register block

/// One per-query function of a register block: the answer of query `$Q`
/// for two built-in shapes (`$Ref`, at `$Pose`s, dimension `$Dim`) with a
/// `match` of one arm per listed pair, either order, each handing the pair
/// in canonical order to [`builtin_in_order`] with the row's kernel. The 2D
/// block and the 3D block (`dim3/dispatch3.rs`) generate every query's
/// function with it.
macro_rules! builtin_query_fn {
    (
        $(#[$doc:meta])*
        $vis:vis fn $name:ident($arg:tt: $Args:ty) -> $Answer:ty;
        $Ref:ident, $Pose:ident, $Dim:ident, $Q:ident;
        $( $a:ident, $b:ident => |$x:ident, $y:ident, $m:ident, $p:pat_param| $kernel:expr; )*
    ) => {
        $(#[$doc])*
        #[inline]
        #[allow(unreachable_patterns)] // the reversed pattern of a same-kind pair
        $vis fn $name<'s, T: Real>(
            x: $Ref<'s, T>,
            pose_x: &'s $Pose<T>,
            y: $Ref<'s, T>,
            pose_y: &'s $Pose<T>,
            $arg: $Args,
        ) -> Result<$Answer, DispatchError> {
            match ((x, pose_x), (y, pose_y)) {
                $( (($Ref::$a(a), pose_a), ($Ref::$b(b), pose_b))
                | (($Ref::$b(b), pose_b), ($Ref::$a(a), pose_a)) => builtin_in_order::<T, $Dim, $Q, _, _>(
                    (a, pose_a), (b, pose_b), !matches!(x, $Ref::$a(_)), $arg, ($Ref::$a, $Ref::$b),
                    #[inline(always)] |$x, $y, $m, $p| $kernel,
                ), )*
                _ => Err(unsupported(x.kind(), y.kind())),
            }
        }
    };
}
pub(crate) use builtin_query_fn;

/// Generates, from one list of rows `A, B => intersects, contact,
/// closest_points, shape_cast, manifold;` (built-in pairs in canonical
/// order), the functions that answer each query for two built-in shapes
/// (`$Ref`, at `$Pose`s, in dimension `$Dim`, with that dimension's answer
/// types) with a `match`: every pair that kasanari answers with a dedicated
/// kernel, and which kernel, in one place. Adding a query adds a column and
/// one generated function. The 2D block (below) and the 3D block
/// (`dim3/dispatch3.rs`) both come from it.
macro_rules! register_block {
    (
        $Ref:ident, $Pose:ident, $Dim:ident;
        $Contact:ident, $Closest:ident, $CastArgs:ident, $CastHit:ident, $Manifold:ident;
        $( $a:ident, $b:ident => $intersects:ident, $contact:ident, $closest:ident, $cast:ident, $manifold:ident; )*
    ) => {
        /// The name of the kernels of a built-in pair in canonical order (the
        /// boolean kernel's name, `"circle_obb"`).
        fn builtin_name<T: Real>(a: $Ref<'_, T>, b: $Ref<'_, T>) -> Option<&'static str> {
            match (a, b) {
                $( ($Ref::$a(_), $Ref::$b(_)) => Some(stringify!($intersects)), )*
                _ => None,
            }
        }

        builtin_query_fn! {
            /// The IntersectsQuery answer of a built-in pair at its poses, in
            /// the world frame (see `PairQuery::builtin`).
            fn builtin_intersects((): ()) -> bool;
            $Ref, $Pose, $Dim, IntersectsQuery;
            $( $a, $b => |a, b, m, ()| $intersects(a, b, m); )*
        }
        builtin_query_fn! {
            /// The ContactQuery answer of a built-in pair at its poses, in the
            /// world frame (see `PairQuery::builtin`).
            fn builtin_contact((): ()) -> Option<$Contact<T>>;
            $Ref, $Pose, $Dim, ContactQuery;
            $( $a, $b => |a, b, m, ()| $contact(a, b, m); )*
        }
        builtin_query_fn! {
            /// The ClosestPointsQuery answer of a built-in pair at its poses,
            /// in the world frame (see `PairQuery::builtin`).
            fn builtin_closest_points(max_distance: T) -> $Closest<T>;
            $Ref, $Pose, $Dim, ClosestPointsQuery;
            $( $a, $b => |a, b, m, d| $closest(a, b, m, d); )*
        }
        builtin_query_fn! {
            /// The ShapeCastQuery answer of a built-in pair at its poses, in
            /// the world frame (see `PairQuery::builtin`).
            fn builtin_shape_cast(args: $CastArgs<T>) -> Option<$CastHit<T>>;
            $Ref, $Pose, $Dim, ShapeCastQuery;
            $( $a, $b => |a, b, m, args| $cast(a, b, m, args); )*
        }
        builtin_query_fn! {
            /// The ManifoldQuery answer of a built-in pair at its poses, in the
            /// world frame (see `PairQuery::builtin`).
            fn builtin_manifold(prediction: T) -> Option<$Manifold<T>>;
            $Ref, $Pose, $Dim, ManifoldQuery;
            $( $a, $b => |a, b, m, p| $manifold(a, b, m, p); )*
        }
    };
}
pub(crate) use register_block;

/// The 2D register block: [`register_block`]'s functions, and the scalar
/// distance (2D only) from the closest-points column.
macro_rules! register_block_2d {
    ($( $a:ident, $b:ident => $intersects:ident, $contact:ident, $closest:ident, $cast:ident, $manifold:ident; )*) => {
        register_block! {
            ShapeRef, Isometry2, Dim2;
            Contact, ClosestPoints, ShapeCastArgs, ShapeCastHit, Manifold;
            $( $a, $b => $intersects, $contact, $closest, $cast, $manifold; )*
        }
        builtin_query_fn! {
            /// The DistanceQuery answer of a built-in pair at its poses: the
            /// closest-points kernel's distance for `max_distance = +∞`, in
            /// the kernel's frame.
            pub(crate) fn builtin_distance((): ()) -> T;
            ShapeRef, Isometry2, Dim2, DistanceQuery;
            $( $a, $b => |a, b, m, ()| distance_of(&$closest(a, b, m, T::infinity())); )*
        }
    };
}

use crate::cast::pairs::*;
use crate::circle::circle_box_world::{self as boxes, PlacedBox};
use crate::circle::circle_circle_world as circles;
use crate::circle::circle_polygon_world::{self as polygons, SmallPolygon};
use crate::circle::*;
use crate::ellipse::*;
use crate::manifold::pairs::*;
use crate::point::*;
use crate::sat::*;

// Every built-in 2D pair and the kernels that serve it, in canonical order
// (point < segment < circle < aabb < obb < triangle < polygon < capsule <
// ellipse < rounded polygon). Reading this block tells what kasanari supports.
register_block_2d! {
    // pair                  intersects          contact                     closest points                    shape cast            manifold
    Point, Point         => point_point,         point_point_contact,         point_point_closest_points, point_point_cast, point_point_manifold;
    Point, Segment       => point_segment,       point_segment_contact,       point_segment_closest_points, point_segment_cast, point_segment_manifold;
    Point, Circle        => point_circle,        point_circle_contact,        point_circle_closest_points, point_circle_cast, point_circle_manifold;
    Point, Aabb          => point_aabb,          point_aabb_contact,          point_aabb_closest_points, point_aabb_cast, point_aabb_manifold;
    Point, Obb           => point_obb,           point_obb_contact,           point_obb_closest_points, point_obb_cast, point_obb_manifold;
    Point, Triangle      => point_triangle,      point_triangle_contact,      point_triangle_closest_points, point_triangle_cast, point_triangle_manifold;
    Point, Polygon       => point_polygon,       point_polygon_contact,       point_polygon_closest_points, point_polygon_cast, point_polygon_manifold;
    Point, Capsule       => point_capsule,       point_capsule_contact,       point_capsule_closest_points, point_capsule_cast, point_capsule_manifold;
    Point, Ellipse       => point_ellipse,       point_ellipse_contact,       point_ellipse_closest_points, point_ellipse_cast, point_ellipse_manifold;
    Segment, Segment     => segment_segment,     segment_segment_contact,     segment_segment_closest_points, segment_segment_cast, segment_segment_manifold;
    Segment, Circle      => segment_circle,      segment_circle_contact,      segment_circle_closest_points, segment_circle_cast, segment_circle_manifold;
    Segment, Aabb        => segment_aabb,        segment_aabb_contact,        segment_aabb_closest_points, segment_aabb_cast, segment_aabb_manifold;
    Segment, Obb         => segment_obb,         segment_obb_contact,         segment_obb_closest_points, segment_obb_cast, segment_obb_manifold;
    Segment, Triangle    => segment_triangle,    segment_triangle_contact,    segment_triangle_closest_points, segment_triangle_cast, segment_triangle_manifold;
    Segment, Polygon     => segment_polygon,     segment_polygon_contact,     segment_polygon_closest_points, segment_polygon_cast, segment_polygon_manifold;
    Segment, Capsule     => segment_capsule,     segment_capsule_contact,     segment_capsule_closest_points, segment_capsule_cast, segment_capsule_manifold;
    Segment, Ellipse     => segment_ellipse,     segment_ellipse_contact,     segment_ellipse_closest_points, segment_ellipse_cast, segment_ellipse_manifold;
    Circle, Circle       => circle_circle,       circle_circle_contact,       circle_circle_closest_points, circle_circle_cast, circle_circle_manifold;
    Circle, Aabb         => circle_aabb,         circle_aabb_contact,         circle_aabb_closest_points, circle_aabb_cast, circle_aabb_manifold;
    Circle, Obb          => circle_obb,          circle_obb_contact,          circle_obb_closest_points, circle_obb_cast, circle_obb_manifold;
    Circle, Triangle     => circle_triangle,     circle_triangle_contact,     circle_triangle_closest_points, circle_triangle_cast, circle_triangle_manifold;
    Circle, Polygon      => circle_polygon,      circle_polygon_contact,      circle_polygon_closest_points, circle_polygon_cast, circle_polygon_manifold;
    Circle, Capsule      => circle_capsule,      circle_capsule_contact,      circle_capsule_closest_points, circle_capsule_cast, circle_capsule_manifold;
    Circle, Ellipse      => circle_ellipse,      circle_ellipse_contact,      circle_ellipse_closest_points, circle_ellipse_cast, circle_ellipse_manifold;
    Aabb, Aabb           => aabb_aabb,           aabb_aabb_contact,           aabb_aabb_closest_points, aabb_aabb_cast, aabb_aabb_manifold;
    Aabb, Obb            => aabb_obb,            aabb_obb_contact,            aabb_obb_closest_points, aabb_obb_cast, aabb_obb_manifold;
    Aabb, Triangle       => aabb_triangle,       aabb_triangle_contact,       aabb_triangle_closest_points, aabb_triangle_cast, aabb_triangle_manifold;
    Aabb, Polygon        => aabb_polygon,        aabb_polygon_contact,        aabb_polygon_closest_points, aabb_polygon_cast, aabb_polygon_manifold;
    Aabb, Capsule        => aabb_capsule,        aabb_capsule_contact,        aabb_capsule_closest_points, aabb_capsule_cast, aabb_capsule_manifold;
    Aabb, Ellipse        => aabb_ellipse,        aabb_ellipse_contact,        aabb_ellipse_closest_points, aabb_ellipse_cast, aabb_ellipse_manifold;
    Obb, Obb             => obb_obb,             obb_obb_contact,             obb_obb_closest_points, obb_obb_cast, obb_obb_manifold;
    Obb, Triangle        => obb_triangle,        obb_triangle_contact,        obb_triangle_closest_points, obb_triangle_cast, obb_triangle_manifold;
    Obb, Polygon         => obb_polygon,         obb_polygon_contact,         obb_polygon_closest_points, obb_polygon_cast, obb_polygon_manifold;
    Obb, Capsule         => obb_capsule,         obb_capsule_contact,         obb_capsule_closest_points, obb_capsule_cast, obb_capsule_manifold;
    Obb, Ellipse         => obb_ellipse,         obb_ellipse_contact,         obb_ellipse_closest_points, obb_ellipse_cast, obb_ellipse_manifold;
    Triangle, Triangle   => triangle_triangle,   triangle_triangle_contact,   triangle_triangle_closest_points, triangle_triangle_cast, triangle_triangle_manifold;
    Triangle, Polygon    => triangle_polygon,    triangle_polygon_contact,    triangle_polygon_closest_points, triangle_polygon_cast, triangle_polygon_manifold;
    Triangle, Capsule    => triangle_capsule,    triangle_capsule_contact,    triangle_capsule_closest_points, triangle_capsule_cast, triangle_capsule_manifold;
    Triangle, Ellipse    => triangle_ellipse,    triangle_ellipse_contact,    triangle_ellipse_closest_points, triangle_ellipse_cast, triangle_ellipse_manifold;
    Polygon, Polygon     => polygon_polygon,     polygon_polygon_contact,     polygon_polygon_closest_points, polygon_polygon_cast, polygon_polygon_manifold;
    Polygon, Capsule     => polygon_capsule,     polygon_capsule_contact,     polygon_capsule_closest_points, polygon_capsule_cast, polygon_capsule_manifold;
    Polygon, Ellipse     => polygon_ellipse,     polygon_ellipse_contact,     polygon_ellipse_closest_points, polygon_ellipse_cast, polygon_ellipse_manifold;
    Capsule, Capsule     => capsule_capsule,     capsule_capsule_contact,     capsule_capsule_closest_points, capsule_capsule_cast, capsule_capsule_manifold;
    Capsule, Ellipse     => capsule_ellipse,     capsule_ellipse_contact,     capsule_ellipse_closest_points, capsule_ellipse_cast, capsule_ellipse_manifold;
    Ellipse, Ellipse     => ellipse_ellipse,     ellipse_ellipse_contact,     ellipse_ellipse_closest_points, ellipse_ellipse_cast, ellipse_ellipse_manifold;
    Point, RoundedPolygon => point_rounded_polygon, point_rounded_polygon_contact, point_rounded_polygon_closest_points, point_rounded_polygon_cast, point_rounded_polygon_manifold;
    Segment, RoundedPolygon => segment_rounded_polygon, segment_rounded_polygon_contact, segment_rounded_polygon_closest_points, segment_rounded_polygon_cast, segment_rounded_polygon_manifold;
    Circle, RoundedPolygon => circle_rounded_polygon, circle_rounded_polygon_contact, circle_rounded_polygon_closest_points, circle_rounded_polygon_cast, circle_rounded_polygon_manifold;
    Aabb, RoundedPolygon => aabb_rounded_polygon, aabb_rounded_polygon_contact, aabb_rounded_polygon_closest_points, aabb_rounded_polygon_cast, aabb_rounded_polygon_manifold;
    Obb, RoundedPolygon => obb_rounded_polygon, obb_rounded_polygon_contact, obb_rounded_polygon_closest_points, obb_rounded_polygon_cast, obb_rounded_polygon_manifold;
    Triangle, RoundedPolygon => triangle_rounded_polygon, triangle_rounded_polygon_contact, triangle_rounded_polygon_closest_points, triangle_rounded_polygon_cast, triangle_rounded_polygon_manifold;
    Polygon, RoundedPolygon => polygon_rounded_polygon, polygon_rounded_polygon_contact, polygon_rounded_polygon_closest_points, polygon_rounded_polygon_cast, polygon_rounded_polygon_manifold;
    Capsule, RoundedPolygon => capsule_rounded_polygon, capsule_rounded_polygon_contact, capsule_rounded_polygon_closest_points, capsule_rounded_polygon_cast, capsule_rounded_polygon_manifold;
    Ellipse, RoundedPolygon => ellipse_rounded_polygon, ellipse_rounded_polygon_contact, ellipse_rounded_polygon_closest_points, ellipse_rounded_polygon_cast, ellipse_rounded_polygon_manifold;
    RoundedPolygon, RoundedPolygon => rounded_polygon_rounded_polygon, rounded_polygon_rounded_polygon_contact, rounded_polygon_rounded_polygon_closest_points, rounded_polygon_rounded_polygon_cast, rounded_polygon_rounded_polygon_manifold;
}
