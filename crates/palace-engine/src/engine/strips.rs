//! A counter sweep cut into column strips that exchange only their edges: the seam a
//! distributed backend (one process per strip) plugs into, and the in-process driver over
//! threads and channels that tests it against the plain sweep.
//!
//! The board `[0, width) x [0, height)` is cut at ascending columns into `P` strips
//! ([`StripPartition`]), each at least two columns wide. Strip `p` sweeps its columns band by
//! band ([`StripSweep`]), tile by tile with the counter sweep's paths
//! (`counted::palace_tile`: hood, quiet, three-counter kernel, exact CA), exactly as
//! the plain sweep computes a tile. What a tile reads of the tiles to its left is, per row of
//! its band (`docs/rule.md`, "The three-counter form in bytes" and "The rule"):
//!
//! * `R`, the palaces west of the cut in that row (modulo 256);
//! * `D'`, the counter of the diagonal leaving the row's last cell before the cut, which enters
//!   the strip in the next row;
//! * the stored values of the two columns before the cut, the CA's halo (read by tiles the
//!   counter kernel cannot take, and by the check that picks the form).
//!
//! `C` runs down a column and stays inside its strip. So the message from strip `p - 1` to
//! strip `p` for band `b` ([`StripEdge`]) is four bytes a row, and strip `p` can sweep band `b`
//! as soon as strip `p - 1` has finished it: a pipeline with a start-up of `P - 1` bands. The
//! first tile of a strip reads the message as the **ghost** tile `[x - 2, x)` of its layout
//! (`super::layout`), for band `b` (its left neighbour) and band `b - 1` (its above-left
//! neighbour: the two rows and the diagonal counter that cross the corner), so no path of the
//! tile machinery knows it is in a strip.
//!
//! Each strip keeps one band of tile edges, a few bytes per column of its own. The strips talk
//! through a [`Transport`] (send the right edge, receive the left one); [`ChannelTransport`]
//! carries the encoded messages between threads of one process, and [`run_strip`] is the loop
//! each strip (thread or process) runs. The messages are encoded with the checkpoint codec
//! ([`super::checkpoint::Writer`]), so any byte transport can carry them.
//!
//! ```
//! use palace_engine::engine::strips::StripPartition;
//! use palace_engine::engine::{PalaceTile, PalaceVisitor, Sweep};
//! use palace_engine::Window;
//! use std::sync::atomic::{AtomicU64, Ordering};
//!
//! #[derive(Default)]
//! struct Count(AtomicU64);
//! impl PalaceVisitor for Count {
//!     fn visit(&self, _worker: usize, t: &PalaceTile<'_>) {
//!         self.0.fetch_add(t.palaces, Ordering::Relaxed);
//!     }
//! }
//!
//! // Game 100 on 600 x 400 as three strips, the middle one past the shoulder: the palaces of
//! // the plain counter sweep.
//! let board = Window::new(0, 0, 600, 400)?;
//! let (plain, striped) = (Count::default(), Count::default());
//! Sweep::new(100, board).palaces(&plain)?;
//! let strips = StripPartition::new(600, vec![90, 350])?;
//! Sweep::new(100, board).palaces_in_strips(&strips, &striped)?;
//! assert_eq!(striped.0.into_inner(), plain.0.into_inner());
//! # Ok::<(), palace_engine::Error>(())
//! ```

use super::checkpoint::{Reader, Writer};
use super::control::Cancel;
use super::control::Progress;
use super::counted::{self, CounterScratch, Paths};
use super::layout::{COUNTER_BAND_HEIGHT, Layout, default_counter_tile_width, default_tally_tile};
use super::options::EngineOptions;
use super::report::{SweepReport, WorkerTimes};
use super::tile::{Made, Neighbourhood, Scratch, Tile};
use super::visit::PalaceVisitor;
use crate::error::{Error, Result};
use crate::kernel::BufPool;
use crate::kernel::counter::Edges;
use crate::model::geometry::Window;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::time::{Duration, Instant};

/// The narrowest strip: a tile's halo reaches two columns to its left, and a strip's halo must
/// lie in the strip before it.
pub const MIN_STRIP_WIDTH: u32 = 2;

