//! The direction search shared by the ellipse contacts: the minimum over unit
//! directions `n` of a support overlap `h(n)`, without trigonometric calls.
//!
//! Directions are unit vectors throughout. The scan directions come from a
//! table of `(cos, sin)(2πk/64)` (the first quadrant as `f64` literals, the
//! rest by exact quarter-turn symmetry). A local minimum found by the scan is
//! refined on the gnomonic chart around its sample `n₀`: `n(u) = (n₀ + u·n₀⊥) /
//! √(1 + u²)`, `u = tan(θ − θ₀)`, so no angle is ever converted. With
//! `dθ/du = 1/(1 + u²)`, Newton's step for `h'(θ) = 0` is
//! `Δu = −h'(θ)(1 + u²) / h''(θ)`; it is kept only strictly inside the bracket
//! given by the neighbouring samples (shrunk by the sign of `h'` at every
//! iterate), otherwise the bracket is bisected. The least `h` seen is kept, so
//! the result is never worse than the scan. Directions are ordered by a
//! monotone pseudo-angle ([`pseudo_angle`]) for the tie rule instead of `atan2`.

use nalgebra::Vector2;
use num_traits::Float;
use shape::Real;

/// Samples per scan family.
pub(crate) const SCAN_SAMPLES: usize = 64;
/// Local minima of one family handed to refinement, besides its global
/// minimum.
const REFINED_PER_FAMILY: usize = 4;
/// Seeds one family contributes at most.
pub(crate) const SEEDS_PER_FAMILY: usize = REFINED_PER_FAMILY + 1;
/// Most iterations of one refinement (bisection alone shrinks a 0.2 rad
/// bracket below `√ε` of f64 in 24).
const MAX_REFINE_ITERATIONS: usize = 32;

/// `cos(2πk/64)` for `k = 0..=16`.
const COS_QUADRANT: [f64; 17] = [
    1.0,
    0.995_184_726_672_196_9,
    0.980_785_280_403_230_4,
    0.956_940_335_732_208_8,
    0.923_879_532_511_286_7,
    0.881_921_264_348_355,
    0.831_469_612_302_545_2,
    0.773_010_453_362_737,
    core::f64::consts::FRAC_1_SQRT_2,
    0.634_393_284_163_645_5,
    0.555_570_233_019_602_3,
    0.471_396_736_825_997_8,
    0.382_683_432_365_089_84,
    0.290_284_677_254_462_33,
    0.195_090_322_016_128_33,
    0.098_017_140_329_560_77,
    0.0,
];

/// `(cos, sin)(2πk/64)` for `k = 0..64`, counter-clockwise from `+x`.
pub(crate) fn unit_circle<T: Real>() -> [Vector2<T>; SCAN_SAMPLES] {
    let mut out = [Vector2::zeros(); SCAN_SAMPLES];
    for (k, o) in out.iter_mut().enumerate() {
        let j = k % 16;
        let (c, s) = (T::lit(COS_QUADRANT[j]), T::lit(COS_QUADRANT[16 - j]));
        *o = match k / 16 {
            0 => Vector2::new(c, s),
            1 => Vector2::new(-s, c),
            2 => Vector2::new(-c, -s),
            _ => Vector2::new(s, -c),
        };
    }
    out
}

/// A strictly increasing function of the angle of `n` in `[0, 2π)`
/// counter-clockwise from `+x`, with values in `[0, 4)`: the tie rule compares
/// these instead of angles. `+x` (and `(x > 0, −0)`) maps to 0.
pub(crate) fn pseudo_angle<T: Real>(n: &Vector2<T>) -> T {
    let l1 = Float::abs(n.x) + Float::abs(n.y);
    if l1 <= T::zero() || !l1.is_finite() {
        return T::zero();
    }
    let p = n.y / l1;
    if n.x >= T::zero() {
        if n.y >= T::zero() { p } else { T::lit(4.0) + p }
    } else {
        T::two() - p
    }
}

/// `h` and its first two derivatives in the angle at a unit direction, and
/// which smooth piece of `h` they belong to.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Jet<T: Real> {
    pub(crate) value: T,
    pub(crate) d1: T,
    pub(crate) d2: T,
    pub(crate) piece: usize,
}

