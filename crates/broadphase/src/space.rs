//! What the world needs to know about a dimension: the shape trait object, the
//! pose, the contact and the dispatch table of 2D or 3D. [`World`](crate::World)
//! is written once over this trait.

use core::fmt::Debug;

use nalgebra::{Isometry2, Isometry3, Point, SVector, Vector3};
use narrowphase::composite::Parts;
use narrowphase::dim3::{Contact3, DispatchTable3};
use narrowphase::{
    ClosestPoints, Contact, ContactQuery, DispatchError, DispatchTable, FeatureId, Manifold,
    ManifoldQuery, ShapeCastArgs, ShapeCastHit, ShapeCastQuery,
};
use shape::{BoundingBox, PointProjection, Ray, RayHit, Real, Shape, Shape3};

use crate::stored::{Storage, Stored2, Stored3};

/// Widens a bounding box outward by `8 ε · max(|min|, |max|)` per axis
/// (saturating at the largest finite float). A box with a coordinate that is
/// not finite is returned as it is, for the grid to reject.
///
/// A shape's box is computed by rounding `centre ± extent`, and it can come out
/// up to one spacing of its coordinates (plus a few `ε` of the extent) inside
/// the exact box, while the narrow phase works relative to one shape and does
/// not see that rounding. Far from the origin two shapes can then touch while
/// their rounded boxes fall into neighbouring cells, and the pair would be lost
/// (`tests/suite/far.rs` pins such cases). The margin covers both roundings; it adds
/// candidates only within a few ulps of a box.
pub fn rounding_margin<T: Real, const D: usize>(b: BoundingBox<T, D>) -> BoundingBox<T, D> {
    use num_traits::Float;
    let mut out = b;
    for i in 0..D {
        let (lo, hi) = (b.min[i], b.max[i]);
        if !(Float::is_finite(lo) && Float::is_finite(hi)) {
            return b;
        }
        let pad =
            T::lit(8.0) * <T as Float>::epsilon() * Float::max(Float::abs(lo), Float::abs(hi));
        out.min[i] = Float::max(lo - pad, -<T as Float>::max_value());
        out.max[i] = Float::min(hi + pad, <T as Float>::max_value());
    }
    out
}

/// What a region query can tell from a shape's bounding box alone.
enum Fitted<T: Real, const D: usize> {
    /// The region and the box are apart: so are the region and the shape.
    Apart,
    /// The region holds the whole box: it meets the shape.
    Holds,
    /// The part of the region inside the box, cut into pieces that each fit a
    /// query box (at most two per axis; a built-in shape's box is never wider
    /// than four times the largest size).
    Pieces([Option<BoundingBox<T, D>>; 8]),
    /// A box too wide to cut into query boxes (only a user shape whose
    /// bounding box exceeds the size limit).
    TooWide,
}

/// The region as the table can test it against a shape whose bounding box is
/// `bounds` (the shape's own box, not the grid's widened one: far out, the
/// widening alone is wider than any query box can be): intersected with the box (the same answer, since the shape lies
/// in its box, and a finite size and centre even for an unbounded region),
/// then cut at its centre along each axis wider than twice
/// [`shape::tolerance::max_size`], so that every piece is a valid `Aabb`.
/// Closed pieces cover the region exactly.
fn fitted_region<T: Real, const D: usize>(
    region: &BoundingBox<T, D>,
    bounds: &BoundingBox<T, D>,
) -> Fitted<T, D> {
    let r = BoundingBox::new(region.min.sup(&bounds.min), region.max.inf(&bounds.max));
    if !(0..D).all(|i| r.min[i] <= r.max[i]) {
        return Fitted::Apart;
    }
    if r == *bounds {
        return Fitted::Holds;
    }
    let limit = shape::tolerance::max_size::<T>();
    let mut pieces = [None; 8];
    pieces[0] = Some(r);
    let mut count = 1;
    for i in 0..D {
        // Half the extent, without overflow.
        let half = r.max[i] * T::half() - r.min[i] * T::half();
        if half <= limit {
            continue;
        }
        if half > limit * T::two() {
            return Fitted::TooWide;
        }
        for k in 0..count {
            let Some(mut lo) = pieces[k] else { continue };
            let mut hi = lo;
            let mid = centre(&lo)[i];
            lo.max[i] = mid;
            hi.min[i] = mid;
            pieces[k] = Some(lo);
            pieces[count + k] = Some(hi);
        }
        count *= 2;
    }
    Fitted::Pieces(pieces)
}

