//! What each request holds in memory ([`Need`]), and the checks of the files it writes.

use super::*;

/// What a request holds in memory, with the words that name it and the fix, for the check
/// against the machine's memory ([`crate::app::memory`]).
pub struct Need {
    /// The run's footprint.
    pub footprint: palace::analysis::footprint::Footprint,
    /// The flags that set its width, as given.
    pub what: String,
    /// How to make it smaller.
    pub fix: &'static str,
}

impl Config {
    /// The memory this request will need at most; `None` for the games (their own bounds
    /// apply) and `bench`'s fixed sizes are included.
    pub fn need(&self) -> Option<Need> {
        use palace::analysis::footprint::{Footprint, Work, footprint};
        const BOARD: &str = "use a narrower board or a --window with a smaller x1 (memory grows with it, not with the height), or fewer --threads";
        let board =
            |w: &Window| format!("sweeping {} columns (the --size or --width, or the --window's x1)", w.x1);
        let t = |run: &RunConfig| run.engine.threads;
        let cols = |w: &Window| u64::from(w.x1);
        Some(match self {
            Config::Render { window, png, run, .. } => Need {
                footprint: footprint(Work::Picture { zoom: png.zoom }, cols(window), t(run)),
                what: board(window),
                fix: BOARD,
            },
            Config::Tiles { window, tiles, run, .. } => Need {
                footprint: footprint(Work::Tiles { tile_size: tiles.tile_size }, cols(window), t(run)),
                what: board(window),
                fix: "use a narrower board or --window, a smaller --tile-size, or fewer --threads",
            },
            Config::Dump { window, run, .. } => Need {
                footprint: footprint(Work::Dump, cols(window), t(run)),
                what: board(window),
                fix: BOARD,
            },
            // A row sweep, as `dump`'s.
            Config::Positions(p) => Need {
                footprint: footprint(Work::Dump, u64::from(p.width()), t(&p.run)),
                what: format!("{} columns", p.width()),
                fix: "use fewer --rows or a smaller --width, or fewer --threads",
            },
            Config::Cell(c) => Need {
                footprint: footprint(Work::Dump, u64::from(c.width()), t(&c.run)),
                what: format!("{} columns", c.width()),
                fix: "use fewer --threads",
            },
            Config::Stats { window, palaces_only, by_counters, run, .. } => {
                let work = if *palaces_only {
                    Work::Palaces
                } else if *by_counters {
                    Work::StatsCounters
                } else {
                    Work::StatsCa
                };
                Need { footprint: footprint(work, cols(window), t(run)), what: board(window), fix: BOARD }
            }
            Config::Compare { window, comparison, region_search, search_shift, centre, run, .. } => {
                let fp = if let Some(r) = search_shift {
                    // Both windows are swept into memory (8 bytes a cell), B's widened by the
                    // radius each way.
                    let r = u64::from(*r);
                    let (w, h) = (u64::from(window.width()), u64::from(window.height()));
                    let columns = cols(window) + centre.0.unsigned_abs() + r;
                    footprint(Work::Compare, columns, t(run))
                        .with_fixed(8 * (w * h + (w + 2 * r) * (h + 2 * r)))
                } else {
                    let (dx, _) = comparison.shift;
                    let r = u64::from(region_search.unwrap_or(0));
                    // A region search sweeps a game per shift along a row of shifts at once.
                    footprint(Work::Compare, cols(window) + u64::from(dx) + r, t(run)).times(2 * r + 1)
                };
                Need { footprint: fp, what: board(window), fix: BOARD }
            }
            Config::Regions { window, run, .. } => Need {
                footprint: footprint(Work::Regions, cols(window), t(run)),
                what: board(window),
                fix: BOARD,
            },
            Config::Threads { window, run, .. } => Need {
                footprint: footprint(Work::Threads, cols(window), t(run)),
                what: board(window),
                fix: BOARD,
            },
            Config::Beams { window, scale, output, run, .. } => {
                let pixels = match output {
                    Some(_) => {
                        let (w, h) = palace::output::png::picture_size(*window, *scale);
                        u64::from(w) * u64::from(h)
                    }
                    None => 0,
                };
                Need {
                    footprint: footprint(Work::Beams, cols(window), t(run)).with_fixed(pixels),
                    what: board(window),
                    fix: BOARD,
                }
            }
            Config::Gliders { window, run, .. } => Need {
                footprint: footprint(Work::Gliders, cols(window), t(run)),
                what: board(window),
                fix: BOARD,
            },
            Config::Fabric { k, size, run, .. } => {
                // The last game's window lies furthest out; the three panels are held whole.
                let x1 = u64::from((k + 1) / 3) + u64::from(*size);
                let panels = 3 * u64::from(*size) * u64::from(*size);
                Need {
                    footprint: footprint(Work::Regions, x1, t(run)).with_fixed(panels),
                    what: format!(
                        "--k {k} --size {size}: sweeps {x1} columns wide (to the third nose and past it)"
                    ),
                    fix: "use a smaller --k or --size, or fewer --threads",
                }
            }
            Config::Skin { to, pattern, rows, run, .. } => {
                let work = if *rows { Work::SkinRows } else { Work::Skin { pattern: *pattern } };
                Need {
                    footprint: footprint(work, *to, t(run)),
                    what: format!("--to {to}"),
                    fix: "use a smaller --to, or fewer --threads",
                }
            }
            Config::Grid { k, side, at, run, .. } => {
                let x1 = u64::from((k - 1) / 3)
                    + u64::from(at.iter().copied().max().unwrap_or(0))
                    + u64::from(*side);
                let windows = at.len() as u64 * u64::from(*side) * u64::from(*side);
                Need {
                    footprint: footprint(Work::Regions, x1, t(run)).with_fixed(windows),
                    what: format!("--k {k}: sweeps {x1} columns wide (to the farthest window)"),
                    fix: "use a smaller --k, --at or --side, or fewer --threads",
                }
            }
            Config::Survey { survey, run, .. } => {
                // One board per worker at once, each on one thread: the largest k's board
                // labelled, and its skin followed past the shoulder.
                let boards =
                    palace::engine::resolve_threads(run.engine.threads).min(survey.ks().len()).max(1);
                let side = u64::from(survey.to) * u64::from(survey.factor);
                let mut one = footprint(Work::Regions, side, 1);
                if survey.skin {
                    let skin_to = u64::from(survey.to) + palace::analysis::survey::SKIN_SPANS[2];
                    one = one.plus(footprint(Work::Skin { pattern: false }, skin_to, 1));
                }
                Need {
                    footprint: one.times(boards as u64),
                    what: format!(
                        "--k ..{} --size-factor {} ({boards} boards at once)",
                        survey.to, survey.factor
                    ),
                    fix: "use a smaller B or --size-factor, or fewer --threads",
                }
            }
            Config::Check { wythoff_size, run, .. } => Need {
                footprint: footprint(Work::Picture { zoom: 1 }, u64::from(*wythoff_size), t(run)),
                what: format!("--wythoff-size {wythoff_size}"),
                fix: "use a smaller --wythoff-size, or fewer --threads",
            },
            Config::Bench { size, threads, analyses, .. } => {
                let most = threads.iter().copied().max().unwrap_or(1);
                let work = if *analyses { Work::Regions } else { Work::Picture { zoom: 1 } };
                let fp: Footprint = footprint(work, u64::from(*size), most);
                Need {
                    footprint: fp,
                    what: format!("--size {size}"),
                    fix: "use a smaller --size, or fewer --threads",
                }
            }
            _ => return None,
        })
    }
}

