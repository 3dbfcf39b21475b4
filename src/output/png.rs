//! PNG pictures of the palace numbers, streamed row by row.
//!
//! [`PngStream`] writes an 8-bit indexed PNG on its own thread, fed through a bounded channel,
//! so encoding overlaps the sweep and memory is bounded by the width. [`Downscale`] turns
//! index rows into `S x S` block rows. [`PngWriter`] is the [`RowSink`] that maps cells to the
//! paper's palette ([`crate::output::palette`]) and feeds the two.
//!
//! Aggregation under `--scale S` ([`Aggregate`]): by default each pixel shows the **mean
//! colour** of its block ([`Aggregate::Mean`]): the average of its cells' palette colours,
//! drawn with the nearest colour of a 255-entry palette ([`palette::mean_plte`]: the paper's
//! colours, which a block of one colour keeps, then a 7 x 7 x 5 lattice). Dense regions keep
//! their true shade (the épaulettes, palace density 0.45, a dim olive, not solid yellow) and the
//! blue weft stays as a blue tint. `--aggregate min` shows the **lowest** palette index in the
//! block instead: indices are ordered hood < deepest palace < ... < yellow palace < black <
//! blue < indigo < violet, so a block containing any palace is drawn as a palace — the
//! one-cell-wide threads of P-positions (paper §3.1–3.2) stay visible at any scale, at the
//! price of saturating dense regions. `--aggregate max` shows the highest index (hot spots such
//! as the armpits).

use crate::engine::sink::{Row, RowParts, RowSink};
use crate::error::{Error, Result};
use crate::model::geometry::Window;
use crate::output::atomic::AtomicOutput;
use crate::output::legend::{self, Key, StripBelow};
use crate::output::palette;
use std::io::BufWriter;
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread::JoinHandle;

/// How `--scale S` combines an `S x S` block into one pixel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Aggregate {
    /// The block's mean colour (its cells' palette colours averaged, then the nearest colour of
    /// [`palette::mean_plte`]): what the full-resolution picture looks like from afar.
    #[default]
    Mean,
    /// The lowest palette index in the block: any hood cell, else the most palace-like cell.
    /// Thin palace threads stay visible; dense regions look saturated.
    Min,
    /// The highest palette index in the block: shows the hottest (highest palace number) cell.
    Max,
}

/// Bytes of image rows collected before they are handed to the encoder thread.
const BATCH_BYTES: usize = 1 << 20;

/// Pictures larger than this many pixels are compressed in parallel (see [`PngStream`]);
/// smaller ones by the `png` crate with its best settings.
pub const PARALLEL_PIXELS: u64 = 1 << 24;

/// An 8-bit indexed PNG written row by row on background threads.
///
/// Small pictures go through the `png` crate (adaptive filters, best compression). Large ones,
/// whose encoding would otherwise take far longer than the sweep, are written with 4 bits per
/// pixel (at most 16 colours) and cut into batches of rows that several threads deflate
/// independently ([`crate::output::deflate`]), each ending with a sync flush so the pieces join into
/// one zlib stream; a writer puts them into IDAT chunks in order and combines their Adler-32
/// checksums (see [`crate::output::pngpar`]). Rows arrive either as palette indices
/// ([`PngStream::push_row`]) or, on the 4-bit path, as the engine's cells in pieces, mapped and
/// packed in one pass ([`PngStream::push_parts`]).
pub struct PngStream {
    width: usize,
    height: usize,
    rows: usize,
    /// Whether rows carry their filter byte here (the parallel path) or the encoder adds it.
    filter_bytes: bool,
    /// Parallel path with at most 16 colours: two pixels per byte (bit depth 4), which halves
    /// what has to be deflated and written.
    pack4: bool,
    batch: Vec<u8>,
    tx: Option<SyncSender<Vec<u8>>>,
    recycle: Receiver<Vec<u8>>,
    thread: Option<JoinHandle<Result<AtomicOutput>>>,
}

impl PngStream {
    /// Starts a `width x height` PNG with the given palette (flat RGB) and text chunks.
    pub fn create(
        out: AtomicOutput,
        width: u32,
        height: u32,
        plte: Vec<u8>,
        text: Vec<(String, String)>,
        threads: usize,
    ) -> Result<Self> {
        let parallel = u64::from(width) * u64::from(height) > PARALLEL_PIXELS;
        Self::create_with(out, width, height, plte, text, parallel, threads)
    }

