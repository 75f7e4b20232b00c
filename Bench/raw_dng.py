#!/usr/bin/env python3
"""Writes a camera-like DNG from an upright photo, for `make bench`'s raw case (issue 34): no public set of two
dozen 20-megapixel raws may be copied here, so the benchmark makes its own from the corpus.

    raw_dng.py PHOTO OUT.dng [--long 5472] [--preview full|small|WIDTH]

The photo is scaled (ImageMagick) to `--long` pixels on its long side, made linear (sRGB's curve undone), divided by
a daylight white balance, and sampled through an RGGB Bayer filter into 14-bit values, the sensor data of
SubIFD 0 (uncompressed, 16 bits a sample, as a camera's lossless data is once unpacked). IFD 0 carries the camera's
JPEG preview as cameras do: the whole picture (`full`, as Canon and Nikon write) or 1616 pixels wide (`small`, as
Sony's ARW does), so that both of photobook's ways to a raw's pixels are timed (the preview when it has the pixels
a page needs, LibRaw's half-size decode when not). The DNG tags are those LibRaw needs to render it as the camera
would: the CFA pattern, black and white levels, ColorMatrix1 (sRGB's XYZ matrix, so that the camera is an sRGB
one) and AsShotNeutral (the white balance). Needs numpy (python3-numpy) and ImageMagick's convert.
"""

import argparse
import os
import struct
import subprocess
import sys
import tempfile

import numpy

# XYZ (D65) to linear sRGB's inverse: the ColorMatrix1 of a camera whose raw RGB is linear sRGB.
XYZ_TO_SRGB = [[3.2406, -1.5372, -0.4986], [-0.9689, 1.8758, 0.0415], [0.0557, -0.2040, 1.0570]]
# A daylight white balance as a camera would see it (green 1): the raw is divided by it, LibRaw multiplies back.
NEUTRAL = (0.48, 1.0, 0.62)
BLACK, WHITE = 512, 16383

TYPES = {"BYTE": 1, "ASCII": 2, "SHORT": 3, "LONG": 4, "RATIONAL": 5, "SRATIONAL": 10}


def read_rgb16(photo, long_side):
    """The photo scaled to `long_side` on its long side, as 16-bit RGB (height, width, 3)."""
    out = subprocess.run(["convert", photo, "-auto-orient", "-resize", f"{long_side}x{long_side}", "-depth", "16",
                          "ppm:-"], check=True, capture_output=True).stdout
    # P6\nW H\nMAX\n then big-endian 16-bit samples.
    parts = out.split(b"\n", 3)
    width, height = (int(v) for v in parts[1].split())
    data = numpy.frombuffer(parts[3][: width * height * 6], dtype=">u2").reshape(height, width, 3)
    return data


