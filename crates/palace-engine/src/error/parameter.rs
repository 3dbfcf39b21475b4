//! A parameter outside what a call accepts, as data: the parameter by the library's name
//! ([`Param`]), the value given ([`Value`]), the bound it breaks where that is a number or a
//! board ([`Bound`]), and why, in words in which parameters appear as [`Param`]s, not as text.
//!
//! The library writes each message once, with [`ParameterError::new`] and its builder steps;
//! every front end renders it in its own words through a [`Vocabulary`]: the binary names
//! `Param::K` `--k` and writes a setting as `--size N`, the Python package names it `k` and
//! writes `size=N`, and [`fmt::Display`] uses the library's own names. So no message is
//! written twice, and a new bound needs no new wording in the front ends.
//!
//! ```
//! use palace_engine::error::{Param, ParameterError, Vocabulary};
//!
//! let e = ParameterError::new(Param::K, 0u32).text(" is not a game: k is at least 1");
//! assert_eq!(e.to_string(), "k = 0 is not a game: k is at least 1");
//! struct Flags;
//! impl Vocabulary for Flags {
//!     fn name(&self, p: Param) -> String {
//!         format!("--{}", p.name().replace('_', "-"))
//!     }
//! }
//! assert_eq!(e.render(&Flags), "--k 0 is not a game: k is at least 1");
//! ```

use std::fmt;

/// The parameters the library's calls refuse values of, by the library's names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Param {
    /// The game.
    K,
    /// A second game (compared with the first).
    K2,
    /// A square board's side.
    Size,
    /// The board's columns.
    Width,
    /// The board's rows.
    Height,
    /// A window of the board.
    Window,
    /// Worker threads.
    Threads,
    /// The last column the skin is followed to.
    To,
    /// Cells per pixel of a picture.
    Scale,
    /// A cell given by its coordinates.
    At,
    /// The radius of the region search.
    RegionRadius,
    /// The radius of the shift search.
    ShiftRadius,
    /// A shift between two games' windows.
    Shift,
    /// The regions a search is restricted to.
    SearchRegions,
    /// Rows of P-positions.
    Rows,
    /// The file a long run saves its checkpoints to.
    Checkpoint,
    /// The time between two checkpoints.
    Every,
    /// The checkpoint a run resumes from.
    Resume,
    /// How many cells a side each cell is drawn as.
    Zoom,
    /// Where the cells are computed (the CPU or a GPU).
    Backend,
    /// The GPU's tile shape.
    GpuShape,
    /// How the P-positions are found.
    Method,
    /// The statistics computed by the CA rule rather than the three-counter form.
    Ca,
}

impl Param {
    /// Every parameter, for the front ends' tests of their name tables.
    pub const ALL: [Param; 23] = [
        Param::K,
        Param::K2,
        Param::Size,
        Param::Width,
        Param::Height,
        Param::Window,
        Param::Threads,
        Param::To,
        Param::Scale,
        Param::At,
        Param::RegionRadius,
        Param::ShiftRadius,
        Param::Shift,
        Param::SearchRegions,
        Param::Rows,
        Param::Checkpoint,
        Param::Every,
        Param::Resume,
        Param::Zoom,
        Param::Backend,
        Param::GpuShape,
        Param::Method,
        Param::Ca,
    ];

    /// The library's name of the parameter (snake case).
    pub fn name(self) -> &'static str {
        match self {
            Param::K => "k",
            Param::K2 => "k2",
            Param::Size => "size",
            Param::Width => "width",
            Param::Height => "height",
            Param::Window => "window",
            Param::Threads => "threads",
            Param::To => "to",
            Param::Scale => "scale",
            Param::At => "at",
            Param::RegionRadius => "region_radius",
            Param::ShiftRadius => "shift_radius",
            Param::Shift => "shift",
            Param::SearchRegions => "search_regions",
            Param::Rows => "rows",
            Param::Checkpoint => "checkpoint",
            Param::Every => "every",
            Param::Resume => "resume",
            Param::Zoom => "zoom",
            Param::Backend => "backend",
            Param::GpuShape => "gpu_shape",
            Param::Method => "method",
            Param::Ca => "ca",
        }
    }
}

