//! An indexed picture of labels (a map) with a legend strip and point markers, streamed at
//! any size: the generic part of `palace regions`' map (`crate::analysis::region_map` says
//! what its legend lists).
//!
//! Drawn with a legend ([`MapOutput`], the default), the picture gets
//!
//! * **a legend strip below the map**: a title, then a swatch in a palette colour and its
//!   label for every entry of the [`Key`], and a ring with the name and coordinates of every
//!   marked point. The map's pixels are not covered: the strip is appended (and where the map
//!   is narrower than the legend, the map's rows are padded on the right);
//! * **a ring on every point** of the key, centred on the point's pixel (the pixel of its
//!   `scale x scale` block), with the point's name beside it on a white halo (rings are drawn
//!   over names, and no mark covers a point's own pixel). Rings and names are the only map
//!   pixels the legend changes.
//!
//! The points may be known only at the end of the sweep (the armpits and the prism of the
//! region map are), when the map's rows are long written (the map streams, row by row, at any
//! size). So the map is drawn in two passes: the sweep streams it to a scratch PNG beside the
//! output ([`AtomicOutput::scratch`]); at the end the scratch is read back row by row, the
//! markers are drawn into the rows they cross, the legend's rows follow, and the result streams
//! to the output, which appears atomically as before. Memory stays a few rows of the picture
//! plus the legend strip (its text, not its width); the cost is decoding and encoding the
//! picture once more, and the scratch file's disk space until the output is written. Without a
//! legend the bare map is written in one pass.
//!
//! Sizes follow the picture: text is a 64th of its longer side (12 to 128 pixels), rings half
//! that in radius, so a legend stays legible when a large map is viewed whole.

use crate::engine::EngineOptions;
use crate::error::{Error, Result};
use crate::model::geometry::Window;
use crate::output::atomic::AtomicOutput;
use crate::output::canvas::{TextMask, line_height, text_mask};
use crate::output::pngstream::{IndexRows, PngStream, picture_size};
use std::io::{BufReader, Seek, SeekFrom};
use std::path::PathBuf;

/// Where the region map goes, and whether it carries its legend and junction markers.
#[derive(Debug)]
pub struct MapOutput {
    out: AtomicOutput,
    legend: bool,
}

impl MapOutput {
    /// The map to `out`, with the legend and the markers when `legend` holds.
    pub fn new(out: AtomicOutput, legend: bool) -> Self {
        MapOutput { out, legend }
    }
}

impl From<AtomicOutput> for MapOutput {
    /// The map to `out` with its legend and markers.
    fn from(out: AtomicOutput) -> Self {
        MapOutput::new(out, true)
    }
}

/// What a map's legend lists and marks.
#[derive(Debug, Clone, Default)]
pub struct Key {
    /// The first line (the map's scale is added to it).
    pub title: String,
    /// Swatches: a palette index of the map and its label.
    pub entries: Vec<(u8, String)>,
    /// Points to mark: a name and the cell `(x, y)` of the board (inside the map's window).
    pub points: Vec<(String, u64, u64)>,
}

/// What can say what a map's legend lists.
pub trait MapKey {
    /// The legend.
    fn key(&self) -> Key;
}

/// The legend's own colours: ink, paper and two greys for the text's edges.
const INK_RGB: [[u8; 3]; 4] = [[0, 0, 0], [255, 255, 255], [0x55, 0x55, 0x55], [0xaa, 0xaa, 0xaa]];

/// Whether the legend's four colours fit after `plte` in a PNG palette's 256 entries.
fn inks_fit(plte: &[u8]) -> bool {
    plte.len() / 3 + INK_RGB.len() <= 256
}

/// The palette of a map with a legend: the map's `plte`, then the legend's own colours (ink,
/// paper and two greys for the text's edges) where they fit; a full palette (the mean colours
/// of reduced pictures) stays as it is, and the legend draws in its nearest colours.
pub fn palette(plte: &[u8]) -> Vec<u8> {
    let mut p = plte.to_vec();
    if inks_fit(plte) {
        p.extend(INK_RGB.iter().flatten());
    }
    p
}

