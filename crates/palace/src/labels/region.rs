//! The paper's regions (§3.1), as the labels name them.

use serde::Serialize;

/// A region of the picture (paper §3.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Region {
    /// The hood (closed form).
    Hood,
    /// Outer space: the quiet v = 0 region beyond the shoulders.
    OuterSpace,
    /// The upper épaulette: the (1,5)/(3,4)-periodic pattern.
    EpauletteUpper,
    /// The lower épaulette: the (5,1)/(4,3)-periodic pattern.
    EpauletteLower,
    /// The fabric: what game k+3 reproduces shifted by (1,1).
    Fabric,
    /// The upper arm: what game k+1 reproduces shifted by (1,0).
    ArmUpper,
    /// The lower arm: what game k+1 reproduces shifted by (0,1).
    ArmLower,
    /// The upper rift: the (81,31)-periodic band below the upper épaulette that is no épaulette.
    RiftUpper,
    /// The lower rift: the (31,81)-periodic band right of the lower épaulette.
    RiftLower,
    /// The fray: the first [`FRAY_WIDTH`](super::FRAY_WIDTH) cells of the rest past the fabric.
    Fray,
    /// The upper warp: the rest above the diagonal, with threads.
    WarpUpper,
    /// The lower warp: the rest below the diagonal, with threads.
    WarpLower,
    /// The inner sector: the rest without threads (at most [`INNER_MAX`](super::INNER_MAX) palaces in the
    /// [`INNER_WINDOW`](super::INNER_WINDOW) square ending at the cell).
    InnerSector,
}

/// All regions, in palette order.
pub const ALL: [Region; 13] = [
    Region::Hood,
    Region::OuterSpace,
    Region::EpauletteUpper,
    Region::EpauletteLower,
    Region::Fabric,
    Region::ArmUpper,
    Region::ArmLower,
    Region::RiftUpper,
    Region::RiftLower,
    Region::Fray,
    Region::WarpUpper,
    Region::WarpLower,
    Region::InnerSector,
];

impl Region {
    /// A short name.
    pub fn name(self) -> &'static str {
        match self {
            Region::Hood => "hood",
            Region::OuterSpace => "outer space",
            Region::EpauletteUpper => "epaulette (upper)",
            Region::EpauletteLower => "epaulette (lower)",
            Region::Fabric => "fabric",
            Region::ArmUpper => "arm (upper)",
            Region::ArmLower => "arm (lower)",
            Region::RiftUpper => "rift (upper)",
            Region::RiftLower => "rift (lower)",
            Region::Fray => "fray",
            Region::WarpUpper => "warp (upper)",
            Region::WarpLower => "warp (lower)",
            Region::InnerSector => "inner sector",
        }
    }

    /// Index into [`ALL`] and the region map's palette.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The region of an index into [`ALL`].
    pub(crate) fn from_index(i: u8) -> Region {
        ALL[usize::from(i)]
    }

    /// The mirror image's region (the picture is symmetric, `v(x, y) = v(y, x)`).
    pub fn mirror(self) -> Region {
        match self {
            Region::EpauletteUpper => Region::EpauletteLower,
            Region::EpauletteLower => Region::EpauletteUpper,
            Region::ArmUpper => Region::ArmLower,
            Region::ArmLower => Region::ArmUpper,
            Region::RiftUpper => Region::RiftLower,
            Region::RiftLower => Region::RiftUpper,
            Region::WarpUpper => Region::WarpLower,
            Region::WarpLower => Region::WarpUpper,
            other => other,
        }
    }

    /// Whether the region is part of the rest: no invariance or period holds on it (fray,
    /// warps, inner sector).
    pub fn is_rest(self) -> bool {
        matches!(self, Region::Fray | Region::WarpUpper | Region::WarpLower | Region::InnerSector)
    }
}

/// Side of the blocks on which the matching and periodicity tests are decided: large enough
/// that whole blocks of the chaotic regions do not pass by chance.
pub const BLOCK: usize = 8;

/// The rift's period (§3.2): the upper rift repeats under `(RIFT_DX, RIFT_DY)`, the lower one
/// under `(RIFT_DY, RIFT_DX)`.
pub const RIFT_DX: usize = 81;
/// See [`RIFT_DX`].
pub const RIFT_DY: usize = 31;

/// Width of the fray: rest cells at most this many cells past the fabric (along the row above
/// the diagonal, along the column below it).
pub const FRAY_WIDTH: u64 = 12;

/// Side of the square of cells (ending at a cell) whose palaces decide the inner sector.
pub const INNER_WINDOW: usize = 64;

/// The most palaces an [`INNER_WINDOW`] square of the inner sector holds.
pub const INNER_MAX: u32 = 4;

/// Rows and columns before a cell that its tests reach back to: the lower rift's period.
pub(crate) const HALO: usize = RIFT_DX;

/// The label of a cell outside the window (or the board), for the borders between regions:
/// edges with it are not counted.
pub(crate) const NONE: u8 = u8::MAX;
