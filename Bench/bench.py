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
"""

import concurrent.futures
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.path.abspath(os.environ.get("BENCH_WORK", os.path.join(ROOT, ".bench")))
CORPUS = os.path.join(WORK, "corpus-v1")  # bump the version whenever photobook-corpus draws different photos
CORPUS_SEED = 20250611
SCRATCH = os.path.abspath(os.environ["BENCH_SCRATCH"]) if os.environ.get("BENCH_SCRATCH") else None
RELEASE = os.path.join(SCRATCH or os.path.join(ROOT, ".build"), "release")
PHOTOBOOK = os.path.join(RELEASE, "photobook")
# photobook with the benchmark's switches (PHOTOBOOK_LOSSLESS_CROPS, PHOTOBOOK_TEST_IMAGES_IN_MEMORY), which the
# shipped binary does not have (Sources/photobook-harness); only the cases that use a switch run it.
HARNESS = os.path.join(RELEASE, "photobook-harness")
CORPUS_TOOL = os.path.join(RELEASE, "photobook-corpus")
SWIFT = os.environ.get("SWIFT", "swift")
CORES = os.cpu_count() or 1
JOBS = int(os.environ.get("BENCH_JOBS", str(max(2, CORES))))
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
RUNS_96 = int(os.environ.get("BENCH_RUNS_96", "2"))
IMAGEMAGICK = os.environ.get("BENCH_IMAGEMAGICK", "") == "1"
# A4 at 300 dpi, the page photobook fills with --margin 0.
A4_PIXELS = "2480x3508"
BUILD = os.environ.get("BENCH_BUILD", "1") != "0"
# The HEIC set: bump the version whenever the recipe below (or the corpus) changes.
HEIC_SET = os.path.join(WORK, "heic-v1")
HEIC_COUNT = 24
# libheif's quality (x265's CRF is derived from it). At 55 the corpus's 12-MP photos come out at about 1.5-2 MB,
# the size of a 12-MP HEIC from a phone (about 1-1.5 bits a pixel); libheif's default, 50, is a little smaller.
# Preset "fast" rather than libheif's "slow": a phone's hardware encoder does not search as hard either, and
# the set is made much sooner. x265 without its thread pool (so no WPP rows in the bitstream; a phone's HEIC is
# a grid of independently coded 512x512 tiles instead): JOBS encoders run at once, and x265's threads wait on
# one another for ever on a shared, busy machine. 4:2:0, 8 bits (heif-enc's defaults for a JPEG), as phones.
HEIC_QUALITY = 55
HEIC_ENCODE = ["-q", str(HEIC_QUALITY), "-p", "preset=fast", "-p", "x265:pools=none"]
# The phone-like HEIC set: the same photos, each a `grid` item of 512x512 HEVC tiles (hidden hvc1 items), as an
# iPhone's HEIC and many Android phones' are; heif-enc 1.15 cannot write grids, so Bench/heic_grid.py codes each
# tile with heif-enc (HEIC_ENCODE, at most 2 encoders at once) and muxes them. libheif decodes such a file tile by
# tile into one canvas: its speed and memory are not those of one whole HEVC picture. Bump the version whenever
# the recipe (or heic-v1's) changes.
HEIC_GRID_SET = os.path.join(WORK, "heic-grid-v1")
HEIC_GRID_TILE = 512
WEBP_COUNT = int(os.environ.get("BENCH_WEBP_COUNT", "96"))
WEBP_QUALITY = 80
WEBP_SET = os.path.join(WORK, f"webp-v1-{WEBP_COUNT}")


def rel(path):
    return os.path.relpath(path, ROOT)


def say(text=""):
    print(text, flush=True)


def build_product(product):
    if not BUILD:
        say(f"BENCH_BUILD=0: using {rel(os.path.join(RELEASE, product))} as it is (not built)")
        return
    scratch = ["--scratch-path", SCRATCH] if SCRATCH else []
    run_checked([SWIFT, "build", "-c", "release"] + scratch + ["--product", product], f"building {product}")


def run_checked(argv, what):
    say("$ " + " ".join(shlex.quote(a) for a in argv))
    started = time.monotonic()
    child = subprocess.Popen(argv, cwd=ROOT)
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        sys.exit(f"bench: {what} failed (exit {child.returncode})")
    return time.monotonic() - started, usage.ru_utime + usage.ru_stime


class Launcher:
    """Starts every timed child from a small process forked before this one grows, and reports its wait4 figures.

    Trap: on Linux a child's ru_maxrss starts at its parent's high-water resident set (the kernel carries it through
    fork and vfork + exec), so once this Python process has read a few large files every child it starts reports at
    least Python's own peak (339 MB for photobook's and vips' runs alike, hiding both). The launcher is forked while
    Python is small (about 13 MB), and only it starts the children."""

    def __init__(self):
        requests_read, requests_write = os.pipe()
        replies_read, replies_write = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(requests_write)
            os.close(replies_read)
            self._serve(os.fdopen(requests_read, "r"), os.fdopen(replies_write, "w"))
        os.close(requests_read)
        os.close(replies_write)
        self.requests, self.replies = os.fdopen(requests_write, "w"), os.fdopen(replies_read, "r")
        self.lock = threading.Lock()

    @staticmethod
    def _serve(requests, replies):
        try:
            for line in requests:
                request = json.loads(line)
                with open(request["log"], "wb") as log:
                    started = time.monotonic()
                    try:
                        child = subprocess.Popen(request["argv"], cwd=request["cwd"], stdin=subprocess.DEVNULL,
                                                 stdout=log, stderr=log)
                    except OSError as error:  # a tool that is not there: a failed run, not a lost launcher
                        log.write(f"{request['argv'][0]}: {error}".encode())
                        replies.write(json.dumps({"status": 127, "wall": 0, "cpu": 0, "peak": 0}) + "\n")
                        replies.flush()
                        continue
                    _, status, usage = os.wait4(child.pid, 0)
                    wall = time.monotonic() - started
                child.returncode = os.waitstatus_to_exitcode(status)  # reaped above: keep Popen from waiting again
                replies.write(json.dumps({"status": child.returncode, "wall": wall,
                                          "cpu": usage.ru_utime + usage.ru_stime,
                                          "peak": usage.ru_maxrss * 1024}) + "\n")  # kilobytes on Linux
                replies.flush()
        finally:
            os._exit(0)

    def run(self, argv, cwd, log):
        """Runs `argv` in `cwd` with its output in the file `log`; gives its status, wall, CPU and peak RSS."""
        with self.lock:
            self.requests.write(json.dumps({"argv": argv, "cwd": cwd, "log": log}) + "\n")
            self.requests.flush()
            return json.loads(self.replies.readline())


LAUNCHER = Launcher()


class Run:
    """One timed child process: wall seconds, CPU seconds (user + sys), peak RSS in bytes, exit status."""

    def __init__(self, argv, output, check=True):
        for stale in (output,) if output else ():  # None: a run that writes no file (a dry run)
            if os.path.isdir(stale):
                shutil.rmtree(stale)
            elif os.path.exists(stale):
                os.remove(stale)
        log_path = os.path.join(WORK, "last-run.log")
        os.makedirs(WORK, exist_ok=True)
        figures = LAUNCHER.run(argv, ROOT, log_path)
        self.wall, self.cpu, self.peak, self.status = figures["wall"], figures["cpu"], figures["peak"], figures["status"]
        with open(log_path, "rb") as log:
            self.log = log.read().decode("utf-8", "replace").strip()
        if self.status != 0 and check:
            sys.exit(f"bench: {argv[0]} exited {self.status}:\n{self.log[-3000:]}")


class Case:
    """A command run several times on one set of photos; its figures are the per-figure medians."""

    def __init__(self, name, photos, argv, output, shown, may_fail=False):
        self.name, self.photos, self.argv, self.output, self.shown = name, photos, argv, output, shown
        self.runs = []
        # A case that may fail (a format photobook may not read yet) is then printed as failed, not fatal.
        self.may_fail, self.failed = may_fail, None

    @property
    def ok(self):
        return self.failed is None and bool(self.runs)

    def run_once(self):
        if self.failed:
            return
        run = Run(self.argv, self.output, check=not self.may_fail)
        if run.status != 0 or (self.output and not os.path.exists(self.output)):
            last = run.log.splitlines()[-1] if run.log else "no output"
            self.failed = f"exit {run.status}: {last[:300]}" if run.status != 0 else f"no {rel(self.output)}"
            say(f"  {self.name:<24} FAILED after {run.wall:.2f} s ({self.failed}); its other runs are skipped")
            return
        run.size = os.path.getsize(self.output) if self.output and os.path.isfile(self.output) else 0
        run.stages = stage_timings(self.argv)
        self.runs.append(run)
        say(f"  {self.name:<24} run {len(self.runs)}: {run.wall:6.2f} s wall {run.cpu:6.2f} s CPU "
            f"peak {run.peak / 1e6:5.0f} MB   (load average {os.getloadavg()[0]:.1f})")
        if run.log:
            say("    its output: " + run.log[-2000:].replace("\n", "\n    "))

    def median(self, field):
        return statistics.median(getattr(r, field) for r in self.runs)

    def row(self):
        if not self.ok:
            return f"{self.name:<24} {self.photos:3d} photos FAILED ({self.failed or 'not run'})"
        wall, cpu = self.median("wall"), self.median("cpu")
        runs = len(self.runs)
        return (f"{self.name:<24} {self.photos:3d} photos {wall:6.1f} s wall {cpu:6.1f} s CPU "
                f"{cpu / wall:4.1f} cores {self.photos / wall:5.1f} photos/s "
                f"peak {self.median('peak') / 1e6:5.0f} MB  output {self.median('size') / 1e6:4.0f} MB"
                f"  ({'median of ' + str(runs) + ' runs' if runs > 1 else '1 run'})")


def stage_timings(argv):
    """The build's own clock per stage, from the JSON report the command wrote (None for other commands)."""
    if "--report" not in argv:
        return None
    try:
        import json
        with open(os.path.join(ROOT, argv[argv.index("--report") + 1])) as f:
            return json.load(f).get("timings")
    except (OSError, ValueError):
        return None