/// The legend's colours in [`palette`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Inks {
    /// Black: text, outlines.
    pub ink: u8,
    /// White: the strip's background, rings, halos.
    pub paper: u8,
    /// Dark grey: the text's edges.
    pub dark: u8,
    /// Light grey: the text's faintest edges.
    pub light: u8,
}

/// The indices of the legend's colours in [`palette`]: right after the map's palette `plte`,
/// or, where that is full, the entries of `plte` nearest to them.
pub fn inks(plte: &[u8]) -> Inks {
    let at: [u8; 4] = if inks_fit(plte) {
        let n = (plte.len() / 3) as u8;
        [n, n + 1, n + 2, n + 3]
    } else {
        INK_RGB.map(|c| {
            let dist =
                |e: &[u8]| e.iter().zip(c).map(|(&a, b)| (i32::from(a) - i32::from(b)).pow(2)).sum::<i32>();
            plte.chunks_exact(3).enumerate().min_by_key(|(_, e)| dist(e)).map_or(0, |(i, _)| i as u8)
        })
    };
    Inks { ink: at[0], paper: at[1], dark: at[2], light: at[3] }
}

impl Inks {
    /// The colour of text of coverage `c` (0..=255), if any.
    fn of(self, c: u8) -> Option<u8> {
        match c {
            170.. => Some(self.ink),
            100.. => Some(self.dark),
            40.. => Some(self.light),
            _ => None,
        }
    }
}

/// A map being drawn: what [`start`] leaves for [`MapDraft::finish`].
#[derive(Debug)]
pub struct MapDraft {
    /// The output, while the sweep draws into a scratch file (a map with a legend).
    out: Option<AtomicOutput>,
    window: Window,
    scale: u32,
    plte: Vec<u8>,
    text: Vec<(String, String)>,
}

/// Starts the map of `window` at `scale` with palette `plte` (`text`: its PNG text chunks):
/// the stream the sweep writes the map's rows to, and the draft to finish it with.
pub fn start(
    out: MapOutput,
    window: Window,
    scale: u32,
    plte: Vec<u8>,
    text: Vec<(String, String)>,
    threads: usize,
) -> Result<(PngStream, MapDraft)> {
    let (w, h) = picture_size(window, scale);
    if !out.legend {
        let png = PngStream::create(out.out, w, h, plte, text, threads)?;
        return Ok((png, MapDraft { out: None, window, scale, plte: Vec::new(), text: Vec::new() }));
    }
    let scratch = out.out.scratch()?;
    let png = PngStream::create(scratch, w, h, plte.clone(), Vec::new(), threads)?;
    Ok((png, MapDraft { out: Some(out.out), window, scale, plte, text }))
}

impl MapDraft {
    /// Finishes the map from what the sweep wrote (`drawn`, `PngStream::finish_file`):
    /// renames it into place, or with a legend, reads it back and writes the map with `key`'s
    /// legend and markers to the output. Returns the output's path.
    pub fn finish(self, drawn: AtomicOutput, key: &dyn MapKey, opts: &EngineOptions) -> Result<PathBuf> {
        let Some(out) = self.out else { return drawn.commit() };
        let lay = layout(&key.key(), &self.plte, self.window, self.scale);
        let mut text = self.text;
        text.push((
            "Description".to_string(),
            format!(
                "map in rows 0..{} and columns 0..{} (one palette index per label); the legend below it; rings mark the points it lists",
                lay.map.1, lay.map.0
            ),
        ));
        let mut png = PngStream::create(out, lay.width, lay.height, palette(&self.plte), text, opts.threads)?;
        copy_map(drawn, &lay, &mut png, opts)?;
        lay.push_strip(&mut png)?;
        png.finish()
    }
}

