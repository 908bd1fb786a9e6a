//! Shared input generation for kasanari's benchmarks: the deterministic
//! random generator of `kasanari::demo` (SplitMix64), so every run measures the
//! same inputs without another dependency.

pub use kasanari::demo::Rng;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_in_range() {
        let (mut a, mut b) = (Rng::new(7), Rng::new(7));
        for _ in 0..1000 {
            let x = a.range(-2.0, 3.0);
            assert_eq!(x, b.range(-2.0, 3.0));
            assert!((-2.0..3.0).contains(&x));
        }
        assert_ne!(Rng::new(1).next_u64(), Rng::new(2).next_u64());
    }
}

/// The broad-phase scenes' generators, shared by `benches/broad.rs` and the
/// callgrind driver `examples/broad_calls.rs` so both see the same inputs.
pub mod broad_scene {
    use super::Rng;

    /// Half sizes: most boxes small (sides 0.75..1.25), one in ten five to
    /// ten times larger.
    pub fn half_sizes(rng: &mut Rng, n: usize) -> Vec<[f64; 2]> {
        (0..n)
            .map(|_| {
                let (w, h) = (rng.range(0.75, 1.25), rng.range(0.75, 1.25));
                let k = if rng.range(0.0, 1.0) < 0.1 {
                    rng.range(5.0, 10.0)
                } else {
                    1.0
                };
                [0.5 * w * k, 0.5 * h * k]
            })
            .collect()
    }

    /// A roughly normal number (sum of four uniforms, variance 1).
    fn gaussian(rng: &mut Rng) -> f64 {
        let s: f64 = (0..4).map(|_| rng.range(-1.0, 1.0)).sum();
        s * (3.0f64 / 4.0).sqrt()
    }

    /// Centres in the unit square, uniform or `clustered` (about 200 boxes
    /// per cluster, clusters well apart: sigma a quarter of the mean spacing
    /// of cluster centres; clusters may spill a little outside).
    pub fn unit_centres(rng: &mut Rng, n: usize, clustered: bool) -> Vec<[f64; 2]> {
        if !clustered {
            return (0..n)
                .map(|_| [rng.range(0.0, 1.0), rng.range(0.0, 1.0)])
                .collect();
        }
        let clusters = (n / 200).max(1);
        let sigma = 0.25 / (clusters as f64).sqrt();
        let centres: Vec<[f64; 2]> = (0..clusters)
            .map(|_| [rng.range(0.0, 1.0), rng.range(0.0, 1.0)])
            .collect();
        (0..n)
            .map(|_| {
                let c = centres[(rng.next_u64() % clusters as u64) as usize];
                [c[0] + sigma * gaussian(rng), c[1] + sigma * gaussian(rng)]
            })
            .collect()
    }
}
