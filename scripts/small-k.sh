#!/usr/bin/env bash
# The small-k survey of docs/small-k.md: for k = 1..20, `palace branches` over rows 0..N
# (the branches of y/x of the upper P-positions, their limits and exact forms, the k-cover
# check, the closed forms for k <= 3), into outputs/small-k.txt, with the ratio pictures of a
# few games as outputs/small-k-k<K>.png.
#
# Usage: scripts/small-k.sh [N] [BIG_N] [BIG_KS] [SLOW_N] [SLOW_KS]
#   N       rows for every k but those in SLOW_KS (default 10000000);
#   BIG_N   rows for the games in BIG_KS (default 100000000);
#   BIG_KS  games run again with BIG_N rows (default "2 3 7");
#   SLOW_N  rows for the games in SLOW_KS (default 3000000);
#   SLOW_KS games whose rows cost time growing with the row (default "6 10";
#           docs/small-k.md, "Reach").
# Each run finds the positions with the line counter (one thread; docs/small-k.md, "The line
# counter") and groups the upper ones as they come (docs/small-k.md, "Branches in bounded
# memory"); the runs with a picture keep them, about 40 bytes each: 2.5 GB for k = 20 at N = 10^7.
# JOBS runs go at once (default: the number of cores). PALACE names the binary (default:
# target/release/palace, built here).
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-10000000}
big_n=${2:-100000000}
big_ks=${3:-"2 3 7"}
slow_n=${4:-3000000}
slow_ks=${5:-"6 10"}
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

jobs=${JOBS:-$(nproc)}
pids=()
start() { # k rows [plot]: in the background, at most $jobs at once (the oldest waited for)
  if (( ${#pids[@]} >= jobs )); then
    wait "${pids[0]}"
    pids=("${pids[@]:1}")
  fi
  run "$@" &
  pids+=($!)
}
for k in $big_ks $slow_ks; do
  if [[ " $slow_ks " == *" $k "* ]]; then start "$k" "$slow_n"; else start "$k" "$big_n"; fi
done
for k in $(seq 20 -1 1); do
  [[ " $slow_ks " == *" $k "* ]] && continue
  plot=""
  case $k in 4|5|15|17) plot="$O/small-k-k$k.png" ;; esac
  start "$k" "$n" "$plot"
done
# A failed run fails the script (set -e: wait returns its status).
for pid in "${pids[@]}"; do wait "$pid"; done

{
  echo "palace branches --k K --rows N --json for k = 1..20 at N = $n (k in {$slow_ks} at N = $slow_n), and k in {$big_ks} at N = $big_n"
  echo "(scripts/small-k.sh $n $big_n \"$big_ks\" $slow_n \"$slow_ks\"; CPU: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores, $jobs runs at once)"
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
print(f"{'k':>3} {'N':>9} {'s':>6}  {'upper':>9} {'col0':>4} {'early':>5} {'none':>5}  k-cover (rows; full columns, diagonals; most on a diagonal)  closed form")
for r in runs:
    c = r["cover"]
    cover = "every row" if c["first_short_row"] is None else f"row {c['first_short_row'][0]} short"
    cover += f"; {c['full_columns']} col, {c['full_diagonals']} diag; {c['most_on_a_diagonal']}"
    cl = r.get("closed_form")
    closed = "-" if cl is None else ("agrees, " + str(cl["positions"]) + " positions" if cl["first_difference"] is None else f"differs at {cl['first_difference']}")
    print(f"{r['k']:>3} {r['rows']:>9} {r['seconds']:>6}  {r['upper']:>9} {r['on_column_zero']:>4} {r['early']:>5} {r['ungrouped']:>5}  {cover:<58}  {closed}")
print()
print("## Branches: limit of y/x with its error, exact form, share of the upper positions, positions per row near N,")
print("## and the ratio measured over rows Y/2..Y for Y = 10^3, 10^4, ... (convergence)")
print()
for r in runs:
    for i, b in enumerate(r["branches"]):
        ms = "  ".join(f"{m['y']}: {m['ratio']:.9f}" for m in b["measurements"])
        print(f"k = {r['k']:>2}, N = {r['rows']:>9}, branch {i}: {b['limit']:.9f} +- {b['error']:.1e}  {form(b):<18} share {100*b['share']:6.2f} %  {b['per_row']:.4f}/row  from row {b['from_row']}")
        print(f"      continued fraction within the error {cf(b)}; ratios {ms}")
        if b["exact"]["form"]["form"] == "not_recognised":
            print(f"      not recognised: {b['exact']['form']['reason']}")
    print()
PY
} > "$O/small-k.txt"
echo "wrote $O/small-k.txt" >&2