/// A picture streamed in one pass with its legend strip below it (where it has a legend): the
/// picture's rows padded on the right with paper where the legend is wider, then the strip
/// after its last row. `render` and `threads -o` draw theirs so; the region maps, whose
/// markers are known only at the end, in two passes ([`MapDraft`]).
#[derive(Debug)]
pub struct StripBelow {
    lay: Option<Layout>,
    /// A row of the legend's width, paper right of the picture's width, where the legend is
    /// wider than the picture (else empty).
    pad: Vec<u8>,
}

impl StripBelow {
    /// For a picture of `size` pixels in palette `plte`, with the legend `lay` or none: the
    /// strip, the file's width and height, and its palette. With a legend, `text` gains a
    /// chunk saying where the picture lies in the file.
    pub fn new(
        lay: Option<Layout>,
        size: (u32, u32),
        plte: Vec<u8>,
        text: &mut Vec<(String, String)>,
    ) -> (Self, (u32, u32), Vec<u8>) {
        let Some(l) = lay else { return (StripBelow { lay: None, pad: Vec::new() }, size, plte) };
        let (w, h) = size;
        text.push((
            "Description".to_string(),
            format!("picture in rows 0..{h} and columns 0..{w}; the legend of its colours below it"),
        ));
        let pad = if l.width > w { vec![l.inks.paper; l.width as usize] } else { Vec::new() };
        let file = (l.width, l.height);
        (StripBelow { lay: Some(l), pad }, file, palette(&plte))
    }

    /// Whether the picture's rows are padded (so they must come as whole rows of indices).
    pub fn pads(&self) -> bool {
        !self.pad.is_empty()
    }

    /// Writes a row of the picture, padded to the legend's width where that is wider.
    pub(crate) fn push_row(&mut self, png: &mut impl IndexRows, row: &[u8]) -> Result<()> {
        if self.pad.len() > row.len() {
            self.pad[..row.len()].copy_from_slice(row);
            png.push_row(&self.pad)
        } else {
            png.push_row(row)
        }
    }

    /// Writes the legend strip, if any, after the picture's last row.
    pub fn finish(&self, png: &mut impl IndexRows) -> Result<()> {
        self.lay.as_ref().map_or(Ok(()), |l| l.push_strip(png))
    }
}

impl Layout {
    /// Writes the legend strip's rows to `png`, below the map's rows: a rule between the map
    /// and the legend, then the title and the entries on paper.
    pub(crate) fn push_strip(&self, png: &mut impl IndexRows) -> Result<()> {
        let mut line = vec![self.inks.paper; self.width as usize];
        for r in 0..self.strip_height {
            line.fill(self.inks.paper);
            if r == 0 {
                line.fill(self.inks.ink);
            } else {
                let row = &self.strip[r * self.strip_width..(r + 1) * self.strip_width];
                line[..self.strip_width].copy_from_slice(row);
            }
            png.push_row(&line)?;
        }
        Ok(())
    }
}

/// Streams the map's rows from the scratch PNG `drawn` to `png`, padded to the picture's width,
/// with the markers drawn in.
fn copy_map(mut drawn: AtomicOutput, lay: &Layout, png: &mut PngStream, opts: &EngineOptions) -> Result<()> {
    let path = drawn.path().to_path_buf();
    let file = drawn.file();
    file.seek(SeekFrom::Start(0)).map_err(|e| Error::io(&path, e))?;
    let dec_err = |e: png::DecodingError| Error::PngDecode { path: path.clone(), source: e };
    let mut reader =
        png::Decoder::new(BufReader::with_capacity(1 << 20, file)).read_info().map_err(dec_err)?;
    let depth = reader.info().bit_depth as u8;
    let (w, h) = (lay.map.0 as usize, lay.map.1 as usize);
    let mut line = vec![lay.inks.paper; lay.width as usize];
    let mut marks = lay.overlay.iter().peekable();
    for y in 0..h {
        if y % 1024 == 0 && opts.cancel.is_cancelled() {
            return Err(Error::INTERRUPTED);
        }
        let row = reader.next_row().map_err(dec_err)?.ok_or_else(|| {
            Error::Analysis(format!("{}: the map's scratch file ended after {y} of {h} rows", path.display()))
        })?;
        unpack_into(row.data(), depth, &mut line[..w]);
        while let Some(&&(my, mx, c)) = marks.peek()
            && my as usize == y
        {
            line[mx as usize] = c;
            marks.next();
        }
        png.push_row(&line)?;
    }
    Ok(())
}

