//! The command line: the commands ([`Cli`], [`Command`]) and the dispatch of each to its module
//! under [`crate::app::commands`], which holds its flags, their validation and its run. The
//! flag groups several commands share are in [`crate::app::flags`].

use crate::app::commands::{
    beams, bench, branches, cell, check, compare, dump, fabric, game, gliders, gpu_info, grid, positions,
    regions, render, skin, stats, survey, threads, tiles,
};
use crate::app::error::Result;
use crate::app::print::ExitCode;
use crate::app::request::Context;
use clap::{Parser, Subcommand};

/// Computes, draws and measures the blocking-queen cellular automaton.
///
/// k-Blocking Wythoff Nim is a queen game where the player who just moved may block k-1 of the
/// opponent's next moves. Its palace numbers N (how many winning positions the queen sees
/// looking west, north and north-west) follow one k-independent fourth-order cellular
/// automaton (Cook, Larsson and Neary, AUTOMATA 2015). Coordinates: x is the column, y the row,
/// (0, 0) is the top-left corner; windows are half-open x0,y0,x1,y1.
#[derive(Debug, Parser)]
#[command(name = "palace", version, about, long_about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Draw the palace numbers as an 8-bit indexed PNG with the paper's palette.
    ///
    /// Colours: hood dark brown; outside it by v = N - k: v <= -4 dark olive, -3 olive,
    /// -2 light olive, -1 yellow (these are palaces), 0 black, 1 blue, 2 indigo, >= 3 violet.
    /// At full resolution the PNG is streamed row by row; memory grows with the width only.
    Render(render::RenderArgs),
    /// Write a Deep Zoom tile pyramid and a viewer page, to look at a giant board in a browser.
    ///
    /// The deepest level has one pixel per cell in the paper's palette; each level above
    /// reduces the one below 2x as `render --scale` does (--aggregate). DIR/index.html opens
    /// the pyramid with OpenSeadragon straight from the file system. One streamed sweep;
    /// memory grows with the width only.
    Tiles(tiles::TilesArgs),
    /// Export a window as a NumPy .npy array: little-endian int32, shape (rows, columns).
    Dump(dump::DumpArgs),
    /// Count cells and palaces, histogram v outside the hood, and find the extreme values.
    Stats(stats::StatsArgs),
    /// Name the GPU adapter that `--backend gpu` uses (a build with `--features gpu`).
    GpuInfo(gpu_info::GpuInfoArgs),
    /// List the P-positions of the first rows as CSV and check that each row holds exactly k.
    ///
    /// Sorted by y then x; every row, column and diagonal holds at most k P-positions, and the
    /// report says whether each row holds exactly k (Larsson's exact k-cover).
    Positions(positions::PositionsArgs),
    /// One cell's palace number N, its value v = N - k and whether it is a P-position.
    Cell(cell::CellArgs),
    /// Group the P-positions with x <= y into branches of y/x and measure each one's limit.
    ///
    /// Each branch: its share of the positions, its ratio (least squares over rows Y/2..Y) at
    /// Y = 10^3, 10^4, ..., N, the estimated limit with its error, and the limit's exact form
    /// where one of small height matches within the error and is unlikely by chance.
    Branches(branches::BranchesArgs),
    /// Cross-check the engine against an exact solver of the game itself on small boards.
    ///
    /// Exits 1 if any cell disagrees.
    Check(check::CheckArgs),
    /// Compare two games cell by cell (the paper's Fig. 4).
    ///
    /// Cell (x, y) of game K matches when N_K2(x + dx, y + dy) = N_K(x, y) + d. Prints the match
    /// fraction overall and per region of game K, and draws game K with non-matching cells
    /// white. The paper's cases: --k 497 --k2 500 --shift 1,1 --offset 3 and --k 499 --k2 500
    /// --shift 1,0 --offset 1.
    Compare(compare::CompareArgs),
    /// Label every cell with its region (hood, outer space, épaulettes, fabric, arms, rifts,
    /// fray, warps, inner sector).
    ///
    /// Hood: closed form. Outer space: quiet v = 0 columns/rows beyond the shoulders.
    /// Épaulettes: the (5,1)/(4,3)-periodic pattern. Rifts: the bands between épaulette and
    /// fabric that keep the period (81,31). Fabric: reproduced by game k+3 shifted (1,1).
    /// Arms: reproduced by game k+1 shifted (1,0) or (0,1). The rest: the fray (12 cells past
    /// the fabric), the inner sector (at most 4 palaces in the 64 x 64 square ending at the
    /// cell), the warps. The tests are decided on 8 x 8 blocks and refined to the cell where a
    /// block is mixed. Prints per-region counts, palace densities and histograms, the
    /// junctions it can locate and the upper rift's width along its length; draws the region
    /// map.
    Regions(regions::RegionsArgs),
    /// The three fabrics (paper Fig. 7): the nose of one k of each class mod 3, side by side.
    ///
    /// Also measures each fabric (cells that game k+3 reproduces shifted by (1,1), on 8 x 8
    /// blocks) and checks that it is a prefix of one infinite fabric: how much of it games
    /// k+6 and k+30, aligned at their noses, reproduce as well.
    Fabric(fabric::FabricArgs),
    /// Follow the upper arm's skin from the shoulder (k, 0) out to column X (paper §3.4).
    ///
    /// Measures per column the skin's top row and vertical and diagonal thickness, per row its
    /// horizontal thickness, and from these the skin's levels n (vertical thickness f(2n), or
    /// f(2n)+1 where a line is emitted), where each level begins, its periods, slope and the
    /// step pattern of its outer boundary. Computes only the rows the skin needs.
    Skin(skin::SkinArgs),
    /// Time the baseline (the paper's three-counter programme) against the fast engine.
    ///
    /// Both compute every cell of the board with statistics and a digest; their outputs must
    /// agree. Prints cells per second, the speed-up on one thread, the thread scaling and the
    /// peak memory of each run.
    Bench(bench::BenchArgs),
    /// Solve the games lab's games exactly: Fibonacci nim, the Zeckendorf games, subtraction
    /// games, Fraenkel's array and numeration system U, and Frankenstein.
    ///
    /// Each game is solved by exhaustive search over its rules; `--check` runs every checkable
    /// statement of the texts they come from against the result (docs/games-claims.md). Every
    /// game takes the common flags: --threads sets the worker threads of its parallel parts,
    /// -q/--quiet hides the progress bar and the summaries on stderr, and --kernel is accepted
    /// but has no effect (the games have no tile kernel). The first Ctrl-C, SIGTERM or SIGHUP
    /// stops a run (exit 130, 143, 129) and leaves no output file.
    Game(game::GameArgs),
    /// Find, follow and measure the threads of the upper warp (paper §3.2, §4 questions 5-7).
    ///
    /// Traces the palaces above the diagonal labelled fray, warp or inner sector (the rest, as
    /// `regions` labels it) row by row: cells on the same or the next row at most 4 columns
    /// apart belong to one thread. Reports the threads' thicknesses (palaces per row, the
    /// left warp's vertical thickness by symmetry) and how many are Fibonacci numbers, whether
    /// thicknesses add where threads merge, which threads running to the edge are periodic,
    /// and the innermost threads' slopes with their continued fractions and nearest quadratic
    /// irrationals. Draws the threads over the picture.
    Threads(threads::ThreadsArgs),
    /// Find, follow and measure the beams of the inner sector (paper §3.1, §4 question 5).
    ///
    /// Keeps the lone palaces of the inner sector (rest palaces with no other within 4 cells on
    /// their row or column, and at most 4 crowded palaces in the 64 x 64 square centred on
    /// them) and strings them into beams, above and below the diagonal: a track follows
    /// the least-squares line through its last cells, taking the nearest palace within
    /// --tolerance columns, and may skip --gap rows; pieces in line are joined. Reports each
    /// beam's palaces per row, its slope over the whole beam and over stretches, the period and
    /// balance (Sturmian or not) of its column sequence, the continued fraction and nearest
    /// quadratic irrational of its slope, and which lower beam is each upper one's mirror image.
    /// Draws the beams over the picture.
    Beams(beams::BeamsArgs),
    /// Survey a range of k on boards of the same relative size, (F k) x (F k): one CSV row per k.
    ///
    /// Columns (docs/survey.md): k,min_v,max_v,max_x,max_y,states (v outside the hood;
    /// (max_x, max_y) the first cell in row-major order holding max_v; states = distinct v),
    /// size (the board's side), max_cells, max_clusters, max_spread (the cells holding max_v), hot_region and
    /// armpit_dist (region labels around the hottest cell), prism (along the diagonal), and
    /// skin2_onset, skin3_onset (where the skin's levels 2 and 3 begin, past the shoulder,
    /// followed beyond the board) with skin_span. All cores busy, one k per core.
    Survey(survey::SurveyArgs),
    /// Measure the grid of the fabric's black cells (paper §3.2) by exact autocorrelation.
    ///
    /// Square windows of the upper fabric (cells that `regions` labels fabric, above the
    /// diagonal), their lower-left corner on the diagonal at (nose + d, nose + d), at several
    /// distances d from the nose. In each, the autocorrelation of the black cells (v = 0) and
    /// of the palaces (v < 0) over every shift up to --reach, counted exactly on bitsets; its
    /// strongest peaks; the lattice of the two strongest non-parallel ones (at least 8 cells
    /// long, 20 degrees apart): the grid cell's vectors, area, size and angles.
    Grid(grid::GridArgs),
    /// Follow the fabric's meta-gliders (paper §3.2): patches of one texture moving through the
    /// large grid.
    ///
    /// The upper fabric (cells that `regions` labels fabric, above the diagonal) in map cells of
    /// 16 x 16; each gets the texture of the --side x --side window around it, from the black
    /// cells' autocorrelation (v = 0, exact counts on bitsets as `grid` counts them) at the small
    /// grid's vectors (13, 9), (9, 13) and at the large grid's two families of threads, shallow
    /// (31, 13) and steep (13, 31): small grid, large grid, steep only, shallow only or neither.
    /// The patches of each texture (8-connected) born past the small grid's zone are followed
    /// through the CA's time t = x + y (anti-diagonals): life, trajectory u = x - y against t,
    /// velocity du/dt, width; judged glider (steady width, centre on a line), static, irregular
    /// or short-lived. Draws the map of textures.
    Gliders(gliders::GlidersArgs),
}

