"""The settings of `make bench`, from the environment, and its timed runs (Launcher, Run, Case: one child process
at a time, reaped with wait4), with the descriptions of the machine and the tools. Part of Bench/bench.py."""

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
# 24 20-megapixel 10-bit AVIFs for the memory of big pictures (bench_photos.ensure_big_avif).
BIG_AVIF_SET = os.path.join(WORK, "avif20-v2")
# 24 JPEG XLs (cjxl of the HEICs' JPEGs) and 24 camera-like 22-megapixel DNGs (Bench/raw_dng.py) for issue 34.
JXL_SET = os.path.join(WORK, "jxl-v1")
RAW_SET = os.path.join(WORK, "dng22-v1")
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
