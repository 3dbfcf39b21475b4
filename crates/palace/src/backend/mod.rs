//! Where a run's cells are computed, chosen once: [`Backend`] is the CPU engine with its
//! options or a GPU with its own, and the entry points here ([`stats`], [`palace_count`],
//! [`skin()`], [`survey()`], [`positions()`], [`adapter`]) dispatch on it. Every backend gives the
//! same results, byte for byte (the tests compare them); a [`RunReport`] says how the run went
//! on the one that ran. A build without the cargo feature `gpu` still knows
//! [`Backend::Gpu`]: its entry points answer [`Error::NoGpu`], so the front ends hold no
//! `cfg` of their own.
//!
//! [`Backend::Mpi`] is the ranks of an MPI world ([`World`], joined once by the front end when
//! an MPI launcher started it), each sweeping one column strip of the board; so far only
//! [`palace_count`] runs over them (`docs/cluster.md`), the other entry points answer
//! [`Error::NotDistributed`]. A build without the cargo feature `mpi` knows the variant too:
//! [`World::join`] answers [`Error::NoMpi`] where a launcher started several ranks.
//!
//! ```
//! use palace::backend::{self, Backend, StatsForm};
//! use palace::engine::{Cancel, EngineOptions, Silent};
//! use palace::resume::Checkpoints;
//! use palace::{Board, Window};
//!
//! let board = Board::new(500, 1500, 1500)?;
//! let cpu = Backend::Cpu(EngineOptions::default());
//! let (stats, _run) =
//!     backend::stats(&cpu, board, board.full(), StatsForm::Auto, &Checkpoints::none(), &Silent, &Cancel::new())?;
//! assert_eq!(stats.total.cells, 1500 * 1500);
//! # Ok::<(), palace::Error>(())
//! ```

#[cfg(feature = "gpu")]
pub mod gpu;
#[cfg(feature = "mpi")]
mod mpi;
mod report;

pub use report::{AdapterInfo, GpuRun, RunReport};

use crate::analysis::positions::{self, Method, PositionsReport};
use crate::analysis::skin::{self, Column, SkinReport};
use crate::analysis::stats::{PalaceCount, PalaceCountRun, Stats, StatsRun};
use crate::analysis::survey::{self, SurveyOptions, SurveyRow};
use crate::engine::{Cancel, EngineOptions, Progress};
use crate::error::{Error, Param, ParameterError, Result};
use crate::model::geometry::{Board, Window};
use crate::resume::{Checkpoints, drive};

/// Where a run computes its cells.
#[derive(Debug, Clone)]
pub enum Backend {
    /// The CPU engine, with these options (threads, kernel, tiling, cancel token).
    Cpu(EngineOptions),
    /// A GPU (compute shaders through wgpu), with these options.
    Gpu(GpuOptions),
    /// The ranks of an MPI world, each computing one column strip of the sweep on its own
    /// backend.
    Mpi(MpiOptions),
}

/// The MPI backend's options.
#[derive(Debug, Clone)]
pub struct MpiOptions {
    /// The world whose ranks share the run.
    pub world: World,
    /// What each rank computes its strip on: so far the CPU engine, one thread a rank (its
    /// kernel and tiling options apply, its thread count does not yet).
    pub each_rank: Box<Backend>,
}

/// The MPI world this process belongs to: joined once ([`World::join`]), shared by the runs
/// given it, and left (MPI finalised) when the last clone is dropped.
#[derive(Clone)]
pub struct World {
    #[cfg(feature = "mpi")]
    joined: std::sync::Arc<mpi::Joined>,
    #[cfg(not(feature = "mpi"))]
    none: std::convert::Infallible,
}

/// The ranks an MPI launcher says it started, from the environment it gives each rank
/// (OpenMPI's `OMPI_COMM_WORLD_SIZE`, MPICH's and Slurm's `PMI_SIZE`); `None` if no launcher
/// started this process, or says nothing of the size.
fn launched_ranks() -> Option<usize> {
    ["OMPI_COMM_WORLD_SIZE", "PMI_SIZE"]
        .iter()
        .find_map(|v| std::env::var(v).ok().and_then(|s| s.trim().parse().ok()))
}