/// The error of a region query that cannot be posed as query boxes: only for
/// a user shape whose bounding box is wider than four times the size limit.
#[cold]
fn too_wide(region: shape::ShapeKind, kind: shape::ShapeKind) -> DispatchError {
    DispatchError::Unsupported { a: region, b: kind }
}

/// The centre of a box, without overflow: `(min + max) / 2`, or
/// `min / 2 + max / 2` when the sum overflows (a box near `±MAX`).
fn centre<T: Real, const D: usize>(b: &BoundingBox<T, D>) -> Point<T, D> {
    Point::from(core::array::from_fn(|i| {
        let s = b.min[i] + b.max[i];
        if num_traits::Float::is_finite(s) {
            s * T::half()
        } else {
            b.min[i] * T::half() + b.max[i] * T::half()
        }
    }))
}

/// A dimension's contact type names the dimension's contact manifold type, so
/// that [`Collisions`](crate::Collisions) can hold both with one type
/// parameter: [`Contact`] has [`Manifold<T, 2>`], [`Contact3`] has
/// [`Manifold<T, 3>`].
pub trait ContactType {
    /// The contact manifold of the same dimension and precision.
    type Manifold: Copy + Debug + PartialEq + Send + Sync;
    /// The feature ids of a manifold's points, in their order (what the
    /// world matches from frame to frame; code generic over the dimension
    /// reads them here, as the manifold types differ by their capacity).
    fn manifold_ids(m: &Self::Manifold) -> impl Iterator<Item = FeatureId> + '_;
}

impl<T: Real> ContactType for Contact<T> {
    type Manifold = Manifold<T, 2>;
    #[inline]
    fn manifold_ids(m: &Self::Manifold) -> impl Iterator<Item = FeatureId> + '_ {
        m.points().iter().map(|p| p.id)
    }
}

impl<T: Real> ContactType for Contact3<T> {
    type Manifold = Manifold<T, 3>;
    #[inline]
    fn manifold_ids(m: &Self::Manifold) -> impl Iterator<Item = FeatureId> + '_ {
        m.points().iter().map(|p| p.id)
    }
}

/// A manifold with its parts, or the table's error
/// ([`Space::contact_manifold_stored`]).
pub type ManifoldWithParts<T, const D: usize, S> = Result<
    (
        Option<<<S as Space<T, D>>::Contact as ContactType>::Manifold>,
        Parts,
    ),
    DispatchError,
>;

/// Marker type for a dimension: `Dim<2>` or `Dim<3>`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Dim<const D: usize>;

/// A dimension's shapes, poses, contacts and dispatch table.
pub trait Space<T: Real, const D: usize> {
    /// The shape trait object (`dyn Shape<T>` or `dyn Shape3<T>`).
    type Shape: ?Sized + Debug + Send + Sync;
    /// A shape as the world stores it (built-in shapes by value).
    type Stored: Storage<Self::Shape>;
    /// The pose (`Isometry2<T>` or `Isometry3<T>`).
    type Pose: Copy + Debug + PartialEq + Send + Sync;
    /// The contact (`Contact<T>` or `Contact3<T>`), which names the
    /// dimension's manifold.
    type Contact: Copy + Debug + PartialEq + Send + Sync + ContactType;
    /// The dispatch table.
    type Table: Clone + Debug + Send + Sync;

