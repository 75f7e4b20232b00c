#!/usr/bin/env python3
"""`make bench-memory` (and the end of `make bench`): memory flat at any book size (issue 14).

Builds an A4 book of 24 photos and one of 800 from the benchmark's corpus and prints, for each, the peak
resident memory of the photobook process (ru_maxrss from wait4), photos per second, and the peak disk used
beside the output (the hidden working folder where the rendered pages wait, plus the temporary PDF) and in
TMPDIR, both sampled every 0.2 s during the build. The 24-photo book is also built with the pages embedded from
memory (PHOTOBOOK_TEST_IMAGES_IN_MEMORY=1, the path before issue 14) to show the memory it saves and that the two
books are the same bytes but for their CreationDate.

The 800 photos are copies of the 96 corpus photos (each its own file, so photobook sees 800 photos), made once
in .bench/photos-800 (about 2.5 GB); the 800-page book (about 1.2 GB) is deleted after it is measured.
Figures are printed, with the issue's targets beside them, never asserted. Takes several minutes.

A book of the 24 HEICs of `make bench` (.bench/heic-v1, made once with heif-enc) and one of the same photos as
a phone stores them (.bench/heic-grid-v1, grids of 512x512 tiles) are built beside a book of the 24 JPEGs they
were made from, and each HEIC book's peak is set against the JPEG book's plus one decoded 12-MP HEIC per worker
(photobook's --jobs, by default the core count): 12e6 * 3 bytes of RGB each, and the larger budget with
libheif's own planes (see heic_verdict). A HEIC book photobook cannot build is printed as failed.

A book of 24 big modern pictures (.bench/avif20-v2: the HEICs' JPEGs scaled to 22 megapixels, 10-bit AVIFs by
avifenc) must peak under 200 MB too: whole-image decoders hold their picture until it is resampled, and the
engine starts no more of them at once than its memory budget holds (issue 34).

Settings, from the environment:
  BENCH_MEMORY_COUNT=800   photos in the large book
  BENCH_MEMORY_IN_MEMORY=1 also build the large book from memory (slow, and needs about its size in RAM)
"""

import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_config  # noqa: E402  (the corpus, the timed runs and the printing are shared)
import bench_photos  # noqa: E402

LARGE = int(os.environ.get("BENCH_MEMORY_COUNT", "800"))
LARGE_IN_MEMORY = os.environ.get("BENCH_MEMORY_IN_MEMORY", "") == "1"
PEAK_LIMIT = 200e6
GROWTH_LIMIT = 30e6


def tree_size(path):
    """Bytes in a file or a folder tree; 0 for what vanished meanwhile (the build removes as it goes)."""
    try:
        if not os.path.isdir(path):
            return os.path.getsize(path)
        total = 0
        for entry in os.scandir(path):
            total += tree_size(entry.path)
        return total
    except OSError:
        return 0


class DiskSampler(threading.Thread):
    """Polls the build's temporary files beside `output` and everything in `tmpdir`, keeping the peaks."""

    def __init__(self, output, tmpdir):
        super().__init__(daemon=True)
        self.folder, self.prefix, self.tmpdir = os.path.dirname(output), "." + os.path.basename(output), tmpdir
        self.peak_beside = self.peak_tmpdir = 0
        self.done = threading.Event()

    def beside(self):
        try:
            return sum(tree_size(e.path) for e in os.scandir(self.folder) if e.name.startswith(self.prefix))
        except OSError:
            return 0

    def run(self):
        while not self.done.wait(0.2):
            self.peak_beside = max(self.peak_beside, self.beside())
            self.peak_tmpdir = max(self.peak_tmpdir, tree_size(self.tmpdir))

    def stop(self):
        self.done.set()
        self.join()
        self.left_beside = self.beside()
        self.left_tmpdir = tree_size(self.tmpdir)