    /// As [`PngStream::create`], choosing the encoder explicitly. `threads` bounds the
    /// parallel encoder's deflate workers (0: one per core).
    pub fn create_with(
        out: AtomicOutput,
        width: u32,
        height: u32,
        plte: Vec<u8>,
        text: Vec<(String, String)>,
        parallel: bool,
        threads: usize,
    ) -> Result<Self> {
        let workers = crate::engine::resolve_threads(threads);
        let pack4 = parallel && plte.len() <= 16 * 3;
        let depth = if pack4 { 4 } else { 8 };
        let (tx, rx) = sync_channel::<Vec<u8>>(4);
        let (recycle_tx, recycle) = sync_channel::<Vec<u8>>(8);
        let thread = std::thread::Builder::new()
            .name("palace-png".into())
            .spawn(move || {
                if parallel {
                    crate::output::pngpar::encode(
                        out, width, height, depth, &plte, &text, rx, recycle_tx, workers,
                    )
                } else {
                    encode(out, width, height, plte, text, rx, recycle_tx)
                }
            })
            .map_err(|e| Error::io("png encoder thread", e))?;
        Ok(PngStream {
            width: width as usize,
            height: height as usize,
            rows: 0,
            filter_bytes: parallel,
            pack4,
            batch: Vec::with_capacity(BATCH_BYTES + width as usize + 1),
            tx: Some(tx),
            recycle,
            thread: Some(thread),
        })
    }

    /// Appends one row of palette indices.
    pub fn push_row(&mut self, row: &[u8]) -> Result<()> {
        assert_eq!(row.len(), self.width, "PNG row width");
        assert!(self.rows < self.height, "more rows than the PNG holds");
        if self.filter_bytes {
            self.batch.push(0); // filter type None
        }
        if self.pack4 {
            debug_assert!(row.iter().all(|&p| p < 16), "a palette of 16 colours at most");
            // The first pixel in the high nibble; an odd row ends with a 0 nibble.
            let start = self.batch.len();
            self.batch.resize(start + row.len().div_ceil(2), 0);
            pack_nibbles(row, &mut self.batch[start..]);
        } else {
            self.batch.extend_from_slice(row);
        }
        self.rows += 1;
        if self.batch.len() >= BATCH_BYTES {
            self.flush_batch()?;
        }
        Ok(())
    }

    /// Whether [`PngStream::push_parts`] can be used (4-bit rows with filter bytes).
    pub fn takes_parts(&self) -> bool {
        self.pack4 && self.filter_bytes
    }

    /// Appends one row of cells given in pieces, coloured by [`palette::Scheme::Paper`] (the
    /// first `hood` cells hood, the rest by value), mapped and packed in one pass straight
    /// from the pieces. Only where [`PngStream::takes_parts`].
    pub fn push_parts(&mut self, parts: &[&[i8]], hood: usize) -> Result<()> {
        assert!(self.takes_parts(), "rows in pieces need the 4-bit parallel encoder");
        assert!(self.rows < self.height, "more rows than the PNG holds");
        self.batch.push(0); // filter type None
        let start = self.batch.len();
        self.batch.resize(start + self.width.div_ceil(2), 0);
        let out = &mut self.batch[start..];
        let mut pos = 0usize;
        for part in parts {
            let mut cells = *part;
            if pos % 2 == 1
                && let Some((&first, rest)) = cells.split_first()
            {
                // The low nibble of the byte the previous piece ended in.
                out[pos / 2] |= palette::index(first);
                cells = rest;
                pos += 1;
            }
            pack_cells(cells, &mut out[pos / 2..(pos + cells.len()).div_ceil(2)]);
            pos += cells.len();
        }
        assert_eq!(pos, self.width, "PNG row width");
        // Hood cells take index 0 whatever their stored stand-in.
        debug_assert_eq!(palette::HOOD, 0);
        let hood = hood.min(self.width);
        out[..hood / 2].fill(0);
        if hood % 2 == 1 {
            out[hood / 2] &= 0x0f;
        }
        self.rows += 1;
        if self.batch.len() >= BATCH_BYTES {
            self.flush_batch()?;
        }
        Ok(())
    }

    fn flush_batch(&mut self) -> Result<()> {
        if self.batch.is_empty() {
            return Ok(());
        }
        let mut next =
            self.recycle.try_recv().unwrap_or_else(|_| Vec::with_capacity(BATCH_BYTES + self.width + 1));
        next.clear();
        let full = std::mem::replace(&mut self.batch, next);
        let sent = self.tx.as_ref().expect("stream open").send(full);
        if sent.is_err() {
            // The encoder stopped: report its error.
            return Err(self.join().err().unwrap_or(Error::Aborted));
        }
        Ok(())
    }

    fn join(&mut self) -> Result<AtomicOutput> {
        self.tx = None;
        self.thread.take().expect("joined once").join().expect("PNG encoder panicked")
    }

    /// Finishes the PNG and renames it into place.
    pub fn finish(self) -> Result<PathBuf> {
        self.finish_file()?.commit()
    }

    /// Finishes the PNG and hands back its output uncommitted (a scratch file to read back,
    /// see [`AtomicOutput::scratch`]).
    pub fn finish_file(mut self) -> Result<AtomicOutput> {
        assert_eq!(self.rows, self.height, "PNG finished before all its rows were written");
        self.flush_batch()?;
        self.join()
    }
}

