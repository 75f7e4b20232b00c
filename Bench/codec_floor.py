"""The codec floor of a photobook build: what libjpeg-turbo's own tools and zlib spend on the same photos.

For every photo of a build (read from its --report), the bench times the codec work that no way of making that
page can do without, with the tools of the library photobook links (libjpeg-turbo), one process each:
  - a JPEG that photobook decodes: `djpeg -scale M/8 -crop` of a region of the same size at the same DCT scale
    (the smallest eighth that covers the page's pixels), then `cjpeg -quality Q` of an image of the page's size
    (`-sample 1x1` from quality 90 up: photobook keeps full-resolution chroma there);
  - a lossless crop: `djpeg -scale 1/8`, the entropy decoding of every block that any crop must do (the blocks'
    new entropy coding is left out, so this one is a true lower bound);
  - a photo passed through: `djpeg -scale 1/8` (photobook checks every block of it once);
  - a PNG: zlib's inflate of its IDAT chunks, in this process (no unfiltering: a lower bound), then `cjpeg`.
No resampling, no turning upright, no PDF; files come from the page cache; each process's CPU (user + sys, from
wait4) less the CPU of starting one (`cjpeg -version`, median of 5). The sum is the CPU of the codec work alone,
and `photos / (floor CPU / cores)` the most photos/s the cores could give doing nothing else.
For HEIC (heif_floor, below): libheif's heif-convert decoding each photo to Y4M on /dev/null, the same way.
Standard library only.
"""

import json
import math
import os
import shutil
import subprocess
import struct
import tempfile
import resource
import statistics
import time
import zlib

TOOLS = ("djpeg", "cjpeg", "jpegtran")


def available():
    return all(shutil.which(t) for t in TOOLS)


def _cpu(argv, stdout=subprocess.DEVNULL):
    child = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=stdout, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)}: exit {child.returncode}: {child.stderr.read().decode(errors='replace')}")
    return usage.ru_utime + usage.ru_stime


def _startup():
    """CPU of starting one of the tools and doing nothing: subtracted from every timed process."""
    return statistics.median(_cpu(["cjpeg", "-version"], stdout=subprocess.DEVNULL) for _ in range(5))


def _inflate_cpu(path):
    """CPU of inflating a PNG's image data with zlib, in this process."""
    with open(path, "rb") as f:
        data = f.read()
    chunks, i = [], 8
    while i + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[i:i + 8])
        if kind == b"IDAT":
            chunks.append(data[i + 8:i + 8 + length])
        i += 12 + length
    stream = b"".join(chunks)
    before = resource.getrusage(resource.RUSAGE_SELF)
    zlib.decompress(stream)
    after = resource.getrusage(resource.RUSAGE_SELF)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _jpeg_size(path):
    """Stored width and height from the SOF marker."""
    with open(path, "rb") as f:
        data = f.read(1 << 20)
    i = 2
    while i + 9 < len(data):
        if data[i] != 0xFF:
            i += 1
            continue
        marker = data[i + 1]
        length = struct.unpack(">H", data[i + 2:i + 4])[0]
        if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF):
            height, width = struct.unpack(">HH", data[i + 5:i + 9])
            return width, height
        i += 2 + length
    raise RuntimeError(f"{path}: no SOF marker in the first megabyte")


def _stored_region(photo, width, height):
    """The crop as a stored-pixel rectangle: the report gives it upright; a crop that does not fit the stored
    image as it stands is taken as turned a quarter (the bench corpus turns with EXIF 6 and 8)."""
    crop = photo["crop"]
    w, h = crop["width"], crop["height"]
    if w > width + 0.5 or h > height + 0.5:
        w, h = h, w
    return min(width, math.ceil(w)), min(height, math.ceil(h))


