//! Deep Zoom (DZI) tile pyramids, for looking at giant boards in a browser (`palace tiles`).
//!
//! [`DziWriter`] is a [`RowSink`]: rows leave the engine in order and go through the pyramid's
//! levels from the deepest (one pixel per cell, the paper's palette) up to the 1 x 1 level 0.
//! Each level above the deepest is the one below reduced 2x with [`Downscale`], the reduction
//! `render --scale` uses (`--aggregate mean` by default: a 2 x 2 block shows its mean colour;
//! `min` shows its lowest palette index, so one-cell palace threads stay visible). Since min
//! and max are associative and the blocks nest, under them level `max - n` equals
//! `render --scale 2^n` of the same window; under mean each level averages the level below's
//! colours, already rounded to the mean palette, so it can differ from `render --scale 2^n` by
//! a lattice step.
//!
//! Memory is bounded by the width: each level keeps one band of `tile_size` rows of its own
//! width (halving level by level: under `2 x tile_size x width` bytes in all, 61 MiB for a
//! 120000-wide board with 256-pixel tiles), and finished tiles wait in a bounded queue for the
//! encoder threads, which compress them to indexed PNGs (4 bits, or 8 under mean) and write them while the sweep
//! goes on (with the deflate encoder made for these pictures, [`crate::output::deflate`]). Tiles
//! of one colour (outer space, the hood) are encoded once per size and reused.
//!
//! The pyramid follows the DZI layout: `board.dzi`, and `board_files/<level>/<col>_<row>.png`,
//! level `L` being `ceil(W / 2^(max - L))` by `ceil(H / 2^(max - L))` pixels with
//! `max = ceil(log2(max(W, H)))`, tiles without overlap. Beside it go `index.html`, a viewer page
//! built on the vendored OpenSeadragon (`src/assets/openseadragon/`), which carries the tile
//! source inline so that it works when opened straight from the file system (see
//! `docs/tiles.md`). The whole folder is written through [`AtomicDir`]: it appears complete or
//! not at all.

use crate::engine::sink::{Row, RowParts, RowSink};
use crate::error::{Error, Result};
use crate::model::geometry::Window;
use crate::output::atomic::AtomicDir;
use crate::output::deflate::PieceEncoder;
use crate::output::palette;
use crate::output::png::{Aggregate, Downscale, pack_nibbles};
use crate::output::pngpar::encode_in_memory;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// The file every pyramid holds; it also marks a folder as an earlier pyramid that a new run
/// may replace.
pub const DZI_NAME: &str = "board.dzi";
/// The folder of the tiles.
pub const FILES_NAME: &str = "board_files";
/// Default tile side in pixels.
pub const DEFAULT_TILE_SIZE: u32 = 256;

/// The viewer page's template (see `docs/tiles.md`).
const PAGE: &str = include_str!("../assets/tiles/index.html");
/// The vendored OpenSeadragon build.
const OPENSEADRAGON_JS: &str = include_str!("../assets/openseadragon/openseadragon.min.js");
/// OpenSeadragon's licence (BSD-3-Clause), copied beside it.
const OPENSEADRAGON_LICENSE: &str = include_str!("../assets/openseadragon/LICENSE.txt");

/// The shape of a pyramid: the picture's size, the tile side, and the levels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pyramid {
    /// Width of the deepest level (the window's width in cells).
    pub width: u32,
    /// Height of the deepest level.
    pub height: u32,
    /// Tile side in pixels.
    pub tile_size: u32,
}

impl Pyramid {
    /// The deepest level's number: `ceil(log2(max(width, height)))` (0 for a single cell).
    pub fn max_level(&self) -> u32 {
        let side = self.width.max(self.height).max(1);
        u32::BITS - (side - 1).leading_zeros()
    }

    /// Width and height of `level` in pixels.
    pub(crate) fn level_size(&self, level: u32) -> (u32, u32) {
        let shift = self.max_level() - level;
        let f = |n: u32| ((u64::from(n) + (1u64 << shift) - 1) >> shift) as u32;
        (f(self.width), f(self.height))
    }

