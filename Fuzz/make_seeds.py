#!/usr/bin/python3
"""Writes a seed corpus for one fuzzer: make_seeds.py exif|jpeg|png|heif|webp|tiff|xmp|gif|bmp|raw|jxl|jp2 OUTDIR (run from the package root).

Seeds are made from Fixtures/ each time (nothing but this script is committed): small JPEGs in every coding
mode libjpeg-turbo reads, PngSuite as it is, and EXIF blocks both cut from the fixture photos and built by hand.
"""
import os
import shutil
import struct
import subprocess
import sys
import tempfile

FIXTURES = "Fixtures"


def run(*args):
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def jpeg_seeds(out):
    photo = os.path.join(FIXTURES, "exif-orientation", "Landscape_6.jpg")
    cmyk = os.path.join(FIXTURES, "cmyk-jpeg", "pillow_pil_sample_cmyk.jpg")
    with tempfile.TemporaryDirectory() as tmp:
        base = os.path.join(out, "exif-420.jpg")
        run("convert", photo, "-resize", "40x30!", "-quality", "60", base)  # keeps the EXIF block
        run("convert", photo, "-strip", "-resize", "37x23!", "-quality", "50", "-sampling-factor", "1x1",
            os.path.join(out, "odd-444.jpg"))
        run("convert", photo, "-strip", "-resize", "33x17!", "-quality", "50", "-sampling-factor", "2x1",
            os.path.join(out, "odd-422.jpg"))
        run("convert", cmyk, "-strip", "-resize", "24x16!", "-quality", "50", os.path.join(out, "cmyk-adobe.jpg"))
        small = os.path.join(tmp, "small.jpg")
        run("convert", photo, "-strip", "-resize", "48x32!", "-quality", "40", small)
        for name, options in [("progressive", ["-progressive"]), ("arithmetic", ["-arithmetic"]),
                              ("progressive-arithmetic", ["-progressive", "-arithmetic"]),
                              ("restart", ["-restart", "1"]), ("grayscale", ["-grayscale"]),
                              ("optimized", ["-optimize"])]:
            run("jpegtran", *options, "-outfile", os.path.join(out, name + ".jpg"), small)
        # A file cut short, the shape a broken download has.
        with open(small, "rb") as f:
            data = f.read()
        with open(os.path.join(out, "truncated.jpg"), "wb") as f:
            f.write(data[: len(data) * 2 // 3])


def png_seeds(out):
    suite = os.path.join(FIXTURES, "pngsuite")
    for name in sorted(os.listdir(suite)):
        if name.endswith(".png"):
            shutil.copy(os.path.join(suite, name), out)


def tiff(big_endian, ifd0, exif_ifd=None, date=b"2024:06:01 12:34:56\0"):
    """A TIFF block: IFD0 entries (tag, type, count, value) and optionally an Exif IFD with DateTimeOriginal."""
    e = ">" if big_endian else "<"
    header = (b"MM" if big_endian else b"II") + struct.pack(e + "HI", 42, 8)

    def directory(entries, at, extra_at):
        body = struct.pack(e + "H", len(entries))
        extra = b""
        for tag, kind, count, value in entries:
            if isinstance(value, bytes):  # stored after the directory
                body += struct.pack(e + "HHII", tag, kind, count, extra_at + len(extra))
                extra += value
            elif kind == 3:
                body += struct.pack(e + "HHIHH", tag, kind, count, value, 0)
            else:
                body += struct.pack(e + "HHII", tag, kind, count, value)
        return body + struct.pack(e + "I", 0), extra

    ifd0_size = 2 + 12 * (len(ifd0) + (1 if exif_ifd is not None else 0)) + 4
    exif_at = 8 + ifd0_size
    entries = list(ifd0)
    if exif_ifd is not None:
        entries.append((0x8769, 4, 1, exif_at))
    ifd0_bytes, _ = directory(entries, 8, 8 + ifd0_size)
    if exif_ifd is None:
        return header + ifd0_bytes
    exif_size = 2 + 12 * len(exif_ifd) + 4
    exif_bytes, extra = directory(exif_ifd, exif_at, exif_at + exif_size)
    return header + ifd0_bytes + exif_bytes + extra


def exif_seeds(out):
    seeds = {}
    for big in (False, True):
        order = "be" if big else "le"
        date = b"2024:06:01 12:34:56\0"
        seeds[f"{order}-orientation-short"] = tiff(big, [(0x0112, 3, 1, 6)])
        seeds[f"{order}-orientation-long"] = tiff(big, [(0x0112, 4, 1, 8)])
        seeds[f"{order}-orientation-and-date"] = tiff(big, [(0x010F, 2, 4, 0x41424300), (0x0112, 3, 1, 3)],
                                                       [(0x9003, 2, len(date), date)])
        seeds[f"{order}-exif-ifd-type-13"] = tiff(big, [(0x0112, 3, 1, 5)], [(0x9003, 2, len(date), date)])
        offset, subsec, text = b"+02:00\0", b"04200\0", b"A caption\0"
        seeds[f"{order}-date-offset-subsec-description"] = tiff(
            big, [(0x010E, 2, len(text), text), (0x0112, 3, 1, 1)],
            [(0x9003, 2, len(date), date), (0x9011, 2, len(offset), offset), (0x9291, 2, len(subsec), subsec)])
    seeds["with-exif-prefix"] = b"Exif\0\0" + seeds["le-orientation-and-date"]
    # An XMP packet with a description, alone and in a JPEG's APP1 segment (the fuzzer reads input both ways).
    packet = (b'<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
              b'<rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:description><rdf:Alt>'
              b'<rdf:li xml:lang="fr">Texte &amp; &#xE9;</rdf:li><rdf:li xml:lang="x-default"><![CDATA[Text]]></rdf:li>'
              b'</rdf:Alt></dc:description></rdf:Description></rdf:RDF></x:xmpmeta>')
    seeds["xmp-packet"] = packet
    app1 = b"http://ns.adobe.com/xap/1.0/\0" + packet
    seeds["xmp-in-jpeg"] = b"\xff\xd8" + b"\xff\xe1" + struct.pack(">H", len(app1) + 2) + app1 + b"\xff\xda\0\2"
    # The blocks real cameras wrote, cut from the fixture photos (APP1 "Exif\0\0" payload).
    for name in ("Landscape_3.jpg", "Portrait_8.jpg"):
        with open(os.path.join(FIXTURES, "exif-orientation", name), "rb") as f:
            data = f.read()
        at = data.find(b"\xff\xe1")
        if at >= 0:
            length = struct.unpack(">H", data[at + 2: at + 4])[0]
            payload = data[at + 4: at + 2 + length]
            if payload.startswith(b"Exif\0\0"):
                seeds["camera-" + name[:-4]] = payload[6:]
    for name, data in seeds.items():
        with open(os.path.join(out, name + ".tiff"), "wb") as f:
            f.write(data)


def webp_seeds(out):
    photo = os.path.join(FIXTURES, "exif-orientation", "Landscape_6.jpg")
    rgba = os.path.join(FIXTURES, "pngsuite", "basn6a08.png")
    with tempfile.TemporaryDirectory() as tmp:
        small = os.path.join(tmp, "small.png")
        run("convert", photo, "-strip", "-resize", "37x23!", small)
        run("cwebp", "-quiet", "-q", "50", small, "-o", os.path.join(out, "lossy.webp"))
        run("cwebp", "-quiet", "-q", "50", "-sns", "0", "-f", "0", "-segments", "1", small, "-o",
            os.path.join(out, "lossy-plain.webp"))
        run("cwebp", "-quiet", "-lossless", small, "-o", os.path.join(out, "lossless.webp"))
        run("cwebp", "-quiet", "-q", "50", rgba, "-o", os.path.join(out, "alpha-lossy.webp"))
        run("cwebp", "-quiet", "-lossless", "-exact", rgba, "-o", os.path.join(out, "alpha-lossless.webp"))
        exif = os.path.join(tmp, "exif.jpg")
        run("convert", photo, "-resize", "24x16!", exif)  # keeps the EXIF block
        run("cwebp", "-quiet", "-q", "40", "-metadata", "exif", exif, "-o", os.path.join(out, "exif.webp"))
        frames = []
        for i, colour in enumerate(["#2040c0", "#c04020"]):
            frame = os.path.join(tmp, f"f{i}.webp")
            run("convert", "-size", "16x12", "xc:" + colour, os.path.join(tmp, f"f{i}.png"))
            run("cwebp", "-quiet", "-q", "50", os.path.join(tmp, f"f{i}.png"), "-o", frame)
            frames.append(frame)
        run("webpmux", "-frame", frames[0], "+100+4+2", "-frame", frames[1], "+100+0+0", "-loop", "0",
            "-o", os.path.join(out, "animated.webp"))
        with open(os.path.join(out, "lossy.webp"), "rb") as f:
            data = f.read()
        with open(os.path.join(out, "truncated.webp"), "wb") as f:
            f.write(data[: len(data) * 2 // 3])
    # The fixtures as they are, the small ones (libwebp's own test data among them).
    for folder in [os.path.join(FIXTURES, "webp"), os.path.join(FIXTURES, "webp", "libwebp-test-data")]:
        for name in sorted(os.listdir(folder)):
            path = os.path.join(folder, name)
            if name.endswith(".webp") and os.path.getsize(path) <= 16384:
                shutil.copy(path, os.path.join(out, os.path.basename(folder) + "-" + name))


def tiff_seeds(out):
    """Small TIFFs in every layout the codec reads: each compression tiffcp writes, tiles, planes, BigTIFF, a
    multi-page file with a reduced-resolution copy, 1/16-bit grey, palette, alpha, CMYK and Lab."""
    photo = os.path.join(FIXTURES, "exif-orientation", "Landscape_6.jpg")
    with tempfile.TemporaryDirectory() as tmp:
        base = os.path.join(tmp, "base.tif")
        run("convert", photo, "-strip", "-resize", "24x16!", "-depth", "8", "-compress", "none", base)
        for name, options in [("none", ["-c", "none"]), ("lzw-predictor", ["-c", "lzw:2", "-r", "4"]),
                              ("deflate", ["-c", "zip"]), ("packbits", ["-c", "packbits"]),
                              ("jpeg-ycbcr", ["-c", "jpeg", "-r", "16"]), ("jpeg-rgb", ["-c", "jpeg:r", "-r", "8"]),
                              ("tiled", ["-c", "lzw", "-t", "-w", "16", "-l", "16"]),
                              ("planar", ["-c", "lzw", "-p", "separate", "-r", "4"]),
                              ("planar-tiled", ["-c", "packbits", "-p", "separate", "-t", "-w", "16", "-l", "16"]),
                              ("bigtiff", ["-8", "-c", "lzw"])]:
            run("tiffcp", *options, base, os.path.join(out, name + ".tif"))
        for name, options in [("grey-g4", ["-colorspace", "gray", "-type", "bilevel", "-compress", "group4"]),
                              ("grey-g3", ["-colorspace", "gray", "-type", "bilevel", "-compress", "fax"]),
                              ("grey16", ["-colorspace", "gray", "-depth", "16", "-compress", "zip"]),
                              ("grey4", ["-colorspace", "gray", "-depth", "4", "-compress", "none"]),
                              ("palette", ["-colors", "16", "-type", "palette", "-compress", "lzw"]),
                              ("rgba", ["-alpha", "set", "-channel", "A", "-evaluate", "set", "50%", "+channel",
                                        "-compress", "lzw"]),
                              ("cmyk", ["-colorspace", "cmyk", "-compress", "lzw"]),
                              ("lab", ["-colorspace", "Lab", "-compress", "none"])]:
            run("convert", base, *options, os.path.join(out, name + ".tif"))
        small = os.path.join(tmp, "small.tif")
        run("convert", photo, "-strip", "-resize", "8x6!", "-depth", "8", "-compress", "none", small)
        multipage = os.path.join(out, "multipage.tif")
        run("tiffcp", "-c", "lzw", base, small, base, multipage)
        run("tiffset", "-d", "1", "-s", "254", "1", multipage)
        with open(os.path.join(out, "lzw-predictor.tif"), "rb") as f:
            data = f.read()
        with open(os.path.join(out, "truncated.tif"), "wb") as f:
            f.write(data[: len(data) * 2 // 3])

def heif_seeds(out):
    # The committed fixtures (irot, imir, ICC, nclx, alpha, 10-bit, EXIF, XMP, the fuzzer's finds) and tiny files
    # heif-enc writes: odd sizes (a 1x1 grid around the image), a thumbnail, lossless 4:4:4, alpha.
    for folder in [os.path.join(FIXTURES, "heif"), os.path.join(FIXTURES, "heif", "regressions")]:
        for name in sorted(os.listdir(folder)):
            if name.endswith((".heic", ".avif")):
                shutil.copy(os.path.join(folder, name), os.path.join(out, os.path.basename(folder) + "-" + name))
    photo = os.path.join(FIXTURES, "exif-orientation", "Landscape_1.jpg")
    rgba = os.path.join(FIXTURES, "pngsuite", "basn6a08.png")
    with tempfile.TemporaryDirectory() as tmp:
        small = os.path.join(tmp, "small.jpg")
        run("convert", photo, "-resize", "24x16!", "-quality", "60", small)  # keeps the EXIF block
        odd = os.path.join(tmp, "odd.png")
        run("convert", photo, "-strip", "-resize", "17x11!", odd)
        for name, source, options in [("small.heic", small, []), ("small.avif", small, ["-A"]),
                                      ("odd-grid.heic", odd, []), ("odd.avif", odd, ["-A"]),
                                      ("thumbnail.heic", small, ["-t", "8"]),
                                      ("lossless.heic", odd, ["-L", "-p", "chroma=444", "--matrix_coefficients=0"]),
                                      ("alpha-small.heic", rgba, []), ("alpha-small.avif", rgba, ["-A"])]:
            run("heif-enc", "-q", "30", *options, source, "-o", os.path.join(out, name))
        with open(os.path.join(out, "small.heic"), "rb") as f:
            data = f.read()
        with open(os.path.join(out, "truncated.heic"), "wb") as f:
            f.write(data[: len(data) * 2 // 3])
        # What iOS 18 adds (a thumbnail, a gain map and mattes whose auxl name two targets, a tmap item) around the
        # committed 2x2 grid, as Fixtures/heif/tools/ios18_aux.py adds it to the iPhone fixture.
        run("python3", os.path.join(FIXTURES, "heif", "tools", "ios18_aux.py"), os.path.join(FIXTURES, "heif", "grid.heic"),
            os.path.join(out, "ios18-aux-grid.heic"))


def xmp_seeds(out):
    """Every XMP packet in Fixtures/: the sidecars as they are, and the packets embedded in the photos (MWG, Microsoft
    People and IPTC regions, turned and not, captions, dates), cut out of whatever file holds them."""
    found = {}
    for folder, _, names in sorted(os.walk(FIXTURES)):
        for name in sorted(names):
            path = os.path.join(folder, name)
            if os.path.getsize(path) > 4 << 20:
                continue
            with open(path, "rb") as f:
                data = f.read()
            if name.endswith(".xmp"):
                found[data] = name
                continue
            start = 0
            while True:
                begin = data.find(b"<x:xmpmeta", start)
                if begin < 0:
                    break
                end = data.find(b"</x:xmpmeta>", begin)
                if end < 0:
                    break
                packet = data[begin:end + len(b"</x:xmpmeta>")]
                found.setdefault(packet, f"{name}-{begin}")
                start = end
    for index, (packet, name) in enumerate(found.items()):
        if len(packet) <= 65536:
            with open(os.path.join(out, f"{index:03d}-{name}.xmp"), "wb") as f:
                f.write(packet)

def jxl_seeds(out):
    """Small JPEG XL files cjxl writes (lossy, lossless, alpha, a recompressed JPEG with its EXIF in a container,
    progressive), one cut short, and the small fixtures (libjxl's conformance files)."""
    photo = os.path.join(FIXTURES, "exif-orientation", "Landscape_6.jpg")
    rgba = os.path.join(FIXTURES, "pngsuite", "basn6a08.png")
    with tempfile.TemporaryDirectory() as tmp:
        small = os.path.join(tmp, "small.png")
        run("convert", photo, "-strip", "-resize", "37x23!", small)
        run("cjxl", "--quiet", "-d", "2", small, os.path.join(out, "lossy.jxl"))
        run("cjxl", "--quiet", "-d", "0", small, os.path.join(out, "lossless.jxl"))
        run("cjxl", "--quiet", "-d", "1", "-p", small, os.path.join(out, "progressive.jxl"))
        run("cjxl", "--quiet", "-d", "1", rgba, os.path.join(out, "alpha.jxl"))
        exif = os.path.join(tmp, "exif.jpg")
        run("convert", photo, "-resize", "24x16!", exif)  # keeps the EXIF block
        run("cjxl", "--quiet", exif, os.path.join(out, "recompressed-jpeg.jxl"))
        with open(os.path.join(out, "lossy.jxl"), "rb") as f:
            data = f.read()
        with open(os.path.join(out, "truncated.jxl"), "wb") as f:
            f.write(data[: len(data) * 2 // 3])
    folder = os.path.join(FIXTURES, "jxl")
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if name.endswith(".jxl") and os.path.getsize(path) <= 16384:
            shutil.copy(path, os.path.join(out, "fixture-" + name))


def jp2_seeds(out):
    """Small JPEG 2000 files opj_compress writes (jp2 and codestream, lossless and lossy, tiled, several
    resolution levels, grey), one cut short, and the small fixtures (the ISO conformance codestreams)."""
    photo = os.path.join(FIXTURES, "exif-orientation", "Landscape_6.jpg")
    with tempfile.TemporaryDirectory() as tmp:
        small = os.path.join(tmp, "small.ppm")
        grey = os.path.join(tmp, "grey.pgm")
        run("convert", photo, "-strip", "-resize", "37x23!", small)
        run("convert", small, "-colorspace", "Gray", grey)
        # Fewer levels than opj_compress's 6: a 37x23 picture has room for 3.
        run("opj_compress", "-i", small, "-o", os.path.join(out, "lossless.jp2"), "-n", "3")
        run("opj_compress", "-i", small, "-o", os.path.join(out, "lossy.j2k"), "-r", "20", "-n", "3")
        run("opj_compress", "-i", small, "-o", os.path.join(out, "tiled.j2k"), "-t", "16,16", "-n", "2")
        run("opj_compress", "-i", grey, "-o", os.path.join(out, "grey.jp2"), "-n", "2")
        with open(os.path.join(out, "lossless.jp2"), "rb") as f:
            data = f.read()
        with open(os.path.join(out, "truncated.jp2"), "wb") as f:
            f.write(data[: len(data) * 2 // 3])
    folder = os.path.join(FIXTURES, "jpeg2000")
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if name.endswith((".jp2", ".j2k")) and os.path.getsize(path) <= 16384:
            shutil.copy(path, os.path.join(out, "fixture-" + name))


def gif_seeds(out):
    """The GIF fixtures (Pillow's: still, interlaced, transparent, animated, local tables), and a few made here."""
    folder = os.path.join(FIXTURES, "gif")
    for name in sorted(os.listdir(folder)):
        if name.endswith(".gif") and os.path.getsize(os.path.join(folder, name)) <= 65536:
            shutil.copy(os.path.join(folder, name), out)
    photo = os.path.join(FIXTURES, "exif-orientation", "Landscape_6.jpg")
    run("convert", photo, "-strip", "-resize", "37x23!", "-colors", "16", os.path.join(out, "made-16.gif"))
    run("convert", photo, "-strip", "-resize", "29x17!", "-colors", "64", "-interlace", "GIF",
        os.path.join(out, "made-interlaced.gif"))
    run("convert", "-size", "12x10", "xc:red", "-size", "8x6", "xc:blue", "-page", "+2+3", "-loop", "0",
        os.path.join(out, "made-animated.gif"))


def bmp_seeds(out):
    """The BMP Suite as it is (every header, depth, compression and mask the codec reads, and its bad files)."""
    for sub in ("g", "q", "b"):
        folder = os.path.join(FIXTURES, "bmp", sub)
        for name in sorted(os.listdir(folder)):
            if name.endswith(".bmp") and os.path.getsize(os.path.join(folder, name)) <= 65536:
                shutil.copy(os.path.join(folder, name), os.path.join(out, sub + "-" + name))


def raw_seeds(out):
    """The raw fixtures, and the DNG cut at several points (a broken copy's shape): LibRaw is slow on big
    hostile inputs, so the seeds stay small (the whole DNG is 87 KB)."""
    folder = os.path.join(FIXTURES, "raw")
    for name in sorted(os.listdir(folder)):
        # bayer-640.dng (554 KB) would only be cut to the fuzzer's 64 KB: the small ones stand for the rest.
        if name.startswith(("LICENSE", "README")) or os.path.getsize(os.path.join(folder, name)) > 131072:
            continue
        shutil.copy(os.path.join(folder, name), out)
    with open(os.path.join(folder, "sample_1mp.dng"), "rb") as f:
        data = f.read()
    for fraction in (8, 4, 2):
        with open(os.path.join(out, f"cut-{fraction}.dng"), "wb") as f:
            f.write(data[: len(data) // fraction])
    # The opcode list claiming 2^32 - 1 opcodes that looped LibRaw for minutes (RawHostileInputTests says more).
    entry = data.index(b"\x41\xc7\x07\x00")
    (at,) = struct.unpack_from("<I", data, entry + 8)
    with open(os.path.join(out, "opcode-count.dng"), "wb") as f:
        f.write(data[:at] + b"\xff\xff\xff\xff" + data[at + 4:])


if __name__ == "__main__":
    kind, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    seeds = {"exif": exif_seeds, "jpeg": jpeg_seeds, "png": png_seeds, "heif": heif_seeds, "webp": webp_seeds,
             "tiff": tiff_seeds, "xmp": xmp_seeds, "gif": gif_seeds, "bmp": bmp_seeds, "raw": raw_seeds, "jxl": jxl_seeds, "jp2": jp2_seeds}
    seeds[kind](out)