/// A function of unit directions to minimise: smooth, or piecewise smooth
/// with known kinks.
pub(crate) trait Objective<T: Real> {
    /// `h(n)`, `h'(θ)` and `h''(θ)` at the unit direction `n = (cos θ, sin θ)`
    /// (of the smooth piece active at `n`).
    fn jet(&self, n: &Vector2<T>) -> Jet<T>;

    /// The same for a given smooth piece (its extension beyond where it is
    /// active; `value` is then not `h`).
    fn piece_jet(&self, n: &Vector2<T>, _piece: usize) -> Jet<T> {
        self.jet(n)
    }

    /// The direction where the active piece changes from `from` to `to`
    /// turning counter-clockwise, if that is a single kink.
    fn kink(&self, _from: usize, _to: usize) -> Option<Vector2<T>> {
        None
    }
}

/// A scan sample to refine: its direction, value, and its neighbours.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Seed<T: Real> {
    pub(crate) n: Vector2<T>,
    pub(crate) value: T,
    pub(crate) left: Vector2<T>,
    pub(crate) right: Vector2<T>,
}

/// Seeds of one scan family (directions in counter-clockwise order): its four
/// lowest cyclic local minima and its global minimum. Returns how many were
/// written.
pub(crate) fn family_seeds<T: Real>(
    dirs: &[Vector2<T>; SCAN_SAMPLES],
    values: &[T; SCAN_SAMPLES],
    out: &mut [Seed<T>],
) -> usize {
    let mut minima = [0usize; SCAN_SAMPLES];
    let mut found = 0;
    let mut global = 0;
    for i in 0..SCAN_SAMPLES {
        let prev = values[(i + SCAN_SAMPLES - 1) % SCAN_SAMPLES];
        let next = values[(i + 1) % SCAN_SAMPLES];
        if values[i] < prev && values[i] <= next {
            minima[found] = i;
            found += 1;
        }
        if values[i] < values[global] {
            global = i;
        }
    }
    let minima = &mut minima[..found];
    minima.sort_unstable_by(|&i, &j| {
        values[i]
            .partial_cmp(&values[j])
            .unwrap_or(core::cmp::Ordering::Equal)
    });
    let lowest = &minima[..found.min(REFINED_PER_FAMILY)];
    let extra = (!lowest.contains(&global)).then_some(global);
    let mut count = 0;
    for &i in lowest.iter().chain(extra.iter()) {
        out[count] = Seed {
            n: dirs[i],
            value: values[i],
            left: dirs[(i + SCAN_SAMPLES - 1) % SCAN_SAMPLES],
            right: dirs[(i + 1) % SCAN_SAMPLES],
        };
        count += 1;
    }
    count
}

/// Refines every seed, lowest first, skipping a seed whose bracket already
/// holds a refined minimum (the same basin, reached from another family);
/// calls `found` with each refined direction and value.
pub(crate) fn refine_seeds<T: Real, O: Objective<T>>(
    h: &O,
    seeds: &mut [Seed<T>],
    mut found: impl FnMut(Vector2<T>, T),
) {
    seeds.sort_unstable_by(|a, b| {
        a.value
            .partial_cmp(&b.value)
            .unwrap_or(core::cmp::Ordering::Equal)
    });
    let mut done = [Vector2::zeros(); 3 * SEEDS_PER_FAMILY];
    let mut ndone = 0;
    for seed in seeds.iter() {
        let inside =
            |m: &Vector2<T>| seed.left.perp(m) > T::zero() && m.perp(&seed.right) > T::zero();
        if done[..ndone].iter().any(inside) {
            continue;
        }
        let (n, v) = refine(h, seed);
        if ndone < done.len() {
            done[ndone] = n;
            ndone += 1;
        }
        found(n, v);
    }
}

