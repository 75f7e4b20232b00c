#!/usr/bin/env python3
"""An iOS 18 iPhone's kind of HEIC, from an older iPhone's HEIC: its photo, EXIF and XMP unchanged, plus what
iOS 18 adds around them and libheif 1.15 refuses ("Too many auxiliary image references").

iOS 18 writes an ISO 21496-1 gain map item (`tmap`, a derived image of the primary image and the HDR gain map,
in an `altr` group with the primary image) and names the primary image AND that `tmap` item as the targets of
the `auxl` reference of each auxiliary image (the HDR gain map, the semantic mattes of a portrait, the depth
map): libheif 1.15 accepts one target per `auxl` ("Too many auxiliary image references"), libheif 1.18 then
refused the `tmap` target ("Non-existing aux image referenced", libheif issues 1190 and 1213). This writes,
from IN.heic (an iPhone photo: a `grid` primary image of `hvc1` tiles), a new file OUT.heic with:

  ftyp  major heic, compatible mif1 MiHB MiHE MiPr miaf heic tmap (the brands iOS 18 lists)
  meta  IN's hdlr, dinf, pitm, items, properties and references, then:
        a thumbnail of the primary image (hvc1, 320x240 or 240x320 coded as the primary, its irot; `thmb` to the primary)
          made from heif-convert's picture of IN turned back, scaled and coded by heif-enc -q 60;
        an HDR gain map and four semantic mattes (skin, hair, teeth, portrait effects: hidden hvc1 items
          with their Apple `auxC` URNs, whose coded data is IN's first tile, shared), each with
          `auxl` to [primary, tmap];
        a `tmap` item (hidden, its data in `idat`: a version-0 ISO 21496-1 metadata body) with `dimg` to
          [primary, gain map], and a `grpl` `altr` group of [tmap, primary];
        `iloc` version 1 with 4-byte offsets and lengths, every extent moved to where the data now is
  mdat  IN's mdat box, unchanged; then one of the thumbnail's data

libheif 1.15's heif-info refuses OUT with "Too many auxiliary image references"; the primary image is IN's, so
heif-convert's picture of IN is the reference for OUT's. Standard library only, but for heif-convert, heif-enc
and ImageMagick's convert for the thumbnail.

    python3 Fixtures/heif/tools/ios18_aux.py IN.heic OUT.heic
"""

import os
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "Bench"))
import heif_boxes as hb  # noqa: E402  (the ISO-BMFF reader of the grid muxer)

box, full = hb._box, hb._full
MATTES = ["urn:com:apple:photo:2020:aux:hdrgainmap",
          "urn:com:apple:photo:2019:aux:semanticskinmatte",
          "urn:com:apple:photo:2019:aux:semantichairmatte",
          "urn:com:apple:photo:2019:aux:semanticteethmatte",
          "urn:com:apple:photo:2018:aux:portraiteffectsmatte"]


def thumbnail(path, irot):
    """(hvcC box, coded data) of a 320x240 (or 240x320) HEVC picture of `path`'s primary image, coded as it is
    stored (turned back by its irot, in quarter turns anticlockwise)."""
    with tempfile.TemporaryDirectory() as tmp:
        png, small, heic = (os.path.join(tmp, n) for n in ("full.png", "small.png", "small.heic"))
        subprocess.run(["heif-convert", "--quiet", path, png], check=True)
        width, height = struct.unpack(">II", open(png, "rb").read()[16:24])  # the PNG's IHDR
        landscape = (width >= height) == (irot % 2 == 0)
        # convert -rotate turns clockwise: undoing `irot` quarter turns anticlockwise. An even size, which
        # heif-enc codes as one picture (not a grid).
        subprocess.run(["convert", png, "-rotate", str(90 * irot), "-resize", "320x240!" if landscape else "240x320!",
                        small], check=True)
        subprocess.run(["heif-enc", "-q", "60", small, "-o", heic], check=True, stdout=subprocess.DEVNULL)
        config, data, size = hb.primary_hevc(open(heic, "rb").read())
        return config, data, size


