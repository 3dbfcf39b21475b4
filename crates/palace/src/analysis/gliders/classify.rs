//! The classifier: each map cell's texture from the autocorrelation of its window at the
//! small grid's vectors and at the large grid's (the vectors `palace grid` measures along the
//! fabric, `docs/fabric-grid.md`). The large grid is two families of threads, a shallow one
//! along (31, 13) and a steep one along (13, 31); the classifier looks at each family apart,
//! since the fabric far from the nose holds long stretches where only one of them repeats.

use super::texture::{self, CELL, MapGeometry, Planes};
use crate::engine::Cancel;
use crate::error::Result;
use serde::Serialize;

/// The small grid's vectors: (13, 9) and (9, 13), the black cells' lattice for d = 384 to
/// 1024 from the nose (`docs/fabric-grid.md`, "The small grid").
pub const SMALL: [(i64, i64); 2] = [(13, 9), (9, 13)];
/// The large grid's shallow vectors: (31, 13) and (32, 14), the large grid's `v1` in the
/// windows of `palace grid` (`docs/fabric-grid.md`, "The large grid": (31 ± 1, 13 ± 1)).
pub const SHALLOW: [(i64, i64); 2] = [(31, 13), (32, 14)];
/// The large grid's steep vectors, the mirror images of [`SHALLOW`].
pub const STEEP: [(i64, i64); 2] = [(13, 31), (14, 32)];
/// The shifts measured, in this order: [`SMALL`], [`SHALLOW`], [`STEEP`].
pub const SHIFTS: [(i64, i64); 6] = [SMALL[0], SMALL[1], SHALLOW[0], SHALLOW[1], STEEP[0], STEEP[1]];

/// The default threshold on the correlations: in windows of 80 x 80 cells the small grid
/// near the nose and the large grid far from it have `r` of 0.10 to 0.25 at their vectors,
/// while a grid's vectors in the other grid's texture have `r` below 0.03 in all but a few
/// windows.
pub const THRESHOLD: f32 = 0.08;

/// A map cell's texture.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Texture {
    /// The small grid: the mean `r` at [`SMALL`] reaches the threshold.
    Small,
    /// The large grid: both families reach the threshold (the larger `r` of [`SHALLOW`] and
    /// of [`STEEP`]), the small grid does not.
    Large,
    /// The large grid's steep family alone.
    Steep,
    /// The large grid's shallow family alone.
    Shallow,
    /// Neither grid.
    Neither,
}

/// The textures, by index.
pub const TEXTURES: [Texture; 5] =
    [Texture::Small, Texture::Large, Texture::Steep, Texture::Shallow, Texture::Neither];

/// A map cell without a texture: less than half of it is fabric, or its window holds too few
/// pairs of fabric cells at some shift.
pub const NO_DATA: u8 = u8::MAX;

impl Texture {
    /// The texture's index in [`TEXTURES`].
    pub fn index(self) -> u8 {
        self as u8
    }

    /// The texture of an index in [`TEXTURES`].
    pub(crate) fn from_index(i: u8) -> Texture {
        TEXTURES[usize::from(i)]
    }

    /// The name in JSON and CSV.
    pub fn key(self) -> &'static str {
        match self {
            Texture::Small => "small",
            Texture::Large => "large",
            Texture::Steep => "steep",
            Texture::Shallow => "shallow",
            Texture::Neither => "neither",
        }
    }

    /// The name shown in tables and legends.
    pub fn name(self) -> &'static str {
        match self {
            Texture::Small => "small grid",
            Texture::Large => "large grid",
            Texture::Steep => "steep only",
            Texture::Shallow => "shallow only",
            Texture::Neither => "neither",
        }
    }
}

/// A window's three scores: the small grid's (mean `r` at [`SMALL`]), the shallow family's
/// and the steep family's (the larger `r` at [`SHALLOW`], at [`STEEP`]).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Scores {
    /// The small grid's score.
    pub small: f32,
    /// The shallow family's score.
    pub shallow: f32,
    /// The steep family's score.
    pub steep: f32,
}