impl World {
    /// The MPI world an MPI launcher (`mpirun -np P`, `srun`) started this process in, if it
    /// started more than one rank; `None` otherwise, without initialising MPI, so that a
    /// process started alone (or with `-np 1`) runs as it would without MPI. In a build
    /// without the cargo feature `mpi`, a launch of several ranks is refused with
    /// [`Error::NoMpi`].
    pub fn join() -> Result<Option<World>> {
        let ranks = launched_ranks();
        if ranks.is_none_or(|n| n <= 1) {
            return Ok(None);
        }
        #[cfg(feature = "mpi")]
        {
            let joined = mpi::Joined::init().ok_or(Error::InvalidArgument {
                function: "World::join",
                argument: "MPI",
                value: "initialised".into(),
                expected: "a process that has not initialised MPI already",
            })?;
            if joined.size() <= 1 {
                return Ok(None);
            }
            Ok(Some(World { joined: std::sync::Arc::new(joined) }))
        }
        #[cfg(not(feature = "mpi"))]
        Err(Error::NoMpi { ranks: ranks.unwrap_or(0) })
    }

    /// This process's rank, `0..size()`.
    pub fn rank(&self) -> usize {
        #[cfg(feature = "mpi")]
        return self.joined.rank();
        #[cfg(not(feature = "mpi"))]
        match self.none {}
    }

    /// The ranks of the world.
    pub fn size(&self) -> usize {
        #[cfg(feature = "mpi")]
        return self.joined.size();
        #[cfg(not(feature = "mpi"))]
        match self.none {}
    }

    /// The MPI library, in one line.
    pub fn library(&self) -> String {
        #[cfg(feature = "mpi")]
        return self.joined.library();
        #[cfg(not(feature = "mpi"))]
        match self.none {}
    }

    /// Refuses to go on unless every rank was given the same `bytes` (a command line, say):
    /// ranks that run different things would wait for each other forever. `words` names them
    /// in the error ([`Error::RanksDisagree`]). Every rank must call it.
    pub fn agree(&self, bytes: &[u8], words: &str) -> Result<()> {
        #[cfg(feature = "mpi")]
        return mpi::agree_everywhere(&self.joined, bytes, words);
        #[cfg(not(feature = "mpi"))]
        {
            let _ = (bytes, words);
            match self.none {}
        }
    }

    /// Leaves the world: MPI is finalised once every clone has left or been dropped (a
    /// process must not exit before, or its launcher takes it for failed).
    pub fn leave(self) {
        #[cfg(not(feature = "mpi"))]
        match self.none {}
    }

    /// Stops every rank of the world, this one included, with exit code `code`: what a rank
    /// that fails or panics must do, since its neighbours would otherwise wait for it forever.
    pub fn abort(&self, code: i32) -> ! {
        #[cfg(feature = "mpi")]
        self.joined.abort(code);
        #[cfg(not(feature = "mpi"))]
        {
            let _ = code;
            match self.none {}
        }
    }
}

impl std::fmt::Debug for World {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        #[cfg(feature = "mpi")]
        return write!(f, "World(rank {} of {})", self.rank(), self.size());
        #[cfg(not(feature = "mpi"))]
        {
            let _ = f;
            match self.none {}
        }
    }
}

/// What a run over MPI ranks that has not been distributed yet answers.
fn not_distributed<T>(what: &'static str) -> Result<T> {
    Err(Error::NotDistributed { what })
}

/// The GPU's options.
#[derive(Debug, Clone, Default)]
pub struct GpuOptions {
    /// The tile shape (tuning); `None`: each run's default.
    pub shape: Option<TileShape>,
    /// The device, opened once for several runs; `None`: each run opens one.
    pub device: Option<Device>,
}

/// An opened GPU device, shared by the runs given it: opening one takes a while.
#[derive(Clone)]
pub struct Device {
    #[cfg(feature = "gpu")]
    gpu: std::sync::Arc<gpu::Gpu>,
    #[cfg(not(feature = "gpu"))]
    none: std::convert::Infallible,
}

impl std::fmt::Debug for Device {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        #[cfg(feature = "gpu")]
        return write!(f, "Device({})", self.gpu.adapter());
        #[cfg(not(feature = "gpu"))]
        {
            let _ = f;
            match self.none {}
        }
    }
}

impl Device {
    /// Opens the adapter a GPU run uses; [`Error::NoGpu`] in a build without the GPU backend.
    pub fn open() -> Result<Device> {
        #[cfg(feature = "gpu")]
        return Ok(Device { gpu: std::sync::Arc::new(gpu::Gpu::open().map_err(Error::Gpu)?) });
        #[cfg(not(feature = "gpu"))]
        Err(Error::NoGpu)
    }

