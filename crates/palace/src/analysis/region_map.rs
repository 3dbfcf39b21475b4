//! What the legend of `palace regions`' map says ([`crate::output::legend`] draws it): the
//! game and window; a swatch in the region's colour ([`regions::plte`]), its name
//! ([`crate::labels::Region::name`]) and its share of the window's cells for every region of
//! [`crate::labels::ALL`] that has cells; and the junctions of the report (nose, shoulders, armpits,
//! prism: whatever [`RegionsReport::junctions`] holds), each ringed on the map at its cell's
//! pixel and listed with its coordinates. Every list comes from the report and [`crate::labels::ALL`],
//! so new regions and junctions appear in the legend as they are added.

use crate::analysis::regions::{self, RegionsReport};
use crate::model::geometry::Window;
use crate::output::legend::{self, Inks, Key, Layout, MapKey};

impl MapKey for RegionsReport {
    fn key(&self) -> Key {
        let [x0, y0, x1, y1] = self.window;
        let total: u64 = self.regions.iter().map(|(_, st)| st.cells).sum();
        let entries = self
            .regions
            .iter()
            .filter(|(_, st)| st.cells > 0)
            .map(|(r, st)| {
                let share = 100.0 * st.cells as f64 / total.max(1) as f64;
                (r.index() as u8, format!("{}  {share:.2}%", r.name()))
            })
            .collect();
        let points = self.junctions.iter().map(|j| (j.name.to_string(), j.x, j.y)).collect();
        Key {
            title: format!("palace regions: k = {}, window [{x0}, {x1}) x [{y0}, {y1})", self.k),
            entries,
            points,
        }
    }
}

/// The palette of a region map with a legend: [`regions::plte`], then the legend's colours.
pub fn palette() -> Vec<u8> {
    legend::palette(&regions::plte())
}

/// The legend's colours in [`palette`].
pub fn inks() -> Inks {
    legend::inks(&regions::plte())
}

/// Where everything goes in the map of `report`'s window at `scale`.
pub fn layout(report: &RegionsReport, window: Window, scale: u32) -> Layout {
    legend::layout(&report.key(), &regions::plte(), window, scale)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_legend_colours_follow_the_regions() {
        let (p, i) = (palette(), inks());
        let n = regions::plte().len();
        assert_eq!(&p[..n], &regions::plte()[..]);
        assert_eq!(usize::from(i.ink), n / 3);
        assert_eq!(&p[3 * usize::from(i.ink)..3 * usize::from(i.ink) + 3], &[0, 0, 0]);
        assert_eq!(&p[3 * usize::from(i.paper)..3 * usize::from(i.paper) + 3], &[255, 255, 255]);
        assert!(p.len() <= 3 * 256, "an 8-bit palette");
    }
}
