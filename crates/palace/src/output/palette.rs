//! The colours of the pictures: the paper's palette (Fig. 1, Fig. 3), as an 8-bit PNG palette.
//!
//! Index 0 is the hood (closed form, `docs/rule.md`); outside the hood the index depends on `v` only:
//! `v <= -4` dark olive, `-3` olive, `-2` light olive, `-1` yellow (these four are palaces),
//! `0` black, `1` blue, `2` indigo, `v >= 3` bright violet. Index 9 (white) masks cells, as in
//! the paper's Fig. 4 comparisons.

/// Palette index of hood cells.
pub const HOOD: u8 = 0;
/// Palette index for masked cells (white).
pub const MASKED: u8 = 9;
/// Number of palette entries.
pub const LEN: usize = 10;

/// RGB of each index.
pub const RGB: [[u8; 3]; LEN] = [
    [0x5c, 0x33, 0x17], // 0 hood: dark brown
    [0x4a, 0x55, 0x23], // 1 v <= -4: dark olive
    [0x80, 0x80, 0x00], // 2 v = -3: olive
    [0xb5, 0xb3, 0x5c], // 3 v = -2: light olive
    [0xff, 0xee, 0x00], // 4 v = -1: yellow
    [0x00, 0x00, 0x00], // 5 v = 0: black
    [0x1f, 0x3f, 0xff], // 6 v = 1: blue
    [0x4b, 0x00, 0x82], // 7 v = 2: indigo
    [0xc0, 0x40, 0xff], // 8 v >= 3: bright violet
    [0xff, 0xff, 0xff], // 9 masked: white
];

/// What each index below [`MASKED`] shows, for legends.
pub const NAMES: [&str; LEN - 1] =
    ["hood", "v <= -4", "v = -3", "v = -2", "v = -1", "v = 0", "v = 1", "v = 2", "v >= 3"];

/// The palette as the flat `R G B R G B ...` bytes a PNG `PLTE` chunk holds.
pub fn plte() -> Vec<u8> {
    RGB.iter().flatten().copied().collect()
}

/// Palette index of a cell outside the hood: `clamp(v, -4, 3) + 5`.
#[inline(always)]
pub fn index(v: i8) -> u8 {
    (v.clamp(-4, 3) + 5) as u8
}

/// First index of the mean-colour lattice ([`mean_plte`]).
pub const MEAN_BASE: u8 = LEN as u8;
/// Levels of the mean-colour lattice per channel: red, green, blue (7 x 7 x 5 = 245 colours,
/// which with the paper's 10 fill 255 of a PNG palette's 256 entries).
pub const MEAN_LEVELS: [u32; 3] = [7, 7, 5];

/// RGB of any index of the mean-colour palette ([`mean_plte`]): the paper's colours, then
/// the lattice.
pub fn mean_rgb(i: u8) -> [u8; 3] {
    if (i as usize) < LEN {
        return RGB[i as usize];
    }
    let j = u32::from(i - MEAN_BASE);
    let [lr, lg, lb] = MEAN_LEVELS;
    let level = |q: u32, l: u32| ((q * 255 + (l - 1) / 2) / (l - 1)) as u8;
    [level(j / (lg * lb), lr), level(j / lb % lg, lg), level(j % lb, lb)]
}

/// The index of the lattice colour nearest to the mean colour `sum / n` (each channel rounded
/// to its nearest level).
pub(crate) fn mean_index(sum: [u64; 3], n: u64) -> u8 {
    let [lr, lg, lb] = MEAN_LEVELS.map(u64::from);
    // round(sum / n * (l - 1) / 255), in integers.
    let q = |s: u64, l: u64| (2 * s * (l - 1) + 255 * n) / (2 * 255 * n);
    MEAN_BASE + (q(sum[0], lr) * lg * lb + q(sum[1], lg) * lb + q(sum[2], lb)) as u8
}

/// The palette of pictures reduced by their blocks' mean colour: the paper's 10 colours
/// (a block of one colour keeps it), then the 7 x 7 x 5 lattice of [`MEAN_LEVELS`].
pub fn mean_plte() -> Vec<u8> {
    let n = LEN + MEAN_LEVELS.iter().product::<u32>() as usize;
    (0..n).flat_map(|i| mean_rgb(i as u8)).collect()
}

/// How cells are coloured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Scheme {
    /// The hood dark brown, every other cell by its value v (the pictures of Fig. 3 to 8).
    #[default]
    Paper,
    /// Every cell by its value, hood included: v <= -5 dark brown, then the olives, yellow,
    /// black, blue, indigo, violet — the colours of the paper's Fig. 1 (k = 5).
    Values,
}

/// Palette index of a cell under [`Scheme::Values`]: `v <= -5` is the hood colour.
#[inline(always)]
pub(crate) fn value_index(v: i8) -> u8 {
    if v <= -5 { HOOD } else { index(v) }
}

/// Palette indices of one row: the first `hood` cells are hood, the rest by value. Written so
/// the compiler vectorises it.
pub fn indices(cells: &[i8], hood: usize, out: &mut [u8]) {
    debug_assert_eq!(cells.len(), out.len());
    out[..hood].fill(HOOD);
    for (o, &v) in out[hood..].iter_mut().zip(&cells[hood..]) {
        *o = index(v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_follows_the_paper() {
        let expect =
            [(-100i8, 1u8), (-4, 1), (-3, 2), (-2, 3), (-1, 4), (0, 5), (1, 6), (2, 7), (3, 8), (90, 8)];
        for (v, i) in expect {
            assert_eq!(index(v), i, "v={v}");
        }
        assert_eq!(plte().len(), 3 * LEN);
    }

    /// The lattice: 255 entries in all, its corners black and white, and every lattice colour
    /// its own nearest colour.
    #[test]
    fn mean_lattice_round_trips() {
        assert_eq!(mean_plte().len(), 3 * 255);
        assert_eq!(mean_rgb(MEAN_BASE), [0, 0, 0]);
        assert_eq!(mean_rgb(254), [255, 255, 255]);
        for i in MEAN_BASE..=254 {
            let [r, g, b] = mean_rgb(i).map(u64::from);
            assert_eq!(mean_index([3 * r, 3 * g, 3 * b], 3), i, "index {i}");
        }
    }
}
