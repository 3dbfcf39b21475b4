//! A picture drawn by the sweep's workers tile by tile, in no particular order, and streamed to
//! a [`PngStream`] band by band, in order.
//!
//! Each band of tiles covers a range of the window's rows; a band's picture rows are held until
//! every strip of it has drawn its part and every band above has been written. The workers of a
//! sweep are at most a few bands apart, so only those bands are held: memory grows with the
//! picture's width, not its height.

use crate::error::Result;
use crate::model::geometry::Window;
use crate::output::png::PngStream;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Mutex;

/// The picture of `window`, one pixel per `scale x scale` cells (each block's top-left cell).
pub struct OrderedPicture {
    window: Window,
    scale: u32,
    width: usize,
    inner: Mutex<Inner>,
}

struct Inner {
    png: Option<PngStream>,
    /// The next band to write.
    next: usize,
    /// Bands drawn in part or whole: their picture rows and how many strips are in.
    held: BTreeMap<usize, (Vec<u8>, usize)>,
    error: Option<crate::error::Error>,
}

impl OrderedPicture {
    /// A picture of `window` at `scale` written to `png` (whose size must be
    /// [`crate::output::png::picture_size`] of them).
    pub fn new(png: PngStream, window: Window, scale: u32) -> Self {
        let width = window.width().div_ceil(scale) as usize;
        let inner = Inner { png: Some(png), next: 0, held: BTreeMap::new(), error: None };
        OrderedPicture { window, scale, width, inner: Mutex::new(inner) }
    }

    /// The window's rows in `ya..yb` that have a picture row: `y0, y0 + scale, ...`.
    fn rows(&self, ya: u32, yb: u32) -> impl Iterator<Item = u32> + use<> {
        let (w, s) = (self.window, self.scale);
        let first = w.y0() + (ya.max(w.y0()) - w.y0()).next_multiple_of(s);
        (first..yb.min(w.y1())).step_by(s as usize)
    }

    /// The window's columns `xa..xb` with a pixel, as (column, pixel).
    pub fn columns(&self, xa: u32, xb: u32) -> impl Iterator<Item = (u32, usize)> + use<> {
        let (w, s) = (self.window, self.scale);
        let first = w.x0() + (xa.max(w.x0()) - w.x0()).next_multiple_of(s);
        (first..xb.min(w.x1())).step_by(s as usize).map(move |x| (x, ((x - w.x0()) / s) as usize))
    }

    /// Tile `strip` of band `band` (of `strips`), covering rows `ya..yb` and columns `xa..xb`,
    /// draws its pixels: `pixel(x, y)` for every picture cell in it. Bands complete in order
    /// are written out.
    #[allow(clippy::too_many_arguments)]
    pub fn draw(
        &self,
        band: usize,
        strips: usize,
        (xa, xb): (u32, u32),
        (ya, yb): (u32, u32),
        mut pixel: impl FnMut(u32, u32) -> u8,
    ) {
        let rows: Vec<u32> = self.rows(ya, yb).collect();
        let cols: Vec<(u32, usize)> = self.columns(xa, xb).collect();
        // Drawn outside the lock into a small buffer, then copied in.
        let mut part = Vec::with_capacity(rows.len() * cols.len());
        for &y in &rows {
            part.extend(cols.iter().map(|&(x, _)| pixel(x, y)));
        }
        let mut g = self.inner.lock().expect("picture lock");
        let width = self.width;
        let entry = g.held.entry(band).or_insert_with(|| (vec![0; rows.len() * width], 0));
        if let Some(&(_, p0)) = cols.first() {
            for (i, _) in rows.iter().enumerate() {
                entry.0[i * width + p0..i * width + p0 + cols.len()]
                    .copy_from_slice(&part[i * cols.len()..(i + 1) * cols.len()]);
            }
        }
        entry.1 += 1;
        // Write out every complete band from the next one on.
        loop {
            let next = g.next;
            match g.held.get(&next) {
                Some((_, done)) if *done == strips => {}
                _ => break,
            }
            let (rows, _) = g.held.remove(&next).expect("held");
            g.next += 1;
            if g.error.is_some() {
                continue;
            }
            let Inner { png, error, .. } = &mut *g;
            let png = png.as_mut().expect("open until finished");
            for row in rows.chunks_exact(width.max(1)) {
                if let Err(e) = png.push_row(row) {
                    *error = Some(e);
                    break;
                }
            }
        }
    }

    /// Finishes the picture (every band must have been drawn) and returns its path.
    pub fn finish(self) -> Result<PathBuf> {
        self.finish_file()?.commit()
    }

    /// Finishes the picture and hands back its output uncommitted
    /// ([`PngStream::finish_file`]).
    pub(crate) fn finish_file(self) -> Result<crate::output::atomic::AtomicOutput> {
        let mut g = self.inner.into_inner().expect("picture lock");
        if let Some(e) = g.error.take() {
            return Err(e);
        }
        assert!(g.held.is_empty(), "every band drawn and written");
        g.png.take().expect("open").finish_file()
    }
}