    /// Columns and rows of tiles of `level`.
    pub fn tiles(&self, level: u32) -> (u32, u32) {
        let (w, h) = self.level_size(level);
        (w.div_ceil(self.tile_size), h.div_ceil(self.tile_size))
    }

    #[cfg(test)]
    /// Tiles in all levels.
    pub(crate) fn tile_count(&self) -> u64 {
        (0..=self.max_level())
            .map(|l| {
                let (c, r) = self.tiles(l);
                u64::from(c) * u64::from(r)
            })
            .sum()
    }

    /// The `.dzi` descriptor.
    pub(crate) fn dzi_xml(&self) -> String {
        format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Image xmlns=\"http://schemas.microsoft.com/deepzoom/2008\" TileSize=\"{}\" Overlap=\"0\" Format=\"png\">\n  <Size Width=\"{}\" Height=\"{}\"/>\n</Image>\n",
            self.tile_size, self.width, self.height
        )
    }
}

/// How the pyramid is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TileOptions {
    /// Tile side in pixels.
    pub tile_size: u32,
    /// How each level reduces the one below (as `render --aggregate`).
    pub aggregate: Aggregate,
    /// Encoder threads (0: one per core).
    pub threads: usize,
}

impl Default for TileOptions {
    /// 256-pixel tiles, mean aggregation, one encoder per core.
    fn default() -> Self {
        TileOptions { tile_size: DEFAULT_TILE_SIZE, aggregate: Aggregate::Mean, threads: 0 }
    }
}

/// What a finished pyramid holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct PyramidReport {
    /// Levels (the deepest is `levels - 1`).
    pub levels: u32,
    /// Tiles written.
    pub tiles: u64,
    /// Bytes of all files written (tiles, descriptor, page, viewer).
    pub bytes: u64,
    /// Tiles of one colour, whose encoding was reused.
    pub uniform_tiles: u64,
}

/// One tile to encode and write.
struct Job {
    path: PathBuf,
    width: u32,
    height: u32,
    pixels: Vec<u8>,
}

/// Encoded one-colour tiles by (palette index, width, height).
type UniformTiles = HashMap<(u8, u32, u32), Arc<Vec<u8>>>;

/// What the encoder threads share.
struct Shared {
    tiles: AtomicU64,
    bytes: AtomicU64,
    uniform: AtomicU64,
    /// Encoded one-colour tiles.
    cache: Mutex<UniformTiles>,
    /// The first error of any encoder.
    error: Mutex<Option<Error>>,
    /// The pyramid's reduction, which decides the tiles' palette and depth.
    aggregate: Aggregate,
}

/// One level's band of rows.
struct Level {
    level: u32,
    width: usize,
    height: u32,
    /// Rows received so far.
    rows: u32,
    /// `tile_size` rows of this level, row-major.
    band: Vec<u8>,
    /// Reduction into the level above (none for level 0).
    down: Option<Downscale>,
}

/// The [`RowSink`] that writes a DZI pyramid of a window (see the module documentation).
pub struct DziWriter {
    out: Option<AtomicDir>,
    k: u32,
    window: Window,
    pyramid: Pyramid,
    opts: TileOptions,
    /// Deepest first.
    levels: Vec<Level>,
    reduced: Vec<u8>,
    tx: Option<SyncSender<Job>>,
    workers: Vec<JoinHandle<()>>,
    shared: Arc<Shared>,
}