impl Scores {
    /// The scores from `r` at [`SHIFTS`], in order.
    pub(crate) fn from_r(r: &[f32]) -> Scores {
        Scores { small: (r[0] + r[1]) / 2.0, shallow: r[2].max(r[3]), steep: r[4].max(r[5]) }
    }

    /// The texture under `threshold`: the small grid first (near the nose the two grids are
    /// present together, and the large grid's vectors lie within 1.5 cells of the small
    /// grid's point 3 (13, 9) - (9, 13) = (30, 14)), then the large grid, then one family,
    /// then neither.
    pub fn texture(self, threshold: f32) -> Texture {
        let (sh, st) = (self.shallow >= threshold, self.steep >= threshold);
        if self.small >= threshold {
            Texture::Small
        } else if sh && st {
            Texture::Large
        } else if st {
            Texture::Steep
        } else if sh {
            Texture::Shallow
        } else {
            Texture::Neither
        }
    }
}

/// The map of textures.
#[derive(Debug, Clone, PartialEq)]
pub struct ClassMap {
    /// Where the map lies.
    pub geometry: MapGeometry,
    /// The window's side, in map cells.
    pub w: usize,
    /// The threshold.
    pub threshold: f32,
    /// Each map cell's texture index ([`Texture::index`]) or [`NO_DATA`]: index `j * mw + i`.
    pub class: Vec<u8>,
    /// Each map cell's scores (`NaN` where it has no data).
    pub scores: Vec<Scores>,
    /// Fabric cells in each map cell.
    pub fabric: Vec<u16>,
}

impl ClassMap {
    /// The texture of map cell `(i, j)`, if it has one.
    pub fn texture(&self, i: usize, j: usize) -> Option<Texture> {
        let c = self.class[j * self.geometry.mw + i];
        (c != NO_DATA).then(|| Texture::from_index(c))
    }
}

