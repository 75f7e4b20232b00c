"""The real mixed folder of issue 34's memory budget: phones, cameras and scans in one book (make bench-memory).
Part of Bench/bench.py."""

import os
import shutil

import bench_photos
from bench_config import CORPUS, HEIC_ENCODE, HEIC_GRID_TILE, WORK, say, version

# Bump the versions whenever a recipe changes.
MIXED_HEIC_SET = os.path.join(WORK, "heic-grid-mixed-v1")
SCAN_SET = os.path.join(WORK, "scan600-v1")
# A4 at 600 dpi, as a flatbed scanner writes a print or a page of an album.
SCAN_SIZE = "4960x7016"


def _scans(photos):
    """Two A4 scans at 600 dpi (35 megapixels, 8-bit RGB, LZW TIFF) of corpus photos, made once."""
    def encode(source, out):
        bench_photos._quiet(["convert", source, "-resize", SCAN_SIZE, "-units", "PixelsPerInch", "-density", "600",
                             "-compress", "lzw", out])
    return bench_photos.derived_set(SCAN_SET, photos, ".tif", encode,
                                    f"ImageMagick -resize {SCAN_SIZE} -density 600 -compress lzw of upright corpus JPEGs",
                                    kind="scan600")


def _phone_heics(photos):
    """Six phone-like HEICs (grids of HEVC tiles, as iPhones write them), made once."""
    if not shutil.which("heif-enc"):
        return None
    import heic_grid
    return bench_photos.derived_set(MIXED_HEIC_SET, photos, ".heic",
                                    lambda source, out: heic_grid.make(source, out, HEIC_GRID_TILE, HEIC_ENCODE),
                                    f"Bench/heic_grid.py --tile {HEIC_GRID_TILE} ({version(['heif-enc'], 'libheif')})"
                                    f" of upright corpus JPEGs", kind="heic-grid-mixed")


def ensure_mixed():
    """One folder as people bring it: 8 phone JPEGs and the corpus's 4 PNG screenshots, 6 phone HEICs (grids),
    4 22-megapixel 10-bit AVIFs, 4 22-megapixel raws (2 rendered by LibRaw at full size, 2 from their previews),
    2 JPEG XLs and 2 A4 scans at 600 dpi: 30 photos, hard links named by their set. (folder, names), or None
    when a set cannot be made (said why)."""
    manifest = bench_photos.corpus_manifest()
    jpegs = [p for p in manifest if p[0].endswith(".jpg")]
    pngs = [p for p in manifest if p[0].endswith(".png")]
    sets = [("phone", (CORPUS, [p[0] for p in jpegs[30:38]])), ("screenshot", (CORPUS, [p[0] for p in pngs[:4]]))]
    # The AVIFs, raws and JPEG XLs are made from the same 24 photos: different ones of each, so that no two are
    # one shot in two formats (which a book places once).
    made = [("heic", _phone_heics(jpegs[40:46]), slice(0, 6)), ("avif", bench_photos.ensure_big_avif(), slice(4, 8)),
            ("raw", bench_photos.ensure_raw(), slice(8, 12)), ("jxl", bench_photos.ensure_jxl(), slice(12, 14)),
            ("scan", _scans(jpegs[50:52]), slice(0, 2))]
    for kind, found, part in made:
        if not found:
            say(f"no mixed folder: its {kind} photos could not be made")
            return None
        sets.append((kind, (found[0], found[1][part])))
    folder = os.path.join(WORK, "photos-mixed-30")
    wanted = {f"{kind}-{name}": os.path.join(source, name) for kind, (source, names) in sets for name in names}
    if sorted(os.listdir(folder) if os.path.isdir(folder) else []) != sorted(wanted):
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        for name, source in wanted.items():
            os.link(os.path.realpath(source), os.path.join(folder, name))
    bench_photos.warm(folder, sorted(wanted))
    return folder, sorted(wanted)