class Build:
    """One photobook build, timed as in `make bench`, with its disk sampled."""

    def __init__(self, folder, count, output, in_memory=False, name=None, may_fail=False):
        tmpdir = tempfile.mkdtemp(prefix="bench-memory-tmpdir-", dir=bench_config.WORK)
        # SOURCE_DATE_EPOCH: the book from page files and the one from memory must then be the same bytes.
        argv = ["env", f"TMPDIR={tmpdir}", "SOURCE_DATE_EPOCH=1700000000"] + (["PHOTOBOOK_TEST_IMAGES_IN_MEMORY=1"] if in_memory else []) + [
            bench_config.HARNESS if in_memory else bench_config.PHOTOBOOK, "build", bench_config.rel(folder), "-o", bench_config.rel(output), "--no-cache", "--margin", "0", "--quiet",
            # The 800 are copies of the 96: without this photobook would place each once (issue 21, duplicates).
            "--keep-duplicates"]
        self.command = " ".join(argv)
        sampler = DiskSampler(output, tmpdir)
        sampler.start()
        run = bench_config.Run(argv, output, check=not may_fail)
        sampler.stop()
        shutil.rmtree(tmpdir, ignore_errors=True)
        self.count, self.wall, self.cpu, self.peak = count, run.wall, run.cpu, run.peak
        self.name = name or f"{count} photos" + (", from memory" if in_memory else "")
        self.failed = None
        if run.status != 0 or not os.path.exists(output):
            words = run.log.splitlines()
            self.failed = f"exit {run.status}: {words[-1][:300] if words else 'no output'}"
            bench_config.say(f"  {self.name}: FAILED ({self.failed})   (load average {os.getloadavg()[0]:.1f})")
            return
        self.size = os.path.getsize(output)
        self.disk, self.tmp = sampler.peak_beside, sampler.peak_tmpdir
        self.left = sampler.left_beside + sampler.left_tmpdir
        bench_config.say(f"  {self.row()}   (load average {os.getloadavg()[0]:.1f})")

    def row(self):
        if self.failed:
            return f"{self.name:<22} FAILED ({self.failed})"
        return (f"{self.name:<22} peak {self.peak / 1e6:6.0f} MB   {self.count / self.wall:5.1f} photos/s "
                f"({self.wall:5.0f} s wall, {self.cpu:5.0f} s CPU)   book {self.size / 1e6:6.0f} MB   "
                f"disk beside the output: peak {self.disk / 1e6:6.0f} MB, left {self.left / 1e6:.0f} MB   "
                f"TMPDIR peak {self.tmp / 1e6:.0f} MB")


def large_photo_set(count):
    """`count` photos, each its own file: copies of the corpus in turn (not hard links: one file is one photo)."""
    sources = sorted(n for n in os.listdir(bench_config.CORPUS) if n.startswith("IMG_"))
    folder = os.path.join(bench_config.WORK, f"photos-{count}")
    names = [f"P{i:04d}_{sources[i % len(sources)]}" for i in range(count)]
    if sorted(os.listdir(folder) if os.path.isdir(folder) else []) != names:
        bench_config.say(f"making {bench_config.rel(folder)}: {count} copies of the corpus photos")
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        for i, name in enumerate(names):
            shutil.copyfile(os.path.join(bench_config.CORPUS, sources[i % len(sources)]), os.path.join(folder, name))
    return folder


def contents(path):
    with open(path, "rb") as f:
        return f.read()


