//! The statistics of a counter sweep (the kernels' tally, and the values of the tiles that
//! could hold an extreme's first cell) equal those of the CA's sweep, on random games, boards,
//! tilings, kernels and thread counts, boards whose tiles reach the lane kernels included.

use palace::analysis::stats::{stats, stats_by_counters};
use palace::engine::{EngineOptions, Silent};
use palace::kernel::KernelChoice;
use palace::model::geometry::Window;
use palace::testing::kernels;
use proptest::prelude::*;

fn both(k: u32, w: u32, h: u32, opts: &EngineOptions, what: &str) -> u64 {
    let ca = EngineOptions { kernel: KernelChoice::Wide, threads: 1, ..Default::default() };
    let (want, _) = stats(k, Window::new(0, 0, w, h).unwrap(), &ca, &Silent).expect("CA sweep");
    let (got, report) = stats_by_counters(k, w, h, opts, &Silent).expect("counter sweep");
    assert_eq!(got, want, "{what}");
    report.counter_computed
}

#[test]
fn larger_games_through_the_lane_kernels() {
    for k in [100u32, 333, 500, 1000] {
        let n = 3 * k + 70;
        for kernel in kernels() {
            for (tw, bh, threads) in [(None, None, 2), (Some(120), Some(64), 1), (Some(250), Some(100), 3)] {
                let opts =
                    EngineOptions { threads, kernel, tile_width: tw, band_height: bh, ..Default::default() };
                let what = format!("k={k} {kernel:?} tile {tw:?}x{bh:?} threads={threads}");
                let lanes = both(k, n, n, &opts, &what);
                if kernel != KernelChoice::Wide && bh.is_some() {
                    assert!(lanes > u64::from(n) * u64::from(n) / 4, "{what}: lane kernels computed {lanes}");
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn random_boards(
        k in 1u32..400,
        w in 1u32..900,
        h in 1u32..900,
        tw in 2u32..400,
        bh in 2u32..300,
        threads in 1usize..4,
        kernel in prop::sample::select(kernels()),
    ) {
        let opts = EngineOptions { threads, kernel, tile_width: Some(tw), band_height: Some(bh), ..Default::default() };
        both(k, w, h, &opts, &format!("k={k} {w}x{h} {kernel:?} tile {tw}x{bh} threads={threads}"));
    }
}
