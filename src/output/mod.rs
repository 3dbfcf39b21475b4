//! What `palace` writes: files and folders that appear complete or not at all ([`atomic`]),
//! PNG pictures streamed row by row ([`png`]) with a parallel encoder for large ones
//! ([`pngpar`], [`deflate`]), Deep Zoom tile pyramids for the browser ([`dzi`]), the paper's
//! palette ([`palette`]) and NumPy export ([`npy`]).

pub mod atomic;
pub mod deflate;
pub mod dzi;
pub mod npy;
pub mod palette;
pub mod png;
pub mod pngpar;
