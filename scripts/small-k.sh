#!/usr/bin/env bash
# The small-k survey of docs/small-k.md: for k = 1..20, `palace branches` over rows 0..N
# (the branches of y/x of the upper P-positions, their limits and exact forms, the k-cover
# check, the closed forms for k <= 3), into outputs/small-k.txt, with the ratio pictures of a
# few games as outputs/small-k-k<K>.png.
#
# Usage: scripts/small-k.sh [N] [BIG_N] [BIG_KS]
#   N       rows for every k (default 100000; each run sweeps (k + 3N) x N cells);
#   BIG_N   rows for the games in BIG_KS (default 200000);
#   BIG_KS  games run again with BIG_N rows (default "2 3").
# PALACE names the binary (default: target/release/palace, built here).
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-100000}
big_n=${2:-200000}
big_ks=${3:-"2 3"}
if [[ -z "${PALACE:-}" ]]; then
  cargo build --release --quiet
  PALACE=target/release/palace
fi
O=outputs
mkdir -p "$O"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run() { # k rows [plot]
  local k=$1 rows=$2 plot=${3:-}
  printf '== k = %s, rows 0..%s\n' "$k" "$rows" >&2
  local t0 t1
  t0=$(date +%s.%N)
  if [[ -n $plot ]]; then
    $PALACE branches --k "$k" --rows "$rows" --json -q --plot "$plot" > "$tmp/k$k-$rows.json"
  else
    $PALACE branches --k "$k" --rows "$rows" --json -q > "$tmp/k$k-$rows.json"
  fi
  t1=$(date +%s.%N)
  echo "$t0 $t1" | awk '{printf "%.1f\n", $2 - $1}' > "$tmp/k$k-$rows.time"
}

for k in $(seq 1 20); do
  plot=""
  case $k in 4|5|15|17) plot="$O/small-k-k$k.png" ;; esac
  run "$k" "$n" "$plot"
done
for k in $big_ks; do
  run "$k" "$big_n"
done

{
  echo "palace branches --k K --rows N --json for k = 1..20 at N = $n, and k in {$big_ks} at N = $big_n"
  echo "(scripts/small-k.sh $n $big_n \"$big_ks\"; CPU: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores)"
  echo
  python3 - "$tmp" <<'PY'
import json, os, sys
d = sys.argv[1]
runs = []
for f in os.listdir(d):
    if f.endswith(".json"):
        r = json.load(open(os.path.join(d, f)))
        r["seconds"] = open(os.path.join(d, f[:-5] + ".time")).read().strip()
        runs.append(r)
runs.sort(key=lambda r: (r["k"], r["rows"]))

def form(b):
    f = b["exact"]["form"]
    if f["form"] == "rational":
        return f"{f['p']}/{f['q']}"
    if f["form"] == "quadratic":
        return f"{f['text']}"
    return "not recognised"

def cf(b):
    t = b["exact"]["continued_fraction"]
    return "[" + (f"{t[0]}; " + ", ".join(map(str, t[1:])) if len(t) > 1 else (str(t[0]) if t else "")) + "]"

print("## Per game: the k-cover check, the closed form (k <= 3), the branches")
print()
print(f"{'k':>3} {'N':>7} {'s':>6}  {'upper':>7} {'col0':>4} {'early':>5} {'none':>5}  k-cover (rows; full columns, diagonals; most on a diagonal)  closed form")
for r in runs:
    c = r["cover"]
    cover = "every row" if c["first_short_row"] is None else f"row {c['first_short_row'][0]} short"
    cover += f"; {c['full_columns']} col, {c['full_diagonals']} diag; {c['most_on_a_diagonal']}"
    cl = r.get("closed_form")
    closed = "-" if cl is None else ("agrees, " + str(cl["positions"]) + " positions" if cl["first_difference"] is None else f"differs at {cl['first_difference']}")
    print(f"{r['k']:>3} {r['rows']:>7} {r['seconds']:>6}  {r['upper']:>7} {r['on_column_zero']:>4} {r['early']:>5} {r['ungrouped']:>5}  {cover:<58}  {closed}")
print()
print("## Branches: limit of y/x with its error, exact form, share of the upper positions, positions per row near N,")
print("## and the ratio measured over rows Y/2..Y for Y = 10^3, 10^4, ... (convergence)")
print()
for r in runs:
    for i, b in enumerate(r["branches"]):
        ms = "  ".join(f"{m['y']}: {m['ratio']:.9f}" for m in b["measurements"])
        print(f"k = {r['k']:>2}, N = {r['rows']:>6}, branch {i}: {b['limit']:.9f} +- {b['error']:.1e}  {form(b):<18} share {100*b['share']:6.2f} %  {b['per_row']:.4f}/row  from row {b['from_row']}")
        print(f"      continued fraction within the error {cf(b)}; ratios {ms}")
        if b["exact"]["form"]["form"] == "not_recognised":
            print(f"      not recognised: {b['exact']['form']['reason']}")
    print()
PY
} > "$O/small-k.txt"
echo "wrote $O/small-k.txt" >&2
