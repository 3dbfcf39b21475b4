//! An open GPU device ([`Gpu`]): the adapter, the pipelines by kernel and shape, the buffers,
//! and the tally's batches of tile-diagonals submitted in order.

use crate::error::GpuError;
use crate::job::{Cell, Job, Tally, region};
use crate::shader::{Kernel, shader_constants, shader_source};
use crate::shape::Shape;
use palace_engine::engine::Watch;
use std::fmt;
use std::sync::{Arc, Mutex};

/// The adapter a [`Gpu`] runs on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Adapter {
    /// Its name.
    pub name: String,
    /// The backend (Vulkan, Metal, Dx12).
    pub backend: String,
    /// The kind of device (discrete, integrated, CPU).
    pub device_type: String,
    /// The driver and its version, where the backend names them.
    pub driver: String,
    /// The size of its subgroups, where the backend offers subgroup operations and every
    /// subgroup has the same size.
    pub subgroup: Option<u32>,
}

impl fmt::Display for Adapter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}, {}", self.name, self.backend, self.device_type)?;
        if !self.driver.is_empty() {
            write!(f, ", {}", self.driver)?;
        }
        if let Some(n) = self.subgroup {
            write!(f, ", subgroups of {n}")?;
        }
        write!(f, ")")
    }
}

/// A pipeline's kernel, tile shape and whether it passes counters by subgroup shuffles.
pub(crate) type PipelineKey = (Kernel, Shape, bool);

/// An open GPU device with the tally's pipelines.
pub struct Gpu {
    pub(crate) adapter: Adapter,
    pub(crate) device: wgpu::Device,
    pub(crate) queue: wgpu::Queue,
    pub(crate) limits: wgpu::Limits,
    /// The largest storage binding this handle uses, in bytes: the device's limit, or less
    /// ([`Gpu::limit_binding_size`]).
    pub(crate) binding: u64,
    /// The device's memory for storage arrays, in bytes, where the backend says: its largest
    /// device-local heap, or less ([`Gpu::limit_memory`]).
    pub(crate) memory: Option<u64>,
    /// The bind group layouts of the kernels, in the order of [`Kernel`].
    pub(crate) layouts: [wgpu::BindGroupLayout; 3],
    /// Pipelines built so far, by kernel, tile shape and whether they use subgroup shuffles.
    pub(crate) pipelines: Mutex<Vec<(PipelineKey, Arc<wgpu::ComputePipeline>)>>,
    pub(crate) errors: Arc<Mutex<Vec<String>>>,
}

/// Tile-diagonals per submission at most, and tiles per submission at most: a submission is
/// the unit of progress and cancellation. Between those bounds a run sizes its submissions to
/// take between `BATCH_SHORT` and `BATCH_LONG` each, so that a cancel is seen within a fraction
/// of a second on any device.
pub(crate) const BATCH_DIAGONALS: u32 = 256;
pub(crate) const BATCH_TILES: u64 = 1 << 16;
pub(crate) const BATCH_SHORT: std::time::Duration = std::time::Duration::from_millis(40);
pub(crate) const BATCH_LONG: std::time::Duration = std::time::Duration::from_millis(160);
pub(crate) const NONE: u32 = u32::MAX;
/// The tiles the next submission may take, after one of `budget` tiles took `took`: twice as
/// many (up to `most`) after a short one, half as many after a long one.
pub(crate) fn next_budget(budget: u64, took: std::time::Duration, most: u64) -> u64 {
    if took < BATCH_SHORT {
        (budget * 2).min(most)
    } else if took > BATCH_LONG {
        (budget / 2).max(1)
    } else {
        budget
    }
}

/// Bytes moved between host and device in one piece at most: a frontier of billions of
/// counters goes in pieces, not through one staging buffer of its size.
pub(crate) const MOVE_CHUNK: u64 = 256 << 20;