/// A value given to a parameter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// A whole number.
    Int(i64),
    /// A window, by its corners `[x0, y0, x1, y1]`.
    Window([u32; 4]),
    /// A pair of whole numbers (a shift, a cell).
    Pair(i64, i64),
    /// Several whole numbers (corners as given).
    Ints(Vec<i64>),
    /// Anything else, as given.
    Text(String),
}

impl From<u32> for Value {
    fn from(v: u32) -> Self {
        Value::Int(i64::from(v))
    }
}

impl From<u64> for Value {
    fn from(v: u64) -> Self {
        i64::try_from(v).map_or_else(|_| Value::Text(v.to_string()), Value::Int)
    }
}

impl From<i64> for Value {
    fn from(v: i64) -> Self {
        Value::Int(v)
    }
}

impl From<usize> for Value {
    fn from(v: usize) -> Self {
        Value::from(v as u64)
    }
}

impl From<String> for Value {
    fn from(v: String) -> Self {
        Value::Text(v)
    }
}

impl From<&str> for Value {
    fn from(v: &str) -> Self {
        Value::Text(v.to_string())
    }
}

impl From<(i64, i64)> for Value {
    fn from((a, b): (i64, i64)) -> Self {
        Value::Pair(a, b)
    }
}

/// The bound a value breaks, as data, where it is one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// At least this.
    AtLeast(i64),
    /// At most this.
    AtMost(i64),
    /// From the first to the second, both included.
    Between(i64, i64),
    /// Inside a board of this many columns and rows.
    Inside {
        /// The board's columns.
        width: u32,
        /// The board's rows.
        height: u32,
    },
}

/// A piece of a [`ParameterError`]'s message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    /// Words, as they are.
    Text(String),
    /// The parameter refused and the value given (`--k 0`, `k = 0`).
    Given,
    /// A parameter, named as the front end names it (`--to`, `to`).
    Name(Param),
    /// A parameter with a value to give it (`--size N`, `size=N`).
    Set(Param, String),
    /// A value, written as the front end writes values (`0,0,5,5`, `(0, 0, 5, 5)`).
    Value(Value),
}

/// How a front end words parameters and values: its name table. Only [`Vocabulary::name`] is
/// required; the rest follow from it as the binary words them.
pub trait Vocabulary {
    /// The front end's name of `p` (`--k`, `k`).
    fn name(&self, p: Param) -> String;

    /// A value (`0,0,5,5` for a window, `3,4` for a pair).
    fn value(&self, v: &Value) -> String {
        match v {
            Value::Int(n) => n.to_string(),
            Value::Window(w) => w.map(|c| c.to_string()).join(","),
            Value::Pair(a, b) => format!("{a},{b}"),
            Value::Ints(v) => v.iter().map(i64::to_string).collect::<Vec<_>>().join(","),
            Value::Text(t) => t.clone(),
        }
    }

    /// The parameter refused and its value (`--k 0`).
    fn given(&self, p: Param, v: &Value) -> String {
        format!("{} {}", self.name(p), self.value(v))
    }

    /// A parameter with a value to give it (`--size N`).
    fn set(&self, p: Param, value: &str) -> String {
        format!("{} {value}", self.name(p))
    }
}

/// The library's own words: parameters by their names, `k = 0`, `size = N`, windows and pairs
/// as tuples.
pub struct LibraryWords;

impl Vocabulary for LibraryWords {
    fn name(&self, p: Param) -> String {
        p.name().to_string()
    }

    fn value(&self, v: &Value) -> String {
        match v {
            Value::Window([x0, y0, x1, y1]) => format!("({x0}, {y0}, {x1}, {y1})"),
            Value::Pair(a, b) => format!("({a}, {b})"),
            Value::Ints(v) => format!("({})", v.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")),
            Value::Int(n) => n.to_string(),
            Value::Text(t) => t.clone(),
        }
    }

    fn given(&self, p: Param, v: &Value) -> String {
        format!("{} = {}", p.name(), self.value(v))
    }

    fn set(&self, p: Param, value: &str) -> String {
        format!("{}={value}", p.name())
    }
}

/// A parameter outside what a call accepts: which, the value given, the bound it breaks, and
/// why, as [`Part`]s a [`Vocabulary`] renders. A usage error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParameterError {
    /// The parameter refused.
    pub param: Param,
    /// The value given.
    pub value: Value,
    /// The bound it breaks, where that is a number or a board.
    pub bound: Option<Bound>,
    /// The message.
    pub parts: Vec<Part>,
}

