//! A static bounding-volume tree over a composite's parts: which parts can
//! meet a region, a ray, or a point's neighbourhood.
//!
//! **Build** (once, at construction), top down: a node holds a contiguous
//! range of the part order; when the range has more than [`LEAF`] parts, the
//! parts are split at the median of their box centres along the longer axis
//! of the centres' extent (`select_nth_unstable_by`, linear), the lower half
//! going left. Nodes are stored in one flat array, depth first, each with the
//! box of its parts; a leaf names its range of `order`, an inner node its
//! left child (the right one follows the left subtree).
//!
//! **Depth**: an exact median split leaves `⌈m/2⌉` and `⌊m/2⌋` parts, so a
//! range of `m > LEAF` parts has depth at most `⌈log₂(m / LEAF)⌉ + 1`; for
//! `m ≤ 2³²` that is at most 32, and a depth-first walk that pushes the right
//! child and descends into the left holds at most one pending node per level:
//! the fixed stack of [`STACK`] entries cannot overflow, and visiting
//! allocates nothing.
//!
//! **Why no part is missed**: a node's box is the union (exact: min and max
//! of the parts' coordinates) of its parts' boxes, so a region, a ray or a
//! ball that misses a node's box misses every part below it. The ray test
//! against a box is widened by a relative `4 ε` on both ends of the interval
//! (Ize, "Robust BVH ray traversal", JCGT 2013), so rounding in the slab
//! times never prunes a box the ray touches.
//!
//! Reference: C. Ericson, *Real-Time Collision Detection*, §6.2 (top-down
//! construction), §6.3.2 (depth-first traversal with an explicit stack).

use alloc::vec::Vec;
use core::ops::ControlFlow;

use nalgebra::{Point2, Vector2};
use num_traits::Float;

use crate::{BoundingBox2, Real};

/// The most parts a leaf holds.
pub(crate) const LEAF: usize = 4;

/// The traversal stack's size: more than the deepest tree (module notes).
const STACK: usize = 64;

/// One node: its box and, for a leaf, `count > 0` parts from `order[first]`;
/// for an inner node (`count == 0`), its left child at `first` (the right
/// child's index is in `right`).
#[derive(Debug, Clone)]
struct Node<T: Real> {
    bounds: BoundingBox2<T>,
    first: u32,
    count: u32,
    right: u32,
}

/// The tree (module notes). Part ids are `u32` indices into the composite's
/// own part list.
#[derive(Debug, Clone)]
pub(crate) struct PartTree<T: Real> {
    nodes: Vec<Node<T>>,
    order: Vec<u32>,
    /// The part boxes, parallel to `order` (leaf order, for locality).
    boxes: Vec<BoundingBox2<T>>,
}

impl<T: Real> PartTree<T> {
    /// The tree over parts `0..boxes.len()` with these boxes (at least one).
    pub(crate) fn new(boxes: &[BoundingBox2<T>]) -> Self {
        let mut order: Vec<u32> = (0..boxes.len() as u32).collect();
        let mut nodes = Vec::with_capacity(2 * boxes.len().div_ceil(LEAF));
        build(boxes, &mut order, 0, &mut nodes);
        let boxes = order.iter().map(|&id| boxes[id as usize]).collect();
        Self {
            nodes,
            order,
            boxes,
        }
    }

    /// Calls `visit` with every part whose box meets `region` (and only
    /// those), until it breaks.
    pub(crate) fn visit(
        &self,
        region: &BoundingBox2<T>,
        mut visit: impl FnMut(u32) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        self.walk(
            |b| b.intersects(region),
            |id, b| {
                if b.intersects(region) {
                    visit(id)
                } else {
                    ControlFlow::Continue(())
                }
            },
        )
    }

    /// Depth-first walk: enters the nodes whose box `enter` accepts and
    /// calls `leaf` with each part of an entered leaf and the part's box.
    fn walk(
        &self,
        mut enter: impl FnMut(&BoundingBox2<T>) -> bool,
        mut leaf: impl FnMut(u32, &BoundingBox2<T>) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let mut stack = [0u32; STACK];
        let mut top = 1usize;
        while top > 0 {
            top -= 1;
            let mut index = stack[top] as usize;
            loop {
                let node = &self.nodes[index];
                if !enter(&node.bounds) {
                    break;
                }
                if node.count > 0 {
                    let (start, count) = (node.first as usize, node.count as usize);
                    let range = start..start + count;
                    for (&id, b) in self.order[range.clone()].iter().zip(&self.boxes[range]) {
                        leaf(id, b)?;
                    }
                    break;
                }
                // Depth bound (module notes): the stack has room.
                if let Some(slot) = stack.get_mut(top) {
                    *slot = node.right;
                    top += 1;
                }
                index = node.first as usize;
            }
        }
        ControlFlow::Continue(())
    }