impl Gpu {
    /// Opens the adapter `wgpu` prefers for high performance (the environment variables
    /// `WGPU_BACKEND` (a list such as `vulkan`) and `WGPU_ADAPTER_NAME` (part of
    /// an adapter's name) narrow the choice). `PALACE_GPU_MEMORY`, a number of bytes, caps the
    /// memory its runs may use ([`Gpu::limit_memory`]).
    pub fn open() -> Result<Gpu, GpuError> {
        let cap = match std::env::var_os("PALACE_GPU_MEMORY") {
            None => None,
            Some(v) => {
                Some(v.to_str().and_then(|c| c.parse::<u64>().ok()).ok_or_else(|| GpuError::Environment {
                    variable: "PALACE_GPU_MEMORY",
                    value: v.to_string_lossy().into_owned(),
                    expected: "give the GPU memory a run may use in bytes, e.g. 4000000000, or unset it",
                })?)
            }
        };
        let desc = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
        let backends = desc.backends;
        let instance = wgpu::Instance::new(desc);
        let opts = wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::HighPerformance,
            ..Default::default()
        };
        let adapter = match std::env::var("WGPU_ADAPTER_NAME") {
            Ok(want) => {
                let want = want.to_lowercase();
                pollster::block_on(instance.enumerate_adapters(backends))
                    .into_iter()
                    .find(|a| a.get_info().name.to_lowercase().contains(&want))
                    .ok_or_else(|| GpuError::NoAdapter {
                        looked_for: format!("{} named like {want:?}", looked_for(backends)),
                    })?
            }
            Err(_) => pollster::block_on(instance.request_adapter(&opts))
                .map_err(|_| GpuError::NoAdapter { looked_for: looked_for(backends) })?,
        };
        let info = adapter.get_info();
        let summary = Adapter {
            name: info.name.clone(),
            backend: format!("{:?}", info.backend),
            device_type: format!("{:?}", info.device_type),
            driver: [info.driver.as_str(), info.driver_info.as_str()]
                .iter()
                .filter(|s| !s.is_empty())
                .copied()
                .collect::<Vec<_>>()
                .join(" "),
            subgroup: (adapter.features().contains(wgpu::Features::SUBGROUP)
                && info.subgroup_min_size == info.subgroup_max_size)
                .then_some(info.subgroup_min_size),
        };
        let limits = adapter.limits();
        let memory = device_memory(&adapter);
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("palace"),
            required_features: adapter.features() & wgpu::Features::SUBGROUP,
            required_limits: limits.clone(),
            ..Default::default()
        }))
        .map_err(|e| GpuError::Device { adapter: summary.to_string(), reason: e.to_string() })?;
        let errors = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&errors);
        device.on_uncaptured_error(Arc::new(move |e: wgpu::Error| {
            sink.lock().expect("error list").push(e.to_string());
        }));
        let buffer = |binding, ty| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer { ty, has_dynamic_offset: binding == 1, min_binding_size: None },
            count: None,
        };
        let storage = wgpu::BufferBindingType::Storage { read_only: false };
        let layouts = [Kernel::Tally, Kernel::Skin, Kernel::Palaces].map(|kernel| {
            let mut entries = vec![
                buffer(0, wgpu::BufferBindingType::Uniform),
                buffer(1, wgpu::BufferBindingType::Uniform),
            ];
            entries.extend((0..kernel.storage_buffers()).map(|b| buffer(2 + b, storage)));
            device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: Some(kernel.label()),
                entries: &entries,
            })
        });
        let memory = match (memory, cap) {
            (Some(m), Some(c)) => Some(m.min(c)),
            (m, c) => m.or(c),
        };
        Ok(Gpu {
            adapter: summary,
            device,
            queue,
            binding: limits.max_storage_buffer_binding_size.min(limits.max_buffer_size),
            memory,
            limits,
            layouts,
            pipelines: Mutex::new(Vec::new()),
            errors,
        })
    }

    /// The adapter in use.
    pub fn adapter(&self) -> &Adapter {
        &self.adapter
    }

    /// The largest storage binding this handle uses, in bytes: a board may have as many
    /// columns, and as many rows, as it holds words (its diagonal counters, one per column and
    /// per row, are split over two bindings where one cannot hold them).
    pub fn binding_size(&self) -> u64 {
        self.binding
    }

    /// Uses storage bindings of at most `bytes` bytes (a multiple of 4, at least 4), as on a
    /// device with that limit: for the tests of arrays split over two bindings.
    #[doc(hidden)]
    pub fn limit_binding_size(&mut self, bytes: u64) {
        self.binding = self.binding.min(bytes.max(4) / 4 * 4);
    }

    /// The device's memory for a run's arrays, in bytes, where the backend says (Vulkan: the
    /// largest device-local memory heap; `None` on Metal and DirectX 12). A run whose arrays
    /// add up to more is refused before it begins ([`GpuError::Memory`]); elsewhere the
    /// device's allocator has the last word.
    pub fn memory(&self) -> Option<u64> {
        self.memory
    }

    /// Uses at most `bytes` bytes of device memory for a run's arrays, as on a device that has
    /// that much (a GPU shared with other work; the tests of the refusal).
    pub fn limit_memory(&mut self, bytes: u64) {
        self.memory = Some(self.memory.map_or(bytes, |m| m.min(bytes)));
    }

    /// The size of the adapter's subgroups, where it offers subgroup operations and all its
    /// subgroups have one size: tiles of that many lanes pass counters by shuffles.
    pub fn subgroup_size(&self) -> Option<u32> {
        self.adapter.subgroup
    }

    pub(crate) fn check_errors(&self) -> Result<(), GpuError> {
        let mut errors = self.errors.lock().expect("error list");
        if errors.is_empty() {
            Ok(())
        } else {
            Err(GpuError::Reported(errors.drain(..).collect::<Vec<_>>().join("; ")))
        }
    }

    /// The pipeline of `kernel` for tiles of `shape`, built on first use; it passes counters by
    /// subgroup shuffles where `subgroups` asks for it and the adapter's subgroups have exactly
    /// `shape.lanes` lanes.
    pub(crate) fn pipeline(
        &self,
        kernel: Kernel,
        shape: Shape,
        subgroups: bool,
    ) -> Result<Arc<wgpu::ComputePipeline>, GpuError> {
        let subgroups = subgroups && self.subgroup_size() == Some(shape.lanes);
        let mut cache = self.pipelines.lock().expect("pipeline cache");
        if let Some((_, p)) = cache.iter().find(|(key, _)| *key == (kernel, shape, subgroups)) {
            return Ok(Arc::clone(p));
        }
        let source = shader_source(kernel, shape, subgroups);
        let label = Some(kernel.label());
        let module = self.device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label,
            source: wgpu::ShaderSource::Wgsl(source.into()),
        });
        let layout = self.device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label,
            bind_group_layouts: &[Some(self.layout(kernel))],
            immediate_size: 0,
        });
        let constants = shader_constants(shape);
        let pipeline = self.device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label,
            layout: Some(&layout),
            module: &module,
            entry_point: Some("main"),
            compilation_options: wgpu::PipelineCompilationOptions {
                constants: &constants,
                ..Default::default()
            },
            cache: None,
        });
        self.check_errors()?;
        let p = Arc::new(pipeline);
        cache.push(((kernel, shape, subgroups), Arc::clone(&p)));
        Ok(p)
    }

    pub(crate) fn layout(&self, kernel: Kernel) -> &wgpu::BindGroupLayout {
        &self.layouts[kernel as usize]
    }

    /// Creates a run's storage arrays, `(name, words)` each, and its diagonal counter array of
    /// `diagonals` words, zeroed: in one storage binding where it fits, else split over two.
    /// Before creating any, refuses an array longer than a binding may hold
    /// ([`GpuError::TooLarge`], naming it) and arrays that add up to more than the device's
    /// memory ([`GpuError::Memory`]); an allocation the device fails all the same is the
    /// latter, reported before the sweep begins.
    pub(crate) fn arrays<const N: usize>(
        &self,
        arrays: [(&'static str, u64); N],
        diagonals: u64,
    ) -> Result<([wgpu::Buffer; N], Diagonals), GpuError> {
        let bytes = |words: u64| words.max(1) * 4;
        for &(what, words) in &arrays {
            if bytes(words) > self.binding {
                return Err(GpuError::TooLarge { what, needed: bytes(words), allowed: self.binding });
            }
        }
        const WHAT: &str = "diagonal counter array";
        let most = self.binding / 4;
        let (split, diag_parts) = if diagonals <= most {
            (None, [(WHAT, diagonals), (WHAT, 1)])
        } else if diagonals <= 2 * most {
            (Some(most), [(WHAT, most), (WHAT, diagonals - most)])
        } else {
            return Err(GpuError::TooLarge {
                what: "diagonal counter array (in two storage bindings)",
                needed: diagonals * 4,
                allowed: 2 * most * 4,
            });
        };
        let needed: u64 = arrays.iter().chain(&diag_parts).map(|&(_, words)| bytes(words)).sum();
        if let Some(available) = self.memory.filter(|&m| needed > m) {
            return Err(GpuError::Memory { needed, available: Some(available) });
        }
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let create = |(what, words): (&'static str, u64)| {
            self.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(what),
                size: bytes(words),
                usage: wgpu::BufferUsages::STORAGE
                    | wgpu::BufferUsages::COPY_SRC
                    | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            })
        };
        let buffers = arrays.map(create);
        let [lo, hi] = diag_parts.map(create);
        if pollster::block_on(scope.pop()).is_some() {
            return Err(GpuError::Memory { needed, available: self.memory });
        }
        self.clear(&[&lo, &hi]);
        Ok((buffers, Diagonals { lo, hi, split }))
    }

    /// Zeroes `buffers` on the device.
    pub(crate) fn clear(&self, buffers: &[&wgpu::Buffer]) {
        let mut enc = self.device.create_command_encoder(&Default::default());
        for b in buffers {
            enc.clear_buffer(b, 0, None);
        }
        self.queue.submit([enc.finish()]);
    }

    /// Reads back `bytes` bytes of `buffer` from its start, as words.
    pub(crate) fn read(&self, buffer: &wgpu::Buffer, bytes: u64) -> Result<Vec<u32>, GpuError> {
        Ok(bytes_to_words(&self.read_ranges(&[(buffer, 0, bytes)])?.pop().expect("one range")))
    }

    /// Bytes moved between host and device in one piece at most: [`MOVE_CHUNK`], or one
    /// storage binding where that is less.
    pub(crate) fn move_chunk(&self) -> u64 {
        self.binding.min(MOVE_CHUNK)
    }

    /// Reads back the ranges `(buffer, offset, bytes)` (multiples of 4 bytes): in one
    /// submission, or in pieces of [`Gpu::move_chunk`] bytes where they hold more.
    pub(crate) fn read_ranges(&self, ranges: &[(&wgpu::Buffer, u64, u64)]) -> Result<Vec<Vec<u8>>, GpuError> {
        let chunk = self.move_chunk();
        // Pieces of at most `chunk` bytes: (range, buffer, offset, bytes).
        let mut pieces = Vec::new();
        for (r, &(buffer, offset, bytes)) in ranges.iter().enumerate() {
            let mut at = 0;
            while at < bytes || (bytes == 0 && at == 0) {
                let n = (bytes - at).min(chunk);
                pieces.push((r, buffer, offset + at, n));
                at += n.max(1);
            }
        }
        let mut out: Vec<Vec<u8>> = ranges.iter().map(|r| Vec::with_capacity(r.2 as usize)).collect();
        let mut start = 0;
        while start < pieces.len() {
            let (mut end, mut total) = (start, 0);
            while end < pieces.len() && (end == start || total + pieces[end].3 <= chunk) {
                total += pieces[end].3;
                end += 1;
            }
            let part: Vec<_> = pieces[start..end].iter().map(|p| (p.1, p.2, p.3)).collect();
            for (p, bytes) in pieces[start..end].iter().zip(self.read_once(&part)?) {
                out[p.0].extend_from_slice(&bytes);
            }
            start = end;
        }
        Ok(out)
    }

    /// Writes `words` to `buffer` from byte `offset` on, in pieces of [`Gpu::move_chunk`]
    /// bytes.
    pub(crate) fn write_words(&self, buffer: &wgpu::Buffer, offset: u64, words: &[u32]) {
        let per = (self.move_chunk() / 4) as usize;
        for (c, chunk) in words.chunks(per).enumerate() {
            self.queue.write_buffer(buffer, offset + (c * per * 4) as u64, &words_to_bytes(chunk));
        }
    }

    /// Reads back the ranges `(buffer, offset, bytes)` in one submission.
    pub(crate) fn read_once(&self, ranges: &[(&wgpu::Buffer, u64, u64)]) -> Result<Vec<Vec<u8>>, GpuError> {
        let total: u64 = ranges.iter().map(|r| r.2).sum();
        if total == 0 {
            return Ok(ranges.iter().map(|_| Vec::new()).collect());
        }
        let staging = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("readback"),
            size: total,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut enc = self.device.create_command_encoder(&Default::default());
        let mut at = 0;
        for &(buffer, offset, bytes) in ranges {
            if bytes > 0 {
                enc.copy_buffer_to_buffer(buffer, offset, &staging, at, bytes);
            }
            at += bytes;
        }
        self.queue.submit([enc.finish()]);
        let slice = staging.slice(..);
        let (tx, rx) = std::sync::mpsc::channel();
        slice.map_async(wgpu::MapMode::Read, move |r| {
            let _ = tx.send(r);
        });
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| GpuError::Reported(e.to_string()))?;
        rx.recv()
            .map_err(|e| GpuError::Reported(e.to_string()))?
            .map_err(|e| GpuError::Reported(e.to_string()))?;
        let out = {
            let view = slice.get_mapped_range().map_err(|e| GpuError::Reported(e.to_string()))?;
            let mut at = 0usize;
            ranges
                .iter()
                .map(|r| {
                    let part = view[at..at + r.2 as usize].to_vec();
                    at += r.2 as usize;
                    part
                })
                .collect()
        };
        staging.unmap();
        self.check_errors()?;
        Ok(out)
    }

    /// Sweeps the region `[0, x1) x [0, y1)` of `job`'s window and tallies the window's cells
    /// outside the hood.
    pub fn tally(&self, job: &Job, watch: &Watch<'_>) -> Result<Tally, GpuError> {
        job.check()?;
        let shape = job.shape;
        let [x0, y0, x1, y1] = job.window;
        let (tw, th) = (shape.width, shape.height());
        let nx = x1.div_ceil(tw);
        let ny = y1.div_ceil(th);
        let (region_w, region_h) = region(nx, ny, shape)?;
        let pipeline = self.pipeline(Kernel::Tally, shape, job.subgroups)?;
        let tiles = u64::from(nx) * u64::from(ny);
        let diagonals = nx + ny - 1;
        let slots = tiles.min(BATCH_TILES + u64::from(nx.min(ny)));
        // Skipping reads the neighbours' flags: it needs tiles of 2 x 2 cells at least.
        let skip = job.skip && tw >= 2 && th >= 2;
        let ([rows, cols, hist, keys, quiet], diags) = self.arrays(
            [
                ("row counter array", region_h),
                ("column counter array", region_w),
                ("histogram", 512),
                ("tile key array", slots * 4),
                ("tile flag array", if skip { 2 * u64::from(nx) } else { 1 }),
            ],
            region_w + region_h,
        )?;
        self.clear(&[&rows, &cols, &hist, &quiet]);
        let job_words = [job.k, x0, y0, x1, y1, job.limit, region_h as u32, if skip { nx } else { 0 }];
        let bound = self.bind(Kernel::Tally, &job_words, &[&rows, &cols, &hist, &keys, &quiet], &diags);

        watch.progress().set_length(tiles);
        let mut tally = Tally {
            counts: [0; 256],
            min: None,
            max: None,
            max_tiles: Vec::new(),
            computed: 0,
            region: region_w * region_h,
        };
        let mut skipped = 0u64;
        let mut bad: Option<Cell> = None;
        let mut done = 0u64;
        let mut d = 0u32;
        let mut budget = 64u64;
        while d < diagonals {
            let started = std::time::Instant::now();
            if watch.is_cancelled() {
                return Err(GpuError::Interrupted);
            }
            // The batch: diagonals d..e, their tiles in slots 0..n.
            let mut batch = Vec::new();
            let mut n = 0u64;
            let mut bytes = Vec::new();
            while d < diagonals && batch.len() < BATCH_DIAGONALS as usize && n < budget {
                let (i_min, count) = bound.step_at(d, nx, ny, n as u32, &mut bytes);
                batch.push((d, i_min, count, n));
                n += u64::from(count);
                d += 1;
            }
            let counts: Vec<u32> = batch.iter().map(|b| b.2).collect();
            self.dispatch(&bound, &pipeline, &bytes, &counts, None);
            let words = self.read(&keys, n * 4 * 4)?;
            for &(diag, i_min, count, base) in &batch {
                for t in 0..count {
                    let (i, j) = (i_min + t, diag - (i_min + t));
                    let (tx0, ty0) = (i * tw, j * th);
                    let w = &words[(base + u64::from(t)) as usize * 4..][..4];
                    let cell = |key: u32, v: i32| {
                        let pos = key & 0xff_ffff;
                        Cell { v, x: tx0 + pos % tw, y: ty0 + pos / tw }
                    };
                    if w[0] != NONE {
                        let c = cell(w[0], (w[0] >> 24) as i32 - 128);
                        if tally.min.is_none_or(|m| (c.v, c.y, c.x) < (m.v, m.y, m.x)) {
                            tally.min = Some(c);
                        }
                    }
                    if w[1] != NONE {
                        let c = cell(w[1], 127 - (w[1] >> 24) as i32);
                        if tally.max.is_none_or(|m| c.v > m.v) {
                            tally.max_tiles.clear();
                        }
                        if tally.max.is_none_or(|m| (-c.v, c.y, c.x) < (-m.v, m.y, m.x)) {
                            tally.max = Some(c);
                        }
                        if tally.max.is_some_and(|m| m.v == c.v) {
                            tally.max_tiles.push((i, j));
                        }
                    }
                    if w[2] == NONE && w[3] == NONE {
                        skipped += 1;
                    }
                    if w[2] != NONE {
                        let c = cell(w[2], w[3] as i32);
                        if bad.is_none_or(|m| (c.y, c.x) < (m.y, m.x)) {
                            bad = Some(c);
                        }
                    }
                }
            }
            done += n;
            budget = next_budget(budget, started.elapsed(), BATCH_TILES);
            watch.progress().set_position(done);
        }
        if let Some(c) = bad {
            return Err(GpuError::ValueRange { x: c.x, y: c.y, v: c.v, limit: job.limit });
        }
        tally.computed = tally.region - skipped * u64::from(tw) * u64::from(th);
        let h = self.read(&hist, 512 * 4)?;
        for (b, c) in tally.counts.iter_mut().enumerate() {
            *c = u64::from(h[2 * b]) | (u64::from(h[2 * b + 1]) << 32);
        }
        Ok(tally)
    }

    /// Binds a run of `kernel`: its job's words, a buffer of per-dispatch steps, `storage`
    /// from binding 2 on (the rows', the columns' and then the other arrays) with `diags`'
    /// parts at binding 4 and after the others.
    pub(crate) fn bind(
        &self,
        kernel: Kernel,
        job_words: &[u32],
        storage: &[&wgpu::Buffer],
        diags: &Diagonals,
    ) -> Bound {
        let job = self.uniform(kernel.label(), &words_to_bytes(job_words));
        let stride = u64::from(self.limits.min_uniform_buffer_offset_alignment).max(16);
        let steps = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("steps"),
            size: stride * u64::from(BATCH_DIAGONALS),
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut entries = vec![entry(0, &job, None), entry(1, &steps, Some(16))];
        let (&[rows, cols], rest) = storage.split_at(2) else { panic!("the rows' and the columns' arrays") };
        let all = [rows, cols, &diags.lo].into_iter().chain(rest.iter().copied()).chain([&diags.hi]);
        entries.extend(all.enumerate().map(|(b, buf)| entry(2 + b as u32, buf, None)));
        let group = self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(kernel.label()),
            layout: self.layout(kernel),
            entries: &entries,
        });
        let diag_split = diags.split.map_or(u32::MAX, |s| s as u32);
        Bound { steps, group, stride, diag_split }
    }

    /// Writes a batch's steps and submits one dispatch per tile-diagonal, `counts[b]` tiles for
    /// the `b`-th; first zeroes the `clear` bytes of a buffer.
    pub(crate) fn dispatch(
        &self,
        bound: &Bound,
        pipeline: &wgpu::ComputePipeline,
        steps: &[u8],
        counts: &[u32],
        clear: Option<(&wgpu::Buffer, u64)>,
    ) {
        self.queue.write_buffer(&bound.steps, 0, steps);
        let mut enc = self.device.create_command_encoder(&Default::default());
        if let Some((buffer, bytes)) = clear {
            enc.clear_buffer(buffer, 0, Some(bytes));
        }
        {
            let mut pass = enc.begin_compute_pass(&Default::default());
            pass.set_pipeline(pipeline);
            for (b, &count) in counts.iter().enumerate() {
                pass.set_bind_group(0, &bound.group, &[(b as u64 * bound.stride) as u32]);
                pass.dispatch_workgroups(count, 1, 1);
            }
        }
        self.queue.submit([enc.finish()]);
    }

    pub(crate) fn uniform(&self, label: &'static str, bytes: &[u8]) -> wgpu::Buffer {
        let buf = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size: bytes.len() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        self.queue.write_buffer(&buf, 0, bytes);
        buf
    }
}

