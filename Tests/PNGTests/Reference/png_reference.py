#!/usr/bin/python3
"""Independent reference pixels for the PNG decoder tests, computed with pypng (pure Python, no libpng).

Usage: png_reference.py OUTDIR FILE.png...
For each FILE.png writes OUTDIR/FILE.rgb: width*height*3 bytes, rows top to bottom, or OUTDIR/FILE.err
with pypng's complaint when it cannot read the file.

The semantics are photobook's decoder contract, written out here from the PNG specification rather than
taken from libpng:
- every sample becomes 8 bits: 16-bit v -> round(v * 255 / 65535); 1/2/4-bit grey v -> v * 255 / (2^d - 1)
  (exact, the same as repeating the bits); palette indices -> the PLTE colour;
- tRNS is compared at the file's own bit depth, before any scaling, and makes that colour fully transparent;
  for palettes it gives each entry's alpha (missing entries are opaque);
- sBIT is ignored: it only says how many bits were significant in the source, the stored samples are
  already full-range (libpng ignores it too unless asked to png_set_shift). 50 of the 161 valid PngSuite
  files carry sBIT; pypng's asDirect() shifts their samples down (a 4-bit sBIT turns 255 into 15) and its
  asRGBA8() raises a TypeError on some of them, so this script uses read() (raw samples) and converts
  them itself;
- gAMA, cHRM, sRGB and iCCP are ignored: samples are taken as sRGB;
- the result is composited over white: out = round((c * a + 255 * (255 - a)) / 255).
"""
import os
import sys

import png


def to_8_bits(value, depth):
    if depth == 8:
        return value
    if depth == 16:
        return (value * 255 + 32767) // 65535  # 65535 is odd: never a tie, so this is round()
    return value * 255 // ((1 << depth) - 1)


def over_white(colour, alpha):
    return (colour * alpha + 255 * (255 - alpha) + 127) // 255


def rgb_over_white(path):
    reader = png.Reader(filename=path)
    width, height, rows, info = reader.read()
    depth = info['bitdepth']
    planes = info['planes']
    out = bytearray()
    if reader.colormap:
        palette = [tuple(entry) + (255,) * (4 - len(entry)) for entry in reader.palette()]
        for row in rows:
            for index in row:
                r, g, b, a = palette[index]
                out += bytes((over_white(r, a), over_white(g, a), over_white(b, a)))
        return width, height, out
    transparent = info.get('transparent')
    grey = info['greyscale']
    has_alpha = info['alpha']
    for row in rows:
        for x in range(width):
            samples = row[x * planes:(x + 1) * planes]
            colour = samples[:1] * 3 if grey else samples[:3]
            if has_alpha:
                alpha = to_8_bits(samples[-1], depth)
            elif transparent is not None and tuple(samples[:len(transparent)]) == tuple(transparent):
                alpha = 0
            else:
                alpha = 255
            out += bytes(over_white(to_8_bits(c, depth), alpha) for c in colour)
    return width, height, out


def main():
    outdir, paths = sys.argv[1], sys.argv[2:]
    for path in paths:
        name = os.path.splitext(os.path.basename(path))[0]
        try:
            width, height, pixels = rgb_over_white(path)
            assert len(pixels) == width * height * 3
            with open(os.path.join(outdir, name + '.rgb'), 'wb') as f:
                f.write(pixels)
        except Exception as error:  # reported per file; the Swift test decides what it means
            with open(os.path.join(outdir, name + '.err'), 'w') as f:
                f.write('%s: %s\n' % (type(error).__name__, error))


if __name__ == '__main__':
    main()