def main(source, target):
    data = open(source, "rb").read()
    meta = hb.Meta(data)
    top, box_start, at = {}, {}, 0
    for k, s, e in hb.boxes(data):
        top[k], box_start[k], at = (s, e), at, e  # box_start: where its header starts (8 or 16 bytes)
    meta_start, meta_end = top["meta"]
    children = {k: data[s - 8:e] for k, s, e in hb.boxes(data, meta_start + 4, meta_end)}
    primary = meta.primary
    primary_props = meta.item_properties(primary)
    irot = next((box_[-1] & 3 for kind, box_, _ in primary_props if kind == "irot"), 0)
    tile = sorted(i for i, (kind, _) in meta.items.items() if kind == "hvc1")[0]

    config, thumb_data, (tw, th) = thumbnail(source, irot)
    properties = list(meta.properties)
    associations = {item: list(a) for item, a in meta.associations.items()}

    def add_property(kind, whole):
        properties.append((kind, whole))
        return len(properties)

    first = max(meta.items) + 1
    thumb, gain, tmap = first, first + 1, first + 1 + len(MATTES)
    items = dict(meta.items)
    # The thumbnail: its own hvcC and ispe, the primary's irot.
    items[thumb] = ("hvc1", 0)
    associations[thumb] = [(add_property("hvcC", config), True),
                           (add_property("ispe", full("ispe", 0, 0, struct.pack(">II", tw, th))), False)]
    associations[thumb] += [(i, e) for i, e in meta.associations[primary]
                            if properties[i - 1][0] == "irot"]
    references = list(meta.references) + [("thmb", thumb, [primary])]
    for n, urn in enumerate(MATTES):
        item = gain + n
        items[item] = ("hvc1", 1)
        associations[item] = list(meta.associations[tile])
        associations[item].append((add_property("auxC", full("auxC", 0, 0, urn.encode() + b"\0")), True))
        references.append(("auxl", item, [primary, tmap]))
    items[tmap] = ("tmap", 1)
    associations[tmap] = [(i, e) for i, e in meta.associations[primary] if properties[i - 1][0] == "ispe"]
    references.append(("dimg", tmap, [primary, gain]))

    # tmap's body in idat, after IN's own idat data (ISO 21496-1: version, minimum version, writer version,
    # flags, then headroom fractions; a plausible single-channel body: libheif 1.15 never reads it).
    old_idat = data[meta.idat[0]:meta.idat[1]] if meta.idat else b""
    tmap_body = struct.pack(">BHHB", 0, 0, 0, 0) + struct.pack(">IIII", 0, 1, 3, 1) + struct.pack(">iIiIIIIIiIiI", *([0, 1] * 6))
    idat = box("idat", old_idat + tmap_body)

    def infe(item, kind, flags):
        return full("infe", 2, flags, struct.pack(">HH", item, 0) + kind.encode() + b"\0")

    iinf = full("iinf", 0, 0, struct.pack(">H", len(items)) + b"".join(infe(i, k, f) for i, (k, f) in sorted(items.items())))
    iref = full("iref", 0, 0, b"".join(box(k, struct.pack(">HH", s, len(t)) + b"".join(struct.pack(">H", x) for x in t))
                                       for k, s, t in references))
    ipco = box("ipco", b"".join(whole for _, whole in properties))
    entries = b""
    for item in sorted(associations):
        entries += struct.pack(">HB", item, len(associations[item]))
        entries += b"".join(struct.pack(">B", (0x80 if e else 0) | i) for i, e in associations[item])
    assert len(properties) < 128
    ipma = full("ipma", 0, 0, struct.pack(">I", len(associations)) + entries)
    iprp = box("iprp", ipco + ipma)
    grpl = box("grpl", full("altr", 0, 0, struct.pack(">II", 1000, 2) + struct.pack(">II", tmap, primary)))
    ftyp = box("ftyp", b"heic" + struct.pack(">I", 0) + b"mif1MiHBMiHEMiPrmiafheictmap")

    locations = dict(meta.locations)
    locations[gain] = locations[tile]
    for n in range(1, len(MATTES)):
        locations[gain + n] = locations[tile]
    locations[tmap] = (1, [(len(old_idat), len(tmap_body))])

    def iloc(shift, thumb_at):
        body = struct.pack(">BBBBBBH", 1, 0, 0, 0, 0x44, 0x00, len(locations) + 1)
        for item in sorted(list(locations) + [thumb]):
            method, spans = locations[item] if item != thumb else (0, [(thumb_at, len(thumb_data))])
            if method == 0 and item != thumb:
                spans = [(o + shift, n) for o, n in spans]
            body += struct.pack(">HHHH", item, method, 0, len(spans))
            body += b"".join(struct.pack(">II", o, n) for o, n in spans)
        return box("iloc", body)

    head = [children["hdlr"], children.get("dinf", b""), children["pitm"], iinf, iref, iprp, idat]
    size = len(ftyp) + 12 + sum(len(b) for b in head) + len(iloc(0, 0)) + len(grpl)
    old_mdat = data[box_start["mdat"]:top["mdat"][1]]  # the whole box, header included
    shift = size - box_start["mdat"]
    thumb_at = size + len(old_mdat) + 8
    meta_box = full("meta", 0, 0, b"".join(head) + iloc(shift, thumb_at) + grpl)
    assert len(ftyp) + len(meta_box) == size
    with open(target, "wb") as f:
        f.write(ftyp + meta_box + old_mdat + box("mdat", thumb_data))


if __name__ == "__main__":
    main(*sys.argv[1:3])
