//! The 8-bit indexed PNG written row by row on background threads ([`PngStream`]), the same
//! rows kept in memory instead ([`Picture`]; both are [`IndexRows`]), the size of a window's
//! picture ([`picture_size`]) and the packing of palette indices into 4-bit rows. The pictures
//! of the palace numbers ([`crate::output::png`], which re-exports these) and the maps with a
//! legend ([`crate::output::legend`]) both write through it; it imports neither.

use crate::error::{Error, Result};
use crate::model::geometry::Window;
use crate::output::atomic::AtomicOutput;
use crate::output::palette;
use std::io::BufWriter;
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread::JoinHandle;

/// Bytes of image rows collected before they are handed to the encoder thread.
const BATCH_BYTES: usize = 1 << 20;

/// Pictures larger than this many pixels are compressed in parallel (see [`PngStream`]);
/// smaller ones by the `png` crate with its best settings.
pub const PARALLEL_PIXELS: u64 = 1 << 24;

/// Where a picture's rows of palette indices go, top to bottom: a PNG file ([`PngStream`]) or
/// memory ([`Picture`]).
pub trait IndexRows {
    /// Appends one row of palette indices.
    fn push_row(&mut self, row: &[u8]) -> Result<()>;

    /// Whether rows may come as the engine's cells in pieces ([`IndexRows::push_parts`]).
    fn takes_parts(&self) -> bool {
        false
    }

    /// Appends one row of cells given in pieces, coloured by [`palette::Scheme::Paper`] (the
    /// first `hood` cells hood, the rest by value).
    fn push_parts(&mut self, parts: &[&[i8]], hood: usize) -> Result<()> {
        let cells = parts.concat();
        let mut row = vec![0; cells.len()];
        palette::indices(&cells, hood, &mut row);
        self.push_row(&row)
    }
}

impl IndexRows for PngStream {
    fn push_row(&mut self, row: &[u8]) -> Result<()> {
        PngStream::push_row(self, row)
    }

    fn takes_parts(&self) -> bool {
        PngStream::takes_parts(self)
    }

    fn push_parts(&mut self, parts: &[&[i8]], hood: usize) -> Result<()> {
        PngStream::push_parts(self, parts, hood)
    }
}

/// A picture of palette indices held in memory with its palette: the pixels a [`PngStream`]
/// of the same rows encodes, for a caller that wants them rather than a file (the Python
/// package's `render` without a path).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Picture {
    width: usize,
    height: usize,
    plte: Vec<u8>,
    indices: Vec<u8>,
}

impl Picture {
    /// An empty `width x height` picture with the given palette (flat RGB), to be filled row
    /// by row ([`IndexRows::push_row`]).
    pub fn new(width: u32, height: u32, plte: Vec<u8>) -> Self {
        let (width, height) = (width as usize, height as usize);
        Picture { width, height, plte, indices: Vec::with_capacity(width * height) }
    }

    /// Width and height in pixels.
    pub fn size(&self) -> (u32, u32) {
        (self.width as u32, self.height as u32)
    }

    /// The palette indices, row by row.
    pub fn indices(&self) -> &[u8] {
        &self.indices
    }

    /// The palette, three bytes (red, green, blue) an index.
    pub fn plte(&self) -> &[u8] {
        &self.plte
    }

    /// The pixels as RGB, three bytes a pixel, row by row.
    pub fn rgb(&self) -> Vec<u8> {
        assert_eq!(self.indices.len(), self.width * self.height, "a picture with all its rows");
        let mut rgb = Vec::with_capacity(3 * self.indices.len());
        for &i in &self.indices {
            let at = 3 * usize::from(i);
            rgb.extend_from_slice(&self.plte[at..at + 3]);
        }
        rgb
    }
}

impl IndexRows for Picture {
    fn push_row(&mut self, row: &[u8]) -> Result<()> {
        assert_eq!(row.len(), self.width, "picture row width");
        assert!(self.indices.len() < self.width * self.height, "more rows than the picture holds");
        debug_assert!(row.iter().all(|&i| 3 * usize::from(i) < self.plte.len()), "an index in the palette");
        self.indices.extend_from_slice(row);
        Ok(())
    }
}

/// An 8-bit indexed PNG written row by row on background threads.
///
/// Small pictures go through the `png` crate (adaptive filters, best compression). Large ones,
/// whose encoding would otherwise take far longer than the sweep, are written with 4 bits per
/// pixel (at most 16 colours) and cut into batches of rows that several threads deflate
/// independently ([`crate::output::deflate`]), each ending with a sync flush so the pieces join into
/// one zlib stream; a writer puts them into IDAT chunks in order and combines their Adler-32
/// checksums (see [`crate::output::pngpar`]). Rows arrive either as palette indices
/// (`PngStream::push_row`) or, on the 4-bit path, as the engine's cells in pieces, mapped and
/// packed in one pass (`PngStream::push_parts`).
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
    pub(crate) fn create_with(
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
    pub(crate) fn push_row(&mut self, row: &[u8]) -> Result<()> {
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

    /// Whether `PngStream::push_parts` can be used (4-bit rows with filter bytes).
    pub fn takes_parts(&self) -> bool {
        self.pack4 && self.filter_bytes
    }

    /// Appends one row of cells given in pieces, coloured by [`palette::Scheme::Paper`] (the
    /// first `hood` cells hood, the rest by value), mapped and packed in one pass straight
    /// from the pieces. Only where [`PngStream::takes_parts`].
    pub(crate) fn push_parts(&mut self, parts: &[&[i8]], hood: usize) -> Result<()> {
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
            return Err(self.join().err().unwrap_or(Error::Engine(crate::error::EngineError::Aborted)));
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
    pub(crate) fn finish_file(mut self) -> Result<AtomicOutput> {
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

/// The picture size for a window under `scale`.
pub fn picture_size(window: Window, scale: u32) -> (u32, u32) {
    (window.width().div_ceil(scale), window.height().div_ceil(scale))
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
