//! A survey across k (paper §4, question 4, and §2.2's "log k states"): for every k of a range,
//! the board `(F k) x (F k)` (the same size relative to k for every k) and one row of
//! measurements per k: the extreme values outside the hood with the first hottest cell, the
//! number of states, how many cells share the hottest value and how they cluster, the region
//! of the hottest cell and its distance to the armpit, the prism along the diagonal, and where
//! the skin's levels 2 and 3 begin. The columns are defined in `docs/survey.md`.
//!
//! Per k, with one worker each (the boards are small; the survey runs many k at once):
//!
//! * one visitor sweep of game k ([`Sweep::tiles`](crate::engine::Sweep::tiles)) gathers the statistics
//!   ([`crate::analysis::stats`]), every cell holding the board's largest value, and the cells of
//!   the 8 x 8 blocks along the main diagonal;
//! * one visitor sweep of game k+3 shifted by (1, 1), over the board's first 2k + 32 rows and
//!   columns (all of it if the fabric reaches that far), gathers the same diagonal blocks, so the
//!   prism is located as `palace regions` locates it — the end of the run of diagonal blocks that
//!   game k+3 reproduces (+3) — without labelling the whole board;
//! * the region labels ([`crate::labels::label_rows`]) of a window of
//!   [`ARMPIT_RADIUS`] around the hottest cell only (they are computed from row 0 and column 0
//!   up to the window's far corner, so they equal the whole board's labels there);
//! * the skin follower ([`crate::analysis::skin::follow`]) from the shoulder to the first of
//!   [`SKIN_SPANS`] columns past it (beyond the board) within which level 3 begins.
//!
//! The last two, the costly ones, can be limited to every `detail_step`-th k.
//!
//! The sweeps (the first two and the skin's) sit behind `BoardSweeps`: the CPU engine's
//! visitors here, or the GPU backend's (`crate::backend::gpu::survey`, feature `gpu`), which sends back
//! only the tiles along the diagonal and those holding the largest value; both give the same
//! rows (`tests/integration/gpu.rs`).

use crate::analysis::skin;
use crate::analysis::stats::{self, Stats};
use crate::engine::{EngineOptions, Progress, Silent, Sweep, TileKind, TileView, TileVisitor};
use crate::error::{Error, Result};
use crate::labels::{self, BLOCK, Region};
use crate::model::geometry::Window;
use crate::model::rule::hood_len;
use crate::simd::histogram;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::Mutex;

/// Half-side of the window around the hottest cell whose region labels are read: the armpit
/// distance is measured up to this many cells (Chebyshev).
pub const ARMPIT_RADIUS: u64 = 48;
/// The hottest cell is "at an armpit" when fabric, an épaulette, an arm and the warps (warp,
/// fray or inner sector: the four regions that meet at an armpit, §3.1) all lie within this
/// many cells of it (two blocks).
pub const ARMPIT_NEAR: u64 = 16;
/// Hottest cells within this Chebyshev distance of each other belong to one cluster.
pub const CLUSTER_GAP: u64 = 8;
/// Columns past the shoulder the skin is followed, the next span only when level 3 has not
/// begun (held for two periods) within the one before: level 3 begins 7826 past the shoulder
/// for every k sampled from 500 on (`docs/skin.md`), later for smaller k.
pub const SKIN_SPANS: [u64; 3] = [8_000, 12_000, 60_000];
/// The smallest value recorded as a hottest cell: boards whose largest value outside the hood
/// is below it are refused (every board of k >= 5 on 3k x 3k has one above it).
pub const HOT_FLOOR: i8 = 1;

/// What to survey.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SurveyOptions {
    /// First k.
    pub from: u32,
    /// Last k (inclusive).
    pub to: u32,
    /// Every `step`-th k from `from`.
    pub step: u32,
    /// The board of game k is `(factor k) x (factor k)`.
    pub factor: u32,
    /// Follow the skin (levels 2 and 3); off, those columns are empty.
    pub skin: bool,
    /// The region labels around the hottest cell and the skin only for every `detail_step`-th
    /// k from `from` (1: every k); the other rows leave those columns empty.
    pub detail_step: u32,
}

impl SurveyOptions {
    /// The k surveyed, ascending.
    pub fn ks(&self) -> Vec<u32> {
        (self.from..=self.to).step_by(self.step.max(1) as usize).collect()
    }
}

/// One row of the survey: the measurements of game k (see `docs/survey.md`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SurveyRow {
    /// The game.
    pub k: u32,
    /// The board's side, `factor k`.
    pub size: u32,
    /// Smallest v outside the hood.
    pub min_v: i64,
    /// Largest v outside the hood.
    pub max_v: i64,
    /// Column of the first cell (row-major) holding `max_v`.
    pub max_x: u64,
    /// Row of that cell.
    pub max_y: u64,
    /// Distinct values of v outside the hood.
    pub states: u32,
    /// Cells outside the hood holding `max_v`.
    pub max_cells: u64,
    /// Clusters of those cells (cells within [`CLUSTER_GAP`] joined; a cell and its mirror
    /// image count apart unless they join).
    pub max_clusters: u32,
    /// Largest Chebyshev distance from the first hottest cell to a hottest cell on its side of
    /// the diagonal (`x >= y`).
    pub max_spread: u64,
    /// The region of the first hottest cell (`palace regions`' labels); `None` where not
    /// computed (`detail_step`).
    pub hot_region: Option<Region>,
    /// The smallest `d` such that fabric, an épaulette, an arm and the warps all have a cell
    /// within Chebyshev distance `d` of the hottest cell; `None` if one of them has none within
    /// [`ARMPIT_RADIUS`].
    pub armpit_dist: Option<u64>,
    /// The prism `(d, d)`: the last diagonal cell of the fabric's run from the nose.
    pub prism: Option<u64>,
    /// Where the skin's level 2 begins, in columns past the shoulder `(k, 0)`.
    pub skin2: Option<u64>,
    /// Where level 3 begins, in columns past the shoulder.
    pub skin3: Option<u64>,
    /// Columns past the shoulder the skin was followed (0: not followed).
    pub skin_span: u64,
}

