//! Character motion: [`World::move_and_slide`] moves a shape as far as it
//! can along a translation, keeps a skin distance from what it hits, and
//! slides along the hit surfaces.
//!
//! Method (the collide-and-slide loop of game character controllers, e.g.
//! Fauerby's "Improved Collision detection and Response", 2003, here on the
//! World's exact shape casts):
//!
//! 1. **Check the input**: the pose, the translation (finite), the skin
//!    (finite, `> 0`): a typed error before anything is looked at.
//! 2. **Depenetrate** if the shape starts overlapping objects: up to
//!    `max_iterations` times, push it out of the deepest of them along that
//!    contact's normal by `depth + skin`, accepted only if the pushed shape
//!    overlaps no object it did not overlap before (else the pushing stops).
//!    The objects still overlapped after this are *inside* objects: the
//!    shape may go on overlapping them (and only them).
//! 3. **Cast** the shape along the remaining motion `r` (`max_toi = 1`)
//!    with `stop_at_penetration = false`: an object the shape already
//!    touches blocks it only if the motion drives it deeper.
//! 4. **Advance** to `t = max(0, toi − skin / (r·n))` (`n`: the hit normal,
//!    from the shape to the object): at time `toi` the shape touches the
//!    object with the plane through the contact, normal `n`, separating them;
//!    moving back along `r` by `skin / (r·n)` in time moves it `skin` behind
//!    that plane, so the gap to the object is at least `skin` (the shape
//!    never ends closer than the skin along the normal). No other object is
//!    hit before `toi`, so the segment walked is free.
//! 5. **Verify** the step with two independent tests. A ray from the
//!    pose's origin along the step ([`World::cast_ray_with`], exact ray
//!    kernels) must not meet an object (but the inside ones) before the
//!    step's end, else the step is cut a skin before that time: a cast that
//!    missed a thin wall (the narrow phase's casts are conservative
//!    advancements, and a few pairs miss grazing or thin hits at rounding
//!    level) cannot carry the shape's origin through it. Then the new pose
//!    must not overlap any object but the inside ones (exact intersection
//!    tests): if it does, the step is retried backed off by `skin / ‖r‖`
//!    (a cast and an intersection test can disagree at rounding level about
//!    a graze at the very end of the motion), then halved three times, and
//!    refused if all overlap (the shape stays). This makes the guarantee
//!    below hold by construction, whatever the rounding of the casts.
//! 6. **Slide**: the rest of the motion, `r (1 − t)`, loses its component
//!    against `n` (`r ← r − n (r·n)` when `r·n > 0`), and the loop repeats
//!    from step 3, up to `max_iterations` casts, or stops when nothing is
//!    hit (the whole rest was walked) or no motion is left.
//!
//! **Guarantee.** The final pose overlaps no object the filter accepts,
//! unless the shape started inside it (step 2), by construction (step 5).
//! Each straight step was a cast free of hits before it and a ray free of
//! hits, so the shape does not pass through walls, thin ones included: a
//! wall would have to be missed by both the shape cast and the exact ray of
//! the shape's origin (possible only for a wall that the shape crosses
//! without its origin crossing it, should the shape cast miss it).

use nalgebra::SVector;
use narrowphase::{ShapeCastHit, ShapeCastOptions, ShapeCastStatus};
use num_traits::Float;
use shape::Real;

use super::{Handle, Parts, QueryFilter, World, WorldError};
use crate::space::{Dim, Space};

/// The options of [`World::move_and_slide`].
///
/// ```
/// use broadphase::{MoveOptions, QueryFilter};
/// let o = MoveOptions::new(0.01f32).with_max_iterations(8);
/// assert_eq!((o.skin, o.max_iterations, o.filter), (0.01, 8, QueryFilter::default()));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MoveOptions<T> {
    /// The distance kept from what the shape hits (finite, `> 0`).
    pub skin: T,
    /// The most casts (and the most depenetration pushes); 4 by default.
    pub max_iterations: usize,
    /// The objects that block the shape (its `solid` flag plays no part).
    pub filter: QueryFilter,
}

