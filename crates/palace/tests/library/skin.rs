//! The skin through the counter sweep ([`skin::follow`], [`skin::Follower`]) against the skin
//! through the CA's row sweep ([`skin::follow_rows`]), column for column, over games, column
//! ranges, tilings, kernels and thread counts; and runs paused at random bands, saved and
//! resumed, against uninterrupted ones.

use palace::analysis::skin::{self, Column, SkinReport, SkinRun};
use palace::engine::{EngineOptions, Silent};
use palace::kernel::KernelChoice;
use palace::resume::{Reader, Resumable, Writer};
use palace::testing::kernels;
use proptest::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A result as text: the report's table and its columns, or the error's message.
fn outcome<E: std::fmt::Display>(
    r: Result<(SkinReport, Vec<Column>), E>,
) -> Result<(String, Vec<Column>), String> {
    r.map(|(rep, cols)| (rep.to_string(), cols)).map_err(|e| e.to_string())
}

fn options(threads: usize, tile: Option<u32>, band: Option<u32>, kernel: KernelChoice) -> EngineOptions {
    EngineOptions { threads, tile_width: tile, band_height: band, kernel, ..EngineOptions::default() }
}

/// Games: the smallest, the ones of the paper's figures, and a few between.
const GAMES: [u32; 12] = [1, 2, 3, 5, 7, 12, 40, 100, 333, 500, 1000, 2000];

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Column for column, and the same report (or the same error), on any tiling.
    #[test]
    fn counter_sweep_equals_row_sweep(
        game in 0..GAMES.len(),
        span in 1u64..12_000,
        threads in 1usize..=3,
        tile in prop::option::of(2u32..3000),
        band in prop::option::of(2u32..600),
        kernel in 0usize..8,
    ) {
        let k = GAMES[game];
        let to = u64::from(k) + span;
        let ks = kernels();
        let o = options(threads, tile, band, ks[kernel % ks.len()]);
        let fast = outcome(skin::follow(k, to, &o, &Silent).map(|(r, c, _)| (r, c)));
        let reference = outcome(skin::follow_rows(k, to, &EngineOptions::default(), &Silent).map(|(r, c, _)| (r, c)));
        prop_assert_eq!(fast, reference, "k = {}, to = {}", k, to);
    }
}

/// Many more workers than cores and many small bands: the reader falls behind, the workers wait
/// for it before fixing a band's columns, and the skin is still the row sweep's, column for
/// column.
#[test]
fn many_workers_on_few_cores_equal_the_row_sweep() {
    for (k, span, threads, tile, band) in [(500u32, 30_000u64, 12, 256, 16), (2000, 20_000, 16, 384, 32)] {
        let to = u64::from(k) + span;
        let o = options(threads, Some(tile), Some(band), KernelChoice::Auto);
        let fast = outcome(skin::follow(k, to, &o, &Silent).map(|(r, c, _)| (r, c)));
        let reference =
            outcome(skin::follow_rows(k, to, &EngineOptions::default(), &Silent).map(|(r, c, _)| (r, c)));
        assert!(fast.is_ok(), "k = {k}: {fast:?}");
        assert_eq!(fast, reference, "k = {k}, to = {to}, {threads} threads");
    }
}

/// The state of a paused run, as a checkpoint holds it.
fn saved<R: Resumable>(run: &R) -> Vec<u8> {
    let mut w = Writer::new();
    run.encode(&mut w);
    w.into_bytes()
}

/// `run` continued from `bytes`, all of which its state must take.
fn restored<R: Resumable>(mut run: R, bytes: &[u8]) -> Result<R, String> {
    let mut r = Reader::new(bytes);
    run.restore(&mut r)?;
    if r.is_empty() { Ok(run) } else { Err("bytes left after the state".into()) }
}

