//! `palace gpu-info`: the GPU adapter that `--backend gpu` uses (cargo feature `gpu`).

use crate::app::error::Result;
use crate::app::print::ExitCode;
use crate::app::print::out_text;
use crate::app::request::{Context, Request};
use clap::Args;

/// `palace gpu-info`.
#[derive(Debug, Args)]
pub struct GpuInfoArgs {
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// A validated `palace gpu-info`.
struct GpuInfo {
    json: bool,
}

/// Runs `palace gpu-info`.
pub fn run(a: GpuInfoArgs, ctx: &Context) -> Result<ExitCode> {
    ctx.run(GpuInfo { json: a.json })
}

impl Request for GpuInfo {
    fn run(self, _ctx: &Context) -> Result<ExitCode> {
        let a = palace::backend::adapter()?;
        let text = if self.json {
            serde_json::to_string_pretty(&serde_json::json!({
                "name": a.name,
                "backend": a.backend,
                "device_type": a.device_type,
                "driver": a.driver,
                "subgroup_size": a.subgroup,
                "max_binding_bytes": a.max_binding_bytes,
                "memory_bytes": a.memory_bytes,
            }))
            .expect("serialisable")
        } else {
            let memory = match a.memory_bytes {
                Some(m) => format!(
                    "memory: {m} bytes (its largest device-local heap, or PALACE_GPU_MEMORY); a run whose arrays need more is refused before it begins"
                ),
                None => format!("memory: not reported by the {} backend", a.backend),
            };
            format!(
                "GPU adapter: {}\nstorage bindings of up to {} bytes: boards up to {} columns and as many rows\n{memory}",
                a.summary,
                a.max_binding_bytes,
                a.max_binding_bytes / 4
            )
        };
        out_text(&text)?;
        Ok(0)
    }
}
