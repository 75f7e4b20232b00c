#!/bin/sh
# Makes the WebP fixtures of this folder from the package's other fixtures (run from the package root:
# sh Fixtures/webp/make_fixtures.sh). Needs cwebp, img2webp, webpmux (Debian `webp` 1.2.4), ImageMagick,
# exiftool and python3-pil. The files are committed; this script says how they were made.
set -eu
out=Fixtures/webp
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
photo=Fixtures/exif-orientation/Landscape_1.jpg

# A photo scaled down to odd sides (crops and scales meet odd edges), no metadata.
convert "$photo" -strip -resize '151x101!' "$tmp/photo.png"
cwebp -quiet -q 80 "$tmp/photo.png" -o "$out/lossy.webp"
convert "$photo" -strip -resize '45x31!' "$tmp/small.png"
cwebp -quiet -lossless "$tmp/small.png" -o "$out/lossless.webp"

# PngSuite's 8-bit RGBA image: lossless keeps every RGBA value (-exact keeps the colour under alpha 0 too).
# Copied by Pillow first, without its gAMA chunk: cwebp applies a PNG's gamma (basn6a08 says 1.0), Pillow does not.
/usr/bin/python3 -c 'from PIL import Image; Image.open("Fixtures/pngsuite/basn6a08.png").save("'"$tmp"'/rgba.png")'
cwebp -quiet -lossless -exact "$tmp/rgba.png" -o "$out/alpha-lossless.webp"
cwebp -quiet -q 90 "$tmp/rgba.png" -o "$out/alpha-lossy.webp"

# An sRGB profile made by Little CMS (through Pillow), set as the ICCP chunk.
/usr/bin/python3 -c 'from PIL import ImageCms; open("'"$tmp"'/srgb.icc", "wb").write(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())'
webpmux -set icc "$tmp/srgb.icc" "$out/lossy.webp" -o "$out/icc.webp" >/dev/null 2>&1

# EXIF with Orientation 6 and a capture date, as a bare TIFF structure, and again with JPEG's "Exif\0\0"
# before it (as some writers store it).
convert "$photo" -strip -resize '8x8!' "$tmp/carrier.jpg"
exiftool -q -overwrite_original -Orientation#=6 -DateTimeOriginal='2021:07:14 09:26:53' -Make=photobook "$tmp/carrier.jpg"
exiftool -q -b -EXIF "$tmp/carrier.jpg" > "$tmp/exif.bin"
/usr/bin/python3 - "$tmp/exif.bin" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
if data.startswith(b"Exif\0\0"):
    data = data[6:]
assert data[:4] in (b"II*\0", b"MM\0*"), data[:8]
open(sys.argv[1] + ".tiff", "wb").write(data)
open(sys.argv[1] + ".prefixed", "wb").write(b"Exif\0\0" + data)
PY
webpmux -set exif "$tmp/exif.bin.tiff" "$out/lossy.webp" -o "$out/exif-orientation-6.webp" >/dev/null 2>&1
webpmux -set exif "$tmp/exif.bin.prefixed" "$out/lossy.webp" -o "$out/exif-prefixed.webp" >/dev/null 2>&1

# An XMP packet with a title.
cat > "$tmp/packet.xmp" <<'XMP'
<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title><rdf:Alt><rdf:li xml:lang="x-default">Harbour at dawn</rdf:li></rdf:Alt></dc:title></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>
XMP
webpmux -set xmp "$tmp/packet.xmp" "$out/lossless.webp" -o "$out/xmp.webp" >/dev/null 2>&1

# An animation on a 64x48 canvas: a 40x30 first frame at (10, 6) (the rest of the canvas transparent), then two
# full frames.
convert "$photo" -strip -resize '40x30!' "$tmp/f1.png"
convert -size 64x48 xc:'#2040c0' "$tmp/f2.png"
convert -size 64x48 xc:'#c04020' "$tmp/f3.png"
cwebp -quiet -lossless "$tmp/f1.png" -o "$tmp/f1.webp"
cwebp -quiet -lossless "$tmp/f2.png" -o "$tmp/f2.webp"
cwebp -quiet -lossless "$tmp/f3.png" -o "$tmp/f3.webp"
webpmux -frame "$tmp/f1.webp" +100+10+6+0-b -frame "$tmp/f2.webp" +100+0+0 -frame "$tmp/f3.webp" +100+0+0 \
    -loop 0 -o "$out/animated.webp" >/dev/null 2>&1
# img2webp's own animation (lossy frames, each a full canvas).
convert "$photo" -strip -resize '48x32!' "$tmp/a1.png"
convert "$tmp/a1.png" -negate "$tmp/a2.png"
img2webp -q 70 -lossy "$tmp/a1.png" "$tmp/a2.png" -o "$out/animated-lossy.webp" >/dev/null 2>&1