impl ParameterError {
    /// A refusal of `value` for `param` whose message starts with the two (`--k 0`).
    pub fn new(param: Param, value: impl Into<Value>) -> Self {
        ParameterError { param, value: value.into(), bound: None, parts: vec![Part::Given] }
    }

    /// A refusal whose message does not start with the parameter and its value.
    pub fn about(param: Param, value: impl Into<Value>) -> Self {
        ParameterError { param, value: value.into(), bound: None, parts: Vec::new() }
    }

    /// With the bound broken.
    pub fn bound(mut self, bound: Bound) -> Self {
        self.bound = Some(bound);
        self
    }

    /// Then these words.
    pub fn text(mut self, words: impl Into<String>) -> Self {
        self.parts.push(Part::Text(words.into()));
        self
    }

    /// Then the front end's name of `p`.
    pub fn name(mut self, p: Param) -> Self {
        self.parts.push(Part::Name(p));
        self
    }

    /// Then `p` given `value` (`--size N`).
    pub fn set(mut self, p: Param, value: impl Into<String>) -> Self {
        self.parts.push(Part::Set(p, value.into()));
        self
    }

    /// Then a value, written as the front end writes values.
    pub fn value(mut self, v: impl Into<Value>) -> Self {
        self.parts.push(Part::Value(v.into()));
        self
    }

    /// Then the parameter refused and its value.
    pub fn given(mut self) -> Self {
        self.parts.push(Part::Given);
        self
    }

    /// The message in `words`.
    pub fn render(&self, words: &dyn Vocabulary) -> String {
        self.parts
            .iter()
            .map(|p| match p {
                Part::Text(t) => t.clone(),
                Part::Given => words.given(self.param, &self.value),
                Part::Name(p) => words.name(*p),
                Part::Set(p, v) => words.set(*p, v),
                Part::Value(v) => words.value(v),
            })
            .collect()
    }

    /// The parameters the message names, the refused one first: what a front end's name table
    /// must know.
    pub fn params(&self) -> Vec<Param> {
        let mut all = vec![self.param];
        for p in &self.parts {
            if let Part::Name(p) | Part::Set(p, _) = p
                && !all.contains(p)
            {
                all.push(*p);
            }
        }
        all
    }
}

impl fmt::Display for ParameterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(&LibraryWords))
    }
}

impl std::error::Error for ParameterError {}

#[cfg(test)]
mod tests {
    use super::*;

    struct Flags;
    impl Vocabulary for Flags {
        fn name(&self, p: Param) -> String {
            format!("--{}", p.name().replace('_', "-"))
        }
    }

    /// Every parameter is in [`Param::ALL`] once: its names are all different.
    #[test]
    fn every_parameter_is_listed_once() {
        let mut names: Vec<&str> = Param::ALL.iter().map(|p| p.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Param::ALL.len());
    }

    #[test]
    fn each_vocabulary_words_the_same_message() {
        let e = ParameterError::new(Param::Window, crate::model::geometry::Window::new(0, 0, 31, 5).unwrap())
            .text(" lies outside the 30 x 20 board; use ")
            .name(Param::Window)
            .text(" with x1 <= 30, or ")
            .set(Param::Size, "N")
            .bound(Bound::Inside { width: 30, height: 20 });
        assert_eq!(
            e.render(&Flags),
            "--window 0,0,31,5 lies outside the 30 x 20 board; use --window with x1 <= 30, or --size N"
        );
        assert_eq!(
            e.to_string(),
            "window = (0, 0, 31, 5) lies outside the 30 x 20 board; use window with x1 <= 30, or size=N"
        );
        assert_eq!(e.params(), [Param::Window, Param::Size]);
        let e = ParameterError::about(Param::Width, 0u32).text("the board width is 0");
        assert_eq!(e.render(&Flags), "the board width is 0");
        assert_eq!(ParameterError::new(Param::Shift, (-3i64, 4i64)).render(&Flags), "--shift -3,4");
    }
}