    /// A table with every built-in pair registered.
    fn new_table() -> Self::Table;
    /// Whether every number of the pose is finite.
    fn pose_is_finite(pose: &Self::Pose) -> bool;
    /// The shape's bounding box at the pose, widened by [`rounding_margin`] so
    /// that rounding never leaves a point of the shape outside it.
    fn bounding_box(shape: &Self::Shape, pose: &Self::Pose) -> BoundingBox<T, D>;
    /// The narrow-phase boolean test.
    ///
    /// # Errors
    /// The dispatch table's error.
    fn intersects(
        table: &Self::Table,
        a: &Self::Shape,
        pose_a: &Self::Pose,
        b: &Self::Shape,
        pose_b: &Self::Pose,
    ) -> Result<bool, DispatchError>;
    /// The narrow-phase contact.
    ///
    /// # Errors
    /// The dispatch table's error.
    fn contact(
        table: &Self::Table,
        a: &Self::Shape,
        pose_a: &Self::Pose,
        b: &Self::Shape,
        pose_b: &Self::Pose,
    ) -> Result<Option<Self::Contact>, DispatchError>;
    /// [`contact`](Self::contact) of two shapes as the world stores them: two
    /// built-in shapes stored by value go to the table by their types, with
    /// no call through their vtables (the same answer); with the parts that
    /// gave it when a shape is a composite (`Table::query_parts`),
    /// [`Parts::NONE`] otherwise.
    ///
    /// # Errors
    /// The dispatch table's error.
    fn contact_stored(
        table: &Self::Table,
        a: &Self::Stored,
        pose_a: &Self::Pose,
        b: &Self::Stored,
        pose_b: &Self::Pose,
    ) -> Result<(Option<Self::Contact>, Parts), DispatchError>;
    /// [`contact`](Self::contact) with the parts that gave it when a shape
    /// is a composite ([`Parts::NONE`] otherwise; the same contact).
    ///
    /// # Errors
    /// The dispatch table's error.
    fn contact_with_parts(
        table: &Self::Table,
        a: &Self::Shape,
        pose_a: &Self::Pose,
        b: &Self::Shape,
        pose_b: &Self::Pose,
    ) -> Result<(Option<Self::Contact>, Parts), DispatchError>;
    /// [`cast_shapes`](Self::cast_shapes) with the parts that gave the hit
    /// when a shape is a composite ([`Parts::NONE`] otherwise; the same hit).
    ///
    /// # Errors
    /// The dispatch table's error.
    fn cast_shapes_with_parts(
        table: &Self::Table,
        a: &Self::Shape,
        pose_a: &Self::Pose,
        b: &Self::Shape,
        pose_b: &Self::Pose,
        args: ShapeCastArgs<T, D>,
    ) -> Result<(Option<ShapeCastHit<T, D>>, Parts), DispatchError>;
    /// The part of a composite shape that the ray's first hit is on (its
    /// `Composite::cast_ray_part`, the same hit as [`cast_ray`](Self::cast_ray)):
    /// `None` for a shape that is not a composite, or when the ray misses.
    fn ray_part(
        shape: &Self::Shape,
        pose: &Self::Pose,
        ray: &Ray<T, D>,
        max_toi: T,
        solid: bool,
    ) -> Option<u32>;
    /// The narrow phase's contact manifold within `prediction` (world frame,
    /// normal from `a` to `b`) of two shapes as the world stores them: two
    /// built-in shapes go to the table by their types, others through their
    /// trait objects (the same answer as `Table::contact_manifold`), with the
    /// parts as in [`contact_stored`](Self::contact_stored) (the deepest
    /// part pair's).
    ///
    /// # Errors
    /// The dispatch table's error.
    fn contact_manifold_stored(
        table: &Self::Table,
        a: &Self::Stored,
        pose_a: &Self::Pose,
        b: &Self::Stored,
        pose_b: &Self::Pose,
        prediction: T,
    ) -> ManifoldWithParts<T, D, Self>;
    /// The narrow-phase closest points (world frame, normal from `a` to
    /// `b`), or [`ClosestPoints::Farther`] beyond `max_distance`.
    ///
    /// # Errors
    /// The dispatch table's error.
    fn closest_points(
        table: &Self::Table,
        a: &Self::Shape,
        pose_a: &Self::Pose,
        b: &Self::Shape,
        pose_b: &Self::Pose,
        max_distance: T,
    ) -> Result<ClosestPoints<T, D>, DispatchError>;
    /// The narrow phase's linear shape cast (`docs/conventions.md`, "Shape
    /// casts"): the first time in `[0, args.max_toi]` at which `a` moved by
    /// `args.vel_a·t` and `b` moved by `args.vel_b·t` touch.
    ///
    /// # Errors
    /// The dispatch table's error.
    fn cast_shapes(
        table: &Self::Table,
        a: &Self::Shape,
        pose_a: &Self::Pose,
        b: &Self::Shape,
        pose_b: &Self::Pose,
        args: ShapeCastArgs<T, D>,
    ) -> Result<Option<ShapeCastHit<T, D>>, DispatchError>;
    /// [`cast_shapes`](Self::cast_shapes) of two shapes as the world stores
    /// them (built-in shapes by their types, the same answer), with the
    /// parts as in [`contact_stored`](Self::contact_stored).
    ///
    /// # Errors
    /// The dispatch table's error.
    fn cast_shapes_stored(
        table: &Self::Table,
        a: &Self::Stored,
        pose_a: &Self::Pose,
        b: &Self::Stored,
        pose_b: &Self::Pose,
        args: ShapeCastArgs<T, D>,
    ) -> Result<(Option<ShapeCastHit<T, D>>, Parts), DispatchError>;
    /// A contact's normal (from `a` to `b`), depth and witness points.
    fn contact_parts(
        c: &Self::Contact,
    ) -> (nalgebra::Unit<SVector<T, D>>, T, Point<T, D>, Point<T, D>);
    /// The pose moved by the translation `v` (rotation kept).
    fn translated(pose: &Self::Pose, v: &SVector<T, D>) -> Self::Pose;
    /// The pose's translation.
    fn translation(pose: &Self::Pose) -> SVector<T, D>;
    /// The pose with its translation replaced by `t` (rotation kept).
    fn with_translation(pose: &Self::Pose, t: &SVector<T, D>) -> Self::Pose;
    /// The narrow phase's ray cast of one shape
    /// (`narrowphase::cast_ray`, `narrowphase::dim3::cast_ray3`): the first
    /// hit with `toi ≤ max_toi`, solid or hollow.
    ///
    /// # Errors
    /// The narrow phase's error (an invalid ray or `max_toi`, a shape that
    /// offers no way to answer, an origin out of range).
    fn cast_ray(
        shape: &Self::Shape,
        pose: &Self::Pose,
        ray: &Ray<T, D>,
        max_toi: T,
        solid: bool,
    ) -> Result<Option<RayHit<T, D>>, DispatchError>;
    /// The narrow phase's point projection onto one shape
    /// (`narrowphase::project_point`, `narrowphase::dim3::project_point3`).
    ///
    /// # Errors
    /// The narrow phase's error (a non-finite point, a shape that offers no
    /// way to answer, a point out of range).
    fn project_point(
        shape: &Self::Shape,
        pose: &Self::Pose,
        point: &Point<T, D>,
        solid: bool,
    ) -> Result<PointProjection<T, D>, DispatchError>;
    /// Whether the shape at the pose contains the point (exact).
    ///
    /// # Errors
    /// [`DispatchError::Unsupported`] when the shape offers no way to answer.
    fn contains_point(
        table: &Self::Table,
        shape: &Self::Shape,
        pose: &Self::Pose,
        p: &Point<T, D>,
    ) -> Result<bool, DispatchError>;
    /// Whether the shape at the pose overlaps the closed box (exact).
    ///
    /// # Errors
    /// [`DispatchError::Unsupported`] when the shape offers no way to answer.
    fn overlaps_box(
        table: &Self::Table,
        shape: &Self::Shape,
        pose: &Self::Pose,
        region: &BoundingBox<T, D>,
    ) -> Result<bool, DispatchError>;
}