/// The golden ratio squared: the upper arm's outer boundary rises one row per `phi^2` columns
/// past the shoulder (`docs/scaling.md`, "The work").
const PHI_SQUARED: f64 = 2.618_033_988_749_895;

/// How the columns `0..width` of a board are cut into strips: at ascending columns, each strip
/// at least [`MIN_STRIP_WIDTH`] wide. Valid by construction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StripPartition {
    width: u32,
    /// The first column of strips `1..`.
    cuts: Vec<u32>,
}

impl StripPartition {
    /// The strips `[0, cuts[0]), [cuts[0], cuts[1]), ..., [cuts[P - 2], width)`: the cuts must
    /// ascend, every strip at least [`MIN_STRIP_WIDTH`] columns wide (no cuts: one strip).
    pub fn new(width: u32, cuts: Vec<u32>) -> Result<Self> {
        let refuse = |value: String, expected| {
            Err(Error::InvalidArgument { function: "StripPartition::new", argument: "cuts", value, expected })
        };
        if width < MIN_STRIP_WIDTH {
            return Err(Error::InvalidArgument {
                function: "StripPartition::new",
                argument: "width",
                value: width.to_string(),
                expected: "a board at least two columns wide",
            });
        }
        let mut from = 0;
        for &c in cuts.iter().chain(std::iter::once(&width)) {
            if c < from + MIN_STRIP_WIDTH {
                return refuse(
                    format!("{cuts:?} (width {width})"),
                    "ascending cuts inside the board, every strip at least 2 columns wide",
                );
            }
            from = c;
        }
        Ok(StripPartition { width, cuts })
    }

    /// `strips` strips of equal width (the first ones a column wider where it does not divide).
    pub fn equal(width: u32, strips: usize) -> Result<Self> {
        check_count(width, strips)?;
        let (p, w) = (strips as u64, u64::from(width));
        Self::new(width, (1..p).map(|i| (i * w / p) as u32).collect())
    }

    /// `strips` strips that share the cells below outer space of the board `width x height` of
    /// game `k` about equally, rather than its columns: column `x` past the shoulder `k` has
    /// about `(x - k) / phi^2` rows of outer space at its top (the upper arm's slope,
    /// `docs/scaling.md`, "The work"), which cost a strip almost nothing (quiet tiles pass
    /// their counters through). An estimate: the cuts only move work, never the results.
    pub fn balanced(k: u32, width: u32, height: u32, strips: usize) -> Result<Self> {
        check_count(width, strips)?;
        let (k, h) = (f64::from(k), f64::from(height));
        // The cells below outer space left of column x: the integral of
        // h - clamp((c - k) / phi^2, 0, h) over 0..x.
        let below = |x: f64| {
            let flat = x.min(k);
            let past = (x - k).clamp(0.0, h * PHI_SQUARED);
            flat * h + past * h - past * past / (2.0 * PHI_SQUARED)
        };
        let total = below(f64::from(width));
        let mut cuts = Vec::with_capacity(strips - 1);
        let mut from = 0u32;
        for i in 1..strips as u32 {
            let goal = total * f64::from(i) / strips as f64;
            // The first column whose left holds the goal, between the last cut and the room
            // the strips after it need.
            let (mut lo, mut hi) = (from + MIN_STRIP_WIDTH, width - (strips as u32 - i) * MIN_STRIP_WIDTH);
            while lo < hi {
                let mid = lo + (hi - lo) / 2;
                if below(f64::from(mid)) < goal { lo = mid + 1 } else { hi = mid }
            }
            cuts.push(lo);
            from = lo;
        }
        Self::new(width, cuts)
    }

    /// The board's width.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// The number of strips.
    pub fn strips(&self) -> usize {
        self.cuts.len() + 1
    }

    /// The first column of strips `1..`.
    pub fn cuts(&self) -> &[u32] {
        &self.cuts
    }