fn encode(
    mut out: AtomicOutput,
    width: u32,
    height: u32,
    plte: Vec<u8>,
    text: Vec<(String, String)>,
    rx: Receiver<Vec<u8>>,
    recycle: SyncSender<Vec<u8>>,
) -> Result<AtomicOutput> {
    let path = out.path().to_path_buf();
    let png_err = |e: png::EncodingError| Error::Png { path: path.clone(), source: e };
    {
        let file = BufWriter::with_capacity(1 << 20, out.file());
        let mut enc = png::Encoder::new(file, width, height);
        enc.set_color(png::ColorType::Indexed);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_palette(plte);
        // Large pictures favour speed; small ones (up to 16 M pixels: maps, windows, figures
        // that are committed) are worth compressing well.
        let small = u64::from(width) * u64::from(height) <= 1 << 24;
        enc.set_compression(if small { png::Compression::High } else { png::Compression::Fast });
        enc.set_filter(if small { png::Filter::Adaptive } else { png::Filter::NoFilter });
        for (k, v) in text {
            enc.add_text_chunk(k, v).map_err(png_err)?;
        }
        let mut writer = enc.write_header().map_err(png_err)?;
        {
            let mut stream = writer.stream_writer_with_size(1 << 20).map_err(png_err)?;
            for mut batch in rx {
                std::io::Write::write_all(&mut stream, &batch).map_err(|e| Error::io(&path, e))?;
                batch.clear();
                let _ = recycle.try_send(batch);
            }
            stream.finish().map_err(png_err)?;
        }
        writer.finish().map_err(png_err)?;
    }
    Ok(out)
}

impl Drop for PngStream {
    /// A stream dropped unfinished (the sweep failed or was interrupted) closes the encoder's
    /// queue and waits for it, so the encoder thread drops the temporary file (deleting it)
    /// before the process can exit with the thread still holding it.
    fn drop(&mut self) {
        self.tx = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Combines rows of palette indices into `S x S` blocks.
pub struct Downscale {
    scale: usize,
    aggregate: Aggregate,
    in_width: usize,
    acc: Vec<u8>,
    done: Vec<u8>,
    rows_in_acc: usize,
    /// Mean: per output pixel, the sums of its cells' red, green and blue, and whether its
    /// cells differ (`acc` then holds the first cell's index).
    sums: Vec<[u64; 3]>,
    mixed: Vec<bool>,
}

impl Aggregate {
    /// The palette of pictures reduced this way: [`palette::mean_plte`] for [`Aggregate::Mean`],
    /// the paper's for the others.
    pub fn plte(self) -> Vec<u8> {
        match self {
            Aggregate::Mean => palette::mean_plte(),
            Aggregate::Min | Aggregate::Max => palette::plte(),
        }
    }

    /// The name `--aggregate` takes.
    pub fn name(self) -> &'static str {
        match self {
            Aggregate::Mean => "mean",
            Aggregate::Min => "min",
            Aggregate::Max => "max",
        }
    }
}

impl Downscale {
    /// Blocks of `scale x scale` over rows `in_width` wide (the last block of a row or of the
    /// picture may be smaller).
    pub fn new(scale: u32, aggregate: Aggregate, in_width: usize) -> Self {
        assert!(scale >= 1);
        let scale = scale as usize;
        let out_w = in_width.div_ceil(scale);
        let acc = vec![Self::neutral(aggregate); out_w];
        let sums = if aggregate == Aggregate::Mean { vec![[0; 3]; out_w] } else { Vec::new() };
        let mixed = vec![false; sums.len()];
        Downscale { scale, aggregate, in_width, done: acc.clone(), acc, rows_in_acc: 0, sums, mixed }
    }

    /// Min, max: the start of the fold. Mean: "no cell yet" (the mean palette has 255 entries);
    /// a block keeps its cells' index while they all share one.
    fn neutral(a: Aggregate) -> u8 {
        match a {
            Aggregate::Min | Aggregate::Mean => u8::MAX,
            Aggregate::Max => u8::MIN,
        }
    }

    /// Adds an input row; returns a finished output row every `scale` rows.
    pub fn push(&mut self, row: &[u8]) -> Option<&[u8]> {
        assert_eq!(row.len(), self.in_width);
        let s = self.scale;
        if s == 2 && self.aggregate != Aggregate::Mean {
            // The pyramid's step (`palace tiles`): pairs, in a form the compiler vectorises.
            self.push_pairs(row);
            self.rows_in_acc += 1;
            return if self.rows_in_acc == s { Some(self.take()) } else { None };
        }
        match self.aggregate {
            Aggregate::Min => {
                for (a, block) in self.acc.iter_mut().zip(row.chunks(s)) {
                    *a = block.iter().fold(*a, |m, &v| m.min(v));
                }
            }
            Aggregate::Max => {
                for (a, block) in self.acc.iter_mut().zip(row.chunks(s)) {
                    *a = block.iter().fold(*a, |m, &v| m.max(v));
                }
            }
            Aggregate::Mean => {
                let rgb = mean_table();
                let out = self.acc.iter_mut().zip(&mut self.sums).zip(&mut self.mixed);
                for (((a, sum), mixed), block) in out.zip(row.chunks(s)) {
                    for &v in block {
                        let c = rgb[v as usize];
                        sum[0] += u64::from(c[0]);
                        sum[1] += u64::from(c[1]);
                        sum[2] += u64::from(c[2]);
                        *mixed |= *a != v && *a != u8::MAX;
                        *a = v;
                    }
                }
            }
        }
        self.rows_in_acc += 1;
        if self.rows_in_acc == s { Some(self.take()) } else { None }
    }

