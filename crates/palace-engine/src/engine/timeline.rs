//! Each tile's times in a sweep, and the sweep they allow on other thread counts.
//!
//! A sweep asked for a timeline ([`EngineOptions::timeline`](super::EngineOptions::timeline))
//! records, for every tile its workers computed, how long after its start the tile was
//! published (when the tile below could begin) and how long its worker was busy with it (the
//! visitor's work included). [`Timeline::schedule`] replays those times on any number of
//! workers the way the sweep hands out work: each band, in order, to the first worker free,
//! which computes its tiles left to right, a tile starting when its worker is free and the
//! tile above is published. Taken from a one-thread run, whose tiles do not compete for the
//! machine, it says what the sweep's dependencies alone allow on `T` workers; what a run on
//! `T` threads loses beyond that is the machine's (memory, clocks, other tenants), not the
//! schedule's.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::time::Duration;

/// Most tiles a timeline records (16 bytes each); a sweep with more records none.
pub(crate) const MAX_TILES: usize = 1 << 24;

/// One tile's times, in nanoseconds from its start (saturating at about 4.3 s).
#[derive(Debug, Clone, Copy)]
pub(crate) struct TileTime {
    pub band: u32,
    pub strip: u32,
    /// Until the tile was published.
    pub ready: u32,
    /// Until its worker was done with it.
    pub busy: u32,
}

impl TileTime {
    pub fn new(band: usize, strip: usize, ready: Duration, busy: Duration) -> Self {
        let ns = |d: Duration| u32::try_from(d.as_nanos()).unwrap_or(u32::MAX);
        TileTime { band: band as u32, strip: strip as u32, ready: ns(ready), busy: ns(busy.max(ready)) }
    }
}

/// The times of the tiles of one sweep (see the module's documentation).
#[derive(Debug, Clone, Default)]
pub struct Timeline {
    /// By band, then strip.
    tiles: Vec<TileTime>,
    strips: usize,
}

impl Timeline {
    /// The timeline of `tiles` (any order) of a sweep `strips` tiles wide.
    pub(crate) fn new(mut tiles: Vec<TileTime>, strips: usize) -> Self {
        tiles.sort_unstable_by_key(|t| (t.band, t.strip));
        Timeline { tiles, strips }
    }

    /// Tiles recorded.
    pub fn tiles(&self) -> usize {
        self.tiles.len()
    }

    /// The time the recorded tiles take on `threads` workers (0 is taken as 1), scheduled as
    /// the sweep schedules them (see the module's documentation).
    pub fn schedule(&self, threads: usize) -> Duration {
        let ns = |t: u32| u64::from(t);
        // When each tile of the band above was published; a tile not recorded is no wait.
        let mut above = vec![0u64; self.strips];
        let mut here = vec![0u64; self.strips];
        let mut free: BinaryHeap<Reverse<u64>> = (0..threads.max(1)).map(|_| Reverse(0)).collect();
        let mut end = 0u64;
        for band in self.tiles.chunk_by(|a, b| a.band == b.band) {
            let Reverse(mut t) = free.pop().expect("at least one worker");
            here.iter_mut().for_each(|h| *h = 0);
            for tile in band {
                let j = tile.strip as usize;
                let start = t.max(above[j]);
                here[j] = start + ns(tile.ready);
                t = start + ns(tile.busy);
            }
            std::mem::swap(&mut above, &mut here);
            end = end.max(t);
            free.push(Reverse(t));
        }
        Duration::from_nanos(end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tile(band: u32, strip: u32, ready: u32, busy: u32) -> TileTime {
        TileTime { band, strip, ready, busy }
    }

    /// Two bands of two tiles, 10 ns each: one worker takes 40 ns; two take 30, the second
    /// band's first tile waiting for the first band's; a tile published early lets the band
    /// below start sooner; more workers than bands change nothing.
    #[test]
    fn schedules_bands_in_order_on_the_first_free_worker() {
        let even = Timeline::new(
            vec![tile(1, 1, 10, 10), tile(0, 0, 10, 10), tile(0, 1, 10, 10), tile(1, 0, 10, 10)],
            2,
        );
        assert_eq!(even.schedule(1), Duration::from_nanos(40));
        assert_eq!(even.schedule(2), Duration::from_nanos(30));
        assert_eq!(even.schedule(8), Duration::from_nanos(30));
        assert_eq!(even.schedule(0), Duration::from_nanos(40));
        let early = Timeline::new(
            vec![tile(0, 0, 2, 10), tile(0, 1, 2, 10), tile(1, 0, 2, 10), tile(1, 1, 2, 10)],
            2,
        );
        // Band 1: tile 0 from 2 to 12, tile 1 from max(12, 12) to 22.
        assert_eq!(early.schedule(2), Duration::from_nanos(22));
        // Three bands on two workers: the third waits for the first worker (free at 20).
        let three: Vec<TileTime> = (0..3).flat_map(|b| (0..2).map(move |j| tile(b, j, 10, 10))).collect();
        assert_eq!(Timeline::new(three, 2).schedule(2), Duration::from_nanos(40));
    }

    /// A long tile in the band above delays every band below it at that strip.
    #[test]
    fn a_slow_tile_delays_the_bands_below() {
        let mut tiles: Vec<TileTime> = (0..4).flat_map(|b| (0..3).map(move |j| tile(b, j, 1, 1))).collect();
        tiles[1] = tile(0, 1, 100, 100);
        let t = Timeline::new(tiles, 3);
        // Band 0 ends at 102; each band below publishes strip 1 one step later.
        assert_eq!(t.schedule(4), Duration::from_nanos(105));
        assert_eq!(t.schedule(1), Duration::from_nanos(111));
        assert_eq!(t.tiles(), 12);
    }

    #[test]
    fn saturates_instead_of_wrapping() {
        let t = TileTime::new(0, 0, Duration::from_secs(5), Duration::from_secs(6));
        assert_eq!((t.ready, t.busy), (u32::MAX, u32::MAX));
        let t = TileTime::new(0, 0, Duration::from_nanos(7), Duration::from_nanos(3));
        assert_eq!((t.ready, t.busy), (7, 7), "a worker is busy at least until it publishes");
    }
}