    /// Calls `leaf` with the parts whose boxes a ray `origin + t dir` may
    /// meet for `0 ≤ t ≤ bound()`, where `bound` is re-read before each node
    /// (a caller that found a hit lowers it). `bound` is in the ray's time;
    /// boxes are tested with the robust widening of the module notes.
    pub(crate) fn visit_ray(
        &self,
        origin: &Point2<T>,
        dir: &Vector2<T>,
        bound: impl Fn() -> T,
        mut leaf: impl FnMut(u32),
    ) {
        // Nearest child first: of an inner node's two children the one the
        // ray enters first is visited first and the other waits on the
        // stack with its entry time, skipped when a hit found meanwhile
        // comes before it. The same boxes are tested as by a plain walk (the
        // root's box is the union of its children's), so no part is missed;
        // the order only lets the bound prune sooner.
        let slabs = RaySlabs::new(origin, dir);
        let entry_time = |b: &BoundingBox2<T>, max_t: T| slabs.span(b, max_t).map(|(t0, _)| t0);
        let mut stack = [(0u32, T::zero()); STACK];
        let mut top = 1usize;
        while top > 0 {
            top -= 1;
            let (mut index, entry) = stack[top];
            if entry > bound() {
                continue;
            }
            loop {
                let node = &self.nodes[index as usize];
                if node.count > 0 {
                    let (start, count) = (node.first as usize, node.count as usize);
                    let range = start..start + count;
                    for (&id, b) in self.order[range.clone()].iter().zip(&self.boxes[range]) {
                        if entry_time(b, bound()).is_some() {
                            leaf(id);
                        }
                    }
                    break;
                }
                let (left, right) = (node.first, node.right);
                let max_t = bound();
                let tl = entry_time(&self.nodes[left as usize].bounds, max_t);
                let tr = entry_time(&self.nodes[right as usize].bounds, max_t);
                let (near, far) = match (tl, tr) {
                    (Some(a), Some(b)) if b < a => ((right, b), Some((left, a))),
                    (Some(a), Some(b)) => ((left, a), Some((right, b))),
                    (Some(a), None) => ((left, a), None),
                    (None, Some(b)) => ((right, b), None),
                    (None, None) => break,
                };
                if let Some(f) = far {
                    // Depth bound (module notes): the stack has room.
                    if let Some(slot) = stack.get_mut(top) {
                        *slot = f;
                        top += 1;
                    }
                }
                index = near.0;
            }
        }
    }

    /// Calls `leaf` with the parts whose boxes may lie within `√bound()` of
    /// `p` (`bound` a squared distance, re-read before each node).
    pub(crate) fn visit_near(
        &self,
        p: &Point2<T>,
        bound: impl Fn() -> T,
        mut leaf: impl FnMut(u32),
    ) {
        // A box's rounded distance may exceed a part's rounded distance
        // by rounding: compare with a relative margin (never prunes a part
        // the exact comparison keeps).
        let shrink = T::one() - T::epsilon() * T::lit(16.0);
        let _ = self.walk(
            |b| box_distance_squared(b, p) * shrink <= bound(),
            |id, b| {
                if box_distance_squared(b, p) * shrink <= bound() {
                    leaf(id);
                }
                ControlFlow::Continue(())
            },
        );
    }
}