    /// The adapter, in words.
    pub fn adapter(&self) -> AdapterInfo {
        #[cfg(feature = "gpu")]
        {
            let a = self.gpu.adapter();
            AdapterInfo {
                name: a.name.clone(),
                backend: a.backend.clone(),
                device_type: a.device_type.clone(),
                driver: a.driver.clone(),
                subgroup: a.subgroup,
                summary: a.to_string(),
                max_binding_bytes: self.gpu.binding_size(),
                memory_bytes: self.gpu.memory(),
            }
        }
        #[cfg(not(feature = "gpu"))]
        match self.none {}
    }
}

/// A GPU tile: `lanes` invocations a workgroup, `rows` rows each, `width` columns (checked
/// against the device's bounds when the run starts).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TileShape {
    /// Invocations per workgroup.
    pub lanes: u32,
    /// Rows per invocation.
    pub rows: u32,
    /// Columns per tile.
    pub width: u32,
}

impl std::fmt::Display for TileShape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}x{}x{}", self.lanes, self.rows, self.width)
    }
}

impl std::str::FromStr for TileShape {
    type Err = String;

    /// `LANESxROWSxWIDTH`, e.g. `64x4x256`.
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        let parts: Vec<Option<u32>> = s.split('x').map(|p| p.trim().parse().ok()).collect();
        match parts[..] {
            [Some(lanes), Some(rows), Some(width)] => Ok(TileShape { lanes, rows, width }),
            _ => Err(format!("{s:?} is not LANESxROWSxWIDTH, e.g. 64x4x256")),
        }
    }
}

/// The adapter a GPU run would use; [`Error::NoGpu`] in a build without the GPU backend.
pub fn adapter() -> Result<AdapterInfo> {
    Ok(Device::open()?.adapter())
}

/// How the statistics are computed on the CPU (a GPU always computes the three-counter form).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StatsForm {
    /// The three-counter form for a window from the corner, the CA rule for any other.
    Auto,
    /// The three-counter form: the window must start at the corner.
    Counters,
    /// The CA rule's kernels (the paper's automaton), on the CPU only.
    Ca,
}

/// A GPU run with checkpoints asked for, or with the CA form: refused, naming what to drop.
fn gpu_refuses(form: Option<StatsForm>, c: &Checkpoints) -> Result<()> {
    if form == Some(StatsForm::Ca) {
        return Err(ParameterError::about(Param::Backend, "gpu")
            .set(Param::Backend, "gpu")
            .text(" computes the three-counter form, not the CA rule; drop ")
            .name(Param::Ca)
            .text(", or use ")
            .set(Param::Backend, "cpu")
            .into());
    }
    if c.save().is_some() || c.resume().is_some() {
        return Err(ParameterError::about(Param::Backend, "gpu")
            .set(Param::Backend, "gpu")
            .text(" keeps no checkpoints of this run; drop ")
            .name(Param::Checkpoint)
            .text(" and ")
            .name(Param::Resume)
            .text(", or use ")
            .set(Param::Backend, "cpu")
            .into());
    }
    Ok(())
}

/// The statistics of `window` of `board` ([`crate::analysis::stats`]), on `backend`; on the
/// CPU in the `form` asked for and checkpointed as `c` says ([`crate::resume::drive`]), `stop`
/// pausing it or stopping it.
pub fn stats(
    backend: &Backend,
    board: Board,
    window: Window,
    form: StatsForm,
    c: &Checkpoints,
    progress: &dyn Progress,
    stop: &Cancel,
) -> Result<(Stats, RunReport)> {
    match backend {
        Backend::Cpu(opts) => {
            let corner = (window.x0(), window.y0()) == (0, 0);
            let by_counters = match form {
                StatsForm::Auto => corner,
                StatsForm::Counters if !corner => {
                    return Err(ParameterError::new(Param::Window, window)
                        .text(": the statistics by counters cover a board from its corner; give the board, not a window of it")
                        .into());
                }
                StatsForm::Counters => true,
                StatsForm::Ca => false,
            };
            let engine = c.engine(opts);
            let run = StatsRun::new(board, window, by_counters, &engine, progress)?;
            let (s, report) = drive(run, c, stop)?;
            Ok((s, RunReport::Cpu(report)))
        }
        Backend::Mpi(_) => not_distributed("the statistics with values (stats without --palaces-only)"),
        Backend::Gpu(g) => {
            gpu_refuses(Some(form), c)?;
            {
                #[cfg(not(feature = "gpu"))]
                return no_gpu(g);
                #[cfg(feature = "gpu")]
                {
                    let (gpu, shape) = open(g, gpu::Shape::default())?;
                    let (s, run) = gpu::stats(&gpu, board.k(), window, shape, progress, stop)?;
                    Ok((s, RunReport::Gpu(run)))
                }
            }
        }
    }
}

