#!/usr/bin/env bash
# Regenerates the paper's figures 1, 3, 4, 5, 6, 7 and 8 and the skin table into outputs/
# (Cook, Larsson and Neary, "A Cellular Automaton for Blocking Queen Games", AUTOMATA 2015).
#
# Usage: scripts/reproduce-paper.sh [--quick]
#   --quick   skips the two large pictures (k = 9999 at full resolution, k = 40003) and runs the
#             skin only to column 40000, writing those short skin reports to a scratch folder
#             (never over the committed ones); a few seconds instead of a few minutes.
#
# Small pictures and every report (*.txt) are committed; the large ones are listed in .gitignore
# and only made here. Measured figures for docs/paper-claims.md come from the reports.
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
[[ "${1:-}" == "--quick" ]] && quick=1

cargo build --release --quiet
P=target/release/palace
O=outputs
mkdir -p "$O"
say() { printf '== %s\n' "$*" >&2; }
# The coordinates a report's line names, e.g. "armpit (upper)   (12718, 6930)" -> "12718 6930".
coords() { grep -m1 "$1" | sed -E 's/.*\(([0-9]+), ([0-9]+)\).*/\1 \2/'; }

say "Fig. 1: game 5 on the 11 x 11 board, coloured by palace number"
$P render --k 5 --size 11 --zoom 24 --palette values -q -o "$O/fig1-k5.png"

say "Fig. 3: the regions, k = 100 and k = 1000 on 3k x 3k boards"
$P render --k 100 --size 300 --zoom 3 -q -o "$O/fig3-k100.png"
$P render --k 1000 --size 3000 -q -o "$O/fig3-k1000-full.png"
$P render --k 1000 --size 3000 --scale 3 -q -o "$O/fig3-k1000-scale3.png"
$P render --k 1000 --size 3000 --scale 3 --aggregate min -q -o "$O/fig3-k1000-scale3-min.png"
$P regions --k 1000 --size 3000 --scale 3 -q -o "$O/fig3-regions-k1000.png" > "$O/fig3-regions-k1000.txt"
$P regions --k 500 --size 1500 -q -o "$O/regions-k500.png" > "$O/regions-k500.txt"
say "Fig. 3's windows by the nose and by the shoulder: the best shift from game 100 to game 1000"
{
  sep=""
  for args in "--window 8,8,108,108 --shift 300,300 --search-shift 40" \
              "--window 50,0,150,100 --shift 900,0 --search-shift 40" \
              "--window 50,0,150,100 --shift 900,0 --offset 900"; do
    printf '%s$ palace compare --k 100 --k2 1000 --size 300 %s\n' "$sep" "$args"
    # shellcheck disable=SC2086 # the arguments are words
    $P compare --k 100 --k2 1000 --size 300 $args -q
    sep=$'\n'
  done
} > "$O/fig3-shift-search.txt"
scripts/fig3-windows.sh "$P" > /dev/null

say "Fig. 4: k = 497 vs 500 (shift (1,1), +3) and k = 499 vs 500 (shift (1,0), +1)"
$P compare --k 497 --k2 500 --shift 1,1 --offset 3 --size 1500 -q -o "$O/fig4-left-497-500.png" > "$O/fig4-left-497-500.txt"
$P compare --k 499 --k2 500 --shift 1,0 --offset 1 --size 1500 -q -o "$O/fig4-right-499-500.png" > "$O/fig4-right-499-500.txt"
say "the rift's period (81, 31): game 500 against itself shifted"
$P compare --k 500 --k2 500 --shift 81,31 --offset 0 --size 1500 -q -o "$O/rift-period-81-31.png" > "$O/rift-period-81-31.txt"

say "States for k = 500 (paper §2.2: eight states, -4..3)"
$P stats --k 500 --size 30000 -q > "$O/stats-k500-30000.txt"

say "Fig. 5: game 9999, the whole board and the armpit"
$P render --k 9999 --size 30000 --scale 10 -q -o "$O/fig5-k9999-scale10.png"
$P stats --k 9999 --size 30000 -q > "$O/stats-k9999-30000.txt"
if [[ $quick == 0 ]]; then
  $P regions --k 9999 --size 30000 --scale 10 -q -o "$O/fig5-regions-k9999.png" > "$O/fig5-regions-k9999.txt"
  read -r ax ay < <(coords "armpit (upper)" < "$O/fig5-regions-k9999.txt")
  x0=$(( ax > 1500 ? ax - 1500 : 0 )); y0=$(( ay > 1000 ? ay - 1000 : 0 ))
  $P render --k 9999 --size 30000 --window "$x0,$y0,$((x0 + 3000)),$((y0 + 2000))" -q -o "$O/fig5-armpit-k9999.png"
fi

say "Fig. 6: game 40003, the prism and its light beam"
if [[ $quick == 0 ]]; then
  $P regions --k 40003 --size 72000 --scale 24 -q -o "$O/fig6-regions-k40003.png" > "$O/fig6-regions-k40003.txt"
  read -r px py < <(coords "prism" < "$O/fig6-regions-k40003.txt")
  x0=$(( px - 3000 )); y0=$(( py - 3000 ))
  $P render --k 40003 --size 120000 --window "$x0,$y0,$((x0 + 8000)),$((y0 + 8000))" -q -o "$O/fig6-prism-k40003.png"
  $P render --k 40003 --size 120000 --window "$x0,$y0,$((x0 + 8000)),$((y0 + 8000))" --scale 8 -q -o "$O/fig6-prism-k40003-scale8.png"