impl DziWriter {
    /// Starts the pyramid of `window` of game `k`, to be written to the folder `out`.
    pub fn create(out: AtomicDir, k: u32, window: Window, opts: TileOptions) -> Result<Self> {
        assert!(opts.tile_size >= 1, "tile size");
        let pyramid = Pyramid { width: window.width(), height: window.height(), tile_size: opts.tile_size };
        let files = out.dir().join(FILES_NAME);
        let levels: Vec<Level> = (0..=pyramid.max_level())
            .rev()
            .map(|level| {
                let (w, h) = pyramid.level_size(level);
                Level {
                    level,
                    width: w as usize,
                    height: h,
                    rows: 0,
                    band: Vec::with_capacity(w as usize * opts.tile_size as usize),
                    down: (level > 0).then(|| Downscale::new(2, opts.aggregate, w as usize)),
                }
            })
            .collect();
        for l in &levels {
            let d = files.join(l.level.to_string());
            std::fs::create_dir_all(&d).map_err(|e| Error::io(&d, e))?;
        }
        let shared = Arc::new(Shared {
            tiles: AtomicU64::new(0),
            bytes: AtomicU64::new(0),
            uniform: AtomicU64::new(0),
            cache: Mutex::new(HashMap::new()),
            error: Mutex::new(None),
            aggregate: opts.aggregate,
        });
        let n = crate::engine::resolve_threads(opts.threads);
        // A few tiles per encoder in flight: enough to keep them busy, bounded in memory.
        let (tx, rx) = sync_channel::<Job>(4 * n);
        let rx = Arc::new(Mutex::new(rx));
        let mut workers = Vec::with_capacity(n);
        for i in 0..n {
            let (rx, shared) = (rx.clone(), shared.clone());
            let h = std::thread::Builder::new()
                .name(format!("palace-tiles-{i}"))
                .spawn(move || encoder(&rx, &shared))
                .map_err(|e| Error::io("tile encoder thread", e))?;
            workers.push(h);
        }
        Ok(DziWriter {
            out: Some(out),
            k,
            window,
            pyramid,
            opts,
            levels,
            reduced: Vec::new(),
            tx: Some(tx),
            workers,
            shared,
        })
    }

    /// The pyramid's shape.
    pub fn pyramid(&self) -> Pyramid {
        self.pyramid
    }

    /// Adds a row to level `i` of `self.levels` (deepest first) and passes reduced rows on to
    /// the levels above. The deepest level's row is already at the end of its band (written
    /// there by the sink); the others' are in `self.reduced`.
    fn push(&mut self, mut i: usize) -> Result<()> {
        loop {
            let ts = self.opts.tile_size as usize;
            let Level { width, height, rows, band, down, .. } = &mut self.levels[i];
            if i > 0 {
                band.extend_from_slice(&self.reduced);
            }
            let row = &band[band.len() - *width..];
            *rows += 1;
            let last = *rows == *height;
            let mut next = false;
            if let Some(d) = down {
                let mut reduced = d.push(row);
                if last && reduced.is_none() {
                    reduced = d.flush();
                }
                if let Some(r) = reduced {
                    self.reduced.clear();
                    self.reduced.extend_from_slice(r);
                    next = true;
                }
            }
            if last || band.len() == *width * ts {
                self.emit(i)?;
            }
            if !next {
                return Ok(());
            }
            i += 1;
        }
    }

    /// Appends a row of the deepest level to its band, filled by `fill` with palette indices,
    /// and passes it on.
    fn push_deepest(&mut self, fill: impl FnOnce(&mut [u8])) -> Result<()> {
        let l = &mut self.levels[0];
        let start = l.band.len();
        l.band.resize(start + l.width, 0);
        fill(&mut l.band[start..]);
        self.push(0)
    }

    /// Cuts the band of level `i` into tiles and queues them for the encoders.
    fn emit(&mut self, i: usize) -> Result<()> {
        let ts = self.opts.tile_size as usize;
        let files = self.out.as_ref().expect("open").dir().join(FILES_NAME);
        let l = &mut self.levels[i];
        let rows = l.band.len() / l.width.max(1);
        let tile_row = (l.rows as usize - rows) / ts;
        let dir = files.join(l.level.to_string());
        for (col, x0) in (0..l.width).step_by(ts).enumerate() {
            let w = ts.min(l.width - x0);
            let mut pixels = Vec::with_capacity(w * rows);
            for r in 0..rows {
                pixels.extend_from_slice(&l.band[r * l.width + x0..r * l.width + x0 + w]);
            }
            let job = Job {
                path: dir.join(format!("{col}_{tile_row}.png")),
                width: w as u32,
                height: rows as u32,
                pixels,
            };
            let tx = self.tx.as_ref().expect("open");
            if tx.send(job).is_err() {
                return Err(self.failure());
            }
        }
        l.band.clear();
        if let Some(e) = self.shared.error.lock().expect("error slot").take() {
            return Err(e);
        }
        Ok(())
    }

