//! PNG pictures of the palace numbers, streamed row by row.
//!
//! [`PngStream`] writes an 8-bit indexed PNG on its own thread, fed through a bounded channel,
//! so encoding overlaps the sweep and memory is bounded by the width (it lives in
//! [`crate::output::pngstream`], below the legend, and is re-exported here). [`Downscale`] turns
//! index rows into `S x S` block rows. [`PngWriter`] is the [`RowSink`] that maps cells to the
//! paper's palette ([`crate::output::palette`]) and feeds the two; the same writer made with
//! [`PngWriter::in_memory`] keeps the pixels in a [`Picture`] instead of encoding them, so a
//! picture in memory holds exactly the pixels of the file.
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
use crate::error::Result;
use crate::model::geometry::Window;
use crate::output::atomic::AtomicOutput;
use crate::output::legend::{self, Key, StripBelow};
use crate::output::palette;
pub use crate::output::pngstream::{
    IndexRows, PARALLEL_PIXELS, Picture, PngStream, pack_cells, pack_nibbles, picture_size, unpack,
};
use std::path::PathBuf;

/// Largest picture a render draws and a pyramid holds at its deepest level, in pixels a side
/// (a PNG row and its buffers are held in memory).
pub const MAX_PICTURE_SIDE: u64 = 1 << 20;
/// Largest picture a render draws and a pyramid holds at its deepest level, in pixels (a 4-bit
/// PNG of 2^36 pixels is over 30 GB).
pub const MAX_PICTURE_PIXELS: u64 = 1 << 36;

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
    /// (`render_key`). The picture's pixels are kept; a picture narrower than the legend is
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