/// A run's bindings: the steps of a batch (one per tile-diagonal, `stride` bytes apart) and
/// the bind group.
pub(crate) struct Bound {
    steps: wgpu::Buffer,
    group: wgpu::BindGroup,
    stride: u64,
    /// The step's `diag_split`.
    diag_split: u32,
}

impl Bound {
    /// Appends the step of tile-diagonal `d` of an `nx x ny` grid of tiles, whose first tile's
    /// slot is `slot`, to `bytes`; returns its first tile column and its tiles.
    pub(crate) fn step_at(&self, d: u32, nx: u32, ny: u32, slot: u32, bytes: &mut Vec<u8>) -> (u32, u32) {
        let i_min = d.saturating_sub(ny - 1);
        let count = d.min(nx - 1) - i_min + 1;
        let mut step = words_to_bytes(&[d, i_min, slot, self.diag_split]);
        step.resize(self.stride as usize, 0);
        bytes.extend_from_slice(&step);
        (i_min, count)
    }
}

/// The diagonal counter array: `lo`, and from `split` words on (where it is longer than one
/// storage binding may hold) `hi`, a buffer of one unused word otherwise.
pub(crate) struct Diagonals {
    lo: wgpu::Buffer,
    hi: wgpu::Buffer,
    split: Option<u64>,
}