impl SurveyRow {
    /// Whether the hottest cell is at an armpit (within [`ARMPIT_NEAR`]).
    pub(crate) fn at_armpit(&self) -> bool {
        self.armpit_dist.is_some_and(|d| d <= ARMPIT_NEAR)
    }
}

/// The region names of the CSV.
pub fn region_slug(r: Region) -> &'static str {
    match r {
        Region::Hood => "hood",
        Region::OuterSpace => "outer-space",
        Region::EpauletteUpper => "epaulette-upper",
        Region::EpauletteLower => "epaulette-lower",
        Region::Fabric => "fabric",
        Region::ArmUpper => "arm-upper",
        Region::ArmLower => "arm-lower",
        Region::RiftUpper => "rift-upper",
        Region::RiftLower => "rift-lower",
        Region::Fray => "fray",
        Region::WarpUpper => "warp-upper",
        Region::WarpLower => "warp-lower",
        Region::InnerSector => "inner-sector",
    }
}

/// The CSV's header line (without the line break).
pub const CSV_HEADER: &str = "k,min_v,max_v,max_x,max_y,states,size,max_cells,max_clusters,max_spread,hot_region,armpit_dist,prism,skin2_onset,skin3_onset,skin_span";

/// One CSV line (without the line break).
pub fn csv_line(r: &SurveyRow) -> String {
    let o = |v: Option<u64>| v.map_or(String::new(), |v| v.to_string());
    format!(
        "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
        r.k,
        r.min_v,
        r.max_v,
        r.max_x,
        r.max_y,
        r.states,
        r.size,
        r.max_cells,
        r.max_clusters,
        r.max_spread,
        r.hot_region.map_or("", region_slug),
        o(r.armpit_dist),
        o(r.prism),
        o(r.skin2),
        o(r.skin3),
        r.skin_span
    )
}

/// Writes the header and every row.
pub fn write_csv(rows: &[SurveyRow], out: &mut impl std::io::Write) -> std::io::Result<()> {
    writeln!(out, "{CSV_HEADER}")?;
    for r in rows {
        writeln!(out, "{}", csv_line(r))?;
    }
    Ok(())
}

/// The cells of the 8 x 8 blocks along the main diagonal, of a game whose board is shifted by
/// `(off, off)`: entry `d * BLOCK + j` is the cell `(BLOCK (d / BLOCK) + j + off, d + off)`.
struct DiagonalBand {
    off: u32,
    n: u32,
    cells: Mutex<Vec<i8>>,
}

impl DiagonalBand {
    fn new(off: u32, n: u32) -> Self {
        DiagonalBand { off, n, cells: Mutex::new(vec![0; n as usize * BLOCK]) }
    }

    fn take(&self, t: &TileView<'_>) {
        let (off, n, b) = (self.off, self.n, BLOCK as u32);
        let mut out = None;
        for y in t.y0.max(off)..t.y1 {
            let d = y - off;
            if d >= n {
                break;
            }
            let b0 = d / b * b;
            let (x0, x1) = ((b0 + off).max(t.x0), (b0 + b).min(n).saturating_add(off).min(t.x1));
            for x in x0..x1 {
                let v = match t.kind {
                    TileKind::Zero | TileKind::Hood => 0,
                    TileKind::Cells { buf, origin: (tx, ty) } => buf.at((y - ty) as usize, (x - tx) as usize),
                };
                let out = out.get_or_insert_with(|| self.cells.lock().expect("band lock"));
                out[d as usize * BLOCK + (x - off - b0) as usize] = v;
            }
        }
    }

    fn into_cells(self) -> Vec<i8> {
        self.cells.into_inner().expect("band lock")
    }
}

/// The largest value seen and its cells `(x, y)`.
type Best = (i8, Vec<(u32, u32)>);

/// Every cell outside the hood holding the largest value seen, per worker.
struct Hottest {
    k: u32,
    /// Per worker.
    per: Vec<Mutex<Best>>,
}

impl Hottest {
    fn new(k: u32, workers: usize) -> Self {
        Hottest { k, per: (0..workers.max(1)).map(|_| Mutex::new((i8::MIN, Vec::new()))).collect() }
    }

