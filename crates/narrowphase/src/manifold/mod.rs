//! Contact manifolds: the points a solver needs to hold two shapes apart (the
//! pair query [`ManifoldQuery`](crate::queries::ManifoldQuery), the free
//! functions [`contact_manifold`](crate::contact_manifold) and
//! [`contact_manifold3`](crate::dim3::contact_manifold3)).
//!
//! The contract is in `docs/conventions.md` ("Contact manifolds"). In short:
//! one unit normal from A to B, and up to [`MAX_MANIFOLD_POINTS`] points (2 in
//! 2D, 4 for the 3D box pairs), each with a point on each shape, its
//! separation along the normal (negative when penetrating, positive for a
//! *speculative* point that is not yet touching but within `prediction`) and
//! a [`FeatureId`] naming the vertex, edge or face of each shape that
//! produced it, so that a solver can match the points of consecutive frames.
//!
//! # How the 2D manifold is built
//!
//! The exact queries decide everything the solver's stability rests on: the
//! normal and the deepest separation are those of the pair's exact
//! [`contact`](crate::contact) kernel when the shapes intersect, of its exact
//! closest points when they are apart by at most `prediction`. The manifold
//! then adds the second point of a flat contact by Box2D's reference/incident
//! clipping (Catto, "Contact manifolds", GDC 2007; Box2D v3's
//! `b2ClipPolygons`) on the shapes' cores ([`Polygonal`](crate::polygonal::Polygonal):
//! boxes, triangles and polygons are their own cores, a segment or a
//! capsule's core is a segment, a circle's a point):
//!
//! 1. the *reference face* is the face of either shape whose outward normal
//!    is best aligned with the contact normal (A's face with `n`, B's with
//!    `−n`; A on a tie); when even that one is off by more than a small
//!    angle, the contact is at a corner and has one point;
//! 2. the *incident edge* is the other shape's edge best aligned against the
//!    reference normal; it contains that shape's deepest core vertex;
//! 3. the incident edge is clipped to the reference face's extent across the
//!    normal; each remaining end is a point, whose separation is the exact
//!    separation plus its height above the deepest vertex along the normal
//!    (so the deepest point's separation *is* the exact one, bit for bit);
//!    ends farther than `prediction` are dropped.
//!
//! Feature ids are intrinsic to the geometry, not to the choice of reference
//! face: an end that is an incident vertex is "vertex `k` of one shape on
//! edge `f` of the other", an end cut by the reference face's end is "edge `e`
//! of one shape at vertex `j` of the other". A box resting on a box gets the
//! same two ids whichever box is the reference, so the ids survive the
//! jitter of a resting contact. Ellipses (smooth, with no core) contribute
//! one point whose feature is [`Feature::Surface`].
//!
//! # 3D
//!
//! The 3D kernels (`dim3/manifold3.rs`, served by the 3D table and
//! [`contact_manifold3`](crate::dim3::contact_manifold3)) start the same
//! way, from the pair's exact [`contact3`](crate::dim3::contact3) or 3D
//! closest points. A pair with a sphere has that one point. Two boxes
//! ([`Cuboid`](shape::Cuboid), [`Aabb3`](shape::Aabb3)) whose contact is
//! flat on a face (the same small angle as in 2D) get up to 4 points: the
//! incident face's quad is clipped against the reference face's 4 side
//! planes (Sutherland–Hodgman, at most 8 vertices in fixed arrays), each
//! vertex left is a point whose separation is the exact one plus its height
//! above the lowest (the lowest gets the exact separation, bit for bit),
//! points beyond `prediction` are dropped, and more than 4 are reduced to
//! the deepest, the farthest from it and the two that span the largest
//! area. An edge–edge or vertex contact has one point. The ids follow the
//! 2D rule: an unclipped incident vertex is (reference face, incident
//! vertex), an incident edge cut by a side plane is (reference edge,
//! incident edge), a reference corner inside the incident face is
//! (reference vertex, incident face), so a box resting on a box has the same
//! ids whichever face is the reference. The numbering of a box's vertices,
//! edges and faces is in the [`Feature`] documentation.

