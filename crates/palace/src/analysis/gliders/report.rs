//! What `palace gliders` reports: the textures' summaries and profile, the patches followed,
//! and the lattices of the textures ([`GlidersReport`]), as text and CSV.

use super::classify::{TEXTURES, Texture};
use super::track::{Patch, Place, TrackParams};
use crate::analysis::grid;
use serde::Serialize;

/// The width of the bins of [`TextureSummary::histogram`].
pub const VELOCITY_BIN: f64 = 0.05;

/// The shifts up to this in each coordinate make a texture's pooled autocorrelation.
pub const POOL_REACH: i64 = 40;

/// At most this many map cells of a texture are pooled (every n-th in row-major order).
pub const POOL_CELLS: usize = 4000;

/// The analysis' settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Params {
    /// The window's side in map cells (odd): `16 w` cells.
    pub w: usize,
    /// The classifier's threshold ([`super::classify::THRESHOLD`] by default).
    pub threshold: f32,
    /// The tracker's settings.
    pub track: TrackParams,
}

impl Default for Params {
    fn default() -> Self {
        Params { w: 5, threshold: super::classify::THRESHOLD, track: TrackParams::default() }
    }
}

/// The textures' shares in one band of distances from the nose.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProfileRow {
    /// The band `[from, to)` of `d = t / 2 - nose`, the distance along the diagonal at which
    /// the map cell's anti-diagonal crosses it.
    pub d: [f64; 2],
    /// Map cells with a texture.
    pub cells: usize,
    /// The share of each texture, in the order of [`TEXTURES`].
    pub share: [f64; 5],
    /// The mean scores: small grid, shallow family, steep family.
    pub scores: [f64; 3],
}

/// What was found of one texture.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TextureSummary {
    /// The texture.
    pub texture: Texture,
    /// Map cells of it in the large grid's zone.
    pub zone_cells: usize,
    /// Their share of the zone's map cells.
    pub zone_share: f64,
    /// Patches born in the zone.
    pub patches: usize,
    /// Of them, by kind: gliders, static, irregular, short.
    pub kinds: [usize; 4],
    /// Judged patches (not short) born in the zone per million fabric cells of the zone.
    pub per_million: f64,
    /// Judged patches by where they are born: edge, diagonal, inside.
    pub born: [usize; 3],
    /// Judged patches by where they die: edge, diagonal, inside.
    pub died: [usize; 3],
    /// The gliders' velocities: least, median, largest, mean, standard deviation (empty
    /// without gliders).
    pub velocity: Vec<f64>,
    /// The gliders' lives (in `t`): least, median, largest.
    pub life: Vec<f64>,
    /// The gliders' velocities in bins of `VELOCITY_BIN`: each non-empty bin's lower end
    /// and its gliders.
    pub histogram: Vec<(f64, usize)>,
}

/// A texture's own grid: the autocorrelation of the black cells pooled over (a sample of) its
/// map cells, its peaks and the lattice of each band of lengths, read as `palace grid` reads
/// them (`crate::analysis::grid::band_lattices`).
#[derive(Debug, Clone, Serialize)]
pub struct TextureLattice {
    /// The texture.
    pub texture: Texture,
    /// Its map cells.
    pub map_cells: usize,
    /// Map cells pooled.
    pub pooled: usize,
    /// The strongest peaks at least [`grid::MIN_LEN`] long.
    pub peaks: Vec<grid::Peak>,
    /// The lattice of each band of [`grid::BANDS`].
    pub lattices: Vec<grid::BandLattice>,
}

