//! Linear shape casts: the first time two shapes moving at constant
//! velocities touch (the pair query [`ShapeCastQuery`](crate::queries::ShapeCastQuery),
//! the free functions [`cast_shapes`](crate::cast_shapes) and
//! [`cast_shapes3`](crate::dim3::cast_shapes3)).
//!
//! The contract is in `docs/conventions.md` ("Shape casts"): the first time
//! `t ∈ [0, max_toi]` at which A moved by `vel_a·t` and B moved by `vel_b·t`
//! touch (closed sets), the unit normal from A to B at that time and a
//! witness point on each shape, in the world frame at that time.
//!
//! Kernels see the pair the way every kernel of the table does: in A's frame,
//! A at rest. Their arguments ([`ShapeCastArgs`]) then carry a zero `vel_a`
//! and, in `vel_b`, B's velocity relative to A in A's frame; their answer's
//! points are in A's frame with A at rest, and the table maps them to the
//! world at the time of impact (A's frame moved by A's velocity times the
//! time). Swapping the shapes negates the relative velocity exactly, so the
//! canonical-order rule of the table makes a cast exactly symmetric.
//!
//! Every built-in pair has a kernel: a closed form where one exists and the
//! conservative advancement of [`advance`] on the pair's exact closest points
//! otherwise.

pub mod advance;
pub mod pairs;
pub mod polygonal;
pub mod rounded;

use nalgebra::{AbstractRotation, Isometry, Point, SVector, Unit};
use shape::Real;

use crate::DispatchError;

/// What a shape cast does when the shapes already touch or overlap at time 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShapeCastOptions {
    /// `true` (the default): shapes that touch or overlap at time 0 are a hit
    /// at time 0 with status [`ShapeCastStatus::Penetrating`]. `false`: such
    /// a start is a hit only when the motion drives the shapes deeper into
    /// each other (the relative velocity has a component against the contact
    /// normal); shapes that slide along each other or move apart are no hit,
    /// as a character already touching a wall needs.
    pub stop_at_penetration: bool,
}

impl Default for ShapeCastOptions {
    fn default() -> Self {
        Self {
            stop_at_penetration: true,
        }
    }
}

/// How a shape cast found its hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShapeCastStatus {
    /// The shapes were apart at time 0 and touch at `toi`.
    Hit,
    /// The shapes already touched or overlapped at time 0 (`toi` is 0; the
    /// normal and points are those of their contact).
    Penetrating,
}

/// The first contact of two moving shapes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ShapeCastHit<T: Real, const D: usize = 2> {
    /// The time of impact, in `[0, max_toi]`.
    pub toi: T,
    /// The unit normal from A to B at the time of impact.
    pub normal: Unit<SVector<T, D>>,
    /// A witness point on A at the time of impact (world frame).
    pub point_a: Point<T, D>,
    /// A witness point on B at the time of impact (world frame).
    pub point_b: Point<T, D>,
    /// Whether the shapes were apart at time 0.
    pub status: ShapeCastStatus,
}

/// The 3D shape-cast hit.
pub type ShapeCastHit3<T> = ShapeCastHit<T, 3>;

impl<T: Real, const D: usize> ShapeCastHit<T, D> {
    /// The same hit seen from B: points swapped, normal negated.
    #[must_use]
    #[inline]
    pub fn flipped(&self) -> Self {
        Self {
            normal: -self.normal,
            point_a: self.point_b,
            point_b: self.point_a,
            ..*self
        }
    }

    /// The hit mapped by `pose` (from a local frame to the world).
    #[must_use]
    #[inline]
    pub fn transformed<R: AbstractRotation<T, D>>(&self, pose: &Isometry<T, R, D>) -> Self {
        Self {
            normal: Unit::new_unchecked(pose.transform_vector(&self.normal)),
            point_a: pose.transform_point(&self.point_a),
            point_b: pose.transform_point(&self.point_b),
            ..*self
        }
    }

    /// The hit with both points moved by `shift` (a translation).
    #[must_use]
    #[inline]
    pub fn shifted(&self, shift: &SVector<T, D>) -> Self {
        Self {
            point_a: self.point_a + shift,
            point_b: self.point_b + shift,
            ..*self
        }
    }
}

/// The arguments of a shape cast: the velocities (world frame, distance per
/// unit of time), the time bound and the options. A kernel receives them in
/// its own frame, A at rest: `vel_a` zero and `vel_b` B's velocity relative
/// to A in A's frame (see the [module documentation](self)).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ShapeCastArgs<T: Real, const D: usize = 2> {
    /// A's velocity.
    pub vel_a: SVector<T, D>,
    /// B's velocity.
    pub vel_b: SVector<T, D>,
    /// The latest time of impact reported (`≥ 0`, may be `+∞`).
    pub max_toi: T,
    /// What to do when the shapes touch at time 0.
    pub options: ShapeCastOptions,
}

/// The 3D shape-cast arguments.
pub type ShapeCastArgs3<T> = ShapeCastArgs<T, 3>;

impl<T: Real, const D: usize> ShapeCastArgs<T, D> {
    /// The arguments with the shapes' roles exchanged when `swap`.
    #[must_use]
    #[inline]
    pub fn swapped_if(self, swap: bool) -> Self {
        if swap {
            Self {
                vel_a: self.vel_b,
                vel_b: self.vel_a,
                ..self
            }
        } else {
            self
        }
    }

    /// The arguments a kernel sees in `frame` (A's effective pose): A at
    /// rest, B at its velocity relative to A, rotated into the frame.
    #[must_use]
    #[inline]
    pub fn local<R: AbstractRotation<T, D>>(self, frame: &Isometry<T, R, D>) -> Self {
        Self {
            vel_a: SVector::zeros(),
            vel_b: frame.inverse_transform_vector(&(self.vel_b - self.vel_a)),
            ..self
        }
    }

    /// [`DispatchError::NonFiniteVelocity`] for a velocity with a NaN or an
    /// infinity, [`DispatchError::InvalidMaxToi`] for a NaN or negative
    /// `max_toi`.
    ///
    /// # Errors
    /// As above.
    #[inline]
    pub fn check(&self) -> Result<(), DispatchError> {
        let finite = self
            .vel_a
            .iter()
            .chain(self.vel_b.iter())
            .fold(true, |ok, x| {
                ok & (num_traits::Float::abs(*x) < T::infinity())
            });
        if !finite {
            Err(DispatchError::NonFiniteVelocity)
        } else if self.max_toi >= T::zero() {
            Ok(())
        } else {
            Err(DispatchError::InvalidMaxToi)
        }
    }

    /// No hit is possible when the shapes' bounding boxes are `gap` apart and
    /// the relative motion over `[0, max_toi]` is shorter than the gap.
    #[must_use]
    pub fn gap_rules_out(&self, gap: T) -> bool {
        let reach = (self.vel_b - self.vel_a).norm() * self.max_toi;
        // `reach` may be NaN (0·∞): then nothing is ruled out.
        gap > reach
    }
}