    /// The encoders' error, once they have stopped.
    fn failure(&mut self) -> Error {
        self.join();
        self.shared
            .error
            .lock()
            .expect("error slot")
            .take()
            .unwrap_or(Error::Engine(crate::error::EngineError::Aborted))
    }

    fn join(&mut self) {
        self.tx = None;
        for h in self.workers.drain(..) {
            let _ = h.join();
        }
    }

    /// Waits for the encoders, writes the descriptor, the viewer page and OpenSeadragon, and
    /// renames the folder into place. Returns the folder and what it holds.
    pub fn finish(mut self) -> Result<(PathBuf, PyramidReport)> {
        assert!(
            self.levels.iter().all(|l| l.rows == l.height),
            "pyramid finished before all its rows were written"
        );
        self.join();
        if let Some(e) = self.shared.error.lock().expect("error slot").take() {
            return Err(e);
        }
        let out = self.out.take().expect("open");
        let mut bytes = self.shared.bytes.load(Ordering::Relaxed);
        let page = page(self.k, self.window, self.pyramid, self.opts.aggregate);
        let dzi = self.pyramid.dzi_xml();
        let files: [(&str, &[u8]); 4] = [
            (DZI_NAME, dzi.as_bytes()),
            ("index.html", page.as_bytes()),
            ("openseadragon.min.js", OPENSEADRAGON_JS.as_bytes()),
            ("openseadragon-LICENSE.txt", OPENSEADRAGON_LICENSE.as_bytes()),
        ];
        for (name, data) in files {
            let p = out.dir().join(name);
            std::fs::write(&p, data).map_err(|e| Error::io(out.path().join(name), e))?;
            bytes += data.len() as u64;
        }
        let report = PyramidReport {
            levels: self.pyramid.max_level() + 1,
            tiles: self.shared.tiles.load(Ordering::Relaxed),
            bytes,
            uniform_tiles: self.shared.uniform.load(Ordering::Relaxed),
        };
        Ok((out.commit()?, report))
    }
}

impl Drop for DziWriter {
    /// A pyramid dropped unfinished (the sweep failed or was interrupted) stops its encoders
    /// before the temporary folder is removed, so none writes into it afterwards.
    fn drop(&mut self) {
        self.join();
    }
}

impl RowSink for DziWriter {
    type Error = crate::Error;

    fn row(&mut self, row: &Row<'_>) -> Result<()> {
        self.push_deepest(|out| palette::indices(row.cells, row.hood_cells(), out))
    }

    /// Rows in pieces: the tiles' cells are mapped straight into the band, without first
    /// assembling the row.
    fn takes_parts(&self) -> bool {
        true
    }

    fn row_parts(&mut self, row: &RowParts<'_>) -> Result<()> {
        self.push_deepest(|out| {
            let (mut hood, mut at) = (row.hood_cells(), 0);
            for part in row.parts {
                let h = hood.min(part.len());
                palette::indices(part, h, &mut out[at..at + part.len()]);
                hood -= h;
                at += part.len();
            }
        })
    }
}

/// An encoder thread: takes tiles off the queue until it closes or a tile fails.
fn encoder(rx: &Mutex<Receiver<Job>>, shared: &Shared) {
    let mut encoder = PieceEncoder::default();
    loop {
        let job = match rx.lock().expect("tile queue").recv() {
            Ok(j) => j,
            Err(_) => return,
        };
        if let Err(e) = write_tile(&job, &mut encoder, shared) {
            shared.error.lock().expect("error slot").get_or_insert(e);
            return;
        }
    }
}