    fn visit(&self, worker: usize, t: &TileView<'_>) {
        let k = self.k;
        let mut best = self.per[worker].lock().expect("hottest lock");
        best.0 = best.0.max(HOT_FLOOR);
        let see = |v: i8, x: u32, y: u32, best: &mut Best| {
            if v > best.0 {
                *best = (v, vec![(x, y)]);
            } else if v == best.0 {
                best.1.push((x, y));
            }
        };
        match t.kind {
            // Below the floor: nothing to record.
            TileKind::Hood | TileKind::Zero => {}
            TileKind::Cells { buf, origin: (tx, ty) } => {
                let (c0, c1) = ((t.x0 - tx) as usize, (t.x1 - tx) as usize);
                let has_hood = hood_len(k, u64::from(t.y0)) > u64::from(t.x0);
                if !has_hood {
                    // The tile's largest value from its histogram; rows are read only when it
                    // reaches the worker's best.
                    let mut counts = [0u64; 256];
                    let mut runs = Vec::new();
                    buf.for_each_run((t.y0 - ty) as usize, (t.y1 - ty) as usize, c0, c1, |r| runs.push(r));
                    histogram::count_runs(runs.into_iter(), &mut counts);
                    let top = counts.iter().rposition(|&c| c > 0).map_or(i8::MIN, |i| (i as i32 - 128) as i8);
                    if top < best.0 {
                        return;
                    }
                }
                let mut row = vec![0i8; c1 - c0];
                for y in t.y0..t.y1 {
                    buf.copy_row((y - ty) as usize, c0, c1, &mut row);
                    let h = hood_len(k, u64::from(y)).saturating_sub(u64::from(t.x0)) as usize;
                    for (i, &v) in row.iter().enumerate().skip(h) {
                        if v >= best.0 {
                            see(v, t.x0 + i as u32, y, &mut best);
                        }
                    }
                }
            }
        }
    }

    /// The largest value and all its cells, sorted row-major.
    fn finish(self) -> (i8, Vec<(u32, u32)>) {
        let all: Vec<Best> = self.per.into_iter().map(|m| m.into_inner().expect("hottest lock")).collect();
        let top = all.iter().filter(|a| !a.1.is_empty()).map(|a| a.0).max().unwrap_or(i8::MIN);
        let mut cells: Vec<(u32, u32)> = all.into_iter().filter(|a| a.0 == top).flat_map(|a| a.1).collect();
        cells.sort_by_key(|&(x, y)| (y, x));
        (top, cells)
    }
}

struct KVisitor {
    stats: stats::StatsVisitor,
    hottest: Hottest,
    band: DiagonalBand,
}

impl TileVisitor for KVisitor {
    fn visit(&self, worker: usize, tile: &TileView<'_>) {
        self.stats.visit(worker, tile);
        self.hottest.visit(worker, tile);
        self.band.take(tile);
    }
}

impl TileVisitor for DiagonalBand {
    fn visit(&self, _worker: usize, tile: &TileView<'_>) {
        self.take(tile);
    }
}

/// Clusters of `cells` (cells within [`CLUSTER_GAP`] of each other, transitively, joined).
pub fn clusters(cells: &[(u32, u32)]) -> u32 {
    let g = CLUSTER_GAP as u32;
    let mut parent: Vec<usize> = (0..cells.len()).collect();
    fn root(p: &mut [usize], mut i: usize) -> usize {
        while p[i] != i {
            p[i] = p[p[i]];
            i = p[i];
        }
        i
    }
    let mut grid: HashMap<(u32, u32), Vec<usize>> = HashMap::new();
    for (i, &(x, y)) in cells.iter().enumerate() {
        grid.entry((x / g.max(1), y / g.max(1))).or_default().push(i);
    }
    for (i, &(x, y)) in cells.iter().enumerate() {
        let (gx, gy) = (x / g.max(1), y / g.max(1));
        for nx in gx.saturating_sub(1)..=gx + 1 {
            for ny in gy.saturating_sub(1)..=gy + 1 {
                for &j in grid.get(&(nx, ny)).map_or(&[][..], |v| &v[..]) {
                    let (a, b) = cells[j];
                    if x.abs_diff(a) <= g && y.abs_diff(b) <= g {
                        let (ri, rj) = (root(&mut parent, i), root(&mut parent, j));
                        parent[ri] = rj;
                    }
                }
            }
        }
    }
    (0..cells.len()).filter(|&i| root(&mut parent, i) == i).count() as u32
}

/// The prism from the diagonal blocks of game k and of game k+3 shifted by (1, 1): the last
/// diagonal cell of the run, from the nose, of blocks whose cells outside the hood all match
/// (`v_k(x, y) = v_{k+3}(x+1, y+1)`, i.e. `N_{k+3} = N_k + 3`) and are not all equal; a run
/// ends at a gap of more than two blocks — the rule of `palace regions` on the diagonal.
pub(crate) fn prism_of(k: u32, n: u32, band_k: &[i8], band_k3: &[i8]) -> Option<u64> {
    let b = BLOCK as u32;
    let mut prism: Option<u64> = None;
    let mut prev_fabric = false;
    for b0 in (0..n).step_by(BLOCK) {
        let (mut cand, mut all3, mut lo, mut hi) = (0, true, i8::MAX, i8::MIN);
        for y in b0..(b0 + b).min(n) {
            let h = hood_len(k, u64::from(y));
            for x in b0..(b0 + b).min(n) {
                if u64::from(x) < h {
                    continue;
                }
                let i = y as usize * BLOCK + (x - b0) as usize;
                cand += 1;
                (lo, hi) = (lo.min(band_k[i]), hi.max(band_k[i]));
                all3 &= band_k[i] == band_k3[i];
            }
        }
        // A uniform block continues the region before it (as in `palace regions`).
        let fabric = cand > 0 && all3 && (lo != hi || prev_fabric);
        prev_fabric = fabric;
        if !fabric {
            continue;
        }
        for d in b0..(b0 + b).min(n) {
            if u64::from(d) < hood_len(k, u64::from(d)) {
                continue;
            }
            let d = u64::from(d);
            if prism.is_some_and(|p| d - p > 2 * BLOCK as u64) {
                return prism;
            }
            prism = Some(d);
        }
    }
    prism
}

