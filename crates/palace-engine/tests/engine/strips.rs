//! The counter sweep cut into column strips (`Sweep::palaces_in_strips`, `engine::strips`)
//! against the plain counter sweep (`Sweep::palaces`), bit for bit: the palaces, the counters
//! leaving the board, the values and the counts of values a visitor asks for; on small boards
//! every strip tile against the direct definition too. Random games (k = 1, 2, 3, small, large,
//! 40003), boards, tilings, strip counts and cuts, with strips narrower than a tile and strips
//! wholly in outer space.

use super::counter_sweep::{Board, Tile, Tiles};
use palace_engine::Window;
use palace_engine::engine::checkpoint::{Reader, Writer};
use palace_engine::engine::strips::{
    ChannelTransport, StripEdge, StripPartition, StripSweep, Transport, run_strip,
};
use palace_engine::engine::{Cancel, EngineOptions, PalaceTile, PalaceVisitor, Sweep, TileKind, TileView};
use palace_engine::error::Error;
use palace_engine::kernel::KernelChoice;
use palace_engine::model::rule::hood_sentinel;
use palace_engine::testing::kernels;
use proptest::prelude::*;
use std::collections::VecDeque;
use std::sync::Mutex;

/// What leaves a board of a counter sweep: its palaces, and the counters leaving its bottom row
/// (`C`, `D'` per column) and its last column (`R`, `D'` per row), modulo 256.
#[derive(Debug, PartialEq, Eq)]
struct Outcome {
    palaces: u64,
    cells: u64,
    bottom: Vec<(u8, u8)>,
    right: Vec<(u8, u8)>,
}

fn outcome(tiles: &[Tile], w: u32, h: u32) -> Outcome {
    let mut o =
        Outcome { palaces: 0, cells: 0, bottom: vec![(0, 0); w as usize], right: vec![(0, 0); h as usize] };
    for t in tiles {
        o.palaces += t.palaces;
        o.cells += u64::from(t.x1 - t.x0) * u64::from(t.y1 - t.y0);
        if t.y1 == h {
            for (i, x) in (t.x0..t.x1).enumerate() {
                o.bottom[x as usize] = (t.leaving.c[i], t.leaving.d_top[i]);
            }
        }
        if t.x1 == w {
            for (i, y) in (t.y0..t.y1).enumerate() {
                o.right[y as usize] = (t.leaving.r[i], t.leaving.d_left[i]);
            }
        }
    }
    o
}

/// The stored values of a tile's view, row by row.
fn cells_of(view: &TileView<'_>) -> Vec<i8> {
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
    cells
}

/// A visitor that asks for every tile's values (`counts: false`) or for the counts of values
/// (`counts: true`, as the statistics do), and keeps the board's stored values and their
/// histogram by `v + 128`.
struct Values {
    counts: bool,
    width: u32,
    grid: Mutex<Vec<i8>>,
    histogram: Mutex<Vec<u64>>,
    palaces: Mutex<Vec<u64>>,
}

impl Values {
    fn new(counts: bool, w: u32, h: u32) -> Self {
        Values {
            counts,
            width: w,
            grid: Mutex::new(vec![i8::MAX; w as usize * h as usize]),
            histogram: Mutex::new(vec![0; 256]),
            palaces: Mutex::new(vec![0; 8]),
        }
    }

    fn add(&self, view: &TileView<'_>) {
        let cells = cells_of(view);
        let (mut grid, mut hist) = (self.grid.lock().unwrap(), self.histogram.lock().unwrap());
        let w = (view.x1 - view.x0) as usize;
        for (i, &v) in cells.iter().enumerate() {
            let (x, y) = (view.x0 as usize + i % w, view.y0 as usize + i / w);
            grid[y * self.width as usize + x] = v;
            hist[(i16::from(v) + 128) as usize] += 1;
        }
    }
}

