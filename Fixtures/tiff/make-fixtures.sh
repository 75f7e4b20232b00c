#!/bin/sh
# Makes the TIFF fixtures from Fixtures/exif-orientation and Fixtures/pngsuite (run from this folder; needs
# ImageMagick 6, libtiff-tools and exiftool). The files are committed: this script says how each was made.
set -eu
IM=/usr/bin/convert
SRC=../exif-orientation
PNG=../pngsuite
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 8-bit RGB, 48x32, the base of most files.
$IM "$SRC/Landscape_1.jpg" -strip -resize 48x32! -depth 8 -compress none "$tmp/rgb8.tif"
tiffcp -c none "$tmp/rgb8.tif" rgb8-none.tif
tiffcp -c lzw -r 8 "$tmp/rgb8.tif" rgb8-lzw.tif
tiffcp -c zip:2 -r 8 "$tmp/rgb8.tif" rgb8-deflate-predictor.tif
tiffcp -c packbits "$tmp/rgb8.tif" rgb8-packbits.tif
tiffcp -c jpeg:90 -r 16 "$tmp/rgb8.tif" rgb8-jpeg-ycbcr.tif        # YCbCr, 2x2 subsampled
tiffcp -c lzw -t -w 16 -l 16 "$tmp/rgb8.tif" rgb8-tiled-lzw.tif     # 3x2 tiles
$IM "$SRC/Landscape_1.jpg" -strip -resize 40x27! -depth 8 -compress none "$tmp/odd.tif"
tiffcp -c zip -t -w 16 -l 16 "$tmp/odd.tif" rgb8-tiled-edges.tif    # 40x27: partial tiles at the edges
tiffcp -c lzw -p separate -r 5 "$tmp/rgb8.tif" rgb8-planar-lzw.tif
tiffcp -c packbits -p separate -t -w 16 -l 16 "$tmp/rgb8.tif" rgb8-planar-tiled.tif
tiffcp -8 -c lzw "$tmp/rgb8.tif" rgb8-bigtiff.tif

# Grey: 8-bit min-is-black and min-is-white, 1-bit fax, 16-bit.
$IM "$tmp/rgb8.tif" -colorspace gray -depth 8 -compress lzw grey8.tif
# ImageMagick writes min-is-black whatever it is told: the samples are inverted, then the tag says min-is-white.
$IM "$tmp/rgb8.tif" -colorspace gray -depth 8 -negate -compress none grey8-miniswhite.tif
tiffset -s 262 0 grey8-miniswhite.tif
$IM "$tmp/rgb8.tif" -colorspace gray -threshold 50% -type bilevel -compress group4 grey1-g4.tif
$IM "$tmp/rgb8.tif" -colorspace gray -threshold 50% -type bilevel -compress fax grey1-g3.tif
$IM "$PNG/basn0g16.png" -compress zip grey16.tif                        # 32x32, 16-bit grey
$IM "$PNG/basn0g04.png" -depth 4 -compress none grey4.tif                # 32x32, 4-bit grey

# 16-bit RGB, palette, alpha.
$IM "$PNG/basn2c16.png" -compress lzw rgb16-lzw.tif                      # 32x32, 16-bit RGB
$IM "$PNG/basn3p08.png" -type palette -compress rle palette8.tif
$IM "$PNG/basn3p04.png" -type palette -depth 4 -compress none palette4.tif
$IM "$PNG/basn6a08.png" -compress lzw rgba8-unassociated.tif             # 32x32 RGBA, unassociated alpha
$IM "$PNG/basn6a16.png" -compress zip rgba16.tif
$IM "$PNG/basn4a08.png" -compress none greya8.tif                        # grey + alpha

# CMYK without a profile. (The CMYK file with Ghostscript's default_cmyk.icc, and the one with an sRGB profile,
# are made by the tests in /tmp: Debian ships Ghostscript's profiles under the AGPL, so none is committed here.)
$IM "$tmp/rgb8.tif" -colorspace cmyk -compress lzw cmyk8-plain.tif
$IM "$tmp/rgb8.tif" -colorspace cmyk -depth 16 -compress zip cmyk16-plain.tif

# Lab, which only libtiff's RGBA reader takes.
$IM "$tmp/rgb8.tif" -colorspace Lab -depth 8 -compress none "$tmp/lab8.tif"
tiffcp -c lzw -r 5 "$tmp/lab8.tif" lab8.tif                         # strips of 5 rows, the last one short
$IM "$tmp/odd.tif" -colorspace Lab -depth 8 -compress none "$tmp/odd-lab.tif"
tiffcp -c lzw -t -w 16 -l 16 "$tmp/odd-lab.tif" lab8-tiled-edges.tif

# The Orientation tag (6: turn 90 degrees clockwise).
tiffcp -c lzw "$tmp/rgb8.tif" orientation6.tif
tiffset -s 274 6 orientation6.tif

# Three pages and, between the first two, a reduced-resolution copy (NewSubfileType 1) that is no photo.
$IM "$SRC/Landscape_3.jpg" -strip -resize 24x16! -depth 8 -compress none "$tmp/p1.tif"
$IM "$SRC/Landscape_3.jpg" -strip -resize 12x8! -depth 8 -compress none "$tmp/thumb.tif"
$IM "$SRC/Portrait_6.jpg" -strip -resize 16x24! -depth 8 -colorspace gray -compress none "$tmp/p2.tif"
$IM "$PNG/basn3p08.png" -type palette -compress none "$tmp/p3.tif"
tiffcp -c lzw "$tmp/p1.tif" "$tmp/thumb.tif" "$tmp/p2.tif" "$tmp/p3.tif" multipage.tif
tiffset -d 1 -s 254 1 multipage.tif