    /// [`Downscale::push`]'s accumulation for blocks of 2: the same result as the general
    /// loop, pair by pair.
    fn push_pairs(&mut self, row: &[u8]) {
        let pairs = row.chunks_exact(2);
        let last = pairs.remainder().first().copied();
        let n = row.len() / 2;
        match self.aggregate {
            Aggregate::Min => {
                for (a, p) in self.acc[..n].iter_mut().zip(pairs) {
                    *a = (*a).min(p[0].min(p[1]));
                }
                if let Some(v) = last {
                    self.acc[n] = self.acc[n].min(v);
                }
            }
            Aggregate::Max => {
                for (a, p) in self.acc[..n].iter_mut().zip(pairs) {
                    *a = (*a).max(p[0].max(p[1]));
                }
                if let Some(v) = last {
                    self.acc[n] = self.acc[n].max(v);
                }
            }
            Aggregate::Mean => unreachable!("blocks of 2 under mean take the general loop"),
        }
    }

    /// The partial last block row, if rows are pending.
    pub fn flush(&mut self) -> Option<&[u8]> {
        if self.rows_in_acc > 0 { Some(self.take()) } else { None }
    }

    fn take(&mut self) -> &[u8] {
        if self.aggregate == Aggregate::Mean {
            let (s, w, rows) = (self.scale, self.in_width, self.rows_in_acc);
            let out = self.acc.iter_mut().zip(&mut self.sums).zip(&mut self.mixed);
            for (i, ((a, sum), mixed)) in out.enumerate() {
                if *mixed {
                    let cells = (rows * (w - i * s).min(s)) as u64;
                    *a = palette::mean_index(*sum, cells);
                }
                (*sum, *mixed) = ([0; 3], false);
            }
        }
        self.rows_in_acc = 0;
        std::mem::swap(&mut self.acc, &mut self.done);
        self.acc.fill(Self::neutral(self.aggregate));
        &self.done
    }
}

/// The RGB of every index of the mean palette, indexed by any byte.
fn mean_table() -> &'static [[u8; 3]; 256] {
    static T: std::sync::OnceLock<[[u8; 3]; 256]> = std::sync::OnceLock::new();
    T.get_or_init(|| std::array::from_fn(|i| palette::mean_rgb(i.min(254) as u8)))
}

/// Options of a rendered picture.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PngOptions {
    /// Each `scale x scale` block of cells becomes one pixel.
    pub scale: u32,
    /// How a block is combined.
    pub aggregate: Aggregate,
    /// Each cell becomes `zoom x zoom` pixels (for small boards; with `scale` 1 only).
    pub zoom: u32,
    /// How cells are coloured.
    pub scheme: palette::Scheme,
    /// Most threads the PNG encoder uses (0: one per core).
    pub threads: usize,
    /// A legend strip below the picture: the colour of each value and how a pixel is made
    /// ([`render_key`]). The picture's pixels are kept; a picture narrower than the legend is
    /// padded on the right with white.
    pub legend: bool,
}

impl Default for PngOptions {
    /// Full resolution, the paper's colours.
    fn default() -> Self {
        PngOptions {
            scale: 1,
            aggregate: Aggregate::Mean,
            zoom: 1,
            scheme: palette::Scheme::Paper,
            threads: 0,
            legend: false,
        }
    }
}

/// The picture size for a window under `scale`.
pub fn picture_size(window: Window, scale: u32) -> (u32, u32) {
    (window.width().div_ceil(scale), window.height().div_ceil(scale))
}

/// The legend of a rendered picture: a swatch for each colour of `opts.scheme`, titled with
/// the game.
pub fn render_key(k: u32, opts: &PngOptions) -> Key {
    let names = match opts.scheme {
        palette::Scheme::Paper => palette::NAMES,
        palette::Scheme::Values => {
            ["v <= -5", "v = -4", "v = -3", "v = -2", "v = -1", "v = 0", "v = 1", "v = 2", "v >= 3"]
        }
    };
    Key {
        title: format!("k = {k}, palace number N = k + v"),
        entries: names.iter().enumerate().map(|(i, n)| (i as u8, (*n).to_string())).collect(),
        points: Vec::new(),
    }
}

/// How a rendered picture's pixels and cells relate, for its legend's title.
fn pixels_text(opts: &PngOptions) -> String {
    let how = match opts.aggregate {
        _ if opts.scale == 1 => "",
        Aggregate::Mean => ", the mean colour of its cells",
        Aggregate::Min => ", its cells' lowest colour (min)",
        Aggregate::Max => ", its cells' highest colour (max)",
    };
    if opts.scale == 1 && opts.zoom > 1 {
        format!("{0} x {0} pixels a cell", opts.zoom)
    } else {
        format!("{}{how}", legend::cells_text(opts.scale))
    }
}

