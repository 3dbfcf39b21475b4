//! The validation of the parsed arguments into a [`Config`] ([`Cli::into_config`]) and its
//! helpers.

use super::*;

impl RunArgs {
    pub(crate) fn resolve(&self) -> Result<RunConfig> {
        if self.threads > MAX_THREADS {
            return Err(Error::Usage(format!(
                "--threads {} is more than {MAX_THREADS}; use fewer",
                self.threads
            )));
        }
        let cores = palace::engine::available_cores();
        if self.threads > cores {
            eprintln!(
                "palace: warning: --threads {} is more than the {cores} cores here; the run will be slower and use more memory than with --threads {cores}",
                self.threads
            );
        }
        let kernel = KernelChoice::from(self.kernel);
        if !kernel.available() {
            return Err(Error::Usage(format!(
                "--kernel {}: this CPU does not support it; use --kernel auto",
                kernel.name()
            )));
        }
        for (flag, v) in [("--tile-width", self.tile_width), ("--band-height", self.band_height)] {
            if v.is_some_and(|v| !(2..=1 << 20).contains(&v)) {
                return Err(Error::Usage(format!("{flag} must lie in 2..=1048576")));
            }
        }
        Ok(RunConfig {
            engine: EngineOptions {
                threads: self.threads,
                kernel,
                tile_width: self.tile_width,
                band_height: self.band_height,
                ..EngineOptions::default()
            },
            quiet: self.quiet,
        })
    }
}

impl BoardArgs {
    /// The flags that chose the cells, as the user gave them (for messages).
    fn named(&self) -> String {
        match (self.window, self.size, self.width, self.height) {
            (Some(w), ..) => format!("--window {w}"),
            (None, Some(n), ..) => format!("--size {n}"),
            (None, None, Some(w), Some(h)) => format!("--width {w} --height {h}"),
            _ => "the board".into(),
        }
    }

    /// The board and window, validated.
    pub fn resolve(&self) -> Result<(Board, Window)> {
        let (w, h) = match (self.size, self.width, self.height) {
            (Some(n), _, _) => (n, n),
            (None, Some(w), Some(h)) => (w, h),
            _ => {
                return Err(Error::Usage("give the board as --size N or as --width W --height H".into()));
            }
        };
        if w == 0 || h == 0 {
            let flag = if self.size.is_some() {
                "--size"
            } else if w == 0 {
                "--width"
            } else {
                "--height"
            };
            return Err(Error::Usage(format!(
                "{flag} 0: the board needs at least one cell; use {flag} 1 or more"
            )));
        }
        let board = Board::new(self.k, w, h)?;
        let window = self.window.unwrap_or(board.full());
        board.check_window(&window)?;
        Ok((board, window))
    }
}

/// The bounds on a rendered picture: they apply to the picture, not to the board, and the
/// message names the flag that changes it.
fn check_picture(window: Window, scale: u32, zoom: u32) -> Result<()> {
    let (w, h) = palace::output::png::picture_size(window, scale);
    let (w, h) = (u64::from(w) * u64::from(zoom), u64::from(h) * u64::from(zoom));
    let fix = if zoom > 1 {
        "use a smaller --zoom".to_string()
    } else {
        let need = u64::from(window.width().max(window.height())).div_ceil(MAX_PICTURE_SIDE).max(2);
        format!("draw it smaller with --scale {need} or more, or draw a --window")
    };
    if w.max(h) > MAX_PICTURE_SIDE {
        return Err(Error::Usage(format!(
            "the picture would be {w} x {h} pixels, more than {MAX_PICTURE_SIDE} a side; {fix}"
        )));
    }
    if w * h > MAX_PICTURE_PIXELS {
        return Err(Error::Usage(format!(
            "the picture would be {w} x {h} = {} pixels, more than {MAX_PICTURE_PIXELS} (2^36); {fix}",
            w * h
        )));
    }
    Ok(())
}

fn check_scale(scale: u32) -> Result<()> {
    if scale == 0 {
        return Err(Error::Usage(
            "--scale 0: the scale is the block side in cells; use --scale 1 or more".into(),
        ));
    }
    Ok(())
}