/// The palace count of `board` ([`crate::analysis::stats::palaces`]), on `backend`,
/// checkpointed on the CPU as `c` says.
pub fn palace_count(
    backend: &Backend,
    board: Board,
    c: &Checkpoints,
    progress: &dyn Progress,
    stop: &Cancel,
) -> Result<(PalaceCount, RunReport)> {
    let (k, w, h) = (board.k(), board.width(), board.height());
    match backend {
        Backend::Cpu(opts) => {
            let engine = c.engine(opts);
            let (count, report) = drive(PalaceCountRun::new(k, w, h, &engine, progress)?, c, stop)?;
            Ok((count, RunReport::Cpu(report)))
        }
        Backend::Mpi(m) => {
            if c.save().is_some() || c.resume().is_some() {
                return not_distributed("a checkpointed run (checkpoints across ranks)");
            }
            match &*m.each_rank {
                #[cfg(feature = "mpi")]
                Backend::Cpu(opts) => {
                    // `stop` stops every rank's sweep (there are no checkpoints to pause at).
                    let opts = EngineOptions { cancel: stop.clone(), ..opts.clone() };
                    let (count, report) = mpi::palace_count(&m.world.joined, k, w, h, &opts, progress)?;
                    Ok((count, RunReport::Cpu(report)))
                }
                #[cfg(not(feature = "mpi"))]
                Backend::Cpu(_) => match m.world.none {},
                Backend::Gpu(_) => not_distributed("the GPU backend on each rank"),
                Backend::Mpi(_) => not_distributed("an MPI world within an MPI world"),
            }
        }
        Backend::Gpu(g) => {
            gpu_refuses(None, c)?;
            {
                #[cfg(not(feature = "gpu"))]
                return no_gpu(g);
                #[cfg(feature = "gpu")]
                {
                    let (gpu, shape) = open(g, gpu::Shape::default())?;
                    let (count, run) = gpu::palace_count(&gpu, k, w, h, shape, progress, stop)?;
                    Ok((count, RunReport::Gpu(run)))
                }
            }
        }
    }
}

/// How the skin is followed on the CPU.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SkinForm {
    /// The counter sweep, its tiles near the boundary computed with values.
    Counters,
    /// The CA's row sweep (the reference), on the CPU only and without checkpoints.
    Rows,
}

/// The skin of game `k` from the shoulder to column `to` ([`crate::analysis::skin`]), each
/// column's pattern too where `patterns`, on `backend`, checkpointed as `c` says.
#[allow(clippy::too_many_arguments)]
pub fn skin(
    backend: &Backend,
    k: u32,
    to: u64,
    patterns: bool,
    form: SkinForm,
    c: &Checkpoints,
    progress: &dyn Progress,
    stop: &Cancel,
) -> Result<(SkinReport, Vec<Column>, RunReport)> {
    skin::check_to(k, to)?;
    match (backend, form) {
        (Backend::Cpu(opts), SkinForm::Rows) => {
            if c.save().is_some() || c.resume().is_some() {
                return Err(Error::InvalidArgument {
                    function: "backend::skin",
                    argument: "c",
                    value: "checkpoints".into(),
                    expected: "no checkpoints for the row sweep, which keeps none",
                });
            }
            let (report, cols, r) = skin::follow_rows_with(k, to, patterns, opts, progress)?;
            Ok((report, cols, RunReport::Cpu(r)))
        }
        (Backend::Cpu(opts), SkinForm::Counters) => {
            let engine = c.engine(opts);
            let f = skin::Follower::new(k, to, &engine, progress)?;
            let f = if patterns { f.with_patterns() } else { f };
            let (report, cols, r) = drive(skin::SkinRun::new(f), c, stop)?;
            Ok((report, cols, RunReport::Cpu(r)))
        }
        (Backend::Mpi(_), _) => not_distributed("the skin"),
        (Backend::Gpu(_), SkinForm::Rows) => Err(ParameterError::about(Param::Backend, "gpu")
            .set(Param::Backend, "gpu")
            .text(" follows the skin by counters; the row sweep is the CPU's reference")
            .into()),
        (Backend::Gpu(g), SkinForm::Counters) => {
            #[cfg(not(feature = "gpu"))]
            return no_gpu(g);
            #[cfg(feature = "gpu")]
            {
                let mut tiles = gpu::SkinTiles::default();
                let gpu;
                (gpu, tiles.shape) = open(&whole_words(g, "the skin's tiles")?, tiles.shape)?;
                // Where checkpoints are saved, a stop pauses the sweep between submissions
                // instead of stopping it.
                let own = Cancel::new();
                let run = gpu::GpuSkin::new(&gpu, k, to, patterns, tiles, progress, c.cancel(&own, stop))?;
                let (report, cols, r) = drive(run, c, stop)?;
                Ok((report, cols, RunReport::Gpu(r)))
            }
        }
    }
}

