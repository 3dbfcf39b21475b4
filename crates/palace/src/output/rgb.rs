//! RGB pictures written as PNG files in one go: the plots drawn on a [`canvas`] and the
//! pictures drawn pixel by pixel. It needs nothing of [`crate::output`] but
//! [`atomic`](crate::output::atomic), so the canvas writes its pictures without importing the
//! indexed ones ([`png`](crate::output::png), which uses the canvas through its legend).
//!
//! [`canvas`]: crate::output::canvas

use crate::error::{Error, Result};
use crate::output::atomic::AtomicOutput;
use std::io::BufWriter;

/// Writes an 8-bit RGB picture (`w x h`, three bytes a pixel, row after row) to `out` as a
/// PNG and commits it: the plots' output.
pub(crate) fn write_rgb(mut out: AtomicOutput, w: u32, h: u32, rgb: &[u8]) -> Result<()> {
    let path = out.path().to_path_buf();
    {
        let mut enc = png::Encoder::new(BufWriter::new(out.file()), w, h);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        let mut wr = enc.write_header().map_err(|e| Error::Png { path: path.clone(), source: e })?;
        wr.write_image_data(rgb).map_err(|e| Error::Png { path: path.clone(), source: e })?;
        wr.finish().map_err(|e| Error::Png { path: path.clone(), source: e })?;
    }
    out.commit()?;
    Ok(())
}
