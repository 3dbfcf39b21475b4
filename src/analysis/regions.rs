//! Telling the paper's regions apart (§3.1) by properties one can measure.
//!
//! * **hood**: the closed form `max(x, y) + 2 min(x, y) < k` (`docs/rule.md`, "The hood");
//! * **outer space**: the quiet region beyond the shoulders: columns `x >= k` whose cells are
//!   all 0 from row 0 down, and rows `y >= k` whose cells are all 0 from column 0 across;
//! * **épaulettes**: the two-dimensional periodic pattern with periods (5, 1) and (4, 3) and
//!   values `k-1, k, k+1` (§3.2): `v(x, y) = v(x-5, y-1) = v(x-4, y-3)` with `|v| <= 1` for the
//!   lower épaulette, and the mirrored periods (1, 5) and (3, 4) for the upper one (the picture
//!   is symmetric, `v(x, y) = v(y, x)`);
//! * **fabric**: the part that game `k + 3` reproduces shifted by (1, 1) with palace numbers
//!   raised by 3 (Fig. 4 left: hood, épaulettes and fabric match; the fabric depends on
//!   `k mod 3` only, §3.3);
//! * **arms**: the part that game `k + 1` reproduces shifted by (1, 0) (upper arm) or (0, 1)
//!   (lower arm) with palace numbers raised by 1 (Fig. 4 right: épaulette and arm match). The
//!   fabric and arm labels are thus *defined* by the invariances the paper observed; that the
//!   matching cells form the connected regions of the pictures is what the labels show;
//! * **rest**: everything else — the warps and the inner sector (not separated).
//!
//! The tests other than the closed form and the quiet prefix are decided on blocks of
//! [`BLOCK`] x [`BLOCK`] cells, all of whose cells (outside hood and outer space) must pass:
//! single cells of chaotic regions agree by chance, whole blocks practically never do. The
//! labels are computed in one lockstep sweep of the four games ([`crate::engine::lockstep`]) from row 0
//! and column 0, in memory that grows with the width.

use crate::engine::EngineOptions;
use crate::engine::Progress;
use crate::engine::lockstep::{Lane, lockstep};
use crate::engine::sink::Row;
use crate::engine::{LaneState, LaneTiles, LaneVisitor, TileView};
use crate::error::Result;
use crate::model::geometry::Window;
use crate::model::rule::{hood_len, hood_value};
use crate::output::legend::{self, MapOutput};
use crate::output::ordered::OrderedPicture;
use crate::output::png::PngStream;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Mutex;

/// Side of the blocks on which the matching and periodicity tests are decided: large enough
/// that whole blocks of the chaotic regions do not pass by chance.
pub const BLOCK: usize = 8;

/// A region of the picture (paper §3.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Region {
    /// The hood (closed form).
    Hood,
    /// Outer space: the quiet v = 0 region beyond the shoulders.
    OuterSpace,
    /// The upper épaulette: the (1,5)/(3,4)-periodic pattern.
    EpauletteUpper,
    /// The lower épaulette: the (5,1)/(4,3)-periodic pattern.
    EpauletteLower,
    /// The fabric: what game k+3 reproduces shifted by (1,1).
    Fabric,
    /// The upper arm: what game k+1 reproduces shifted by (1,0).
    ArmUpper,
    /// The lower arm: what game k+1 reproduces shifted by (0,1).
    ArmLower,
    /// Everything else: warps and inner sector.
    Rest,
}

/// All regions, in palette order.
pub const ALL: [Region; 8] = [
    Region::Hood,
    Region::OuterSpace,
    Region::EpauletteUpper,
    Region::EpauletteLower,
    Region::Fabric,
    Region::ArmUpper,
    Region::ArmLower,
    Region::Rest,
];

impl Region {
    /// A short name.
    pub fn name(self) -> &'static str {
        match self {
            Region::Hood => "hood",
            Region::OuterSpace => "outer space",
            Region::EpauletteUpper => "epaulette (upper)",
            Region::EpauletteLower => "epaulette (lower)",
            Region::Fabric => "fabric",
            Region::ArmUpper => "arm (upper)",
            Region::ArmLower => "arm (lower)",
            Region::Rest => "warps + inner sector",
        }
    }

    /// Index into [`ALL`] and the region map's palette.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// The region map's palette (flat RGB), in [`ALL`] order, then white for masked cells.
pub fn plte() -> Vec<u8> {
    [
        [0x5c, 0x33, 0x17], // hood: dark brown
        [0x00, 0x00, 0x00], // outer space: black
        [0xb5, 0xb3, 0x5c], // upper épaulette: light olive
        [0x9a, 0x98, 0x48], // lower épaulette: olive
        [0x3a, 0x6e, 0xe8], // fabric: blue
        [0xff, 0xd7, 0x00], // upper arm: gold
        [0xe8, 0xb0, 0x00], // lower arm: dark gold
        [0x8a, 0x3f, 0xa8], // warps + inner sector: purple
        [0xff, 0xff, 0xff], // masked
    ]
    .iter()
    .flatten()
    .copied()
    .collect()
}

/// The four games the labels need, over `[0, x1) x [0, y1)`: `k`, `k+1` shifted (1, 0),
/// `k+1` shifted (0, 1), `k+3` shifted (1, 1).
pub fn lanes(k: u32, x1: u32, y1: u32) -> [Lane; 4] {
    let w = |dx: u32, dy: u32| Window::new(dx, dy, x1 + dx, y1 + dy);
    [
        Lane { k, window: w(0, 0) },
        Lane { k: k + 1, window: w(1, 0) },
        Lane { k: k + 1, window: w(0, 1) },
        Lane { k: k + 3, window: w(1, 1) },
    ]
}

const F_HOOD: u8 = 1;
const F_OUTER: u8 = 2;
const F_UPPER: u8 = 4; // matches k+1 shifted (1,0)
const F_LOWER: u8 = 8; // matches k+1 shifted (0,1)
const F_PLUS3: u8 = 16; // matches k+3 shifted (1,1)
const F_PER_LOWER: u8 = 32; // the lower épaulette's periods (5,1), (4,3) hold and |v| <= 1
const F_PER_UPPER: u8 = 64; // the upper épaulette's periods (1,5), (3,4) hold and |v| <= 1
const F_UNTESTABLE: u8 = 128; // a period partner lies in the hood or off the board

/// A labelled row of the game `k`, from column 0.
pub struct LabelledRow<E> {
    /// The row.
    pub y: u32,
    /// The engine's cells of the row (hood cells as their stand-in), from column 0.
    pub cells: Vec<i8>,
    /// The region of every cell.
    pub labels: Vec<Region>,
    /// What the caller attached to the row.
    pub extra: E,
}

