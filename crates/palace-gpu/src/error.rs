//! What can go wrong on the GPU.

use crate::shape::Shape;

/// What can go wrong on the GPU.
#[derive(Debug, thiserror::Error)]
pub enum GpuError {
    /// No adapter was found.
    #[error("no GPU adapter found (looked for {looked_for})")]
    NoAdapter {
        /// The backends asked, in words.
        looked_for: String,
    },
    /// The adapter refused a device.
    #[error("the GPU adapter {adapter} refused a device: {reason}")]
    Device {
        /// The adapter.
        adapter: String,
        /// Its reason.
        reason: String,
    },
    /// An environment variable read by [`Gpu::open`](crate::Gpu::open) holds something it cannot use.
    #[error("{variable}={value}: {expected}")]
    Environment {
        /// The variable.
        variable: &'static str,
        /// Its value.
        value: String,
        /// What it should hold.
        expected: &'static str,
    },
    /// The device reported an error (validation, out of memory, lost device).
    #[error("the GPU reported an error: {0}")]
    Reported(String),
    /// The board needs a buffer larger than the device allows.
    #[error("the board needs a {what} of {needed} bytes; the GPU allows {allowed}")]
    TooLarge {
        /// Which buffer.
        what: &'static str,
        /// Bytes needed.
        needed: u64,
        /// Bytes the device allows.
        allowed: u64,
    },
    /// The board's arrays add up to more memory than the device has, or the device failed to
    /// allocate them: reported before the sweep begins.
    #[error(
        "the board needs {} of GPU memory for its arrays{}",
        size_text(*.needed),
        .available.map_or("; the GPU could not allocate them".to_string(), |a| format!("; the GPU has {}", size_text(a)))
    )]
    Memory {
        /// Bytes the run's arrays take on the device.
        needed: u64,
        /// The device's memory for them, where the backend says ([`Gpu::memory`](crate::Gpu::memory)).
        available: Option<u64>,
    },
    /// The tile shape cannot be used.
    #[error("tile shape {shape}: {why}")]
    Shape {
        /// The shape.
        shape: Shape,
        /// Why not.
        why: &'static str,
    },
    /// The job cannot be run (an empty window, a window outside the board, `k = 0`).
    #[error("{0}")]
    Job(&'static str),
    /// A cell of the window outside the hood holds a value outside the tally's range.
    #[error("cell ({x}, {y}) holds v = {v}, outside the tally's range -{limit}..{limit}")]
    ValueRange {
        /// Column.
        x: u32,
        /// Row.
        y: u32,
        /// Its value.
        v: i32,
        /// The range's bound ([`Job::limit`](crate::Job::limit)).
        limit: u32,
    },
    /// The run was cancelled.
    #[error("interrupted")]
    Interrupted,
}

/// `n` bytes, in words: the count, and in MiB or GiB from 1 MiB on.
pub(crate) fn size_text(n: u64) -> String {
    match n {
        0..0x10_0000 => format!("{n} bytes"),
        0x10_0000..0x4000_0000 => format!("{n} bytes ({:.1} MiB)", n as f64 / f64::from(1 << 20)),
        _ => format!("{n} bytes ({:.2} GiB)", n as f64 / f64::from(1 << 30)),
    }
}