impl Diagonals {
    /// The ranges `(buffer, offset, bytes)` holding the words `from..from + words`.
    pub(crate) fn ranges(&self, from: u64, words: u64) -> Vec<(&wgpu::Buffer, u64, u64)> {
        let split = self.split.unwrap_or(u64::MAX);
        let (a, b) = (from.min(split), (from + words).min(split));
        let mut out = vec![(&self.lo, a * 4, (b - a) * 4)];
        if from + words > split {
            let c = from.max(split);
            out.push((&self.hi, (c - split) * 4, (from + words - c) * 4));
        }
        out
    }

    /// Writes `words` from the array's start.
    pub(crate) fn write(&self, gpu: &Gpu, words: &[u32]) {
        let lo = self.split.map_or(words.len(), |s| (s as usize).min(words.len()));
        gpu.write_words(&self.lo, 0, &words[..lo]);
        gpu.write_words(&self.hi, 0, &words[lo..]);
    }
}

pub(crate) fn entry(binding: u32, buffer: &wgpu::Buffer, size: Option<u64>) -> wgpu::BindGroupEntry<'_> {
    wgpu::BindGroupEntry {
        binding,
        resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
            buffer,
            offset: 0,
            size: size.and_then(wgpu::BufferSize::new),
        }),
    }
}