pub mod fused;
pub mod pairs;
pub mod point_core;
pub mod polygonal;

use nalgebra::{AbstractRotation, Isometry, Point, SVector, Unit};
use shape::Real;

/// The most points a manifold holds: 2 for any 2D pair, 4 for the 3D box
/// pairs.
pub const MAX_MANIFOLD_POINTS: usize = 4;

/// The fixed array a `D`-dimensional [`Manifold`] keeps its points in: 2
/// slots in 2D (no 2D pair has more points), 4 in 3D. A 2D manifold is then
/// half the size, cheap to return and copy (the table moves every answer
/// through its layers). Implemented by [`ManifoldSlots`] for `D = 2` and
/// `D = 3`; code generic over the dimension names it as the bound
/// `ManifoldSlots: ManifoldStorage<T, D>`.
pub trait ManifoldStorage<T: Real, const D: usize> {
    /// The array of points: `[ManifoldPoint<T, D>; N]`.
    type Points: Copy
        + core::fmt::Debug
        + PartialEq
        + Send
        + Sync
        + AsRef<[ManifoldPoint<T, D>]>
        + AsMut<[ManifoldPoint<T, D>]>;
    /// Every slot holding `point`.
    fn filled(point: ManifoldPoint<T, D>) -> Self::Points;
}

/// The implementor of [`ManifoldStorage`] (the storage of 2D and 3D
/// manifolds).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ManifoldSlots;

impl<T: Real> ManifoldStorage<T, 2> for ManifoldSlots {
    type Points = [ManifoldPoint<T, 2>; 2];
    #[inline(always)]
    fn filled(point: ManifoldPoint<T, 2>) -> Self::Points {
        [point; 2]
    }
}

impl<T: Real> ManifoldStorage<T, 3> for ManifoldSlots {
    type Points = [ManifoldPoint<T, 3>; MAX_MANIFOLD_POINTS];
    #[inline(always)]
    fn filled(point: ManifoldPoint<T, 3>) -> Self::Points {
        [point; MAX_MANIFOLD_POINTS]
    }
}

/// A feature of one shape: what a manifold point's [`FeatureId`] names.
///
/// Indices follow each shape's core: vertex `i` of a box, a triangle or a
/// polygon is its `i`-th vertex in counter-clockwise order, edge `i` runs
/// from vertex `i` to vertex `i + 1`. A segment's or capsule's vertices 0
/// and 1 are its ends; its edges 0 and 1 are its two sides (edge 0 faces
/// along the segment's normal `(d.y, −d.x)/|d|` for `d` from end 0 to end 1,
/// edge 1 the other way). A point or circle is vertex 0.
///
/// In 3D a box (a cuboid or an `Aabb3`, in its own axes `x, y, z`) has
/// vertices 0–7, edges 0–11 and faces 0–5, and a sphere is vertex 0:
/// vertex `k` has coordinate `+h` on axis `i` when bit `i` of `k` is set
/// (vertex 0 is the `min` corner, 7 the `max` one, as `Cuboid::vertices`);
/// face `2i` has outward normal `−e_i` and face `2i + 1` has `+e_i` (faces
/// `−x, +x, −y, +y, −z, +z`); edge `4i + m` is parallel to axis `i`, on the
/// `+` side of axis `(i + 1) mod 3` when bit 0 of `m` is set and of axis
/// `(i + 2) mod 3` when bit 1 is (edge 0 runs along `x` at `y = −h_y,
/// z = −h_z`, edge 11 along `z` at `x = +h_x, y = +h_y`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Feature {
    /// A vertex of the shape's core.
    Vertex(u32),
    /// An edge of the shape's core (a side of a segment or capsule).
    Edge(u32),
    /// A face (3D).
    Face(u32),
    /// A smooth shape with no distinguished feature (an ellipse), or a user
    /// shape without a dedicated kernel.
    Surface,
}