/// Streams rows of the four [`lanes`] (from row 0, column 0) and hands out labelled rows, a
/// block of rows at a time.
pub struct Labeler<E> {
    k: u32,
    width: usize,
    /// The last six rows of game k (for the periods reaching five rows up).
    ring: [Vec<i8>; 6],
    col_zero: Vec<bool>,
    pending: Vec<(u32, Vec<i8>, Vec<u8>, E)>,
    /// The block labels of the previous block row.
    above: Vec<Region>,
}

impl<E> Labeler<E> {
    /// A labeller for game `k` on rows `width` wide.
    pub fn new(k: u32, width: usize) -> Self {
        Labeler {
            k,
            width,
            ring: std::array::from_fn(|_| vec![0; width]),
            col_zero: vec![true; width],
            pending: Vec::with_capacity(BLOCK),
            above: Vec::new(),
        }
    }

    /// Adds the next row of each of the four games (in [`lanes`] order) with `extra`
    /// attached; returns the rows whose labels are now decided.
    pub fn push(&mut self, rows: &[Row<'_>], extra: E) -> Vec<LabelledRow<E>> {
        let [a, up, lo, p3] = rows else { panic!("four lanes") };
        let (k, n) = (self.k, self.width);
        let y = a.y;
        let yy = u64::from(y);
        let hood = (hood_len(k, yy) as usize).min(n);
        let mut flags = vec![0u8; n];
        // ring[y % 6] will hold this row; row y - d is at (y + 6 - d) % 6.
        let back = |d: u32| ((y + 6 - d) % 6) as usize;
        let mut row_zero = yy >= u64::from(k);
        // Where any of the four games is in its hood, compare exact palace numbers; beyond,
        // the lanes' stored values compare directly (N_{k+d} = N_k + d <=> equal values).
        let exact = [a, up, lo, p3].iter().map(|r| r.hood_cells()).max().unwrap_or(0);
        // Hood widths of the rows the period partners lie in.
        let hood_of = |dy: u32| if y >= dy { hood_len(k, yy - u64::from(dy)) as usize } else { usize::MAX };
        let partner_hood = [hood_of(1), hood_of(3), hood_of(5), hood_of(4)];
        for (x, flag) in flags.iter_mut().enumerate() {
            let v = a.cells[x];
            let mut f = 0u8;
            if x < hood {
                f |= F_HOOD;
            } else {
                if x as u64 >= u64::from(k) {
                    self.col_zero[x] &= v == 0;
                    if self.col_zero[x] {
                        f |= F_OUTER;
                    }
                }
                row_zero &= v == 0;
                if row_zero {
                    f |= F_OUTER;
                }
                let (mu, ml, m3) = if x < exact {
                    let na = a.palace_number(x);
                    (
                        up.palace_number(x) == na + 1,
                        lo.palace_number(x) == na + 1,
                        p3.palace_number(x) == na + 3,
                    )
                } else {
                    (up.cells[x] == v, lo.cells[x] == v, p3.cells[x] == v)
                };
                f |= if mu { F_UPPER } else { 0 }
                    | if ml { F_LOWER } else { 0 }
                    | if m3 { F_PLUS3 } else { 0 };
                // Both épaulettes' periods, when their partners are on the board and off the hood.
                let off_hood = |dx: usize, i: usize| x >= dx && x - dx >= partner_hood[i];
                if off_hood(5, 0) && off_hood(4, 1) && off_hood(1, 2) && off_hood(3, 3) {
                    let (a1, a2) = (self.ring[back(1)][x - 5], self.ring[back(3)][x - 4]);
                    let (b1, b2) = (self.ring[back(5)][x - 1], self.ring[back(4)][x - 3]);
                    if v.abs() <= 1 && a1 == v && a2 == v {
                        f |= F_PER_LOWER;
                    }
                    if v.abs() <= 1 && b1 == v && b2 == v {
                        f |= F_PER_UPPER;
                    }
                } else {
                    f |= F_UNTESTABLE;
                }
            }
            *flag = f;
        }
        self.ring[(y % 6) as usize].copy_from_slice(a.cells);
        self.pending.push((y, a.cells.to_vec(), flags, extra));
        if self.pending.len() == BLOCK { self.decide() } else { Vec::new() }
    }

    /// Decides the labels of the rows still pending (at the end of the sweep).
    pub fn finish(&mut self) -> Vec<LabelledRow<E>> {
        if self.pending.is_empty() { Vec::new() } else { self.decide() }
    }

    fn decide(&mut self) -> Vec<LabelledRow<E>> {
        let n = self.width;
        let blocks = n.div_ceil(BLOCK);
        let mut block_labels = vec![Region::Rest; blocks];
        let y_mid = 2 * u64::from(self.pending[0].0) + self.pending.len() as u64;
        for (bi, bx) in (0..n).step_by(BLOCK).enumerate() {
            let xs = bx..(bx + BLOCK).min(n);
            let (mut cand, mut all_up, mut all_lo, mut all3) = (0, true, true, true);
            let (mut tested, mut per_lo, mut per_up) = (0, true, true);
            let (mut lo_v, mut hi_v) = (i8::MAX, i8::MIN);
            for (_, cells, flags, _) in &self.pending {
                for x in xs.clone() {
                    let f = flags[x];
                    if f & (F_HOOD | F_OUTER) != 0 {
                        continue;
                    }
                    cand += 1;
                    (lo_v, hi_v) = (lo_v.min(cells[x]), hi_v.max(cells[x]));
                    all_up &= f & F_UPPER != 0;
                    all_lo &= f & F_LOWER != 0;
                    all3 &= f & F_PLUS3 != 0;
                    if f & F_UNTESTABLE == 0 {
                        tested += 1;
                        per_lo &= f & F_PER_LOWER != 0;
                        per_up &= f & F_PER_UPPER != 0;
                    }
                }
            }
            // The épaulette pattern has palaces and k+1 cells in every block: a uniform block
            // is periodic with any period and is no épaulette.
            let periodic = 2 * tested >= cand && tested > 0 && lo_v == -1 && hi_v == 1;
            // Where a block passes both mirrored tests, its side of the diagonal decides, so
            // the labels keep the picture's symmetry.
            let upper_side = 2 * bx as u64 + (xs.end - xs.start) as u64 >= y_mid;
            let label = if cand == 0 {
                Region::Rest
            } else if periodic && per_lo && (!per_up || !upper_side) {
                Region::EpauletteLower
            } else if periodic && per_up {
                Region::EpauletteUpper
            } else if lo_v == hi_v {
                // A uniform block (a quiet patch) passes the invariance tests trivially: it
                // belongs to the region it continues — the block to its left above the
                // diagonal, the block above it below the diagonal — if it passes that test.
                let before = if upper_side {
                    bi.checked_sub(1).map(|b| block_labels[b])
                } else {
                    self.above.get(bi).copied()
                };
                match before {
                    Some(Region::Fabric) if all3 => Region::Fabric,
                    Some(Region::ArmUpper) if all_up => Region::ArmUpper,
                    Some(Region::ArmLower) if all_lo => Region::ArmLower,
                    _ => Region::Rest,
                }
            } else if all3 {
                Region::Fabric
            } else if all_up && (!all_lo || upper_side) {
                Region::ArmUpper
            } else if all_lo {
                Region::ArmLower
            } else {
                Region::Rest
            };
            block_labels[bi] = label;
        }
        let mut labels: Vec<Vec<Region>> = Vec::with_capacity(self.pending.len());
        for (_, _, flags, _) in &self.pending {
            labels.push(
                flags
                    .iter()
                    .enumerate()
                    .map(|(x, &f)| {
                        if f & F_HOOD != 0 {
                            Region::Hood
                        } else if f & F_OUTER != 0 {
                            Region::OuterSpace
                        } else {
                            block_labels[x / BLOCK]
                        }
                    })
                    .collect(),
            );
        }
        self.above = block_labels;
        self.pending
            .drain(..)
            .zip(labels)
            .map(|((y, cells, _, extra), labels)| LabelledRow { y, cells, labels, extra })
            .collect()
    }
}

/// Per-region counts.
#[derive(Debug, Clone, Default, Serialize)]
pub struct RegionStats {
    /// Cells in the region.
    pub cells: u64,
    /// Palaces (v < 0) in it.
    pub palaces: u64,
    /// Palace density.
    pub density: f64,
    /// `(v, count)` for the values in the region (the hood's are summarised by its range).
    pub histogram: Vec<(i64, u64)>,
    /// Smallest and largest v.
    pub v_range: Option<(i64, i64)>,
}

/// A located junction (§3.1).
#[derive(Debug, Clone, Serialize)]
pub struct Junction {
    /// Its name.
    pub name: &'static str,
    /// Column.
    pub x: u64,
    /// Row.
    pub y: u64,
    /// How it was located.
    pub how: String,
}

/// The result of `palace regions`.
#[derive(Debug, Clone, Serialize)]
pub struct RegionsReport {
    /// The game.
    pub k: u32,
    /// The window reported.
    pub window: [u32; 4],
    /// Block side of the block tests.
    pub block: usize,
    /// Per region, in [`ALL`] order.
    pub regions: Vec<(Region, RegionStats)>,
    /// The junctions that could be located.
    pub junctions: Vec<Junction>,
}

/// Accumulates per-region statistics and the junctions over labelled rows.
pub struct RegionAcc {
    k: u32,
    window: Window,
    /// Per region, counts of `v + 128` (cells outside the hood are exact in 8 bits).
    hist: Vec<[u64; 256]>,
    hood_range: Option<(i64, i64)>,
    hood_cells: u64,
    /// The hottest cell above and below the diagonal: (v, x, y), first in row-major order.
    hottest: [Option<(i64, u64, u64)>; 2],
    /// The fabric's run along the diagonal from the nose: its last cell, and whether it ended
    /// (a gap of more than two blocks).
    prism: Option<u64>,
    prism_ended: bool,
}

impl RegionAcc {
    /// Empty statistics of `window` of game `k`.
    pub fn new(k: u32, window: Window) -> Self {
        RegionAcc {
            k,
            window,
            hist: vec![[0; 256]; ALL.len()],
            hood_range: None,
            hood_cells: 0,
            hottest: [None; 2],
            prism: None,
            prism_ended: false,
        }
    }