pub(crate) fn words_to_bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// The little-endian words of `bytes` (whose length is a multiple of 4).
pub(crate) fn bytes_to_words(bytes: &[u8]) -> Vec<u32> {
    bytes.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes"))).collect()
}

/// The size of the adapter's largest device-local memory heap, where it is a Vulkan adapter.
#[cfg(any(windows, target_os = "linux", target_os = "android"))]
pub(crate) fn device_memory(adapter: &wgpu::Adapter) -> Option<u64> {
    // SAFETY: the adapter outlives the guard, and its raw handles are only used to read its
    // memory properties.
    let hal = unsafe { adapter.as_hal::<wgpu::hal::api::Vulkan>() }?;
    let instance = hal.shared_instance().raw_instance();
    // SAFETY: the physical device belongs to this instance, which is alive.
    let props = unsafe { instance.get_physical_device_memory_properties(hal.raw_physical_device()) };
    props
        .memory_heaps_as_slice()
        .iter()
        .filter(|heap| heap.flags.contains(ash::vk::MemoryHeapFlags::DEVICE_LOCAL))
        .map(|heap| heap.size)
        .max()
}

/// Metal and DirectX 12 adapters do not say here.
#[cfg(not(any(windows, target_os = "linux", target_os = "android")))]
pub(crate) fn device_memory(_adapter: &wgpu::Adapter) -> Option<u64> {
    None
}

/// The backends asked, in words.
pub(crate) fn looked_for(backends: wgpu::Backends) -> String {
    let mut names = Vec::new();
    for (b, name) in [
        (wgpu::Backends::VULKAN, "Vulkan"),
        (wgpu::Backends::METAL, "Metal"),
        (wgpu::Backends::DX12, "DirectX 12"),
    ] {
        if backends.contains(b) {
            names.push(name);
        }
    }
    if names.is_empty() {
        "no backend: WGPU_BACKEND names none this build has".into()
    } else {
        names.join(", ") + " devices"
    }
}
