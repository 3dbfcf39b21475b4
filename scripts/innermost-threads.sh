#!/usr/bin/env bash
# The innermost P-threads of neighbouring k: the last part of §4's question 3 ("eventually
# producing ever different and irregular innermost P-threads?"; Cook, Larsson and Neary, "A
# Cellular Automaton for Blocking Queen Games", AUTOMATA 2015; docs/inner-sectors.md).
#
# Usage: scripts/innermost-threads.sh [K...]
#   (default: 9999 10000 10001 10002 10005 10011 10029 10299; about 11 s each on 2 cores)
#
# Each game on a 40000 x 40000 board, window [15000, 40000)^2 (its prism lies near
# (16000, 16000)), two ways, since the innermost thread may be either:
#  * `palace beams`: the thin beams (lone palaces, one a row or fewer) and the centermost one;
#  * `palace threads --reach 8`: the threads of any thickness (palaces on consecutive rows at
#    most 8 columns apart), the three that end nearest the diagonal among those running to the
#    window's edge with a tail of at least 600 rows. A beam of thickness 2 is crowded for
#    `palace beams` and falls apart into pieces at the threads' default reach of 4.
# Writes outputs/innermost-threads.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
P=target/release/palace
out=outputs/innermost-threads.txt
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ks=("$@")
[[ ${#ks[@]} -eq 0 ]] && ks=(9999 10000 10001 10002 10005 10011 10029 10299)
win=15000,15000,40000,40000

{
  echo "# the innermost P-threads, k = ${ks[*]} on 40000 x 40000, window [15000, 40000)^2 (scripts/innermost-threads.sh)"
  echo "# slopes in rows per column; x - y at the window's right edge (column 39999) or bottom"
  for k in "${ks[@]}"; do
    p=$($P regions --k "$k" --size $((k * 7 / 4)) -q | sed -n 's/^ *prism *(\([0-9]*\), .*/\1/p')
    $P beams --k "$k" --size 40000 --window "$win" --json -q > "$tmp/beams.json"
    $P threads --k "$k" --size 40000 --window "$win" --reach 8 --json -q > "$tmp/threads.json"
    python3 - "$tmp/beams.json" "$tmp/threads.json" "$p" <<'PY'
import json, sys
beams, threads, p = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), int(sys.argv[3])
k = beams["k"]
print()
print("k = %d (k mod 3 = %d), prism (%d, %d)" % (k, k % 3, p, p))
centre = beams["centermost"][0] if beams["centermost"] else None
edge = [b for b in beams["upper"]["beams"] if b["at_edge"]]
print("  palace beams: %d candidates above the diagonal, %d beams, %d running to the edge%s" % (
    beams["upper"]["candidates"], len(beams["upper"]["beams"]), len(edge),
    "" if edge else " (none: no thin beam crosses the window)"))
for b in edge:
    lo, hi, sd = b["stretch_spread"]
    rows = ("its longest run of rows with a cell, %d, too short for a period" % b["run"][1]
            if b["balance"] is None else
            "over its last %d consecutive rows: period %s, %d step values, imbalance %d (%s digital straight line)" % (
                min(b["run"][1], 8192), "none up to 2730" if b["period"] is None else b["period"],
                b["balance"]["values"], b["balance"]["imbalance"], "a" if b["balance"]["sturmian"] else "not a"))
    print("    %s beam %d: from (%d, %d), %+d rows below the prism, x - y %d to %d; %.3f palaces a row; slope %.6f "
          "(8 stretches %.5f..%.5f, s.d. %.1e; halves %s); %s" % (
              "centermost" if b["id"] == centre else "          ", b["id"], b["start"][0], b["start"][1],
              b["start"][1] - p, b["offset"][0], b["offset"][1], b["per_row"], b["slope"], lo, hi, sd,
              ", ".join("%.5f" % h["slope"] for h in b["halves"]), rows))
w = beams["weft"]
if w:
    between = dict((v, c) for v, c in w["between"])
    tot = sum(between.values())
    print("    v between the centermost beams: " + ", ".join(
        "%d: %.1f%%" % (v, 100.0 * c / tot) for v, c in sorted(between.items()) if 200 * c > tot))
print("  palace threads --reach 8: %d threads; innermost running to the edge (inner first):" % threads["threads"])
for t in threads["innermost"][:3]:
    print("    thread %d: rows %d..%d, x %d..%d, x - y at its end %d; thickness %s; slope %.6f over its last %d rows "
          "(continued fraction %s); period %s" % (
              t["id"], t["rows"][0], t["rows"][1], t["x"][0], t["x"][1], t["x"][1] - t["rows"][1],
              t["thickness"], t["slope"] if t["slope"] is not None else float("nan"), t["tail_rows"],
              "[" + ", ".join(map(str, t["continued_fraction"][:8])) + (", ...]" if len(t["continued_fraction"]) > 8 else "]"),
              "none up to 2730" if t["period"] is None else t["period"]))
PY
  done
} > "$out"
echo "wrote $out" >&2