/// The hottest cell's region and armpit distance, from the region labels of the window of
/// [`ARMPIT_RADIUS`] around `(hx, hy)` on the `n x n` board.
fn armpit(k: u32, n: u32, hx: u64, hy: u64, opts: &EngineOptions) -> Result<(Region, Option<u64>)> {
    let r = ARMPIT_RADIUS;
    let b = BLOCK as u64;
    let end = |c: u64| ((c + r + 1).div_ceil(b) * b).min(u64::from(n)) as u32;
    let window = Window::new(hx.saturating_sub(r) as u32, hy.saturating_sub(r) as u32, end(hx), end(hy))?;
    let kinds = |reg: Region| match reg {
        // The rift lies in the part game k+3 reproduces: it counts with the fabric.
        Region::Fabric | Region::RiftUpper | Region::RiftLower => Some(0),
        Region::EpauletteUpper | Region::EpauletteLower => Some(1),
        Region::ArmUpper | Region::ArmLower => Some(2),
        Region::Fray | Region::WarpUpper | Region::WarpLower | Region::InnerSector => Some(3),
        Region::Hood | Region::OuterSpace => None,
    };
    let mut near = [u64::MAX; 4];
    let mut own = Region::InnerSector;
    labels::label_rows(k, window, opts, &Silent, |row| {
        let y = u64::from(row.y);
        for x in window.x0()..window.x1() {
            let reg = row.label(x);
            let x = u64::from(x);
            if (x, y) == (hx, hy) {
                own = reg;
            }
            if let Some(i) = kinds(reg) {
                near[i] = near[i].min(x.abs_diff(hx).max(y.abs_diff(hy)));
            }
        }
        Ok(())
    })?;
    let d = near.iter().copied().max().expect("four kinds");
    Ok((own, (d <= r).then_some(d)))
}

/// Where the skin's levels 2 and 3 begin (columns past the shoulder) and how far it was
/// followed.
fn skin_onsets(
    k: u32,
    opts: &EngineOptions,
    sweeps: &dyn BoardSweeps,
) -> Result<(Option<u64>, Option<u64>, u64)> {
    let mut result = (None, None, 0);
    for span in SKIN_SPANS {
        let rep = sweeps.skin(k, u64::from(k) + span, opts)?;
        let at = |n: usize| rep.levels.iter().find(|l| l.n == n).map(|l| l.begins_at - u64::from(k));
        result = (at(2), at(3), span);
        if result.1.is_some() {
            break;
        }
    }
    Ok(result)
}

/// What the sweeps of game k's board give the survey.
pub(crate) struct Board {
    /// Its statistics.
    pub stats: Stats,
    /// Its largest value outside the hood, if at least [`HOT_FLOOR`] (else `i8::MIN`), and
    /// every cell outside the hood holding it, row-major.
    pub hottest: (i8, Vec<(u32, u32)>),
    /// The cells of its 8 x 8 blocks along the main diagonal, as [`DiagonalBand`] holds them
    /// (hood cells may hold anything).
    pub band: Vec<i8>,
}

/// The sweeps behind a survey row: on the CPU engine ([`CpuSweeps`]) or on a GPU
/// (`crate::backend::gpu`). Each takes the board's engine options for its threads and its cancel.
pub(crate) trait BoardSweeps: Sync {
    /// Game k on the `n x n` board from its corner.
    fn board(&self, k: u32, n: u32, opts: &EngineOptions) -> Result<Board>;
    /// The diagonal blocks of game k + 3 shifted by (1, 1), `m` cells along the diagonal
    /// (entry `d * BLOCK + j` is the cell `(BLOCK (d / BLOCK) + j + 1, d + 1)`).
    fn band_k3(&self, k: u32, m: u32, opts: &EngineOptions) -> Result<Vec<i8>>;
    /// The skin of game k to column `to`.
    fn skin(&self, k: u32, to: u64, opts: &EngineOptions) -> Result<skin::SkinReport>;
}

/// The survey's sweeps on the CPU engine: visitor sweeps and the skin follower.
pub(crate) struct CpuSweeps;

impl BoardSweeps for CpuSweeps {
    fn board(&self, k: u32, n: u32, opts: &EngineOptions) -> Result<Board> {
        let window = Window::new(0, 0, n, n)?;
        let workers = opts.resolved_threads();
        let v = KVisitor {
            stats: stats::StatsVisitor::new(k, workers),
            hottest: Hottest::new(k, workers),
            band: DiagonalBand::new(0, n),
        };
        Sweep::new(k, window).options(opts).tiles(&v)?;
        Ok(Board { stats: v.stats.finish(window), hottest: v.hottest.finish(), band: v.band.into_cells() })
    }

