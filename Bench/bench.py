#!/usr/bin/env python3
"""`make bench`: how fast photobook turns 12-megapixel photos into an A4 book, and what it costs in memory.

Generates (once, cached in .bench/corpus-v1/) 96 camera-like photos with photobook's own encoder, builds the
release binary, then times `photobook build` on 24 and on 96 of them. When vipsthumbnail and img2pdf are on the
PATH it also times the pipeline a skilled user would chain by hand on the same 24 photos, alternating runs with
photobook so that both see the same machine. Figures are printed, never asserted.

Each run is one child process (a shell for the hand-made pipeline) reaped with wait4(2): wall time from a
monotonic clock, CPU = user + system of the child and every descendant it waited for, peak = the largest
resident set of any one of those processes (ru_maxrss), so for a pipeline that runs two processes at once the
machine's peak may be up to twice the figure shown.

Standard library only. Settings, from the environment:
  BENCH_RUNS=3        runs of each 24-photo case (the median is shown)
  BENCH_RUNS_96=2     runs of the 96-photo case
  BENCH_IMAGEMAGICK=1 also time ImageMagick (mogrify) + img2pdf on the 24 photos: slow, for reference only
  BENCH_JOBS=N        processes/threads for the corpus and the hand-made pipelines (default: the core count)
  BENCH_MEMORY=0      leave out the memory figures at the end (Bench/bench_memory.py, `make bench-memory`)
"""

import os
import shlex
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.path.join(ROOT, ".bench")
CORPUS = os.path.join(WORK, "corpus-v1")  # bump the version whenever photobook-corpus draws different photos
CORPUS_SEED = 20250611
PHOTOBOOK = os.path.join(ROOT, ".build", "release", "photobook")
CORPUS_TOOL = os.path.join(ROOT, ".build", "release", "photobook-corpus")
SWIFT = os.environ.get("SWIFT", "swift")
CORES = os.cpu_count() or 1
JOBS = int(os.environ.get("BENCH_JOBS", str(max(2, CORES))))
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
RUNS_96 = int(os.environ.get("BENCH_RUNS_96", "2"))
IMAGEMAGICK = os.environ.get("BENCH_IMAGEMAGICK", "") == "1"
# A4 at 300 dpi, the page photobook fills with --margin 0.
A4_PIXELS = "2480x3508"


def rel(path):
    return os.path.relpath(path, ROOT)


def say(text=""):
    print(text, flush=True)


def run_checked(argv, what):
    say("$ " + " ".join(shlex.quote(a) for a in argv))
    started = time.monotonic()
    child = subprocess.Popen(argv, cwd=ROOT)
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        sys.exit(f"bench: {what} failed (exit {child.returncode})")
    return time.monotonic() - started, usage.ru_utime + usage.ru_stime


class Run:
    """One timed child process: wall seconds, CPU seconds (user + sys), peak RSS in bytes, exit status."""

    def __init__(self, argv, output):
        for stale in (output,):
            if os.path.isdir(stale):
                shutil.rmtree(stale)
            elif os.path.exists(stale):
                os.remove(stale)
        log_path = os.path.join(WORK, "last-run.log")
        with open(log_path, "wb") as log:
            started = time.monotonic()
            child = subprocess.Popen(argv, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=log, stderr=log)
            _, status, usage = os.wait4(child.pid, 0)
            self.wall = time.monotonic() - started
        child.returncode = os.waitstatus_to_exitcode(status)  # reaped above: keep Popen from waiting again
        self.cpu = usage.ru_utime + usage.ru_stime
        self.peak = usage.ru_maxrss * 1024  # kilobytes on Linux
        self.status = child.returncode
        with open(log_path, "rb") as log:
            self.log = log.read().decode("utf-8", "replace").strip()
        if self.status != 0:
            sys.exit(f"bench: {argv[0]} exited {self.status}:\n{self.log[-3000:]}")