impl Command {
    /// Validates the command's arguments and runs it.
    pub fn run(self, ctx: &Context) -> Result<ExitCode> {
        match self {
            Command::Render(a) => render::run(a, ctx),
            Command::Tiles(a) => tiles::run(a, ctx),
            Command::Dump(a) => dump::run(a, ctx),
            Command::Stats(a) => stats::run(a, ctx),
            Command::GpuInfo(a) => gpu_info::run(a, ctx),
            Command::Positions(a) => positions::run(a, ctx),
            Command::Cell(a) => cell::run(a, ctx),
            Command::Branches(a) => branches::run(a, ctx),
            Command::Check(a) => check::run(a, ctx),
            Command::Compare(a) => compare::run(a, ctx),
            Command::Regions(a) => regions::run(a, ctx),
            Command::Fabric(a) => fabric::run(a, ctx),
            Command::Skin(a) => skin::run(a, ctx),
            Command::Bench(a) => bench::run(a, ctx),
            Command::Game(a) => game::run(a, ctx),
            Command::Threads(a) => threads::run(a, ctx),
            Command::Beams(a) => beams::run(a, ctx),
            Command::Survey(a) => survey::run(a, ctx),
            Command::Grid(a) => grid::run(a, ctx),
            Command::Gliders(a) => gliders::run(a, ctx),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::commands::{bench::MAX_BENCH_SIDE, check::MAX_WYTHOFF_SIDE, dump::MAX_DUMP_CELLS};
    use crate::app::commands::{grid::MAX_GRID_SIDE, render::MAX_ZOOM, survey::MAX_SIZE_FACTOR};
    use crate::app::flags::MAX_PICTURE_SIDE;
    use clap::CommandFactory;
    use palace::model::bounds::MAX_THREADS;
    use palace::model::geometry::MAX_SIDE;

    /// Validates a parsed command line (its outputs checked too) without running it.
    fn validate(cli: Cli) -> Result<ExitCode> {
        cli.command.run(&Context::validation())
    }

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
            .and_then(|c| validate(c).map_err(|e| e.to_string()))
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

    /// The name table names every library parameter by a flag some command takes.
    #[test]
    fn every_parameter_is_named_by_a_flag_of_a_command() {
        use palace::error::{Param, Vocabulary};
        let cli = Cli::command();
        let mut flags = std::collections::BTreeSet::new();
        let mut stack: Vec<&clap::Command> = vec![&cli];
        while let Some(c) = stack.pop() {
            flags.extend(c.get_arguments().filter_map(|a| a.get_long()).map(|l| format!("--{l}")));
            stack.extend(c.get_subcommands());
        }
        for p in Param::ALL {
            let flag = crate::app::errors::Flags.name(p);
            assert!(flags.contains(&flag), "{p:?} is named {flag}, which no command takes");
        }
    }

    #[test]
    fn validation_names_the_flag() {
        let parse = |args: &[&str]| {
            crate::app::errors::message(&validate(Cli::try_parse_from(args).unwrap()).unwrap_err())
        };
        // A game out of range is refused by --k's parser, in the flag's words.
        let e =
            Cli::try_parse_from(["palace", "render", "--k", "0", "--size", "5", "-o", "x.png"]).unwrap_err();
        assert!(e.to_string().contains("--k 0 is not a game"), "{e}");
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

/// Every bound a refusal of `palace game` names ("use ... <= N") is accepted, and one past it
/// refused: validation only, no run.
#[cfg(test)]
mod game_bounds {
    use super::*;
    use crate::app::request::Context;
    use proptest::prelude::*;

    /// The commands and flags with a bound; `X` is the value tried, `M` a black hole's column.
    const CASES: &[&[&str]] = &[
        &["game", "zeckendorf", "--to", "X"],
        &["game", "zeckendorf", "--to", "X", "--hole", "M"],
        &["game", "zeckendorf", "--positions", "--hole", "M", "--max-value", "X"],
        &["game", "zeckendorf", "--to", "5", "--hole", "X"],
        &["game", "fibonacci-nim", "--to", "X"],
        &["game", "fibonacci-nim", "--grundy", "--to", "X"],
        &["game", "subtraction", "--to", "X"],
        &["game", "subtraction", "--to", "100", "--row-length", "X"],
        &["game", "fraenkel-array", "--rows", "X"],
        &["game", "fraenkel-array", "--rows", "5", "--columns", "X"],
        &["game", "fraenkel-array", "--check", "--to", "X"],
        &["game", "frankenstein", "--squares", "X"],
        &["game", "frankenstein", "--squares", "5", "--bound", "X"],
        &["game", "frankenstein", "--squares", "5", "--check", "--max-sum", "X"],
    ];

    /// Validates `case` with `X = x` and `M = m`; the refusal's message on failure (clap's
    /// or ours).
    fn validate(case: &[&str], x: u64, m: u64) -> std::result::Result<(), String> {
        let args = std::iter::once("palace".to_string()).chain(case.iter().map(|a| match *a {
            "X" => x.to_string(),
            "M" => m.to_string(),
            a => a.to_string(),
        }));
        let cli = Cli::try_parse_from(args).map_err(|e| e.to_string())?;
        cli.command.run(&Context::validation()).map(drop).map_err(|e| crate::app::errors::message(&e))
    }

    /// The flag and the `N` of "use ... --flag <= N" in a message.
    fn named_bound(msg: &str) -> Option<(String, u64)> {
        let i = msg.rfind("<= ")?;
        let n = msg[i + 3..].chars().take_while(char::is_ascii_digit).collect::<String>().parse().ok()?;
        let flag = msg[..i].split_whitespace().last()?.to_string();
        Some((flag, n))
    }

    /// If `case` with `X = x`, `M = m` is refused with a named bound `N` on the flag of `X` or
    /// `M`: that flag at `N` is accepted and at `N + 1` refused, the other flag kept (another
    /// flag out of its own bounds may still be refused at `N`, by a message naming that flag).
    fn named_bound_holds(case: &[&str], x: u64, m: u64) -> std::result::Result<Option<u64>, String> {
        let Err(msg) = validate(case, x, m) else { return Ok(None) };
        let Some((flag, n)) = named_bound(&msg) else { return Ok(None) };
        let holder = case.windows(2).find(|w| w[0] == flag).map(|w| w[1]);
        let at = |v: u64| match holder {
            Some("X") => validate(case, v, m),
            _ => validate(case, x, v),
        };
        if !matches!(holder, Some("X" | "M")) {
            return Ok(None);
        }
        // At N the flag passes its own checks (another flag given out of its bounds may still be
        // refused, with a message of its own); at N + 1 it is refused for itself.
        let about_flag = |r: &std::result::Result<(), String>| {
            r.as_ref().is_err_and(|e| e.starts_with(&format!("{flag} ")))
        };
        let (at_n, past) = (at(n), at(n + 1));
        if about_flag(&at_n) {
            return Err(format!(
                "{case:?} X = {x}, M = {m}: \"{msg}\" names {flag} <= {n}, which is refused: {at_n:?}"
            ));
        }
        if !about_flag(&past) {
            return Err(format!(
                "{case:?} X = {x}, M = {m}: \"{msg}\" names {flag} <= {n}, but {} is not refused for it: {past:?}",
                n + 1
            ));
        }
        Ok(Some(n))
    }

    /// Every case refuses a large value with a bound it names, and the bound holds.
    #[test]
    fn every_game_bound_named_is_the_largest_accepted() {
        for case in CASES {
            for m in [2, 4, 25] {
                let named = [u64::from(u32::MAX), 1 << 40]
                    .into_iter()
                    .map(|x| named_bound_holds(case, x, m))
                    .collect::<std::result::Result<Vec<_>, _>>()
                    .unwrap_or_else(|e| panic!("{e}"));
                assert!(
                    named.iter().any(Option::is_some),
                    "{case:?} M = {m}: no bound named for large values"
                );
                // With every other flag in its bounds, the command at N passes validation.
                for n in named.into_iter().flatten() {
                    assert_eq!(validate(case, n, m), Ok(()), "{case:?} X = {n}, M = {m}");
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

        #[test]
        fn any_game_refusal_names_a_bound_that_holds(
            case in 0..CASES.len(),
            x in prop_oneof![0u64..100, 0u64..1 << 20, 0u64..1 << 40],
            m in 2u64..=26,
        ) {
            if let Err(e) = named_bound_holds(CASES[case], x, m) {
                prop_assert!(false, "{}", e);
            }
        }
    }
}