impl<T: Real> PartTree<T> {
    /// Calls `leaf` with the parts whose boxes may lie within `bound()` of
    /// the box `region` (`bound` a distance, re-read before each node: a
    /// caller that found a nearer answer lowers it), until it breaks.
    ///
    /// Nearest child first: of an inner node's two children the one whose
    /// box is nearer `region` is entered first and the other waits on the
    /// stack with its distance, skipped when an answer found meanwhile is
    /// nearer. A node's box holds its parts, so a node farther than the
    /// bound holds no part within it; distances are compared squared, with
    /// the relative margin of [`visit_near`](Self::visit_near) against
    /// rounding, so no part the exact comparison keeps is pruned.
    pub(crate) fn visit_near_box(
        &self,
        region: &BoundingBox2<T>,
        bound: impl Fn() -> T,
        mut leaf: impl FnMut(u32) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let shrink = T::one() - T::epsilon() * T::lit(16.0);
        let far = |gap2: T| {
            let b = bound();
            gap2 * shrink > b * b
        };
        let mut stack = [(0u32, T::zero()); STACK];
        let mut top = 1usize;
        while top > 0 {
            top -= 1;
            let (mut index, gap2) = stack[top];
            if far(gap2) {
                continue;
            }
            loop {
                let node = &self.nodes[index as usize];
                if node.count > 0 {
                    let (start, count) = (node.first as usize, node.count as usize);
                    let range = start..start + count;
                    for (&id, b) in self.order[range.clone()].iter().zip(&self.boxes[range]) {
                        if !far(box_gap_squared(b, region)) {
                            leaf(id)?;
                        }
                    }
                    break;
                }
                let (left, right) = (node.first, node.right);
                let gl = box_gap_squared(&self.nodes[left as usize].bounds, region);
                let gr = box_gap_squared(&self.nodes[right as usize].bounds, region);
                let ((near, gn), (other, go)) = if gr < gl {
                    ((right, gr), (left, gl))
                } else {
                    ((left, gl), (right, gr))
                };
                if !far(go) {
                    // Depth bound (module notes): the stack has room.
                    if let Some(slot) = stack.get_mut(top) {
                        *slot = (other, go);
                        top += 1;
                    }
                }
                if far(gn) {
                    break;
                }
                index = near;
            }
        }
        ControlFlow::Continue(())
    }
}

/// The squared distance between two closed boxes (0 when they meet).
#[inline(always)]
pub(crate) fn box_gap_squared<T: Real>(a: &BoundingBox2<T>, b: &BoundingBox2<T>) -> T {
    // Plain comparisons (one instruction each) rather than `Float::max`'s
    // NaN rules: the boxes are finite.
    let larger = |x: T, y: T| if x > y { x } else { y };
    let dx = larger(larger(a.min.x - b.max.x, b.min.x - a.max.x), T::zero());
    let dy = larger(larger(a.min.y - b.max.y, b.min.y - a.max.y), T::zero());
    dx * dx + dy * dy
}

/// Builds the subtree over `order[..]` (whose first element is at position
/// `offset` of the whole order) and returns its node index.
fn build<T: Real>(
    boxes: &[BoundingBox2<T>],
    order: &mut [u32],
    offset: usize,
    nodes: &mut Vec<Node<T>>,
) -> u32 {
    let mut bounds = boxes[order[0] as usize];
    for &id in &order[1..] {
        bounds = bounds.merged(&boxes[id as usize]);
    }
    let index = nodes.len() as u32;
    nodes.push(Node {
        bounds,
        first: offset as u32,
        count: order.len() as u32,
        right: 0,
    });
    if order.len() <= LEAF {
        return index;
    }
    // The longer axis of the centres' extent (centres doubled: min + max,
    // no rounding but the sum's).
    let centre = |id: u32| {
        let b = &boxes[id as usize];
        b.min.coords + b.max.coords
    };
    let (mut lo, mut hi) = (centre(order[0]), centre(order[0]));
    for &id in &order[1..] {
        let c = centre(id);
        lo = lo.inf(&c);
        hi = hi.sup(&c);
    }
    let axis = usize::from(hi.y - lo.y > hi.x - lo.x);
    let mid = order.len() / 2;
    order.select_nth_unstable_by(mid, |&a, &b| {
        centre(a)[axis]
            .partial_cmp(&centre(b)[axis])
            .unwrap_or(core::cmp::Ordering::Equal)
            .then(a.cmp(&b))
    });
    let (left, right) = order.split_at_mut(mid);
    let l = build(boxes, left, offset, nodes);
    let r = build(boxes, right, offset + mid, nodes);
    let node = &mut nodes[index as usize];
    node.count = 0;
    node.first = l;
    node.right = r;
    index
}

/// The squared distance from `p` to the closed box (0 inside).
pub(crate) fn box_distance_squared<T: Real>(b: &BoundingBox2<T>, p: &Point2<T>) -> T {
    let dx = Float::max(Float::max(b.min.x - p.x, p.x - b.max.x), T::zero());
    let dy = Float::max(Float::max(b.min.y - p.y, p.y - b.max.y), T::zero());
    dx * dx + dy * dy
}