/// Classifies every map cell of the planes: the autocorrelation at [`SHIFTS`] over the window
/// of `w x w` map cells centred on it (`w` odd), its [`Scores`] and [`Texture`] under
/// `threshold`. Map cells less than half fabric get [`NO_DATA`]. Stops with
/// [`EngineError::Interrupted`](crate::error::EngineError::Interrupted) once `cancel` is cancelled.
pub fn classify(p: &Planes, w: usize, threshold: f32, cancel: &Cancel) -> Result<ClassMap> {
    let geometry = p.map_geometry();
    let n = geometry.mw * geometry.mh;
    let mut m = ClassMap {
        geometry,
        w,
        threshold,
        class: Vec::with_capacity(n),
        scores: Vec::with_capacity(n),
        fabric: Vec::with_capacity(n),
    };
    let half = (CELL * CELL / 2) as u16;
    texture::rows(p, &SHIFTS, w, cancel, |_, r, fabric| {
        for (rr, &f) in r.chunks_exact(SHIFTS.len()).zip(fabric) {
            let s = Scores::from_r(rr);
            let ok = f >= half && rr.iter().all(|v| v.is_finite());
            m.class.push(if ok { s.texture(threshold).index() } else { NO_DATA });
            m.scores.push(if ok {
                s
            } else {
                Scores { small: f32::NAN, shallow: f32::NAN, steep: f32::NAN }
            });
            m.fabric.push(f);
        }
    })?;
    Ok(m)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::model::geometry::Window;

    /// Whether `(x, y)` is a point `i a + j b` of the lattice with basis `a`, `b`.
    pub(crate) fn on_lattice(a: (i64, i64), b: (i64, i64), x: i64, y: i64) -> bool {
        let det = a.0 * b.1 - a.1 * b.0;
        (x * b.1 - y * b.0) % det == 0 && (a.0 * y - a.1 * x) % det == 0
    }

    /// All fabric, black exactly on the lattice of `a`, `b`.
    fn lattice_planes(side: u32, a: (i64, i64), b: (i64, i64)) -> Planes {
        Planes::from_fn(Window::new(0, 0, side, side).unwrap(), |x, y| {
            Some(on_lattice(a, b, i64::from(x), i64::from(y)))
        })
    }

    /// The textures of the map cells with data, and their count.
    fn textures(m: &ClassMap) -> (Vec<Texture>, usize) {
        let t: Vec<Texture> =
            m.class.iter().filter(|&&c| c != NO_DATA).map(|&c| Texture::from_index(c)).collect();
        let n = t.len();
        (t, n)
    }

    /// Pure lattices are classified as the grid whose vectors they have: the small grid
    /// ((13, 9), (9, 13)), the large grid ((31, 13), (13, 31)), its steep family with the
    /// shallow one at (28, 12) and its mirror image, and a lattice of neither.
    #[test]
    fn pure_lattices_get_their_texture() {
        for (a, b, want) in [
            ((13, 9), (9, 13), Texture::Small),
            ((31, 13), (13, 31), Texture::Large),
            ((32, 14), (14, 32), Texture::Large),
            ((13, 31), (28, 12), Texture::Steep),
            ((31, 13), (12, 28), Texture::Shallow),
            ((12, 28), (28, 12), Texture::Neither),
        ] {
            let m = classify(&lattice_planes(320, a, b), 5, THRESHOLD, &Cancel::new()).unwrap();
            let (t, n) = textures(&m);
            // A window reaching past the planes' edge keeps a quarter of its pairs: all of the
            // 20 x 20 map cells but the outermost ring have data.
            assert!(n >= 18 * 18, "{a:?} {b:?}: {n} map cells with data");
            assert!(t.iter().all(|&x| x == want), "{a:?} {b:?}: {:?}", t.iter().find(|&&x| x != want));
            let inner = m.scores[10 * 20 + 10];
            let lattice_r = match want {
                Texture::Small => inner.small,
                Texture::Large | Texture::Shallow => inner.shallow,
                Texture::Steep | Texture::Neither => inner.steep,
            };
            if want != Texture::Neither {
                assert!(lattice_r > 0.95, "{a:?} {b:?}: {inner:?}");
            }
        }
    }

    /// Scattered black cells have no grid.
    #[test]
    fn noise_has_neither_grid() {
        // A hash of the cell: black on about 60 % of the cells, with no period.
        let p = Planes::from_fn(Window::new(0, 0, 320, 320).unwrap(), |x, y| {
            let h = (u64::from(x) << 32 | u64::from(y)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            Some((h ^ h >> 29).wrapping_mul(0xbf58_476d_1ce4_e5b9) >> 60 < 10)
        });
        let (t, n) = textures(&classify(&p, 5, THRESHOLD, &Cancel::new()).unwrap());
        assert!(n > 300);
        assert!(t.iter().all(|&x| x == Texture::Neither));
    }

    /// The rule's order: the small grid first, then both families, then one, then none.
    #[test]
    fn scores_decide_in_order() {
        let s = |small, shallow, steep| Scores { small, shallow, steep }.texture(0.1);
        assert_eq!(s(0.1, 0.3, 0.3), Texture::Small);
        assert_eq!(s(0.09, 0.1, 0.1), Texture::Large);
        assert_eq!(s(0.0, 0.09, 0.5), Texture::Steep);
        assert_eq!(s(0.0, 0.5, 0.09), Texture::Shallow);
        assert_eq!(s(0.09, 0.09, 0.09), Texture::Neither);
        assert_eq!(
            Scores::from_r(&[0.2, 0.4, 0.1, 0.3, 0.5, 0.0]),
            Scores { small: 0.3, shallow: 0.3, steep: 0.5 }
        );
    }
}
