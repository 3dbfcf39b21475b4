use super::*;
use crate::kernel::buf::NARROW_LIMIT;
use crate::kernel::buf::TileBuf;
use crate::kernel::wide::wide_tile;
use proptest::prelude::*;

/// The wide kernel's tile, and whether it stays within the narrow limit.
fn exact(top: &[i8], left: &[i8], w: usize, h: usize) -> (Vec<i64>, bool) {
    let top64: Vec<i64> = top.iter().map(|&v| i64::from(v)).collect();
    let left64: Vec<i64> = left.iter().map(|&v| i64::from(v)).collect();
    let mut want = vec![0i64; w * h];
    wide_tile(&top64, &left64, w, h, &mut want);
    let lim = i64::from(NARROW_LIMIT);
    let fits = want.iter().all(|v| (-lim..=lim).contains(v));
    (want, fits)
}

/// Every band kernel on one tile: the flag is the wide kernel's range, and a tile that fits
/// equals it cell for cell.
fn check(top: &[i8], left: &[i8], w: usize, h: usize) -> Result<bool, TestCaseError> {
    let (want, fits) = exact(top, left, w, h);
    for k in available() {
        let mut out = TileBuf::new(w, h);
        let ok = k.tile(top, left, w, h, &mut out);
        prop_assert_eq!(ok, fits, "{} {} x {}: flag", k.name, w, h);
        if ok {
            for r in 0..h {
                let got: Vec<i64> = out.row(r).iter().map(|&v| i64::from(v)).collect();
                prop_assert_eq!(&got[..], &want[r * w..(r + 1) * w], "{} {} x {} row {}", k.name, w, h, r);
            }
        }
    }
    Ok(fits)
}

/// splitmix64.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        crate::kernel::counter::tests::splitmix64(&mut self.0)
    }
    /// Mostly the CA's small values, with palaces (negative values) and a few larger ones.
    fn value(&mut self) -> i8 {
        match self.next() % 16 {
            0..=8 => 0,
            9..=11 => -1,
            12 => 1,
            13 => -2,
            14 => 2,
            _ => (self.next() % 9) as i8 - 4,
        }
    }
}

fn halo(rng: &mut Rng, w: usize, h: usize) -> (Vec<i8>, Vec<i8>) {
    ((0..2 * (w + 2)).map(|_| rng.value()).collect(), (0..2 * h).map(|_| rng.value()).collect())
}

/// Shapes around the lane count (32), the band heights (2 and up) and every group size.
#[test]
fn band_kernels_equal_wide_on_many_shapes() {
    let mut rng = Rng(7);
    let mut fits = 0;
    for w in [1usize, 2, 3, 5, 6, 7, 12, 13, 31, 36, 61, 97] {
        for h in [1usize, 31, 63, 64, 65, 96, 127, 160] {
            let (top, left) = halo(&mut rng, w, h);
            fits += usize::from(check(&top, &left, w, h).unwrap());
        }
    }
    assert!(fits > 40, "most random tiles stay in range ({fits})");
}

/// A quiet tile (all zero halo) stays zero, and one palace in the halo spreads through it: the
/// rows below a band's first row take their neighbours from the band above.
#[test]
fn quiet_and_single_palace_tiles() {
    for (w, h) in [(12, 64), (30, 96), (66, 128)] {
        let top = vec![0i8; 2 * (w + 2)];
        let mut left = vec![0i8; 2 * h];
        assert!(check(&top, &left, w, h).unwrap());
        left[2 * 5 + 1] = -1;
        check(&top, &left, w, h).unwrap();
    }
}

/// Tiles that leave the range somewhere inside one band only, in every band position: the
/// flag must see them, whichever lane and pass they fall in.
#[test]
fn out_of_range_in_any_band_is_flagged() {
    let mut rng = Rng(99);
    // Band heights 4 (edge steps only) and 12 (the disturbance in the lean steps).
    for (w, h, off) in [(48usize, 128usize, 0usize), (48, 384, 5)] {
        out_of_range_per_band(&mut rng, w, h, off);
    }
}

fn out_of_range_per_band(rng: &mut Rng, w: usize, h: usize, off: usize) {
    let mut flagged = 0;
    for j in 0..32 {
        let top = vec![0i8; 2 * (w + 2)];
        let mut left = vec![0i8; 2 * h];
        // The limit entering two rows of band j at column -1: the cell at column 0 of the
        // second row is e + f = 2 * NARROW_LIMIT.
        let r = j * (h / 32) + off + (rng.next() % 3) as usize;
        left[2 * r + 1] = NARROW_LIMIT;
        left[2 * r + 3] = NARROW_LIMIT;
        if !check(&top, &left, w, h).unwrap() {
            flagged += 1;
        }
    }
    assert_eq!(flagged, 32, "every disturbance leaves the range");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]

    /// Random shapes (band heights 2 to 5, widths not multiples of any group) and halos.
    #[test]
    fn band_equals_wide(seed in any::<u64>(), w in 1usize..80, h in 60usize..170) {
        let mut rng = Rng(seed);
        let (top, left) = halo(&mut rng, w, h);
        check(&top, &left, w, h)?;
    }
}

/// Tiles whose out-of-range values all lie in rows 5..=14 of one 24-row band: whatever the
/// group size (up to 6), those cells are computed in the lean steps of a pass, which must flag
/// them on their own. Found by a seeded search over disturbances entering from the left halo;
/// the test insists it finds some.
#[test]
fn out_of_range_only_in_lean_steps_is_flagged() {
    let mut rng = Rng(5);
    let bh = 24;
    let h = 32 * bh;
    let mut found = 0;
    for _ in 0..200 {
        let w = 24 + (rng.next() % 24) as usize;
        let j = (rng.next() % 32) as usize;
        let r0 = j * bh + 5 + (rng.next() % 4) as usize;
        let top = vec![0i8; 2 * (w + 2)];
        let mut left = vec![0i8; 2 * h];
        for r in r0..r0 + 2 + (rng.next() % 2) as usize {
            for q in 0..2 {
                left[2 * r + q] = (rng.next() % 49) as i8 - NARROW_LIMIT;
            }
        }
        let (want, fits) = exact(&top, &left, w, h);
        let lim = i64::from(NARROW_LIMIT);
        let lean_only = want.iter().enumerate().all(|(i, v)| {
            let y = i / w;
            (-lim..=lim).contains(v) || (y / bh == j && (5..=14).contains(&(y % bh)))
        });
        if fits || !lean_only {
            continue;
        }
        found += 1;
        assert!(!check(&top, &left, w, h).unwrap());
    }
    assert!(found >= 10, "the search should find tiles out of range in lean steps only ({found})");
}