def stage_row(case):
    """Median seconds of each stage of a photobook case, and each stage's share of the build's wall time."""
    if not case.ok:
        return f"{case.name}: FAILED, no stage timings"
    runs = [r.stages for r in case.runs if r.stages]
    if not runs:
        return f"{case.name}: no stage timings (the report was not written)"
    total = statistics.median(r.get("total", 0) for r in runs) or 1
    parts = []
    for stage in ("probe", "plan", "render", "pdf"):
        seconds = statistics.median(r.get(stage, 0) for r in runs)
        parts.append(f"{stage} {seconds:5.2f} s ({100 * seconds / total:4.1f}%)")
    return f"{case.name + ', ' + str(case.photos) + ' photos:':<33} " + "  ".join(parts) + f"  total {total:5.2f} s"


def target_row(label, value, goal, met):
    return f"{label:<46} {value:<28} target {goal:<12} {'met' if met else 'NOT MET'}"


def attention_row(auto, centre):
    """Issue 21's budget: the attention maps (`--crop auto`, the default) against no attention (`--crop centre`)."""
    wall, cpu = auto.median("wall") / centre.median("wall"), auto.median("cpu") / centre.median("cpu")
    what = "EXIF thumbnails" if "thumb" in auto.name else "no thumbnails"
    return target_row(f"attention: --crop auto / centre, {auto.photos}, {what}", f"{wall:.3f} wall, {cpu:.3f} CPU",
                      "<= 1.10", wall <= 1.10)