/// The features of A and of B that produced a manifold point. Swapping the
/// shapes swaps them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FeatureId {
    /// The feature of shape A.
    pub a: Feature,
    /// The feature of shape B.
    pub b: Feature,
}

impl FeatureId {
    /// The id seen from B.
    #[must_use]
    #[inline]
    pub const fn flipped(self) -> Self {
        Self {
            a: self.b,
            b: self.a,
        }
    }
}

/// One point of a contact manifold.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ManifoldPoint<T: Real, const D: usize = 2> {
    /// The point on A.
    pub point_a: Point<T, D>,
    /// The point on B.
    pub point_b: Point<T, D>,
    /// `(point_b − point_a) · normal`: negative when the shapes penetrate
    /// there, zero touching, positive for a speculative point (`≤
    /// prediction`).
    pub separation: T,
    /// The features of A and B that produced the point.
    pub id: FeatureId,
}

/// A 3D manifold point.
pub type ManifoldPoint3<T> = ManifoldPoint<T, 3>;

impl<T: Real, const D: usize> ManifoldPoint<T, D> {
    /// The point seen from B: points and features swapped.
    #[must_use]
    #[inline]
    pub fn flipped(&self) -> Self {
        Self {
            point_a: self.point_b,
            point_b: self.point_a,
            separation: self.separation,
            id: self.id.flipped(),
        }
    }

    /// The point mapped by `pose`.
    #[must_use]
    #[inline]
    pub fn transformed<R: AbstractRotation<T, D>>(&self, pose: &Isometry<T, R, D>) -> Self {
        Self {
            point_a: pose.transform_point(&self.point_a),
            point_b: pose.transform_point(&self.point_b),
            ..*self
        }
    }
}

/// A contact manifold: a unit normal from A to B and 1 to 2 points in 2D,
/// 1 to [`MAX_MANIFOLD_POINTS`] (4) in 3D, in a fixed-size array (no
/// allocation; see [`ManifoldStorage`]).
///
/// ```
/// use nalgebra::{Isometry2, Vector2};
/// use shape::Obb;
///
/// // A 2×2 box resting on a 10×1 floor, sunk by 0.01.
/// let floor = Obb::<f64>::new(Vector2::new(5.0, 0.5)).unwrap();
/// let crate_ = Obb::new(Vector2::new(1.0, 1.0)).unwrap();
/// let m = narrowphase::contact_manifold(
///     &floor, &Isometry2::identity(),
///     &crate_, &Isometry2::translation(0.0, 1.49),
///     0.0,
/// ).unwrap().expect("touching");
/// assert_eq!(m.normal().y, 1.0);
/// assert_eq!(m.len(), 2); // both bottom corners
/// for p in m.points() {
///     assert!((p.separation + 0.01).abs() < 1e-12);
///     assert!((p.point_b.x.abs() - 1.0).abs() < 1e-12);
/// }
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Manifold<T: Real, const D: usize = 2>
where
    ManifoldSlots: ManifoldStorage<T, D>,
{
    normal: Unit<SVector<T, D>>,
    points: <ManifoldSlots as ManifoldStorage<T, D>>::Points,
    len: u8,
}

/// A 3D contact manifold.
pub type Manifold3<T> = Manifold<T, 3>;

/// Two manifolds are equal when their normals and their points are: the
/// unused slots of the storage play no part.
impl<T: Real, const D: usize> PartialEq for Manifold<T, D>
where
    ManifoldSlots: ManifoldStorage<T, D>,
{
    fn eq(&self, other: &Self) -> bool {
        self.normal == other.normal && self.points() == other.points()
    }
}