/// The [`RowSink`] that draws the palace numbers with the paper's palette.
pub struct PngWriter {
    stream: PngStream,
    /// The file's width and height in pixels (the picture and its legend).
    size: (u32, u32),
    /// The legend strip written after the picture's rows, if any.
    strip: StripBelow,
    scale: Option<Downscale>,
    indices: Vec<u8>,
    zoom: usize,
    zoomed: Vec<u8>,
    scheme: palette::Scheme,
}

impl PngWriter {
    /// Starts the picture of `window` of game `k`, to be written to `out`.
    pub fn create(out: AtomicOutput, k: u32, window: Window, opts: PngOptions) -> Result<Self> {
        let (w, h) = picture_size(window, opts.scale);
        let (w, h) = (w * opts.zoom, h * opts.zoom);
        // (The legend strip adds a few percent at most: the picture decides.)
        let parallel = u64::from(w) * u64::from(h) > PARALLEL_PIXELS;
        Self::create_with(out, k, window, opts, parallel)
    }

    /// As [`PngWriter::create`], choosing the encoder explicitly (see [`PngStream`]).
    pub fn create_with(
        out: AtomicOutput,
        k: u32,
        window: Window,
        opts: PngOptions,
        parallel: bool,
    ) -> Result<Self> {
        let (w, h) = picture_size(window, opts.scale);
        let (w, h) = (w * opts.zoom, h * opts.zoom);
        let text = vec![
            ("Software".to_string(), format!("palace {}", env!("CARGO_PKG_VERSION"))),
            (
                "Comment".to_string(),
                format!(
                    "blocking-queen CA, k = {k}, window {window}, scale {} ({} aggregation)",
                    opts.scale,
                    opts.aggregate.name()
                ),
            ),
        ];
        let mut text = text;
        let plte = if opts.scale > 1 { opts.aggregate.plte() } else { palette::plte() };
        let lay = opts.legend.then(|| {
            legend::layout_sized(
                &render_key(k, &opts),
                &plte,
                (w, h),
                &pixels_text(&opts),
                window,
                opts.scale,
            )
        });
        let (strip, (w, h), plte) = StripBelow::new(lay, (w, h), plte, &mut text);
        let stream = PngStream::create_with(out, w, h, plte, text, parallel, opts.threads)?;
        let scale =
            (opts.scale > 1).then(|| Downscale::new(opts.scale, opts.aggregate, window.width() as usize));
        Ok(PngWriter {
            stream,
            size: (w, h),
            strip,
            scale,
            indices: vec![0; window.width() as usize],
            zoom: opts.zoom as usize,
            zoomed: Vec::new(),
            scheme: opts.scheme,
        })
    }

    /// The file's width and height in pixels: the picture's, and with a legend the strip's
    /// rows below it (and its width, where the legend is wider).
    pub fn size(&self) -> (u32, u32) {
        self.size
    }

    /// Writes the last partial block row, if any, and renames the picture into place.
    pub fn finish(mut self) -> Result<PathBuf> {
        if let Some(s) = &mut self.scale
            && let Some(r) = s.flush()
        {
            self.strip.push_row(&mut self.stream, r)?;
        }
        self.strip.finish(&mut self.stream)?;
        self.stream.finish()
    }
}

impl RowSink for PngWriter {
    fn takes_parts(&self) -> bool {
        self.stream.takes_parts()
            && !self.strip.pads()
            && self.scale.is_none()
            && self.zoom == 1
            && self.scheme == palette::Scheme::Paper
    }

    fn row_parts(&mut self, row: &RowParts<'_>) -> Result<()> {
        // The engine asks only when `takes_parts` said yes: full resolution, paper colours.
        assert!(self.takes_parts(), "rows in pieces at full resolution with the paper's colours only");
        self.stream.push_parts(row.parts, row.hood_cells())
    }

    fn row(&mut self, row: &Row<'_>) -> Result<()> {
        match self.scheme {
            palette::Scheme::Paper => palette::indices(row.cells, row.hood_cells(), &mut self.indices),
            palette::Scheme::Values => {
                // The stored hood stand-in is clamped at -128 but keeps v <= -5 exactly where
                // the exact value is.
                for (o, &v) in self.indices.iter_mut().zip(row.cells) {
                    *o = palette::value_index(v);
                }
            }
        }
        if self.zoom > 1 {
            self.zoomed.clear();
            for &i in &self.indices {
                self.zoomed.extend(std::iter::repeat_n(i, self.zoom));
            }
            for _ in 0..self.zoom {
                self.strip.push_row(&mut self.stream, &self.zoomed)?;
            }
            return Ok(());
        }
        match &mut self.scale {
            None => self.strip.push_row(&mut self.stream, &self.indices),
            Some(s) => match s.push(&self.indices) {
                Some(r) => self.strip.push_row(&mut self.stream, r),
                None => Ok(()),
            },
        }
    }
}

/// Packs palette indices below 16 two per byte, the first in the high nibble (an odd count
/// ends with a 0 nibble).
pub fn pack_nibbles(row: &[u8], out: &mut [u8]) {
    pack::<false>(row, out);
}

