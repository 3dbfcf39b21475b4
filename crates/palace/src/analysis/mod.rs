//! The measurements made on the sweep, one module per analysis: value statistics
//! ([`stats`]), two games compared ([`compare`], the paper's Fig. 4), the paper's regions
//! ([`regions`], what its map's legend says [`region_map`]), the best shift between two
//! games' windows ([`shift_search`], the paper's Fig. 3), each region's best shift between
//! two games ([`region_search`], which regions depend on k), the three fabrics ([`fabric`], its
//! picture [`fabric_plot`]), the fabric's grid ([`grid`], its picture [`grid_plot`]) and its
//! meta-gliders ([`gliders`]), the arm's skin ([`skin`]), the warp's threads ([`threads`]) and
//! the inner sector's beams ([`beams`]), the P-positions as a list ([`positions`]), the survey
//! across k ([`survey`]), the cross-check
//! of the engine against the exact game solver ([`check`]), and the memory each of them needs
//! ([`footprint`]), known before it starts.

pub mod beams;
pub mod branches;
pub mod cell_region;
pub mod check;
pub mod compare;
pub mod fabric;
pub mod fabric_plot;
pub mod footprint;
pub mod gliders;
pub mod grid;
pub mod grid_plot;
pub mod positions;
pub mod region_map;
pub mod region_search;
pub mod regions;
pub mod shift_search;
pub mod skin;
pub mod stats;
pub mod survey;
pub mod threads;

/// A pool of `workers` threads (at least one) for an analysis' own parallel work, such as the
/// fits after a sweep.
pub(crate) fn pool(workers: usize) -> crate::error::Result<rayon::ThreadPool> {
    let workers = workers.max(1);
    rayon::ThreadPoolBuilder::new().num_threads(workers).build().map_err(|source| {
        crate::error::Error::Engine(crate::error::EngineError::ThreadPool { threads: workers, source })
    })
}