    fn band_k3(&self, k: u32, m: u32, opts: &EngineOptions) -> Result<Vec<i8>> {
        let band3 = DiagonalBand::new(1, m);
        Sweep::new(k + 3, Window::new(1, 1, m + 1, m + 1)?).options(opts).tiles(&band3)?;
        Ok(band3.into_cells())
    }

    fn skin(&self, k: u32, to: u64, opts: &EngineOptions) -> Result<skin::SkinReport> {
        Ok(skin::follow(k, to, opts, &Silent)?.0)
    }
}

/// The survey's row for game `k` on the `(factor k) x (factor k)` board, computed with
/// `opts` (the survey gives each k one worker). `detail`: label the hottest cell's
/// surroundings; `skin`: follow the skin too.
pub fn survey_k(k: u32, factor: u32, detail: bool, skin: bool, opts: &EngineOptions) -> Result<SurveyRow> {
    survey_k_on(k, factor, detail, skin, opts, &CpuSweeps)
}

/// [`survey_k`] with the sweeps of `sweeps`.
pub(crate) fn survey_k_on(
    k: u32,
    factor: u32,
    detail: bool,
    skin: bool,
    opts: &EngineOptions,
    sweeps: &dyn BoardSweeps,
) -> Result<SurveyRow> {
    let n = k.checked_mul(factor).filter(|n| (1..crate::model::geometry::MAX_SIDE).contains(n)).ok_or_else(
        || Error::InvalidArgument {
            function: "survey_k",
            argument: "k * factor",
            value: format!("{k} * {factor}"),
            expected: "a board side from 1 to MAX_SIDE - 1 (game k + 3 is swept one cell further)",
        },
    )?;
    let Board { stats: st, hottest: (top, hot), band: band_k } = sweeps.board(k, n, opts)?;
    let (Some(min), Some(max)) = (st.rest.min, st.rest.max) else {
        return Err(Error::Analysis(format!("the {n} x {n} board of k = {k} has no cell outside the hood")));
    };
    if max.v < i64::from(HOT_FLOOR) || i64::from(top) != max.v {
        return Err(Error::Analysis(format!(
            "the largest value of the {n} x {n} board of k = {k} outside the hood is {}; the survey needs at least {HOT_FLOOR}",
            max.v
        )));
    }
    // Game k+3 along the diagonal up to 2k first (the prism lies near 1.6k); the whole board
    // when the fabric's run reaches that far.
    let mut prism = None;
    for m in [n.min(2 * k + 4 * BLOCK as u32), n] {
        prism = prism_of(k, m, &band_k[..m as usize * BLOCK], &sweeps.band_k3(k, m, opts)?);
        if m == n || prism.is_some_and(|d| d + 3 * BLOCK as u64 <= u64::from(m)) {
            break;
        }
    }
    let (hx, hy) = (max.x, max.y);
    let spread = hot
        .iter()
        .filter(|&&(x, y)| x >= y)
        .map(|&(x, y)| u64::from(x).abs_diff(hx).max(u64::from(y).abs_diff(hy)))
        .max()
        .unwrap_or(0);
    let (hot_region, armpit_dist) = if detail {
        let (r, d) = armpit(k, n, hx, hy, opts)?;
        (Some(r), d)
    } else {
        (None, None)
    };
    // Games below skin::MIN_K have no arm, hence no skin: their skin columns stay empty.
    let (skin2, skin3, skin_span) =
        if detail && skin && k >= skin::MIN_K { skin_onsets(k, opts, sweeps)? } else { (None, None, 0) };
    Ok(SurveyRow {
        k,
        size: n,
        min_v: min.v,
        max_v: max.v,
        max_x: hx,
        max_y: hy,
        states: st.histogram.len() as u32,
        max_cells: hot.len() as u64,
        max_clusters: clusters(&hot),
        max_spread: spread,
        hot_region,
        armpit_dist,
        prism,
        skin2,
        skin3,
        skin_span,
    })
}

/// How [`survey`] shares `threads` threads (0: one per core) among `ks` boards: how many boards
/// run at once, and on how many threads each. Few k on many cores get several threads each:
/// the largest k alone would otherwise bound the run.
pub fn boards_at_once(threads: usize, ks: usize) -> (usize, usize) {
    let all = crate::engine::resolve_threads(threads).max(1);
    let boards = all.min(ks).max(1);
    (boards, all / boards)
}

/// Runs the survey on `threads` threads (0: one per core): one k per worker at a time, the
/// largest k first, and when there are more threads than k, each k's sweeps on several of
/// them; `progress` counts the k done. Cancelling `opts.cancel` stops it with
/// [`EngineError::Interrupted`](crate::error::EngineError::Interrupted); a board that fails cancels that token too, to stop the others, and
/// its error is returned. Rows come back in ascending k.
pub fn survey(
    so: &SurveyOptions,
    threads: usize,
    opts: &EngineOptions,
    progress: &dyn Progress,
) -> Result<Vec<SurveyRow>> {
    survey_on(so, threads, opts, progress, &CpuSweeps)
}