/// The survey over a range of games ([`crate::analysis::survey`]), its boards swept on
/// `backend`; `threads` boards share the CPU's threads as the CPU survey does, and the region
/// labels around each hottest cell are the CPU's, with `opts`.
pub fn survey(
    backend: &Backend,
    so: &SurveyOptions,
    threads: usize,
    opts: &EngineOptions,
    progress: &dyn Progress,
) -> Result<Vec<SurveyRow>> {
    #[cfg(not(feature = "gpu"))]
    let _ = opts;
    match backend {
        Backend::Cpu(cpu) => survey::survey(so, threads, cpu, progress),
        Backend::Mpi(_) => not_distributed("the survey"),
        Backend::Gpu(g) => {
            #[cfg(not(feature = "gpu"))]
            return no_gpu(g);
            #[cfg(feature = "gpu")]
            {
                let (gpu, shape) = open(&whole_words(g, "the survey's tiles")?, gpu::Shape::default())?;
                gpu::survey(&gpu, shape, so, threads, opts, progress)
            }
        }
    }
}

/// The P-positions of rows `0..rows` of game `k` on `width` columns ([`positions::positions`]):
/// on the CPU by `method`, on a GPU by its sweep (as [`Method::Sweep`]).
#[allow(clippy::too_many_arguments)]
pub fn positions(
    backend: &Backend,
    k: u32,
    rows: u32,
    width: Option<u32>,
    method: Method,
    emit: &mut dyn FnMut(u32, u32) -> Result<()>,
    progress: &dyn Progress,
    stop: &Cancel,
) -> Result<(PositionsReport, Option<GpuRun>)> {
    #[cfg(not(feature = "gpu"))]
    let _ = stop;
    match backend {
        Backend::Cpu(opts) => Ok((positions::positions(k, rows, width, method, opts, emit, progress)?, None)),
        Backend::Mpi(_) => not_distributed("the P-positions"),
        Backend::Gpu(_) if method == Method::Lines => Err(ParameterError::new(Param::Method, "lines")
            .text(" runs on the CPU: ")
            .set(Param::Backend, "gpu")
            .text(" lists the P-positions by its sweep; drop one of them")
            .into()),
        Backend::Gpu(g) => {
            #[cfg(not(feature = "gpu"))]
            return no_gpu(g);
            #[cfg(feature = "gpu")]
            {
                let (gpu, shape) = open(g, gpu::Shape::default())?;
                let (r, run) = gpu::positions(&gpu, k, rows, width, shape, emit, progress, stop)?;
                Ok((r, Some(run)))
            }
        }
    }
}

/// What a GPU run gives in a build without the GPU backend.
#[cfg(not(feature = "gpu"))]
fn no_gpu<T>(_: &GpuOptions) -> Result<T> {
    Err(Error::NoGpu)
}

/// The device (`g`'s, or one opened now), and the tile shape `g` asks for (checked) or
/// `default`.
#[cfg(feature = "gpu")]
fn open(g: &GpuOptions, default: gpu::Shape) -> Result<(std::sync::Arc<gpu::Gpu>, gpu::Shape)> {
    let shape = match g.shape {
        Some(TileShape { lanes, rows, width }) => {
            let s = gpu::Shape { lanes, rows, width };
            if let Err(e) = s.check() {
                return Err(ParameterError::new(Param::GpuShape, s.to_string())
                    .text(format!(": {e}; give LANESxROWSxWIDTH, e.g. 64x4x256"))
                    .into());
            }
            s
        }
        None => default,
    };
    let device = match &g.device {
        Some(d) => d.clone(),
        None => Device::open()?,
    };
    Ok((device.gpu, shape))
}

/// Refuses a tile shape whose rows per lane are not a multiple of 4: the kernels that send
/// tiles back pack four cells a word. `what` names the run's tiles.
#[cfg(feature = "gpu")]
fn whole_words(g: &GpuOptions, what: &str) -> Result<GpuOptions> {
    if let Some(s) = g.shape
        && !s.rows.is_multiple_of(4)
    {
        return Err(ParameterError::new(Param::GpuShape, s.to_string())
            .text(format!(": {what} need rows per lane a multiple of 4, e.g. 32x4x256"))
            .into());
    }
    Ok(g.clone())
}
