//! The library's errors in the command line's words: where the library reports a parameter
//! as data ([`ParameterError`]) or a state the user continues with a flag, the message names the
//! flag and the fix, as users have always seen it. Every other error prints as it is.

use palace::Error;
use palace::error::{CheckpointProblem, ParameterError};

/// What `palace: error:` is followed by for `e`.
pub fn message(e: &Error) -> String {
    match e {
        Error::Parameter(p) => parameter(p),
        Error::SkinUnfinished { to, rows } => format!(
            "--to {to}: the skin did not end within {rows} rows, the bound for its columns, which assumes that the outer boundary descends in steps at least 2 columns wide (docs/skin.md, \"Small games\"); the run stops without a result"
        ),
        Error::Checkpoint { problem, .. } => {
            let fix = match problem {
                CheckpointProblem::Corrupt => "start the run again without --resume",
                CheckpointProblem::Version { .. } => {
                    "finish it with that version or start again without --resume"
                }
                CheckpointProblem::Run { .. } => {
                    "give the same command and board, or start again without --resume"
                }
                _ => "start again without --resume",
            };
            format!("{e}; {fix}")
        }
        Error::Paused { path, rows, height } => {
            let path = path.display();
            format!(
                "interrupted; the run so far is in the checkpoint {path} ({rows} of {height} rows done): continue it with --resume {path}"
            )
        }
        #[cfg(feature = "gpu")]
        Error::Gpu(palace::gpu::GpuError::Memory { .. } | palace::gpu::GpuError::TooLarge { .. }) => {
            format!("{e}: ask for a smaller board, or compute it with --backend cpu")
        }
        e => e.to_string(),
    }
}

/// A parameter error worded with the flag that gave the parameter.
fn parameter(p: &ParameterError) -> String {
    use ParameterError as P;
    match p {
        P::KZero => "--k 0 is not a game: k is at least 1 (k = 1 is classical Wythoff Nim)".into(),
        P::KTooLarge { k, max } => {
            format!("--k {k} is too large: palace numbers reach 3k and must fit int32; use --k <= {max}")
        }
        P::SideZero { side } => {
            format!("the board {side} is 0; give --size N or --width W --height H with N, W, H >= 1")
        }
        P::WindowEmpty { window } => {
            format!("--window {window} is empty; give x0,y0,x1,y1 with x0 < x1 and y0 < y1 (half-open)")
        }
        P::WindowOutside { window, width, height } => {
            let fix = palace::error::inside(window, *width, *height);
            format!("--window {window} lies outside the {width} x {height} board; use {fix}")
        }
        P::PictureTooLarge { scale, width, height, max, min_scale } => format!(
            "--scale {scale}: the beams picture of the window would be {width} x {height} pixels, more than the {max} it keeps in memory; use --scale {min_scale} or more, or a smaller --window"
        ),
        P::NoGridWindow { k } => {
            format!(
                "--k {k}: no window of the fabric fits between the nose and 1.25 k; use a larger --k or give --at"
            )
        }
        P::NoFabric { window, nose: n } => format!(
            "--window {window}: no cell of it is labelled fabric above the diagonal; the fabric lies along the diagonal from the nose ({n}, {n}) to about 1.6 k (give a window that reaches it, or a larger --size)"
        ),
        P::PanelSize { size, max } => format!("--size {size}: the panels are held in memory; use 1..={max}"),
        P::NoArm { k, min } => format!(
            "--k {k}: games k = 1 and 2 have no arm (outer space is not a prefix of row 1), so no skin to follow; use --k {min} or more"
        ),
        P::SkinEnd { to, k, max } => format!(
            "--to {to}: the skin starts at the shoulder (k, 0) = ({k}, 0) and columns stop at {max}; use {k} < X <= {max}"
        ),
        P::RegionRadius { radius, max } => format!(
            "--region-search {radius}: at most {max} ({} comparisons); use a smaller radius",
            (2 * u64::from(*max) + 1).pow(2)
        ),
        P::RegionPastSide { radius, max } => format!(
            "--region-search {radius}: the shifted window reaches past the largest coordinate, {max} (2^30); use a smaller radius or shift"
        ),
        P::ShiftTooFar { dx, dy, max } => {
            format!("--shift {dx},{dy}: a shift lies within {max} (2^30) of 0; use a smaller shift")
        }
        P::ShiftsOffBoard { dx, dy, radius, window: w } => format!(
            "--shift {dx},{dy} --search-shift {radius}: every shift searched moves the window {},{},{},{} off the board (left of column 0 or above row 0); use a larger shift or radius",
            w.x0, w.y0, w.x1, w.y1
        ),
        P::SearchTooLarge { radius, shifts, cells, max } => format!(
            "--search-shift {radius}: {shifts} shifts of a window of {cells} cells is more than {max} comparisons; use a smaller radius or window"
        ),
        P::ShiftPastSide { radius, max } => {
            format!(
                "--search-shift {radius}: the shifted window reaches past {max}; use a smaller radius or shift"
            )
        }
        P::NoRegionCell { window: w, k, regions } => format!(
            "--search-region: no cell of the window {},{},{},{} of game {k} lies in {regions}; use another window",
            w.x0, w.y0, w.x1, w.y1
        ),
        p => p.to_string(),
    }
}
