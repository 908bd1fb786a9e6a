//! Continuous objects (bullets): [`World::set_continuous`] marks an object
//! whose motion between two [`World::collisions`] queries is swept, so that
//! a fast object passing through a thin one between two frames is reported
//! ([`Collisions::swept`](super::Collisions::swept)).
//!
//! Method, at each query, after the narrow phase (serially in both builds,
//! so the `rayon` build answers the same):
//!
//! 1. For each continuous object `X` (by slot index): its motion is the
//!    translation `dₓ` from its pose at the previous query (`from`) to its
//!    current pose, **translation only**: the sweep starts at the previous
//!    position with the *current* rotation (a rotating bullet's sweep
//!    ignores its turn; the time of impact with rotation can come later).
//!    Its swept box is the union of its bounding boxes at both ends
//!    (the shape at every time of a translation lies in it).
//! 2. The grid's region query over the swept box hands out the objects
//!    whose current box meets it. Each that is not continuous and that the
//!    filters accept (both ways, as between two objects) is cast against:
//!    the narrow phase's linear cast of `X` from `from` at velocity `dₓ`
//!    over `[0, 1]` against the object at rest at its current pose (the
//!    pair in handle order, so the normal is from the smaller handle's
//!    object to the other). A hit is a swept pair with its time of impact.
//! 3. Two continuous objects are a candidate pair when their swept boxes
//!    meet (every pair of continuous objects is looked at: the cost is
//!    quadratic in their number, meant for tens to hundreds of bullets);
//!    both move, each by its own translation, over the same `[0, 1]`.
//! 4. The swept pairs are sorted by handles; the narrow phase's errors go
//!    to `errors` (once per pair). Then every continuous object's `from`
//!    becomes its current pose.
//!
//! The swept pairs include the pairs that touch at the end of the frame
//! (the motion reaches `t = 1`), up to the narrow phase's rounding; a world
//! without continuous objects does none of this and answers as before.
//! Every buffer is kept between queries: a warm serial frame allocates
//! nothing.

use nalgebra::SVector;
use narrowphase::{ShapeCastArgs, ShapeCastOptions};
use shape::{BoundingBox, Real};

use super::{Frame, Handle, PairContact, Parts, World, WorldError};
use crate::space::{Dim, Space};

/// The buffers of the sweep, kept between queries.
pub(crate) struct SweepBuffers<T: Real, const D: usize> {
    /// Grid ids from a region query.
    ids: Vec<u32>,
    /// Per continuous object (in the order of `World::continuous`): its
    /// swept box and its translation over the frame.
    swept: Vec<(BoundingBox<T, D>, SVector<T, D>)>,
}

impl<T: Real, const D: usize> Default for SweepBuffers<T, D> {
    fn default() -> Self {
        Self {
            ids: Vec::new(),
            swept: Vec::new(),
        }
    }
}

