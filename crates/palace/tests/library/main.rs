//! The library's integration tests: the analyses against their plain references, the game
//! solver's cross-check, the skin against the row sweep, and the statistics of a counter sweep
//! against the CA's. One binary, a module per area; the helpers they share are in
//! `palace::testing`.

mod analyses;
mod game;
mod skin;
mod skin_pattern;
mod statistics;
