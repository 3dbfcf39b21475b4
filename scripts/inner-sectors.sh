#!/usr/bin/env bash
# Are the inner sectors beyond the fabric essentially different for different k, starting with
# distinct armpits, and eventually producing ever different and irregular innermost P-threads?
# (Cook, Larsson and Neary, "A Cellular Automaton for Blocking Queen Games", AUTOMATA 2015, §4,
# question 3; docs/inner-sectors.md.)
#
# Usage: scripts/inner-sectors.sh   (about 11 minutes on 2 loaded cores)
#
# Game k against k + m, m = 1, 2, 3, 6, 30 and 300, for k = 1000, 3000 and 9999:
#  1. the prism and the armpit (the hottest cell of [1.1k, 1.5k) x [0.5k, 0.9k)) of every game,
#     and, from outputs/survey-100-5000.csv, how both move from k to k + m over 3100..5000;
#  2. the armpits (k = 3000 and 9999 only: near k = 1000 the hottest cell is often elsewhere):
#     the rest (fray, warps, inner sector) of the 64 x 64 window centred on game k's armpit
#     against game k + m under every shift within 64 of the two armpits' difference
#     (`compare --search-shift 64 --search-region rest`), with two controls that must find
#     copies, 64 x 64 windows of the fabric (against k + m, m a multiple of 3, at (m/3, m/3))
#     and of the upper arm (against k + m at (m, 0)); then every pair of the same class mod 3
#     among k = 3000, 3003, ..., 3030 and among k = 9999, 10002, ..., 10029;
#  3. the inner sector: 128 x 128 windows centred on the diagonal 128, 1024 and 8192 cells past
#     game k's prism against game k + m under every shift within 128 of the prisms' difference
#     along the diagonal, and of the fabric's shift (m/3, m/3) where m is a multiple of 3; as a
#     control, the same window against game k itself, 256 to 512 cells further along the
#     diagonal; and 64 x 64 windows 1024 cells past the prism under every shift within 480 of
#     (0, 0) (against game k itself, of (600, 600));
#  4. where the inner sectors of k and k + m part at the fabric's shift: 32 x 32 windows on the
#     diagonal from 256 cells before game k's prism to 1024 after, at (m/3, m/3) and, for the
#     level of chance, at (m/3 + 16, m/3 + 16);
# Writes outputs/inner-sectors.txt, and outputs/inner-sector-k9999.png and -k10002.png (one window
# of each inner sector). The innermost P-threads: scripts/innermost-threads.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
P=target/release/palace
out=outputs/inner-sectors.txt
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

bases=(1000 3000 9999)
ms=(1 2 3 6 30 300)
declare -A prism hot_x hot_y hot_v

# The prism (d of (d, d)) and the upper armpit (x, y, v) of game $1.
junctions() {
  local k=$1
  local size=$((k * 7 / 4))
  prism[$k]=$($P regions --k "$k" --size "$size" -q | sed -n 's/^ *prism *(\([0-9]*\), .*/\1/p')
  local w="$((k * 11 / 10)),$((k / 2)),$((k * 3 / 2)),$((k * 9 / 10))"
  read -r hot_x[$k] hot_y[$k] hot_v[$k] < <($P regions --k "$k" --size "$size" --window "$w" -q |
    sed -n 's/^ *hottest (upper) *(\([0-9]*\), \([0-9]*\)).*v = \([0-9-]*\).*/\1 \2 \3/p')
}

# Formats palace's JSON on stdin: `search` one search's best shift, offset and fraction with
# the mean, standard deviation and z of all its shifts; `one` a radius-0 search's fraction and
# offset; `regions` the share of each region in a window.
cat > "$tmp/fmt.py" <<'PY'
import json, sys
r = json.load(sys.stdin)
what = sys.argv[1]
if what == "search":
    b = r["best"][0]
    z = (b["fraction"] - r["mean_fraction"]) / r["sd_fraction"] if r["sd_fraction"] else 0.0
    print("best (%5d, %5d) %+5d %7.2f%%  mean %6.2f%%  sd %5.2f%%  z %5.1f  (%d cells, %d shifts)" % (
        b["shift"][0], b["shift"][1], b["offset"], 100 * b["fraction"], 100 * r["mean_fraction"],
        100 * r["sd_fraction"], z, r["cells"], r["shifts"]))
elif what == "one":
    b = r["best"][0]
    print("%6.2f%% (%+d)" % (100 * b["fraction"], b["offset"]))
elif what == "regions":
    n = [(name, s["cells"]) for name, s in r["regions"] if s["cells"]]
    tot = sum(c for _, c in n)
    print(", ".join("%s %.1f%%" % (name, 100 * c / tot) for name, c in sorted(n, key=lambda e: -e[1])))
PY

# `compare --search-shift` reduced to one line.
search() {
  local j
  if j=$($P compare "$@" --json -q 2> "$tmp/err"); then
    python3 "$tmp/fmt.py" search <<< "$j"
  else
    echo "no search: $(cat "$tmp/err")"
  fi
}

third() { echo $((($1 + 1) / 3)); }

