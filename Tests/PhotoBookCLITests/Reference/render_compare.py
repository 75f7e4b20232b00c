"""Renders two PDFs page by page with Ghostscript (png16m, sRGB out, DeviceCMYK taken through the output profile
given) and prints, as JSON, each page's mean absolute difference per channel (R, G, B, in 0-255 levels) between
the two renders: the CMYK book against the RGB book of the same photos.

usage: python3 render_compare.py CMYK.pdf RGB.pdf PROFILE.icc DPI [--undo-inversion | --naive]

Two mistakes the comparison must catch, each made in a copy of CMYK.pdf first:
--undo-inversion: its images lose their /Decode [1 0 1 0 1 0 1 0] (Adobe's inversion read the wrong way round);
--naive: each image is replaced by the RGB book's image of the same page converted with the device formula
(C = 255 - R, M = 255 - G, Y = 255 - B, K = 0: the conversion through the profile skipped).
"""
import json
import os
import subprocess
import sys
import tempfile
import zlib

import pikepdf
from PIL import Image, ImageChops, ImageStat


def render(pdf, profile, dpi, folder, stem):
    subprocess.run(["gs", "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=png16m", f"-r{dpi}",
                    f"-sDefaultCMYKProfile={profile}", f"-sOutputFile={folder}/{stem}-%03d.png", pdf], check=True)
    return sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.startswith(stem + "-"))


def main():
    cmyk, rgb, profile, dpi = sys.argv[1:5]
    with tempfile.TemporaryDirectory() as folder:
        if "--naive" in sys.argv:
            with pikepdf.open(cmyk) as pdf, pikepdf.open(rgb) as source:
                for page, reference in zip(pdf.pages, source.pages):
                    for image, original in zip(page.images.values(), reference.images.values()):
                        pixels = pikepdf.PdfImage(original).as_pil_image().convert("RGB").convert("CMYK")
                        image.write(zlib.compress(pixels.tobytes()), filter=pikepdf.Name("/FlateDecode"))
                        for key in ("/Decode", "/DecodeParms"):
                            if key in image:
                                del image[key]
                        image.ColorSpace = pikepdf.Name("/DeviceCMYK")
                        image.Width, image.Height = pixels.size
                cmyk = os.path.join(folder, "naive.pdf")
                pdf.save(cmyk)
        if "--undo-inversion" in sys.argv:
            with pikepdf.open(cmyk) as pdf:
                for obj in pdf.objects:
                    if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == pikepdf.Name("/Image"):
                        if "/Decode" in obj:
                            del obj["/Decode"]
                cmyk = os.path.join(folder, "wrong.pdf")
                pdf.save(cmyk)
        a, b = render(cmyk, profile, dpi, folder, "cmyk"), render(rgb, profile, dpi, folder, "rgb")
        pages = []
        for left, right in zip(a, b):
            x, y = Image.open(left).convert("RGB"), Image.open(right).convert("RGB")
            if x.size != y.size:
                pages.append({"size": [x.size, y.size]})
                continue
            pages.append({"mean": ImageStat.Stat(ImageChops.difference(x, y)).mean})
        print(json.dumps({"pages": pages, "counts": [len(a), len(b)]}))


if __name__ == "__main__":
    main()