fi

say "Fig. 7: the three fabrics, k = 998, 999, 1000 around their noses"
$P fabric --k 998 --size 600 -q -o "$O/fig7-fabrics.png" > "$O/fig7-fabrics.txt"

say "Fig. 8 and §3.4: the skin of the upper arm"
to=400000
S="$O"
if [[ $quick == 1 ]]; then
  to=40000
  S=$(mktemp -d "${TMPDIR:-/tmp}/palace-quick-skin.XXXXXX")
  say "--quick: the short skin reports go to $S, not to $O"
fi
$P skin --k 9999 --to "$to" -q --csv "$S/skin-k9999.csv" --plot "$S/skin-k9999.png" > "$S/skin-k9999.txt"
for k in 500 2000 5000 20000 40003; do
  $P skin --k "$k" --to $(( k + to + 20000 )) -q > "$S/skin-k$k.txt"
done
# The skin pattern (Fig. 8) at level 3, 10000 columns past the shoulder, each cell 6 x 6 pixels.
sx=$(( 9999 + 10000 ))
top=$(awk -F, -v x="$sx" '$1 == x { print $2 }' "$S/skin-k9999.csv")
$P render --k 9999 --size 30000 --window "$sx,$(( top - 12 )),$(( sx + 170 )),$(( top + 38 ))" --zoom 6 -q -o "$O/fig8-skin-k9999.png"

say "§3.2 and §4: the threads of the upper warp (docs/threads.md)"
$P threads --k 9999 --size 16000 --window 13300,8700,15100,9900 -q -o "$O/threads-k9999-fray.png" > /dev/null
if [[ $quick == 0 ]]; then
  $P threads --k 9999 --size 40000 -q > "$O/threads-k9999-40000.txt"
  $P threads --k 40003 --size 120000 --scale 40 -q -o "$O/threads-k40003-scale40.png" > "$O/threads-k40003-120000.txt"
fi

say "§3.1 and §4: the beams of the inner sector (docs/threads.md)"
$P beams --k 9999 --size 40000 --window 19500,20500,22700,22500 -q -o "$O/beams-k9999-centre.png" > "$O/beams-k9999-centre.txt"
if [[ $quick == 0 ]]; then
  $P beams --k 9999 --size 40000 --window 16000,16000,40000,40000 --scale 8 -q -o "$O/beams-k9999-scale8.png" > "$O/beams-k9999-40000.txt"
  $P beams --k 40003 --size 120000 --window 60000,60000,120000,120000 --scale 20 -q -o "$O/beams-k40003-scale20.png" > "$O/beams-k40003-120000.txt"
fi

say "§3.2: the fabric's small and large grids (docs/fabric-grid.md)"
$P grid --k 1000 -q -o "$O/grid-k1000.png" > "$O/grid-k1000.txt"
if [[ $quick == 0 ]]; then
  $P grid --k 3000 -q > "$O/grid-k3000.txt"
  $P grid --k 9999 -q -o "$O/grid-k9999.png" > "$O/grid-k9999.txt"
  $P grid --k 40003 -q -o "$O/grid-k40003.png" > "$O/grid-k40003.txt"
  $P grid --k 40003 --at 30000 --side 1024 --reach 256 --json -q > "$O/grid-k40003-d30000-wide.json"
fi

say "§3.2: the fabric's meta-gliders (docs/fabric-grid.md)"
$P gliders --k 9999 --size 20000 -q -o "$O/gliders-k9999.png" > "$O/gliders-k9999.txt"
$P gliders --k 9999 --size 20000 --window 9000,5500,14500,11000 --scale 4 -q -o "$O/gliders-k9999-armpit.png" > "$O/gliders-k9999-armpit.txt"
if [[ $quick == 0 ]]; then
  $P gliders --k 40003 --size 66000 -q -o "$O/gliders-k40003.png" > "$O/gliders-k40003.txt"
  {
    echo "palace gliders under other settings: the classifier's window side (--side) and threshold (--threshold); each block is the zone and the summary table of one run"
    echo "(release build; k = 9999 on 20000 x 20000, k = 40003 on 66000 x 66000)"
    for k in 9999 40003; do
      size=$([[ $k == 9999 ]] && echo 20000 || echo 66000)
      for side in 48 80 112; do for th in 0.06 0.08 0.1; do
        [[ $k == 40003 && $side != 80 && $th != 0.08 ]] && continue
        echo; echo "\$ palace gliders --k $k --size $size --side $side --threshold $th"
        $P gliders --k $k --size $size --side $side --threshold $th -q | sed -n '/^large grid.s zone/p;/texture zone cells/,/^(born/p' | grep -v "^(born"
      done; done
    done
  } > "$O/gliders-settings.txt"
fi

say "done: see $O/"