/// Palette indices of a packed PNG row of `depth` bits per pixel into `out`.
fn unpack_into(data: &[u8], depth: u8, out: &mut [u8]) {
    match depth {
        8 => out.copy_from_slice(&data[..out.len()]),
        _ => {
            let d = usize::from(depth);
            let mask = ((1u16 << d) - 1) as u8;
            for (i, o) in out.iter_mut().enumerate() {
                *o = (data[i * d / 8] >> (8 - d - (i * d) % 8)) & mask;
            }
        }
    }
}

/// A rectangle of the picture: left, top, width, height.
pub type Rect = (u32, u32, u32, u32);

/// Where everything goes in a map with a legend.
#[derive(Debug, Clone)]
pub struct Layout {
    /// The map's size, [`picture_size`] of the window and scale.
    pub map: (u32, u32),
    /// The picture's width: the map's, or the legend's where that is wider.
    pub width: u32,
    /// The picture's height: the map's and the legend strip's.
    pub height: u32,
    /// Text size in pixels.
    pub text_px: u32,
    /// The junction rings' outer radius in pixels.
    pub radius: u32,
    /// The legend's colours.
    pub inks: Inks,
    /// Each entry's swatch: its palette index and its square in the picture (inside the
    /// swatch's outline).
    pub swatches: Vec<(u8, Rect)>,
    /// Each point's pixel in the map.
    pub points: Vec<(u32, u32)>,
    /// Marker pixels over the map: `(y, x, index)`, by row then column; later ones win.
    pub overlay: Vec<(u32, u32, u8)>,
    /// The legend strip's rows, `strip_width` pixels each (the rest of a row is paper).
    strip: Vec<u8>,
    strip_width: usize,
    strip_height: usize,
}

/// Lays out the map of `window` at `scale` (palette `plte`) with `key`'s legend: the legend
/// strip drawn, the markers' pixels listed.
pub fn layout(key: &Key, plte: &[u8], window: Window, scale: u32) -> Layout {
    layout_sized(key, plte, picture_size(window, scale), &cells_text(scale), window, scale)
}

/// How the pixels of a map at `scale` and its cells relate, for the legend's title.
pub(crate) fn cells_text(scale: u32) -> String {
    if scale == 1 { "one pixel per cell".to_string() } else { format!("{scale} x {scale} cells a pixel") }
}

