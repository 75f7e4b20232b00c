#!/usr/bin/env python3
"""A phone's kind of HEIC from a JPEG: a `grid` image of independently coded HEVC tiles (512x512 by default).

heif-enc 1.15 (Debian 12) writes every picture as one HEVC image; an iPhone (and many Android phones) writes a
`grid` item whose tiles are hidden `hvc1` items. This muxer cuts the upright source picture into tiles (the last
row and column padded by repeating the edge pixels, as phones do), has heif-enc code each tile as a HEIC of its
own (at most 2 encoders at a time, in the whole process), takes each tile file's `hvcC` and coded data, and
writes one HEIF file:

  ftyp  major heic, compatible mif1 heic
  meta  hdlr pict; pitm = the grid; iinf: the grid, the tiles (hidden), Exif; iref: dimg grid -> tiles in
        row-major order, cdsc Exif -> grid; iprp: ipco (the tiles' hvcC, one shared when they are byte for byte
        the same; an ispe of the tile size; an ispe of the picture's size) and ipma (hvcC essential); iloc,
        construction method 0: everything in mdat
  mdat  the ImageGrid (version 0, 16-bit output size unless it does not fit), each tile's data, the Exif item
        (exif_tiff_header_offset 0, then the source's EXIF with Orientation set to 1: the pixels are upright)

The pixels come from Pillow when it is installed, else from `vips` or ImageMagick's `convert`; the source is
taken as stored (turn it upright first: EXIF Orientation is not applied). Standard library otherwise; the boxes
are read and written by Bench/heif_boxes.py.

    python3 Bench/heic_grid.py [--tile 512] SOURCE.jpg OUT.heic [HEIF-ENC OPTIONS...]
    python3 Bench/heic_grid.py --check SOURCE.jpg OUT.heic   (structure, heif-info, PSNR of heif-convert's picture)

The heif-enc options default to the bench's HEIC set's: -q 55 -p preset=fast -p x265:pools=none.
"""

import concurrent.futures
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

import heif_boxes
from heif_boxes import Meta, MuxError, _ispe, grid_file, primary_hevc

# Fixtures/heif/tools/nclx_heic.py writes its boxes with heic_grid._box and heic_grid._full: still importable here.
_box, _full = heif_boxes._box, heif_boxes._full

TILE = 512
ENCODE = ["-q", "55", "-p", "preset=fast", "-p", "x265:pools=none"]
# Every tile of every picture made in this process goes through this pool: at most 2 heif-enc at once, however
# many pictures are muxed side by side (the bench makes several at a time on a machine of 2 shared cores).
ENCODERS = concurrent.futures.ThreadPoolExecutor(max_workers=2, thread_name_prefix="heif-enc")


# Reading the source picture.

def _ppm(data):
    """(width, height, RGB bytes) of a binary PPM of maxval 255; comments may sit between the header's fields."""
    fields, i = [], 0
    while len(fields) < 4:
        while data[i:i + 1].isspace():
            i += 1
        if data[i:i + 1] == b"#":
            i = data.index(b"\n", i) + 1
            continue
        start = i
        while not data[i:i + 1].isspace():
            i += 1
        fields.append(data[start:i])
    if fields[0] != b"P6" or fields[3] != b"255":
        raise MuxError(f"not an 8-bit binary PPM ({fields[0]!r}, maxval {fields[3]!r})")
    width, height = int(fields[1]), int(fields[2])
    pixels = data[i + 1:i + 1 + width * height * 3]
    if len(pixels) != width * height * 3:
        raise MuxError("truncated PPM")
    return width, height, pixels


def read_rgb(path):
    """The picture's 8-bit RGB pixels as stored (no EXIF turn): (width, height, bytes)."""
    try:
        from PIL import Image
        with Image.open(path) as image:
            rgb = image.convert("RGB")
            return rgb.width, rgb.height, rgb.tobytes()
    except ImportError:
        pass
    if shutil.which("vips"):
        with tempfile.TemporaryDirectory(prefix="heic-grid-") as folder:
            ppm = os.path.join(folder, "source.ppm")
            _run(["vips", "copy", path, ppm])
            with open(ppm, "rb") as f:
                return _ppm(f.read())
    if shutil.which("convert"):
        return _ppm(_run(["convert", path, "-strip", "ppm:-"]))
    raise MuxError("no way to read the source's pixels: install python3-pil, libvips-tools or imagemagick")


