#!/usr/bin/env bash
# Bench/same_books.sh OLD NEW [WORK]: builds the same books with two photobook binaries and compares them byte for
# byte, for a change that must not change what a user sees (issue 32). Under SOURCE_DATE_EPOCH, without the
# render cache: the demo books, every Fixtures/ folder laid out automatically, a 24-photo corpus (plain, with
# words, PDF/X-1a, a grid at 150 dpi), a trip chosen by --pages and by --photos, a folder of corrupt photos that
# is planned twice, and a folder of caption sidecars good and bad. Prints each book that differs and each
# diagnostic that differs (paths and timings masked), then "N books byte-identical, M differ"; exits 1 when any
# differs. The photos are made once in WORK (default .bench/same-books) by photobook-corpus, whose path comes
# from CORPUS_TOOL (default .build/release/photobook-corpus).
set -uo pipefail
if [ $# -lt 2 ]; then echo "usage: $0 OLD-PHOTOBOOK NEW-PHOTOBOOK [WORK]" >&2; exit 2; fi
OLD=$(realpath "$1"); NEW=$(realpath "$2")
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(realpath -m "${3:-$ROOT/.bench/same-books}")
CORPUS_TOOL=${CORPUS_TOOL:-$ROOT/.build/release/photobook-corpus}
F=$ROOT/Fixtures
P=$F/exif-orientation

# The photos, made once (a folder is complete when its last file is there).
mkdir -p "$WORK"
[ -f "$WORK/c24/MANIFEST" ] || "$CORPUS_TOOL" --out "$WORK/c24" --count 24 --size 2000x1500 >/dev/null || exit 1
[ -f "$WORK/trip/TRUTH.json" ] || "$CORPUS_TOOL" --trip --out "$WORK/trip" --count 60 --size 1600x1200 >/dev/null || exit 1
if [ ! -f "$WORK/broken/done" ]; then
  rm -rf "$WORK/broken" && mkdir -p "$WORK/broken"
  cp "$WORK"/c24/IMG_000[1-6].jpg "$WORK/broken/"
  head -c 200000 "$WORK/c24/IMG_0007.jpg" > "$WORK/broken/IMG_0007.jpg"   # cut in its scan: fails when decoded
  head -c 300 "$WORK/c24/IMG_0008.jpg" > "$WORK/broken/IMG_0008.jpg"      # cut in its header: fails when probed
  printf 'not a photo' > "$WORK/broken/IMG_0009.jpg"
  touch "$WORK/broken/done"
fi
if [ ! -f "$WORK/captions/done" ]; then
  rm -rf "$WORK/captions" && mkdir -p "$WORK/captions"
  cp "$WORK"/c24/IMG_000[1-6].jpg "$WORK/captions/"
  printf 'Lunch in \xce\x96\xce\xb1\xce\xb3\xcf\x8c\xcf\x81\xce\xb9\n' > "$WORK/captions/IMG_0001.jpg.txt"
  printf 'short name\n' > "$WORK/captions/IMG_0002.txt"
  printf '  \n' > "$WORK/captions/IMG_0003.jpg.txt"
  printf 'Caf\xe9' > "$WORK/captions/IMG_0004.txt"
  mkdir -p "$WORK/captions/IMG_0005.jpg.txt"
  ln -sf nowhere "$WORK/captions/IMG_0006.txt"
  touch "$WORK/captions/done"
fi

# books BIN OUT: every book with BIN into OUT, each with its stderr and exit status.
books() {
  local bin=$1 out=$2
  rm -rf "$out" && mkdir -p "$out"
  export SOURCE_DATE_EPOCH=1700000000
  run() { local name=$1; shift; "$bin" "$@" --no-cache -o "$out/$name.pdf" > "$out/$name.out" 2> "$out/$name.err"; echo $? > "$out/$name.status"; }
  run demo build "$P" --page-size 14x14cm --fit fit
  run demo-grid build "$P" --layout "grid 3x4"
  run demo-auto build "$P" --layout auto --page-size 14x14cm --title photobook --subtitle "a sample book" \
    --cover-photo "$P/Landscape_1.jpg" --captions name --sections folder --page-numbers
  run demo-print build "$P" --layout auto --page-size 14x14cm --margin 0 --bleed 3mm --crop-marks --binding 8mm \
    --pad-to 4 --page-numbers
  "$bin" cover "$P/Landscape_1.jpg" "$P/Portrait_1.jpg" -o "$out/demo-cover.pdf" --page-size 14x14cm --bleed 3mm \
    --interior-pages 120 --paper-ppi 444 --dpi 200 --title photobook --author Fixtures 2> "$out/demo-cover.err"
  run old-demo build "$P" "$F/cmyk-jpeg" --page-size a5 --fit fit
  run c24 build "$WORK/c24"
  run c24-auto build "$WORK/c24" --layout auto --title T --page-numbers --captions date
  run c24-x1a build "$WORK/c24" --layout auto --pdfx 1a --output-profile "$ROOT/Resources/FOGRA39L-photobook.icc"
  run c24-grid build "$WORK/c24" --layout "grid 2x3" --dpi 150
  run trip-pages build "$WORK/trip" --pages 8 --layout auto --title Trip --sections event --sort date
  run trip-photos build "$WORK/trip" --photos 20
  run broken build "$WORK/broken" --layout "grid 2x2"
  run broken-auto build "$WORK/broken" --layout auto
  run captions build "$WORK/captions" --captions auto --layout auto
  for d in heif webp tiff pngsuite attention face-regions takeout; do run "fx-$d" build "$F/$d" -r --layout auto; done
  run all build "$F" -r
}
books "$OLD" "$WORK/old"
books "$NEW" "$WORK/new"

same=0; differ=0
cd "$WORK/old" || exit 1
for f in *.pdf; do
  if cmp -s "$f" "../new/$f"; then same=$((same + 1)); else differ=$((differ + 1)); echo "differs: $f"; fi
done
for f in *.err *.status; do
  mask() { sed "s,$WORK/$1/,OUT/,g; s,[0-9.]* s$,,"; }
  if ! cmp -s <(mask old < "$f") <(mask new < "../new/$f"); then
    echo "diagnostics differ: $f"; diff <(mask old < "$f") <(mask new < "../new/$f") | head -5
  fi
done
echo "$same books byte-identical, $differ differ"
[ "$differ" = 0 ]