/// Whether the ray `origin + t dir` may meet the closed box for some
/// `0 ≤ t ≤ max_t` (its entry time exists).
#[cfg(test)]
pub(crate) fn ray_meets_box<T: Real>(
    origin: &Point2<T>,
    dir: &Vector2<T>,
    b: &BoundingBox2<T>,
    max_t: T,
) -> bool {
    ray_span(origin, dir, b, max_t).is_some()
}

/// When the ray `origin + t dir` may be in the closed box for some
/// `0 ≤ t ≤ max_t`: when it enters the box (`0` for an origin inside) and
/// when it leaves it (or `max_t`), both widened ([`RaySlabs::span`]);
/// `None` when it misses.
#[inline]
pub(crate) fn ray_span<T: Real>(
    origin: &Point2<T>,
    dir: &Vector2<T>,
    b: &BoundingBox2<T>,
    max_t: T,
) -> Option<(T, T)> {
    RaySlabs::new(origin, dir).span(b, max_t)
}

/// What the slab test of a ray against many boxes computes once: the
/// origin, the reciprocal of the direction (a multiplication per slab
/// rather than a division) and, per axis, which side of a box the ray
/// meets first.
#[derive(Clone, Copy)]
pub(crate) struct RaySlabs<T: Real> {
    origin: Point2<T>,
    dir: Vector2<T>,
    inv: Vector2<T>,
    /// The ray meets a box's `min` side first along the axis (it goes
    /// towards `+∞`, or runs parallel as `+0`).
    near_is_min: [bool; 2],
    /// The reciprocal overflows although the direction is not zero (a
    /// subnormal component): divide instead.
    divide: [bool; 2],
}

impl<T: Real> RaySlabs<T> {
    pub(crate) fn new(origin: &Point2<T>, dir: &Vector2<T>) -> Self {
        let inv = Vector2::new(T::one() / dir.x, T::one() / dir.y);
        let overflows = |d: T, r: T| d != T::zero() && !Float::is_finite(r);
        Self {
            origin: *origin,
            dir: *dir,
            inv,
            near_is_min: [
                Float::is_sign_positive(inv.x),
                Float::is_sign_positive(inv.y),
            ],
            divide: [overflows(dir.x, inv.x), overflows(dir.y, inv.y)],
        }
    }