/// Checks before any work that `dir` is an existing folder this process can write in.
pub(super) fn check_writable_dir(dir: &std::path::Path, flag: &str) -> Result<()> {
    if !dir.is_dir() {
        return Err(Error::Usage(format!(
            "{flag} {}: no such folder; give an existing folder",
            dir.display()
        )));
    }
    tempfile::Builder::new().prefix(".palace-check").tempfile_in(dir).map(drop).map_err(|e| {
        Error::Usage(format!("{flag} {}: cannot write there ({e}); give a writable folder", dir.display()))
    })
}

impl Config {
    /// The files this run writes, each with the flag that names it (a checkpoint and the one
    /// it resumes from included), and whether it also prints a report on standard output.
    fn destinations(&self) -> (Vec<(&'static str, &std::path::Path)>, bool) {
        use std::path::Path;
        fn opt<'a>(flag: &'static str, p: &'a Option<PathBuf>) -> Option<(&'static str, &'a Path)> {
            p.as_deref().map(|p| (flag, p))
        }
        fn saves<'a>(
            c: &'a Option<SaveEvery>,
            r: &'a Option<PathBuf>,
        ) -> [Option<(&'static str, &'a Path)>; 2] {
            [c.as_ref().map(|(p, _)| ("--checkpoint", p.as_path())), opt("--resume", r)]
        }
        let (list, report): (Vec<Option<(&'static str, &Path)>>, bool) = match self {
            Config::Render { output, .. } | Config::Dump { output, .. } => {
                (vec![Some(("--output", output.as_path()))], false)
            }
            Config::Tiles { output, .. } => (vec![Some(("--output", output.as_path()))], true),
            // With `-o -` the list takes standard output and the report goes to standard error.
            Config::Positions(p) => {
                (vec![Some(("--output", p.output.as_path()))], p.output.as_os_str() != "-")
            }
            Config::Stats { checkpoint, resume, .. } => (saves(checkpoint, resume).to_vec(), true),
            Config::Skin { csv, plot, checkpoint, resume, .. } => {
                let mut v = vec![opt("--csv", csv), opt("--plot", plot)];
                v.extend(saves(checkpoint, resume));
                (v, true)
            }
            Config::Compare { output, .. }
            | Config::Regions { output, .. }
            | Config::Fabric { output, .. }
            | Config::Grid { output, .. } => (vec![opt("--output", output)], true),
            Config::Threads { csv, output, .. }
            | Config::Beams { csv, output, .. }
            | Config::Gliders { csv, output, .. } => (vec![opt("--csv", csv), opt("--output", output)], true),
            Config::Survey { output, plot, .. } => (vec![opt("--output", output), opt("--plot", plot)], true),
            Config::Bench { png_dir, .. } => (vec![opt("--png-dir", png_dir)], true),
            Config::FibonacciNim { output, .. }
            | Config::ZeckendorfPositions { output, .. }
            | Config::Subtraction { output, .. } => (vec![opt("--output", output)], true),
            Config::FraenkelArray { plot, .. } => (vec![opt("--plot", plot)], true),
            _ => (Vec::new(), true),
        };
        (list.into_iter().flatten().collect(), report)
    }