impl Cli {
    /// Validates the parsed arguments into a [`Config`].
    pub fn into_config(self) -> Result<Config> {
        let config = match self.command {
            Command::Render(a) => {
                let (board, window) = a.board.resolve()?;
                check_scale(a.scale)?;
                if a.zoom == 0 || a.zoom > MAX_ZOOM {
                    return Err(Error::Usage(format!(
                        "--zoom {}: each cell becomes Z x Z pixels; use 1..={MAX_ZOOM}",
                        a.zoom
                    )));
                }
                check_picture(window, a.scale, a.zoom)?;
                Config::Render {
                    board,
                    window,
                    png: PngOptions {
                        scale: a.scale,
                        aggregate: a.aggregate.into(),
                        zoom: a.zoom,
                        scheme: a.palette.into(),
                        threads: a.run.threads,
                        legend: !a.no_legend,
                    },
                    output: a.output,
                    run: a.run.resolve()?,
                }
            }
            Command::Tiles(a) => {
                let (board, window) = a.board.resolve()?;
                if !TILE_SIZES.contains(&a.tile_size) {
                    return Err(Error::Usage(format!(
                        "--tile-size {}: tiles are square, this many pixels a side; use {}..={} (256 is usual)",
                        a.tile_size,
                        TILE_SIZES.start(),
                        TILE_SIZES.end()
                    )));
                }
                let TileFormat::Png = a.format.into();
                // The deepest level is the picture at full resolution: the bounds of `render`'s
                // pictures apply (each level holds a band of rows, so the width bounds memory).
                let (w, h) = (u64::from(window.width()), u64::from(window.height()));
                if w.max(h) > MAX_PICTURE_SIDE || w * h > MAX_PICTURE_PIXELS {
                    return Err(Error::Usage(format!(
                        "{}: the deepest level would be {w} x {h} pixels, more than {MAX_PICTURE_SIDE} a side or {MAX_PICTURE_PIXELS} (2^36) in all; draw a --window of it",
                        a.board.named()
                    )));
                }
                Config::Tiles {
                    board,
                    window,
                    tiles: TileOptions {
                        tile_size: a.tile_size,
                        aggregate: a.aggregate.into(),
                        threads: a.run.threads,
                    },
                    output: a.output,
                    run: a.run.resolve()?,
                }
            }
            Command::Dump(a) => {
                let (board, window) = a.board.resolve()?;
                let cells = window.cells();
                if cells > MAX_DUMP_CELLS {
                    let what = a.board.named();
                    return Err(Error::Usage(format!(
                        "{what}: {cells} cells would make a {} GiB .npy file, more than the {} GiB (2^36 cells) dump writes; choose a smaller board or a --window",
                        (cells * 4) >> 30,
                        (MAX_DUMP_CELLS * 4) >> 30
                    )));
                }
                Config::Dump {
                    board,
                    window,
                    values: a.values.into(),
                    output: a.output,
                    run: a.run.resolve()?,
                }
            }
            Command::Stats(a) => {
                let (board, window) = a.board.resolve()?;
                if a.palaces_only && a.board.window.is_some() {
                    return Err(Error::Usage(
                        "--palaces-only counts whole boards from the corner; drop --window and give the board with --size or --width/--height".into(),
                    ));
                }
                let (checkpoint, resume) = a.checkpoint.resolve()?;
                let backend = Backend::resolve(a.backend, a.gpu_shape.as_deref())?;
                if backend != Backend::Cpu {
                    if a.ca {
                        return Err(Error::Usage(
                            "--ca and --backend gpu: the GPU computes the three-counter form, not the CA rule; drop one of them".into(),
                        ));
                    }
                    if checkpoint.is_some() || resume.is_some() {
                        return Err(Error::Usage(
                            "--backend gpu keeps no checkpoints; drop --checkpoint and --resume, or use --backend cpu".into(),
                        ));
                    }
                }
                Config::Stats {
                    board,
                    window,
                    backend,
                    palaces_only: a.palaces_only,
                    by_counters: !a.ca && window.x0 == 0 && window.y0 == 0,
                    checkpoint,
                    resume,
                    json: a.json,
                    run: a.run.resolve()?,
                }
            }
            Command::GpuInfo(a) => Config::GpuInfo { json: a.json },
            Command::Positions(a) => Config::Positions(a.resolve()?),
            Command::Cell(a) => Config::Cell(a.resolve()?),
            Command::Branches(a) => Config::Branches(a.resolve()?),
            Command::Compare(a) => {
                let (board, window) = a.board.resolve()?;
                Board::new(a.k2, 1, 1).map_err(|_| {
                    Error::Usage(format!(
                        "--k2 {} is not a game: use 1 <= k2 <= {}",
                        a.k2,
                        palace::model::rule::MAX_K
                    ))
                })?;
                check_scale(a.scale)?;
                if a.search_region.is_some() && board.k > palace::model::rule::MAX_K - 3 {
                    return Err(Error::Usage(format!(
                        "--k {}: --search-region labels game K, which also plays k + 3; use --k <= {}",
                        board.k,
                        palace::model::rule::MAX_K - 3
                    )));
                }
                let Shift(sx, sy) = a.shift;
                if a.search_shift.is_none() && (sx < 0 || sy < 0) {
                    return Err(Error::Usage(format!(
                        "--shift {sx},{sy}: a negative shift only with --search-shift; to compare once, swap --k and --k2 and negate --shift and --offset"
                    )));
                }
                // The search checks its own shifts (negative ones included); here the shift of
                // one comparison or of a region search.
                let (dx, dy) = (sx.max(0) as u64, sy.max(0) as u64);
                if a.search_shift.is_none()
                    && (u64::from(window.x1) + dx > u64::from(MAX_SIDE)
                        || u64::from(window.y1) + dy > u64::from(MAX_SIDE))
                {
                    return Err(Error::Usage(format!(
                        "--shift {dx},{dy}: the shifted window {},{},{},{} of game K2 reaches past the largest coordinate, {MAX_SIDE} (2^30); use a smaller shift",
                        u64::from(window.x0) + dx,
                        u64::from(window.y0) + dy,
                        u64::from(window.x1) + dx,
                        u64::from(window.y1) + dy
                    )));
                }
                Config::Compare {
                    window,
                    comparison: palace::analysis::compare::Comparison {
                        a: board.k,
                        b: a.k2,
                        shift: (dx as u32, dy as u32),
                        offset: a.offset,
                    },
                    centre: (sx, sy),
                    search_region: a.search_region.map(SearchRegionArg::regions),
                    output: a.output,
                    scale: a.scale,
                    json: a.json,
                    search_shift: a.search_shift,
                    region_search: a.region_search,
                    run: a.run.resolve()?,
                    reference: a.reference,
                    legend: !a.no_legend,
                }
            }
            Command::Regions(a) => {
                let (board, window) = a.board.resolve()?;
                check_scale(a.scale)?;
                if board.k > palace::model::rule::MAX_K - 3 {
                    return Err(Error::Usage(format!(
                        "--k {}: regions also plays k + 3; use --k <= {}",
                        board.k,
                        palace::model::rule::MAX_K - 3
                    )));
                }
                Config::Regions {
                    board,
                    window,
                    output: a.output,
                    scale: a.scale,
                    json: a.json,
                    run: a.run.resolve()?,
                    reference: a.reference,
                    legend: !a.no_legend,
                }
            }
            Command::Fabric(a) => {
                if a.k < 4 || a.k > 1 << 24 {
                    return Err(Error::Usage(format!(
                        "--k {}: use 4 <= k <= {} for the fabric",
                        a.k,
                        1 << 24
                    )));
                }
                if a.size == 0 || a.size > 8192 {
                    return Err(Error::Usage(format!(
                        "--size {}: the panels are held in memory; use 1..=8192",
                        a.size
                    )));
                }
                Config::Fabric {
                    k: a.k,
                    size: a.size,
                    output: a.output,
                    json: a.json,
                    run: a.run.resolve()?,
                    reference: a.reference,
                }
            }
            Command::Skin(a) => {
                Board::new(a.k, 1, 1)?;
                let min_k = palace::analysis::skin::MIN_K;
                if a.k < min_k {
                    return Err(Error::Usage(format!(
                        "--k {}: games k = 1 and 2 have no arm (outer space is not a prefix of row 1), so no skin to follow; use --k {min_k} or more",
                        a.k
                    )));
                }
                if a.to <= u64::from(a.k) || a.to > u64::from(MAX_SIDE) {
                    return Err(Error::Usage(format!(
                        "--to {}: the skin starts at the shoulder ({}, 0) and columns stop at 2^30; use {} < X <= {}",
                        a.to, a.k, a.k, MAX_SIDE
                    )));
                }
                let (checkpoint, resume) = a.checkpoint.resolve()?;
                Config::Skin {
                    k: a.k,
                    to: a.to,
                    csv: a.csv,
                    plot: a.plot,
                    json: a.json,
                    rows: a.rows,
                    pattern: a.pattern,
                    checkpoint,
                    resume,
                    run: a.run.resolve()?,
                }
            }
            Command::Bench(a) => {
                Board::new(a.k, a.size, a.size)?;
                if a.size > MAX_BENCH_SIDE {
                    return Err(Error::Usage(format!(
                        "--size {}: the baseline would take hours; use --size <= {MAX_BENCH_SIDE}",
                        a.size
                    )));
                }
                let png_dir = (!a.no_png).then(|| a.png_dir.clone().unwrap_or_else(std::env::temp_dir));
                if let Some(dir) = &png_dir {
                    check_writable_dir(dir, "--png-dir")?;
                }
                let run = RunArgs {
                    threads: a.threads,
                    kernel: a.kernel,
                    quiet: a.quiet,
                    tile_width: None,
                    band_height: None,
                }
                .resolve()?;
                let most = run.engine.resolved_threads();
                if a.repeat == 0 || a.repeat > 100 {
                    return Err(Error::Usage(format!("--repeat {}: use 1..=100", a.repeat)));
                }
                if Backend::resolve(a.backend, None)? != Backend::Cpu {
                    return Ok(Config::BenchGpu {
                        k: a.k,
                        size: a.size,
                        repeat: a.repeat,
                        json: a.json,
                        run,
                    });
                }
                Config::Bench {
                    k: a.k,
                    size: a.size,
                    threads: vec![1, most],
                    kernel: a.kernel.into(),
                    repeat: a.repeat,
                    png_dir,
                    analyses: a.analyses,
                    json: a.json,
                    quiet: a.quiet,
                }
            }
            Command::Game(GameArgs { game: GameCommand::FibonacciNim(a) }) => {
                if a.to == 0 {
                    return Err(Error::Usage("--to 0: the piles start at 1; use --to 1 or more".into()));
                }
                if a.grundy && a.to > MAX_GRUNDY_TO {
                    return Err(Error::Usage(format!(
                        "--to {} with --grundy: the table takes N^2 bytes; use --to <= {MAX_GRUNDY_TO}",
                        a.to
                    )));
                }
                if a.to > MAX_NIM_TO {
                    return Err(Error::Usage(format!(
                        "--to {}: listing every winning first move takes about N^2 / 6 steps; use --to <= {MAX_NIM_TO}",
                        a.to
                    )));
                }
                if let Some(o) = &a.output {
                    let ext = o.extension().map(|e| e.to_string_lossy().to_lowercase());
                    if !matches!(ext.as_deref(), Some("png" | "npy" | "csv")) {
                        return Err(Error::Usage(format!(
                            "--output {}: the format comes from the extension; name it .png, .npy or .csv",
                            o.display()
                        )));
                    }
                }
                Config::FibonacciNim {
                    to: a.to,
                    grundy: a.grundy,
                    output: a.output,
                    check: a.check,
                    json: a.json,
                    run: a.run.resolve()?,
                }
            }
            Command::Game(GameArgs { game: GameCommand::Zeckendorf(a) }) => {
                let hole = match a.hole {
                    None => None,
                    Some(0 | 1) => {
                        return Err(Error::Usage(format!(
                            "--hole {}: on the F_1 board every piece falls into the hole at once (the paper's §3: not playable); use --hole 2 or more",
                            a.hole.unwrap_or(0)
                        )));
                    }
                    Some(m) if m > palace::games::zeckendorf::MAX_COLUMNS as u64 + 1 => {
                        return Err(Error::Usage(format!(
                            "--hole {m}: boards have at most {} columns; use --hole <= {}",
                            palace::games::zeckendorf::MAX_COLUMNS,
                            palace::games::zeckendorf::MAX_COLUMNS + 1
                        )));
                    }
                    Some(m) => Some(m as usize),
                };
                if a.positions {
                    let (Some(m), Some(v)) = (hole, a.max_value) else {
                        return Err(Error::Usage("--positions needs --hole M and --max-value V".into()));
                    };
                    if let Some(o) = &a.output {
                        let ext = o.extension().map(|e| e.to_string_lossy().to_lowercase());
                        if !matches!(ext.as_deref(), Some("png" | "csv")) {
                            return Err(Error::Usage(format!(
                                "--output {}: the format comes from the extension; name it .csv or .png",
                                o.display()
                            )));
                        }
                    }
                    check_memo(m - 1, v, "--max-value")?;
                    Config::ZeckendorfPositions {
                        hole: m,
                        max_value: v,
                        output: a.output,
                        json: a.json,
                        run: a.run.resolve()?,
                    }
                } else {
                    let to = a.to.unwrap_or(0);
                    if to == 0 {
                        return Err(Error::Usage("--to 0: n starts at 1; use --to 1 or more".into()));
                    }
                    match hole {
                        Some(m) => check_memo(m - 1, to, "--to")?,
                        None => {
                            // Above 2000 the count alone is slow; it is far beyond the memo there.
                            let positions = if to > 2000 { u64::MAX } else { original_positions(to) };
                            if positions / 4 > MAX_MEMO_BYTES {
                                let why = if to > 2000 {
                                    "the original game has more than 10^14 positions beyond n = 2000"
                                        .to_string()
                                } else {
                                    format!(
                                        "n = {to} has {positions} positions, whose memo would take {} GiB (more than {})",
                                        (positions / 4) >> 30,
                                        MAX_MEMO_BYTES >> 30
                                    )
                                };
                                return Err(Error::Usage(format!(
                                    "--to {to}: {why}; use --to <= {} (or a black hole, --hole M)",
                                    largest_original_to()
                                )));
                            }
                        }
                    }
                    Config::Zeckendorf {
                        to,
                        hole,
                        census: a.census,
                        check: a.check,
                        json: a.json,
                        run: a.run.resolve()?,
                    }
                }
            }
            Command::Game(GameArgs { game: GameCommand::Subtraction(a) }) => subtraction_config(a)?,
            Command::Game(GameArgs { game: GameCommand::FraenkelArray(a) }) => {
                if a.check {
                    if a.to == 0 || a.to > MAX_FRAENKEL_TO {
                        return Err(Error::Usage(format!(
                            "--to {}: the check keeps one bit per integer up to X; use 1 <= --to <= {MAX_FRAENKEL_TO}",
                            a.to
                        )));
                    }
                    Config::FraenkelCheck { to: a.to, json: a.json, run: a.run.resolve()? }
                } else {
                    let rows = a.rows.unwrap_or(0);
                    if rows == 0 || rows > MAX_FRAENKEL_ROWS {
                        return Err(Error::Usage(format!(
                            "--rows {rows}: use 1 <= --rows <= {MAX_FRAENKEL_ROWS}"
                        )));
                    }
                    if a.columns == 0 || a.columns > palace::games::fraenkel::BASIS_LEN {
                        return Err(Error::Usage(format!(
                            "--columns {}: entries beyond column {} exceed 64 bits; use 1 <= --columns <= {}",
                            a.columns,
                            palace::games::fraenkel::BASIS_LEN - 1,
                            palace::games::fraenkel::BASIS_LEN
                        )));
                    }
                    if let Some(p) = &a.plot
                        && !p.extension().is_some_and(|e| e.eq_ignore_ascii_case("png"))
                    {
                        return Err(Error::Usage(format!(
                            "--plot {}: the picture is a PNG; name it .png",
                            p.display()
                        )));
                    }
                    Config::FraenkelArray {
                        rows: rows as usize,
                        columns: a.columns,
                        json: a.json,
                        csv: a.csv,
                        plot: a.plot,
                        table: a.table,
                        run: a.run.resolve()?,
                    }
                }
            }
            Command::Game(GameArgs { game: GameCommand::FraenkelU(a) }) => {
                if let Some(n) = a.numbers.iter().find(|&&n| n == 0) {
                    return Err(Error::Usage(format!(
                        "{n}: the representations are of positive integers; use N >= 1"
                    )));
                }
                Config::FraenkelU { numbers: a.numbers, json: a.json, run: a.run.resolve()? }
            }
            Command::Game(GameArgs { game: GameCommand::Frankenstein(a) }) => {
                if !(2..=MAX_FRANKENSTEIN_SQUARES).contains(&a.squares) {
                    return Err(Error::Usage(format!(
                        "--squares {}: the search visits 2^N positions; use 2 <= --squares <= {MAX_FRANKENSTEIN_SQUARES}",
                        a.squares
                    )));
                }
                if !(2..=MAX_FRANKENSTEIN_BOUND).contains(&a.bound) {
                    return Err(Error::Usage(format!(
                        "--bound {}: (A) tests every pair of claimed positions; use 2 <= --bound <= {MAX_FRANKENSTEIN_BOUND}",
                        a.bound
                    )));
                }
                if !(3..=MAX_FRANKENSTEIN_SUM).contains(&a.max_sum) {
                    return Err(Error::Usage(format!(
                        "--max-sum {}: use 3 <= --max-sum <= {MAX_FRANKENSTEIN_SUM}",
                        a.max_sum
                    )));
                }
                Config::Frankenstein {
                    squares: a.squares,
                    type2: a.type2.into(),
                    bound: a.bound,
                    check: a.check,
                    max_sum: a.max_sum,
                    json: a.json,
                    run: a.run.resolve()?,
                }
            }
            Command::Threads(a) => {
                let (board, window) = a.board.resolve()?;
                check_scale(a.scale)?;
                if board.k > palace::model::rule::MAX_K - 3 {
                    return Err(Error::Usage(format!(
                        "--k {}: threads labels the regions, which also plays k + 3; use --k <= {}",
                        board.k,
                        palace::model::rule::MAX_K - 3
                    )));
                }
                if a.reach == 0 || a.reach > 64 {
                    return Err(Error::Usage(format!("--reach {}: use 1..=64 columns", a.reach)));
                }
                Config::Threads {
                    board,
                    window,
                    csv: a.csv,
                    output: a.output,
                    scale: a.scale,
                    reach: a.reach,
                    json: a.json,
                    run: a.run.resolve()?,
                    legend: !a.no_legend,
                }
            }
            Command::Beams(a) => {
                let (board, window) = a.board.resolve()?;
                check_scale(a.scale)?;
                if board.k > palace::model::rule::MAX_K - 3 {
                    return Err(Error::Usage(format!(
                        "--k {}: beams labels the regions, which also plays k + 3; use --k <= {}",
                        board.k,
                        palace::model::rule::MAX_K - 3
                    )));
                }
                if a.gap == 0 || a.gap > 4096 {
                    return Err(Error::Usage(format!("--gap {}: use 1..=4096 rows", a.gap)));
                }
                if a.tolerance == 0 || a.tolerance > 256 {
                    return Err(Error::Usage(format!("--tolerance {}: use 1..=256 columns", a.tolerance)));
                }
                if a.output.is_some() {
                    palace::analysis::beams::picture_pixels(window, a.scale)?;
                }
                Config::Beams {
                    board,
                    window,
                    params: palace::analysis::beams::Params { gap: a.gap, tolerance: a.tolerance },
                    csv: a.csv,
                    output: a.output,
                    scale: a.scale,
                    json: a.json,
                    run: a.run.resolve()?,
                    legend: !a.no_legend,
                }
            }
            Command::Check(a) => {
                if a.max_k == 0 {
                    return Err(Error::Usage("--max-k 0: k starts at 1; use --max-k 1 or more".into()));
                }
                if a.max_size == 0 || a.max_size > 16 {
                    return Err(Error::Usage(format!(
                        "--max-size {}: the exact solver handles boards from 1 up to 16; use 1..=16",
                        a.max_size
                    )));
                }
                if a.max_k > 6 {
                    return Err(Error::Usage(format!(
                        "--max-k {}: the solver enumerates every blocked set, which is too slow beyond k = 6; use --max-k <= 6",
                        a.max_k
                    )));
                }
                if a.wythoff_size == 0 || a.wythoff_size > MAX_WYTHOFF_SIDE {
                    return Err(Error::Usage(format!(
                        "--wythoff-size {}: use 1..={MAX_WYTHOFF_SIDE}",
                        a.wythoff_size
                    )));
                }
                Config::Check {
                    max_k: a.max_k,
                    max_size: a.max_size,
                    wythoff_size: a.wythoff_size,
                    json: a.json,
                    run: a.run.resolve()?,
                }
            }
            Command::Survey(a) => a.resolve()?,
            Command::Grid(a) => a.resolve()?,
            Command::Gliders(a) => a.resolve()?,
        };
        config.check_destinations()?;
        Ok(config)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_is_well_formed() {
        Cli::command().debug_assert();
    }

    /// The help of `regions` and `fabric` states the block side the code decides on.
    #[test]
    fn help_states_the_block_side() {
        let b = palace::labels::BLOCK;
        for name in ["regions", "fabric"] {
            let mut cmd = Cli::command();
            let sub = cmd.find_subcommand_mut(name).expect("subcommand");
            let help = sub.render_long_help().to_string();
            assert!(help.contains(&format!("{b} x {b}")), "{name} --help: {help}");
        }
    }

    /// Each bound a message of the engine's and the analyses' commands names, as the command
    /// line that holds the value `{}`, the smallest and the largest value accepted. The games
    /// have their own table.
    fn bounds() -> Vec<(String, u64, u64)> {
        use palace::model::rule::MAX_K;
        let side = u64::from(MAX_SIDE);
        let ck = std::env::temp_dir().join("palace-bounds.ckpt").display().to_string();
        let k3 = u64::from(MAX_K - 3);
        vec![
            ("render --k {} --size 1 -o x.png".into(), 1, u64::from(MAX_K)),
            ("stats --k 5 --size {}".into(), 1, side),
            ("stats --k 5 --width {} --height 3".into(), 1, side),
            ("stats --k 5 --width 3 --height {}".into(), 1, side),
            ("stats --k 5 --size 10 --threads {}".into(), 0, MAX_THREADS as u64),
            (format!("stats --k 5 --size 10 --checkpoint {ck} --every {{}}"), 0, 1_000_000),
            ("render --k 5 --size 1 --zoom {} -o x.png".into(), 1, u64::from(MAX_ZOOM)),
            ("render --k 5 --width {} --height 1 --no-legend -o x.png".into(), 1, MAX_PICTURE_SIDE),
            ("tiles --k 5 --size 10 --tile-size {} -o t".into(), 16, 4096),
            ("tiles --k 5 --width {} --height 1 -o t".into(), 1, MAX_PICTURE_SIDE),
            ("dump --k 5 --width 262144 --height {} -o x.npy".into(), 1, MAX_DUMP_CELLS >> 18),
            ("skin --k 5 --to {}".into(), 6, side),
            ("skin --k {} --to 1000".into(), u64::from(palace::analysis::skin::MIN_K), 999),
            ("regions --k {} --size 10".into(), 1, k3),
            ("threads --k {} --size 10".into(), 1, k3),
            ("threads --k 5 --size 10 --reach {}".into(), 1, 64),
            ("beams --k {} --size 10".into(), 1, k3),
            ("beams --k 5 --size 10 --gap {}".into(), 1, 4096),
            ("beams --k 5 --size 10 --tolerance {}".into(), 1, 256),
            ("compare --k 5 --k2 {} --size 10".into(), 1, u64::from(MAX_K)),
            ("compare --k 5 --k2 6 --size 1 --shift {},0".into(), 0, side - 1),
            ("compare --k 5 --k2 6 --size 10 --shift {},0 --search-shift 1".into(), 0, side),
            ("fabric --k {} --size 10".into(), 4, 1 << 24),
            ("fabric --k 998 --size {}".into(), 1, 8192),
            ("grid --k {} --at 2".into(), 4, k3),
            ("grid --k 9999 --side {} --reach 8".into(), 16, u64::from(MAX_GRID_SIDE)),
            ("gliders --k {} --size 10".into(), 4, k3),
            ("survey --k 5..{} --size-factor 1".into(), 5, k3),
            ("survey --k 5..6 --size-factor {}".into(), 1, u64::from(MAX_SIZE_FACTOR)),
            ("check --max-k {}".into(), 1, 6),
            ("check --max-size {}".into(), 1, 16),
            ("check --wythoff-size {}".into(), 1, u64::from(MAX_WYTHOFF_SIDE)),
            ("bench --size {} --no-png".into(), 1, u64::from(MAX_BENCH_SIDE)),
            ("bench --repeat {} --no-png".into(), 1, 100),
            ("render --k 5 --size 10 --tile-width {} -o x.png".into(), 2, 1 << 20),
        ]
    }

    /// Whether validation accepts the command line `template` with `v` in place of `{}`.
    fn accepts(template: &str, v: u64) -> bool {
        let line = template.replace("{}", &v.to_string());
        let words = std::iter::once("palace").chain(line.split_whitespace());
        Cli::try_parse_from(words)
            .map_err(|e| e.to_string())
            .and_then(|c| c.into_config().map_err(|e| e.to_string()))
            .is_ok()
    }

    /// Every bound is exact: its smallest and largest values are accepted, one below and one
    /// above refused.
    #[test]
    fn every_bound_named_is_accepted_and_one_past_it_refused() {
        for (t, lo, hi) in bounds() {
            assert!(accepts(&t, lo), "{t} with {lo} is refused");
            assert!(accepts(&t, hi), "{t} with {hi} is refused");
            assert!(!accepts(&t, hi + 1), "{t} with {} is accepted", hi + 1);
            if lo > 0 {
                assert!(!accepts(&t, lo - 1), "{t} with {} is accepted", lo - 1);
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 48, ..Default::default() })]
        /// Every value within a bound is accepted and every value past it refused.
        #[test]
        fn values_within_the_bounds_are_accepted(i in 0usize..36, f in 0.0f64..1.0, past in 1u64..1 << 40) {
            let all = bounds();
            let (t, lo, hi) = &all[i % all.len()];
            let v = lo + ((hi - lo) as f64 * f) as u64;
            proptest::prop_assert!(accepts(t, v), "{} with {} is refused", t, v);
            proptest::prop_assert!(!accepts(t, hi + past), "{} with {} is accepted", t, hi + past);
        }
    }

    #[test]
    fn validation_names_the_flag() {
        let parse = |args: &[&str]| {
            crate::app::errors::message(&Cli::try_parse_from(args).unwrap().into_config().unwrap_err())
        };
        assert!(parse(&["palace", "render", "--k", "0", "--size", "5", "-o", "x.png"]).contains("--k 0"));
        assert!(parse(&["palace", "render", "--k", "3", "--size", "0", "-o", "x.png"]).contains("--size 0"));
        assert!(
            parse(&["palace", "render", "--k", "3", "--size", "5", "--scale", "0", "-o", "x.png"])
                .contains("--scale 0")
        );
        assert!(
            parse(&["palace", "stats", "--k", "3", "--size", "5", "--window", "0,0,6,5"]).contains("x1 <= 5")
        );
        assert!(
            parse(&["palace", "stats", "--k", "3", "--size", "5", "--window", "2,0,2,5"]).contains("empty")
        );
    }
}