/// [`layout`] for a map of `size` pixels (a picture zoomed or reduced any way), `cells` saying
/// how pixels and cells relate (added to the title); `window` and `scale` place the key's
/// points.
pub(crate) fn layout_sized(
    key: &Key,
    plte: &[u8],
    size: (u32, u32),
    cells: &str,
    window: Window,
    scale: u32,
) -> Layout {
    let inks = inks(plte);
    let (w, h) = size;
    let s = (w.max(h) / 64).clamp(12, 128);
    let lh = line_height(s);
    let pad = (s / 2) as usize;
    let gap = (s / 3) as usize;
    // The entries (a swatch's colour, or a ring), then the points.
    let mut entries: Vec<(Option<u8>, TextMask)> =
        key.entries.iter().map(|(i, label)| (Some(*i), text_mask(label, s))).collect();
    for (name, x, y) in &key.points {
        entries.push((None, text_mask(&format!("{name} ({x}, {y})"), s)));
    }
    // The title, with the map's scale.
    let title = text_mask(&format!("{}, {cells}", key.title), s);
    let icon = lh;
    let text_w = entries.iter().map(|(_, m)| m.width).max().unwrap_or(0);
    let col_w = icon + pad + text_w + 2 * pad;
    let need = (title.width + 2 * pad).max(col_w + 2 * pad);
    let width = (w as usize).max(need);
    let cols = ((width - 2 * pad) / col_w).clamp(1, entries.len().max(1));
    let rows = entries.len().div_ceil(cols);
    let pitch = lh + gap;
    let strip_height = 1 + pad + lh + gap + rows * pitch + pad;
    let strip_width = (cols * col_w + 2 * pad).max(title.width + 2 * pad).min(width);
    let mut strip = vec![inks.paper; strip_width * strip_height];
    let mut put_text = |m: &TextMask, left: usize, top: usize| {
        for y in 0..m.height {
            for x in 0..m.width.min(strip_width.saturating_sub(left)) {
                if let Some(c) = inks.of(m.at(x, y)) {
                    strip[(top + y) * strip_width + left + x] = c;
                }
            }
        }
    };
    put_text(&title, pad, 1 + pad);
    let mut swatches = Vec::new();
    let mut icons: Vec<(usize, usize, Option<u8>)> = Vec::new();
    for (i, (fill, m)) in entries.iter().enumerate() {
        let (left, top) = (pad + (i % cols) * col_w, 1 + pad + lh + gap + (i / cols) * pitch);
        put_text(m, left + icon + pad, top);
        icons.push((left, top, *fill));
        if let Some(c) = fill {
            let (l, t) = (left as u32 + 1, (h as usize + top + 1) as u32);
            swatches.push((*c, (l, t, icon as u32 - 2, icon as u32 - 2)));
        }
    }
    let radius = (s / 2).max(5);
    for (left, top, fill) in icons {
        match fill {
            // A swatch: the entry's colour inside a one-pixel outline.
            Some(c) => {
                for y in 0..icon {
                    for x in 0..icon {
                        let edge = x == 0 || y == 0 || x == icon - 1 || y == icon - 1;
                        strip[(top + y) * strip_width + left + x] = if edge { inks.ink } else { c };
                    }
                }
            }
            // A ring as on the map, on paper.
            None => {
                let c = icon as i64 / 2;
                for (dy, dx, ci) in ring(radius.min((icon as u32 / 2).saturating_sub(1)), inks) {
                    let (x, y) = (left as i64 + c + dx, top as i64 + c + dy);
                    if ci != inks.paper {
                        strip[y as usize * strip_width + x as usize] = ci;
                    }
                }
            }
        }
    }
    // The markers on the map: the names first (each beside its ring: right of it, or left
    // where it would leave the map; on a halo of paper), then the rings over them, so that no
    // name hides a ring; the points' own pixels stay uncovered.
    let mut overlay = Vec::new();
    let halo = (s / 10).max(1) as i64;
    let points: Vec<(u32, u32)> = key
        .points
        .iter()
        .map(|&(_, x, y)| {
            let p = |v: u64, v0: u32| (v.saturating_sub(u64::from(v0)) / u64::from(scale)) as u32;
            (p(x, window.x0()), p(y, window.y0()))
        })
        .collect();
    let mut put = |x: i64, y: i64, c: u8| {
        if (0..i64::from(w)).contains(&x) && (0..i64::from(h)).contains(&y) {
            overlay.push((y as u32, x as u32, c));
        }
    };
    for ((name, _, _), &(px, py)) in key.points.iter().zip(&points) {
        let (px, py) = (i64::from(px), i64::from(py));
        let m = text_mask(name, s);
        let (mw, mh) = (m.width as i64, m.height as i64);
        let off = i64::from(radius) + 2 + halo;
        let left = if px + off + mw <= i64::from(w) || px - off - mw < 0 { px + off } else { px - off - mw };
        let top = (py - mh / 2).clamp(0, (i64::from(h) - mh).max(0));
        let inked = |x: i64, y: i64| x >= 0 && y >= 0 && m.at(x as usize, y as usize) >= 40;
        for y in -halo..mh + halo {
            for x in -halo..mw + halo {
                if !(-halo..=halo).any(|dy| (-halo..=halo).any(|dx| inked(x + dx, y + dy))) {
                    continue;
                }
                let c = if x >= 0 && y >= 0 { inks.of(m.at(x as usize, y as usize)) } else { None };
                put(left + x, top + y, c.unwrap_or(inks.paper));
            }
        }
    }
    let ring_px = ring(radius, inks);
    for &(px, py) in &points {
        for &(dy, dx, c) in &ring_px {
            put(i64::from(px) + dx, i64::from(py) + dy, c);
        }
    }
    overlay.retain(|&(y, x, _)| !points.contains(&(x, y)));
    // By row, then column; a stable sort keeps the later of two marks on one pixel last.
    overlay.sort_by_key(|&(y, x, _)| (y, x));
    Layout {
        map: (w, h),
        width: width as u32,
        height: h + strip_height as u32,
        text_px: s,
        radius,
        inks,
        swatches,
        points,
        overlay,
        strip,
        strip_width,
        strip_height,
    }
}

