#!/usr/bin/env bash
# Where the skin's levels begin, over k: the table of docs/skin.md ("How universal are the
# onsets?"), into outputs/skin-onsets.txt.
#
# Usage: scripts/skin-onsets.sh [SPAN] [SPAN_500]
#   SPAN      columns past the shoulder followed for each k (default 1000000: level 4 holds
#             for two periods from +348217 on);
#   SPAN_500  for k = 500, whose skin stays at level 3 far longer (default 6000000).
#
# Each k is one `palace skin` run (seconds for SPAN; a few minutes for SPAN_500 on 2 cores).
set -euo pipefail
cd "$(dirname "$0")/.."
span=${1:-1000000}
span500=${2:-6000000}

cargo build --release --quiet
P=target/release/palace
O=outputs
mkdir -p "$O"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for k in 500 1000 1500 2000 3000 4000 5000 7000 10000 40003; do
  s=$span
  [[ $k == 500 ]] && s=$span500
  printf '== k = %s, %s columns\n' "$k" "$s" >&2
  $P skin --k "$k" --to $(( k + s )) --json -q > "$tmp/$k.json"
done

python3 - "$tmp" > "$O/skin-onsets.txt" <<'PY'
import json, os, sys
d = sys.argv[1]
runs = sorted((json.load(open(os.path.join(d, f))) for f in os.listdir(d)), key=lambda r: r["k"])
print("where each level of the skin begins, in columns past the shoulder (k, 0)")
print("(first column from which the level holds for two horizontal periods; - = not within the run)")
print(f"{'k':>6} {'k mod 3':>7} {'followed to':>12} {'level 2':>8} {'level 3':>8} {'level 4':>8} {'level 5':>8}  last level's columns")
for r in runs:
    k = r["k"]
    at = {l["n"]: l["begins_at"] - k for l in r["levels"]}
    cells = [f"{'+' + str(at[n]) if n in at else '-':>8}" for n in (2, 3, 4, 5)]
    last = r["levels"][-1]
    print(f"{k:>6} {k % 3:>7} {'+' + str(r['to'] - k):>12} {' '.join(cells)}  n = {last['n']}: {last['columns']}")
PY
cat "$O/skin-onsets.txt"
