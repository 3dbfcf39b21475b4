//! `palace gliders`: the fabric's meta-gliders (§3.2 of Cook, Larsson and Neary: "Regions of
//! the small-grid pattern appear to travel through the large grid like meta-gliders", Fig. 5).
//! The upper fabric's cells and black cells as bits, and their autocorrelation around every
//! map cell ([`texture`]).

pub mod texture;

use crate::analysis::regions::{self, Region};
use crate::engine::{EngineOptions, Progress};
use crate::error::Result;
use crate::model::geometry::Window;
use texture::Planes;

/// The upper fabric's cells (`palace regions` labels them fabric, `x > y`) inside `window` of
/// game `k`'s board `[0, x1) x [0, y1)` (the window's far corner), with their black cells.
pub fn gather(k: u32, window: Window, opts: &EngineOptions, progress: &dyn Progress) -> Result<Planes> {
    let fab = Region::Fabric.index() as u8;
    let parts = regions::label_tiles(
        k,
        Window::new(0, 0, window.x1, window.y1),
        opts,
        progress,
        &[],
        || Planes::new(window),
        |planes, t| {
            let (xa, xb) = (t.x0.max(window.x0), t.x1.min(window.x1));
            let (ya, yb) = (t.y0.max(window.y0), t.y1.min(window.y1));
            for y in ya..yb {
                let (cells, labels) = (t.cells(y), t.labels(y));
                for x in xa.max(y + 1)..xb {
                    let i = (x - t.x0) as usize;
                    if labels[i] == fab {
                        planes.set(x, y, cells[i] == 0);
                    }
                }
            }
        },
    )?;
    let mut all = Planes::new(window);
    for p in parts {
        all.merge(p);
    }
    Ok(all)
}