def target_rows(photobook24, vips, grid96, attention_pairs=None):
    """Issue 13's targets, each with the figure measured here (medians): met or not; issue 21's attention budget."""
    row = target_row
    wall, cpu = photobook24.median("wall"), photobook24.median("cpu")
    rows = [row("photos/s, 24 photos A4", f"{photobook24.photos / wall:.1f}", ">= 18", photobook24.photos / wall >= 18),
            row("CPU / wall, 24 photos A4", f"{cpu / wall:.2f} ({cpu:.2f} s / {wall:.2f} s)", ">= 1.85",
                cpu / wall >= 1.85)]
    if vips:
        share = wall / vips.median("wall")
        rows.append(row("wall time / vips + img2pdf's, 24 photos", f"{share:.3f}", "<= 0.12", share <= 0.12))
    else:
        rows.append("wall time / vips + img2pdf's: not measured (vipsthumbnail or img2pdf missing)")
    grid_rate = grid96.photos / grid96.median("wall")
    rows.append(row(f"photos/s, grid 2x2 of {grid96.photos} photos", f"{grid_rate:.1f}", ">= 40", grid_rate >= 40))
    for auto, centre in attention_pairs or []:
        if auto.ok and centre.ok:
            rows.append(attention_row(auto, centre))
    return rows


def floor_rows(cases):
    """The codec floor of each case (Bench/codec_floor.py): libjpeg-turbo's own tools on the same regions at the
    same scales, one photo at a time; the most photos/s the machine's cores could give doing only that."""
    import codec_floor
    if not codec_floor.available():
        say("\nCodec floor: not measured (djpeg, cjpeg or jpegtran missing: apt-get install libjpeg-turbo-progs)")
        return
    say("\nCodec floor (djpeg -scale/-crop and cjpeg on the same regions at the same scales as the build's report,"
        " djpeg -scale 1/8 for lossless crops, zlib inflate for PNGs; no resampling, no turning, no PDF;"
        " Bench/codec_floor.py):")
    for case in cases:
        report = os.path.join(ROOT, case.argv[case.argv.index("--report") + 1])
        try:
            cpu, counted = codec_floor.floor(report, ROOT)
        except (OSError, RuntimeError, ValueError, KeyError) as error:
            say(f"    {case.name}: not measured ({error})")
            continue
        ceiling = counted / (cpu / CORES) if cpu > 0 else float("inf")
        spent = case.median("cpu")
        say(f"    {case.name + ', ' + str(counted) + ' photos:':<33} {cpu:5.2f} s CPU ({1000 * cpu / max(counted, 1):3.0f} ms"
            f" a photo) -> at most {ceiling:5.1f} photos/s on {CORES} cores; photobook spends {spent:5.2f} s CPU"
            f" ({spent / cpu:.2f}x the floor)")


def format_rows(heics, webp_grid, grid96):
    """The other formats' figures: each HEIC set's case against vips + img2pdf on the same HEICs (the issue's
    target), and the WebP grid against the JPEG grid (no target: it should come close, each WebP being decoded at
    the cell's size)."""
    say("\nOther formats (the options of the JPEG cases; medians):\n")
    for case in [c for h in heics for c in h.cases()] + ([webp_grid] if webp_grid else []):
        say("    " + case.row())
    for h in heics:
        if h.measured():
            say(f"    {h.label}: {h.vips.name} / photobook: {h.vips.median('wall') / h.case.median('wall'):.2f}x the wall"
                f" time, {h.vips.median('cpu') / h.case.median('cpu'):.2f}x the CPU,"
                f" {h.vips.median('peak') / h.case.median('peak'):.2f}x the peak memory")
    if webp_grid and webp_grid.ok:
        rate, jpeg_rate = webp_grid.photos / webp_grid.median("wall"), grid96.photos / grid96.median("wall")
        say(f"    WebP grid 2x2 against the JPEG grid 2x2: {rate:.1f} against {jpeg_rate:.1f} photos/s ({rate / jpeg_rate:.2f}x),"
            f" CPU {1000 * webp_grid.median('cpu') / webp_grid.photos:.0f} against"
            f" {1000 * grid96.median('cpu') / grid96.photos:.0f} ms a photo, peak {webp_grid.median('peak') / 1e6:.0f}"
            f" against {grid96.median('peak') / 1e6:.0f} MB")
    for case in [h.case for h in heics if h.case and h.case.ok] + ([webp_grid] if webp_grid and webp_grid.ok else []):
        say("    " + stage_row(case))
    say("\nTargets (the HEIC/WebP issue; medians of the runs above):")
    for h in heics:
        label = f"{h.label}: photobook / (vipsthumbnail + img2pdf) wall time"
        if h.measured():
            share = h.case.median("wall") / h.vips.median("wall")
            say("    " + target_row(label, f"{share:.3f} ({h.case.median('wall'):.2f} s / {h.vips.median('wall'):.2f} s)",
                                    "<= 0.35", share <= 0.35))
        else:
            say(f"    {label}, goal <= 0.35: not measured ({h.why_not()})")
    if webp_grid and webp_grid.ok:
        rate = webp_grid.photos / webp_grid.median("wall")
        say(f"    WebP grid 2x2, {webp_grid.photos} photos: {rate:.1f} photos/s, {rate / (grid96.photos / grid96.median('wall')):.2f}x"
            f" the JPEG grid's (no target; far below 1 would say the WebPs are not decoded at the cell's size)")
    else:
        why = "no WebPs (cwebp missing)" if not webp_grid else f"photobook failed: {webp_grid.failed}"
        say(f"    WebP grid 2x2: not measured ({why})")


