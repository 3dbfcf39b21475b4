//! The counter sweep (`Sweep::palaces`) against the direct definition: every tile's palace count
//! and every counter leaving it, for many games, tile shapes, thread counts and kernels.

use palace_engine::Window;
use palace_engine::engine::{EngineOptions, PalaceTile, PalaceVisitor, Sweep};
use palace_engine::kernel::KernelChoice;
use palace_engine::kernel::counter::{BIAS, Edges};
use palace_engine::model::reference::DirectCounters;
use palace_engine::testing::kernels;
use proptest::prelude::*;
use std::sync::Mutex;

/// Exact counters of every cell of a board, one row and one column more than the swept board
/// (for the counters leaving it).
pub(super) struct Board(pub(super) DirectCounters);

impl Board {
    pub(super) fn new(k: u32, w: usize, h: usize) -> Self {
        Board(DirectCounters::new(k, w + 1, h + 1))
    }

    pub(super) fn check(&self, t: &Tile, what: &str) {
        let b = &self.0;
        let w = b.width;
        let (x0, x1, y0, y1) = (t.x0 as usize, t.x1 as usize, t.y0 as usize, t.y1 as usize);
        let palaces = (y0..y1)
            .flat_map(|y| (x0..x1).map(move |x| (x, y)))
            .filter(|&(x, y)| b.palace[y * w + x])
            .count();
        assert_eq!(t.palaces, palaces as u64, "{what}: palaces of tile ({x0}, {y0})..({x1}, {y1})");
        let want = Edges {
            r: (y0..y1).map(|y| b.r[y * w + x1] as u8).collect(),
            d_left: (y0..y1).map(|y| b.d_biased(x1, y + 1, BIAS)).collect(),
            c: (x0..x1).map(|x| b.c[y1 * w + x] as u8).collect(),
            d_top: (x0..x1).map(|x| b.d_biased(x + 1, y1, BIAS)).collect(),
        };
        assert_eq!(t.leaving, want, "{what}: counters leaving tile ({x0}, {y0})..({x1}, {y1})");
    }
}

pub(super) struct Tile {
    pub(super) x0: u32,
    pub(super) x1: u32,
    pub(super) y0: u32,
    pub(super) y1: u32,
    pub(super) palaces: u64,
    pub(super) leaving: Edges,
}

#[derive(Default)]
pub(super) struct Tiles(pub(super) Mutex<Vec<Tile>>);

impl PalaceVisitor for Tiles {
    fn visit(&self, _worker: usize, t: &PalaceTile<'_>) {
        let tile =
            Tile { x0: t.x0, x1: t.x1, y0: t.y0, y1: t.y1, palaces: t.palaces, leaving: t.leaving.clone() };
        self.0.lock().unwrap().push(tile);
    }
}

/// Sweeps and checks every tile; returns the cells the counter kernels computed.
fn sweep_and_check(board: &Board, w: u32, h: u32, opts: &EngineOptions, what: &str) -> u64 {
    let tiles = Tiles::default();
    let report =
        Sweep::new(board.0.k, Window::new(0, 0, w, h).unwrap()).options(opts).palaces(&tiles).expect("sweep");
    let tiles = tiles.0.into_inner().unwrap();
    let cells: u64 = tiles.iter().map(|t| u64::from(t.x1 - t.x0) * u64::from(t.y1 - t.y0)).sum();
    assert_eq!(cells, u64::from(w) * u64::from(h), "{what}: the tiles cover the board once");
    assert_eq!(report.computed() + report.filled(), cells, "{what}: the report accounts for every cell");
    for t in &tiles {
        board.check(t, what);
    }
    report.counter_computed
}

#[test]
fn small_games_every_shape() {
    for k in [1u32, 2, 3, 4, 5, 7, 12, 30] {
        let (w, h) = ((3 * k).max(61), (3 * k).max(47) + 20);
        let board = Board::new(k, w as usize, h as usize);
        for kernel in kernels() {
            for (tw, bh, threads, skip) in [
                (2, 2, 1, false),
                (3, 5, 2, true),
                (7, 4, 3, true),
                (12, 64, 2, true),
                (24, 33, 1, false),
                (60, 96, 2, true),
            ] {
                let opts = EngineOptions {
                    threads,
                    kernel,
                    skip,
                    tile_width: Some(tw),
                    band_height: Some(bh),
                    ..Default::default()
                };
                sweep_and_check(
                    &board,
                    w,
                    h,
                    &opts,
                    &format!("k={k} {kernel:?} tile {tw}x{bh} threads={threads}"),
                );
            }
        }
    }
}