    /// When the ray `origin + t dir` may be in the closed box for some
    /// `0 ≤ t ≤ max_t`: when it enters the box (`0` for an origin inside)
    /// and when it leaves it (or `max_t`), both widened; `None` when it
    /// misses.
    ///
    /// A slab time `(side − origin) · (1 / dir)` is three roundings from
    /// the exact one (the reciprocal, the difference, the product: a
    /// relative error below `3u = 1.5 ε`; Ize, "Robust BVH ray traversal",
    /// JCGT 2013). The latest entry time is moved towards `0` and the
    /// earliest exit time away from it by a relative `4 ε`, more than that
    /// error and the rounding of the move itself; the moves are monotone,
    /// so moving the extreme times is moving every time, and the widened
    /// interval holds the exact one: no box the ray touches is pruned.
    /// Along an axis the ray runs parallel to, the reciprocal is `±∞` and
    /// the times `∓∞` inside the slab, `±∞` outside it (a miss); on the
    /// slab's side a time is `0 · ∞ = NaN`, which compares false and leaves
    /// the interval as it was: the closed slab keeps the ray.
    #[inline(always)]
    pub(crate) fn span(&self, b: &BoundingBox2<T>, max_t: T) -> Option<(T, T)> {
        let zero = T::zero();
        let four = T::epsilon() * T::lit(4.0);
        let (down, up) = (T::one() - four, T::one() + four);
        let mut t0 = zero;
        let mut t1 = max_t;
        for i in 0..2 {
            let (near_side, far_side) = if self.near_is_min[i] {
                (b.min[i], b.max[i])
            } else {
                (b.max[i], b.min[i])
            };
            let o = self.origin[i];
            let (near, far) = if self.divide[i] {
                ((near_side - o) / self.dir[i], (far_side - o) / self.dir[i])
            } else {
                ((near_side - o) * self.inv[i], (far_side - o) * self.inv[i])
            };
            if near > t0 {
                t0 = near;
            }
            if far < t1 {
                t1 = far;
            }
        }
        // `t0 ≥ 0`; `t1` may be negative (a box behind the origin).
        let t0 = t0 * down;
        let t1 = t1 * if t1 > zero { up } else { down };
        (t0 <= t1).then_some((t0, t1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn boxes(n: usize) -> Vec<BoundingBox2<f64>> {
        (0..n)
            .map(|i| {
                let x = (i * 37 % 101) as f64;
                let y = (i * 59 % 89) as f64;
                BoundingBox2::new(Point2::new(x, y), Point2::new(x + 2.0, y + 1.0))
            })
            .collect()
    }

    #[test]
    fn finds_exactly_the_overlapping_parts() {
        for n in [1, 3, 4, 5, 17, 200] {
            let b = boxes(n);
            let tree = PartTree::new(&b);
            for k in 0..40 {
                let x = (k * 13 % 97) as f64 - 3.0;
                let y = (k * 7 % 83) as f64 - 3.0;
                let region = BoundingBox2::new(Point2::new(x, y), Point2::new(x + 9.0, y + 5.0));
                let mut found = Vec::new();
                let _ = tree.visit(&region, |id| {
                    found.push(id);
                    ControlFlow::Continue(())
                });
                found.sort_unstable();
                let expected: Vec<u32> = (0..n as u32)
                    .filter(|&i| b[i as usize].intersects(&region))
                    .collect();
                assert_eq!(found, expected, "n {n} region {k}");
            }
        }
    }

    /// The nearest-first walk with a fixed bound visits every part whose
    /// box lies within the bound (and, the boxes here being apart by more
    /// than the margin, no other); with a falling bound it still reaches
    /// the nearest part.
    #[test]
    fn near_walk_finds_the_parts_within_the_bound() {
        for n in [1, 3, 4, 5, 17, 200] {
            let b = boxes(n);
            let tree = PartTree::new(&b);
            for k in 0..40 {
                let x = (k * 13 % 97) as f64 - 3.0;
                let y = (k * 7 % 83) as f64 - 3.0;
                let region = BoundingBox2::new(Point2::new(x, y), Point2::new(x + 2.0, y + 1.5));
                let bound = (k % 7) as f64 * 1.3;
                let mut found = Vec::new();
                let _ = tree.visit_near_box(
                    &region,
                    || bound,
                    |id| {
                        found.push(id);
                        ControlFlow::Continue(())
                    },
                );
                found.sort_unstable();
                let expected: Vec<u32> = (0..n as u32)
                    .filter(|&i| box_gap_squared(&b[i as usize], &region) <= bound * bound)
                    .collect();
                assert_eq!(found, expected, "n {n} region {k}");
                // A falling bound: the least gap over the visited parts is
                // the least over all parts.
                let best = core::cell::Cell::new(f64::INFINITY);
                let _ = tree.visit_near_box(
                    &region,
                    || best.get().sqrt(),
                    |id| {
                        let g = box_gap_squared(&b[id as usize], &region);
                        if g < best.get() {
                            best.set(g);
                        }
                        ControlFlow::Continue(())
                    },
                );
                let least = b
                    .iter()
                    .map(|bx| box_gap_squared(bx, &region))
                    .fold(f64::INFINITY, f64::min);
                assert_eq!(best.get(), least, "n {n} region {k}");
            }
        }
    }

    #[test]
    fn depth_is_logarithmic() {
        let tree = PartTree::new(&boxes(1000));
        fn depth(t: &PartTree<f64>, i: usize) -> usize {
            let n = &t.nodes[i];
            if n.count > 0 {
                1
            } else {
                1 + depth(t, n.first as usize).max(depth(t, n.right as usize))
            }
        }
        // ⌈log₂(1000 / 4)⌉ + 1 = 9.
        assert!(depth(&tree, 0) <= 9, "{}", depth(&tree, 0));
    }

    #[test]
    fn ray_box_test_keeps_touching_rays() {
        let b = BoundingBox2::new(Point2::new(0.0f64, 0.0), Point2::new(1.0, 1.0));
        let o = Point2::new(-1.0, 1.0);
        assert!(ray_meets_box(
            &o,
            &Vector2::new(1.0, 0.0),
            &b,
            f64::INFINITY
        ));
        assert!(!ray_meets_box(&o, &Vector2::new(1.0, 0.0), &b, 0.5));
        assert!(ray_meets_box(&o, &Vector2::new(1.0, -1.0), &b, 1.0));
        assert!(!ray_meets_box(&o, &Vector2::new(-1.0, 0.0), &b, 10.0));
        assert!(!ray_meets_box(
            &Point2::new(-1.0, 1.5),
            &Vector2::new(1.0, 0.0),
            &b,
            10.0
        ));
        // Parallel to a box of zero height (a level segment's box): along
        // its line (either zero) it meets, just off it it misses.
        let flat = BoundingBox2::new(Point2::new(0.0f64, 0.0), Point2::new(1.0, 0.0));
        let o = Point2::new(-1.0, 0.0);
        assert!(ray_meets_box(&o, &Vector2::new(1.0, 0.0), &flat, 2.0));
        assert!(ray_meets_box(&o, &Vector2::new(1.0, -0.0), &flat, 2.0));
        assert!(!ray_meets_box(
            &Point2::new(-1.0, 1e-300),
            &Vector2::new(1.0, 0.0),
            &flat,
            2.0
        ));
        // A subnormal direction, whose reciprocal overflows, still reaches
        // the box at the right time.
        let o = Point2::new(-1e-310, 0.5);
        let d = Vector2::new(1e-310, 0.0);
        assert!(ray_meets_box(&o, &d, &b, 2.0));
        assert!(!ray_meets_box(&o, &d, &b, 0.5));
    }

    /// The f32 slab test against the same numbers in f64 (29 more bits, a
    /// near-exact reference): every box the f64 test finds the ray in is
    /// kept, with an entry time no later and an exit time no earlier;
    /// boxes placed to touch the ray (a corner on it, rounded to f32) are
    /// most of the cases.
    #[test]
    fn ray_slabs_never_prune_a_touched_box() {
        let mut seed = 0x853c_49e6_748f_ea9b_u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        };
        let reference = |o: [f64; 2], d: [f64; 2], lo: [f64; 2], hi: [f64; 2], max_t: f64| {
            let (mut t0, mut t1) = (0.0f64, max_t);
            for i in 0..2 {
                if d[i] == 0.0 {
                    if o[i] < lo[i] || o[i] > hi[i] {
                        return None;
                    }
                    continue;
                }
                let (a, b) = ((lo[i] - o[i]) / d[i], (hi[i] - o[i]) / d[i]);
                t0 = t0.max(a.min(b));
                t1 = t1.min(a.max(b));
            }
            (t0 <= t1).then_some((t0, t1))
        };
        let mut touching = 0;
        for case in 0..200_000 {
            let scale = [1e-3, 1.0, 1e3][case % 3];
            let o = [(next() * scale) as f32, (next() * scale) as f32];
            let mut d = [next() as f32, next() as f32];
            if case % 7 == 0 {
                d[case % 2] = 0.0;
            }
            let t = (next().abs() * 4.0) as f32;
            // A corner at the ray's point at time t, the box on a random
            // side of it.
            let c = [o[0] + d[0] * t, o[1] + d[1] * t];
            let (w, h) = ((next().abs() * scale) as f32, (next().abs() * scale) as f32);
            let lo = [
                if next() < 0.0 { c[0] - w } else { c[0] },
                if next() < 0.0 { c[1] - h } else { c[1] },
            ];
            let hi = [lo[0] + w, lo[1] + h];
            let max_t = if case % 5 == 0 { f32::INFINITY } else { 4.0 };
            let f = |v: [f32; 2]| [f64::from(v[0]), f64::from(v[1])];
            let exact = reference(f(o), f(d), f(lo), f(hi), f64::from(max_t));
            let got = ray_span(
                &Point2::new(o[0], o[1]),
                &Vector2::new(d[0], d[1]),
                &BoundingBox2::new(Point2::new(lo[0], lo[1]), Point2::new(hi[0], hi[1])),
                max_t,
            );
            if let Some((e0, e1)) = exact {
                touching += 1;
                let (g0, g1) =
                    got.unwrap_or_else(|| panic!("case {case}: pruned a box the ray is in"));
                assert!(
                    f64::from(g0) <= e0 && f64::from(g1) >= e1,
                    "case {case}: {got:?} {exact:?}"
                );
            }
        }
        assert!(touching > 50_000, "{touching}");
    }
}
