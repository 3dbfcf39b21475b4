//! The compute shaders' sources: each kernel's file and `common.wgsl` with the host's
//! per-row statements filled in, and the override constants set with the pipeline.

use crate::shape::Shape;

/// The compute kernels: the tally of a window (`tally.wgsl`), the skin's sweep (`skin.wgsl`)
/// and the list of palaces (`palaces.wgsl`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Kernel {
    Tally,
    Skin,
    Palaces,
}

impl Kernel {
    pub(crate) fn label(self) -> &'static str {
        match self {
            Kernel::Tally => "tally",
            Kernel::Skin => "skin",
            Kernel::Palaces => "palaces",
        }
    }

    /// Its storage buffers, bound from binding 2 on; the last is the upper part of the
    /// diagonal counter array ([`Diagonals`]).
    pub(crate) fn storage_buffers(self) -> u32 {
        match self {
            Kernel::Tally => 7,
            Kernel::Skin => 9,
            Kernel::Palaces => 6,
        }
    }
}

/// The WGSL source of `kernel` for tiles of `shape`, passing counters by subgroup shuffles
/// where `subgroups`: the kernel's file and `common.wgsl` with the host's parts filled in (the
/// per-row statements, which keep each row's counters in registers, and the shape).
pub(crate) fn shader_source(kernel: Kernel, shape: Shape, subgroups: bool) -> String {
    let rows = |f: &dyn Fn(u32) -> String| (0..shape.rows).map(f).collect::<Vec<_>>().join("\n");
    let declare = rows(&|h| format!("    var r{h}: u32;\n    var d{h}: u32;"));
    let load = rows(&|h| format!("    r{h} = rows[ytop + {h}u];\n    d{h} = dget(tx0, ytop + {}u);", h + 1));
    let store =
        rows(&|h| format!("    rows[ytop + {h}u] = r{h};\n    dput(tx0 + TILE_W - 1u, ytop + {h}u, d{h});"));
    let source = match kernel {
        Kernel::Tally => include_str!("tally.wgsl").replace(
            "@STEP_LOOP@",
            &step_loop(
                "let xin = simple || (x >= job.win_x0 && x < job.win_x1);\n                var y: u32;",
                &tally_body(shape),
            ),
        ),
        Kernel::Skin => skin_source(shape),
        Kernel::Palaces => palaces_source(shape),
    };
    (source + include_str!("common.wgsl"))
        .replace("@DECLARE@", &declare)
        .replace("@LOAD@", &load)
        .replace("@STORE@", &store)
        .replace("@LAST@", &(shape.rows - 1).to_string())
        .replace("@SUBGROUPS@", if subgroups { "true" } else { "false" })
        .replace("@LANE_ARG@", if subgroups { ", @builtin(subgroup_invocation_id) sg_lane: u32" } else { "" })
        .replace("@LANE@", if subgroups { "sg_lane" } else { "lid.x" })
        .replace("@SHUFFLE_C@", if subgroups { "subgroupShuffleUp(c_out, 1u)" } else { "0u" })
        .replace("@SHUFFLE_D@", if subgroups { "subgroupShuffleUp(d_out, 1u)" } else { "0u" })
        .replace("@DIAGS_HI@", &(1 + kernel.storage_buffers()).to_string())
}