impl<T: Real, const D: usize> Manifold<T, D>
where
    ManifoldSlots: ManifoldStorage<T, D>,
{
    /// A manifold with normal `normal` and its first point. A manifold always
    /// has at least one point (a pair with none has no manifold).
    #[must_use]
    #[inline]
    pub fn new(normal: Unit<SVector<T, D>>, first: ManifoldPoint<T, D>) -> Self {
        Self {
            normal,
            points: ManifoldSlots::filled(first),
            len: 1,
        }
    }

    /// Adds a point; `false` (and nothing added) when the manifold is full
    /// (2 points in 2D, 4 in 3D).
    #[inline]
    pub fn push(&mut self, point: ManifoldPoint<T, D>) -> bool {
        let len = usize::from(self.len);
        let Some(slot) = self.points.as_mut().get_mut(len) else {
            return false;
        };
        *slot = point;
        self.len += 1;
        true
    }

    /// The unit normal, from A towards B.
    #[must_use]
    #[inline]
    pub fn normal(&self) -> Unit<SVector<T, D>> {
        self.normal
    }

    /// The points, at least one.
    #[must_use]
    #[inline]
    pub fn points(&self) -> &[ManifoldPoint<T, D>] {
        &self.points.as_ref()[..usize::from(self.len)]
    }

    /// How many points (1 to 2 in 2D, 1 to [`MAX_MANIFOLD_POINTS`] in 3D).
    #[must_use]
    #[inline]
    #[allow(clippy::len_without_is_empty)] // never empty
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// The point of least separation (the first of equals).
    #[must_use]
    pub fn deepest(&self) -> &ManifoldPoint<T, D> {
        let pts = self.points();
        let mut best = &pts[0];
        for p in &pts[1..] {
            if p.separation < best.separation {
                best = p;
            }
        }
        best
    }

    /// The point whose id is `id`, if any.
    #[must_use]
    pub fn point_with_id(&self, id: FeatureId) -> Option<&ManifoldPoint<T, D>> {
        self.points().iter().find(|p| p.id == id)
    }

    /// The manifold seen from B: normal negated, each point's points and
    /// features swapped (the order of the points kept).
    #[must_use]
    #[inline]
    pub fn flipped(&self) -> Self {
        let mut out = *self;
        out.normal = -self.normal;
        for p in &mut out.points.as_mut()[..usize::from(self.len)] {
            *p = p.flipped();
        }
        out
    }

    /// The manifold mapped by `pose` (from a local frame to the world).
    #[must_use]
    #[inline]
    pub fn transformed<R: AbstractRotation<T, D>>(&self, pose: &Isometry<T, R, D>) -> Self {
        let mut out = *self;
        out.normal = Unit::new_unchecked(pose.transform_vector(&self.normal));
        for p in &mut out.points.as_mut()[..usize::from(self.len)] {
            *p = p.transformed(pose);
        }
        out
    }

    /// [`transformed`](Self::transformed) by `pose`, then
    /// [`flipped`](Self::flipped) when `flip`, in place: what the table does
    /// to a kernel's manifold, without building two new ones (the same
    /// numbers, bit for bit: the flip only moves and negates them).
    #[inline(always)]
    pub(crate) fn place<R: AbstractRotation<T, D>>(
        &mut self,
        pose: &Isometry<T, R, D>,
        flip: bool,
    ) {
        let n = pose.transform_vector(&self.normal);
        self.normal = Unit::new_unchecked(if flip { -n } else { n });
        for p in &mut self.points.as_mut()[..usize::from(self.len)] {
            let (a, b) = (
                pose.transform_point(&p.point_a),
                pose.transform_point(&p.point_b),
            );
            if flip {
                p.point_a = b;
                p.point_b = a;
                p.id = p.id.flipped();
            } else {
                p.point_a = a;
                p.point_b = b;
            }
        }
    }
}

/// [`DispatchError::InvalidPrediction`](crate::DispatchError::InvalidPrediction)
/// unless `prediction ≥ 0` (`+∞` allowed, NaN refused).
#[inline]
pub(crate) fn check_prediction<T: Real>(prediction: T) -> Result<(), crate::DispatchError> {
    if prediction >= T::zero() {
        Ok(())
    } else {
        Err(crate::DispatchError::InvalidPrediction)
    }
}
