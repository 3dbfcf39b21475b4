#!/usr/bin/env bash
# Which regions depend on k, and which only on k mod 3 (Cook, Larsson and Neary, "A Cellular
# Automaton for Blocking Queen Games", AUTOMATA 2015, §3.1; claim 32 of docs/paper-claims.md).
#
# Usage: scripts/k-dependence.sh [K...]   (default: 1000 2000)
#
# For each base game k (on its 3k x 3k board) and each partner k + m, m = 1, 2, 3, 6, 30 and
# 300 (1 and 3 only for k >= 2000, whose boards are larger), `palace compare --region-search 2` compares every region
# of game k with game k + m at offset +m (v = N - k equal) under every shift within 2 of the
# two alignments the paper's Fig. 4 names: along the diagonal by m/3 (rounded; the nose moves
# by m/3 cells when m is a multiple of 3) and along the top border by m (the shoulder moves
# by m). A region that does not depend on k matches 100 % at its alignment; one that depends
# on k mod 3 only where m is a multiple of 3; one that depends on k nowhere. A control compares
# game k with k + 3 at one shift, (40, 40), that aligns no region: the fraction a
# region reaches by chance.
# Writes outputs/k-dependence.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
P=target/release/palace
out=outputs/k-dependence.txt
ks=("$@")
[[ ${#ks[@]} -eq 0 ]] && ks=(1000 2000)
{
  for k in "${ks[@]}"; do
    ms=(1 2 3 6 30 300)
    ((k >= 2000)) && ms=(1 3)
    for m in "${ms[@]}"; do
      d=$(((m + 1) / 3))
      for shift in "$d,$d" "$m,0"; do
        echo "== palace compare --k $k --k2 $((k + m)) --size $((3 * k)) --shift $shift --offset $m --region-search 2"
        $P compare --k "$k" --k2 "$((k + m))" --size "$((3 * k))" --shift "$shift" --offset "$m" --region-search 2 -q
      done
    done
    echo "== palace compare --k $k --k2 $((k + 3)) --size $((3 * k)) --shift 40,40 --offset 3 --region-search 0"
    $P compare --k "$k" --k2 "$((k + 3))" --size "$((3 * k))" --shift 40,40 --offset 3 --region-search 0 -q
  done
  echo "== junctions, game k against k + 3 for k = 1000..4997 (outputs/survey-100-5000.csv, 3k x 3k boards)"
  python3 - outputs/survey-100-5000.csv <<'PY'
import csv, sys
rows = {int(r["k"]): r for r in csv.DictReader(open(sys.argv[1]))}
pairs = [(k, k + 3) for k in range(1000, 4998) if k + 3 in rows]
def moves(f):
    return [f(rows[a], rows[b]) for a, b in pairs]
# The nose, and with it the fabric, moves by (1, 1) from k to k + 3.
print(f"pairs: {len(pairs)}")
for name, e in (("raw", 0), ("less the nose's (1, 1)", 1)):
    prism = moves(lambda a, b: abs(int(b["prism"]) - int(a["prism"]) - e))
    print(f"prism (d, d), its move {name}: >= 16 in {sum(m >= 16 for m in prism)}, >= 40 in {sum(m >= 40 for m in prism)}, largest {max(prism)}")
for name, (ex, ey) in (("raw", (0, 0)), ("less the nose's (1, 1)", (1, 1)), ("less the mean drift (3.8, 2.1)", (3.797, 2.064))):
    hot = moves(lambda a, b: max(abs(int(b["max_x"]) - int(a["max_x"]) - ex), abs(int(b["max_y"]) - int(a["max_y"]) - ey)))
    print(f"hottest cell (max_x, max_y), Chebyshev move {name}: > 8 in {sum(m > 8 for m in hot)}, > 100 in {sum(m > 100 for m in hot)}")
print(f"its value max_v changes in {sum(moves(lambda a, b: a['max_v'] != b['max_v']))}")
PY
} > "$out"
echo "wrote $out" >&2