impl<T: Real, const D: usize> World<T, D>
where
    Dim<D>: Space<T, D>,
{
    /// Marks an object continuous (`true`) or not (`false`). A continuous
    /// object's motion since the previous [`collisions`](Self::collisions)
    /// query is swept: the pairs it swept through, with their time of
    /// impact, are in [`Collisions::swept`](super::Collisions::swept) (module
    /// notes in `world/continuous.rs`). Its motion starts now: the first
    /// sweep is from its current pose.
    ///
    /// # Errors
    /// [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`].
    ///
    /// ```
    /// use nalgebra::{Isometry2, Vector2};
    /// use broadphase::{Filter, World};
    /// use shape::{Circle, Obb};
    ///
    /// let mut world = World::<f64>::new(1.0).unwrap();
    /// let wall = world.insert(Obb::new(Vector2::new(0.05, 5.0)).unwrap(), Isometry2::translation(10.0, 0.0), Filter::ALL).unwrap();
    /// let bullet = world.insert(Circle::new(0.1).unwrap(), Isometry2::identity(), Filter::ALL).unwrap();
    /// world.set_continuous(bullet, true).unwrap();
    /// world.collisions();
    /// // One frame later the bullet is far beyond the wall.
    /// world.set_pose(bullet, Isometry2::translation(20.0, 0.0)).unwrap();
    /// let frame = world.collisions();
    /// assert!(frame.pairs.is_empty()); // no overlap at the end of the frame
    /// assert_eq!((frame.swept[0].a, frame.swept[0].b), (wall, bullet));
    /// let hit = frame.swept[0].contact;
    /// assert!((hit.toi - 0.4925).abs() < 1e-9); // x = 20 t + 0.1 meets 9.95
    /// assert!((hit.normal.x + 1.0).abs() < 1e-9); // from the wall to the bullet
    /// ```
    pub fn set_continuous(&mut self, h: Handle, continuous: bool) -> Result<(), WorldError> {
        self.check(h)?;
        let Some(o) = self.slots[h.index as usize].object.as_mut() else {
            return Err(WorldError::StaleHandle(h));
        };
        let found = self.continuous.binary_search(&h.index);
        match (continuous, found) {
            (true, Err(k)) => {
                o.swept_from = Some(o.pose);
                self.continuous.insert(k, h.index);
            }
            (false, Ok(k)) => {
                o.swept_from = None;
                self.continuous.remove(k);
            }
            _ => {}
        }
        Ok(())
    }

    /// The handles of the continuous objects, by slot index.
    pub fn continuous_objects(&self) -> impl Iterator<Item = Handle> + '_ {
        self.continuous.iter().map(|&i| self.handle(i))
    }

    /// Steps 1 to 4 of the module notes: fills `out.swept` (and `errors`),
    /// then moves every continuous object's `from` to its current pose.
    pub(super) fn sweep_continuous(&mut self, out: &mut Frame<T, D>) {
        out.swept.clear();
        if self.continuous.is_empty() {
            return;
        }
        let mut buffers = core::mem::take(&mut self.sweep);
        buffers.swept.clear();
        for &x in &self.continuous {
            let o = self.object(x);
            let from = self.swept_start(o);
            let d = <Dim<D> as Space<T, D>>::translation(&o.pose)
                - <Dim<D> as Space<T, D>>::translation(&from);
            let now = *self.grid.filed_box(x);
            let before = <Dim<D> as Space<T, D>>::bounding_box(o.shape(), &from);
            let swept = BoundingBox::new(now.min.inf(&before.min), now.max.sup(&before.max));
            buffers.swept.push((swept, d));
        }
        for (k, &x) in self.continuous.iter().enumerate() {
            let (swept, dx) = buffers.swept[k];
            let ox = self.object(x);
            let from_x = self.swept_start(ox);
            // Step 2.
            self.grid.query_region(&swept, &mut buffers.ids);
            for &y in &buffers.ids {
                if y == x || self.continuous.binary_search(&y).is_ok() {
                    continue;
                }
                let oy = self.object(y);
                if !ox.filter.accepts(&oy.filter) {
                    continue;
                }
                let result = if x < y {
                    self.swept_cast(x, &from_x, dx, y, &oy.pose, SVector::zeros())
                } else {
                    self.swept_cast(y, &oy.pose, SVector::zeros(), x, &from_x, dx)
                };
                self.record_swept(x.min(y), x.max(y), result, out);
            }
            // Step 3: the continuous objects after `x`.
            for (j, &y) in self.continuous.iter().enumerate().skip(k + 1) {
                let (swept_y, dy) = buffers.swept[j];
                let oy = self.object(y);
                if !swept.intersects(&swept_y) || !ox.filter.accepts(&oy.filter) {
                    continue;
                }
                let from_y = self.swept_start(oy);
                // `continuous` is sorted: x < y.
                let result = self.swept_cast(x, &from_x, dx, y, &from_y, dy);
                self.record_swept(x, y, result, out);
            }
        }
        // Step 4.
        out.swept.sort_unstable_by_key(|p| (p.a, p.b));
        for &x in &self.continuous {
            if let Some(o) = self.slots[x as usize].object.as_mut() {
                o.swept_from = Some(o.pose);
            }
        }
        self.sweep = buffers;
    }

    /// Where a continuous object's sweep starts: its previous position at
    /// its current rotation.
    #[inline]
    fn swept_start(&self, o: &super::Object<T, D>) -> <Dim<D> as Space<T, D>>::Pose {
        let from = o.swept_from.unwrap_or(o.pose);
        <Dim<D> as Space<T, D>>::with_translation(
            &o.pose,
            &<Dim<D> as Space<T, D>>::translation(&from),
        )
    }

    /// The narrow phase's cast of objects `a < b` from the given poses, at
    /// the given translations over `[0, 1]`.
    #[inline]
    fn swept_cast(
        &self,
        a: u32,
        pose_a: &<Dim<D> as Space<T, D>>::Pose,
        vel_a: SVector<T, D>,
        b: u32,
        pose_b: &<Dim<D> as Space<T, D>>::Pose,
        vel_b: SVector<T, D>,
    ) -> Result<(Option<narrowphase::ShapeCastHit<T, D>>, Parts), narrowphase::DispatchError> {
        let args = ShapeCastArgs {
            vel_a,
            vel_b,
            max_toi: T::one(),
            options: ShapeCastOptions::default(),
        };
        <Dim<D> as Space<T, D>>::cast_shapes_stored(
            &self.table,
            &self.object(a).shape,
            pose_a,
            &self.object(b).shape,
            pose_b,
            args,
        )
    }

    fn record_swept(
        &self,
        a: u32,
        b: u32,
        result: Result<
            (Option<narrowphase::ShapeCastHit<T, D>>, Parts),
            narrowphase::DispatchError,
        >,
        out: &mut Frame<T, D>,
    ) {
        let (ha, hb) = (self.handle(a), self.handle(b));
        match result {
            Ok((Some(contact), parts)) => out.swept.push(PairContact {
                a: ha,
                b: hb,
                contact,
                parts,
            }),
            Ok((None, _)) => {}
            Err(e) => {
                if !out.errors.iter().any(|(x, y, _)| (*x, *y) == (ha, hb)) {
                    out.errors.push((ha, hb, e));
                }
            }
        }
    }
}
