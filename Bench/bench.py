#!/usr/bin/env python3
"""`make bench`: how fast photobook turns 12-megapixel photos into an A4 book, and what it costs in memory.

Generates (once, cached in .bench/corpus-v1/) 96 camera-like photos with photobook's own encoder, builds the
release binary, then times `photobook build` on 24 and on 96 of them. When vipsthumbnail and img2pdf are on the
PATH it also times the pipeline a skilled user would chain by hand on the same 24 photos, alternating runs with
photobook so that both see the same machine. Figures are printed, never asserted.

Each run is one child process (a shell for the hand-made pipeline) reaped with wait4(2): wall time from a
monotonic clock, CPU = user + system of the child and every descendant it waited for, peak = the largest
resident set of any one of those processes (ru_maxrss), so for a pipeline that runs two processes at once the
machine's peak may be up to twice the figure shown. The children are started by a small launcher process forked
at start-up (`Launcher`: a child's ru_maxrss starts at its parent's peak).

Standard library only. Settings, from the environment:
  BENCH_RUNS=3        runs of each 24-photo case (the median is shown)
  BENCH_RUNS_96=2     runs of the 96-photo case
  BENCH_IMAGEMAGICK=1 also time ImageMagick (mogrify) + img2pdf on the 24 photos: slow, for reference only
  BENCH_JOBS=N        processes/threads for the corpus and the hand-made pipelines (default: the core count)
  BENCH_MEMORY=0      leave out the memory figures at the end (Bench/bench_memory.py, `make bench-memory`)
  BENCH_WEBP_COUNT=96 WebPs in the grid case (made once from the first N corpus photos)
  BENCH_ONLY=cache    only the render cache's case: a 48-photo book built, then rebuilt after each edit
  BENCH_ONLY=words    only issue 33's budget: 96 photos with a caption each in 11 scripts, the text work's share
  BENCH_ONLY=editor   only issue 35's editor: a 100-photo book opened (empty cache, then from it), a caption and
                      a layout changed, each timed to the last render the page fetches (Bench/bench_editor.py)
  BENCH_ONLY=newformats only issue 34's JPEG XL and camera raw cases (against vips + img2pdf and dcraw_emu -h)
  BENCH_ONLY=formats  only the HEIC and WebP cases (and the JPEG grid and the HEIC books' memory beside them)
  BENCH_ONLY=attention only issue 21's budget: the 24 photos with --crop auto and centre, alternating (and the
                      same with EXIF thumbnails), BENCH_RUNS runs each
  BENCH_ONLY=choose   only issue 31's choice (Bench/bench_choose.py, also in every full run): a 24-page book chosen
                      from a trip of 500 12-MP photos (photobook-corpus --trip, about 1 in 5 made HEIC; made once
                      in .bench/trip-v1-N/ and .bench/choose-v1-N/): the --dry-run alternating with vipsthumbnail
                      --size 256 of the same files, the dry run's peak memory, the build against a build of just
                      the photos it chose, and the choice against the trip's TRUTH.json
  BENCH_CHOOSE_COUNT=500 files in that trip (e.g. 60 for a quick look; each count has its own folders)
  BENCH_CHOOSE_PAGES=24  pages asked of it (--pages)
  BENCH_BUILD=0       use the binaries already in .build/release instead of building them (when another build of
                      the same tree is running); the corpus tool must then be there unless the corpus is cached
  BENCH_SCRATCH=DIR   SwiftPM's scratch path (swift build --scratch-path DIR): the binaries are built and taken
                      from DIR/release instead of .build/release (a second work tree of the repository)
  BENCH_WORK=DIR      the folder of the corpus, the derived sets and the outputs, instead of .bench/

Other formats (issue: HEIC/HEIF/AVIF, WebP and TIFF input): 24 HEICs made once with heif-enc from 24 corpus JPEGs
(.bench/heic-v1/) are timed like the 24 JPEGs, beside vipsthumbnail + img2pdf on the same HEICs (libvips reads
them through the same libheif), with heif-convert's per-photo decode floor; so are the same 24 photos as a phone
stores them, grids of 512x512 HEVC tiles (.bench/heic-grid-v1/, each tile coded by heif-enc, muxed by
Bench/heic_grid.py); lossy WebPs (cwebp, .bench/webp-v1-N/) are timed on a 2x2 grid beside the JPEG grid. A case
photobook cannot build (a format not wired in yet) is printed as failed and the bench goes on.

The code: main() below runs the cases in turn; bench_config.py holds the settings above and the timed runs
(Launcher, Run, Case), bench_photos.py the photo sets, bench_cases.py the cases and bench_tables.py the tables.
"""