/// The result of `palace gliders`.
#[derive(Debug, Clone, Serialize)]
pub struct GlidersReport {
    /// The game.
    pub k: u32,
    /// The nose's coordinate, `(k - 1) / 3`.
    pub nose: u32,
    /// The window measured (the fabric's bounding box in the window asked for).
    pub window: [u32; 4],
    /// The map: the first column and row of its map cell (0, 0), map columns, map rows.
    pub map: [u32; 4],
    /// The map cell's side, in cells.
    pub cell: usize,
    /// The classifier's window side, in cells.
    pub side: usize,
    /// The classifier's threshold.
    pub threshold: f32,
    /// The tracker's least life, in `t`.
    pub min_life: f64,
    /// The small grid's, the shallow and the steep family's vectors.
    pub vectors: [[(i64, i64); 2]; 3],
    /// Fabric cells.
    pub fabric_cells: u64,
    /// Black cells among them.
    pub black_cells: u64,
    /// Map cells with a texture.
    pub map_cells: usize,
    /// Where the large grid's zone begins (`zone_start`): its first time `t` and the distance
    /// from the nose `t / 2 - nose` (`None`: the whole map, no map cell with a texture lies
    /// before it).
    pub zone: Option<[f64; 2]>,
    /// Fabric cells of the zone.
    pub zone_fabric_cells: u64,
    /// The textures' shares along the fabric.
    pub profile: Vec<ProfileRow>,
    /// Each texture's own grid.
    pub lattices: Vec<TextureLattice>,
    /// Each texture but the large grid: its patches born in the zone.
    pub textures: Vec<TextureSummary>,
    /// The patches born in the zone that are not short, by texture, then longest-lived first.
    pub patches: Vec<Patch>,
}

/// Writes the trajectories of `report`'s patches as CSV: one row per slice,
/// `patch,texture,kind,t,u,width,cells` (`patch` the index into the report's `patches`).
pub fn write_csv(report: &GlidersReport, mut w: impl std::io::Write) -> std::io::Result<()> {
    writeln!(w, "patch,texture,kind,t,u,width,cells")?;
    for (id, p) in report.patches.iter().enumerate() {
        for s in &p.slices {
            writeln!(
                w,
                "{id},{},{},{},{},{},{}",
                p.texture.key(),
                p.kind.name(),
                s.t,
                s.u,
                s.width,
                s.cells
            )?;
        }
    }
    w.flush()
}

