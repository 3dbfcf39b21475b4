//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub use palace::testing::{direct_window, opts};

/// The `palace` binary, as a command to run.
pub fn palace() -> assert_cmd::Command {
    assert_cmd::Command::cargo_bin("palace").unwrap()
}

/// Runs `palace ARGS`, which must succeed, and parses its stdout as JSON.
pub fn json(args: &[&str]) -> serde_json::Value {
    let out = palace().args(args).assert().success().get_output().stdout.clone();
    serde_json::from_slice(&out).expect("JSON on stdout")
}

/// An indexed PNG as the tests read it: its size, palette and one palette index per pixel.
pub struct Indexed {
    /// Pixels per row.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// The palette, three bytes per entry.
    pub plte: Vec<u8>,
    /// The palette index of every pixel, row-major (unpacked from 4 or 8 bits).
    pub px: Vec<u8>,
}

impl Indexed {
    /// The palette index at `(x, y)`.
    pub fn at(&self, x: usize, y: usize) -> u8 {
        self.px[y * self.width as usize + x]
    }
}

/// Reads an indexed PNG (the only kind `palace` writes for boards and maps).
pub fn decode_indexed(path: &std::path::Path) -> Indexed {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut reader = png::Decoder::new(std::io::BufReader::new(file)).read_info().unwrap();
    let info = reader.info().clone();
    assert_eq!(info.color_type, png::ColorType::Indexed, "{}", path.display());
    // 8 bits per pixel, or 4 (two per byte) from the parallel encoder for large pictures.
    assert!(matches!(info.bit_depth, png::BitDepth::Eight | png::BitDepth::Four), "{}", path.display());
    let plte = info.palette.as_ref().unwrap().to_vec();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let frame = reader.next_frame(&mut buf).unwrap();
    buf.truncate(frame.buffer_size());
    let px = palace::output::png::unpack(&buf, info.width as usize, info.bit_depth as u8);
    Indexed { width: info.width, height: info.height, plte, px }
}

/// Width, height and the RGB colour of every pixel of an indexed PNG.
pub fn decode_rgb(path: &std::path::Path) -> (u32, u32, Vec<[u8; 3]>) {
    let png = decode_indexed(path);
    let rgb =
        png.px.iter().map(|&i| png.plte[3 * i as usize..3 * i as usize + 3].try_into().unwrap()).collect();
    (png.width, png.height, rgb)
}

/// A picture with its legend (`with`) against the bare one (`bare`): the picture above the
/// strip is the bare picture pixel for pixel, white to its right where the legend is wider,
/// then a black rule, and below it a swatch (a run of at least 8 pixels in a row) of every
/// colour of `swatches`.
pub fn assert_legend_below(bare: &std::path::Path, with: &std::path::Path, swatches: &[[u8; 3]], what: &str) {
    let (w, h, px) = decode_rgb(bare);
    let (lw, lh, lpx) = decode_rgb(with);
    assert!(lw >= w && lh > h + 20, "{what}: {lw} x {lh} against {w} x {h}");
    for y in 0..=h {
        for x in 0..lw {
            let got = lpx[(y * lw + x) as usize];
            if y < h && x < w {
                assert_eq!(got, px[(y * w + x) as usize], "{what}: ({x}, {y})");
            } else if y < h {
                assert_eq!(got, [255; 3], "{what}: ({x}, {y}) pads the picture");
            } else {
                assert_eq!(got, [0; 3], "{what}: ({x}, {y}) is the rule");
            }
        }
    }
    let strip = &lpx[((h + 1) * lw) as usize..];
    for c in swatches {
        let run = strip
            .chunks(lw as usize)
            .map(|row| row.split(|p| p != c).map(|r| r.len()).max().unwrap_or(0))
            .max()
            .unwrap_or(0);
        assert!(run >= 8, "{what}: no swatch of {c:?}");
    }
}

// Running the binary as a child process, for the tests that signal it.

/// The binary under test: the one cargo builds, or the one `PALACE_TEST_BIN` names.
pub fn bin() -> std::path::PathBuf {
    std::env::var_os("PALACE_TEST_BIN")
        .map_or_else(|| assert_cmd::cargo::cargo_bin("palace"), std::path::PathBuf::from)
}

/// Starts `palace args` in `cwd` with standard output discarded and standard error captured.
pub fn spawn<S: AsRef<std::ffi::OsStr>>(args: &[S], cwd: &std::path::Path) -> std::process::Child {
    std::process::Command::new(bin())
        .args(args)
        .current_dir(cwd)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("palace starts")
}

/// Sends `signal` (a name such as `INT`) to `child`, with the shell's own `kill`, so the tests
/// need no procps. Whether it was delivered.
pub fn kill(child: &std::process::Child, signal: &str) -> bool {
    std::process::Command::new("sh")
        .args(["-c", &format!("kill -{signal} {}", child.id())])
        .status()
        .is_ok_and(|s| s.success())
}

/// The names in `dir`, sorted, hidden ones included.
pub fn listing(dir: &std::path::Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}