    /// The columns `[x0, x1)` of strip `p`.
    pub fn strip(&self, p: usize) -> (u32, u32) {
        let x0 = if p == 0 { 0 } else { self.cuts[p - 1] };
        (x0, self.cuts.get(p).copied().unwrap_or(self.width))
    }
}

fn check_count(width: u32, strips: usize) -> Result<()> {
    if strips == 0 || strips as u64 > u64::from(width / MIN_STRIP_WIDTH) {
        return Err(Error::InvalidArgument {
            function: "StripPartition",
            argument: "strips",
            value: format!("{strips} (width {width})"),
            expected: "at least one strip, each at least 2 columns wide",
        });
    }
    Ok(())
}

/// What strip `p - 1` hands strip `p` for one band: per row of the band, top first, what
/// crosses the cut (see the module's documentation). Four bytes a row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StripEdge {
    /// The band.
    pub band: u32,
    /// `R` leaving each row at the cut: the row's palaces left of it, modulo 256.
    pub r: Vec<u8>,
    /// `D'` leaving each row's last cell before the cut, into the next row's first cell
    /// after it (`D - k + 16` modulo 256, [`crate::kernel::counter::Edges::d_left`]).
    pub d: Vec<u8>,
    /// The stored values of the two columns before the cut, two per row.
    pub values: Vec<i8>,
}

impl StripEdge {
    /// Writes the edge with the checkpoint codec.
    pub fn encode(&self, w: &mut Writer) {
        w.u32(self.band);
        w.bytes(&self.r);
        w.bytes(&self.d);
        w.bytes(&self.values.iter().map(|&v| v as u8).collect::<Vec<u8>>());
    }

    /// Reads an edge written by [`StripEdge::encode`]; `None` if it is truncated or its rows
    /// disagree.
    pub fn decode(r: &mut Reader<'_>) -> Option<StripEdge> {
        let band = r.u32()?;
        let rr = r.bytes()?.to_vec();
        let d = r.bytes()?.to_vec();
        let values: Vec<i8> = r.bytes()?.iter().map(|&v| v as i8).collect();
        (d.len() == rr.len() && values.len() == 2 * rr.len()).then_some(StripEdge { band, r: rr, d, values })
    }

    /// The edge as one message.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::new();
        self.encode(&mut w);
        w.into_bytes()
    }

    /// An edge from a message of [`StripEdge::to_bytes`]; `None` if it is malformed.
    pub fn from_bytes(bytes: &[u8]) -> Option<StripEdge> {
        let mut r = Reader::new(bytes);
        let e = StripEdge::decode(&mut r)?;
        r.is_empty().then_some(e)
    }

    /// The ghost tile this edge stands for: the two columns before the cut, with the counters
    /// leaving them. Only what the strip's first tile reads is filled in: the values, `R` and
    /// `D'` leaving the right side and (for the band below) the last `D'` leaving the bottom,
    /// which is the same diagonal as the last row's `d`.
    fn ghost(&self) -> Tile {
        let h = self.r.len();
        let bottom = self.values[2 * (h - h.min(2))..].into();
        let leaving = Edges {
            r: self.r.clone(),
            d_left: self.d.clone(),
            c: Vec::new(),
            d_top: vec![*self.d.last().expect("bands are not empty")],
        };
        Tile::Edges { bottom, right: self.values.clone().into(), leaving: Some(Box::new(leaving)) }
    }
}

/// How the strips of one sweep reach their neighbours: strip `p` receives its left edge from
/// strip `p - 1` and sends its right edge to strip `p + 1`, one band at a time, in order.
pub trait Transport {
    /// Sends the right edge of a band to the strip on the right.
    fn send_right(&mut self, edge: &StripEdge) -> Result<()>;
    /// Receives the left edge of the next band from the strip on the left.
    fn receive_left(&mut self) -> Result<StripEdge>;
}

/// Bands a strip may run ahead of the strip to its right (bounds the messages in flight).
const CHANNEL_BANDS: usize = 4;