{
  echo "# §4 question 3: the inner sectors beyond the fabric for different k (scripts/inner-sectors.sh)"
  echo
  echo "## 1. prisms and armpits"
  echo "k, k mod 3, the prism (d, d) (the fabric's last cell on the diagonal, palace regions) and d / k, the armpit (the hottest cell of [1.1k, 1.5k) x [0.5k, 0.9k)) and its value v"
  echo "(near k = 1000 the hottest cell of that window is often on the seam, not at the armpit: docs/survey.md)"
  for k0 in "${bases[@]}"; do
    for m in 0 "${ms[@]}"; do
      k=$((k0 + m))
      junctions "$k"
      awk -v k="$k" -v p="${prism[$k]}" -v x="${hot_x[$k]}" -v y="${hot_y[$k]}" -v v="${hot_v[$k]}" 'BEGIN {
        printf "%6d %d  prism %6d (%.4fk)  armpit (%6d, %6d) (%.4fk, %.4fk) v = %d\n", k, k % 3, p, p / k, x, y, x / k, y / k, v }'
    done
  done
  echo
  echo "over k = 3100..5000 (outputs/survey-100-5000.csv, 3k x 3k boards): residuals from the least-squares line in k, and their change from k to k + m"
  python3 - outputs/survey-100-5000.csv <<'PY'
import csv, statistics as st, sys
rows = {int(r["k"]): r for r in csv.DictReader(open(sys.argv[1]))}
ks = [k for k in range(3100, 5001)]
def line(col):
    xs, ys = ks, [int(rows[k][col]) for k in ks]
    mx, my = st.mean(xs), st.mean(ys)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    return b, {k: int(rows[k][col]) - (my + b * (k - mx)) for k in ks}
for col, name in (("prism", "prism d"), ("max_x", "armpit x"), ("max_y", "armpit y")):
    b, res = line(col)
    sd = st.pstdev(res.values())
    parts = []
    for m in (1, 2, 3, 6, 30, 300):
        d = [res[k + m] - res[k] for k in ks if k + m in res]
        parts.append(f"m = {m}: {st.pstdev(d) / (sd * 2 ** 0.5):.2f}")
    print(f"{name:>9}: {b:.4f} per k, residual s.d. {sd:5.1f} cells; s.d. of the change to k + m over sqrt(2) s.d. (1 = unrelated, 0 = moving together): " + ", ".join(parts))