def dry_run(folder, count, build):
    """Times `--dry-run` (headers and the plan, no pixels) on the photos of `build`: issue 12 asks that it plans
    500 twelve-megapixel photos in a small fraction of the build's time."""
    argv = [bench_config.PHOTOBOOK, "build", bench_config.rel(folder), "--margin", "0", "--dry-run", "--keep-duplicates"]
    started = time.monotonic()
    result = subprocess.run(argv, cwd=bench_config.ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    wall = time.monotonic() - started
    if result.returncode != 0:
        sys.exit(f"bench: the dry run exited {result.returncode}:\n{result.stderr.decode('utf-8', 'replace')[-2000:]}")
    return (f"  dry run of the {count} photos: {wall:.2f} s, {100 * wall / build.wall:.1f}% of their build's "
            f"{build.wall:.1f} s"), " ".join(argv)


def verdict(met):
    return "met" if met else "NOT MET"


# What one decoded 12-MP HEIC holds, in bytes a pixel: the RGB photobook works from (3), and the planes libheif
# and libde265 hold while they make it: the YCbCr 4:2:0 image libheif copies the decoded picture into (1.5) and
# libde265's own decoded picture (1.5), both alive while the colour conversion writes the RGB. Not counted:
# libde265's per-picture metadata (a few MB) and the compressed file, read whole (about 2 MB).
HEIC_RGB_BYTES = 3
HEIC_PLANE_BYTES = 1.5 + 1.5


def heic_report():
    """Books of the bench's HEIC sets (whole pictures, then grids) against one of the 24 JPEGs they were made from:
    returns the Builds, the JPEG one first (the HEIC ones may have failed), or [] when there are no HEICs."""
    sets = [(photos, label, slug) for photos, label, slug in
            [(bench_photos.ensure_heic(), "HEICs", "memory-heic"), (bench_photos.ensure_heic_grid(), "grid HEICs", "memory-heic-grid")]
            if photos]
    if not sets:
        bench_config.say("  no HEIC book (no HEICs: heif-enc missing)")
        return []
    sources = bench_photos.heic_sources()
    jpeg_folder, _ = bench_photos.linked_set(f"photos-heic-sources-{len(sources)}", [p[0] for p in sources])
    for (folder, names), _, _ in sets:
        bench_photos.warm(folder, names)
    jpeg = Build(jpeg_folder, len(sources), os.path.join(bench_config.WORK, "memory-heic-sources.pdf"),
                 name=f"{len(sources)} JPEGs (HEICs' own)")
    builds = [jpeg]
    for (folder, names), label, slug in sets:
        heic = Build(folder, len(names), os.path.join(bench_config.WORK, slug + ".pdf"), name=f"{len(names)} {label}",
                     may_fail=True)
        heic.pixels = max(p[1] * p[2] for p in sources)
        builds.append(heic)
    return builds


def heic_verdict(jpeg, heic):
    """The issue's memory figure for one HEIC book: a book of 12-MP HEICs peaks no higher than one of 12-MP JPEGs
    plus one decoded HEIC per worker."""
    jobs = bench_config.CORES  # photobook's default --jobs, and Build passes none
    if heic.failed:
        bench_config.say(f"  {heic.name}: peak against the JPEG book's plus one decoded 12-MP HEIC per worker: not measured"
                         f" (the book failed: {heic.failed})")
        return
    growth = heic.peak - jpeg.peak
    strict = heic.pixels * HEIC_RGB_BYTES * jobs
    planes = heic.pixels * (HEIC_RGB_BYTES + HEIC_PLANE_BYTES) * jobs
    bench_config.say(f"  {heic.name}: peak {heic.peak / 1e6:.0f} MB, {growth / 1e6:+.0f} MB on the JPEG book's {jpeg.peak / 1e6:.0f} MB;"
                     f" budget, the JPEG book's and one decoded {heic.pixels / 1e6:.0f}-MP HEIC's RGB per worker:"
                     f" {jpeg.peak / 1e6:.0f} + {heic.pixels / 1e6:.0f}e6 * {HEIC_RGB_BYTES} B * {jobs} workers ="
                     f" {(jpeg.peak + strict) / 1e6:.0f} MB, {verdict(growth <= strict)}; with libheif's YCbCr 4:2:0 copy and"
                     f" libde265's picture (+{HEIC_PLANE_BYTES:g} B a pixel) {(jpeg.peak + planes) / 1e6:.0f} MB,"
                     f" {verdict(growth <= planes)}")


def big_report():
    """A book of 24 big modern pictures (20-megapixel 10-bit AVIFs) against the 200 MB budget (issue 34): the
    Build, or None when there are none (avifenc missing)."""
    return big_build(bench_photos.ensure_big_avif(), "memory-avif20.pdf", "22-MP 10-bit AVIFs")


def big_raw_report():
    """A book of 24 22-megapixel camera raws (Bench/raw_dng.py's DNGs: half decoded by LibRaw at full size, half
    from their whole-picture previews) against the same 200 MB budget (issue 34); None when numpy is missing."""
    return big_build(bench_photos.ensure_raw(), "memory-dng22.pdf", "22-MP camera raws")


def mixed_report():
    """The real mixed folder of phones, cameras and scans (Bench/bench_mixed.py) against the same budget."""
    import bench_mixed
    return big_build(bench_mixed.ensure_mixed(), "memory-mixed.pdf", "photos of phones, cameras and scans")


def big_build(made, output, what):
    if not made:
        return None
    folder, names = made
    bench_photos.warm(folder, names)
    return Build(folder, len(names), os.path.join(bench_config.WORK, output), name=f"{len(names)} {what}",
                 may_fail=True)


def big_verdict(build):
    if build.failed:
        bench_config.say(f"  {build.name}: peak under {PEAK_LIMIT / 1e6:.0f} MB: not measured ({build.failed})")
        return
    bench_config.say(f"  {build.name}: peak under {PEAK_LIMIT / 1e6:.0f} MB: {build.peak / 1e6:.0f} MB, "
                     f"{verdict(build.peak < PEAK_LIMIT)} (whole-image decodes within photobook's memory budget, "
                     f"not one per worker)")


def heic_only():
    """The HEIC book against the JPEG book alone (bench.py's BENCH_ONLY=formats)."""
    bench_config.say("\nMemory of a book of HEICs against one of the same photos as JPEGs: A4, --margin 0, one photo per page")
    builds = heic_report()
    if builds:
        bench_config.say("\nResults (peak = largest resident set of the photobook process):\n")
        for build in builds:
            bench_config.say("    " + build.row())
        bench_config.say("")
        for heic in builds[1:]:
            heic_verdict(builds[0], heic)
        bench_config.say("\nCommands (from the repository root):")
        for build in builds:
            bench_config.say(f"  {build.name}: {build.command}")


def report():
    bench_config.say(f"\nMemory at any book size (issue 14): A4, --margin 0, one photo per page")
    small_folder, _ = bench_photos.photo_set(24)
    small_out = os.path.join(bench_config.WORK, "memory-24.pdf")
    memory_out = os.path.join(bench_config.WORK, "memory-24-from-memory.pdf")
    small = Build(small_folder, 24, small_out)
    from_memory = Build(small_folder, 24, memory_out, in_memory=True)
    same = contents(small_out) == contents(memory_out)

    large_folder = large_photo_set(LARGE)
    large_out = os.path.join(bench_config.WORK, f"memory-{LARGE}.pdf")
    large = Build(large_folder, LARGE, large_out)
    os.remove(large_out)
    dry_row, dry_command = dry_run(large_folder, LARGE, large)
    heic_builds = heic_report()
    bigs = [b for b in (big_report(), big_raw_report(), mixed_report()) if b]
    builds = [small, from_memory, large] + heic_builds + bigs
    if LARGE_IN_MEMORY:
        builds.append(Build(large_folder, LARGE, large_out, in_memory=True))
        os.remove(large_out)

    bench_config.say("\nResults (peak = largest resident set of the photobook process; disk sampled every 0.2 s):\n")
    for build in builds:
        bench_config.say("    " + build.row())
    growth = large.peak - small.peak
    bench_config.say(f"\n  {LARGE}-photo peak under {PEAK_LIMIT / 1e6:.0f} MB: {large.peak / 1e6:.0f} MB, {verdict(large.peak < PEAK_LIMIT)}")
    bench_config.say(f"  {LARGE} against 24 photos, within {GROWTH_LIMIT / 1e6:.0f} MB: {growth / 1e6:+.0f} MB, "
                     f"{verdict(growth <= GROWTH_LIMIT)}")
    rate_small, rate_large = small.count / small.wall, large.count / large.wall
    bench_config.say(f"  photos/s does not drop: {rate_small:.1f} at 24, {rate_large:.1f} at {LARGE}, "
                     f"{verdict(rate_large >= 0.9 * rate_small)} (10% allowed for a shared machine's noise); CPU per photo "
                     f"{1000 * small.cpu / small.count:.0f} ms at 24, {1000 * large.cpu / large.count:.0f} ms at {LARGE} "
                     f"(wall time also counts other work on the machine, and the probe and the save, which run on one core)")
    bench_config.say(dry_row)
    bench_config.say(f"  the 24-photo book from page files is byte for byte the one from memory (SOURCE_DATE_EPOCH set): "
                     f"{'yes' if same else 'NO'}; memory saved at 24 photos: {(from_memory.peak - small.peak) / 1e6:.0f} MB")
    for heic in heic_builds[1:]:
        heic_verdict(heic_builds[0], heic)
    for big in bigs:
        big_verdict(big)
    done = [b for b in builds if not b.failed]
    bench_config.say(f"  TMPDIR used: {max(b.tmp for b in done) / 1e6:.0f} MB at most; left behind anywhere: "
                     f"{sum(b.left for b in done) / 1e6:.0f} MB")
    bench_config.say("\nCommands (from the repository root):")
    for build in builds:
        bench_config.say(f"  {build.name}: {build.command}")
    bench_config.say(f"  dry run: {dry_command}")


def main():
    os.makedirs(bench_config.WORK, exist_ok=True)
    bench_config.say(f"machine: {bench_config.machine()}")
    bench_config.build_product("photobook")
    bench_config.build_product("photobook-harness")
    bench_photos.ensure_corpus()
    report()


if __name__ == "__main__":
    main()