/// [`pack_nibbles`] of the palette indices of cells outside the hood ([`palette::index`]),
/// in one pass: 32 cells to 16 bytes with SSE2.
pub fn pack_cells(cells: &[i8], out: &mut [u8]) {
    // SAFETY: `i8` and `u8` have the same size and alignment, and every bit pattern is valid.
    let bytes = unsafe { std::slice::from_raw_parts(cells.as_ptr().cast::<u8>(), cells.len()) };
    pack::<true>(bytes, out);
}

/// Packs `src` two per byte, the first in the high nibble: palette indices as they are, or,
/// with `CELLS`, stored cells (as bytes) mapped by [`palette::index`] on the way.
#[inline(always)]
fn pack<const CELLS: bool>(src: &[u8], out: &mut [u8]) {
    assert_eq!(out.len(), src.len().div_ceil(2));
    let index = |b: u8| if CELLS { palette::index(b as i8) } else { b };
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
    let mut done = 0;
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        // SSE2 (part of x86-64): 32 pixels to 16 bytes. As 16-bit lanes a pair is p0 | p1 << 8;
        // the packed byte is p0 << 4 | p1.
        while done + 32 <= src.len() {
            // SAFETY: SSE2 is always present on x86-64; 32 bytes of src and 16 of out from
            // `done` on are in bounds.
            unsafe {
                let load = |at: usize| {
                    let v = _mm_loadu_si128(src.as_ptr().add(at).cast());
                    if !CELLS {
                        return v;
                    }
                    // Biased by 128, the signed clamp to -4..=3 is an unsigned one to
                    // 124..=131; the index is then the biased value minus 123.
                    let v = _mm_xor_si128(v, _mm_set1_epi8(-128));
                    let clamped =
                        _mm_min_epu8(_mm_max_epu8(v, _mm_set1_epi8(124u8 as i8)), _mm_set1_epi8(131u8 as i8));
                    _mm_sub_epi8(clamped, _mm_set1_epi8(123))
                };
                let low = _mm_set1_epi16(0x00ff);
                let f = |v: __m128i| {
                    _mm_or_si128(_mm_slli_epi16::<4>(_mm_and_si128(v, low)), _mm_srli_epi16::<8>(v))
                };
                let packed = _mm_packus_epi16(f(load(done)), f(load(done + 16)));
                debug_assert!(done / 2 + 16 <= out.len());
                _mm_storeu_si128(out.as_mut_ptr().add(done / 2).cast(), packed);
            }
            done += 32;
        }
    }
    let pairs = src[done..].chunks_exact(2);
    if let [last] = pairs.remainder() {
        out[src.len() / 2] = index(*last) << 4;
    }
    for (o, p) in out[done / 2..].iter_mut().zip(pairs) {
        *o = index(p[0]) << 4 | index(p[1]);
    }
}