impl PalaceVisitor for Values {
    fn visit(&self, worker: usize, t: &PalaceTile<'_>) {
        self.palaces.lock().unwrap()[worker.min(7)] += t.palaces;
        if let Some(counts) = t.counts {
            assert!(t.values.is_none(), "counts or values");
            for (h, c) in self.histogram.lock().unwrap().iter_mut().zip(counts.iter()) {
                *h += c;
            }
            for piece in t.pieces {
                self.add(piece);
            }
        } else {
            self.add(t.values.as_ref().expect("values where no counts"));
        }
    }

    fn wants_values(&self, _x0: u32, _y0: u32, _x1: u32, _y1: u32) -> bool {
        !self.counts
    }

    fn wants_counts(&self) -> bool {
        self.counts
    }
}

fn board(w: u32, h: u32) -> Window {
    Window::new(0, 0, w, h).unwrap()
}

/// Sweeps the board plainly and in strips with palaces only, with every value and with counts
/// of values, and checks that they agree; on small boards every strip tile is checked against
/// the direct definition. Returns the strips' palaces by strip (the first eight).
fn agree(k: u32, w: u32, h: u32, strips: &StripPartition, opts: &EngineOptions, what: &str) -> Vec<u64> {
    let (plain, striped) = (Tiles::default(), Tiles::default());
    Sweep::new(k, board(w, h)).options(opts).palaces(&plain).expect("plain sweep");
    let report =
        Sweep::new(k, board(w, h)).options(opts).palaces_in_strips(strips, &striped).expect("strips");
    let (plain, striped) = (plain.0.into_inner().unwrap(), striped.0.into_inner().unwrap());
    let (want, got) = (outcome(&plain, w, h), outcome(&striped, w, h));
    assert_eq!(got.cells, u64::from(w) * u64::from(h), "{what}: the strips' tiles cover the board once");
    assert_eq!(report.computed() + report.filled(), got.cells, "{what}: the report accounts for every cell");
    assert_eq!(report.region_cells, got.cells, "{what}: the report's region");
    assert_eq!(got, want, "{what}: palaces and the counters leaving the board");
    if u64::from(w) * u64::from(h) <= 250_000 {
        let direct = Board::new(k, w as usize, h as usize);
        for t in &striped {
            direct.check(t, what);
        }
    }
    let mut by_strip = Vec::new();
    for counts in [false, true] {
        let (plain, striped) = (Values::new(counts, w, h), Values::new(counts, w, h));
        Sweep::new(k, board(w, h)).options(opts).palaces(&plain).expect("plain sweep");
        Sweep::new(k, board(w, h)).options(opts).palaces_in_strips(strips, &striped).expect("strips");
        let hist = |v: &Values| v.histogram.lock().unwrap().clone();
        assert_eq!(hist(&striped), hist(&plain), "{what}: the counts of values (counts: {counts})");
        assert_eq!(
            hist(&striped).iter().sum::<u64>(),
            u64::from(w) * u64::from(h),
            "{what}: every cell counted"
        );
        if !counts {
            let grid = |v: &Values| v.grid.lock().unwrap().clone();
            assert!(grid(&striped) == grid(&plain), "{what}: the values");
        }
        by_strip = striped.palaces.into_inner().unwrap();
    }
    by_strip
}

/// Cuts for `strips` strips of a board `w` wide from random `seeds`: each cut lies anywhere
/// between two past the last one and the room the strips after it need, or, for a seed
/// divisible by 3, just two or three past the last one (a strip narrower than any tile).
fn cuts_from(w: u32, strips: usize, seeds: &[u32]) -> StripPartition {
    let p = strips.min((w / 2) as usize).max(1) as u32;
    let mut cuts = Vec::new();
    let mut from = 0;
    for i in 1..p {
        let (lo, hi) = (from + 2, w - 2 * (p - i));
        let s = seeds[i as usize];
        let c = if s.is_multiple_of(3) { (lo + s % 2).min(hi) } else { lo + s % (hi - lo + 1) };
        cuts.push(c);
        from = c;
    }
    StripPartition::new(w, cuts).expect("valid cuts")
}

