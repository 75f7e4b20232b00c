#!/usr/bin/env python3
"""A HEIF file whose primary image is an `iden` item, laid out as the HEIF conformance files C008, C014, C023
and C039 (nokiatech/heif_conformance) are: a derived image with no data of its own and so no `iloc` entry,
turned by its own `irot`, and an `Exif` item whose data lies in `idat` (construction method 1).

libheif 1.15 reads every item's data while it reads the file and refuses the `iden` item with "Item has no
data: Item with ID 2 has no compressed data" (it decodes `iden` items, and reads `idat` data, once past that).

  ftyp  major mif1, compatible mif1 heic
  meta  hdlr pict; pitm 2; iinf: item 1 hvc1 (hidden), item 2 iden, item 3 Exif (hidden);
        iref: dimg 2 -> [1], cdsc 3 -> [2];
        iprp: ipco (hvcC, ispe of the coded picture, irot 1), ipma 1: hvcC (essential), ispe;
              2: ispe (its size before its irot, as in C008), irot (essential);
        iloc version 1: item 1 in mdat (method 0), item 3 in idat (method 1), none for item 2;
        idat: the Exif item (4-byte offset 0, then the TIFF structure of EXIF.tiff)
  mdat  the coded picture of IN.heic (a one-picture HEIC heif-enc wrote)

    python3 Fixtures/heif/tools/iden_heic.py IN.heic EXIF.tiff OUT.heic
"""

import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "Bench"))
import heif_boxes as hb  # noqa: E402

box, full = hb._box, hb._full


def main(source, exif_path, target):
    config, data, (width, height) = hb.primary_hevc(open(source, "rb").read())
    exif = struct.pack(">I", 0) + open(exif_path, "rb").read()
    ftyp = box("ftyp", b"mif1" + struct.pack(">I", 0) + b"mif1heic")
    hdlr = full("hdlr", 0, 0, struct.pack(">I", 0) + b"pict" + bytes(12) + b"\0")
    pitm = full("pitm", 0, 0, struct.pack(">H", 2))

    def infe(item, kind, flags):
        return full("infe", 2, flags, struct.pack(">HH", item, 0) + kind.encode() + b"\0")

    iinf = full("iinf", 0, 0, struct.pack(">H", 3) + infe(1, "hvc1", 1) + infe(2, "iden", 0) + infe(3, "Exif", 1))
    iref = full("iref", 0, 0, box("dimg", struct.pack(">HHH", 2, 1, 1)) + box("cdsc", struct.pack(">HHH", 3, 1, 2)))
    ispe = full("ispe", 0, 0, struct.pack(">II", width, height))
    irot = box("irot", bytes([1]))
    ipco = box("ipco", config + ispe + irot)
    # The iden item's ispe is its size before its own irot (the picture's, as C008's is).
    ipma = full("ipma", 0, 0, struct.pack(">I", 2) + struct.pack(">HBBB", 1, 2, 0x81, 2)
                + struct.pack(">HBBB", 2, 2, 2, 0x83))
    idat = box("idat", exif)

    def iloc(mdat_at):
        body = struct.pack(">BBBBBBH", 1, 0, 0, 0, 0x44, 0x00, 2)
        body += struct.pack(">HHHHII", 1, 0, 0, 1, mdat_at, len(data))
        body += struct.pack(">HHHHII", 3, 1, 0, 1, 0, len(exif))
        return box("iloc", body)

    head = hdlr + pitm + iinf + iref + box("iprp", ipco + ipma) + idat
    size = len(ftyp) + 12 + len(head) + len(iloc(0))
    meta = full("meta", 0, 0, head + iloc(size + 8))
    assert len(ftyp) + len(meta) == size
    with open(target, "wb") as f:
        f.write(ftyp + meta + box("mdat", data))


if __name__ == "__main__":
    main(*sys.argv[1:4])