def heif_floor_rows(heic_set):
    """The HEIC decode floor of a set (Bench/codec_floor.py): heif-convert on each of its HEICs, printed beside
    its cases."""
    import codec_floor
    folder, names = heic_set.photos
    paths = [os.path.join(folder, n) for n in names]
    try:
        cpus, walls, startup = codec_floor.heif_floor(paths)
        costs, written = codec_floor.heif_output_costs(paths[0])
    except (OSError, RuntimeError) as error:
        say(f"\n{heic_set.label} decode floor: not measured ({error})")
        return
    total = sum(cpus)
    ceiling = len(cpus) / (total / CORES) if total > 0 else float("inf")
    say(f"\n{heic_set.label} decode floor (heif-convert PHOTO x.y4m, x.y4m a link to /dev/null: libheif 1.15 + libde265's"
        f" decode to YCbCr 4:2:0 planes{heic_set.floor_note}, no RGB, no resampling, no PDF; one process a photo, less its"
        f" start-up, {1000 * startup:.0f} ms; Bench/codec_floor.py):")
    say(f"    {len(cpus)} {heic_set.label}s: {total:5.2f} s CPU, {1000 * statistics.median(cpus):4.0f} ms CPU a photo (median;"
        f" {1000 * min(cpus):.0f}-{1000 * max(cpus):.0f}), {1000 * statistics.median(walls):4.0f} ms wall a photo"
        f" -> at most {ceiling:5.1f} photos/s on {CORES} cores")
    for case in heic_set.cases():
        if case.ok:
            say(f"    {case.name} spends {case.median('cpu'):5.2f} s CPU ({case.median('cpu') / total:.2f}x the floor),"
                f" {1000 * case.median('cpu') / case.photos:.0f} ms a photo")
        else:
            say(f"    {case.name}: FAILED, nothing to compare")
    base = costs["y4m to /dev/null"]

    def more(name):
        return f"{round(1000 * max(0.0, costs[name] - base)):+d} ms"

    if heic_set.vips and heic_set.vips.ok:
        share = (total / CORES) / heic_set.vips.median("wall")
        say(f"    the floor alone, spread over the {CORES} cores ({total / CORES:.2f} s), is {share:.2f} of {heic_set.vips.name}'s"
            f" wall time ({heic_set.vips.median('wall'):.2f} s): the goal of 0.35 leaves {0.35 - share:+.2f} of it for"
            f" everything else photobook does")
    say(f"    the output's share, on {names[0]} (CPU with start-up, medians of 3): Y4M to /dev/null {1000 * base:.0f} ms (the floor's"
        f" figure: writing to /dev/null is free, so no output encode is in it), Y4M to a file"
        f" {1000 * costs['y4m file']:.0f} ms ({more('y4m file')}, the {written / 1e6:.0f} MB written),"
        f" JPEG q90 {1000 * costs['jpeg q90']:.0f} ms ({more('jpeg q90')}: RGB conversion and encode)")


def ensure_corpus():
    manifest = os.path.join(CORPUS, "MANIFEST")
    if os.path.exists(manifest):
        say(f"corpus: {rel(CORPUS)} (cached; delete it to regenerate)")
        return
    build_product("photobook-corpus")
    partial = CORPUS + ".partial"
    shutil.rmtree(partial, ignore_errors=True)
    wall, cpu = run_checked([CORPUS_TOOL, "--out", partial, "--count", "96", "--seed", str(CORPUS_SEED),
                           "--quality", "92", "--jobs", str(JOBS)], "generating the corpus")
    shutil.rmtree(CORPUS, ignore_errors=True)
    os.rename(partial, CORPUS)
    say(f"corpus: generated in {wall:.0f} s wall, {cpu:.0f} s CPU")


def photo_set(count):
    """A folder holding exactly the first `count` photos (hard links), so every tool is handed the same folder."""
    names = sorted(n for n in os.listdir(CORPUS) if n.startswith("IMG_"))[:count]
    folder = os.path.join(WORK, f"photos-{count}")
    if sorted(os.listdir(folder) if os.path.isdir(folder) else []) != names:
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        for name in names:
            try:
                os.link(os.path.join(CORPUS, name), os.path.join(folder, name))
            except OSError:
                shutil.copyfile(os.path.join(CORPUS, name), os.path.join(folder, name))
    # Read every byte once so that no case pays for the disk and the others not.
    for name in names:
        with open(os.path.join(folder, name), "rb") as f:
            while f.read(1 << 22):
                pass
    return folder, names


def corpus_manifest():
    """The corpus photos in order: (name, stored width, stored height, EXIF orientation), from its MANIFEST."""
    photos = []
    with open(os.path.join(CORPUS, "MANIFEST")) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            name, size, orientation = line.split()[:3]
            width, height = (int(v) for v in size.split("x"))
            photos.append((name, width, height, int(orientation.split("=")[1])))
    return photos


def linked_set(slug, names, source=CORPUS):
    """A folder .bench/<slug> holding exactly `names` from `source` (hard links), read once into the page cache."""
    folder = os.path.join(WORK, slug)
    if sorted(os.listdir(folder) if os.path.isdir(folder) else []) != sorted(names):
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        for name in names:
            try:
                os.link(os.path.join(source, name), os.path.join(folder, name))
            except OSError:
                shutil.copyfile(os.path.join(source, name), os.path.join(folder, name))
    warm(folder, names)
    return folder, sorted(names)


def warm(folder, names):
    """Reads every byte once so that no case pays for the disk and the others not."""
    for name in names:
        with open(os.path.join(folder, name), "rb") as f:
            while f.read(1 << 22):
                pass


