"""The photo sets of `make bench`, made once in .bench/: the corpus, the folders of hard links the cases are given,
and the sets made from the corpus (HEIC, grid HEIC, WebP, EXIF thumbnails). Part of Bench/bench.py."""

import concurrent.futures
import os
import shutil
import statistics
import subprocess
import sys
import time

from bench_config import (BIG_AVIF_SET, JXL_SET, RAW_SET, CORPUS, CORPUS_SEED, CORPUS_TOOL, HEIC_COUNT, HEIC_ENCODE, HEIC_GRID_SET, HEIC_GRID_TILE,
                          HEIC_SET, JOBS, ROOT, WEBP_COUNT, WEBP_QUALITY, WEBP_SET, WORK, build_product, rel,
                          run_checked, say, version)


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
    return linked_set(f"photos-{count}", names)


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


def ensure_big_avif():
    """Big modern pictures (issue 34, "big pictures in little memory"): the HEICs' 24 corpus JPEGs scaled up to
    22 megapixels (5472 pixels on the long side) and coded as 10-bit AVIFs by avifenc (libavif-bin), as a new phone or
    camera writes HDR-capable AVIFs; made once in .bench/avif20-v2. heif-enc cannot: its aom asserts on 10 bits."""
    if not shutil.which("avifenc"):
        say("avifenc not found: no big-AVIF case (apt-get install libavif-bin)")
        return None

    def encode(source, out):
        scratch = out + ".png"
        # PNG48: ImageMagick writes 8 bits again for -depth 16 when the samples fit.
        # The long side to 5472: a 4:3 landscape 5472x4104 (22 MP), a portrait 4104x5472.
        _quiet(["convert", source, "-resize", "5472x5472", "-depth", "16", "PNG48:" + scratch])
        _quiet(["avifenc", "-d", "10", "-y", "420", "-s", "8", "-j", "1", "--min", "20", "--max", "30", scratch, out])
        os.remove(scratch)

    return derived_set(BIG_AVIF_SET, heic_sources(), ".avif", encode,
                       f"ImageMagick to 5472 px on the long side, avifenc -d 10 -y 420 -s 8 ({version(['avifenc', '--version'], 'libavif')}) "
                       f"of upright corpus JPEGs", kind="avif20")


def ensure_jxl():
    """The HEICs' 24 corpus JPEGs as lossy JPEG XLs (cjxl -d 1, libjxl-tools), made once in .bench/jxl-v1."""
    if not shutil.which("cjxl"):
        say("cjxl not found: no JPEG XL case (apt-get install libjxl-tools)")
        return None
    # From pixels, not a JPEG recompressed losslessly (--lossless_jpeg=0): a JPEG XL as a camera or an export writes.
    return derived_set(JXL_SET, heic_sources(), ".jxl",
                       lambda source, out: _quiet(["cjxl", "--quiet", "-d", "1", "-e", "6", "--lossless_jpeg=0",
                                                   source, out]),
                       f"cjxl -d 1 -e 6 --lossless_jpeg=0 ({version(['cjxl', '--version'], 'cjxl')}) of upright corpus JPEGs")


def ensure_raw():
    """Camera raws (issue 34): the HEICs' 24 corpus JPEGs as 22-megapixel DNGs by Bench/raw_dng.py (RGGB sensor
    data, 16 bits, uncompressed), every other one with the camera's whole picture as its JPEG preview (Canon,
    Nikon) and the rest with a 1616-pixel one (Sony): made once in .bench/dng22-v1 (about 1.1 GB)."""
    try:
        import numpy  # noqa: F401
    except ImportError:
        say("numpy not found: no camera raw case (apt-get install python3-numpy)")
        return None
    maker = os.path.join(ROOT, "Bench", "raw_dng.py")

    def encode(source, out):
        number = int("".join(c for c in os.path.basename(out) if c.isdigit()) or "0")
        _quiet([sys.executable, maker, source, out, "--preview", "full" if number % 2 == 0 else "small"])

    return derived_set(RAW_SET, heic_sources(), ".dng", encode,
                       "Bench/raw_dng.py (22 MP RGGB DNG, a whole-picture preview in every other) of upright corpus JPEGs",
                       kind="dng22")


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


def ensure_webp():
    if not shutil.which("cwebp"):
        say("cwebp not found: no WebP case (apt-get install webp)")
        return None
    # The first WEBP_COUNT corpus photos, PNGs (screenshot-like) included: the same mix as the JPEG grid case.
    return derived_set(WEBP_SET, corpus_manifest()[:WEBP_COUNT], ".webp",
                       lambda source, out: _quiet(["cwebp", "-quiet", "-q", str(WEBP_QUALITY), "-metadata", "exif",
                                                   source, "-o", out]),
                       f"cwebp -q {WEBP_QUALITY} -metadata exif of upright corpus photos")


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