impl<T: Real> Space<T, 2> for Dim<2> {
    type Shape = dyn Shape<T>;
    type Stored = Stored2<T>;
    type Pose = Isometry2<T>;
    type Contact = Contact<T>;
    type Table = DispatchTable<T>;

    fn new_table() -> Self::Table {
        DispatchTable::new()
    }
    fn pose_is_finite(pose: &Isometry2<T>) -> bool {
        let t = pose.translation.vector;
        let r = pose.rotation;
        [t.x, t.y, r.re, r.im]
            .iter()
            .all(|v| num_traits::Float::is_finite(*v))
    }
    fn bounding_box(shape: &dyn Shape<T>, pose: &Isometry2<T>) -> BoundingBox<T, 2> {
        rounding_margin(shape.bounding_box(pose))
    }
    fn intersects(
        table: &DispatchTable<T>,
        a: &dyn Shape<T>,
        pose_a: &Isometry2<T>,
        b: &dyn Shape<T>,
        pose_b: &Isometry2<T>,
    ) -> Result<bool, DispatchError> {
        table.intersects(a, pose_a, b, pose_b)
    }
    fn contact(
        table: &DispatchTable<T>,
        a: &dyn Shape<T>,
        pose_a: &Isometry2<T>,
        b: &dyn Shape<T>,
        pose_b: &Isometry2<T>,
    ) -> Result<Option<Contact<T>>, DispatchError> {
        table.contact(a, pose_a, b, pose_b)
    }
    #[inline]
    fn contact_stored(
        table: &DispatchTable<T>,
        a: &Stored2<T>,
        pose_a: &Isometry2<T>,
        b: &Stored2<T>,
        pose_b: &Isometry2<T>,
    ) -> Result<(Option<Contact<T>>, Parts), DispatchError> {
        match (a.builtin(), b.builtin()) {
            (Some(x), Some(y)) => table
                .query_builtin::<ContactQuery>(x, pose_a, y, pose_b, ())
                .map(|c| (c, Parts::NONE)),
            _ => Self::contact_with_parts(table, a.shape(), pose_a, b.shape(), pose_b),
        }
    }
    fn contact_with_parts(
        table: &DispatchTable<T>,
        a: &dyn Shape<T>,
        pose_a: &Isometry2<T>,
        b: &dyn Shape<T>,
        pose_b: &Isometry2<T>,
    ) -> Result<(Option<Contact<T>>, Parts), DispatchError> {
        // `query_parts` answers any pair: `Parts::NONE` unless a composite.
        table.query_parts::<ContactQuery>(a, pose_a, b, pose_b, ())
    }
    fn cast_shapes_with_parts(
        table: &DispatchTable<T>,
        a: &dyn Shape<T>,
        pose_a: &Isometry2<T>,
        b: &dyn Shape<T>,
        pose_b: &Isometry2<T>,
        args: ShapeCastArgs<T, 2>,
    ) -> Result<(Option<ShapeCastHit<T, 2>>, Parts), DispatchError> {
        table.query_parts::<ShapeCastQuery>(a, pose_a, b, pose_b, args)
    }
    fn ray_part(
        shape: &dyn Shape<T>,
        pose: &Isometry2<T>,
        ray: &Ray<T, 2>,
        max_toi: T,
        solid: bool,
    ) -> Option<u32> {
        if !ray.is_valid() || max_toi.is_nan() || max_toi < T::zero() {
            return None;
        }
        shape
            .as_composite()?
            .cast_ray_part(pose, ray, max_toi, solid)
            .map(|(id, _)| id)
    }
    #[inline]
    fn contact_manifold_stored(
        table: &DispatchTable<T>,
        a: &Stored2<T>,
        pose_a: &Isometry2<T>,
        b: &Stored2<T>,
        pose_b: &Isometry2<T>,
        prediction: T,
    ) -> Result<(Option<Manifold<T, 2>>, Parts), DispatchError> {
        match (a.builtin(), b.builtin()) {
            (Some(x), Some(y)) => table
                .query_builtin::<ManifoldQuery>(x, pose_a, y, pose_b, prediction)
                .map(|m| (m, Parts::NONE)),
            _ => {
                table.query_parts::<ManifoldQuery>(a.shape(), pose_a, b.shape(), pose_b, prediction)
            }
        }
    }
    fn closest_points(
        table: &DispatchTable<T>,
        a: &dyn Shape<T>,
        pose_a: &Isometry2<T>,
        b: &dyn Shape<T>,
        pose_b: &Isometry2<T>,
        max_distance: T,
    ) -> Result<ClosestPoints<T, 2>, DispatchError> {
        table.closest_points(a, pose_a, b, pose_b, max_distance)
    }
    fn cast_shapes(
        table: &DispatchTable<T>,
        a: &dyn Shape<T>,
        pose_a: &Isometry2<T>,
        b: &dyn Shape<T>,
        pose_b: &Isometry2<T>,
        args: ShapeCastArgs<T, 2>,
    ) -> Result<Option<ShapeCastHit<T, 2>>, DispatchError> {
        table.cast_shapes(a, pose_a, b, pose_b, args)
    }
    #[inline]
    fn cast_shapes_stored(
        table: &DispatchTable<T>,
        a: &Stored2<T>,
        pose_a: &Isometry2<T>,
        b: &Stored2<T>,
        pose_b: &Isometry2<T>,
        args: ShapeCastArgs<T, 2>,
    ) -> Result<(Option<ShapeCastHit<T, 2>>, Parts), DispatchError> {
        match (a.builtin(), b.builtin()) {
            (Some(x), Some(y)) => table
                .query_builtin::<ShapeCastQuery>(x, pose_a, y, pose_b, args)
                .map(|h| (h, Parts::NONE)),
            _ => Self::cast_shapes_with_parts(table, a.shape(), pose_a, b.shape(), pose_b, args),
        }
    }
    #[inline]
    fn contact_parts(
        c: &Contact<T>,
    ) -> (nalgebra::Unit<SVector<T, 2>>, T, Point<T, 2>, Point<T, 2>) {
        (c.normal, c.depth, c.point_a, c.point_b)
    }
    #[inline]
    fn translated(pose: &Isometry2<T>, v: &SVector<T, 2>) -> Isometry2<T> {
        let mut p = *pose;
        p.translation.vector += v;
        p
    }
    #[inline]
    fn translation(pose: &Isometry2<T>) -> SVector<T, 2> {
        pose.translation.vector
    }
    #[inline]
    fn with_translation(pose: &Isometry2<T>, t: &SVector<T, 2>) -> Isometry2<T> {
        let mut p = *pose;
        p.translation.vector = *t;
        p
    }
    fn cast_ray(
        shape: &dyn Shape<T>,
        pose: &Isometry2<T>,
        ray: &Ray<T, 2>,
        max_toi: T,
        solid: bool,
    ) -> Result<Option<RayHit<T, 2>>, DispatchError> {
        narrowphase::cast_ray(shape, pose, ray, max_toi, solid)
    }
    fn project_point(
        shape: &dyn Shape<T>,
        pose: &Isometry2<T>,
        point: &Point<T, 2>,
        solid: bool,
    ) -> Result<PointProjection<T, 2>, DispatchError> {
        narrowphase::project_point(shape, pose, point, solid)
    }
    fn contains_point(
        table: &DispatchTable<T>,
        shape: &dyn Shape<T>,
        pose: &Isometry2<T>,
        p: &Point<T, 2>,
    ) -> Result<bool, DispatchError> {
        let probe = shape::Point::origin();
        table.intersects(&probe, &Isometry2::translation(p.x, p.y), shape, pose)
    }
    fn overlaps_box(
        table: &DispatchTable<T>,
        shape: &dyn Shape<T>,
        pose: &Isometry2<T>,
        region: &BoundingBox<T, 2>,
    ) -> Result<bool, DispatchError> {
        let pieces = match fitted_region(region, &shape.bounding_box(pose)) {
            Fitted::Apart => return Ok(false),
            Fitted::Holds => return Ok(true),
            Fitted::TooWide => return Err(too_wide(shape::ShapeKind::AABB, shape.kind())),
            Fitted::Pieces(p) => p,
        };
        for region in pieces.iter().flatten() {
            let half = region.half_extents();
            let c = centre(region);
            let at = Isometry2::translation(c.x, c.y);
            let hit = if half.x > T::zero() && half.y > T::zero() {
                let b = shape::Aabb::from_half_extents(half)
                    .map_err(|_| too_wide(shape::ShapeKind::AABB, shape.kind()))?;
                table.intersects(&b, &at, shape, pose)?
            } else if half.x > T::zero() || half.y > T::zero() {
                // A flat region: a segment, in a frame at its centre; so thin
                // that its ends round to one point there, a point.
                match shape::Segment::new(region.min - c.coords, region.max - c.coords) {
                    Ok(s) => table.intersects(&s, &at, shape, pose)?,
                    Err(_) => Self::contains_point(table, shape, pose, &c)?,
                }
            } else {
                Self::contains_point(table, shape, pose, &c)?
            };
            if hit {
                return Ok(true);
            }
        }
        Ok(false)
    }
}