def _quiet(argv):
    """Runs a corpus-making tool; raises with its last words when it fails."""
    result = subprocess.run(argv, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if result.returncode != 0:
        words = result.stdout.decode("utf-8", "replace").strip().splitlines()
        raise RuntimeError(f"{' '.join(argv)}: exit {result.returncode}: {words[-1] if words else ''}")


def _upright(path, orientation, scratch):
    """The photo as it is seen: the corpus's sideways portraits (EXIF 6 and 8) turned upright with vips autorot
    (its EXIF kept, orientation reset to 1, JPEG Q=97 so that the HEIC or WebP made from it loses nothing that
    matters), since heif-enc 1.15 and cwebp store the pixels as given: without this they would come out sideways
    (heif-enc writes no irot box and HEIF readers ignore the EXIF orientation; cwebp drops the EXIF)."""
    if orientation in (0, 1) or not shutil.which("vips"):
        return path
    upright = os.path.join(scratch, os.path.splitext(os.path.basename(path))[0] + "-upright.jpg")
    _quiet(["vips", "autorot", path, upright + "[Q=97]"])
    return upright


def derived_set(folder, photos, suffix, encode, recipe, kind=None):
    """Makes `folder` once (cached: delete it to remake): each corpus photo in `photos` (manifest rows) upright,
    then `encode(source, output)` (which writes output), JOBS at once; MANIFEST written last, so a folder with
    one is whole. Returns (folder, names) of a folder of hard links to the photos alone
    (.bench/photos-<kind>-<count>, kind the suffix's by default: no MANIFEST, which the hand-made pipelines
    would take for a photo), or None when it cannot be made (said why)."""
    kind = kind or suffix[1:]
    manifest = os.path.join(folder, "MANIFEST")
    if os.path.exists(manifest):
        with open(manifest) as f:
            names = [line.split()[0] for line in f if line.strip() and not line.startswith("#")]
        say(f"{rel(folder)}: {len(names)} photos (cached; delete it to remake)")
        return linked_set(f"photos-{kind}-{len(names)}", names, source=folder)
    partial = folder + ".partial"
    shutil.rmtree(partial, ignore_errors=True)
    os.makedirs(os.path.join(partial, ".scratch"))
    sideways = sum(1 for p in photos if p[3] not in (0, 1))
    if sideways and not shutil.which("vips"):
        say(f"  vips not found: the {sideways} sideways portraits stay sideways (apt-get install libvips-tools)")

    def make(photo):
        name, width, height, orientation = photo
        out = os.path.splitext(name)[0] + suffix
        source = _upright(os.path.join(CORPUS, name), orientation, os.path.join(partial, ".scratch"))
        encode(source, os.path.join(partial, out))
        if source != os.path.join(CORPUS, name):
            os.remove(source)
        if orientation >= 5 and source != os.path.join(CORPUS, name):
            width, height = height, width
        return f"{out} {width}x{height} from={name} {os.path.getsize(os.path.join(partial, out))}"

    started = time.monotonic()
    before = os.times()
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=JOBS) as pool:
            lines = list(pool.map(make, photos))
    except (OSError, RuntimeError) as error:
        say(f"  could not make {rel(folder)}: {error}")
        shutil.rmtree(partial, ignore_errors=True)
        return None
    after = os.times()
    os.rmdir(os.path.join(partial, ".scratch"))
    with open(os.path.join(partial, "MANIFEST"), "w") as f:
        f.write(f"# {recipe}\n" + "\n".join(lines) + "\n")
    shutil.rmtree(folder, ignore_errors=True)
    os.rename(partial, folder)
    sizes = [int(line.split()[-1]) for line in lines]
    say(f"{rel(folder)}: made {len(lines)} photos in {time.monotonic() - started:.0f} s wall, "
        f"{(after.children_user - before.children_user) + (after.children_system - before.children_system):.0f} s CPU, "
        f"{statistics.mean(sizes) / 1e6:.2f} MB each on average")
    names = [line.split()[0] for line in lines]
    return linked_set(f"photos-{kind}-{len(names)}", names, source=folder)


def heic_sources():
    """The corpus JPEGs the HEICs are made from: the first 24 (a phone's folder of HEICs has no PNG), so the
    same mix of 20 landscapes and 4 portraits (3 stored sideways with EXIF 6 or 8, made upright, 1 upright)."""
    return [p for p in corpus_manifest() if p[0].lower().endswith(".jpg")][:HEIC_COUNT]


def ensure_heic():
    if not shutil.which("heif-enc"):
        say("heif-enc not found: no HEIC case (apt-get install libheif-examples)")
        return None
    return derived_set(HEIC_SET, heic_sources(), ".heic",
                       lambda source, out: _quiet(["heif-enc"] + HEIC_ENCODE + ["-o", out, source]),
                       f"heif-enc {' '.join(HEIC_ENCODE)} ({version(['heif-enc'], 'libheif')}) of upright corpus JPEGs")


def ensure_heic_grid():
    """The phone-like HEIC set: the photos of ensure_heic() as grids of HEVC tiles (Bench/heic_grid.py)."""
    if not shutil.which("heif-enc"):
        say("heif-enc not found: no HEIC grid case (apt-get install libheif-examples)")
        return None
    import heic_grid
    return derived_set(HEIC_GRID_SET, heic_sources(), ".heic",
                       lambda source, out: heic_grid.make(source, out, HEIC_GRID_TILE, HEIC_ENCODE),
                       f"Bench/heic_grid.py --tile {HEIC_GRID_TILE}: {HEIC_GRID_TILE}x{HEIC_GRID_TILE} tiles, each"
                       f" heif-enc {' '.join(HEIC_ENCODE)} ({version(['heif-enc'], 'libheif')}), of upright corpus"
                       f" JPEGs", kind="heic-grid")


class HEICSet:
    """A folder of HEICs (one kind of them) and its cases: photobook on it alternating with vipsthumbnail +
    img2pdf on the same files, and heif-convert's decode floor beside them."""

    def __init__(self, label, folder, photos, floor_note=""):
        # photos: (folder of hard links, names), or None when the set could not be made.
        self.label, self.folder, self.photos, self.floor_note = label, folder, photos, floor_note
        self.case = self.vips = None

    def make_cases(self):
        if not self.photos:
            return
        count, slug = len(self.photos[1]), self.label.lower().replace(" ", "-")
        self.case = format_case(f"photobook {self.label}", self.photos, f"photobook-{slug}-{count}")
        if shutil.which("vipsthumbnail") and shutil.which("img2pdf"):
            self.vips = shell_case(f"vips + img2pdf {self.label}", count, VIPS_RESIZE, photos=self.photos,
                                   slug=f"vips-{slug}")
            self.vips.may_fail = True  # a libvips built without libheif

    def cases(self):
        return [c for c in (self.case, self.vips) if c]

    def measured(self):
        return bool(self.case and self.case.ok and self.vips and self.vips.ok)

    def why_not(self):
        return ("no HEICs (heif-enc missing)" if not self.case else
                f"photobook failed: {self.case.failed}" if not self.case.ok else
                "vipsthumbnail or img2pdf missing" if not self.vips else f"vips + img2pdf failed: {self.vips.failed}")


def ensure_heic_sets():
    """The HEIC sets of the bench, made once: whole pictures (heif-enc's) and grids of tiles (a phone's)."""
    return [HEICSet("HEIC", HEIC_SET, ensure_heic()),
            HEICSet("HEIC grid", HEIC_GRID_SET, ensure_heic_grid(),
                    floor_note=", tile by tile into one canvas")]