/// Follows the skin in segments, each paused after `every` bands; between segments the state
/// goes through its bytes into a fresh run, as across runs of `--resume`.
fn in_segments(k: u32, to: u64, o: &EngineOptions, every: usize) -> (SkinReport, Vec<Column>, usize) {
    let mut state: Option<Vec<u8>> = None;
    let mut segments = 0;
    loop {
        let mut run = SkinRun::new(skin::Follower::new(k, to, o, &Silent).unwrap());
        if let Some(bytes) = &state {
            run = restored(run, bytes).expect("a saved state restores");
        }
        let asked = AtomicUsize::new(0);
        let pause = || asked.fetch_add(1, Ordering::Relaxed) + 1 >= every;
        let done = run.segment(&pause).unwrap();
        segments += 1;
        if done {
            let (rep, cols, _) = run.finish().unwrap();
            return (rep, cols, segments);
        }
        state = Some(saved(&run));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// Paused every few bands and resumed from the saved state: the same skin.
    #[test]
    fn resumed_runs_equal_one_run(
        game in 5..GAMES.len(),
        span in 2_000u64..15_000,
        every in 1usize..5,
        threads in 1usize..=3,
        band in 16u32..120,
    ) {
        let k = GAMES[game];
        let to = u64::from(k) + span;
        let o = options(threads, None, Some(band), KernelChoice::Auto);
        let (rep, cols, _) = skin::follow(k, to, &o, &Silent).unwrap();
        let (rep2, cols2, segments) = in_segments(k, to, &o, every);
        prop_assert!(segments > 1, "the run was paused");
        prop_assert_eq!(cols, cols2);
        prop_assert_eq!(rep.to_string(), rep2.to_string());
    }
}

/// A state is refused by a run of another game or target, or cut short, and a frontier the
/// state has not read up to is refused.
#[test]
fn a_state_of_another_run_is_refused() {
    let o = options(2, None, Some(64), KernelChoice::Auto);
    let run = |k: u32, to: u64| SkinRun::new(skin::Follower::new(k, to, &o, &Silent).unwrap());
    let mut first = run(500, 6000);
    let asked = AtomicUsize::new(0);
    assert!(!first.segment(&|| asked.fetch_add(1, Ordering::Relaxed) >= 3).unwrap(), "paused");
    let bytes = saved(&first);
    assert!(restored(run(500, 6000), &bytes).is_ok());
    assert!(restored(run(501, 6000), &bytes).is_err(), "another game");
    assert!(restored(run(500, 6001), &bytes).is_err(), "another target");
    assert!(restored(run(500, 6000), &bytes[..bytes.len() - 1]).is_err(), "truncated");
    // A fresh follower (row 0) cannot continue from a frontier further down.
    let f = skin::Follower::new(500, 6000, &o, &Silent).unwrap();
    let asked = AtomicUsize::new(0);
    let (_, frontier) = f.segment(None, &|| asked.fetch_add(1, Ordering::Relaxed) >= 3).unwrap();
    let fresh = skin::Follower::new(500, 6000, &o, &Silent).unwrap();
    let e = fresh.segment(frontier.as_ref(), &|| false).unwrap_err();
    assert!(e.to_string().contains("cannot resume"), "{e}");
}

/// With the columns' patterns recorded (`--pattern`): the counter sweep, paused and resumed
/// through its bytes, gives the row sweep's report, pattern measures included; a state without
/// patterns is refused by a run that records them, and the other way round.
#[test]
fn pattern_runs_resume_and_equal_the_row_sweep() {
    let (k, to) = (500u32, 9500u64);
    let o = options(2, None, Some(48), KernelChoice::Auto);
    let (rows, rows_cols, _) = skin::follow_rows_with(k, to, true, &o, &Silent).unwrap();
    assert!(rows.levels.iter().all(|l| l.pattern.is_some()) && rows.outside_values.is_some());
    let plain = || SkinRun::new(skin::Follower::new(k, to, &o, &Silent).unwrap());
    let with = || SkinRun::new(skin::Follower::new(k, to, &o, &Silent).unwrap().with_patterns());
    let mut state: Option<Vec<u8>> = None;
    let mut segments = 0;
    let (rep, cols) = loop {
        let mut run = with();
        if let Some(bytes) = &state {
            run = restored(run, bytes).expect("a saved state restores");
            assert!(restored(plain(), bytes).is_err(), "patterns expected");
        }
        let asked = AtomicUsize::new(0);
        let done = run.segment(&|| asked.fetch_add(1, Ordering::Relaxed) >= 2).unwrap();
        segments += 1;
        if done {
            let (rep, cols, _) = run.finish().unwrap();
            break (rep, cols);
        }
        state = Some(saved(&run));
    };
    assert!(segments > 1, "the run was paused");
    assert_eq!(cols, rows_cols);
    assert_eq!(rep.to_string(), rows.to_string());
    assert_eq!(serde_json::to_string(&rep).unwrap(), serde_json::to_string(&rows).unwrap());
    // A plain state is not a state with patterns.
    let mut p = plain();
    let asked = AtomicUsize::new(0);
    assert!(!p.segment(&|| asked.fetch_add(1, Ordering::Relaxed) >= 2).unwrap());
    assert!(restored(with(), &saved(&p)).is_err());
    assert_ne!(plain().tag(), with().tag());
}

/// The smallest game, past where the rows first bounded for it ran out (about 82000 columns
/// past the shoulder; docs/skin.md, "Small games"): its outer boundary descends 1 row per 2
/// columns, the skin is one palace (`v = -1`) thick with its top at row `(x - 1) / 2` in every
/// column, and the counter sweep and the row sweep agree column for column.
#[test]
fn the_skin_of_the_smallest_game_ends_within_its_rows() {
    let (k, to) = (3u32, 120_000u64);
    let o = options(2, None, None, KernelChoice::Auto);
    let (rep, cols, _) = skin::follow(k, to, &o, &Silent).unwrap();
    assert_eq!(cols.len() as u64, to - u64::from(k));
    for c in &cols {
        let want =
            Column { x: c.x, top: ((c.x - 1) / 2) as u32, top_v: -1, vertical: 1, diagonal: c.diagonal };
        assert_eq!(*c, want);
        assert!((1..=2).contains(&c.diagonal), "{c:?}");
    }
    assert_eq!(rep.rows, 60_001);
    assert!(rep.rows > (to - u64::from(k)) as u32 * 9 / 20 + 4096, "past the old bound");
    assert_eq!(rep.levels.len(), 1);
    assert_eq!(rep.levels[0].slope.map(|s| (s * 1e5).round() as u64), Some(50_000));
    let (rows, rows_cols, _) = skin::follow_rows(k, to, &o, &Silent).unwrap();
    assert_eq!((rows.to_string(), rows_cols), (rep.to_string(), cols));
}

/// The workers' profile of a sweep accounts for their time: it computes, the skin's visitor
/// takes its share (its reading of rows, one worker at a time, part of it), and the parts
/// never add up to more than the threads had.
#[test]
fn the_workers_profile_accounts_for_their_time() {
    for threads in [1, 2, 3] {
        let opts = EngineOptions { threads, ..EngineOptions::default() };
        let (_, _, r) = skin::follow(2000, 40000, &opts, &Silent).unwrap();
        let w = r.workers;
        assert!(w.computing > std::time::Duration::ZERO && w.visiting > std::time::Duration::ZERO, "{w:?}");
        // The skin reads its rows one worker at a time, inside the visitor.
        assert!(w.serial > std::time::Duration::ZERO && w.serial <= w.visiting, "{w:?}");
        let spent = w.computing + w.visiting + w.waiting_above + w.waiting_band;
        // Each worker measures within its own lifetime, which the sweep's wall time covers.
        let had = r.elapsed * threads as u32 + std::time::Duration::from_millis(5);
        assert!(spent <= had, "{threads} threads: {w:?} in {:?}", r.elapsed);
    }
    // Without a visitor (the rows go to a consumer) nothing is spent visiting.
    let w = palace::Window::new(0, 0, 3000, 3000).unwrap();
    let opts = EngineOptions { threads: 2, ..EngineOptions::default() };
    struct Drop;
    impl palace::engine::sink::RowSink for Drop {
        type Error = palace::Error;

        fn row(&mut self, _: &palace::engine::sink::Row<'_>) -> palace::Result<()> {
            Ok(())
        }
    }
    let r = palace::engine::Sweep::new(500, w).options(&opts).rows(&mut Drop).unwrap();
    assert_eq!(r.workers.visiting, std::time::Duration::ZERO);
    assert!(r.workers.computing > std::time::Duration::ZERO);
}