impl std::fmt::Display for GlidersReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [x0, y0, x1, y1] = self.window;
        writeln!(
            f,
            "k = {}, nose ({n}, {n}); upper fabric in [{x0}, {x1}) x [{y0}, {y1}): {} cells, {} black; map cells of {c} x {c}, {} with a texture",
            self.k,
            self.fabric_cells,
            self.black_cells,
            self.map_cells,
            n = self.nose,
            c = self.cell
        )?;
        writeln!(
            f,
            "texture of the {s} x {s} window around each map cell: black cells' autocorrelation r at the small grid's {:?}, the shallow family's {:?} and the steep family's {:?} (the larger of each family's two); threshold {}: small grid if the small grid's mean r reaches it, else large grid if both families do, else steep only / shallow only, else neither",
            self.vectors[0],
            self.vectors[1],
            self.vectors[2],
            self.threshold,
            s = self.side
        )?;
        match self.zone {
            Some([t, d]) => writeln!(
                f,
                "large grid's zone: from t = {t} (d = {d} from the nose), the anti-diagonal that best splits the map into the small grid before it and the rest after it; {} fabric cells",
                self.zone_fabric_cells
            )?,
            None => writeln!(
                f,
                "large grid's zone: the whole map (no split before the first anti-diagonal leaves fewer map cells on the wrong side); {} fabric cells",
                self.zone_fabric_cells
            )?,
        }
        writeln!(
            f,
            "textures along the fabric (d = distance from the nose where the anti-diagonal t = x + y meets the diagonal):"
        )?;
        write!(f, "{:>15} {:>7}", "d", "cells")?;
        for t in TEXTURES {
            write!(f, " {:>12}", t.name())?;
        }
        writeln!(f, " | mean r: small shallow steep")?;
        for r in &self.profile {
            write!(f, "{:>15} {:>7}", format!("{}..{}", r.d[0], r.d[1]), r.cells)?;
            for s in r.share {
                write!(f, " {:>11.1}%", 100.0 * s)?;
            }
            writeln!(f, " | {:>6.3} {:>7.3} {:>5.3}", r.scores[0], r.scores[1], r.scores[2])?;
        }
        writeln!(
            f,
            "each texture's own grid: the black cells' autocorrelation pooled over its map cells (at most {POOL_CELLS}, every n-th), shifts up to {POOL_REACH}; per band of peak lengths v1, v2 (r), size = sqrt|det|, as palace grid reads them"
        )?;
        for l in &self.lattices {
            write!(f, "{:>12} {:>7} map cells ({:>4} pooled)", l.texture.name(), l.map_cells, l.pooled)?;
            for b in &l.lattices {
                match &b.lattice {
                    Some(x) => write!(
                        f,
                        " | {}..{}: ({},{}) {:.3} ({},{}) {:.3} size {:.1}",
                        b.band.0, b.band.1, x.v1.dx, x.v1.dy, x.v1.r, x.v2.dx, x.v2.dy, x.v2.r, x.size
                    )?,
                    None => write!(f, " | {}..{}: -", b.band.0, b.band.1)?,
                }
            }
            writeln!(f)?;
        }
        writeln!(
            f,
            "patches born in the zone (8-connected map cells of one texture), followed through t: judged if they live at least {} in t; a glider keeps its width (coefficient of variation <= 0.5) while its centre u = x - y moves along a line in t (rms residual <= a quarter of its width), at |v| >= 0.05 (static below)",
            self.min_life
        )?;
        writeln!(
            f,
            "{:>12} {:>10} {:>7} {:>8} {:>7} {:>7} {:>10} {:>8} | born: {:>5} {:>8} {:>6} | died: {:>5} {:>8} {:>6} | {:>8} | glider velocity du/dt: min median max (mean ± sd) | life min median max",
            "texture",
            "zone cells",
            "share",
            "patches",
            "gliders",
            "static",
            "irregular",
            "short",
            "edge",
            "diagonal",
            "inside",
            "edge",
            "diagonal",
            "inside",
            "per 1e6"
        )?;
        for s in &self.textures {
            write!(
                f,
                "{:>12} {:>10} {:>6.1}% {:>8} {:>7} {:>7} {:>10} {:>8} | born: {:>5} {:>8} {:>6} | died: {:>5} {:>8} {:>6} | {:>8.2} |",
                s.texture.name(),
                s.zone_cells,
                100.0 * s.zone_share,
                s.patches,
                s.kinds[0],
                s.kinds[1],
                s.kinds[2],
                s.kinds[3],
                s.born[Place::Edge as usize],
                s.born[Place::Diagonal as usize],
                s.born[Place::Inside as usize],
                s.died[Place::Edge as usize],
                s.died[Place::Diagonal as usize],
                s.died[Place::Inside as usize],
                s.per_million
            )?;
            match s.velocity.as_slice() {
                [lo, med, hi, mean, sd] => write!(f, " {lo:.3} {med:.3} {hi:.3} ({mean:.3} ± {sd:.3})")?,
                _ => write!(f, " -")?,
            }
            match s.life.as_slice() {
                [lo, med, hi] => writeln!(f, " | {lo} {med} {hi}")?,
                _ => writeln!(f, " | -")?,
            }
        }
        writeln!(
            f,
            "(born, died: where the judged patches' first and last slices lie; edge = within a window of the rift, the fray or the map's end; diagonal = within a window of the diagonal; per 1e6 = judged patches per million fabric cells of the zone)"
        )?;
        writeln!(f, "gliders' velocities du/dt in bins of {VELOCITY_BIN} (lower end: gliders):")?;
        for s in self.textures.iter().filter(|s| !s.histogram.is_empty()) {
            let bins: Vec<String> = s.histogram.iter().map(|(b, n)| format!("{b:+.2}: {n}")).collect();
            writeln!(f, "{:>12}: {}", s.texture.name(), bins.join(", "))?;
        }
        for tex in TEXTURES {
            let ps: Vec<&Patch> = self.patches.iter().filter(|p| p.texture == tex).collect();
            if ps.is_empty() {
                continue;
            }
            writeln!(f, "{} patches, longest-lived first ({} judged):", tex.name(), ps.len())?;
            writeln!(
                f,
                "{:>9} {:>20} {:>20} {:>7} {:>6} {:>8} {:>6} {:>7} {:>7} {:>5} kind",
                "life",
                "birth (x, y) at",
                "death (x, y) at",
                "cells",
                "v",
                "angle",
                "width",
                "resid",
                "w cv",
                ""
            )?;
            for p in ps.iter().take(12) {
                let at = |e: &super::track::End| format!("({:.0}, {:.0}) {}", e.x, e.y, e.place.name());
                writeln!(
                    f,
                    "{:>9} {:>20} {:>20} {:>7} {:>6.3} {:>7.1}° {:>6.0} {:>7.1} {:>7.2} {:>5} {}",
                    p.life,
                    at(&p.birth),
                    at(&p.death),
                    p.cells,
                    p.velocity,
                    p.angle,
                    p.width,
                    p.residual,
                    p.width_cv,
                    "",
                    p.kind.name()
                )?;
            }
        }
        Ok(())
    }
}