def ensure_webp():
    if not shutil.which("cwebp"):
        say("cwebp not found: no WebP case (apt-get install webp)")
        return None
    # The first WEBP_COUNT corpus photos, PNGs (screenshot-like) included: the same mix as the JPEG grid case.
    return derived_set(WEBP_SET, corpus_manifest()[:WEBP_COUNT], ".webp",
                       lambda source, out: _quiet(["cwebp", "-quiet", "-q", str(WEBP_QUALITY), "-metadata", "exif",
                                                   source, "-o", out]),
                       f"cwebp -q {WEBP_QUALITY} -metadata exif of upright corpus photos")


def format_case(name, photos, slug, grid=None):
    """photobook on a folder of another format (HEIC, WebP): the options of the JPEG cases (A4 is the default page
    size, said here as well), allowed to fail while the format is not wired in."""
    folder, names = photos
    output = os.path.join(WORK, slug + ".pdf")
    argv = [PHOTOBOOK, "build", rel(folder), "-o", rel(output), "--no-cache", "--page-size", "a4", "--margin", "0", "--quiet",
            "--report", rel(os.path.join(WORK, slug + ".json"))]
    if grid:
        argv += ["--layout", "grid " + grid]
    shown = " ".join(shlex.quote(a) for a in [rel(PHOTOBOOK)] + argv[1:])
    return Case(name, len(names), argv, output, shown, may_fail=True)


VIPS_RESIZE = (f"-n1 vipsthumbnail --size {A4_PIXELS} --smartcrop=centre -o \"$PWD/{{pages}}/%s.jpg[Q=90]\"")


def ensure_thumbnail_set(count=24):
    """The first `count` corpus photos as a camera stores them, with the 160x120 JPEG thumbnail in their EXIF
    (IFD1) that cameras and phones write and the corpus lacks (made once: vipsthumbnail --no-rotate, so the
    thumbnail keeps the stored orientation as a camera's does, then exiftool; .bench/thumb-v1-N/). The attention
    map reads that thumbnail instead of a 1/8 decode. Returns (folder, names), or None without the tools."""
    folder = os.path.join(WORK, f"thumb-v1-{count}")
    names = sorted(n for n in os.listdir(CORPUS) if n.startswith("IMG_"))[:count]
    if os.path.exists(os.path.join(folder, "MANIFEST")):
        return linked_set(f"photos-thumb-{count}", names, source=folder)
    if not (shutil.which("vipsthumbnail") and shutil.which("exiftool")):
        say("vipsthumbnail or exiftool not found: no attention case with EXIF thumbnails "
            "(apt-get install libvips-tools libimage-exiftool-perl)")
        return None
    partial = folder + ".partial"
    shutil.rmtree(partial, ignore_errors=True)
    os.makedirs(partial)
    for name in names:
        shutil.copyfile(os.path.join(CORPUS, name), os.path.join(partial, name))
        if not name.endswith(".jpg"):
            continue
        thumb = os.path.join(partial, "thumb.jpg")
        _quiet(["vipsthumbnail", os.path.join(partial, name), "--size", "160x160", "--no-rotate",
                "-o", thumb + "[Q=75,strip]"])
        _quiet(["exiftool", "-q", "-overwrite_original", f"-ThumbnailImage<={thumb}", os.path.join(partial, name)])
        os.remove(thumb)
    with open(os.path.join(partial, "MANIFEST"), "w") as f:
        f.write("# the corpus photos with a 160x120 EXIF thumbnail (vipsthumbnail --no-rotate, exiftool)\n"
                + "\n".join(names) + "\n")
    shutil.rmtree(folder, ignore_errors=True)
    os.rename(partial, folder)
    return linked_set(f"photos-thumb-{count}", names, source=folder)


def photobook_case(count, lossless=True, grid=None, crop=None, photos=None, label=""):
    folder, names = photos or photo_set(count)
    slug = (f"photobook-{count}{'' if lossless else '-pixels'}{'-grid' + grid if grid else ''}"
            f"{'-crop-' + crop if crop else ''}{'-' + label.replace(' ', '-') if label else ''}")
    output = os.path.join(WORK, slug + ".pdf")
    # The report gives the build's own clock per stage (probe, plan, render, pdf): where the time goes.
    argv = [PHOTOBOOK, "build", rel(folder), "-o", rel(output), "--no-cache", "--margin", "0", "--quiet",
            "--report", rel(os.path.join(WORK, slug + ".json"))]
    if grid:
        argv += ["--layout", "grid " + grid]
    if crop:
        argv += ["--crop", crop]
    shown = " ".join(shlex.quote(a) for a in [rel(PHOTOBOOK)] + argv[1:])
    if crop or label:
        return Case(f"photobook{' ' + label if label else ''} --crop {crop or 'auto'}", len(names), argv, output, shown)
    if grid:
        return Case(f"photobook grid {grid}", len(names), argv, output, shown)
    if lossless:
        return Case("photobook", len(names), argv, output, shown)
    # The pages that lossless crops make (photos at their own resolution, cropped) decoded and encoded instead.
    shown = " ".join(shlex.quote(a) for a in [rel(HARNESS)] + argv[1:])
    return Case("photobook (pixels)", len(names), ["env", "PHOTOBOOK_LOSSLESS_CROPS=0", HARNESS] + argv[1:], output,
                "PHOTOBOOK_LOSSLESS_CROPS=0 " + shown)


def shell_case(name, count, resize, photos=None, slug=None):
    """A hand-made pipeline: resize every photo in parallel (`resize` is the xargs command), then img2pdf.
    `photos` (folder, names) instead of the first `count` corpus photos."""
    folder, names = photos or photo_set(count)
    slug = slug or name.split()[0]
    pages = os.path.join(WORK, f"{slug}-{count}-pages")
    output = os.path.join(WORK, f"{slug}-{count}.pdf")
    script = (f"rm -rf {rel(pages)} && mkdir {rel(pages)} && "
              f"printf '%s\\0' {rel(folder)}/* | xargs -0 -P{JOBS} {resize.format(pages=rel(pages))} && "
              f"img2pdf --pagesize A4 -o {rel(output)} {rel(pages)}/*.jpg")
    return Case(name, len(names), ["bash", "-c", script], output, script)