    /// Adds a labelled row (cells from column 0); only its part inside the window counts.
    pub fn add<E>(&mut self, r: &LabelledRow<E>) {
        if !(self.window.y0..self.window.y1).contains(&r.y) {
            return;
        }
        let y = u64::from(r.y);
        let row = Row { k: self.k, y: r.y, x0: 0, cells: &r.cells };
        let hood = row.hood_cells();
        let (x0, x1) = (self.window.x0 as usize, self.window.x1 as usize);
        if x0 < hood {
            // The hood's values rise along the row: its extremes are the run's ends.
            let (a, b) = (row.v(x0), row.v(hood.min(x1) - 1));
            self.hood_cells += (hood.min(x1) - x0) as u64;
            self.hood_range = Some(self.hood_range.map_or((a, b), |(lo, hi)| (lo.min(a), hi.max(b))));
        }
        for x in x0.max(hood)..x1 {
            let v = r.cells[x];
            self.hist[r.labels[x].index()][v as u8 as usize] += 1;
            let v = i64::from(v);
            let side = usize::from((x as u64) < y);
            if self.hottest[side].is_none_or(|(h, _, _)| v > h) {
                self.hottest[side] = Some((v, x as u64, y));
            }
            if x as u64 == y && r.labels[x] == Region::Fabric && !self.prism_ended {
                // Stray fabric-like blocks far out along the diagonal do not extend the run.
                if self.prism.is_some_and(|p| y - p > 2 * BLOCK as u64) {
                    self.prism_ended = true;
                } else {
                    self.prism = Some(y);
                }
            }
        }
    }

