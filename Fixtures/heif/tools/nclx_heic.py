#!/usr/bin/env python3
"""A phone's kind of plain HEIC: one `hvc1` picture whose colour is in a `colr` nclx box of its own.

heif-enc 1.15 writes an x265 HEIC with no `colr` nclx (the colour is only in the HEVC VUI, set by
`--matrix_coefficients` and `--full_range_flag`); phones write one. This takes the primary picture of a one-image
HEIC heif-enc wrote (its `hvcC`, `ispe` and coded data, read with Bench/heic_grid.py's parser) and writes a new
file of that picture alone, with a `colr` nclx of the given codes associated after its `hvcC` and `ispe`:

  ftyp  major heic, compatible mif1 heic
  meta  hdlr pict; pitm 1; iinf: item 1 hvc1; iprp: ipco (hvcC, ispe, colr nclx), ipma (hvcC essential);
        iloc, construction method 0: the picture's data in mdat
  mdat  the coded picture

Codes that differ from the bitstream's VUI tell which one a decoder takes (libheif 1.15: the colr box).
Standard library only.

    python3 Fixtures/heif/tools/nclx_heic.py IN.heic OUT.heic PRIMARIES TRANSFER MATRIX FULL_RANGE
"""

import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "Bench"))
import heic_grid  # noqa: E402  (the ISO-BMFF reader and box writers of the grid muxer)


def nclx_file(config, data, size, primaries, transfer, matrix, full_range):
    """The bytes of the one-picture HEIF file."""
    box, full = heic_grid._box, heic_grid._full
    colr = box("colr", b"nclx" + struct.pack(">HHHB", primaries, transfer, matrix, 0x80 if full_range else 0))
    ipco = box("ipco", config + full("ispe", 0, 0, struct.pack(">II", *size)) + colr)
    # Item 1: property 1 (hvcC, essential), 2 (ispe), 3 (colr).
    ipma = full("ipma", 0, 0, struct.pack(">IHB", 1, 1, 3) + bytes([0x81, 0x02, 0x03]))
    infe = full("infe", 2, 0, struct.pack(">HH", 1, 0) + b"hvc1" + b"\0")

    def meta(offset):
        iloc = full("iloc", 1, 0, bytes([0x44, 0x00]) + struct.pack(">HHHHHII", 1, 1, 0, 0, 1, offset, len(data)))
        return full("meta", 0, 0, b"".join([
            full("hdlr", 0, 0, struct.pack(">I4sIII", 0, b"pict", 0, 0, 0) + b"\0"),
            full("pitm", 0, 0, struct.pack(">H", 1)),
            full("iinf", 0, 0, struct.pack(">H", 1) + infe),
            box("iprp", ipco + ipma),
            iloc]))

    ftyp = box("ftyp", b"heic" + struct.pack(">I", 0) + b"mif1heic")
    # iloc's fields have fixed sizes: the offset does not change the meta's length.
    return ftyp + meta(len(ftyp) + len(meta(0)) + 8) + box("mdat", data)


def main(argv):
    if len(argv) != 7:
        sys.exit(__doc__.strip().splitlines()[-1].strip())
    with open(argv[1], "rb") as f:
        config, data, size = heic_grid.primary_hevc(f.read())
    primaries, transfer, matrix, full_range = (int(v) for v in argv[3:7])
    with open(argv[2], "wb") as f:
        f.write(nclx_file(config, data, size, primaries, transfer, matrix, full_range))


if __name__ == "__main__":
    main(sys.argv)