/// A [`Transport`] between threads of one process, over bounded channels carrying the encoded
/// messages ([`StripEdge::to_bytes`]), as a process transport would. A strip whose neighbour
/// has gone (failed or stopped) gets [`Error::Aborted`]; the neighbour reports why.
pub struct ChannelTransport {
    strip: usize,
    left: Option<Receiver<Vec<u8>>>,
    right: Option<SyncSender<Vec<u8>>>,
}

impl ChannelTransport {
    /// The transports of `strips` strips in a row, strip `p`'s at index `p`.
    pub fn chain(strips: usize) -> Vec<ChannelTransport> {
        let mut out: Vec<ChannelTransport> =
            (0..strips).map(|strip| ChannelTransport { strip, left: None, right: None }).collect();
        for p in 1..strips {
            let (tx, rx) = sync_channel(CHANNEL_BANDS);
            out[p - 1].right = Some(tx);
            out[p].left = Some(rx);
        }
        out
    }
}

impl Transport for ChannelTransport {
    fn send_right(&mut self, edge: &StripEdge) -> Result<()> {
        let tx = self.right.as_ref().expect("the last strip sends nothing");
        tx.send(edge.to_bytes()).map_err(|_| Error::Aborted)
    }

    fn receive_left(&mut self) -> Result<StripEdge> {
        let rx = self.left.as_ref().expect("the first strip receives nothing");
        let bytes = rx.recv().map_err(|_| Error::Aborted)?;
        StripEdge::from_bytes(&bytes).ok_or_else(|| Error::Strip {
            strip: self.strip,
            problem: format!("a malformed edge of {} bytes from the strip on its left", bytes.len()),
        })
    }
}

/// One strip of a striped counter sweep: its tiling and the edges of its last band, swept one
/// band at a time by [`StripSweep::band`].
pub struct StripSweep {
    p: usize,
    strips: usize,
    layout: Layout,
    board: Window,
    paths: Paths,
    cancel: Cancel,
    /// The band [`StripSweep::band`] sweeps next.
    next: usize,
    /// The tiles of the band above (the ghost first, past strip 0).
    above: Vec<Tile>,
    pool: Arc<BufPool>,
    scratch: Scratch,
    cs: CounterScratch,
    made: Made,
    tiles: u64,
    times: WorkerTimes,
}

impl StripSweep {
    /// Strip `p` of `strips` of the counter sweep of game `k` over the board `[0,
    /// strips.width()) x [0, height)`, with the paths, tiling and cancel token of `opts` (its
    /// threads play no part: a strip is swept by one thread). Every strip of one sweep must be
    /// made with the same options and, where `tally` (a visitor that wants counts,
    /// [`PalaceVisitor::wants_counts`]), the same choice: the strips agree on the bands.
    pub fn new(
        k: u32,
        height: u32,
        strips: &StripPartition,
        p: usize,
        opts: &EngineOptions,
        tally: bool,
    ) -> Result<Self> {
        let board = Window::new(0, 0, strips.width(), height)?;
        super::options::check_request("StripSweep::new", k, opts)?;
        assert!(p < strips.strips(), "strip {p} of {}", strips.strips());
        let (x0, x1) = strips.strip(p);
        let (tw, bh) = tiling(x1 - x0, tally);
        let (tw, bh) = (opts.tile_width.unwrap_or(tw).max(2), opts.band_height.unwrap_or(bh).max(2));
        let mut layout = Layout::new(k, x1, height, tw, bh);
        if p > 0 {
            layout = layout.starting_at(x0);
        }
        Ok(StripSweep {
            p,
            strips: strips.strips(),
            layout,
            board,
            paths: Paths { counter: opts.kernel.counter(), narrow: opts.kernel.narrow_fn(), skip: opts.skip },
            cancel: opts.cancel.clone(),
            next: 0,
            above: Vec::new(),
            pool: Arc::default(),
            scratch: Scratch::default(),
            cs: CounterScratch::default(),
            made: Made::default(),
            tiles: 0,
            times: WorkerTimes::default(),
        })
    }

    /// The bands of the sweep.
    pub fn bands(&self) -> usize {
        self.layout.bands()
    }

    /// The band [`StripSweep::band`] sweeps next (`bands()` when done).
    pub(crate) fn next_band(&self) -> usize {
        self.next
    }

