//! What a run reports: how it went on the backend that ran it ([`RunReport`], [`GpuRun`]) and
//! the GPU adapter it would use ([`AdapterInfo`]). Types only, known to every build, so that the
//! dispatch above and the GPU path beside it both take them from here.

use crate::engine::SweepReport;
use serde::Serialize;
use std::time::Duration;

/// How a run went on the backend that ran it.
#[derive(Debug, Clone, Serialize)]
pub enum RunReport {
    /// The CPU engine's report.
    Cpu(SweepReport),
    /// The GPU's.
    Gpu(GpuRun),
}

/// How a GPU run went.
#[derive(Debug, Clone, Serialize)]
pub struct GpuRun {
    /// The adapter, in words.
    pub adapter: String,
    /// The tile shape, `lanes x rows x width`.
    pub shape: String,
    /// Cells computed: the region, rounded up to whole tiles, less the tiles of outer space
    /// skipped.
    pub computed: u64,
    /// Cells of the region, rounded up to whole tiles (for the skin, of the tile-diagonals
    /// swept before the skin was complete).
    pub region: u64,
    /// Bytes read back from the GPU for the analysis (the skin's tiles near the boundary, the
    /// P-positions).
    pub sent_back: u64,
    /// Wall time of the sweep.
    #[serde(serialize_with = "secs")]
    pub elapsed: Duration,
}

fn secs<S: serde::Serializer>(d: &Duration, s: S) -> std::result::Result<S::Ok, S::Error> {
    s.serialize_f64(d.as_secs_f64())
}

/// The GPU adapter a [`Backend::Gpu`](super::Backend::Gpu) run uses, in words: its name, backend, kind of device,
/// driver and subgroup size.
#[derive(Debug, Clone, Serialize)]
pub struct AdapterInfo {
    /// Its name.
    pub name: String,
    /// The graphics backend (Vulkan, Metal, Dx12).
    pub backend: String,
    /// The kind of device (discrete, integrated, CPU).
    pub device_type: String,
    /// The driver and its version, where the backend names them.
    pub driver: String,
    /// The size of its subgroups, where every subgroup has the same size.
    pub subgroup: Option<u32>,
    /// All of it in one line.
    pub summary: String,
    /// The largest storage binding, in bytes: boards up to a quarter of it in columns and as
    /// many rows.
    pub max_binding_bytes: u64,
    /// Its memory: the largest device-local heap (or `PALACE_GPU_MEMORY`), where told.
    pub memory_bytes: Option<u64>,
}