/// [`survey`] with the sweeps of `sweeps`.
pub(crate) fn survey_on(
    so: &SurveyOptions,
    threads: usize,
    opts: &EngineOptions,
    progress: &dyn Progress,
    sweeps: &dyn BoardSweeps,
) -> Result<Vec<SurveyRow>> {
    let ks = so.ks();
    progress.set_length(ks.len() as u64);
    let (threads, each) = boards_at_once(threads, ks.len());
    let one = EngineOptions { threads: each, ..opts.clone() };
    // Plain threads taking the next k, the largest first (the costliest): each k's sweeps build
    // their own worker pools, and a rayon worker waiting on another pool would take more of
    // its own pool's work while it waits, nesting boards on its stack.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Mutex<Vec<Result<SurveyRow>>> = Mutex::new(Vec::with_capacity(ks.len()));
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(&k) = ks.len().checked_sub(i + 1).map(|j| &ks[j]) else { break };
                    let r = if one.cancel.is_cancelled() {
                        Err(Error::INTERRUPTED)
                    } else {
                        let detail = (k - so.from).is_multiple_of(so.detail_step.max(1));
                        survey_k_on(k, so.factor, detail, so.skin, &one, sweeps)
                    };
                    let failed = r.is_err();
                    results.lock().expect("survey results").push(r);
                    if failed {
                        one.cancel.cancel();
                        break;
                    }
                    progress.inc(1);
                    progress.message(&format!("k = {k}"));
                }
            });
        }
    });
    let results = results.into_inner().expect("survey results");
    // An interruption is reported as such; any other error first.
    let mut rows = Vec::with_capacity(results.len());
    let mut interrupted = false;
    for r in results {
        match r {
            Ok(row) => rows.push(row),
            Err(e) if e.is_interrupted() => interrupted = true,
            Err(e) => return Err(e),
        }
    }
    if interrupted {
        return Err(Error::INTERRUPTED);
    }
    rows.sort_by_key(|r| r.k);
    Ok(rows)
}

/// What the rows say, in a few numbers (the survey's printed report).
#[derive(Debug, Clone, Serialize)]
pub struct SurveySummary {
    /// Rows.
    pub rows: usize,
    /// Rows with the region labels around the hottest cell (`detail_step`): the armpit
    /// figures count these.
    pub detailed: usize,
    /// First and last k.
    pub k_range: (u32, u32),
    /// The board factor.
    pub factor: u32,
    /// Rows whose hottest cell is at an armpit ([`ARMPIT_NEAR`]).
    pub at_armpit: usize,
    /// The largest k whose hottest cell is not at an armpit.
    pub last_not_at_armpit: Option<u32>,
    /// Rows whose hottest cells form one cluster per armpit (two mirror clusters, or one on
    /// the diagonal).
    pub unique: usize,
    /// The largest k whose hottest cells do not.
    pub last_not_unique: Option<u32>,
    /// The largest k whose hottest cell is not at an armpit or not unique.
    pub last_exception: Option<u32>,
    /// Per range of k (`[lo, hi)`, doubling): the fewest and most states, and the median.
    pub states_by_range: Vec<(u32, u32, u32, u32, u32)>,
    /// The hottest cell's position over k: the mean of max_x / k and max_y / k over the rows
    /// at an armpit.
    pub armpit_at: Option<(f64, f64)>,
    /// The prism's position over k: smallest and largest d / k.
    pub prism_over_k: Option<(f64, f64)>,
    /// The skin's level-2 and level-3 onsets seen (distinct values, with how many rows).
    pub skin2: Vec<(u64, usize)>,
    /// Level 3.
    pub skin3: Vec<(u64, usize)>,
}

/// Whether a row's hottest cells form one cluster per armpit.
pub fn unique(r: &SurveyRow) -> bool {
    r.max_clusters == 2 || (r.max_clusters == 1 && r.max_x == r.max_y)
}

/// Summarises rows (ascending k).
pub fn summarise(rows: &[SurveyRow], factor: u32) -> SurveySummary {
    // The armpit's columns exist only where the labels were computed (`detail_step`).
    let detailed: Vec<&SurveyRow> = rows.iter().filter(|r| r.hot_region.is_some()).collect();
    let last = |f: &dyn Fn(&SurveyRow) -> bool| detailed.iter().filter(|r| !f(r)).map(|r| r.k).max();
    let mut states_by_range = Vec::new();
    if let (Some(a), Some(b)) = (rows.first(), rows.last()) {
        let mut lo = a.k;
        while lo <= b.k {
            let hi = lo.saturating_mul(2).max(lo + 1);
            let mut s: Vec<u32> = rows.iter().filter(|r| (lo..hi).contains(&r.k)).map(|r| r.states).collect();
            if !s.is_empty() {
                s.sort_unstable();
                states_by_range.push((lo, hi, s[0], s[s.len() - 1], s[s.len() / 2]));
            }
            lo = hi;
        }
    }
    let at: Vec<&SurveyRow> = rows.iter().filter(|r| r.at_armpit()).collect();
    let armpit_at = (!at.is_empty()).then(|| {
        let m = |f: &dyn Fn(&SurveyRow) -> f64| at.iter().map(|r| f(r)).sum::<f64>() / at.len() as f64;
        (m(&|r| r.max_x as f64 / f64::from(r.k)), m(&|r| r.max_y as f64 / f64::from(r.k)))
    });
    let ratios: Vec<f64> = rows.iter().filter_map(|r| r.prism.map(|d| d as f64 / f64::from(r.k))).collect();
    let prism_over_k = (!ratios.is_empty()).then(|| {
        (ratios.iter().copied().fold(f64::MAX, f64::min), ratios.iter().copied().fold(0.0, f64::max))
    });
    let tally = |f: &dyn Fn(&SurveyRow) -> Option<u64>| {
        let mut m = std::collections::BTreeMap::new();
        for r in rows {
            if let Some(v) = f(r) {
                *m.entry(v).or_insert(0usize) += 1;
            }
        }
        m.into_iter().collect::<Vec<_>>()
    };
    SurveySummary {
        rows: rows.len(),
        detailed: detailed.len(),
        k_range: (rows.first().map_or(0, |r| r.k), rows.last().map_or(0, |r| r.k)),
        factor,
        at_armpit: at.len(),
        last_not_at_armpit: last(&|r| r.at_armpit()),
        unique: detailed.iter().filter(|r| unique(r)).count(),
        last_not_unique: last(&|r| unique(r)),
        last_exception: last(&|r| r.at_armpit() && unique(r)),
        states_by_range,
        armpit_at,
        prism_over_k,
        skin2: tally(&|r| r.skin2),
        skin3: tally(&|r| r.skin3),
    }
}