/// The legend of a rendered picture: a swatch for each colour of `opts.scheme`, titled with
/// the game.
pub(crate) fn render_key(k: u32, opts: &PngOptions) -> Key {
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

/// The [`RowSink`] that draws the palace numbers with the paper's palette, into a PNG file
/// ([`PngStream`], the default) or into memory ([`Picture`]).
pub struct PngWriter<P = PngStream> {
    stream: P,
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

/// What the file of a picture holds besides its rows: the text chunks, the legend strip,
/// its size in pixels and its palette.
struct Frame {
    text: Vec<(String, String)>,
    strip: StripBelow,
    size: (u32, u32),
    plte: Vec<u8>,
}

/// The frame of the picture of `window` of game `k` drawn with `opts`.
fn layout(k: u32, window: Window, opts: &PngOptions) -> Frame {
    let (w, h) = picture_size(window, opts.scale);
    let (w, h) = (w * opts.zoom, h * opts.zoom);
    let mut text = vec![
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
    let plte = if opts.scale > 1 { opts.aggregate.plte() } else { palette::plte() };
    let lay = opts.legend.then(|| {
        legend::layout_sized(&render_key(k, opts), &plte, (w, h), &pixels_text(opts), window, opts.scale)
    });
    let (strip, size, plte) = StripBelow::new(lay, (w, h), plte, &mut text);
    Frame { text, strip, size, plte }
}

impl<P: IndexRows> PngWriter<P> {
    /// The writer of `window` with `opts` into `stream`, whose size is `size` and whose legend
    /// is `strip`.
    fn with(stream: P, size: (u32, u32), strip: StripBelow, window: Window, opts: PngOptions) -> Self {
        let scale =
            (opts.scale > 1).then(|| Downscale::new(opts.scale, opts.aggregate, window.width() as usize));
        PngWriter {
            stream,
            size,
            strip,
            scale,
            indices: vec![0; window.width() as usize],
            zoom: opts.zoom as usize,
            zoomed: Vec::new(),
            scheme: opts.scheme,
        }
    }

    /// The file's width and height in pixels: the picture's, and with a legend the strip's
    /// rows below it (and its width, where the legend is wider).
    pub fn size(&self) -> (u32, u32) {
        self.size
    }

    /// Writes the last partial block row, if any, and the legend; the rows' destination.
    fn end(mut self) -> Result<P> {
        if let Some(s) = &mut self.scale
            && let Some(r) = s.flush()
        {
            self.strip.push_row(&mut self.stream, r)?;
        }
        self.strip.finish(&mut self.stream)?;
        Ok(self.stream)
    }
}

impl PngWriter<Picture> {
    /// Starts the picture of `window` of game `k` in memory: the pixels, legend included, of
    /// the file [`PngWriter::create`] writes with the same options.
    pub fn in_memory(k: u32, window: Window, opts: PngOptions) -> Self {
        let Frame { strip, size: (w, h), plte, .. } = layout(k, window, &opts);
        Self::with(Picture::new(w, h, plte), (w, h), strip, window, opts)
    }

    /// Writes the last partial block row, if any, and the legend; the picture.
    pub fn finish(self) -> Result<Picture> {
        self.end()
    }
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
    pub(crate) fn create_with(
        out: AtomicOutput,
        k: u32,
        window: Window,
        opts: PngOptions,
        parallel: bool,
    ) -> Result<Self> {
        let Frame { text, strip, size: (w, h), plte } = layout(k, window, &opts);
        let stream = PngStream::create_with(out, w, h, plte, text, parallel, opts.threads)?;
        Ok(Self::with(stream, (w, h), strip, window, opts))
    }

    /// Writes the last partial block row, if any, and renames the picture into place.
    pub fn finish(self) -> Result<PathBuf> {
        self.end()?.finish()
    }
}

impl<P: IndexRows> RowSink for PngWriter<P> {
    type Error = crate::Error;

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
        use crate::engine::{EngineOptions, Sweep};
        let dir = tempfile::tempdir().unwrap();
        for (k, win, tile_width, threads) in [
            (37u32, Window::new(13, 5, 700, 611).unwrap(), 33u32, 2usize),
            (5, Window::new(0, 0, 301, 300).unwrap(), 64, 1),
            (120, Window::new(101, 77, 555, 580).unwrap(), 47, 3),
        ] {
            let opts = EngineOptions {
                threads,
                tile_width: Some(tile_width),
                band_height: Some(29),
                ..EngineOptions::default()
            };
            let mut c = Collect::default();
            Sweep::new(k, win).options(&opts).rows(&mut c).unwrap();
            // The paper's colouring from the exact values: the hood, else by v.
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
            let mut pictures = Vec::new();
            for parallel in [true, false] {
                let path = dir.path().join(format!("k{k}-{parallel}.png"));
                let out = AtomicOutput::create(&path, "-o").unwrap();
                let mut w = PngWriter::create_with(out, k, win, PngOptions::default(), parallel).unwrap();
                assert_eq!(crate::engine::sink::RowSink::takes_parts(&w), parallel);
                Sweep::new(k, win).options(&opts).rows(&mut w).unwrap();
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

    /// A picture drawn in memory holds the pixels and the palette of the file drawn with the
    /// same options: full resolution (the file's rows in pieces), downscaled, zoomed, by value,
    /// with a legend.
    #[test]
    fn pictures_in_memory_are_the_files_pixels() {
        use crate::engine::{EngineOptions, Sweep};
        let dir = tempfile::tempdir().unwrap();
        let engine = EngineOptions { threads: 2, band_height: Some(29), ..EngineOptions::default() };
        let win = Window::new(3, 0, 403, 350).unwrap();
        let plain = PngOptions::default();
        for (i, opts) in [
            plain,
            PngOptions { scale: 7, aggregate: Aggregate::Min, ..plain },
            PngOptions { scale: 5, ..plain },
            PngOptions { zoom: 3, ..plain },
            PngOptions { scheme: palette::Scheme::Values, legend: true, ..plain },
            PngOptions { scale: 3, legend: true, ..plain },
        ]
        .into_iter()
        .enumerate()
        {
            let path = dir.path().join(format!("p{i}.png"));
            let out = AtomicOutput::create(&path, "-o").unwrap();
            // The file through the parallel encoder, so that its rows may come in pieces.
            let mut file = PngWriter::create_with(out, 90, win, opts, true).unwrap();
            Sweep::new(90, win).options(&engine).rows(&mut file).unwrap();
            file.finish().unwrap();
            let mut memory = PngWriter::in_memory(90, win, opts);
            Sweep::new(90, win).options(&engine).rows(&mut memory).unwrap();
            let picture = memory.finish().unwrap();
            let (w, h, plte, px) = decode(&path);
            assert_eq!(picture.size(), (w, h), "{opts:?}");
            assert_eq!(picture.plte(), &plte[..], "{opts:?}");
            assert!(picture.indices() == &px[..], "{opts:?}: pixels differ");
            let rgb = picture.rgb();
            assert_eq!(rgb.len(), 3 * px.len());
            assert_eq!(&rgb[..3], &plte[3 * usize::from(px[0])..][..3]);
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