/// Palette indices, one per byte, from packed scanlines of `depth` bits per pixel (rows padded
/// to whole bytes, as in PNG): for tests and tools that decode the pictures.
pub fn unpack(data: &[u8], width: usize, depth: u8) -> Vec<u8> {
    let d = usize::from(depth);
    assert!(matches!(d, 1 | 2 | 4 | 8), "bit depth {d}");
    let row_bytes = (width * d).div_ceil(8);
    if row_bytes == 0 {
        return Vec::new();
    }
    let mask = ((1u16 << d) - 1) as u8;
    let mut px = Vec::with_capacity(data.len() / row_bytes * width);
    for row in data.chunks_exact(row_bytes) {
        px.extend((0..width).map(|i| (row[i * d / 8] >> (8 - d - (i * d) % 8)) & mask));
    }
    px
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every picture row `d` gives for the rows of `px` (`w` wide), then what it flushes.
    fn downscale_all(mut d: Downscale, px: &[u8], w: usize) -> Vec<u8> {
        let mut got = Vec::new();
        for row in px.chunks_exact(w) {
            if let Some(r) = d.push(row) {
                got.extend_from_slice(r);
            }
        }
        if let Some(r) = d.flush() {
            got.extend_from_slice(r);
        }
        got
    }

    fn decode(path: &std::path::Path) -> (u32, u32, Vec<u8>, Vec<u8>) {
        let dec = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
        let mut reader = dec.read_info().unwrap();
        let info = reader.info().clone();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let frame = reader.next_frame(&mut buf).unwrap();
        buf.truncate(frame.buffer_size());
        let px = unpack(&buf, info.width as usize, info.bit_depth as u8);
        (info.width, info.height, info.palette.unwrap().to_vec(), px)
    }

    /// Both encoders write the same pixels, including the parallel one over many pieces.
    #[test]
    fn parallel_and_crate_encoders_agree() {
        // Seven 1 MiB batches, so their buffers are recycled; an odd width, so the 4-bit rows of
        // the parallel encoder end with a padding nibble.
        let (w, h) = (2537u32, 2903u32);
        let mut seed = 99u64;
        let mut pixels = Vec::with_capacity((w * h) as usize);
        while pixels.len() < (w * h) as usize {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let run = 1 + (seed % 40) as usize;
            pixels.extend(std::iter::repeat_n((seed >> 20) as u8 % 10, run));
        }
        pixels.truncate((w * h) as usize);
        let dir = tempfile::tempdir().unwrap();
        for parallel in [false, true] {
            let path = dir.path().join(format!("p{parallel}.png"));
            let out = AtomicOutput::create(&path, "-o").unwrap();
            let text = vec![("Comment".to_string(), "test".to_string())];
            let mut s = PngStream::create_with(out, w, h, palette::plte(), text, parallel, 2).unwrap();
            for (i, row) in pixels.chunks_exact(w as usize).enumerate() {
                s.push_row(row).unwrap();
                if i % 400 == 399 {
                    // Let the encoder catch up, so batch buffers come back for reuse.
                    std::thread::sleep(std::time::Duration::from_millis(40));
                }
            }
            s.finish().unwrap();
            let (dw, dh, plte, got) = decode(&path);
            assert_eq!((dw, dh), (w, h));
            assert_eq!(plte, palette::plte());
            assert!(got == pixels, "parallel = {parallel}: pixels differ");
        }
    }

    #[test]
    fn nibbles_pack_and_unpack() {
        for n in [0usize, 1, 2, 31, 32, 33, 63, 64, 65, 100, 1001] {
            let row: Vec<u8> = (0..n).map(|i| ((i * 7 + i / 3) % 16) as u8).collect();
            let mut packed = vec![0xAA; n.div_ceil(2)];
            pack_nibbles(&row, &mut packed);
            let plain: Vec<u8> = row.chunks(2).map(|p| p[0] << 4 | p.get(1).copied().unwrap_or(0)).collect();
            assert_eq!(packed, plain, "n = {n}");
            assert_eq!(unpack(&packed, n, 4), row, "n = {n}");
        }
    }

    #[test]
    fn cells_pack_like_indices() {
        let mut seed = 7u64;
        for n in [0usize, 1, 2, 31, 32, 33, 63, 64, 65, 100, 1001] {
            let cells: Vec<i8> = (0..n)
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    // Every value of i8, and the small ones often.
                    if seed.is_multiple_of(3) { (seed >> 8) as i8 } else { (seed >> 8) as i8 % 6 }
                })
                .collect();
            let mut idx = vec![0u8; n];
            palette::indices(&cells, 0, &mut idx);
            let mut want = vec![0u8; n.div_ceil(2)];
            pack_nibbles(&idx, &mut want);
            let mut got = vec![0xAA; n.div_ceil(2)];
            pack_cells(&cells, &mut got);
            assert_eq!(got, want, "n = {n}");
        }
    }

    /// The engine's rows drawn through the fused path (pieces of tiles mapped and packed
    /// straight into 4-bit scanlines, some starting at odd columns) and through the `png`
    /// crate from assembled rows: the same pixels, and those of the paper's colouring.
    #[test]
    fn pictures_from_pieces_match() {
        use crate::engine::sink::Collect;
        use crate::engine::{EngineOptions, sweep};
        let dir = tempfile::tempdir().unwrap();
        for (k, win, tile_width, threads) in [
            (37u32, Window::new(13, 5, 700, 611), 33u32, 2usize),
            (5, Window::new(0, 0, 301, 300), 64, 1),
            (120, Window::new(101, 77, 555, 580), 47, 3),
        ] {
            let opts = EngineOptions {
                threads,
                tile_width: Some(tile_width),
                band_height: Some(29),
                ..EngineOptions::default()
            };
            let mut c = Collect::default();
            sweep(k, win, &opts, &mut c, &crate::engine::Silent).unwrap();
            // The paper's colouring from the exact values: the hood, else by v.
            let want: Vec<u8> = (win.y0..win.y1)
                .flat_map(|y| (win.x0..win.x1).map(move |x| (x, y)))
                .zip(&c.values)
                .map(|((x, y), &v)| {
                    if crate::model::rule::in_hood(k, u64::from(x), u64::from(y)) {
                        palette::HOOD
                    } else {
                        palette::index(v.clamp(-128, 127) as i8)
                    }
                })
                .collect();
            let mut pictures = Vec::new();
            for parallel in [true, false] {
                let path = dir.path().join(format!("k{k}-{parallel}.png"));
                let out = AtomicOutput::create(&path, "-o").unwrap();
                let mut w = PngWriter::create_with(out, k, win, PngOptions::default(), parallel).unwrap();
                assert_eq!(crate::engine::sink::RowSink::takes_parts(&w), parallel);
                sweep(k, win, &opts, &mut w, &crate::engine::Silent).unwrap();
                w.finish().unwrap();
                pictures.push(decode(&path).3);
            }
            if let Some(i) = (0..want.len()).find(|&i| pictures[0][i] != want[i]) {
                let w = win.width() as usize;
                panic!(
                    "pieces, k = {k}, window {win}: pixel ({}, {}) is {} not {} (assembled: {}); len {} vs {}",
                    i % w,
                    i / w,
                    pictures[0][i],
                    want[i],
                    pictures[1][i],
                    pictures[0].len(),
                    want.len()
                );
            }
            assert!(pictures[1] == want, "assembled rows, k = {k}, window {win}");
        }
    }

    #[test]
    fn downscale_min_keeps_a_thread() {
        // A single palace (index 4) in a 3 x 3 block of black (5) survives min-aggregation.
        let mut d = Downscale::new(3, Aggregate::Min, 7);
        assert!(d.push(&[5, 5, 5, 5, 5, 5, 5]).is_none());
        assert!(d.push(&[5, 4, 5, 5, 5, 5, 8]).is_none());
        assert_eq!(d.push(&[5, 5, 5, 5, 5, 5, 5]).unwrap(), &[4, 5, 5]);
        assert!(d.push(&[6, 6, 6, 6, 6, 6, 7]).is_none());
        assert_eq!(d.flush().unwrap(), &[6, 6, 7]);
        assert!(d.flush().is_none());
        let mut d = Downscale::new(2, Aggregate::Max, 3);
        d.push(&[1, 2, 3]);
        assert_eq!(d.push(&[4, 0, 0]).unwrap(), &[4, 3]);
    }

    /// Blocks of 2 take their own loop; it agrees with the general one (blocks of 2 seen as
    /// the first two columns of blocks of 3 would not, so compare with a direct computation).
    #[test]
    fn downscale_by_two_matches_the_definition() {
        let mut seed = 11u64;
        for (w, h) in [(1usize, 1usize), (2, 3), (7, 5), (64, 9), (101, 4)] {
            let px: Vec<u8> = (0..w * h)
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    (seed % 10) as u8
                })
                .collect();
            for agg in [Aggregate::Min, Aggregate::Max, Aggregate::Mean] {
                let got = downscale_all(Downscale::new(2, agg, w), &px, w);
                let want: Vec<u8> = (0..h.div_ceil(2))
                    .flat_map(|by| (0..w.div_ceil(2)).map(move |bx| (bx, by)))
                    .map(|(bx, by)| {
                        let block = (2 * by..(2 * by + 2).min(h))
                            .flat_map(|y| (2 * bx..(2 * bx + 2).min(w)).map(move |x| (x, y)))
                            .map(|(x, y)| px[y * w + x]);
                        match agg {
                            Aggregate::Min => block.min().unwrap(),
                            Aggregate::Max => block.max().unwrap(),
                            Aggregate::Mean => plain_mean(block.collect()),
                        }
                    })
                    .collect();
                assert_eq!(got, want, "{w} x {h}, {agg:?}");
            }
        }
    }

    /// The mean colour of a block, plainly: one colour keeps its index; otherwise each
    /// channel's average (as a fraction) is rounded to the nearest lattice level.
    fn plain_mean(block: Vec<u8>) -> u8 {
        if block.iter().all(|&i| i == block[0]) {
            return block[0];
        }
        let n = block.len() as f64;
        let levels = palette::MEAN_LEVELS;
        let mut idx = 0u32;
        for (c, l) in levels.into_iter().enumerate() {
            // mean / 255 * (levels - 1), as one correctly rounded division (exact at halves).
            let sum: f64 = block.iter().map(|&i| f64::from(palette::mean_rgb(i)[c])).sum();
            let q = (sum * f64::from(l - 1) / (255.0 * n)).round() as u32;
            idx = idx * l + q;
        }
        palette::MEAN_BASE + idx as u8
    }

    /// The mean reduction against the plain computation, on blocks of 1 to 7 with ragged
    /// edges, from the paper's indices and from lattice colours (the pyramid's upper levels).
    #[test]
    fn downscale_mean_matches_the_plain_mean() {
        let mut seed = 5u64;
        let mut next = |m: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % m
        };
        for (w, h, s) in [(1usize, 1usize, 1usize), (7, 5, 2), (10, 10, 3), (23, 9, 4), (40, 13, 7)] {
            for range in [9u64, 255] {
                let px: Vec<u8> = (0..w * h).map(|_| next(range) as u8).collect();
                let got = downscale_all(Downscale::new(s as u32, Aggregate::Mean, w), &px, w);
                let want: Vec<u8> = (0..h.div_ceil(s))
                    .flat_map(|by| (0..w.div_ceil(s)).map(move |bx| (bx, by)))
                    .map(|(bx, by)| {
                        plain_mean(
                            (s * by..(s * by + s).min(h))
                                .flat_map(|y| (s * bx..(s * bx + s).min(w)).map(move |x| (x, y)))
                                .map(|(x, y)| px[y * w + x])
                                .collect(),
                        )
                    })
                    .collect();
                assert_eq!(got, want, "{w} x {h} by {s}, indices below {range}");
            }
        }
        // Half yellow, half black: the mean (127.5, 119, 0) is the lattice's (128, 128, 0).
        let mut d = Downscale::new(2, Aggregate::Mean, 2);
        d.push(&[4, 5]);
        let got = d.push(&[5, 4]).unwrap()[0];
        assert_eq!(palette::mean_rgb(got), [128, 128, 0]);
        // A uniform block keeps its colour exactly.
        let mut d = Downscale::new(2, Aggregate::Mean, 2);
        d.push(&[6, 6]);
        assert_eq!(d.push(&[6, 6]).unwrap(), &[6]);
    }
}