    /// The finished report.
    pub fn finish(self) -> RegionsReport {
        let k = self.k;
        let mut regions = Vec::new();
        for reg in ALL {
            let mut s = RegionStats::default();
            if reg == Region::Hood {
                s.cells = self.hood_cells;
                s.palaces = self.hood_cells;
                s.v_range = self.hood_range;
            } else {
                let h: BTreeMap<i64, u64> = self.hist[reg.index()]
                    .iter()
                    .enumerate()
                    .filter(|&(_, &c)| c > 0)
                    .map(|(i, &c)| (i64::from(i as u8 as i8), c))
                    .collect();
                s.cells = h.values().sum();
                s.palaces = h.iter().filter(|&(&v, _)| v < 0).map(|(_, c)| c).sum();
                s.histogram = h.iter().map(|(&v, &c)| (v, c)).collect();
                s.v_range = h.keys().next().copied().zip(h.keys().next_back().copied());
            }
            s.density = if s.cells > 0 { s.palaces as f64 / s.cells as f64 } else { 0.0 };
            regions.push((reg, s));
        }
        let mut junctions = Vec::new();
        let m = u64::from(k.saturating_sub(1) / 3);
        let within = |x: u64, y: u64| self.window.contains(x, y);
        if within(m, m) {
            junctions.push(Junction {
                name: "nose",
                x: m,
                y: m,
                how: "closed form: the hood's last cell on the diagonal (max + 2 min < k)".into(),
            });
        }
        for (x, y) in [(u64::from(k), 0), (0, u64::from(k))] {
            if within(x, y) {
                junctions.push(Junction {
                    name: "shoulder",
                    x,
                    y,
                    how: "closed form: first cell past the hood on the border, where outer space begins"
                        .into(),
                });
            }
        }
        for (side, name) in [(0usize, "armpit (upper)"), (1, "armpit (lower)")] {
            if let Some((v, x, y)) = self.hottest[side] {
                junctions.push(Junction {
                    name,
                    x,
                    y,
                    how: format!(
                        "hottest cell {} the diagonal: v = {v} (palace number k{v:+}), first in row-major order",
                        if side == 0 { "on or above" } else { "below" }
                    ),
                });
            }
        }
        if let Some(d) = self.prism {
            junctions.push(Junction {
                name: "prism",
                x: d,
                y: d,
                how: "end of the fabric's run along the main diagonal from the nose (where the frays meet)"
                    .into(),
            });
        }
        let w = self.window;
        RegionsReport { k, window: [w.x0, w.y0, w.x1, w.y1], block: BLOCK, regions, junctions }
    }
}

/// Labels `window` of game `k` and hands every labelled row to `f` (rows of the window only,
/// cells from column 0). `extra_lanes` are swept in the same lockstep (over rows from 0, of the
/// same width `window.x1`); `extra` sees all rows of a step (the four label lanes first) and
/// its result travels with the labelled row.
pub fn label<E>(
    k: u32,
    window: Window,
    opts: &EngineOptions,
    progress: &dyn Progress,
    extra_lanes: &[Lane],
    mut extra: impl FnMut(&[Row<'_>]) -> E,
    mut f: impl FnMut(&LabelledRow<E>) -> Result<()>,
) -> Result<()> {
    let mut all: Vec<Lane> = lanes(k, window.x1, window.y1).to_vec();
    all.extend_from_slice(extra_lanes);
    let mut lab = Labeler::new(k, window.x1 as usize);
    let mut emit = |rows: Vec<LabelledRow<E>>| -> Result<()> {
        for r in rows.iter().filter(|r| r.y >= window.y0) {
            f(r)?;
        }
        Ok(())
    };
    lockstep(&all, opts, progress, |rows| {
        let e = extra(rows);
        emit(lab.push(&rows[..4], e))
    })?;
    emit(lab.finish())
}

impl std::fmt::Display for RegionsReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [x0, y0, x1, y1] = self.window;
        writeln!(
            f,
            "k = {}, window [{x0}, {x1}) x [{y0}, {y1}); block tests on {} x {} blocks",
            self.k, self.block, self.block
        )?;
        let total: u64 = self.regions.iter().map(|(_, s)| s.cells).sum();
        writeln!(
            f,
            "{:<22} {:>14} {:>8} {:>14} {:>9}   v range   histogram of v",
            "region", "cells", "share", "palaces", "density"
        )?;
        for (r, s) in &self.regions {
            let share = if total > 0 { 100.0 * s.cells as f64 / total as f64 } else { 0.0 };
            let range = s.v_range.map_or("-".to_string(), |(a, b)| format!("{a}..{b}"));
            let hist: Vec<String> = s.histogram.iter().map(|(v, c)| format!("{v}:{c}")).collect();
            writeln!(
                f,
                "{:<22} {:>14} {:>7.2}% {:>14} {:>9.4}   {:<9} {}",
                r.name(),
                s.cells,
                share,
                s.palaces,
                s.density,
                range,
                hist.join(" ")
            )?;
        }
        writeln!(f, "junctions:")?;
        for j in &self.junctions {
            writeln!(f, "  {:<16} ({}, {})  {}", j.name, j.x, j.y, j.how)?;
        }
        Ok(())
    }
}

/// `palace regions` as first written, on one consumer thread (a lockstep of four row sweeps
/// and [`label`]): the reference [`run`] is tested against.
pub fn run_reference(
    k: u32,
    window: Window,
    scale: u32,
    out: Option<MapOutput>,
    opts: &EngineOptions,
    progress: &dyn Progress,
) -> Result<(RegionsReport, Option<std::path::PathBuf>)> {
    let mut acc = RegionAcc::new(k, window);
    let (mut png, map) = match out {
        Some(o) => {
            let text = vec![(
                "Comment".to_string(),
                format!("palace regions, k = {k}, window {window}, scale {scale}"),
            )];
            let (png, map) = legend::start(o, window, scale, plte(), text, opts.threads)?;
            (Some(png), Some(map))
        }
        None => (None, None),
    };
    let mut line = Vec::new();
    label(
        k,
        window,
        opts,
        progress,
        &[],
        |_| (),
        |r| {
            acc.add(r);
            if let Some(p) = &mut png
                && (r.y - window.y0).is_multiple_of(scale)
            {
                line.clear();
                line.extend(
                    (window.x0..window.x1)
                        .step_by(scale as usize)
                        .map(|x| r.labels[x as usize].index() as u8),
                );
                p.push_row(&line)?;
            }
            Ok(())
        },
    )?;
    let drawn = png.map(PngStream::finish_file).transpose()?;
    let report = acc.finish();
    let path = map.zip(drawn).map(|(m, d)| m.finish(d, &report, opts)).transpose()?;
    Ok((report, path))
}

// The labels computed by the sweep's workers, tile by tile.
//
// The same labels as [`Labeler`], from the aligned tiles of the four games of [`lanes`]
// ([`crate::engine::sweep_lanes`]). What a label needs beyond its tile travels with the tiles
// as a wavefront state ([`LabelState`]): the last five rows and columns of game k (the
// épaulettes' period partners reach five rows up and five columns left), whether each column
// and row is still 0 from the border (outer space), and the block labels along the bottom and
// right edges (a uniform block continues the block to its left or above it). Tiles are cut
// on the 8 x 8 block grid, so that every block lies in one tile.

/// A tile of game k with its labels, as [`label_tiles`] shows it.
pub struct LabelledTile<'a> {
    /// The band of tiles this tile belongs to.
    pub band: usize,
    /// Strips in a band.
    pub strips: usize,
    /// First column.
    pub x0: u32,
    /// One past the last column.
    pub x1: u32,
    /// First row.
    pub y0: u32,
    /// One past the last row.
    pub y1: u32,
    stride: usize,
    /// Game k's stored cells (with the five columns and rows before the tile).
    buf: &'a [i8],
    labels: &'a [u8],
    /// The extra lanes' views of this tile, aligned with it.
    pub extra: &'a [TileView<'a>],
}