fn write_tile(job: &Job, encoder: &mut PieceEncoder, shared: &Shared) -> Result<()> {
    let first = job.pixels.first().copied().unwrap_or(0);
    let data = if job.pixels.iter().all(|&p| p == first) {
        shared.uniform.fetch_add(1, Ordering::Relaxed);
        let key = (first, job.width, job.height);
        let cached = shared.cache.lock().expect("tile cache").get(&key).cloned();
        match cached {
            Some(d) => d,
            None => {
                let d = Arc::new(encode_tile(job, encoder, shared.aggregate));
                shared.cache.lock().expect("tile cache").insert(key, d.clone());
                d
            }
        }
    } else {
        Arc::new(encode_tile(job, encoder, shared.aggregate))
    };
    std::fs::write(&job.path, &*data).map_err(|e| Error::io(&job.path, e))?;
    shared.tiles.fetch_add(1, Ordering::Relaxed);
    shared.bytes.fetch_add(data.len() as u64, Ordering::Relaxed);
    Ok(())
}

/// One tile as an indexed PNG, deflated by the encoder made for these pictures
/// ([`crate::output::deflate`]: runs and matches with the row above): 4 bits a pixel with the
/// paper's palette, or 8 with the mean-colour palette ([`Aggregate::plte`]) when the levels
/// are reduced by their mean colour.
fn encode_tile(job: &Job, encoder: &mut PieceEncoder, aggregate: Aggregate) -> Vec<u8> {
    let w = job.width as usize;
    let depth = if aggregate == Aggregate::Mean { 8 } else { 4 };
    let stride = (w * depth).div_ceil(8) + 1;
    let mut scanlines = vec![0u8; stride * job.height as usize];
    for (src, dst) in job.pixels.chunks_exact(w).zip(scanlines.chunks_exact_mut(stride)) {
        // Filter type None, then the pixels.
        if depth == 4 {
            pack_nibbles(src, &mut dst[1..]);
        } else {
            dst[1..].copy_from_slice(src);
        }
    }
    encode_in_memory(encoder, job.width, job.height, depth as u8, &aggregate.plte(), &scanlines)
}

/// What each palette index means, for the page's legend.
const LEGEND: [&str; palette::LEN - 1] = [
    "hood",
    "v \u{2264} -4 (palace)",
    "v = -3 (palace)",
    "v = -2 (palace)",
    "v = -1 (palace)",
    "v = 0",
    "v = 1",
    "v = 2",
    "v \u{2265} 3",
];

