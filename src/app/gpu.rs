//! `--backend gpu` and `palace gpu-info`: the GPU backend's commands (cargo feature `gpu`).

#[cfg(feature = "gpu")]
use crate::app::cli::flags::RunConfig;
use crate::app::print::ExitCode;
#[cfg(feature = "gpu")]
use crate::app::print::out_text;
#[cfg(feature = "gpu")]
use crate::app::progress;
#[cfg(feature = "gpu")]
use palace::engine::Cancel;
use palace::error::{Error, Result};
#[cfg(feature = "gpu")]
use palace::gpu::{Gpu, GpuRun, Shape};
#[cfg(feature = "gpu")]
use palace::model::geometry::Window;

/// What a build without the feature says.
#[cfg(not(feature = "gpu"))]
const NOT_BUILT: &str =
    "this palace was built without the GPU backend; build it with `cargo build --release --features gpu`";

/// `palace gpu-info`: the adapter `--backend gpu` would use.
pub fn info(json: bool) -> Result<ExitCode> {
    #[cfg(feature = "gpu")]
    {
        let gpu = Gpu::open().map_err(Error::Gpu)?;
        let a = gpu.adapter();
        let text = if json {
            serde_json::to_string_pretty(&serde_json::json!({
                "name": a.name,
                "backend": a.backend,
                "device_type": a.device_type,
                "driver": a.driver,
            }))
            .expect("serialisable")
        } else {
            format!("GPU adapter: {a}")
        };
        out_text(&text)?;
        Ok(0)
    }
    #[cfg(not(feature = "gpu"))]
    {
        let _ = json;
        Err(Error::Usage(format!("palace gpu-info: {NOT_BUILT}")))
    }
}

/// `palace stats --backend gpu`: the statistics of `window` (or, with `palaces_only`, the palace
/// count of the board from its corner), printed as the CPU backend prints them.
#[cfg(feature = "gpu")]
pub fn stats(
    k: u32,
    window: Window,
    palaces_only: bool,
    shape: Option<(u32, u32, u32)>,
    json: bool,
    run: &RunConfig,
    cancel: &Cancel,
) -> Result<ExitCode> {
    let gpu = Gpu::open().map_err(Error::Gpu)?;
    let shape = shape.map_or_else(Shape::default, |(lanes, rows, width)| Shape { lanes, rows, width });
    let pb = progress::bar(run.quiet, if palaces_only { "palaces" } else { "stats" }, "tiles");
    let (text, value, g) = if palaces_only {
        let (count, g) = palace::gpu::palace_count(&gpu, k, window.x1, window.y1, shape, &pb, cancel)?;
        (count.to_string(), serde_json::json!({ "palaces": count }), g)
    } else {
        let (stats, g) = palace::gpu::stats(&gpu, k, window, shape, &pb, cancel)?;
        (stats.to_string(), serde_json::json!({ "stats": stats }), g)
    };
    pb.finish_and_clear();
    if json {
        let mut v = value;
        v["gpu"] = serde_json::to_value(&g).expect("serialisable");
        out_text(&serde_json::to_string_pretty(&v).expect("serialisable"))?;
    } else {
        out_text(&text)?;
        summary(run, &g);
    }
    Ok(0)
}

/// The run's line on stderr, unless `--quiet`.
#[cfg(feature = "gpu")]
fn summary(run: &RunConfig, g: &GpuRun) {
    if run.quiet {
        return;
    }
    let secs = g.elapsed.as_secs_f64();
    eprintln!(
        "swept {} cells on {} in {secs:.3} s ({:.2} G cells/s, tiles {}): computed {}, skipped {} (outer space)",
        g.region,
        g.adapter,
        g.region as f64 / secs.max(1e-9) / 1e9,
        g.shape,
        g.computed,
        g.region - g.computed
    );
}
