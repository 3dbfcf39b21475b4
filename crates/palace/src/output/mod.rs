//! What `palace` writes: files and folders that appear complete or not at all ([`atomic`]; a
//! sweep's checkpoint, [`checkpoint`]),
//! plots and text drawn with the embedded font ([`canvas`]) and written as RGB PNGs
//! ([`rgb`]), maps with a legend and markers drawn in two passes ([`legend`]),
//! PNG pictures streamed row by row ([`png`], through [`pngstream`]) with a parallel encoder
//! for large ones ([`pngpar`], [`deflate`]) or drawn by the sweep's workers tile by tile ([`ordered`]), Deep Zoom tile pyramids for the browser ([`dzi`]), the paper's
//! palette ([`palette`]) and NumPy export ([`npy`]).

pub mod atomic;
pub mod canvas;
pub mod checkpoint;
pub mod deflate;
pub mod dzi;
pub mod legend;
pub mod npy;
pub mod ordered;
pub mod palette;
pub mod png;
pub mod pngpar;
pub mod pngstream;
pub mod rgb;
pub mod temporary;
