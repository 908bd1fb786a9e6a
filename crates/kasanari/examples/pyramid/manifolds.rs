//! A stand-in for the World's manifolds (`World::set_manifolds` and
//! `Collisions::manifolds`, being added on the `mworld` branch): the same
//! data, built from the World's broad phase and
//! `narrowphase::contact_manifold`, with the same frame-to-frame matching
//! of feature ids. To be deleted when the World API lands.
//!
//! 1. Candidate pairs: each object's bounding box, grown by the prediction,
//!    queried against the grid (`Grid::query_region`), so that pairs apart
//!    by up to the prediction are found (the World's `candidate_pairs`
//!    holds only overlapping boxes). Growing one box suffices: two shapes
//!    within distance `p` have boxes within `p` on every axis. Pairs come
//!    out sorted by handle, once each (the other object's index is larger);
//!    the filters are applied as the World applies them.
//! 2. The pair's manifold within the prediction, if any.
//! 3. `matched[i]`: the index of the point with the same `FeatureId` in the
//!    same pair's manifold of the previous call (a merge walk: both lists
//!    are sorted).

use kasanari::broadphase::{Handle, World};
use kasanari::narrowphase::{self, DispatchError, MAX_MANIFOLD_POINTS, Manifold};
use kasanari::shape::BoundingBox;

use super::R;

/// A pair's manifold, as `Collisions::manifolds` will hold it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairManifold {
    /// The object with the smaller index.
    pub a: Handle,
    /// The other object.
    pub b: Handle,
    /// Their manifold in world space, normal from `a` to `b`.
    pub manifold: Manifold<R>,
    /// For each point, the index of the point with the same feature id in
    /// this pair's manifold at the previous call.
    pub matched: [Option<u8>; MAX_MANIFOLD_POINTS],
}

/// The manifolds of every pair within the prediction, kept between calls.
#[derive(Debug, Default)]
pub struct ManifoldSource {
    current: Vec<PairManifold>,
    previous: Vec<PairManifold>,
    handles: Vec<Option<Handle>>,
    ids: Vec<u32>,
}

impl ManifoldSource {
    /// The manifolds of the latest call.
    #[must_use]
    pub fn current(&self) -> &[PairManifold] {
        &self.current
    }

    /// Recomputes the manifolds of `world` (module notes).
    ///
    /// # Errors
    /// A pair the narrow phase cannot answer.
    pub fn update(
        &mut self,
        world: &World<R>,
        prediction: R,
    ) -> Result<&[PairManifold], DispatchError> {
        std::mem::swap(&mut self.current, &mut self.previous);
        self.current.clear();
        self.handles.clear();
        for h in world.handles() {
            let i = h.index() as usize;
            if self.handles.len() <= i {
                self.handles.resize(i + 1, None);
            }
            self.handles[i] = Some(h);
        }
        for ha in self.handles.iter().flatten() {
            let Some(bounds) = world.grid().bounds(ha.index()) else {
                continue;
            };
            let mut region: BoundingBox<R, 2> = *bounds;
            for k in 0..2 {
                region.min[k] -= prediction;
                region.max[k] += prediction;
            }
            world.grid().query_region(&region, &mut self.ids);
            let Ok(oa) = world.get(*ha) else { continue };
            for &j in self.ids.iter().filter(|&&j| j > ha.index()) {
                let Some(hb) = self.handles[j as usize] else {
                    continue;
                };
                let Ok(ob) = world.get(hb) else { continue };
                if !oa.filter().accepts(&ob.filter()) {
                    continue;
                }
                let found = narrowphase::contact_manifold(
                    oa.shape(),
                    oa.pose(),
                    ob.shape(),
                    ob.pose(),
                    prediction,
                )?;
                if let Some(manifold) = found {
                    self.current.push(PairManifold {
                        a: *ha,
                        b: hb,
                        manifold,
                        matched: [None; MAX_MANIFOLD_POINTS],
                    });
                }
            }
        }
        // Matching: both lists are sorted by (a, b).
        let mut k = 0;
        for pm in &mut self.current {
            while k < self.previous.len() && (self.previous[k].a, self.previous[k].b) < (pm.a, pm.b)
            {
                k += 1;
            }
            let Some(old) = self.previous.get(k).filter(|o| (o.a, o.b) == (pm.a, pm.b)) else {
                continue;
            };
            for (i, p) in pm.manifold.points().iter().enumerate() {
                pm.matched[i] = old
                    .manifold
                    .points()
                    .iter()
                    .position(|q| q.id == p.id)
                    .and_then(|j| u8::try_from(j).ok());
            }
        }
        Ok(&self.current)
    }
}