impl<T: Real> MoveOptions<T> {
    /// A skin distance, 4 iterations, every object.
    #[must_use]
    pub fn new(skin: T) -> Self {
        Self {
            skin,
            max_iterations: 4,
            filter: QueryFilter::new(),
        }
    }

    /// The same options with another bound on the iterations.
    #[must_use]
    pub fn with_max_iterations(self, max_iterations: usize) -> Self {
        Self {
            max_iterations,
            ..self
        }
    }

    /// The same options with another filter.
    #[must_use]
    pub fn with_filter(self, filter: QueryFilter) -> Self {
        Self { filter, ..self }
    }
}

/// One hit of a move: the object and the hit. A cast's `toi` is a fraction
/// of the motion left at that iteration; a depenetration push is a hit
/// with status [`ShapeCastStatus::Penetrating`], `toi` 0, and the contact's
/// normal and points.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MoveHit<T: Real, const D: usize> {
    /// The object hit.
    pub handle: Handle,
    /// The hit (normal from the moving shape to the object).
    pub hit: ShapeCastHit<T, D>,
    /// When the moving shape or the object is a composite: the part of each
    /// that the hit (or the depenetration contact) is on, `a` the moving
    /// shape's, `b` the object's; [`Parts::NONE`] otherwise.
    pub parts: Parts,
}

/// The answer of [`World::move_and_slide`].
#[derive(Debug, Clone, PartialEq)]
pub struct Moved<T: Real, const D: usize, P> {
    /// The final pose: the start pose moved by `translation` (the
    /// translation added to the start's, one rounding), the pose the
    /// guarantee is about.
    pub pose: P,
    /// The final translation.
    pub translation: SVector<T, D>,
    /// Every hit, in order.
    pub hits: Vec<MoveHit<T, D>>,
    /// Whether the shape started overlapping an object.
    pub started_inside: bool,
}