def _page_ppm(folder, width, height, cache):
    """A PPM of the page's pixel size, tiled from one of the bench's photos, so that cjpeg codes photo-like
    content (a flat or synthetic image would be cheaper to encode)."""
    key = (width, height)
    if key not in cache:
        sw, sh, pixels = cache["source"]
        rows = []
        for y in range(height):
            sy = y % sh
            row = pixels[sy * sw * 3:(sy + 1) * sw * 3]
            rows.append((row * (width // sw + 1))[:width * 3])
        path = os.path.join(folder, f"page-{width}x{height}.ppm")
        with open(path, "wb") as f:
            f.write(b"P6\n%d %d\n255\n" % (width, height))
            f.write(b"".join(rows))
        cache[key] = path
    return cache[key]


def _read_ppm(path):
    with open(path, "rb") as f:
        data = f.read()
    parts = data.split(maxsplit=4)
    return int(parts[1]), int(parts[2]), parts[4]


def floor(report_path, root, quality=90):
    """CPU seconds of the codec work of the build that wrote `report_path`, and how many photos it counted."""
    with open(report_path) as f:
        report = json.load(f)
    photos = [p for p in report["photos"] if p.get("outcome") == "succeeded"]
    startup = _startup()
    total = 0.0
    # photobook keeps chroma at full resolution from quality 90 up (JPEGEncoder), cjpeg halves it unless told.
    sampling = ["-sample", "1x1"] if quality >= 90 else []

    def tool(argv):
        return max(0.0, _cpu(argv) - startup)

    with tempfile.TemporaryDirectory(prefix="photobook-floor-") as folder:
        cache = {}
        first_jpeg = next((p for p in photos if not p["path"].lower().endswith(".png")), None)
        if first_jpeg:
            sample = os.path.join(folder, "sample.ppm")
            with open(sample, "wb") as out:
                _cpu(["djpeg", os.path.join(root, first_jpeg["path"])], stdout=out)
            cache["source"] = _read_ppm(sample)
        for photo in photos:
            path = os.path.join(root, photo["path"])
            pw, ph = photo["pixelWidth"], photo["pixelHeight"]
            if path.lower().endswith(".png"):
                total += _inflate_cpu(path) + tool(["cjpeg", "-quality", str(quality)] + sampling + [_page_ppm(folder, pw, ph, cache)])
                continue
            if photo.get("passThrough") or photo.get("losslessCrop"):
                total += tool(["djpeg", "-scale", "1/8", path])
                continue
            width, height = _jpeg_size(path)
            w, h = _stored_region(photo, width, height)
            # The smallest eighth that gives at least the page's pixels across the crop (photobook's choice).
            long_page, long_crop = max(pw, ph), max(photo["crop"]["width"], photo["crop"]["height"])
            eighths = min(8, max(1, math.ceil(8 * long_page / long_crop - 1e-9)))
            sw, sh = math.ceil(width * eighths / 8), math.ceil(height * eighths / 8)
            cw, ch = min(sw, math.ceil(w * eighths / 8)), min(sh, math.ceil(h * eighths / 8))
            total += tool(["djpeg", "-scale", f"{eighths}/8", "-crop", f"{cw}x{ch}+{(sw - cw) // 2}+{(sh - ch) // 2}", path])
            total += tool(["cjpeg", "-quality", str(quality)] + sampling + [_page_ppm(folder, pw, ph, cache)])
    return total, len(photos)


# The HEIC decode floor: libheif's own command-line decoder (heif-convert, the libheif and libde265 that photobook
# and libvips link) on each photo, one process each, as above less the CPU of starting it. Its output is Y4M
# written to /dev/null through a symbolic link named *.y4m (heif-convert picks its writer by the suffix): Y4M is
# the decoded YCbCr 4:2:0 planes as libheif hands them over (no conversion to RGB, no compression), so the figure
# is the HEVC decode and libheif's copy of its planes, with no output encode in it; heif_output_costs() measures
# what a Y4M file on disk and a JPEG (heif-convert's other writers) would have added, on one photo.

def heif_available():
    return shutil.which("heif-convert") is not None


def _heif_startup():
    return statistics.median(_cpu(["heif-convert", "--list-decoders"]) for _ in range(5))


def heif_floor(paths):
    """Per-photo CPU seconds (user + sys, less start-up) and wall seconds of `heif-convert PHOTO /dev/null.y4m`."""
    startup = _heif_startup()
    cpus, walls = [], []
    with tempfile.TemporaryDirectory(prefix="photobook-floor-") as folder:
        sink = os.path.join(folder, "decoded.y4m")
        os.symlink(os.devnull, sink)
        for path in paths:
            started = time.monotonic()
            cpu = _cpu(["heif-convert", "--quiet", path, sink])
            walls.append(time.monotonic() - started)
            cpus.append(max(0.0, cpu - startup))
    return cpus, walls, startup


def heif_output_costs(path, repeats=3):
    """CPU seconds heif-convert spends on one photo with each output: Y4M to /dev/null (the floor), Y4M to a file,
    JPEG (quality 90): the difference from the first is what writing or encoding the output costs."""
    with tempfile.TemporaryDirectory(prefix="photobook-floor-") as folder:
        sink = os.path.join(folder, "null.y4m")
        os.symlink(os.devnull, sink)
        outputs = {"y4m to /dev/null": ([], sink), "y4m file": ([], os.path.join(folder, "out.y4m")),
                   "jpeg q90": (["-q", "90"], os.path.join(folder, "out.jpg"))}
        runs = {name: [] for name in outputs}
        for _ in range(repeats):  # interleaved, the median of each: the machine may be shared
            for name, (options, out) in outputs.items():
                runs[name].append(_cpu(["heif-convert", "--quiet"] + options + [path, out]))
        written = os.path.getsize(os.path.join(folder, "out.y4m"))
    return {name: statistics.median(cpus) for name, cpus in runs.items()}, written