import os
import shutil
import time

from bench_cases import (new_formats_case, VIPS_RESIZE, attention_only, attention_pairs_24, cache_case, dry_run, ensure_heic_sets,
                         format_cases, format_report, formats_only, photobook_case, shell_case, words_case)
from bench_config import (A4_PIXELS, CORES, CORPUS, CORPUS_SEED, IMAGEMAGICK, JOBS, PHOTOBOOK, RUNS, RUNS_96, SWIFT,
                          WORK, build_product, machine, rel, say, version)
from bench_photos import ensure_corpus, ensure_webp
from bench_tables import floor_rows, stage_row, target_rows


def main():
    started = time.monotonic()
    os.makedirs(WORK, exist_ok=True)
    say(f"machine: {machine()}")
    if os.getloadavg()[0] > CORES / 2:
        say("warning: the machine is busy with other work: wall times will be longer than on an idle machine "
            "(CPU times are less affected); compare runs made under the same load")
    build_product("photobook")
    import bench_choose  # its Cases run through bench_config's Launcher, the one forked at start-up
    if os.environ.get("BENCH_ONLY", "") == "choose":
        return bench_choose.choose_case()
    build_product("photobook-harness")
    ensure_corpus()
    if os.environ.get("BENCH_ONLY", "") == "cache":
        return cache_case()
    if os.environ.get("BENCH_ONLY", "") == "words":
        return words_case()
    if os.environ.get("BENCH_ONLY", "") == "attention":
        return attention_only(started)
    if os.environ.get("BENCH_ONLY", "") == "newformats":
        return new_formats_case()
    if os.environ.get("BENCH_ONLY", "") == "editor":
        from bench_editor import editor_case
        return editor_case()
    # The other formats' photos, made once from the corpus (before any timing).
    heics = ensure_heic_sets()
    webp_photos = ensure_webp()
    if os.environ.get("BENCH_ONLY", "") == "formats":
        return formats_only(heics, webp_photos, started)

    # The book with attention maps and the same without: what they cost (issue 21: at most 10% of the build).
    attention_pairs = attention_pairs_24()
    photobook24, centre24 = attention_pairs[0]
    pixels24 = photobook_case(24, lossless=False)
    attention_cases = [c for pair in attention_pairs[1:] for c in pair]
    others = []
    if shutil.which("vipsthumbnail") and shutil.which("img2pdf"):
        others.append(shell_case(
            "vips + img2pdf", 24,
            # -o is relative to each photo's folder unless absolute; --smartcrop is 8.14's name for --crop.
            VIPS_RESIZE))
    else:
        say("vipsthumbnail or img2pdf not found: no comparison (apt-get install libvips-tools img2pdf)")
    if IMAGEMAGICK:
        if shutil.which("mogrify") and shutil.which("img2pdf"):
            others.append(shell_case(
                "imagemagick + img2pdf", 24,
                f"-n{(24 + JOBS - 1) // JOBS} mogrify -path {{pages}} -format jpg -auto-orient "
                f"-resize '{A4_PIXELS}^' -gravity center -extent {A4_PIXELS} -quality 90"))
        else:
            say("BENCH_IMAGEMAGICK=1 but mogrify or img2pdf not found: skipped")

    say(f"\n24 photos, {RUNS} runs each, alternating:")
    for _ in range(RUNS):
        for case in [photobook24, centre24] + attention_cases + [pixels24] + others:
            case.run_once()
    photobook96 = photobook_case(96)
    grid96 = photobook_case(96, grid="2x2")
    say(f"\n96 photos, {RUNS_96} runs each, alternating (one photo a page, and four):")
    for _ in range(RUNS_96):
        photobook96.run_once()
        grid96.run_once()

    dry_row, dry_command = dry_run(96, photobook96)
    cache_case()
    from bench_editor import editor_case
    editor_case()
    words_case()
    bench_choose.choose_case()
    webp_grid = format_cases(heics, webp_photos)
    new_formats_case()

    say("\nResults (A4 pages of 2480x3508 pixels at 300 dpi, full bleed, photos cropped to fill, JPEG quality 90):\n")
    for case in [photobook24, centre24] + attention_cases + [pixels24] + others + [photobook96, grid96]:
        say("    " + case.row())
    say(f"    lossless crops: photobook takes {pixels24.median('wall') / photobook24.median('wall'):.2f}x the wall time"
        f" and {pixels24.median('cpu') / photobook24.median('cpu'):.2f}x the CPU without them"
        f" (output {pixels24.median('size') / photobook24.median('size'):.2f}x the size)")
    say("    " + dry_row)
    if others:
        base = photobook24
        for other in others:
            say(f"    {other.name} / photobook: {other.median('wall') / base.median('wall'):.2f}x the wall time, "
                f"{other.median('cpu') / base.median('cpu'):.2f}x the CPU, "
                f"{other.median('peak') / base.median('peak'):.2f}x the peak memory")

    say("\nWhere the time goes (the build's own clock, from its --report; medians; wall seconds):")
    for case in [photobook24, pixels24, photobook96, grid96]:
        say("    " + stage_row(case))
    say("\nTargets (issue 13; 2 cores; medians of the runs above):")
    vips = next((o for o in others if o.name.startswith("vips")), None)
    for line in target_rows(photobook24, vips, grid96, attention_pairs):
        say("    " + line)
    floor_rows([photobook24, grid96])
    format_report(heics, webp_grid, grid96, webp_photos)

    say("\nCommands (run from the repository root; each timed as one process with wait4):")
    for case in [photobook24, centre24] + attention_cases + [pixels24] + others + [photobook96, grid96]:
        say(f"  {case.name}, {case.photos} photos:\n    {case.shown}")
    say(f"  photobook --dry-run, 96 photos:\n    {dry_command}")
    say("\nNotes:")
    say(f"  corpus: {rel(CORPUS)}: 96 photos, 12 MP (4000x3000 and 3000x4000), JPEG quality 92 4:2:0 2-3 MB each"
        f" with EXIF (orientation 6 or 8 on 12), and 4 PNGs of 18 MB; made by photobook-corpus --seed {CORPUS_SEED}.")
    say("  The 24 are the first 24 of the 96 (the same mix: 19 landscapes, 4 portraits, 1 PNG).")
    say("  The 19 landscape JPEGs keep their own 3000 rows: their pages are lossless crops (their DCT blocks copied,"
        " no decode, no encode); '(pixels)' decodes and encodes them as before (PHOTOBOOK_LOSSLESS_CROPS=0).")
    say("  A landscape 4000x3000 photo cropped to fill a portrait A4 page has 3000 rows for 3508: photobook keeps"
        " them (about 256 dpi, it never enlarges); vipsthumbnail enlarges to 3508 rows, which costs it more than a"
        " reduction (no shrink-on-load), so the ratio is that of this job, not of the two resizers in general.")
    say(f"  CPU = user + sys of the process and every child it waited for; cores = CPU / wall; peak = largest"
        f" resident set of any one process (the pipelines run {JOBS} resizers at once).")
    say(f"  Versions: {version([PHOTOBOOK, '--version'])}; {version(['vipsthumbnail', '--vips-version'])}; "
        f"{version(['img2pdf', '--version'])}; {version([SWIFT, '--version'])}; "
        f"{version(['heif-enc', '--help'], 'libheif')}; cwebp {version(['cwebp', '-version'])}.")
    if os.getloadavg()[0] > CORES / 2:
        say("  The machine was busy with other work (see the load averages): wall times are inflated.")
    say(f"  machine at the end: {machine()}.  make bench took {time.monotonic() - started:.0f} s.")
    if os.environ.get("BENCH_MEMORY", "1") != "0":
        import bench_memory  # memory at any book size (issue 14); alone: make bench-memory
        bench_memory.report()


if __name__ == "__main__":
    main()