def dry_run(count, build):
    """Times `--dry-run` (headers and plan, no pixels) on the photos `build` was timed on: the figure the issue
    asks for is its share of the build's wall time."""
    folder, names = photo_set(count)
    argv = [PHOTOBOOK, "build", rel(folder), "--margin", "0", "--dry-run"]
    walls = []
    for _ in range(max(1, RUNS_96)):
        started = time.monotonic()
        result = subprocess.run(argv, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE)
        walls.append(time.monotonic() - started)
        if result.returncode != 0:
            sys.exit(f"bench: the dry run exited {result.returncode}:\n{result.stderr.decode('utf-8', 'replace')[-2000:]}")
    wall, whole = statistics.median(walls), build.median("wall")
    return (f"photobook --dry-run    {len(names):3d} photos {wall:6.2f} s wall, {100 * wall / whole:.1f}% of the build's "
            f"{whole:.1f} s (headers and the plan only)"), " ".join(shlex.quote(a) for a in [rel(PHOTOBOOK)] + argv[1:])


def format_cases(heics, webp_photos):
    """Runs the other formats' cases: photobook on each HEIC set alternating with vips + img2pdf on it (all in
    one round, so that every case sees the same machine), then the WebP grid. Returns the WebP grid case, None
    when its photos are missing."""
    webp_grid = None
    for h in heics:
        h.make_cases()
    made = [h for h in heics if h.case]
    if made:
        say(f"\n{' and '.join(f'{len(h.photos[1])} {h.label}s' for h in made)}, {RUNS} run{'s' if RUNS != 1 else ''} each, alternating:")
        for _ in range(RUNS):
            for case in [c for h in made for c in h.cases()]:
                case.run_once()
    if webp_photos:
        webp_grid = format_case("photobook WebP grid", webp_photos, f"photobook-webp-{len(webp_photos[1])}-grid",
                                grid="2x2")
        say(f"\n{len(webp_photos[1])} WebPs on a 2x2 grid, {RUNS_96} runs:")
        for _ in range(RUNS_96):
            webp_grid.run_once()
    return webp_grid


def format_report(heics, webp_grid, grid96, webp_photos):
    """Prints the other formats' results, targets, HEIC decode floors, commands and notes."""
    import codec_floor
    format_rows(heics, webp_grid, grid96)
    made = [h for h in heics if h.photos]
    if made and not codec_floor.heif_available():
        say("\nHEIC decode floor: not measured (heif-convert missing: apt-get install libheif-examples)")
    elif made:
        for h in made:
            heif_floor_rows(h)
    say("\nCommands of the other formats (from the repository root):")
    for case in [c for h in heics for c in h.cases()] + ([webp_grid] if webp_grid else []):
        say(f"  {case.name}, {case.photos} photos:\n    {case.shown}")
    for h in made:
        say(f"  {h.label} decode floor, each photo:\n    heif-convert --quiet {rel(h.photos[0])}/IMG_0001.heic"
            f" /tmp/.../decoded.y4m   (decoded.y4m -> /dev/null)")
    if made:
        say(f"  HEIC set, each photo (vips autorot first for EXIF 6 and 8):\n    heif-enc {' '.join(HEIC_ENCODE)}"
            f" -o {rel(HEIC_SET)}/IMG_0001.heic {rel(CORPUS)}/IMG_0001.jpg")
        say(f"  HEIC grid set, each photo (the same upright JPEG):\n    python3 {rel(os.path.join(ROOT, 'Bench', 'heic_grid.py'))}"
            f" --tile {HEIC_GRID_TILE} {rel(CORPUS)}/IMG_0001.jpg {rel(HEIC_GRID_SET)}/IMG_0001.heic {' '.join(HEIC_ENCODE)}")
    if webp_photos:
        say(f"  WebP set, each photo:\n    cwebp -quiet -q {WEBP_QUALITY} -metadata exif {rel(CORPUS)}/IMG_0001.jpg"
            f" -o {rel(WEBP_SET)}/IMG_0001.webp")
    say("\nNotes on the other formats:")
    if made:
        count = len(made[0].photos[1])
        say(f"  HEIC set: {rel(HEIC_SET)}: the first {count} corpus JPEGs (no PNG: 20 landscapes, 4"
            f" portraits, 3 of them stored sideways with EXIF 6/8 and turned upright with vips autorot first, since"
            f" heif-enc 1.15 writes no irot box), heif-enc {' '.join(HEIC_ENCODE)}: one 4000x3000 or 3000x4000 HEVC"
            f" image each (not the 512x512 tiles of a phone's grid image, which heif-enc 1.15 cannot write), 4:2:0, 8"
            f" bits, EXIF kept; sizes in its MANIFEST.")
        say(f"  HEIC grid set: {rel(HEIC_GRID_SET)}: the same {count} upright photos as a phone stores them: a grid"
            f" item of 8x6 or 6x8 tiles of {HEIC_GRID_TILE}x{HEIC_GRID_TILE} (hidden hvc1 items, dimg in row-major"
            f" order; the last row and column padded with edge pixels and cropped by the grid's output size), each"
            f" tile heif-enc {' '.join(HEIC_ENCODE)}, muxed by Bench/heic_grid.py (one shared hvcC, EXIF with"
            f" Orientation 1); libheif decodes it tile by tile into one canvas; sizes in its MANIFEST.")
    if webp_photos:
        say(f"  WebP set: {rel(WEBP_SET)}: the first {len(webp_photos[1])} corpus photos (PNGs included), upright,"
            f" cwebp -q {WEBP_QUALITY} (lossy, 4:2:0).")


def attention_pairs_24():
    """The 24-photo book with attention maps (`--crop auto`, the default) and without (`--crop centre`), and the
    same on the photos with EXIF thumbnails when they can be made: issue 21's budget."""
    pairs = [(photobook_case(24), photobook_case(24, crop="centre"))]
    thumbs = ensure_thumbnail_set(24)
    if thumbs:
        pairs.append((photobook_case(24, photos=thumbs, label="thumbnails"),
                      photobook_case(24, photos=thumbs, label="thumbnails", crop="centre")))
    return pairs