impl<T: Real> Space<T, 3> for Dim<3> {
    type Shape = dyn Shape3<T>;
    type Stored = Stored3<T>;
    type Pose = Isometry3<T>;
    type Contact = Contact3<T>;
    type Table = DispatchTable3<T>;

    fn new_table() -> Self::Table {
        DispatchTable3::new()
    }
    fn pose_is_finite(pose: &Isometry3<T>) -> bool {
        let t = pose.translation.vector;
        let q = pose.rotation.quaternion();
        [t.x, t.y, t.z, q.w, q.i, q.j, q.k]
            .iter()
            .all(|v| num_traits::Float::is_finite(*v))
    }
    fn bounding_box(shape: &dyn Shape3<T>, pose: &Isometry3<T>) -> BoundingBox<T, 3> {
        rounding_margin(shape.bounding_box(pose))
    }
    fn intersects(
        table: &DispatchTable3<T>,
        a: &dyn Shape3<T>,
        pose_a: &Isometry3<T>,
        b: &dyn Shape3<T>,
        pose_b: &Isometry3<T>,
    ) -> Result<bool, DispatchError> {
        table.intersects(a, pose_a, b, pose_b)
    }
    fn contact(
        table: &DispatchTable3<T>,
        a: &dyn Shape3<T>,
        pose_a: &Isometry3<T>,
        b: &dyn Shape3<T>,
        pose_b: &Isometry3<T>,
    ) -> Result<Option<Contact3<T>>, DispatchError> {
        table.contact(a, pose_a, b, pose_b)
    }
    #[inline]
    fn contact_stored(
        table: &DispatchTable3<T>,
        a: &Stored3<T>,
        pose_a: &Isometry3<T>,
        b: &Stored3<T>,
        pose_b: &Isometry3<T>,
    ) -> Result<(Option<Contact3<T>>, Parts), DispatchError> {
        match (a.builtin(), b.builtin()) {
            (Some(x), Some(y)) => table.query_builtin::<ContactQuery>(x, pose_a, y, pose_b, ()),
            _ => table.contact(a.shape(), pose_a, b.shape(), pose_b),
        }
        .map(|c| (c, Parts::NONE))
    }
    /// No composite shapes in 3D: the contact and [`Parts::NONE`].
    fn contact_with_parts(
        table: &DispatchTable3<T>,
        a: &dyn Shape3<T>,
        pose_a: &Isometry3<T>,
        b: &dyn Shape3<T>,
        pose_b: &Isometry3<T>,
    ) -> Result<(Option<Contact3<T>>, Parts), DispatchError> {
        table
            .contact(a, pose_a, b, pose_b)
            .map(|c| (c, Parts::NONE))
    }
    /// No composite shapes in 3D: the hit and [`Parts::NONE`].
    fn cast_shapes_with_parts(
        table: &DispatchTable3<T>,
        a: &dyn Shape3<T>,
        pose_a: &Isometry3<T>,
        b: &dyn Shape3<T>,
        pose_b: &Isometry3<T>,
        args: ShapeCastArgs<T, 3>,
    ) -> Result<(Option<ShapeCastHit<T, 3>>, Parts), DispatchError> {
        table
            .cast_shapes(a, pose_a, b, pose_b, args)
            .map(|h| (h, Parts::NONE))
    }
    /// No composite shapes in 3D.
    fn ray_part(
        _shape: &dyn Shape3<T>,
        _pose: &Isometry3<T>,
        _ray: &Ray<T, 3>,
        _max_toi: T,
        _solid: bool,
    ) -> Option<u32> {
        None
    }
    #[inline]
    fn contact_manifold_stored(
        table: &DispatchTable3<T>,
        a: &Stored3<T>,
        pose_a: &Isometry3<T>,
        b: &Stored3<T>,
        pose_b: &Isometry3<T>,
        prediction: T,
    ) -> Result<(Option<Manifold<T, 3>>, Parts), DispatchError> {
        match (a.builtin(), b.builtin()) {
            (Some(x), Some(y)) => {
                table.query_builtin::<ManifoldQuery>(x, pose_a, y, pose_b, prediction)
            }
            _ => table.contact_manifold(a.shape(), pose_a, b.shape(), pose_b, prediction),
        }
        .map(|m| (m, Parts::NONE))
    }
    fn closest_points(
        table: &DispatchTable3<T>,
        a: &dyn Shape3<T>,
        pose_a: &Isometry3<T>,
        b: &dyn Shape3<T>,
        pose_b: &Isometry3<T>,
        max_distance: T,
    ) -> Result<ClosestPoints<T, 3>, DispatchError> {
        table.closest_points(a, pose_a, b, pose_b, max_distance)
    }
    fn cast_shapes(
        table: &DispatchTable3<T>,
        a: &dyn Shape3<T>,
        pose_a: &Isometry3<T>,
        b: &dyn Shape3<T>,
        pose_b: &Isometry3<T>,
        args: ShapeCastArgs<T, 3>,
    ) -> Result<Option<ShapeCastHit<T, 3>>, DispatchError> {
        table.cast_shapes(a, pose_a, b, pose_b, args)
    }
    #[inline]
    fn cast_shapes_stored(
        table: &DispatchTable3<T>,
        a: &Stored3<T>,
        pose_a: &Isometry3<T>,
        b: &Stored3<T>,
        pose_b: &Isometry3<T>,
        args: ShapeCastArgs<T, 3>,
    ) -> Result<(Option<ShapeCastHit<T, 3>>, Parts), DispatchError> {
        match (a.builtin(), b.builtin()) {
            (Some(x), Some(y)) => table.query_builtin::<ShapeCastQuery>(x, pose_a, y, pose_b, args),
            _ => table.cast_shapes(a.shape(), pose_a, b.shape(), pose_b, args),
        }
        .map(|h| (h, Parts::NONE))
    }
    #[inline]
    fn contact_parts(
        c: &Contact3<T>,
    ) -> (nalgebra::Unit<SVector<T, 3>>, T, Point<T, 3>, Point<T, 3>) {
        (c.normal, c.depth, c.point_a, c.point_b)
    }
    #[inline]
    fn translated(pose: &Isometry3<T>, v: &SVector<T, 3>) -> Isometry3<T> {
        let mut p = *pose;
        p.translation.vector += v;
        p
    }
    #[inline]
    fn translation(pose: &Isometry3<T>) -> SVector<T, 3> {
        pose.translation.vector
    }
    #[inline]
    fn with_translation(pose: &Isometry3<T>, t: &SVector<T, 3>) -> Isometry3<T> {
        let mut p = *pose;
        p.translation.vector = *t;
        p
    }
    fn cast_ray(
        shape: &dyn Shape3<T>,
        pose: &Isometry3<T>,
        ray: &Ray<T, 3>,
        max_toi: T,
        solid: bool,
    ) -> Result<Option<RayHit<T, 3>>, DispatchError> {
        narrowphase::dim3::cast_ray3(shape, pose, ray, max_toi, solid)
    }
    fn project_point(
        shape: &dyn Shape3<T>,
        pose: &Isometry3<T>,
        point: &Point<T, 3>,
        solid: bool,
    ) -> Result<PointProjection<T, 3>, DispatchError> {
        narrowphase::dim3::project_point3(shape, pose, point, solid)
    }
    fn contains_point(
        _table: &DispatchTable3<T>,
        shape: &dyn Shape3<T>,
        pose: &Isometry3<T>,
        p: &Point<T, 3>,
    ) -> Result<bool, DispatchError> {
        shape
            .as_convex()
            .map(|c| c.contains_point(pose, p))
            .ok_or(DispatchError::Unsupported {
                a: shape::ShapeKind::AABB3,
                b: shape.kind(),
            })
    }
    /// The region as an `Aabb3` through the table. A region flat along an axis
    /// is thickened to one ulp of its coordinate there (an `Aabb3` needs a
    /// positive size); a region that is a single point is a point query.
    fn overlaps_box(
        table: &DispatchTable3<T>,
        shape: &dyn Shape3<T>,
        pose: &Isometry3<T>,
        region: &BoundingBox<T, 3>,
    ) -> Result<bool, DispatchError> {
        let pieces = match fitted_region(region, &shape.bounding_box(pose)) {
            Fitted::Apart => return Ok(false),
            Fitted::Holds => return Ok(true),
            Fitted::TooWide => return Err(too_wide(shape::ShapeKind::AABB3, shape.kind())),
            Fitted::Pieces(p) => p,
        };
        for region in pieces.iter().flatten() {
            let c = centre(region);
            let mut half = region.half_extents();
            let hit = if half.iter().all(|h| *h <= T::zero()) {
                Self::contains_point(table, shape, pose, &c)?
            } else {
                for i in 0..3 {
                    if half[i] <= T::zero() {
                        let ulp = num_traits::Float::abs(c[i]) * T::epsilon();
                        half[i] = num_traits::Float::max(ulp, T::min_positive_value());
                    }
                }
                let b = shape::Aabb3::from_half_extents(Vector3::new(half.x, half.y, half.z))
                    .map_err(|_| too_wide(shape::ShapeKind::AABB3, shape.kind()))?;
                table.intersects(&b, &Isometry3::translation(c.x, c.y, c.z), shape, pose)?
            };
            if hit {
                return Ok(true);
            }
        }
        Ok(false)
    }
}