impl LabelledTile<'_> {
    /// Game k's stored cells of row `y` (hood cells as their stand-in), columns `x0..x1`.
    pub fn cells(&self, y: u32) -> &[i8] {
        let r = (y - self.y0) as usize + 5;
        &self.buf[r * self.stride + 5..(r + 1) * self.stride]
    }

    /// The region index ([`Region::index`]) of every cell of row `y`, columns `x0..x1`.
    pub fn labels(&self, y: u32) -> &[u8] {
        let w = (self.x1 - self.x0) as usize;
        let r = (y - self.y0) as usize;
        &self.labels[r * w..(r + 1) * w]
    }
}

/// What a labelled tile leaves to the tiles below it and to its right.
struct LabelState {
    /// The last five rows of game k over columns `x0 - 5 .. x1`.
    bottom: Vec<i8>,
    /// The last five columns of game k, five per row.
    right: Vec<i8>,
    /// Per column: all 0 from row 0 down to the tile's last row.
    col_zero: Vec<bool>,
    /// Per row: all 0 from column 0 across to the tile's last column (rows `>= k` only).
    row_zero: Vec<bool>,
    /// The block labels of the tile's last block row and last block column.
    last_row: Vec<Region>,
    last_col: Vec<Region>,
}

/// A worker's buffers.
#[derive(Default)]
struct TileScratch {
    buf: Vec<i8>,
    flags: Vec<u8>,
    labels: Vec<u8>,
    rows: [Vec<i8>; 4],
    blocks: Vec<Region>,
    /// Per block: the OR of its cells' flags.
    block_any: Vec<u8>,
    /// Per column of a block row: the OR and AND of the flags, as bytes.
    cols: [Vec<u8>; 2],
    /// Per column of a block row: the least and greatest value.
    vals: [Vec<i8>; 2],
}

/// The label state a neighbour left, if there is one.
fn label_state(s: Option<&(dyn std::any::Any + Send + Sync)>) -> Option<&LabelState> {
    s.map(|s| s.downcast_ref::<LabelState>().expect("a label state"))
}