/// `tan` of the angle from `n0` to `m` (counter-clockwise positive), for a
/// bracket end; a quarter turn or more is capped.
fn chart<T: Real>(n0: &Vector2<T>, m: &Vector2<T>) -> T {
    let cap = T::lit(1e6);
    let (s, c) = (n0.perp(m), n0.dot(m));
    if c > T::zero() {
        let u = s / c;
        if Float::abs(u) < cap {
            return u;
        }
    }
    if s >= T::zero() { cap } else { -cap }
}

/// Safeguarded Newton on `h'(θ) = 0` over the gnomonic chart around the seed
/// (module notes). Returns the direction of least `h` seen and `h` there.
pub(crate) fn refine<T: Real, O: Objective<T>>(h: &O, seed: &Seed<T>) -> (Vector2<T>, T) {
    let n0 = seed.n;
    let p = Vector2::new(-n0.y, n0.x);
    let mut lo = chart(&n0, &seed.left);
    let mut hi = chart(&n0, &seed.right);
    // Steps below `coarse` are in Newton's quadratic regime: one more gains
    // nothing once h stops decreasing. Below `fine` only rounding is left.
    let coarse = Float::sqrt(T::epsilon());
    let fine = T::epsilon() * T::lit(8.0);
    let mut u = T::zero();
    let mut jet = h.jet(&n0);
    let (mut best_n, mut best_v) = (n0, jet.value);
    // The pieces active where lo and hi were set (none at the scan samples).
    let (mut piece_lo, mut piece_hi) = (None, None);
    for _ in 0..MAX_REFINE_ITERATIONS {
        if jet.d1 > T::zero() {
            hi = u;
            piece_hi = Some(jet.piece);
        } else if jet.d1 < T::zero() {
            lo = u;
            piece_lo = Some(jet.piece);
        } else {
            break;
        }
        // A kink between the bracket's ends: the minimum is there when the
        // one-sided derivatives change sign across it, else on one side.
        if let (Some(i), Some(j)) = (piece_lo, piece_hi)
            && i != j
            && let Some(nk) = h.kink(i, j)
        {
            let uk = chart(&n0, &nk);
            if uk > lo && uk < hi {
                let (left, right) = (h.piece_jet(&nk, i), h.piece_jet(&nk, j));
                if left.d1 <= T::zero() && right.d1 >= T::zero() {
                    let v = h.jet(&nk).value;
                    if v < best_v {
                        best_n = nk;
                        best_v = v;
                    }
                    break;
                } else if left.d1 > T::zero() {
                    hi = uk;
                    piece_hi = Some(i);
                } else {
                    lo = uk;
                    piece_lo = Some(j);
                }
            }
        }
        let w = T::one() + u * u;
        if hi - lo <= fine * w || (hi - lo).is_nan() {
            break;
        }
        let newton = u - jet.d1 * w / jet.d2;
        let next = if jet.d2 > T::zero() && newton > lo && newton < hi {
            newton
        } else {
            (lo + hi) * T::half()
        };
        if next == u || !next.is_finite() {
            break;
        }
        let step = Float::abs(next - u);
        let previous = jet.value;
        u = next;
        let v = n0 + p * u;
        let n = v / v.norm();
        jet = h.jet(&n);
        if jet.value < best_v {
            best_n = n;
            best_v = jet.value;
        }
        if step <= fine * w || (step <= coarse * w && (jet.value >= previous || jet.value.is_nan()))
        {
            break;
        }
    }
    (best_n, best_v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_the_unit_circle() {
        let dirs = unit_circle::<f64>();
        for (k, d) in dirs.iter().enumerate() {
            let th = core::f64::consts::TAU * k as f64 / SCAN_SAMPLES as f64;
            assert!((d.x - th.cos()).abs() < 1e-15 && (d.y - th.sin()).abs() < 1e-15);
        }
    }

    #[test]
    fn pseudo_angle_is_monotone() {
        let mut last = -1.0;
        for k in 0..4000 {
            let th = core::f64::consts::TAU * k as f64 / 4000.0;
            let a = pseudo_angle(&Vector2::new(th.cos(), th.sin()));
            assert!(a > last && a < 4.0, "{k}");
            last = a;
        }
        assert_eq!(pseudo_angle(&Vector2::new(1.0, -0.0)), 0.0);
    }
}