/// Random games with boards to match: k = 1, 2, 3 and small games over their whole picture,
/// larger ones over a few hundred rows, k = 40003 over a strip of rows through the hood, the
/// shoulder and the outer space past it.
fn game() -> impl Strategy<Value = (u32, u32, u32)> {
    prop_oneof![
        (1u32..=3, 2u32..150, 1u32..150),
        (4u32..80, 2u32..400, 1u32..400),
        (100u32..1000, 2u32..3200, 1u32..200),
        (Just(40003u32), 2u32..130_000, 1u32..40),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    /// Random games, boards, tilings, strip counts and cuts: the strips agree with the plain
    /// sweep bit for bit.
    #[test]
    fn strips_equal_the_plain_sweep(
        (k, w, h) in game(),
        strips in 1usize..=8,
        seeds in prop::collection::vec(any::<u32>(), 8),
        tw in prop_oneof![1 => Just(None), 3 => (2u32..70).prop_map(Some)],
        bh in prop_oneof![1 => Just(None), 3 => (2u32..90).prop_map(Some)],
        kernel in prop::sample::select(kernels()),
        skip in prop::bool::weighted(0.9),
    ) {
        let strips = cuts_from(w, strips, &seeds);
        let opts = EngineOptions { kernel, skip, tile_width: tw, band_height: bh, ..Default::default() };
        let what = format!("k={k} {w}x{h} cuts {:?} tile {tw:?}x{bh:?} {kernel:?} skip={skip}", strips.cuts());
        agree(k, w, h, &strips, &opts, &what);
    }
}

/// Strips past the shoulder and above the upper arm lie wholly in outer space: no palaces, all
/// their cells 0, and the counters still cross them; strips of two columns, and one through the
/// hood's edge.
#[test]
fn strips_in_outer_space_and_narrow_strips() {
    let (k, w, h) = (1000u32, 6000u32, 100u32);
    let strips = StripPartition::new(w, vec![300, 302, 1000, 1500, 3000, 3002, 5000]).unwrap();
    for kernel in kernels() {
        for (tw, bh) in [(None, None), (Some(24), Some(16)), (Some(2), Some(2))] {
            let opts = EngineOptions { kernel, tile_width: tw, band_height: bh, ..Default::default() };
            let by_strip = agree(k, w, h, &strips, &opts, &format!("{kernel:?} {tw:?}x{bh:?}"));
            // Past column 1000 + 100 phi^2 < 1500 every row of the board is outer space.
            assert!(by_strip[..3].iter().all(|&n| n > 0), "{by_strip:?}");
            assert!(by_strip[4..].iter().all(|&n| n == 0), "{by_strip:?}");
        }
    }
}

/// Equal strips, balanced strips and one strip over the games the skin and the statistics run,
/// on small boards.
#[test]
fn equal_balanced_and_single_strips() {
    for (k, w, h) in [(1u32, 300u32, 200u32), (7, 64, 900), (500, 1600, 1600), (2000, 9000, 700)] {
        for n in [1, 2, 3, 5, 8] {
            for strips in
                [StripPartition::equal(w, n).unwrap(), StripPartition::balanced(k, w, h, n).unwrap()]
            {
                let opts = EngineOptions { band_height: Some(256), ..Default::default() };
                agree(k, w, h, &strips, &opts, &format!("k={k} {w}x{h} cuts {:?}", strips.cuts()));
            }
        }
    }
}

#[test]
fn partitions_are_validated() {
    assert!(StripPartition::new(10, vec![]).is_ok());
    assert!(StripPartition::new(10, vec![2, 4, 6, 8]).is_ok());
    for bad in [vec![1], vec![9], vec![10], vec![12], vec![4, 3], vec![4, 4], vec![4, 5]] {
        let e = StripPartition::new(10, bad.clone()).expect_err("refused");
        assert!(matches!(e, Error::InvalidArgument { argument: "cuts", .. }), "{bad:?}: {e}");
    }
    assert!(StripPartition::new(1, vec![]).is_err());
    assert!(StripPartition::equal(10, 0).is_err());
    assert!(StripPartition::equal(10, 6).is_err());
    assert_eq!(StripPartition::equal(10, 5).unwrap().cuts(), &[2, 4, 6, 8]);
    assert_eq!(StripPartition::equal(10, 3).unwrap().cuts(), &[3, 6]);
    assert_eq!(StripPartition::equal(10, 3).unwrap().strip(2), (6, 10));
    // Balanced: past the shoulder the rows of outer space grow, so the strips widen.
    let b = StripPartition::balanced(40003, 3_040_003, 1_200_000, 8).unwrap();
    let widths: Vec<u32> = (0..8).map(|p| b.strip(p).1 - b.strip(p).0).collect();
    assert!(widths.windows(2).all(|w| w[0] < w[1]), "{widths:?}");
    // Where nothing is outer space it is the equal cut, give or take a column.
    let b = StripPartition::balanced(100_000, 1000, 500, 4).unwrap();
    assert_eq!(b.cuts(), &[250, 500, 750]);
    // As many strips as the width allows.
    assert_eq!(StripPartition::balanced(3, 8, 8, 4).unwrap().cuts(), &[2, 4, 6]);
    // The strips must span the swept board.
    let e = Sweep::new(5, board(12, 12))
        .palaces_in_strips(&StripPartition::equal(10, 2).unwrap(), &Tiles::default());
    assert!(matches!(e, Err(Error::InvalidArgument { argument: "strips", .. })));
}

#[test]
fn edges_round_trip_and_malformed_ones_are_refused() {
    let e =
        StripEdge { band: 7, r: vec![1, 2, 255], d: vec![16, 17, 0], values: vec![-128, 0, 5, -1, 15, 127] };
    let bytes = e.to_bytes();
    assert_eq!(StripEdge::from_bytes(&bytes), Some(e.clone()));
    let mut w = Writer::new();
    e.encode(&mut w);
    assert_eq!(StripEdge::decode(&mut Reader::new(&w.into_bytes())), Some(e.clone()));
    for n in 0..bytes.len() {
        assert_eq!(StripEdge::from_bytes(&bytes[..n]), None, "truncated to {n}");
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert_eq!(StripEdge::from_bytes(&longer), None);
    let odd = StripEdge { values: vec![0; 5], ..e };
    assert_eq!(StripEdge::from_bytes(&odd.to_bytes()), None, "two values a row");
}

/// A transport that keeps the messages: the strips run one after the other, each to its last
/// band, as separate processes could with the messages stored between them.
#[derive(Default)]
struct Queue {
    from_left: VecDeque<Vec<u8>>,
    to_right: Vec<Vec<u8>>,
}

impl Transport for Queue {
    fn send_right(&mut self, edge: &StripEdge) -> palace_engine::Result<()> {
        self.to_right.push(edge.to_bytes());
        Ok(())
    }

    fn receive_left(&mut self) -> palace_engine::Result<StripEdge> {
        let bytes = self.from_left.pop_front().ok_or(Error::Aborted)?;
        StripEdge::from_bytes(&bytes).ok_or(Error::Strip { strip: 0, problem: "malformed".into() })
    }
}

/// The per-strip state and the loop a process would run, over a transport of the test's own:
/// strip after strip, the messages of each handed to the next. The same as the plain sweep, and
/// every message four bytes a row plus its framing.
#[test]
fn strips_run_one_after_another_through_a_transport() {
    let (k, w, h) = (300u32, 1100u32, 900u32);
    let strips = StripPartition::new(w, vec![100, 333, 335, 700]).unwrap();
    let opts = EngineOptions { tile_width: Some(96), band_height: Some(64), ..Default::default() };
    let plain = Tiles::default();
    Sweep::new(k, board(w, h)).options(&opts).palaces(&plain).unwrap();
    let striped = Tiles::default();
    let mut queue = Queue::default();
    for p in 0..strips.strips() {
        let mut sweep = StripSweep::new(k, h, &strips, p, &opts, false).unwrap();
        assert_eq!(sweep.bands(), 15);
        let mut bands = Vec::new();
        run_strip(&mut sweep, &mut queue, &striped, &mut |b| bands.push(b)).unwrap();
        assert_eq!(bands, (0..15).collect::<Vec<_>>());
        assert!(queue.from_left.is_empty(), "strip {p} read every message");
        let sent = std::mem::take(&mut queue.to_right);
        if p + 1 < strips.strips() {
            assert_eq!(sent.len(), 15);
            let (y0, y1) = sweep.band_rows(3);
            assert_eq!(sent[3].len(), 4 + 3 * 8 + 4 * (y1 - y0) as usize, "4 bytes a row");
        } else {
            assert!(sent.is_empty());
        }
        queue.from_left = sent.into();
        let report = sweep.report(std::time::Duration::ZERO);
        let (x0, x1) = strips.strip(p);
        assert_eq!(report.computed() + report.filled(), u64::from(x1 - x0) * u64::from(h));
    }
    let (plain, striped) = (plain.0.into_inner().unwrap(), striped.0.into_inner().unwrap());
    assert_eq!(outcome(&striped, w, h), outcome(&plain, w, h));
    // A message for the wrong band is refused.
    let mut sweep = StripSweep::new(k, h, &strips, 1, &opts, false).unwrap();
    let wrong = StripEdge { band: 1, r: vec![0; 64], d: vec![0; 64], values: vec![0; 128] };
    let e = sweep.band(Some(&wrong), &Tiles::default()).expect_err("refused");
    assert!(matches!(e, Error::Strip { strip: 1, .. }), "{e}");
}

/// A cancelled sweep stops every strip with `Interrupted`, and a strip whose neighbour has gone
/// stops with `Aborted`, never a hang.
#[test]
fn cancelled_and_orphaned_strips_stop() {
    let cancel = Cancel::default();
    cancel.cancel();
    let opts = EngineOptions { cancel, band_height: Some(16), ..Default::default() };
    let strips = StripPartition::equal(400, 4).unwrap();
    let e = Sweep::new(50, board(400, 400)).options(&opts).palaces_in_strips(&strips, &Tiles::default());
    assert!(matches!(e, Err(Error::Interrupted)), "{:?}", e.err());
    let mut chain = ChannelTransport::chain(3);
    let (mut middle, left) = (chain.remove(1), chain.remove(0));
    drop(left);
    assert!(matches!(middle.receive_left(), Err(Error::Aborted)));
    drop(chain);
    let edge = StripEdge { band: 0, r: vec![0], d: vec![0], values: vec![0, 0] };
    assert!(matches!(middle.send_right(&edge), Err(Error::Aborted)));
    let opts = EngineOptions { kernel: KernelChoice::Wide, ..Default::default() };
    assert!(StripSweep::new(5, 10, &strips, 3, &opts, false).is_ok());
}

/// Game 40003 over 3000 rows and past the shoulder by 90000 columns (the hood, the arm, the
/// fabric below it and outer space), palaces only: balanced and equal strips with the default
/// tiling leave what the plain sweep leaves.
#[test]
fn game_40003_past_its_shoulder() {
    let (k, w, h) = (40003u32, 130_000u32, 3000u32);
    let plain = Tiles::default();
    let opts = EngineOptions::default();
    Sweep::new(k, board(w, h)).options(&opts).palaces(&plain).unwrap();
    let want = outcome(&plain.0.into_inner().unwrap(), w, h);
    assert!(want.palaces > 0);
    for strips in [StripPartition::balanced(k, w, h, 5).unwrap(), StripPartition::equal(w, 3).unwrap()] {
        let striped = Tiles::default();
        Sweep::new(k, board(w, h)).options(&opts).palaces_in_strips(&strips, &striped).unwrap();
        assert_eq!(outcome(&striped.0.into_inner().unwrap(), w, h), want, "cuts {:?}", strips.cuts());
    }
}