    /// The rows `[y0, y1)` of band `b`.
    pub fn band_rows(&self, b: usize) -> (u32, u32) {
        self.layout.band_y(b)
    }

    /// Sweeps the next band of this strip, given the right edge of the same band of the strip
    /// to its left (`None` for strip 0), and shows each of its tiles to `visitor` as worker
    /// `p`. Returns the band's right edge for the strip to its right (`None` for the last
    /// strip).
    pub fn band(
        &mut self,
        left: Option<&StripEdge>,
        visitor: &dyn PalaceVisitor,
    ) -> Result<Option<StripEdge>> {
        let b = self.next;
        assert!(b < self.bands(), "the strip has swept every band");
        let (y0, y1) = self.layout.band_y(b);
        let h = (y1 - y0) as usize;
        let mut cur: Vec<Tile> = Vec::with_capacity(self.layout.strips());
        match (self.p, left) {
            (0, None) => {}
            (p, Some(edge)) if p > 0 => {
                if edge.band as usize != b || edge.r.len() != h {
                    return Err(Error::Strip {
                        strip: p,
                        problem: format!(
                            "the strip on its left sent band {} of {} rows for band {b} of {h}",
                            edge.band,
                            edge.r.len()
                        ),
                    });
                }
                cur.push(edge.ghost());
            }
            (p, _) => panic!("strip {p} is given a left edge exactly when it has a strip on its left"),
        }
        for j in cur.len()..self.layout.strips() {
            self.cancel.check()?;
            let started = Instant::now();
            let nb = Neighbourhood {
                layout: &self.layout,
                j,
                b,
                above_left: if j > 0 { self.above.get(j - 1) } else { None },
                above: self.above.get(j),
                left: cur.last(),
            };
            let mut slot = None;
            let (made, visited) = counted::palace_tile(
                &nb,
                visitor,
                self.p,
                self.board,
                self.paths,
                &self.pool,
                &mut self.scratch,
                &mut self.cs,
                |tile| slot.insert(tile),
            )?;
            cur.push(slot.expect("the tile was published"));
            self.made.add(made);
            self.tiles += 1;
            self.times.visiting += visited;
            self.times.computing += started.elapsed().saturating_sub(visited);
        }
        let right = (self.p + 1 < self.strips).then(|| self.right_edge(b, &cur));
        self.above = cur;
        self.next += 1;
        Ok(right)
    }

    /// The right edge of band `b`, whose tiles are `tiles`.
    fn right_edge(&self, b: usize, tiles: &[Tile]) -> StripEdge {
        let (k, lay) = (self.layout.k, &self.layout);
        let last = tiles.len() - 1;
        let Tile::Edges { leaving: Some(e), .. } = &tiles[last] else {
            unreachable!("counter tiles carry their leaving counters")
        };
        let rect = lay.rect(last, b);
        // The last tile may be one column wide: the column before it is its left neighbour's.
        let stored = |x: u32, y: u32| {
            let j = if x >= rect.x0 { last } else { last - 1 };
            tiles[j].stored(k, &lay.rect(j, b), x, y)
        };
        let values =
            (rect.y0..rect.y1).flat_map(|y| [stored(lay.width - 2, y), stored(lay.width - 1, y)]).collect();
        StripEdge { band: b as u32, r: e.r.clone(), d: e.d_left.clone(), values }
    }

    /// What this strip has done so far, as the report of a sweep of its columns on one thread.
    pub fn report(&self, elapsed: Duration) -> SweepReport {
        let (x0, x1) = if self.layout.x_start > 0 {
            (self.layout.x_start, self.layout.width)
        } else {
            (0, self.layout.width)
        };
        let rows = if self.next > 0 { self.layout.band_y(self.next - 1).1 } else { 0 };
        let m = &self.made;
        SweepReport {
            region_cells: u64::from(x1 - x0) * u64::from(rows),
            hood_filled: m.hood,
            zero_filled: m.zero,
            narrow_computed: m.narrow,
            wide_computed: m.wide,
            counter_computed: m.counter,
            tiles: self.tiles,
            tile: (self.layout.tile_width, self.layout.band_height),
            threads: 1,
            elapsed,
            workers: self.times,
            timeline: None,
        }
    }
}