/// The pixels of a junction ring of outer radius `r` around `(0, 0)`: `(dy, dx, index)`, a
/// white band between two black ones; the centre and the ring's inside stay uncovered.
pub fn ring(r: u32, inks: Inks) -> Vec<(i64, i64, u8)> {
    let r = f64::from(r.max(5));
    let t = (r / 4.0).max(2.0);
    let reach = r.ceil() as i64 + 1;
    let mut px = Vec::new();
    for dy in -reach..=reach {
        for dx in -reach..=reach {
            let d = ((dx * dx + dy * dy) as f64).sqrt();
            let c = if d < r - t - 1.0 || d >= r + 1.0 {
                continue;
            } else if d < r - t || d >= r {
                inks.ink
            } else {
                inks.paper
            };
            px.push((dy, dx, c));
        }
    }
    px
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ring_leaves_its_centre_and_has_both_colours() {
        let inks = inks(&[0; 3 * 9]);
        for r in [5, 8, 20, 64] {
            let px = ring(r, inks);
            assert!(px.iter().all(|&(dy, dx, _)| dx * dx + dy * dy >= 4), "r = {r}: centre covered");
            assert!(px.iter().any(|p| p.2 == inks.paper) && px.iter().any(|p| p.2 == inks.ink));
            // Every pixel within the outer radius along the axes is the white band's or a
            // black edge's.
            assert!(px.contains(&(0, i64::from(r) - 1, inks.paper)), "r = {r}");
        }
    }

    #[test]
    fn inks_follow_the_map_palette() {
        let plte = [7u8; 3 * 9];
        let p = palette(&plte);
        let i = inks(&plte);
        assert_eq!(p.len(), plte.len() + 12);
        assert_eq!(usize::from(i.ink), 9, "right after the map's colours");
        assert_eq!(&p[3 * usize::from(i.ink)..3 * usize::from(i.ink) + 3], &[0, 0, 0]);
        assert_eq!(&p[3 * usize::from(i.paper)..3 * usize::from(i.paper) + 3], &[255, 255, 255]);
        assert!(p.len() / 3 <= 256);
    }

    #[test]
    fn unpack_matches_the_png_helper() {
        let data = [0x12u8, 0x34, 0xa0];
        let mut out = [0u8; 5];
        unpack_into(&data, 4, &mut out);
        assert_eq!(out.to_vec(), crate::output::pngstream::unpack(&data, 5, 4));
        let mut out8 = [0u8; 3];
        unpack_into(&data, 8, &mut out8);
        assert_eq!(out8, data);
    }
}