    /// Refuses two outputs of one run that land in one place, which would keep only one of
    /// them or mix them: two flags naming one file (compared after following links, so
    /// `a.png` and `./a.png` are one), or `-` (standard output) where the command also prints
    /// its report there or another output is `-`. A checkpoint may be the file it resumes
    /// from.
    pub(super) fn check_destinations(&self) -> Result<()> {
        let (list, report) = self.destinations();
        let mut seen: Vec<(&str, &std::path::Path, PathBuf)> = Vec::new();
        for (flag, path) in list {
            if path.as_os_str() == "-" {
                if flag == "--output" && matches!(self, Config::Tiles { .. }) {
                    return Err(Error::Usage(
                        "--output -: tiles writes a folder of files, which cannot go to standard output; give a folder name such as tiles".into(),
                    ));
                }
                if matches!(flag, "--checkpoint" | "--resume") {
                    return Err(Error::Usage(format!(
                        "{flag} -: a checkpoint is a file, not standard output; give a file name such as run.ckpt"
                    )));
                }
                if report {
                    return Err(Error::Usage(format!(
                        "{flag} -: the command prints its report on standard output too, and the two would be mixed; give {flag} a file name"
                    )));
                }
            }
            let resolved = resolve_destination(path);
            for (other, other_path, r) in &seen {
                let resumed =
                    matches!((*other, flag), ("--checkpoint", "--resume") | ("--resume", "--checkpoint"));
                if *r == resolved && !resumed {
                    let same = if *other_path == path {
                        format!("{other} and {flag} both name {}", path.display())
                    } else {
                        format!(
                            "{other} {} and {flag} {} name the same file",
                            other_path.display(),
                            path.display()
                        )
                    };
                    return Err(Error::Usage(format!(
                        "{same}, and one output would overwrite the other; give each its own name"
                    )));
                }
            }
            seen.push((flag, path, resolved));
        }
        Ok(())
    }
}

/// Where an output path lands, for comparing two outputs: `-` stays `-`; links are followed
/// (also to a file yet to be written); the rest is its folder's real path and its name.
fn resolve_destination(path: &std::path::Path) -> PathBuf {
    if path.as_os_str() == "-" {
        return path.to_path_buf();
    }
    let mut path = path.to_path_buf();
    // Follow links by hand, since `canonicalize` refuses one to a file not written yet.
    for _ in 0..40 {
        match std::fs::read_link(&path) {
            Ok(to) => path = path.parent().map_or(to.clone(), |d| d.join(&to)),
            Err(_) => break,
        }
    }
    if let Ok(p) = std::fs::canonicalize(&path) {
        return p;
    }
    let path = path.as_path();
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
    match (std::fs::canonicalize(dir), path.file_name()) {
        (Ok(d), Some(name)) => d.join(name),
        _ => std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()),
    }
}