/// The default tiling of a strip `width` columns wide: the counter sweep's on one thread.
fn tiling(width: u32, tally: bool) -> (u32, u32) {
    if tally {
        default_tally_tile(width, 1)
    } else {
        (default_counter_tile_width(width, 1), COUNTER_BAND_HEIGHT)
    }
}

/// Runs strip `strip` to its last band: receives each band's left edge, sweeps the band, sends
/// its right edge. `band_done(b)` is called after each band. The loop each strip runs, on a
/// thread ([`Sweep::palaces_in_strips`](crate::engine::Sweep::palaces_in_strips)) or in a process of its own.
pub fn run_strip(
    strip: &mut StripSweep,
    transport: &mut dyn Transport,
    visitor: &dyn PalaceVisitor,
    band_done: &mut dyn FnMut(usize),
) -> Result<()> {
    while strip.next_band() < strip.bands() {
        let left = if strip.p > 0 { Some(transport.receive_left()?) } else { None };
        let b = strip.next_band();
        if let Some(edge) = strip.band(left.as_ref(), visitor)? {
            transport.send_right(&edge)?;
        }
        band_done(b);
    }
    Ok(())
}

/// The counter sweep of the board `[0, strips.width()) x [0, height)` of game `k` as the strips
/// of `strips`, each on a thread of its own, talking over [`ChannelTransport`]s; every tile is
/// shown to `visitor`, by worker `p` for strip `p`. The palaces, the counters leaving the board
/// and the values the visitor asks for are those of [`super::Sweep::palaces`]; the tiles are
/// the strips'. Progress counts the rows the last strip has finished.
pub(crate) fn palaces(
    k: u32,
    height: u32,
    strips: &StripPartition,
    opts: &EngineOptions,
    visitor: &dyn PalaceVisitor,
    progress: &dyn Progress,
) -> Result<SweepReport> {
    let started = Instant::now();
    let tally = visitor.wants_counts();
    let mut sweeps: Vec<StripSweep> = (0..strips.strips())
        .map(|p| StripSweep::new(k, height, strips, p, opts, tally))
        .collect::<Result<_>>()?;
    progress.set_length(u64::from(height));
    // Every strip has the same bands.
    let (band_height, last) = (sweeps[0].layout.band_height, strips.strips() - 1);
    let results: Vec<std::thread::Result<Result<()>>> = std::thread::scope(|scope| {
        let handles: Vec<_> = sweeps
            .iter_mut()
            .zip(ChannelTransport::chain(strips.strips()))
            .map(|(sweep, mut transport)| {
                std::thread::Builder::new()
                    .name(format!("palace-strip-{}", sweep.p))
                    .spawn_scoped(scope, move || {
                        let is_last = sweep.p == last;
                        let mut done = |b: usize| {
                            if is_last {
                                let y1 = (b as u64 + 1) * u64::from(band_height);
                                progress.set_position(y1.min(u64::from(height)));
                            }
                        };
                        run_strip(sweep, &mut transport, visitor, &mut done)
                    })
                    .expect("a strip's thread starts")
            })
            .collect();
        handles.into_iter().map(|h| h.join()).collect()
    });
    // A panic is re-raised; of the errors, the first that is not a neighbour's having gone.
    let mut failed: Option<Error> = None;
    for r in results {
        match r {
            Err(payload) => std::panic::resume_unwind(payload),
            Ok(Err(e)) => {
                if failed.as_ref().is_none_or(|f| matches!(f, Error::Aborted)) {
                    failed = Some(e);
                }
            }
            Ok(Ok(())) => {}
        }
    }
    if let Some(e) = failed {
        return Err(e);
    }
    let elapsed = started.elapsed();
    let mut report =
        sweeps.iter().map(|s| s.report(elapsed)).reduce(SweepReport::then).expect("one strip or more");
    report.elapsed = elapsed;
    report.threads = strips.strips();
    Ok(report)
}