def mosaic(rgb):
    """Linear light, white-balanced, through an RGGB filter, into 14 bits with the black level."""
    v = rgb.astype(numpy.float32) / 65535.0
    linear = numpy.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)
    height, width = (linear.shape[0] // 2) * 2, (linear.shape[1] // 2) * 2
    linear = linear[:height, :width]
    cfa = numpy.empty((height, width), dtype=numpy.float32)
    cfa[0::2, 0::2] = linear[0::2, 0::2, 0] * NEUTRAL[0]
    cfa[0::2, 1::2] = linear[0::2, 1::2, 1] * NEUTRAL[1]
    cfa[1::2, 0::2] = linear[1::2, 0::2, 1] * NEUTRAL[1]
    cfa[1::2, 1::2] = linear[1::2, 1::2, 2] * NEUTRAL[2]
    return (BLACK + numpy.clip(cfa, 0, 1) * (WHITE - BLACK)).astype("<u2")


def jpeg_preview(photo, width):
    """The photo as the camera's JPEG preview, `width` pixels wide (0: as `read_rgb16` scales it)."""
    with tempfile.NamedTemporaryFile(suffix=".jpg") as f:
        subprocess.run(["convert", photo, "-auto-orient", "-resize", f"{width}x{width}", "-strip", "-quality", "90",
                        "-sampling-factor", "2x1", f.name], check=True)
        return open(f.name, "rb").read()


class IFD:
    """One TIFF directory: tags (id, type, values), written with their data after it."""

    def __init__(self):
        self.tags = {}

    def add(self, tag, kind, values):
        self.tags[tag] = (kind, values if isinstance(values, (list, tuple, bytes, str)) else [values])

    def size(self):
        return 2 + 12 * len(self.tags) + 4

    def write(self, out, offset, next_ifd, patch):
        """Bytes of the directory at `offset` and its out-of-line values after it; `patch` gives late values."""
        entries, extra = [], b""
        data_at = offset + self.size()
        for tag in sorted(self.tags):
            kind, values = self.tags[tag]
            values = patch.get(tag, values)
            raw = encode(kind, values)
            count = len(values) if kind != "ASCII" else len(raw)
            if len(raw) <= 4:
                field = raw.ljust(4, b"\0")
            else:
                if (data_at + len(extra)) % 2:
                    extra += b"\0"
                field = struct.pack("<I", data_at + len(extra))
                extra += raw
            entries.append(struct.pack("<HHI", tag, TYPES[kind], count) + field)
        return struct.pack("<H", len(entries)) + b"".join(entries) + struct.pack("<I", next_ifd) + extra


def encode(kind, values):
    if kind == "ASCII":
        return (values if isinstance(values, bytes) else values.encode()) + b"\0"
    if kind == "BYTE":
        return bytes(values)
    if kind == "SHORT":
        return struct.pack(f"<{len(values)}H", *values)
    if kind == "LONG":
        return struct.pack(f"<{len(values)}I", *values)
    if kind in ("RATIONAL", "SRATIONAL"):
        code = "I" if kind == "RATIONAL" else "i"
        return b"".join(struct.pack(f"<{code}{code}", round(v * 10000), 10000) for v in values)
    raise ValueError(kind)


def write_dng(photo, out, long_side, preview):
    rgb = read_rgb16(photo, long_side)
    cfa = mosaic(rgb)
    height, width = cfa.shape
    jpeg = jpeg_preview(photo, width if preview == "full" else 1616 if preview == "small" else int(preview))
    ifd0, raw = IFD(), IFD()
    ifd0.add(254, "LONG", 1)  # NewSubfileType: a reduced picture (the preview)
    pw, ph = preview_size(jpeg)
    ifd0.add(256, "LONG", pw)
    ifd0.add(257, "LONG", ph)
    ifd0.add(258, "SHORT", [8, 8, 8])
    ifd0.add(259, "SHORT", 7)  # JPEG
    ifd0.add(262, "SHORT", 6)  # YCbCr
    ifd0.add(271, "ASCII", "photobook")
    ifd0.add(272, "ASCII", "bench camera")
    ifd0.add(273, "LONG", 0)  # StripOffsets, patched
    ifd0.add(274, "SHORT", 1)
    ifd0.add(277, "SHORT", 3)
    ifd0.add(278, "LONG", ph)
    ifd0.add(279, "LONG", len(jpeg))
    ifd0.add(330, "LONG", 0)  # SubIFDs, patched
    ifd0.add(50706, "BYTE", [1, 4, 0, 0])  # DNGVersion
    ifd0.add(50707, "BYTE", [1, 1, 0, 0])
    ifd0.add(50708, "ASCII", "photobook bench camera")
    ifd0.add(50721, "SRATIONAL", [c for row in XYZ_TO_SRGB for c in row])  # ColorMatrix1
    ifd0.add(50728, "RATIONAL", list(NEUTRAL))  # AsShotNeutral
    ifd0.add(50778, "SHORT", 21)  # CalibrationIlluminant1: D65
    raw.add(254, "LONG", 0)
    raw.add(256, "LONG", width)
    raw.add(257, "LONG", height)
    raw.add(258, "SHORT", 16)
    raw.add(259, "SHORT", 1)
    raw.add(262, "SHORT", 32803)  # CFA
    raw.add(273, "LONG", 0)  # patched
    raw.add(277, "SHORT", 1)
    raw.add(278, "LONG", height)
    raw.add(279, "LONG", width * height * 2)
    raw.add(284, "SHORT", 1)
    raw.add(33421, "SHORT", [2, 2])  # CFARepeatPatternDim
    raw.add(33422, "BYTE", [0, 1, 1, 2])  # CFAPattern: RGGB
    raw.add(50717, "LONG", WHITE)  # WhiteLevel
    raw.add(50714, "LONG", BLACK)  # BlackLevel
    # Layout: header, IFD 0 and its values, the raw IFD and its values, the preview, the sensor data.
    ifd0_at = 8
    ifd0_len = len(ifd0.write(None, ifd0_at, 0, {}))
    raw_at = ifd0_at + ifd0_len + (ifd0_len % 2)
    raw_len = len(raw.write(None, raw_at, 0, {}))
    jpeg_at = raw_at + raw_len + (raw_len % 2)
    data_at = jpeg_at + len(jpeg) + (len(jpeg) % 2)
    with open(out, "wb") as f:
        f.write(b"II*\0" + struct.pack("<I", ifd0_at))
        f.write(ifd0.write(None, ifd0_at, 0, {273: [jpeg_at], 330: [raw_at]}))
        f.write(b"\0" * (raw_at - f.tell()))
        f.write(raw.write(None, raw_at, 0, {273: [data_at]}))
        f.write(b"\0" * (jpeg_at - f.tell()))
        f.write(jpeg)
        f.write(b"\0" * (data_at - f.tell()))
        f.write(cfa.tobytes())


def preview_size(jpeg):
    """Width and height from a JPEG's SOF marker."""
    i = 2
    while i < len(jpeg):
        marker, length = jpeg[i + 1], struct.unpack(">H", jpeg[i + 2:i + 4])[0]
        if marker in (0xC0, 0xC1, 0xC2):
            height, width = struct.unpack(">HH", jpeg[i + 5:i + 9])
            return width, height
        i += 2 + length
    raise ValueError("no SOF in the preview")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("photo")
    parser.add_argument("out")
    parser.add_argument("--long", type=int, default=5472)
    parser.add_argument("--preview", default="full", help="full, small (1616 pixels wide) or a width in pixels")
    args = parser.parse_args()
    write_dng(args.photo, args.out, args.long, args.preview)


if __name__ == "__main__":
    sys.exit(main())