/// The viewer page: the template with the pyramid's description filled in.
fn page(k: u32, window: Window, pyramid: Pyramid, aggregate: Aggregate) -> String {
    let legend: Vec<serde_json::Value> = LEGEND
        .iter()
        .zip(palette::RGB)
        .map(|(label, [r, g, b])| serde_json::json!({ "label": label, "rgb": format!("#{r:02x}{g:02x}{b:02x}") }))
        .collect();
    let config = serde_json::json!({
        "k": k,
        "x0": window.x0(),
        "y0": window.y0(),
        "width": pyramid.width,
        "height": pyramid.height,
        "tileSize": pyramid.tile_size,
        "maxLevel": pyramid.max_level(),
        "aggregate": aggregate.name(),
        "window": window.to_string(),
        "legend": legend,
    });
    let title = format!("palace: k = {k}, {} x {} cells (window {window})", pyramid.width, pyramid.height);
    PAGE.replace("{{TITLE}}", &title)
        .replace("/*{{CONFIG}}*/null", &serde_json::to_string(&config).expect("serialisable"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_halve_rounding_up() {
        let p = Pyramid { width: 1000, height: 300, tile_size: 256 };
        assert_eq!(p.max_level(), 10);
        assert_eq!(p.level_size(10), (1000, 300));
        assert_eq!(p.level_size(9), (500, 150));
        assert_eq!(p.level_size(8), (250, 75));
        assert_eq!(p.level_size(1), (2, 1));
        assert_eq!(p.level_size(0), (1, 1));
        assert_eq!(p.tiles(10), (4, 2));
        assert_eq!(p.tiles(9), (2, 1));
        let one = Pyramid { width: 1, height: 1, tile_size: 256 };
        assert_eq!((one.max_level(), one.tile_count()), (0, 1));
        let p = Pyramid { width: 513, height: 257, tile_size: 256 };
        assert_eq!(p.max_level(), 10);
        assert_eq!(p.level_size(9), (257, 129));
        // Levels 10, 9 have 3 x 2 and 2 x 1 tiles; levels 0 to 8 one each.
        assert_eq!(p.tile_count(), 6 + 2 + 9);
        assert!(p.dzi_xml().contains("<Size Width=\"513\" Height=\"257\"/>"));
    }

    /// Rows in pieces (narrow engine tiles, some starting at odd columns) and assembled rows
    /// give the same deepest level, that of the paper's colouring of the exact values.
    #[test]
    fn pieces_and_rows_draw_the_same_deepest_level() {
        use crate::engine::sink::Collect;
        use crate::engine::{EngineOptions, Sweep};
        let (k, win) = (37u32, Window::new(13, 5, 300, 211).unwrap());
        let opts =
            EngineOptions { threads: 2, tile_width: Some(33), band_height: Some(29), ..Default::default() };
        let mut c = Collect::default();
        Sweep::new(k, win).options(&opts).rows(&mut c).unwrap();
        let want: Vec<u8> = (win.y0()..win.y1())
            .flat_map(|y| (win.x0()..win.x1()).map(move |x| (x, y)))
            .zip(&c.values)
            .map(|((x, y), &v)| {
                if crate::model::rule::in_hood(k, u64::from(x), u64::from(y)) {
                    palette::HOOD
                } else {
                    palette::index(v.clamp(-128, 127) as i8)
                }
            })
            .collect();
        let work = tempfile::tempdir().unwrap();
        for pieces in [true, false] {
            /// Hands the engine's rows over assembled, whatever the writer prefers.
            struct Assembled<'a>(&'a mut DziWriter);
            impl RowSink for Assembled<'_> {
                type Error = crate::Error;

                fn row(&mut self, row: &Row<'_>) -> Result<()> {
                    self.0.row(row)
                }
            }
            let path = work.path().join(format!("p{pieces}"));
            let out = AtomicDir::create(&path, "-o", DZI_NAME).unwrap();
            let opts_t = TileOptions { tile_size: 64, ..TileOptions::default() };
            let mut w = DziWriter::create(out, k, win, opts_t).unwrap();
            if pieces {
                Sweep::new(k, win).options(&opts).rows(&mut w).unwrap();
            } else {
                Sweep::new(k, win).options(&opts).rows(&mut Assembled(&mut w)).unwrap();
            }
            let p = w.pyramid();
            w.finish().unwrap();
            let (cols, rows) = p.tiles(p.max_level());
            let width = p.width as usize;
            let mut got = vec![u8::MAX; width * p.height as usize];
            for r in 0..rows as usize {
                for col in 0..cols as usize {
                    let f =
                        path.join(FILES_NAME).join(p.max_level().to_string()).join(format!("{col}_{r}.png"));
                    let mut reader =
                        png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&f).unwrap()))
                            .read_info()
                            .unwrap();
                    let info = reader.info().clone();
                    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
                    reader.next_frame(&mut buf).unwrap();
                    let px = crate::output::png::unpack(&buf, info.width as usize, info.bit_depth as u8);
                    for (y, line) in px.chunks_exact(info.width as usize).enumerate() {
                        let at = (r * 64 + y) * width + col * 64;
                        got[at..at + line.len()].copy_from_slice(line);
                    }
                }
            }
            assert!(got == want, "pieces = {pieces}: the deepest level differs from the engine's values");
        }
    }

    #[test]
    fn the_page_carries_the_pyramid() {
        let p = Pyramid { width: 513, height: 257, tile_size: 256 };
        let html = page(7, Window::new(0, 0, 513, 257).unwrap(), p, Aggregate::Min);
        assert!(html.contains("\"maxLevel\":10") && html.contains("\"k\":7"));
        assert!(html.contains("<title>palace: k = 7, 513 x 257 cells"));
        assert!(!html.contains("{{"), "every placeholder filled");
    }
}
