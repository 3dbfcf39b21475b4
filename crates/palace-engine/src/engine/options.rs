//! How to run the engine: [`EngineOptions`], the kernels and threads of a sweep.

use super::control::Cancel;
use super::layout::{
    COUNTER_BAND_HEIGHT, DEFAULT_BAND_HEIGHT, Layout, default_counter_tile_width, default_tally_tile,
    default_tile_width,
};
use crate::error::{Error, Result};
use crate::kernel::KernelChoice;
use crate::kernel::NarrowFn;
use crate::model::geometry::Window;

/// How to run the engine. The defaults are the fast engine on every core.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineOptions {
    /// Worker threads; 0 means one per available core.
    pub threads: usize,
    /// Which kernel computes the tiles outside the hood.
    pub kernel: KernelChoice,
    /// Fill hood tiles by the closed form and quiet tiles with zeros instead of computing
    /// them. Off only to test the fills against computation.
    pub skip: bool,
    /// Tile width in columns (at least 2); `None` picks one from the width and thread count.
    pub tile_width: Option<u32>,
    /// Band height in rows (at least 2); `None` uses 128.
    pub band_height: Option<u32>,
    /// Stops the run with [`Error::Interrupted`] once
    /// cancelled; checked between bands.
    pub cancel: Cancel,
    /// Record every tile's times in [`SweepReport::timeline`](crate::engine::SweepReport::timeline), to model the sweep on other
    /// thread counts (16 bytes a tile; none for lane sweeps or beyond 2^24 tiles).
    pub timeline: bool,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            threads: 0,
            kernel: KernelChoice::Auto,
            skip: true,
            tile_width: None,
            band_height: None,
            cancel: Cancel::default(),
            timeline: false,
        }
    }
}

/// The cores this process may run on (1 if that cannot be told).
pub fn available_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// A `--threads`-style count: 0 means one per available core.
pub fn resolve_threads(threads: usize) -> usize {
    if threads == 0 { available_cores() } else { threads }
}

impl EngineOptions {
    /// The number of workers this will use.
    pub fn resolved_threads(&self) -> usize {
        resolve_threads(self.threads)
    }

    /// The tiling of a sweep: of a counter sweep with `counter`, one whose tiles tally their
    /// values with `tally`.
    pub(crate) fn layout(
        &self,
        k: u32,
        window: Window,
        threads: usize,
        counter: bool,
        tally: bool,
    ) -> Layout {
        let (tw, bh) = match (counter, tally) {
            (true, true) => default_tally_tile(window.x1, threads),
            (true, false) => (default_counter_tile_width(window.x1, threads), COUNTER_BAND_HEIGHT),
            (false, _) => (default_tile_width(window.x1, threads), DEFAULT_BAND_HEIGHT),
        };
        let (tw, bh) = (self.tile_width.unwrap_or(tw), self.band_height.unwrap_or(bh));
        Layout::new(k, window.x1, window.y1, tw.max(2), bh.max(2))
    }

    /// The narrow kernel this choice resolves to on this CPU, if any.
    pub(crate) fn narrow(&self) -> Option<NarrowFn> {
        self.kernel.narrow_fn()
    }
}

/// Refuses what the engine cannot sweep, with a typed error instead of a panic: a game out of
/// range ([`check_k`](crate::model::bounds::check_k)), a kernel this CPU lacks. The window is
/// valid by its type.
pub(crate) fn check_request(function: &'static str, k: u32, opts: &EngineOptions) -> Result<()> {
    crate::model::bounds::check_k(crate::error::Param::K, i64::from(k))?;
    if !opts.kernel.available() {
        return Err(Error::InvalidArgument {
            function,
            argument: "opts.kernel",
            value: opts.kernel.name().to_string(),
            expected: "a kernel this CPU supports (KernelChoice::available)",
        });
    }
    Ok(())
}

/// [`check_request`] for each lane of a lockstep sweep, which must be given and of one size.
pub(crate) fn check_lanes(
    function: &'static str,
    lanes: &[super::layout::Lane],
    opts: &EngineOptions,
) -> Result<()> {
    let Some(first) = lanes.first() else {
        return Err(Error::InvalidArgument {
            function,
            argument: "lanes",
            value: "[]".into(),
            expected: "at least one lane",
        });
    };
    for l in lanes {
        check_request(function, l.k, opts)?;
        if (l.window.width(), l.window.height()) != (first.window.width(), first.window.height()) {
            return Err(Error::InvalidArgument {
                function,
                argument: "lanes",
                value: format!("windows {} and {}", first.window, l.window),
                expected: "lanes whose windows have one size",
            });
        }
    }
    Ok(())
}