from collections import Counter
print("armpit value v (max_v) over 3100..5000:", dict(sorted(Counter(int(rows[k]["max_v"]) for k in ks).items())))
same = sum(1 for k in ks if k + 3 in rows and rows[k + 3]["max_v"] == rows[k]["max_v"])
print(f"  the same v as k + 3 in {same} of {len([k for k in ks if k + 3 in rows])}")
PY
  echo
  echo "## 2. armpits (k >= 3000, where the hottest cell is at the armpit): the rest within 32 of game k's armpit against game k + m, every shift within 64 of the armpits' difference"
  for k in "${bases[@]:1}"; do
    for m in "${ms[@]}"; do
      k2=$((k + m))
      dx=$((hot_x[$k2] - hot_x[$k])) dy=$((hot_y[$k2] - hot_y[$k]))
      w="$((hot_x[$k] - 32)),$((hot_y[$k] - 32)),$((hot_x[$k] + 32)),$((hot_y[$k] + 32))"
      printf '%5d vs %5d armpit  centre (%4d, %4d): ' "$k" "$k2" "$dx" "$dy"
      search --k "$k" --k2 "$k2" --size $((2 * k2)) --window "$w" --shift "$dx,$dy" --search-shift 64 --search-region rest
      ax=$((k * 106 / 100)) ay=$((k / 10))
      printf '%5d vs %5d arm     centre (%4d, %4d): ' "$k" "$k2" "$m" 0
      search --k "$k" --k2 "$k2" --size $((2 * k2)) --window "$ax,$ay,$((ax + 64)),$((ay + 64))" --shift "$m,0" --search-shift 64 --search-region arms
      if ((m % 3 == 0)); then
        f=$((k * 8 / 10)) t=$((m / 3))
        printf '%5d vs %5d fabric  centre (%4d, %4d): ' "$k" "$k2" "$t" "$t"
        search --k "$k" --k2 "$k2" --size $((2 * k2)) --window "$f,$f,$((f + 64)),$((f + 64))" --shift "$t,$t" --search-shift 64 --search-region fabric
      fi
    done
  done
  echo
  echo "every pair of one class mod 3: the rest within 32 of the first game's armpit, shifts within 64 of the armpits' difference"
  for k0 in 3000 9999; do
    ks=()
    for ((i = 0; i <= 10; i++)); do ks+=($((k0 + 3 * i))); done
    for k in "${ks[@]}"; do [[ -n ${hot_x[$k]:-} ]] || junctions "$k"; done
    for ((i = 0; i < ${#ks[@]}; i++)); do
      for ((j = i + 1; j < ${#ks[@]}; j++)); do
        k=${ks[i]} k2=${ks[j]}
        dx=$((hot_x[$k2] - hot_x[$k])) dy=$((hot_y[$k2] - hot_y[$k]))
        w="$((hot_x[$k] - 32)),$((hot_y[$k] - 32)),$((hot_x[$k] + 32)),$((hot_y[$k] + 32))"
        printf '%5d vs %5d armpit  centre (%4d, %4d): ' "$k" "$k2" "$dx" "$dy"
        search --k "$k" --k2 "$k2" --size $((2 * k2)) --window "$w" --shift "$dx,$dy" --search-shift 64 --search-region rest
      done
    done | tee "$tmp/pairs-$k0.txt"
    python3 - "$tmp/pairs-$k0.txt" "$k0" <<'PY'
import re, sys
f = [float(m.group(1)) for m in re.finditer(r"best \([^)]*\) +[+-]\d+ +([\d.]+)%", open(sys.argv[1]).read())]
print(f"  {len(f)} pairs from k = {sys.argv[2]}: best match from {min(f):.2f}% to {max(f):.2f}%, median {sorted(f)[len(f) // 2]:.2f}%")
PY
  done
  echo
  echo "## 3. inner sectors: 128 x 128 windows centred on the diagonal, d cells past game k's prism"
  for k in "${bases[@]}"; do
    for d in 128 1024 8192; do
      c=$((prism[$k] + d))
      w="$((c - 64)),$((c - 64)),$((c + 64)),$((c + 64))"
      printf '%5d window at prism + %4d: ' "$k" "$d"
      $P regions --k "$k" --size $((c + 64)) --window "$w" --json -q | python3 "$tmp/fmt.py" regions
      printf '%5d vs %5d itself  centre (%4d, %4d): ' "$k" "$k" 384 384
      search --k "$k" --k2 "$k" --size $((c + 1000)) --window "$w" --shift 384,384 --search-shift 128
      for m in "${ms[@]}"; do
        k2=$((k + m))
        D=$((prism[$k2] - prism[$k]))
        printf '%5d vs %5d prisms  centre (%4d, %4d): ' "$k" "$k2" "$D" "$D"
        search --k "$k" --k2 "$k2" --size $((c + 1000)) --window "$w" --shift "$D,$D" --search-shift 128
        if ((m % 3 == 0)); then
          t=$((m / 3))
          printf '%5d vs %5d fabric  centre (%4d, %4d): ' "$k" "$k2" "$t" "$t"
          search --k "$k" --k2 "$k2" --size $((c + 1000)) --window "$w" --shift "$t,$t" --search-shift 128
        fi
      done
    done
  done
  echo
  echo "wide: 64 x 64 windows centred on the diagonal 1024 cells past game k's prism, every shift within 480 of (0, 0), and against game k itself within 480 of (600, 600)"
  for k in "${bases[@]}"; do
    c=$((prism[$k] + 1024))
    w="$((c - 32)),$((c - 32)),$((c + 32)),$((c + 32))"
    printf '%5d vs %5d itself  centre (%4d, %4d): ' "$k" "$k" 600 600
    search --k "$k" --k2 "$k" --size $((c + 1200)) --window "$w" --shift 600,600 --search-shift 480
    for m in "${ms[@]}"; do
      printf '%5d vs %5d         centre (%4d, %4d): ' "$k" $((k + m)) 0 0
      search --k "$k" --k2 $((k + m)) --size $((c + 1200)) --window "$w" --shift 0,0 --search-shift 480
    done
  done
  echo
  echo "## 4. past the prism at the fabric's shift: 32 x 32 windows from (p + d, p + d), p game k's prism; match at (m/3, m/3) with its best offset, and at (m/3 + 16, m/3 + 16) (chance)"
  for k in "${bases[@]}"; do
    for m in 3 6 30 300; do
      k2=$((k + m)) t=$((m / 3))
      printf '%5d vs %5d: prisms %d and %d (%d in game k'"'"'s cells)\n' "$k" "$k2" "${prism[$k]}" "${prism[$k2]}" $((prism[$k2] - t))
      for d in -256 -128 -64 -32 0 32 64 128 256 512 1024; do
        c=$((prism[$k] + d))
        w="$c,$c,$((c + 32)),$((c + 32))"
        a=$($P compare --k "$k" --k2 "$k2" --size $((c + 1000)) --window "$w" --shift "$t,$t" --search-shift 0 --json -q | python3 "$tmp/fmt.py" one)
        z=$($P compare --k "$k" --k2 "$k2" --size $((c + 1000)) --window "$w" --shift "$((t + 16)),$((t + 16))" --search-shift 0 --json -q | python3 "$tmp/fmt.py" one)
        printf '    d = %5d: at the fabric'"'"'s shift %s, 16 further %s\n' "$d" "$a" "$z"
      done
    done
  done
} > "$out"

# Two inner sectors side by side: the same window, 1000 x 1000 cells on the diagonal from
# (19700, 19700), of two games of one class.
for k in 9999 10002; do
  $P render --k "$k" --size 20700 --window 19700,19700,20700,20700 -q -o "outputs/inner-sector-k$k.png"
done
echo "wrote $out, outputs/inner-sector-k9999.png and outputs/inner-sector-k10002.png" >&2