crate::avx2_version! {
    /// Labels one tile of the four [`lanes`] (`views[0..4]`); fills `sc.buf` (game k's cells
    /// with the five rows and columns before the tile) and `sc.labels`. The per-cell tests are
    /// written to vectorise (byte-wide, over whole rows).
    fn label_tile(k: u32, t: &LaneTiles<'_>, sc: &mut TileScratch) -> LabelState = label_tile_body;
}

#[inline(always)]
fn label_tile_body(k: u32, t: &LaneTiles<'_>, sc: &mut TileScratch) -> LabelState {
    let a = &t.views[0];
    let (x0, x1, y0, y1) = (a.x0, a.x1, a.y0, a.y1);
    let (w, h) = ((x1 - x0) as usize, (y1 - y0) as usize);
    let (above, left) = (label_state(t.above), label_state(t.left));
    let ww = w + 5;
    let TileScratch { buf, flags, labels, rows, blocks, block_any, cols, vals } = sc;
    buf.clear();
    buf.resize((h + 5) * ww, 0);
    if let Some(ab) = above {
        buf[..5 * ww].copy_from_slice(&ab.bottom);
    }
    let mut col_zero = above.map_or_else(|| vec![true; w], |ab| ab.col_zero.clone());
    let mut row_zero = Vec::with_capacity(h);
    flags.clear();
    flags.resize(w * h, 0);
    let ku = u64::from(k);
    for r in 0..h {
        let y = y0 + r as u32;
        let yy = u64::from(y);
        let line = &mut buf[(5 + r) * ww..(6 + r) * ww];
        if let Some(l) = left {
            line[..5].copy_from_slice(&l.right[5 * r..5 * r + 5]);
        }
        let [ra, ru, rl, r3] = rows;
        line[5..].copy_from_slice(a.row_or(y, ra));
        let up = t.views[1].row_or(t.views[1].y0 + r as u32, ru);
        let lo = t.views[2].row_or(t.views[2].y0 + r as u32, rl);
        let p3 = t.views[3].row_or(t.views[3].y0 + r as u32, r3);
        let hood = hood_len(k, yy);
        let (hu, hl, h3) = (hood_len(k + 1, yy), hood_len(k + 1, yy + 1), hood_len(k + 3, yy + 1));
        // Where any of the four games is in its hood, exact palace numbers are compared.
        let exact = hood.max(hu.saturating_sub(1)).max(hl).max(h3.saturating_sub(1));
        // The épaulettes' period partners must be on the board and off the hood.
        let ph = |d: u64, dx: u64| if yy >= d { hood_len(k, yy - d) + dx } else { u64::MAX };
        let testable = ph(1, 5).max(ph(3, 4)).max(ph(5, 1)).max(ph(4, 3));
        let mut rz = left.map_or(yy >= ku, |l| l.row_zero[r]);
        let f_row = &mut flags[r * w..(r + 1) * w];
        // Past the hoods and the untestable cells every cell is decided alike, branch-free
        // (below); before, cell by cell.
        let fast = (hood.max(exact).max(testable).max(u64::from(x0)) - u64::from(x0)).min(w as u64) as usize;
        for i in 0..fast {
            let x = u64::from(x0) + i as u64;
            if x < hood {
                f_row[i] = F_HOOD;
                continue;
            }
            let v = buf[(5 + r) * ww + 5 + i];
            col_zero[i] &= v == 0;
            rz &= v == 0;
            let mut f = if (x >= ku && col_zero[i]) || rz { F_OUTER } else { 0 };
            let (mu, ml, m3) = if x < exact {
                let na = i64::from(v) + i64::from(k);
                let pn = |kk: u32, hl: u64, xx: u64, yy: u64, s: i8| {
                    (if xx < hl { hood_value(kk, xx, yy) } else { i64::from(s) }) + i64::from(kk)
                };
                (
                    pn(k + 1, hu, x + 1, yy, up[i]) == na + 1,
                    pn(k + 1, hl, x, yy + 1, lo[i]) == na + 1,
                    pn(k + 3, h3, x + 1, yy + 1, p3[i]) == na + 3,
                )
            } else {
                (up[i] == v, lo[i] == v, p3[i] == v)
            };
            f |= if mu { F_UPPER } else { 0 } | if ml { F_LOWER } else { 0 } | if m3 { F_PLUS3 } else { 0 };
            if x >= testable {
                // Partners (x-5, y-1), (x-4, y-3) and (x-1, y-5), (x-3, y-4), in `buf`.
                let c = 5 + i;
                let small = v.abs() <= 1;
                let p = |row: usize, dx: usize| buf[row + c - dx];
                if small && p((r + 4) * ww, 5) == v && p((r + 2) * ww, 4) == v {
                    f |= F_PER_LOWER;
                }
                if small && p(r * ww, 1) == v && p((r + 1) * ww, 3) == v {
                    f |= F_PER_UPPER;
                }
            } else {
                f |= F_UNTESTABLE;
            }
            f_row[i] = f;
        }
        if fast < w {
            let n = w - fast;
            let c = (5 + r) * ww + 5 + fast;
            let v = &buf[c..c + n];
            // Partners (x-5, y-1), (x-4, y-3) and (x-1, y-5), (x-3, y-4).
            let q1 = &buf[c - ww - 5..c - ww - 5 + n];
            let q3 = &buf[c - 3 * ww - 4..c - 3 * ww - 4 + n];
            let q5 = &buf[c - 5 * ww - 1..c - 5 * ww - 1 + n];
            let q4 = &buf[c - 4 * ww - 3..c - 4 * ww - 3 + n];
            let (u, l, p) = (&up[fast..fast + n], &lo[fast..fast + n], &p3[fast..fast + n]);
            let cz = &mut col_zero[fast..fast + n];
            let out = &mut f_row[fast..fast + n];
            // Outer space: the row's zero run from column 0, and columns >= k zero from row 0.
            let run = if rz { v.iter().position(|&c| c != 0).unwrap_or(n) } else { 0 };
            rz &= run == n;
            let kx = (ku.saturating_sub(u64::from(x0) + fast as u64)).min(n as u64) as usize;
            // Byte-wide tests only (an index comparison in the loop would widen the vectors to
            // 64-bit lanes); outer space is marked after, over its ranges of columns.
            for i in 0..n {
                let vi = v[i];
                cz[i] &= vi == 0;
                let small = (vi as u8).wrapping_add(1) <= 2;
                out[i] = (u8::from(u[i] == vi) * F_UPPER)
                    | (u8::from(l[i] == vi) * F_LOWER)
                    | (u8::from(p[i] == vi) * F_PLUS3)
                    | (u8::from(small & (q1[i] == vi) & (q3[i] == vi)) * F_PER_LOWER)
                    | (u8::from(small & (q5[i] == vi) & (q4[i] == vi)) * F_PER_UPPER);
            }
            for (o, &z) in out[kx..].iter_mut().zip(&cz[kx..]) {
                *o |= u8::from(z) * F_OUTER;
            }
            for o in &mut out[..run] {
                *o |= F_OUTER;
            }
        }
        row_zero.push(rz);
    }
    // The blocks, row-major: the decisions of `Labeler::decide`.
    let (bw, bh) = (w.div_ceil(BLOCK), h.div_ceil(BLOCK));
    blocks.clear();
    blocks.resize(bw * bh, Region::Rest);
    block_any.clear();
    block_any.resize(bw * bh, 0);
    let ([c_or, c_and], [c_min, c_max]) = (cols, vals);
    for rb in 0..bh {
        let (ra, rz) = (rb * BLOCK, (rb * BLOCK + BLOCK).min(h));
        // Most blocks hold no hood, outer or untestable cell: OR, AND, min and max of all, per
        // column over the block row first (whole rows at a time, in vectors), then per block.
        c_or.clear();
        c_and.clear();
        c_min.clear();
        c_max.clear();
        c_or.extend_from_slice(&flags[ra * w..(ra + 1) * w]);
        c_and.extend_from_slice(&flags[ra * w..(ra + 1) * w]);
        c_min.extend_from_slice(&buf[(5 + ra) * ww + 5..(6 + ra) * ww]);
        c_max.extend_from_slice(&buf[(5 + ra) * ww + 5..(6 + ra) * ww]);
        for r in ra + 1..rz {
            let (fr, vr) = (&flags[r * w..(r + 1) * w], &buf[(5 + r) * ww + 5..(6 + r) * ww]);
            let it = c_or.iter_mut().zip(c_and.iter_mut()).zip(c_min.iter_mut().zip(c_max.iter_mut()));
            for (((o, a), (mn, mx)), (&f, &v)) in it.zip(fr.iter().zip(vr)) {
                *o |= f;
                *a &= f;
                *mn = (*mn).min(v);
                *mx = (*mx).max(v);
            }
        }
        for cb in 0..bw {
            let (ca, cz) = (cb * BLOCK, (cb * BLOCK + BLOCK).min(w));
            let (mut cand, mut all, mut tested, mut per) = (0u32, 0xffu8, 0u32, 0xffu8);
            let any = c_or[ca..cz].iter().fold(0u8, |a, &f| a | f);
            let and = c_and[ca..cz].iter().fold(0xffu8, |a, &f| a & f);
            let mut lo_v = c_min[ca..cz].iter().fold(i8::MAX, |a, &v| a.min(v));
            let mut hi_v = c_max[ca..cz].iter().fold(i8::MIN, |a, &v| a.max(v));
            block_any[rb * bw + cb] = any;
            // Blocks wholly in the hood or in outer space (common on big boards) hold no
            // candidate; only blocks that mix are gone through cell by cell.
            let mixed = any & (F_HOOD | F_OUTER | F_UNTESTABLE) != 0 && and & (F_HOOD | F_OUTER) == 0;
            if any & (F_HOOD | F_OUTER | F_UNTESTABLE) == 0 {
                cand = ((rz - ra) * (cz - ca)) as u32;
                (all, tested, per) = (and, cand, and);
            } else {
                (lo_v, hi_v) = (i8::MAX, i8::MIN);
            }
            for r in (ra..rz).filter(|_| mixed) {
                let fr = &flags[r * w + ca..r * w + cz];
                let vr = &buf[(5 + r) * ww + 5 + ca..(5 + r) * ww + 5 + cz];
                for (&f, &v) in fr.iter().zip(vr) {
                    if f & (F_HOOD | F_OUTER) != 0 {
                        continue;
                    }
                    cand += 1;
                    (lo_v, hi_v) = (lo_v.min(v), hi_v.max(v));
                    all &= f;
                    if f & F_UNTESTABLE == 0 {
                        tested += 1;
                        per &= f;
                    }
                }
            }
            let (all_up, all_lo, all3) = (all & F_UPPER != 0, all & F_LOWER != 0, all & F_PLUS3 != 0);
            let (per_lo, per_up) = (per & F_PER_LOWER != 0, per & F_PER_UPPER != 0);
            let periodic = 2 * tested >= cand && tested > 0 && lo_v == -1 && hi_v == 1;
            let y_mid = 2 * (u64::from(y0) + ra as u64) + (rz - ra) as u64;
            let upper_side = 2 * (u64::from(x0) + ca as u64) + (cz - ca) as u64 >= y_mid;
            let label = if cand == 0 {
                Region::Rest
            } else if periodic && per_lo && (!per_up || !upper_side) {
                Region::EpauletteLower
            } else if periodic && per_up {
                Region::EpauletteUpper
            } else if lo_v == hi_v {
                let before = if upper_side {
                    if cb > 0 { Some(blocks[rb * bw + cb - 1]) } else { left.map(|l| l.last_col[rb]) }
                } else if rb > 0 {
                    Some(blocks[(rb - 1) * bw + cb])
                } else {
                    above.map(|ab| ab.last_row[cb])
                };
                match before {
                    Some(Region::Fabric) if all3 => Region::Fabric,
                    Some(Region::ArmUpper) if all_up => Region::ArmUpper,
                    Some(Region::ArmLower) if all_lo => Region::ArmLower,
                    _ => Region::Rest,
                }
            } else if all3 {
                Region::Fabric
            } else if all_up && (!all_lo || upper_side) {
                Region::ArmUpper
            } else if all_lo {
                Region::ArmLower
            } else {
                Region::Rest
            };
            blocks[rb * bw + cb] = label;
        }
    }
    labels.clear();
    labels.resize(w * h, 0);
    for rb in 0..bh {
        let (ra, rz) = (rb * BLOCK, (rb * BLOCK + BLOCK).min(h));
        let brow = &blocks[rb * bw..(rb + 1) * bw];
        let bany = &block_any[rb * bw..(rb + 1) * bw];
        // The block row's labels, built once and copied to its rows; blocks holding hood or
        // outer-space cells are then patched cell by cell.
        let (first, rest) = labels[ra * w..rz * w].split_at_mut(w);
        for (ls, &b) in first.chunks_mut(BLOCK).zip(brow) {
            let b = b.index() as u8;
            // A whole block is one 8-byte store; the board's last block may be narrower.
            match <&mut [u8; BLOCK]>::try_from(&mut *ls) {
                Ok(ls) => *ls = [b; BLOCK],
                Err(_) => ls.fill(b),
            }
        }
        for row in rest.chunks_exact_mut(w) {
            row.copy_from_slice(first);
        }
        // Rows with hood or outer-space cells: a branch-free pass over the whole row (the hood
        // before outer space before the block's label), in vectors.
        if bany.iter().any(|&a| a & (F_HOOD | F_OUTER) != 0) {
            let (hood, outer) = (Region::Hood.index() as u8, Region::OuterSpace.index() as u8);
            for r in ra..rz {
                for (l, &f) in labels[r * w..(r + 1) * w].iter_mut().zip(&flags[r * w..(r + 1) * w]) {
                    let o = 0u8.wrapping_sub(u8::from(f & F_OUTER != 0));
                    let hd = 0u8.wrapping_sub(u8::from(f & F_HOOD != 0));
                    let l1 = (outer & o) | (*l & !o);
                    *l = (hood & hd) | (l1 & !hd);
                }
            }
        }
    }
    LabelState {
        bottom: buf[h * ww..(h + 5) * ww].to_vec(),
        right: (0..h).flat_map(|r| buf[(6 + r) * ww - 5..(6 + r) * ww].iter().copied()).collect(),
        col_zero,
        row_zero,
        last_row: blocks[(bh - 1) * bw..].to_vec(),
        last_col: (0..bh).map(|rb| blocks[rb * bw + bw - 1]).collect(),
    }
}

/// The visitor behind [`label_tiles`].
struct TileLabeler<A, F> {
    k: u32,
    accs: Vec<Mutex<(A, TileScratch)>>,
    f: F,
}

impl<A: Send, F: Fn(&mut A, &LabelledTile<'_>) + Sync> LaneVisitor for TileLabeler<A, F> {
    fn visit(&self, worker: usize, t: &LaneTiles<'_>) -> LaneState {
        let mut g = self.accs[worker].lock().expect("labeller lock");
        let (acc, sc) = &mut *g;
        let state = label_tile(self.k, t, sc);
        let a = &t.views[0];
        let tile = LabelledTile {
            band: t.band,
            strips: t.strips,
            x0: a.x0,
            x1: a.x1,
            y0: a.y0,
            y1: a.y1,
            stride: (a.x1 - a.x0) as usize + 5,
            buf: &sc.buf,
            labels: &sc.labels,
            extra: &t.views[4..],
        };
        (self.f)(acc, &tile);
        Box::new(state)
    }
}

/// Labels `[0, window.x1) x [0, window.y1)` of game `k` on the sweep's workers, as [`label`]
/// does on one thread, and shows every labelled tile (all of them, not only the window's) to
/// `f` with the worker's accumulator (one per worker, made by `acc`). `extra_lanes` are swept
/// with the labels' four games; their windows must be `window.x1 x window.y1` (from any
/// corner) and their views come aligned with each tile. Returns the accumulators.
pub fn label_tiles<A: Send>(
    k: u32,
    window: Window,
    opts: &EngineOptions,
    progress: &dyn Progress,
    extra_lanes: &[Lane],
    acc: impl Fn() -> A,
    f: impl Fn(&mut A, &LabelledTile<'_>) + Sync,
) -> Result<Vec<A>> {
    let mut all: Vec<Lane> = lanes(k, window.x1, window.y1).to_vec();
    all.extend_from_slice(extra_lanes);
    // Tiles on the block grid: every block in one tile.
    let grid = |v: Option<u32>| v.map(|v| v.max(2).next_multiple_of(BLOCK as u32));
    let opts = EngineOptions {
        tile_width: grid(opts.tile_width),
        band_height: grid(opts.band_height),
        ..opts.clone()
    };
    let workers = opts.resolved_threads();
    let visitor = TileLabeler {
        k,
        accs: (0..workers).map(|_| Mutex::new((acc(), TileScratch::default()))).collect(),
        f,
    };
    crate::engine::sweep_lanes(&all, &opts, &visitor, progress)?;
    Ok(visitor.accs.into_iter().map(|m| m.into_inner().expect("labeller lock").0).collect())
}

crate::avx2_version! {
    /// [`RegionAcc::add_tile_body`], vectorised for AVX2 where the CPU has it.
    fn add_tile(k: u32, window: Window, acc: &mut TileAcc, t: &LabelledTile<'_>) = RegionAcc::add_tile_body;
}

/// The length of the run of `s[0]` that `s` starts with (`s` not empty), eight bytes at a
/// time.
pub(crate) fn run_len(s: &[u8]) -> usize {
    let splat = u64::from(s[0]) * 0x0101_0101_0101_0101;
    let mut chunks = s.chunks_exact(8);
    let mut n = 0;
    for c in chunks.by_ref() {
        let d = u64::from_le_bytes(c.try_into().expect("eight bytes")) ^ splat;
        if d != 0 {
            return n + (d.trailing_zeros() / 8) as usize;
        }
        n += 8;
    }
    n + chunks.remainder().iter().position(|&b| b != s[0]).unwrap_or(chunks.remainder().len())
}

/// Per-worker statistics of `palace regions`, merged into a [`RegionAcc`] at the end.
struct TileAcc {
    /// Per region, counts of `v + 128`.
    hist: Vec<[u64; 256]>,
    hottest: [Option<(i64, u64, u64)>; 2],
    /// Rows of the diagonal's fabric cells in the window.
    diagonal: Vec<u64>,
}

impl RegionAcc {
    /// Adds a labelled tile: its cells inside the window.
    #[inline(always)]
    fn add_tile_body(k: u32, window: Window, acc: &mut TileAcc, t: &LabelledTile<'_>) {
        let (ya, yb) = (t.y0.max(window.y0), t.y1.min(window.y1));
        for y in ya..yb {
            let yy = u64::from(y);
            let hood = hood_len(k, yy).min(u64::from(window.x1)) as u32;
            let (xa, xb) = (t.x0.max(window.x0).max(hood), t.x1.min(window.x1));
            if xa >= xb {
                continue;
            }
            let (cells, labels) = (t.cells(y), t.labels(y));
            let (ia, ib) = ((xa - t.x0) as usize, (xb - t.x0) as usize);
            // The histograms, run of one label by run.
            let mut i = ia;
            while i < ib {
                let l = labels[i];
                let end = i + run_len(&labels[i..ib]);
                let run = &cells[i..end];
                let hist = &mut acc.hist[l as usize];
                if run.len() >= 64 {
                    crate::simd::histogram::count(std::iter::once(run), hist);
                } else {
                    for &v in run {
                        hist[(v as u8 ^ 0x80) as usize] += 1;
                    }
                }
                i = end;
            }
            // The hottest cell on each side of the diagonal: the first of the segment's largest.
            let split = (u64::from(xa).max(yy.min(u64::from(xb))) - u64::from(t.x0)) as usize;
            for (side, (a, b)) in [(1usize, (ia, split)), (0, (split, ib))] {
                if a >= b {
                    continue;
                }
                // A fold, not `max()`: it vectorises.
                let m = i64::from(cells[a..b].iter().fold(i8::MIN, |m, &c| m.max(c)));
                if acc.hottest[side].is_none_or(|(h, _, _)| m >= h) {
                    let p = cells[a..b].iter().position(|&c| i64::from(c) == m).expect("the maximum");
                    let x = u64::from(t.x0) + (a + p) as u64;
                    if acc.hottest[side].is_none_or(|(h, hy, hx)| m > h || (yy, x) < (hy, hx)) {
                        acc.hottest[side] = Some((m, yy, x));
                    }
                }
            }
            if (xa..xb).contains(&y) && labels[(y - t.x0) as usize] == Region::Fabric.index() as u8 {
                acc.diagonal.push(yy);
            }
        }
    }

    /// The statistics the workers gathered, merged (the hood's from its closed form).
    fn from_tiles(k: u32, window: Window, tiles: Vec<TileAcc>) -> Self {
        let mut acc = RegionAcc::new(k, window);
        let mut diagonal = Vec::new();
        for t in tiles {
            // Tiles count by v + 128, the accumulator by v's byte.
            for (a, b) in acc.hist.iter_mut().zip(&t.hist) {
                for (i, &c) in b.iter().enumerate() {
                    a[i ^ 0x80] += c;
                }
            }
            for side in 0..2 {
                if let Some((v, y, x)) = t.hottest[side]
                    && acc.hottest[side].is_none_or(|(h, hx, hy)| v > h || (v == h && (y, x) < (hy, hx)))
                {
                    acc.hottest[side] = Some((v, x, y));
                }
            }
            diagonal.extend(t.diagonal);
        }
        diagonal.sort_unstable();
        for y in diagonal {
            if acc.prism_ended {
                break;
            }
            if acc.prism.is_some_and(|p| y - p > 2 * BLOCK as u64) {
                acc.prism_ended = true;
            } else {
                acc.prism = Some(y);
            }
        }
        for y in window.y0..window.y1 {
            let yy = u64::from(y);
            let hood = hood_len(k, yy).min(u64::from(window.x1));
            let x0 = u64::from(window.x0);
            if x0 < hood {
                let end = hood.min(u64::from(window.x1));
                let (a, b) = (hood_value(k, x0, yy), hood_value(k, end - 1, yy));
                acc.hood_cells += end - x0;
                acc.hood_range = Some(acc.hood_range.map_or((a, b), |(lo, hi)| (lo.min(a), hi.max(b))));
            }
        }
        acc
    }
}

/// `palace regions` on the sweep's workers: the same report and map as [`run_reference`].
pub fn run(
    k: u32,
    window: Window,
    scale: u32,
    out: Option<MapOutput>,
    opts: &EngineOptions,
    progress: &dyn Progress,
) -> Result<(RegionsReport, Option<std::path::PathBuf>)> {
    let (picture, map) = match out {
        Some(o) => {
            let (png, map) =
                legend::start(o, window, scale, plte(), map_text(k, window, scale), opts.threads)?;
            (Some(OrderedPicture::new(png, window, scale)), Some(map))
        }
        None => (None, None),
    };
    let tiles = label_tiles(
        k,
        window,
        opts,
        progress,
        &[],
        || TileAcc { hist: vec![[0; 256]; ALL.len()], hottest: [None; 2], diagonal: Vec::new() },
        |acc, t| {
            add_tile(k, window, acc, t);
            if let Some(p) = &picture {
                p.draw(t.band, t.strips, (t.x0, t.x1), (t.y0, t.y1), |x, y| t.labels(y)[(x - t.x0) as usize]);
            }
        },
    )?;
    let drawn = picture.map(OrderedPicture::finish_file).transpose()?;
    let report = RegionAcc::from_tiles(k, window, tiles).finish();
    let path = map.zip(drawn).map(|(m, d)| m.finish(d, &report, opts)).transpose()?;
    Ok((report, path))
}

/// The region map's text chunk.
fn map_text(k: u32, window: Window, scale: u32) -> Vec<(String, String)> {
    vec![("Comment".to_string(), format!("palace regions, k = {k}, window {window}, scale {scale}"))]
}

#[cfg(test)]
mod run_len_tests {
    use super::run_len;

    #[test]
    fn run_len_equals_the_plain_count() {
        // Runs of every length 1..40 at every offset in an 8-byte word, then another byte or
        // the end.
        for len in 1..40 {
            for pad in 0..9 {
                let mut s = vec![9u8; pad];
                s.extend(std::iter::repeat_n(3u8, len));
                for tail in [None, Some(4u8), Some(0)] {
                    let mut t = s.clone();
                    t.extend(tail);
                    let plain = t[pad..].iter().take_while(|&&b| b == 3).count();
                    assert_eq!(run_len(&t[pad..]), plain, "len {len} pad {pad} tail {tail:?}");
                }
            }
        }
    }
}