/// The override constants of a pipeline for tiles of `shape` (`common.wgsl`): the shape's
/// lanes, rows per lane and width. The rows' statements are in the source itself, one per row,
/// so that each row's counters stay in registers.
pub(crate) fn shader_constants(shape: Shape) -> [(&'static str, f64); 3] {
    [("LANES", f64::from(shape.lanes)), ("ROWS", f64::from(shape.rows)), ("TILE_W", f64::from(shape.width))]
}

/// The statements of row `h` of a lane that every kernel has, indented by `pad`: the cell's
/// `N` from the counters, whether it is a palace (`p`), and the counters it passes on.
pub(crate) fn counters(h: u32, pad: &str) -> String {
    ["din = dd;", &format!("dd = d{h};"), &format!("n = r{h} + c + din;"), "p = select(0u, 1u, n < k);"]
        .into_iter()
        .chain([&format!("r{h} += p;") as &str, "c += p;", &format!("d{h} = din + p;")])
        .map(|line| format!("{pad}{line}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The step loop of a tile, which every kernel shares. At step `s` lane `j` takes the `C` and
/// `D` of column `s - j` from the lane above (lane 0 from the tile's top), declares `locals`,
/// runs `body` (the statements of its rows, which read and update `c` and `dd`) and passes
/// them on: by a subgroup shuffle with `SUBGROUPS`, else through workgroup memory and a
/// barrier. The last lane leaves them at the tile's bottom.
pub(crate) fn step_loop(locals: &str, body: &str) -> String {
    format!(
        "    for (var s = 0u; s < TILE_W + LANES - 1u; s++) {{
        let par = s & 1u;
        var c_up = 0u;
        var d_up = 0u;
        if (SUBGROUPS) {{
            c_up = @SHUFFLE_C@;
            d_up = @SHUFFLE_D@;
        }}
        if (s >= lane && s - lane < TILE_W) {{
            let lx = s - lane;
            let x = tx0 + lx;
            var c: u32;
            var dd: u32;
            if (lane == 0u) {{
                c = top_c[lx];
                dd = top_d[lx];
            }} else if (SUBGROUPS) {{
                c = c_up;
                dd = d_up;
            }} else {{
                c = cbuf[(par ^ 1u) * LANES + lane - 1u];
                dd = dbuf[(par ^ 1u) * LANES + lane - 1u];
            }}
            var din: u32;
            var n: u32;
            var p: u32;
            {locals}
{body}
            if (SUBGROUPS) {{
                c_out = c;
                d_out = dd;
            }} else {{
                cbuf[par * LANES + lane] = c;
                dbuf[par * LANES + lane] = dd;
            }}
            if (lane == LANES - 1u) {{
                bot_c[lx] = c;
                bot_d[lx] = d@LAST@;
            }}
        }}
        if (!SUBGROUPS) {{
            workgroupBarrier();
        }}
    }}"
    )
}

/// The tally's statements for row `h` of a lane, for each row of `shape`.
pub(crate) fn tally_body(shape: Shape) -> String {
    (0..shape.rows)
        .map(|h| {
            counters(h, "            ")
                + &format!(
                    "
            zero = zero && n == k;
            y = ytop + {h}u;
            if (xin && (simple || (y >= job.win_y0 && y < job.win_y1 && !in_hood(x, y)))) {{
                // n <= 3k fits an i32 (MAX_K).
                let v = i32(n) - ki;
                let pos = (y - ty0) * TILE_W + lx;
                if (v < -lim || v >= lim) {{
                    if (pos < ep) {{
                        ep = pos;
                        ev = v;
                    }}
                }} else {{
                    let b = u32(v + 128);
                    h_m2 += select(0u, 1u, v == -2);
                    h_m1 += select(0u, 1u, v == -1);
                    h_0 += select(0u, 1u, v == 0);
                    h_p1 += select(0u, 1u, v == 1);
                    h_p2 += select(0u, 1u, v == 2);
                    if (v < -2 || v > 2) {{
                        atomicAdd(&wide[b], 1u);
                    }}
                    mn = min(mn, (b << 24u) | pos);
                    mx = min(mx, ((255u - b) << 24u) | pos);
                }}
            }}"
                )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The skin's shader for tiles of `shape` (before the substitutions common to every kernel).
fn skin_source(shape: Shape) -> String {
    let body = |keep: bool| {
        (0..shape.rows)
            .map(|h| {
                let mut s = counters(h, "                ") + "\n                nz |= n ^ k;";
                if keep {
                    let shift = 8 * (h % 4);
                    let op = if h % 4 == 0 { "=" } else { "|=" };
                    s += &format!("\n                word {op} value_byte(n, x, ytop + {h}u) << {shift}u;");
                    if h % 4 == 3 {
                        s += &format!(
                            "\n                cells[base + lx * (LANES * WORDS) + lane * WORDS + {}u] = word;",
                            h / 4
                        );
                    }
                }
                s
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    let lp = |keep: bool| crate::shader::step_loop("var word = 0u;", &body(keep));
    include_str!("skin.wgsl")
        .replace("@LOOP_KEEP@", &lp(true))
        .replace("@LOOP_LEAN@", &lp(false))
        .replace("@WORDS@", &(shape.rows / 4).to_string())
}

/// The P-positions' shader for tiles of `shape` (before the substitutions common to every kernel).
fn palaces_source(shape: Shape) -> String {
    let body = (0..shape.rows)
        .map(|h| {
            counters(h, "            ")
                + &format!("\n            nz |= n ^ k;\n            if (p == 1u) {{\n                emit(x, ytop + {h}u);\n            }}")
        })
        .collect::<Vec<_>>()
        .join("\n");
    include_str!("palaces.wgsl").replace("@STEP_LOOP@", &crate::shader::step_loop("", &body))
}

#[cfg(test)]
mod shader_tests {
    use super::*;

    /// Every shader the host generates parses and validates (naga, as wgpu compiles it), for
    /// every kernel, with and without subgroup shuffles, over the tile shapes the runs use and
    /// their bounds: a typo in a template fails here, not only where an adapter opens.
    #[test]
    fn every_generated_shader_validates() {
        let shapes = [
            Shape::default(),
            Shape { lanes: 32, rows: 4, width: 256 },
            Shape { lanes: 1, rows: 4, width: 8 },
            Shape { lanes: 8, rows: 4, width: 32 },
            Shape { lanes: 64, rows: 32, width: 8 },
            Shape { lanes: 16, rows: 8, width: 512 },
            Shape { lanes: 3, rows: 1, width: 2 },
            Shape { lanes: 5, rows: 3, width: 7 },
        ];
        let mut validated = 0;
        for kernel in [Kernel::Tally, Kernel::Skin, Kernel::Palaces] {
            for shape in shapes {
                // The skin's kept tiles pack four cells a word.
                if kernel == Kernel::Skin && !shape.rows.is_multiple_of(4) {
                    continue;
                }
                for subgroups in [false, true] {
                    let source = shader_source(kernel, shape, subgroups);
                    let what = format!("{} {shape} subgroups {subgroups}", kernel.label());
                    let parts: Vec<&str> = source.split('@').collect();
                    let placeholder = parts[1..parts.len().saturating_sub(1).max(1)].iter().find(|w| {
                        !w.is_empty()
                            && w.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
                    });
                    assert_eq!(placeholder, None, "{what}: a placeholder left");
                    let module = naga::front::wgsl::parse_str(&source)
                        .unwrap_or_else(|e| panic!("{what}: {}", e.emit_to_string(&source)));
                    let mut validator = naga::valid::Validator::new(
                        naga::valid::ValidationFlags::all(),
                        naga::valid::Capabilities::all(),
                    );
                    let info = validator
                        .validate(&module)
                        .unwrap_or_else(|e| panic!("{what}: {}", e.emit_to_string(&source)));
                    // The shape's constants resolved as the pipeline resolves them, and the
                    // module written as SPIR-V, as wgpu does for Vulkan.
                    let mut constants = naga::back::PipelineConstants::default();
                    for (name, v) in shader_constants(shape) {
                        constants.insert(name.to_string(), v);
                    }
                    let (resolved, resolved_info) = naga::back::pipeline_constants::process_overrides(
                        &module,
                        &info,
                        Some((naga::ShaderStage::Compute, "main")),
                        &constants,
                    )
                    .unwrap_or_else(|e| panic!("{what}: {e}"));
                    naga::back::spv::write_vec(&resolved, &resolved_info, &Default::default(), None)
                        .unwrap_or_else(|e| panic!("{what}: {e}"));
                    validated += 1;
                }
            }
        }
        assert!(validated >= 40, "{validated} shaders");
    }
}
