//! What `palace` writes: files that appear complete or not at all ([`atomic`]), PNG pictures
//! streamed row by row ([`png`]) with a parallel encoder for large ones ([`pngpar`],
//! [`deflate`]), the paper's palette ([`palette`]) and NumPy export ([`npy`]).

pub mod atomic;
pub mod deflate;
pub mod npy;
pub mod palette;
pub mod png;
pub mod pngpar;