class Case:
    """A command run several times on one set of photos; its figures are the per-figure medians."""

    def __init__(self, name, photos, argv, output, shown):
        self.name, self.photos, self.argv, self.output, self.shown = name, photos, argv, output, shown
        self.runs = []

    def run_once(self):
        run = Run(self.argv, self.output)
        run.size = os.path.getsize(self.output)
        run.stages = stage_timings(self.argv)
        self.runs.append(run)
        say(f"  {self.name:<21} run {len(self.runs)}: {run.wall:6.2f} s wall {run.cpu:6.2f} s CPU "
            f"peak {run.peak / 1e6:5.0f} MB   (load average {os.getloadavg()[0]:.1f})")
        if run.log:
            say("    its output: " + run.log[-2000:].replace("\n", "\n    "))

    def median(self, field):
        return statistics.median(getattr(r, field) for r in self.runs)

    def row(self):
        wall, cpu = self.median("wall"), self.median("cpu")
        runs = len(self.runs)
        return (f"{self.name:<21} {self.photos:3d} photos {wall:6.1f} s wall {cpu:6.1f} s CPU "
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
    runs = [r.stages for r in case.runs if r.stages]
    if not runs:
        return f"{case.name}: no stage timings (the report was not written)"
    total = statistics.median(r.get("total", 0) for r in runs) or 1
    parts = []
    for stage in ("probe", "plan", "render", "pdf"):
        seconds = statistics.median(r.get(stage, 0) for r in runs)
        parts.append(f"{stage} {seconds:5.2f} s ({100 * seconds / total:4.1f}%)")
    return f"{case.name + ', ' + str(case.photos) + ' photos:':<33} " + "  ".join(parts) + f"  total {total:5.2f} s"


def target_rows(photobook24, vips, grid96):
    """Issue 13's targets, each with the figure measured here (medians): met or not."""
    def row(label, value, goal, met):
        return f"{label:<46} {value:<28} target {goal:<12} {'met' if met else 'NOT MET'}"
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


def ensure_corpus():
    manifest = os.path.join(CORPUS, "MANIFEST")
    if os.path.exists(manifest):
        say(f"corpus: {rel(CORPUS)} (cached; delete it to regenerate)")
        return
    run_checked([SWIFT, "build", "-c", "release", "--product", "photobook-corpus"], "building photobook-corpus")
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


def photobook_case(count, lossless=True, grid=None):
    folder, names = photo_set(count)
    slug = f"photobook-{count}{'' if lossless else '-pixels'}{'-grid' + grid if grid else ''}"
    output = os.path.join(WORK, slug + ".pdf")
    # The report gives the build's own clock per stage (probe, plan, render, pdf): where the time goes.
    argv = [PHOTOBOOK, "build", rel(folder), "-o", rel(output), "--margin", "0", "--quiet",
            "--report", rel(os.path.join(WORK, slug + ".json"))]
    if grid:
        argv += ["--layout", "grid " + grid]
    shown = " ".join(shlex.quote(a) for a in [rel(PHOTOBOOK)] + argv[1:])
    if grid:
        return Case(f"photobook grid {grid}", len(names), argv, output, shown)
    if lossless:
        return Case("photobook", len(names), argv, output, shown)
    # The pages that lossless crops make (photos at their own resolution, cropped) decoded and encoded instead.
    return Case("photobook (pixels)", len(names), ["env", "PHOTOBOOK_LOSSLESS_CROPS=0"] + argv, output,
                "PHOTOBOOK_LOSSLESS_CROPS=0 " + shown)


def shell_case(name, count, resize):
    """A hand-made pipeline: resize every photo in parallel (`resize` is the xargs command), then img2pdf."""
    folder, names = photo_set(count)
    slug = name.split()[0]
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


def machine():
    model = ""
    try:
        with open("/proc/cpuinfo") as f:
            model = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), "")
    except OSError:
        pass
    return f"{CORES} cores ({model}), load average {os.getloadavg()[0]:.1f}"


def version(argv):
    try:
        out = subprocess.run(argv, capture_output=True, text=True).stdout.strip().splitlines()
        return out[0] if out else "?"
    except OSError:
        return "?"


def main():
    started = time.monotonic()
    os.makedirs(WORK, exist_ok=True)
    say(f"machine: {machine()}")
    if os.getloadavg()[0] > CORES / 2:
        say("warning: the machine is busy with other work: wall times will be longer than on an idle machine "
            "(CPU times are less affected); compare runs made under the same load")
    run_checked([SWIFT, "build", "-c", "release", "--product", "photobook"], "building photobook")
    ensure_corpus()

    photobook24 = photobook_case(24)
    pixels24 = photobook_case(24, lossless=False)
    others = []
    if shutil.which("vipsthumbnail") and shutil.which("img2pdf"):
        others.append(shell_case(
            "vips + img2pdf", 24,
            # -o is relative to each photo's folder unless absolute; --smartcrop is 8.14's name for --crop.
            f"-n1 vipsthumbnail --size {A4_PIXELS} --smartcrop=centre -o \"$PWD/{{pages}}/%s.jpg[Q=90]\""))
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
        for case in [photobook24, pixels24] + others:
            case.run_once()
    photobook96 = photobook_case(96)
    grid96 = photobook_case(96, grid="2x2")
    say(f"\n96 photos, {RUNS_96} runs each, alternating (one photo a page, and four):")
    for _ in range(RUNS_96):
        photobook96.run_once()
        grid96.run_once()

    dry_row, dry_command = dry_run(96, photobook96)

    say("\nResults (A4 pages of 2480x3508 pixels at 300 dpi, full bleed, photos cropped to fill, JPEG quality 90):\n")
    for case in [photobook24, pixels24] + others + [photobook96, grid96]:
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
    for line in target_rows(photobook24, vips, grid96):
        say("    " + line)
    floor_rows([photobook24, grid96])

    say("\nCommands (run from the repository root; each timed as one process with wait4):")
    for case in [photobook24, pixels24] + others + [photobook96, grid96]:
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
        f"{version(['img2pdf', '--version'])}; {version([SWIFT, '--version'])}.")
    if os.getloadavg()[0] > CORES / 2:
        say("  The machine was busy with other work (see the load averages): wall times are inflated.")
    say(f"  machine at the end: {machine()}.  make bench took {time.monotonic() - started:.0f} s.")
    if os.environ.get("BENCH_MEMORY", "1") != "0":
        import bench_memory  # memory at any book size (issue 14); alone: make bench-memory
        bench_memory.report()


if __name__ == "__main__":
    main()