impl std::fmt::Display for SurveySummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let o = |v: Option<u32>| v.map_or("none".to_string(), |v| v.to_string());
        writeln!(
            f,
            "survey of k = {}..={} ({} boards, each {} k x {} k)",
            self.k_range.0, self.k_range.1, self.rows, self.factor, self.factor
        )?;
        writeln!(
            f,
            "hottest cell at an armpit (fabric, epaulette, arm and warp, fray or inner sector within {ARMPIT_NEAR} cells): {} of {} labelled; last k not: {}",
            self.at_armpit,
            self.detailed,
            o(self.last_not_at_armpit)
        )?;
        writeln!(
            f,
            "hottest cells in one cluster per armpit: {} of {} labelled; last k not: {}",
            self.unique,
            self.detailed,
            o(self.last_not_unique)
        )?;
        writeln!(f, "last k with either exception: {}", o(self.last_exception))?;
        if let Some((x, y)) = self.armpit_at {
            writeln!(f, "hottest cell at the armpit: mean (max_x, max_y) / k = ({x:.4}, {y:.4})")?;
        }
        if let Some((a, b)) = self.prism_over_k {
            writeln!(f, "prism d / k: {a:.4} to {b:.4}")?;
        }
        writeln!(f, "states (distinct v outside the hood) per range of k: fewest, median, most")?;
        for &(lo, hi, a, b, m) in &self.states_by_range {
            writeln!(f, "  k in [{lo}, {hi}): {a}, {m}, {b}")?;
        }
        let list = |t: &[(u64, usize)]| {
            t.iter().map(|(v, c)| format!("+{v} ({c} k)")).collect::<Vec<_>>().join(", ")
        };
        writeln!(f, "skin level 2 begins at: {}", list(&self.skin2))?;
        writeln!(f, "skin level 3 begins at: {}", list(&self.skin3))?;
        Ok(())
    }
}