/// Larger games with the default tiles and with tiles of the lane kernels' shapes: the lane
/// kernels must compute most cells, and every tile must still be right.
#[test]
fn larger_games_use_the_lane_kernels() {
    for k in [100u32, 333, 500] {
        let n = 3 * k + 70;
        let board = Board::new(k, n as usize, n as usize);
        for kernel in kernels() {
            for (tw, bh, threads) in [
                (None, None, 2),
                (Some(120), Some(64), 1),
                (Some(96), Some(160), 3),
                (Some(250), Some(100), 2),
                // Casing tiles taller than a sub-band, crossed by both slopes of the hood.
                (Some(700), Some(1100), 2),
            ] {
                let opts =
                    EngineOptions { threads, kernel, tile_width: tw, band_height: bh, ..Default::default() };
                let what = format!("k={k} {kernel:?} tile {tw:?}x{bh:?} threads={threads}");
                let lanes = sweep_and_check(&board, n, n, &opts, &what);
                if kernel != KernelChoice::Wide && bh.is_some() {
                    assert!(
                        lanes > u64::from(n) * u64::from(n) / 4,
                        "{what}: lane kernels computed only {lanes} cells"
                    );
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Random games, boards, tiles and thread counts.
    #[test]
    fn random_boards(
        k in 1u32..200,
        w in 1u32..500,
        h in 1u32..500,
        tw in 2u32..300,
        bh in 2u32..300,
        threads in 1usize..4,
        kernel in prop::sample::select(kernels()),
    ) {
        let board = Board::new(k, w as usize, h as usize);
        let opts = EngineOptions { threads, kernel, tile_width: Some(tw), band_height: Some(bh), ..Default::default() };
        sweep_and_check(&board, w, h, &opts, &format!("k={k} {w}x{h} {kernel:?} tile {tw}x{bh} threads={threads}"));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    /// A sweep paused after a random number of bands, its frontier carried through a checkpoint
    /// file's bytes and resumed (possibly pausing again), visits every tile exactly once, and
    /// every tile is right.
    #[test]
    fn paused_and_resumed_sweeps_visit_every_tile_once(
        k in 1u32..300,
        w in 1u32..700,
        h in 1u32..700,
        bh in 2u32..120,
        pauses in prop::collection::vec(0usize..6, 1..4),
        threads in 1usize..4,
        kernel in prop::sample::select(kernels()),
    ) {
        use palace_engine::engine::checkpoint::{Checkpoint, Frontier, Reader, Writer};
        use palace_engine::engine::Sweep;
        use std::sync::atomic::{AtomicUsize, Ordering};
        let board = Board::new(k, w as usize, h as usize);
        let opts = EngineOptions { threads, kernel, band_height: Some(bh), ..Default::default() };
        let tiles = Tiles::default();
        let mut frontier = None;
        for &after in pauses.iter().chain(std::iter::once(&usize::MAX)) {
            let asked = AtomicUsize::new(0);
            let pause = |/* before each band */| asked.fetch_add(1, Ordering::Relaxed) >= after;
            let (_, next) =
                Sweep::new(k, Window::new(0, 0, w, h).unwrap()).options(&opts).resume(frontier.as_ref()).pause_when(&pause).palaces_pausable(&tiles).expect("sweep");
            frontier = next.map(|f| {
                // Through a checkpoint file's bytes and back.
                let mut w = Writer::new();
                f.encode(&mut w);
                let c = Checkpoint { tag: "test".into(), state: w.into_bytes() };
                let back = Checkpoint::decode(&c.encode(), "test", std::path::Path::new("test")).expect("round trip");
                Frontier::decode(&mut Reader::new(&back.state)).expect("a frontier")
            });
            if frontier.is_none() {
                break;
            }
        }
        prop_assert!(frontier.is_none(), "the last run has no pause");
        let tiles = tiles.0.into_inner().unwrap();
        let mut seen: Vec<(u32, u32)> = tiles.iter().map(|t| (t.x0, t.y0)).collect();
        seen.sort_unstable();
        let n = seen.len();
        seen.dedup();
        prop_assert_eq!(seen.len(), n, "no tile visited twice");
        let cells: u64 = tiles.iter().map(|t| u64::from(t.x1 - t.x0) * u64::from(t.y1 - t.y0)).sum();
        prop_assert_eq!(cells, u64::from(w) * u64::from(h), "every cell once");
        for t in &tiles {
            board.check(t, &format!("k={k} {w}x{h} bands of {bh} pauses {pauses:?}"));
        }
    }
}

/// A pause asked to come after three bands (it is not asked before the first) leaves a frontier
/// below the third band, with one strip per tile; the resumed sweep finishes the board.
#[test]
fn a_pause_after_three_bands() {
    use palace_engine::engine::Sweep;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let (k, w, h) = (100u32, 400u32, 1000u32);
    let board = Board::new(k, w as usize, h as usize);
    for threads in [1, 2] {
        let opts =
            EngineOptions { threads, tile_width: Some(96), band_height: Some(64), ..Default::default() };
        let tiles = Tiles::default();
        let asked = AtomicUsize::new(0);
        let pause = || asked.fetch_add(1, Ordering::Relaxed) >= 2;
        let (_, f) = Sweep::new(k, Window::new(0, 0, w, h).unwrap())
            .options(&opts)
            .pause_when(&pause)
            .palaces_pausable(&tiles)
            .unwrap();
        let f = f.expect("paused");
        assert_eq!((f.band, f.rows_done(), f.strips.len()), (3, 192, 5));
        assert!(f.strips.iter().all(|s| s.bottom.len() == 2 * s.c.len() && s.c.len() == s.d_top.len()));
        assert_eq!(tiles.0.lock().unwrap().len(), 3 * 5);
        let (_, done) = Sweep::new(k, Window::new(0, 0, w, h).unwrap())
            .options(&opts)
            .resume(Some(&f))
            .palaces_pausable(&tiles)
            .unwrap();
        assert!(done.is_none());
        let tiles = tiles.0.into_inner().unwrap();
        assert_eq!(tiles.len(), 5 * 16);
        for t in &tiles {
            board.check(t, &format!("threads={threads}"));
        }
    }
}

/// Boards and tiles one cell wide or tall, through the hood and past it.
#[test]
fn one_cell_wide_or_tall() {
    for k in [1u32, 3, 10, 40] {
        for (w, h) in [(1u32, 1u32), (1, 50), (50, 1), (2, 90), (90, 2), (37, 1), (1, 130)] {
            let board = Board::new(k, w as usize, h as usize);
            for kernel in kernels() {
                for (tw, bh) in [(None, None), (Some(2), Some(2)), (Some(3), Some(64))] {
                    let opts =
                        EngineOptions { kernel, tile_width: tw, band_height: bh, ..Default::default() };
                    sweep_and_check(&board, w, h, &opts, &format!("k={k} {w}x{h} {kernel:?} {tw:?}x{bh:?}"));
                }
            }
        }
    }
}

/// A resumed sweep tells its progress bar where it starts and that the rows before were done
/// earlier; a fresh one does not.
#[test]
fn a_resumed_sweep_says_so_to_its_progress() {
    use palace_engine::engine::{Progress, Sweep};
    use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
    #[derive(Default)]
    struct Seen {
        first: AtomicU64,
        set: AtomicBool,
        resumed: AtomicBool,
    }
    impl Progress for Seen {
        fn set_position(&self, pos: u64) {
            if !self.set.swap(true, Ordering::Relaxed) {
                self.first.store(pos, Ordering::Relaxed);
            }
        }
        fn resumed(&self) {
            self.resumed.store(true, Ordering::Relaxed);
        }
    }
    let opts = EngineOptions { threads: 1, band_height: Some(64), ..Default::default() };
    let (fresh, tiles) = (Seen::default(), Tiles::default());
    let asked = AtomicUsize::new(0);
    let pause = || asked.fetch_add(1, Ordering::Relaxed) >= 1;
    let (_, f) = Sweep::new(50, Window::new(0, 0, 300, 500).unwrap())
        .options(&opts)
        .progress(&fresh)
        .pause_when(&pause)
        .palaces_pausable(&tiles)
        .unwrap();
    assert!(!fresh.resumed.load(Ordering::Relaxed));
    let f = f.expect("paused after two bands");
    let again = Seen::default();
    Sweep::new(50, Window::new(0, 0, 300, 500).unwrap())
        .options(&opts)
        .progress(&again)
        .resume(Some(&f))
        .palaces_pausable(&tiles)
        .unwrap();
    assert!(again.resumed.load(Ordering::Relaxed));
    assert_eq!(again.first.load(Ordering::Relaxed), u64::from(f.rows_done()));
    assert_eq!(f.rows_done(), 128);
}

/// A visitor that asks for the values of some tiles gets them, equal to the direct definition
/// (hood cells as their stand-in), and every tile's palaces and counters are still right. It
/// keeps them ([`PalaceTile::kept`]) and reads them after the sweep, when every buffer it did
/// not keep has gone back to its pool and been used again.
#[test]
fn tiles_asked_for_come_with_their_values() {
    use palace_engine::engine::{KeptTile, TileKind};
    use palace_engine::model::reference::direct_values;
    use palace_engine::model::rule::{hood_sentinel, in_hood};
    struct Some3(Tiles, Mutex<Vec<KeptTile>>);
    impl PalaceVisitor for Some3 {
        fn visit(&self, worker: usize, t: &PalaceTile<'_>) {
            self.0.visit(worker, t);
            assert_eq!(t.kept.is_some(), t.values.is_some(), "values and kept come together");
            let Some(kept) = t.kept else {
                assert!(!self.wants_values(t.x0, t.y0, t.x1, t.y1), "asked-for values came");
                return;
            };
            let (view, kept_view) = (t.values.as_ref().unwrap(), kept.view());
            assert_eq!((view.x0, view.x1, view.y0, view.y1), (t.x0, t.x1, t.y0, t.y1));
            assert_eq!((kept_view.x0, kept_view.x1, kept_view.y0, kept_view.y1), (t.x0, t.x1, t.y0, t.y1));
            self.1.lock().unwrap().push(kept.clone());
        }
        fn wants_values(&self, x0: u32, y0: u32, _x1: u32, _y1: u32) -> bool {
            (x0 / 7 + y0 / 5).is_multiple_of(3)
        }
    }
    let cells_of = |view: &palace_engine::engine::TileView<'_>| {
        let mut cells = Vec::new();
        for y in view.y0..view.y1 {
            match view.kind {
                TileKind::Cells { .. } => cells.extend_from_slice(view.row(y).expect("cells")),
                TileKind::Zero => cells.extend((view.x0..view.x1).map(|_| 0)),
                TileKind::Hood => {
                    cells.extend((view.x0..view.x1).map(|x| hood_sentinel(view.k, x.into(), y.into())))
                }
            }
        }
        (view.x0, view.y0, cells)
    };
    for (k, n, tw, bh) in [(5u32, 200u32, 24, 64), (100, 700, 96, 64), (333, 1100, 300, 128)] {
        let board = Board::new(k, n as usize, n as usize);
        let direct = direct_values(k, n as usize, n as usize);
        for kernel in kernels() {
            let opts = EngineOptions {
                threads: 2,
                kernel,
                tile_width: Some(tw),
                band_height: Some(bh),
                ..Default::default()
            };
            let v = Some3(Tiles::default(), Mutex::new(Vec::new()));
            Sweep::new(k, Window::new(0, 0, n, n).unwrap()).options(&opts).palaces(&v).unwrap();
            let tiles = v.0.0.into_inner().unwrap();
            for t in &tiles {
                board.check(t, &format!("k={k} {kernel:?}"));
            }
            let kept = v.1.into_inner().unwrap();
            assert!(!kept.is_empty() && kept.len() < tiles.len(), "k={k}: some tiles, not all");
            for (x0, y0, cells) in kept.iter().map(|t| cells_of(&t.view())) {
                let t = tiles.iter().find(|t| (t.x0, t.y0) == (x0, y0)).unwrap();
                let w = (t.x1 - t.x0) as usize;
                for (i, &c) in cells.iter().enumerate() {
                    let (x, y) = (x0 as usize + i % w, y0 as usize + i / w);
                    let d = direct[y * n as usize + x];
                    let want = if in_hood(k, x as u64, y as u64) { d.max(-128) } else { d };
                    assert_eq!(i32::from(c), want, "k={k} {kernel:?} cell ({x}, {y})");
                }
            }
        }
    }
}