def jpeg_exif(path):
    """The TIFF structure of a JPEG's EXIF (its APP1 payload after "Exif\\0\\0"), or None."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] != b"\xff\xd8":
        return None
    i = 2
    while i + 4 <= len(data) and data[i] == 0xFF:
        marker = data[i + 1]
        if marker in (0xD9, 0xDA):  # the end, or the scan: no header segments beyond
            break
        length = struct.unpack(">H", data[i + 2:i + 4])[0]
        body = data[i + 4:i + 2 + length]
        if marker == 0xE1 and body.startswith(b"Exif\0\0"):
            return body[6:]
        i += 2 + length
    return None


def upright_exif(tiff):
    """`tiff` with IFD0's Orientation (0x0112), when it has one, set to 1."""
    tiff = bytearray(tiff)
    order = {b"II": "<", b"MM": ">"}.get(bytes(tiff[:2]))
    if order is None or len(tiff) < 8:
        raise MuxError("EXIF without a TIFF header")
    ifd = struct.unpack(order + "I", tiff[4:8])[0]
    count = struct.unpack(order + "H", tiff[ifd:ifd + 2])[0]
    for n in range(count):
        entry = ifd + 2 + 12 * n
        tag, kind = struct.unpack(order + "HH", tiff[entry:entry + 4])
        if tag == 0x0112 and kind == 3:  # SHORT, held in the entry's value field
            tiff[entry + 8:entry + 10] = struct.pack(order + "H", 1)
    return bytes(tiff)


# Cutting and coding the tiles.

def _png(width, height, rows):
    """An 8-bit RGB PNG of `rows` (bytes each), unfiltered, deflated fast: heif-enc reads it losslessly."""
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    raw = b"".join(b"\0" + row for row in rows)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 1)) + chunk(b"IEND", b""))


def tile_rows(width, height, pixels, tile, row, column):
    """The rows of tile (row, column), `tile` pixels square; past the picture's right and bottom edges its last
    column and row are repeated."""
    x0, x1 = column * tile * 3, min((column + 1) * tile, width) * 3
    pad = tile - (x1 - x0) // 3
    rows = []
    stride = width * 3
    for y in range(row * tile, (row + 1) * tile):
        start = min(y, height - 1) * stride
        rows.append(pixels[start + x0:start + x1] + pixels[start + x1 - 3:start + x1] * pad)
    return rows


def _run(argv):
    result = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if result.returncode != 0:
        words = (result.stderr or result.stdout).decode("utf-8", "replace").strip().splitlines()
        raise MuxError(f"{' '.join(argv)}: exit {result.returncode}: {words[-1] if words else ''}")
    return result.stdout


def _encode_tile(png, folder, index, options):
    """heif-enc of one tile: its hvcC box and coded data, read back from the HEIC heif-enc wrote."""
    source, coded = os.path.join(folder, f"tile{index}.png"), os.path.join(folder, f"tile{index}.heic")
    with open(source, "wb") as f:
        f.write(png)
    _run(["heif-enc"] + options + ["-o", coded, source])
    with open(coded, "rb") as f:
        data = f.read()
    os.remove(source)
    os.remove(coded)
    return primary_hevc(data)