/// The survey's picture: one panel each for the values (max_v, min_v, states) against k, the
/// hottest cell's and the prism's positions over k, the armpit distance and the hottest cells'
/// clusters, and the skin's onsets; an RGB PNG.
pub fn plot(rows: &[SurveyRow], out: crate::output::atomic::AtomicOutput) -> Result<()> {
    use plotters::prelude::*;
    let (w, ph, top) = (1400u32, 280u32, 40u32);
    let panels = 4u32;
    let h = top + ph * panels;
    let (k0, k1) = (rows.first().map_or(0, |r| r.k), rows.last().map_or(1, |r| r.k));
    let xr = f64::from(k0)..f64::from(k1.max(k0 + 1));
    let draw = |root: &crate::output::canvas::Area<'_>| -> crate::output::canvas::Drawn {
        root.fill(&WHITE)?;
        let font = crate::output::canvas::font;
        let (title, body) = root.split_vertically(top);
        title.draw(&Text::new(
            format!(
                "palace survey, k = {k0}..{k1}, boards {0} k x {0} k: one dot per k",
                rows.first().map_or(3, |r| r.size / r.k.max(1))
            ),
            (20, 10),
            font(18),
        ))?;
        let areas = body.split_evenly((panels as usize, 1));
        // k on the x axes as whole numbers (not "500.0").
        let whole = |x: &f64| format!("{x:.0}");
        // A panel's chart: its caption above, room for the axes' labels.
        let panel = |i: usize, caption: String, y_labels: u32| {
            let mut b = ChartBuilder::on(&areas[i]);
            b.caption(caption, font(15)).margin(12).x_label_area_size(30).y_label_area_size(y_labels);
            b
        };
        let dot = |c: RGBColor| ShapeStyle::from(&c).filled();
        let (blue, red, green, grey) =
            (RGBColor(40, 70, 200), RGBColor(210, 50, 40), RGBColor(30, 150, 60), RGBColor(120, 120, 120));
        // The axes: k as whole numbers, and `$y` for the y axis's labels.
        macro_rules! mesh {
            ($chart:expr, $($y:tt)*) => {
                $chart
                    .configure_mesh()
                    .x_desc("k")
                    .x_label_formatter(&whole)
                    .$($y)*
                    .label_style(font(12))
                    .axis_desc_style(font(13))
                    .draw()
            };
        }
        macro_rules! legend {
            ($chart:expr) => {
                $chart
                    .configure_series_labels()
                    .position(SeriesLabelPosition::UpperLeft)
                    .label_font(font(13))
                    .background_style(WHITE.mix(0.85))
                    .border_style(BLACK)
                    .draw()
            };
        }
        // 1. Values.
        let vmax = rows.iter().map(|r| r.max_v.max(i64::from(r.states))).max().unwrap_or(1) + 1;
        let vmin = rows.iter().map(|r| r.min_v).min().unwrap_or(0) - 1;
        let mut c =
            panel(0, "values outside the hood: largest v, smallest v, states (distinct v)".into(), 50)
                .build_cartesian_2d(xr.clone(), vmin as f64..vmax as f64)?;
        mesh!(c, y_label_formatter(&whole))?;
        for (name, col, f) in [
            ("states", green, &(|r: &SurveyRow| f64::from(r.states)) as &dyn Fn(&SurveyRow) -> f64),
            ("max v", red, &|r: &SurveyRow| r.max_v as f64),
            ("min v", blue, &|r: &SurveyRow| r.min_v as f64),
        ] {
            c.draw_series(rows.iter().map(|r| Circle::new((f64::from(r.k), f(r)), 2, dot(col))))?
                .label(name)
                .legend(move |(x, y)| Circle::new((x, y), 4, dot(col)));
        }
        legend!(c)?;
        // 2. Positions over k.
        let mut c =
            panel(1, "positions over k: hottest cell max_x / k and max_y / k, prism d / k".into(), 50)
                .build_cartesian_2d(xr.clone(), 0.0..3.0)?;
        mesh!(c, y_label_formatter(&|y: &f64| format!("{y:.1}")))?;
        for (name, col, f) in [
            (
                "max_x / k",
                red,
                &(|r: &SurveyRow| Some(r.max_x as f64 / f64::from(r.k)))
                    as &dyn Fn(&SurveyRow) -> Option<f64>,
            ),
            ("max_y / k", blue, &|r: &SurveyRow| Some(r.max_y as f64 / f64::from(r.k))),
            ("prism / k", green, &|r: &SurveyRow| r.prism.map(|d| d as f64 / f64::from(r.k))),
        ] {
            c.draw_series(
                rows.iter().filter_map(|r| f(r).map(|v| Circle::new((f64::from(r.k), v), 2, dot(col)))),
            )?
            .label(name)
            .legend(move |(x, y)| Circle::new((x, y), 4, dot(col)));
        }
        legend!(c)?;
        // 3. The armpit distance and the clusters.
        let top_d = (ARMPIT_RADIUS + 8) as f64;
        let mut c = panel(2, format!(
                    "armpit distance of the hottest cell (none within {ARMPIT_RADIUS}: drawn at {top_d}; at an armpit: <= {ARMPIT_NEAR}), clusters of hottest cells x 4 (more than {} drawn at {top_d})",
                    top_d as u32 / 4
                ), 50)
            .build_cartesian_2d(xr.clone(), 0.0..top_d + 4.0)?;
        mesh!(c, y_label_formatter(&whole))?;
        c.draw_series(LineSeries::new(
            [(xr.start, ARMPIT_NEAR as f64), (xr.end, ARMPIT_NEAR as f64)],
            ShapeStyle::from(&grey).stroke_width(1),
        ))?;
        c.draw_series(
            rows.iter().filter(|r| r.hot_region.is_some()).map(|r| {
                Circle::new((f64::from(r.k), r.armpit_dist.map_or(top_d, |d| d as f64)), 2, dot(red))
            }),
        )?
        .label("armpit distance")
        .legend(move |(x, y)| Circle::new((x, y), 4, dot(red)));
        c.draw_series(rows.iter().map(|r| {
            Circle::new((f64::from(r.k), (4.0 * f64::from(r.max_clusters)).min(top_d)), 2, dot(blue))
        }))?
        .label("4 x clusters")
        .legend(move |(x, y)| Circle::new((x, y), 4, dot(blue)));
        legend!(c)?;
        // 4. The skin's onsets.
        let smax = rows.iter().filter_map(|r| r.skin3.or(r.skin2)).max().unwrap_or(10) as f64 * 1.1 + 1.0;
        let mut c = panel(
            3,
            "skin: where levels 2 and 3 begin, columns past the shoulder (k, 0), log scale".into(),
            60,
        )
        .build_cartesian_2d(xr.clone(), (10.0..smax.max(100.0)).log_scale())?;
        mesh!(c, y_label_formatter(&whole))?;
        for (name, col, f) in [
            ("level 3", green, &(|r: &SurveyRow| r.skin3) as &dyn Fn(&SurveyRow) -> Option<u64>),
            ("level 2", blue, &|r: &SurveyRow| r.skin2),
        ] {
            c.draw_series(
                rows.iter()
                    .filter_map(|r| f(r).map(|v| Circle::new((f64::from(r.k), v as f64), 2, dot(col)))),
            )?
            .label(name)
            .legend(move |(x, y)| Circle::new((x, y), 4, dot(col)));
        }
        legend!(c)?;
        Ok(())
    };
    crate::output::canvas::plot_png(out, w, h, draw)
}