impl<T: Real, const D: usize> World<T, D>
where
    Dim<D>: Space<T, D>,
{
    /// Moves `shape` from `pose` along `translation` as far as it can: it
    /// stops `options.skin` short of what it hits and slides along the hit
    /// surface, up to `options.max_iterations` times (module notes in
    /// `world/slide.rs`). The final pose overlaps no object the filter
    /// accepts unless the shape started inside it (then it is first pushed
    /// out when it can be without entering another); the shape never passes
    /// through a wall. The world is not changed: move the character's own
    /// object (excluded through the filter) to the answer's pose.
    ///
    /// # Errors
    /// [`WorldError::NonFinitePose`], [`WorldError::NonFiniteBounds`];
    /// [`WorldError::NonFiniteVelocity`] for a NaN or infinite translation;
    /// [`WorldError::InvalidSkin`] for a skin that is not a finite number
    /// `> 0`; [`WorldError::Narrowphase`] for an object the narrow phase
    /// cannot answer on the way. The world is never changed.
    ///
    /// ```
    /// use nalgebra::{Isometry2, Vector2};
    /// use broadphase::{MoveOptions, World};
    /// use shape::{Circle, Obb};
    ///
    /// let mut world = World::<f64>::new(2.0).unwrap();
    /// // A wall at x = 5 (its face at x = 4.5).
    /// let wall = world.insert(Obb::new(Vector2::new(0.5, 10.0)).unwrap(), Isometry2::translation(5.0, 0.0), Default::default()).unwrap();
    /// let ball = Circle::new(0.5).unwrap();
    /// // Walk diagonally into the wall: stopped short of it, then sliding up.
    /// let moved = world.move_and_slide(&ball, &Isometry2::identity(), &Vector2::new(8.0, 2.0), MoveOptions::new(0.01)).unwrap();
    /// assert_eq!(moved.hits[0].handle, wall);
    /// assert!((moved.translation.x - 3.99).abs() < 1e-9); // 0.01 from the face
    /// assert!((moved.translation.y - 2.0).abs() < 1e-9); // the vertical motion kept
    /// ```
    pub fn move_and_slide(
        &self,
        shape: &<Dim<D> as Space<T, D>>::Shape,
        pose: &<Dim<D> as Space<T, D>>::Pose,
        translation: &SVector<T, D>,
        options: MoveOptions<T>,
    ) -> Result<Moved<T, D, <Dim<D> as Space<T, D>>::Pose>, WorldError> {
        Self::checked_bounds(shape, pose)?;
        if !translation.iter().all(|x| Float::is_finite(*x)) {
            return Err(WorldError::NonFiniteVelocity);
        }
        let skin = options.skin;
        if !(skin > T::zero() && Float::is_finite(skin)) {
            return Err(WorldError::InvalidSkin);
        }
        let filter = options.filter;
        let mut pos = *pose;
        let mut moved = SVector::<T, D>::zeros();
        let mut hits = Vec::new();
        // Step 2.
        let mut inside = self.overlapping(shape, &pos, filter, &[])?;
        let started_inside = !inside.is_empty();
        for _ in 0..options.max_iterations {
            let Some((handle, contact, parts)) = self.deepest(shape, &pos, &inside)? else {
                break;
            };
            let (n, depth, point_a, point_b) = <Dim<D> as Space<T, D>>::contact_parts(&contact);
            let push = -n.into_inner() * (depth + skin);
            let candidate = <Dim<D> as Space<T, D>>::translated(pose, &(moved + push));
            if Self::checked_bounds(shape, &candidate).is_err() {
                break;
            }
            let now = self.overlapping(shape, &candidate, filter, &[])?;
            if !now.iter().all(|h| inside.contains(h)) {
                break;
            }
            hits.push(MoveHit {
                handle,
                hit: ShapeCastHit {
                    toi: T::zero(),
                    normal: n,
                    point_a,
                    point_b,
                    status: ShapeCastStatus::Penetrating,
                },
                parts,
            });
            pos = candidate;
            moved += push;
            inside = now;
        }
        // Steps 3 to 6.
        let slide = ShapeCastOptions {
            stop_at_penetration: false,
        };
        let mut remaining = *translation;
        for _ in 0..options.max_iterations {
            if remaining.iter().all(|x| *x == T::zero()) {
                break;
            }
            let cast = self.cast_shape_parts(shape, &pos, &remaining, T::one(), filter, slide)?;
            let t = match &cast {
                None => T::one(),
                Some((_, hit, _)) => {
                    let vn = remaining.dot(&hit.normal);
                    if vn > T::zero() {
                        Float::max(hit.toi - skin / vn, T::zero())
                    } else {
                        T::zero()
                    }
                }
            };
            // Step 5: the second opinion of a ray, then `t`, else backed off
            // by the skin along the motion, else halved a few times.
            let t = match self.ray_blocked(&pos, &remaining, t, filter, &inside)? {
                Some(r) => Float::min(t, Float::max(r - skin / remaining.norm(), T::zero())),
                None => t,
            };
            let back = Float::max(t - skin / remaining.norm(), T::zero());
            let half = T::half();
            let tries = [
                t,
                back,
                back * half,
                back * half * half,
                back * half * half * half,
            ];
            for t in tries {
                if t <= T::zero() {
                    break;
                }
                // The new pose is the start's moved by the total so far (one
                // addition: the answer's translation added to the start is
                // exactly the pose verified).
                let total = moved + remaining * t;
                let candidate = <Dim<D> as Space<T, D>>::translated(pose, &total);
                if Self::checked_bounds(shape, &candidate).is_ok()
                    && self
                        .overlapping(shape, &candidate, filter, &inside)?
                        .is_empty()
                {
                    pos = candidate;
                    moved = total;
                    break;
                }
            }
            let Some((handle, hit, parts)) = cast else {
                break;
            };
            hits.push(MoveHit { handle, hit, parts });
            let rest = remaining * (T::one() - t);
            let rn = rest.dot(&hit.normal);
            remaining = if rn > T::zero() {
                rest - hit.normal.into_inner() * rn
            } else {
                rest
            };
        }
        Ok(Moved {
            pose: pos,
            translation: moved,
            hits,
            started_inside,
        })
    }

    /// The time at which a ray from the pose's origin along `r` meets an
    /// object (but those in `inside`, and but a start on a boundary) at or
    /// before `t`, if one does: the shape's origin would cross that object
    /// (step 5's second opinion).
    fn ray_blocked(
        &self,
        pos: &<Dim<D> as Space<T, D>>::Pose,
        r: &SVector<T, D>,
        t: T,
        filter: QueryFilter,
        inside: &[Handle],
    ) -> Result<Option<T>, WorldError> {
        let ray = shape::Ray::new(
            nalgebra::Point::from(<Dim<D> as Space<T, D>>::translation(pos)),
            *r,
        );
        if t <= T::zero() || !ray.is_valid() {
            return Ok(None);
        }
        let mut found = None;
        self.cast_ray_with(&ray, t, filter.with_solid(true), |h, hit| {
            if hit.toi > T::zero() && !inside.contains(&h) {
                found = Some(hit.toi);
                core::ops::ControlFlow::Break(())
            } else {
                core::ops::ControlFlow::Continue(())
            }
        })?;
        Ok(found)
    }

    /// The objects `filter` accepts (but those in `ignore`) that `shape` at
    /// `pose` overlaps (exact, touching counts), by handle.
    fn overlapping(
        &self,
        shape: &<Dim<D> as Space<T, D>>::Shape,
        pose: &<Dim<D> as Space<T, D>>::Pose,
        filter: QueryFilter,
        ignore: &[Handle],
    ) -> Result<Vec<Handle>, WorldError> {
        let bounds = Self::checked_bounds(shape, pose)?;
        let mut ids = Vec::new();
        self.grid.query_region(&bounds, &mut ids);
        let mut out = Vec::new();
        for id in ids {
            let handle = self.handle(id);
            let o = self.object(id);
            if !filter.accepts(handle, &o.filter) || ignore.contains(&handle) {
                continue;
            }
            if <Dim<D> as Space<T, D>>::intersects(&self.table, shape, pose, o.shape(), &o.pose)
                .map_err(|error| WorldError::Narrowphase { handle, error })?
            {
                out.push(handle);
            }
        }
        Ok(out)
    }

    /// The deepest contact of `shape` at `pose` with the objects `among`
    /// (ties by handle), or `None` when it touches none of them.
    #[allow(clippy::type_complexity)]
    fn deepest(
        &self,
        shape: &<Dim<D> as Space<T, D>>::Shape,
        pose: &<Dim<D> as Space<T, D>>::Pose,
        among: &[Handle],
    ) -> Result<Option<(Handle, <Dim<D> as Space<T, D>>::Contact, Parts)>, WorldError> {
        let mut best: Option<(T, Handle, <Dim<D> as Space<T, D>>::Contact, Parts)> = None;
        for &handle in among {
            let o = self.object(handle.index);
            let (c, parts) = <Dim<D> as Space<T, D>>::contact_with_parts(
                &self.table,
                shape,
                pose,
                o.shape(),
                &o.pose,
            )
            .map_err(|error| WorldError::Narrowphase { handle, error })?;
            if let Some(c) = c {
                let depth = <Dim<D> as Space<T, D>>::contact_parts(&c).1;
                if best.as_ref().is_none_or(|b| depth > b.0) {
                    best = Some((depth, handle, c, parts));
                }
            }
        }
        Ok(best.map(|(_, h, c, parts)| (h, c, parts)))
    }
}