def attention_only(started):
    """BENCH_ONLY=attention: the attention pairs alone, alternating, for whoever works on the maps' cost."""
    pairs = attention_pairs_24()
    cases = [c for pair in pairs for c in pair]
    say(f"\n24 photos, {RUNS} runs each, alternating:")
    for _ in range(RUNS):
        for case in cases:
            case.run_once()
    say("\nResults:")
    for case in cases:
        say("    " + case.row())
    for auto, centre in pairs:
        say("    " + attention_row(auto, centre))
    say("\nCommands:")
    for case in cases:
        say(f"  {case.name}, {case.photos} photos:\n    {case.shown}")
    if os.getloadavg()[0] > CORES / 2:
        say("  The machine was busy with other work (see the load averages): wall times are inflated.")
    say(f"  machine at the end: {machine()}.  The attention case took {time.monotonic() - started:.0f} s.")


def cache_case():
    """BENCH_ONLY=cache (and in every full run): a 48-photo book from a book description, built with an empty
    render cache, then again, and after a caption edit, a swap of two pages and a new layout for one page; each
    rebuild as a share of the first build's wall time (issue 23: at most 0.2)."""
    folder, names = photo_set(48)
    cache = os.path.join(WORK, "cache-bench")
    shutil.rmtree(cache, ignore_errors=True)
    description = os.path.join(WORK, "cache-book.json")
    output = os.path.join(WORK, "cache-book.pdf")
    env = dict(os.environ, XDG_CACHE_HOME=cache, SOURCE_DATE_EPOCH="1700000000")
    run_checked([PHOTOBOOK, "init", rel(folder), "--layout", "auto", "--captions", "name", "--margin", "0",
                 "-o", rel(description)], "writing the book description")

    def build():
        start = time.monotonic()
        subprocess.run([PHOTOBOOK, "build", rel(description), "-o", rel(output), "--quiet"], env=env, check=True,
                       stdin=subprocess.DEVNULL, cwd=ROOT)
        return time.monotonic() - start

    def edit(change):
        with open(description) as f:
            book = json.load(f)
        change(book["pages"])
        with open(description, "w") as f:
            json.dump(book, f, indent=2)

    def caption(pages):
        pages[3]["photos"][0]["caption"] = "A caption written after the first build"

    def swap(pages):
        pages[5], pages[6] = pages[6], pages[5]

    def layout(pages):
        page = next(p for p in pages if len(p["photos"]) >= 2)
        page["layout"] = "[" + " / ".join(str(i + 1) for i in range(len(page["photos"]))) + "]"

    first = build()
    rows = [("the same book again", build())]
    for name, change in [("after a caption edit", caption), ("after swapping two pages", swap),
                         ("after a new layout for one page", layout)]:
        edit(change)
        rows.append((name, build()))
    say(f"\nThe render cache (issue 23): 48 photos from a book description, layout auto, captions:")
    say(f"    first build, empty cache: {first:.2f} s wall")
    for name, wall in rows:
        share = wall / first
        say(f"    {name}: {wall:.2f} s, {share:.2f} of the first {'(met)' if share <= 0.2 else '(NOT MET: target 0.2)'}")


def formats_only(heics, webp_photos, started):
    """BENCH_ONLY=formats: the HEIC and WebP cases alone, with the JPEG grid they are set against, and the HEIC
    books' memory (for whoever wires a format in and wants the figures again without the rest)."""
    grid96 = photobook_case(96, grid="2x2")
    say(f"\n96 photos on a 2x2 grid (the JPEG grid the WebP grid is set against), {RUNS_96} runs:")
    for _ in range(RUNS_96):
        grid96.run_once()
    webp_grid = format_cases(heics, webp_photos)
    say(f"\nResults (A4 pages of 2480x3508 pixels at 300 dpi, full bleed, photos cropped to fill, JPEG quality 90):\n")
    say("    " + grid96.row())
    format_report(heics, webp_grid, grid96, webp_photos)
    say(f"  Versions: {version([PHOTOBOOK, '--version'])}; {version(['vipsthumbnail', '--vips-version'])}; "
        f"{version(['img2pdf', '--version'])}; {version(['heif-enc', '--help'], 'libheif')}; "
        f"cwebp {version(['cwebp', '-version'])}.")
    say(f"  machine at the end: {machine()}.  This took {time.monotonic() - started:.0f} s.")
    if os.environ.get("BENCH_MEMORY", "1") != "0":
        import bench_memory
        bench_memory.heic_only()


def machine():
    model = ""
    try:
        with open("/proc/cpuinfo") as f:
            model = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), "")
    except OSError:
        pass
    return f"{CORES} cores ({model}), load average {os.getloadavg()[0]:.1f}"


def version(argv, containing=None):
    """The first line of a tool's output (standard error too), or the first that holds `containing`."""
    try:
        result = subprocess.run(argv, capture_output=True, text=True, stdin=subprocess.DEVNULL)
        out = (result.stdout + result.stderr).strip().splitlines()
        if containing:
            out = [line.strip() for line in out if containing in line] or out
        return " ".join(out[0].split()) if out else "?"
    except OSError:
        return "?"


def main():
    started = time.monotonic()
    os.makedirs(WORK, exist_ok=True)
    say(f"machine: {machine()}")
    if os.getloadavg()[0] > CORES / 2:
        say("warning: the machine is busy with other work: wall times will be longer than on an idle machine "
            "(CPU times are less affected); compare runs made under the same load")
    build_product("photobook")
    import bench_choose  # here, while this process is small (its `import bench` forks a second Launcher)
    if os.environ.get("BENCH_ONLY", "") == "choose":
        return bench_choose.choose_case()
    build_product("photobook-harness")
    ensure_corpus()
    if os.environ.get("BENCH_ONLY", "") == "cache":
        return cache_case()
    if os.environ.get("BENCH_ONLY", "") == "attention":
        return attention_only(started)
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
    bench_choose.choose_case()
    webp_grid = format_cases(heics, webp_photos)

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