def make(source, output, tile=TILE, options=ENCODE):
    """Writes `output`, the grid HEIC of the picture in `source` (taken as stored: upright). Returns a line that
    says what it holds."""
    width, height, pixels = read_rgb(source)
    columns, rows = -(-width // tile), -(-height // tile)
    exif = jpeg_exif(source)
    with tempfile.TemporaryDirectory(prefix="heic-grid-", dir=os.path.dirname(os.path.abspath(output))) as folder:
        jobs = [ENCODERS.submit(_encode_tile, _png(tile, tile, tile_rows(width, height, pixels, tile, r, c)),
                                folder, r * columns + c, list(options))
                for r in range(rows) for c in range(columns)]
        coded = [job.result() for job in jobs]
    for config, _, size in coded:
        if size != (tile, tile):
            raise MuxError(f"heif-enc made a {size[0]}x{size[1]} tile of a {tile}x{tile} picture")
    data = grid_file(width, height, tile, columns, [(config, data) for config, data, _ in coded],
                     upright_exif(exif) if exif else None)
    partial = output + ".partial"
    with open(partial, "wb") as f:
        f.write(data)
    os.replace(partial, output)
    shared = len({config for config, _, _ in coded})
    return (f"{output}: {width}x{height}, a {columns}x{rows} grid of {tile}x{tile} tiles, {shared} hvcC,"
            f" {'EXIF ' + str(len(exif)) + ' bytes' if exif else 'no EXIF'}, {len(data)} bytes")


def describe(path):
    """What a grid HEIC holds, read back with the muxer's own parser (heif_boxes): raises when it is not what make()
    writes."""
    with open(path, "rb") as f:
        data = f.read()
    meta = Meta(data)
    kind = meta.items[meta.primary][0]
    if kind != "grid":
        raise MuxError(f"{path}: the primary item is '{kind}', not a grid")
    grid = meta.item_data(meta.primary)
    wide = grid[1] & 1
    rows, columns = grid[2] + 1, grid[3] + 1
    width, height = struct.unpack(">II" if wide else ">HH", grid[4:12 if wide else 8])
    tiles = next((t for k, s, t in meta.references if k == "dimg" and s == meta.primary), [])
    if len(tiles) != rows * columns:
        raise MuxError(f"{path}: {len(tiles)} tiles for a {columns}x{rows} grid")
    sizes = set()
    for item in tiles:
        kind, flags = meta.items[item]
        properties = meta.item_properties(item)
        if kind != "hvc1" or not flags & 1:
            raise MuxError(f"{path}: tile {item} is '{kind}' with flags {flags} (a hidden hvc1 expected)")
        if not any(k == "hvcC" and essential for k, _, essential in properties):
            raise MuxError(f"{path}: tile {item} has no essential hvcC")
        sizes |= {_ispe(box) for k, box, _ in properties if k == "ispe"}
    if len(sizes) != 1:
        raise MuxError(f"{path}: tiles of sizes {sorted(sizes)}")
    (tw, th), = sizes
    if columns * tw < width or rows * th < height:
        raise MuxError(f"{path}: {columns}x{rows} tiles of {tw}x{th} do not cover {width}x{height}")
    exif = [s for k, s, t in meta.references if k == "cdsc" and t == [meta.primary] and meta.items[s][0] == "Exif"]
    configs = {box for t in tiles for k, box, _ in meta.item_properties(t) if k == "hvcC"}
    return (f"grid {columns}x{rows} of {tw}x{th} tiles -> {width}x{height}, {len(configs)} hvcC, "
            f"{'Exif item of ' + str(len(meta.item_data(exif[0]))) + ' bytes' if exif else 'no Exif item'}")


def psnr(source, heic):
    """PSNR in dB of heif-convert's picture of `heic` against `source` (as stored), by ImageMagick's compare."""
    with tempfile.TemporaryDirectory(prefix="heic-grid-check-") as folder:
        decoded = os.path.join(folder, "decoded.png")
        _run(["heif-convert", "--quiet", heic, decoded])
        result = subprocess.run(["compare", "-metric", "PSNR", source, decoded, os.devnull],
                                stdin=subprocess.DEVNULL, capture_output=True, text=True)
        if result.returncode not in (0, 1):  # 1: the pictures differ, as they do
            raise MuxError(f"compare: exit {result.returncode}: {result.stderr.strip()}")
        return float(result.stderr.split()[0])


def check(source, heic):
    """The checks the bench's grid set and the grid fixture were made with: a line, or MuxError."""
    summary = describe(heic)
    info = _run(["heif-info", heic]).decode("utf-8", "replace")
    if "primary" not in info:
        raise MuxError(f"heif-info finds no primary image in {heic}")
    db = psnr(source, heic)
    if db <= 35:
        raise MuxError(f"{heic}: PSNR {db:.1f} dB against {source}, at most 35")
    return f"{heic}: {summary}; heif-info reads it; heif-convert's picture {db:.2f} dB PSNR against {source}"


def main(argv):
    tile, checking = TILE, False
    while argv and argv[0].startswith("--"):
        option = argv.pop(0)
        if option == "--tile" and argv:
            tile = int(argv.pop(0))
        elif option == "--check":
            checking = True
        else:
            sys.exit(f"heic_grid: unknown option '{option}' (see the docstring)")
    if len(argv) < 2 or tile < 16 or tile % 8:
        sys.exit("usage: heic_grid.py [--tile N (a multiple of 8)] SOURCE OUT.heic [HEIF-ENC OPTIONS...]\n"
                 "       heic_grid.py --check SOURCE FILE.heic")
    try:
        print(check(argv[0], argv[1]) if checking else make(argv[0], argv[1], tile, argv[2:] or ENCODE))
    except (MuxError, OSError) as error:
        sys.exit(f"heic_grid: {error}")


if __name__ == "__main__":
    main(sys.argv[1:])
