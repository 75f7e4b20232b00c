#!/bin/bash
# Writes the face-region samples of this folder from curie.jpg (see README.md): the same upright picture, stored
# turned for EXIF orientations 3, 6 and 8, with the two faces marked as MWG, Microsoft People or IPTC regions,
# embedded or in an XMP sidecar. Run from anywhere; needs ImageMagick (convert) and exiftool (12.57 made them).
set -euo pipefail
cd "$(dirname "$0")"

# The faces in the upright picture (840x700), measured on curie.jpg: centre x, y and width, height, as fractions
# of its width and height.
MARIE=(0.37 0.31 0.11 0.20)
PIERRE=(0.69 0.24 0.10 0.24)

# stored ORIENTATION CX CY W H: the same box in the stored picture of a photo that ORIENTATION turns upright
# (regions are measured in the stored picture, MWG guidelines 2.0 section 5.9).
stored() {
  awk -v o="$1" -v x="$2" -v y="$3" -v w="$4" -v h="$5" 'BEGIN {
    if (o == 1) print x, y, w, h; else if (o == 3) print 1 - x, 1 - y, w, h
    else if (o == 6) print y, 1 - x, h, w; else if (o == 8) print 1 - y, x, h, w }'
}

# picture ORIENTATION OUT: curie.jpg stored so that ORIENTATION shows it upright, no metadata but the tag.
picture() {
  local turn
  case "$1" in 1) turn=0 ;; 3) turn=180 ;; 6) turn=270 ;; 8) turn=90 ;; esac
  convert curie.jpg -rotate "$turn" -quality 80 "$2"
  exiftool -q -overwrite_original -all= "$2"
  exiftool -q -overwrite_original -n -EXIF:Orientation="$1" "$2"
}

# mwg ORIENTATION [W H]: an MWG RegionInfo value, AppliedToDimensions W x H when given; the boxes measured on the
# stored picture of a photo that ORIENTATION turns (on the upright one for ORIENTATION 1).
mwg() {
  local m p applied=""
  read -r -a m <<< "$(stored "$1" "${MARIE[@]}")"
  read -r -a p <<< "$(stored "$1" "${PIERRE[@]}")"
  [ $# -ge 3 ] && applied="AppliedToDimensions={W=$2,H=$3,Unit=pixel},"
  echo "{${applied}RegionList=[" \
    "{Area={X=${m[0]},Y=${m[1]},W=${m[2]},H=${m[3]},Unit=normalized},Name=Marie Curie,Type=Face}," \
    "{Area={X=${p[0]},Y=${p[1]},W=${p[2]},H=${p[3]},Unit=normalized},Name=Pierre Curie,Type=Face}]}"
}

# mp ORIENTATION: a Microsoft People RegionInfoMP value (Rectangle: left, top, width, height).
mp() {
  local m p
  read -r -a m <<< "$(stored "$1" "${MARIE[@]}")"
  read -r -a p <<< "$(stored "$1" "${PIERRE[@]}")"
  rect() { awk -v x="$1" -v y="$2" -v w="$3" -v h="$4" 'BEGIN { printf "%.6f|, %.6f|, %.6f|, %.6f", x - w / 2, y - h / 2, w, h }'; }
  echo "{Regions=[{PersonDisplayName=Marie Curie,Rectangle=$(rect "${m[@]}")}," \
    "{PersonDisplayName=Pierre Curie,Rectangle=$(rect "${p[@]}")}]}"
}

# iptc ORIENTATION SW SH: IPTC Image Regions of a stored picture SW x SH: Marie's face a rectangle, Pierre's a
# circle round his (its radius a fraction of the width, as IPTC's relative unit says).
iptc() {
  local m p
  read -r -a m <<< "$(stored "$1" "${MARIE[@]}")"
  read -r -a p <<< "$(stored "$1" "${PIERRE[@]}")"
  local face="RCtype=[{Identifier=[http://cv.iptc.org/newscodes/imageregiontype/face]}]"
  awk -v mx="${m[0]}" -v my="${m[1]}" -v mw="${m[2]}" -v mh="${m[3]}" -v px="${p[0]}" -v py="${p[1]}" \
      -v pw="${p[2]}" -v ph="${p[3]}" -v sw="$2" -v sh="$3" -v face="$face" 'BEGIN {
    r = (pw * sw > ph * sh ? pw * sw : ph * sh) / 2 / sw
    printf "[{RegionBoundary={RbShape=rectangle,RbUnit=relative,RbX=%.4f,RbY=%.4f,RbW=%.4f,RbH=%.4f},%s,Name=Marie Curie},", mx - mw / 2, my - mh / 2, mw, mh, face
    printf "{RegionBoundary={RbShape=circle,RbUnit=relative,RbX=%.4f,RbY=%.4f,RbRx=%.4f},%s,Name=Pierre Curie}]", px, py, r, face }'
}

# exiftool writes a new sidecar from nothing, but will not overwrite one.
rm -f curie.[0-9].*

# Embedded MWG regions measured on the stored picture, as MWG says: AppliedToDimensions the stored size (1, 6, 8)
# or absent (3); 8 written as attributes.
picture 1 curie.1.mwg.jpg
exiftool -q -overwrite_original "-XMP-mwg-rs:RegionInfo=$(mwg 1 840 700)" curie.1.mwg.jpg
picture 3 curie.3.mwg.jpg
exiftool -q -overwrite_original "-XMP-mwg-rs:RegionInfo=$(mwg 3)" curie.3.mwg.jpg
picture 6 curie.6.mwg.jpg
exiftool -q -overwrite_original "-XMP-mwg-rs:RegionInfo=$(mwg 6 700 840)" curie.6.mwg.jpg
picture 8 curie.8.mwg.jpg
exiftool -q -overwrite_original -api Compact=Shorthand "-XMP-mwg-rs:RegionInfo=$(mwg 8 700 840)" curie.8.mwg.jpg

# Embedded MWG regions measured on the picture as shown, the convention some photo managers follow (issue 31):
# AppliedToDimensions the upright size, 840x700, over a stored 700x840; the boxes are not turned.
picture 6 curie.6.shown.jpg
exiftool -q -overwrite_original "-XMP-mwg-rs:RegionInfo=$(mwg 1 840 700)" curie.6.shown.jpg
picture 8 curie.8.shown.jpg
exiftool -q -overwrite_original "-XMP-mwg-rs:RegionInfo=$(mwg 1 840 700)" curie.8.shown.jpg

# A square photo (curie.jpg's columns 70...769) says nothing by its AppliedToDimensions: its boxes are measured on
# the stored picture, as MWG says. The faces in its upright picture: Marie's centre 0.344, 0.31, 0.132 x 0.20;
# Pierre's 0.728, 0.24, 0.12 x 0.24.
convert curie.jpg -crop 700x700+70+0 +repage -rotate 270 -quality 80 curie.6.square.jpg
exiftool -q -overwrite_original -all= curie.6.square.jpg
exiftool -q -overwrite_original -n -EXIF:Orientation=6 curie.6.square.jpg
read -r -a m <<< "$(stored 6 0.344 0.31 0.132 0.20)"
read -r -a p <<< "$(stored 6 0.728 0.24 0.12 0.24)"
exiftool -q -overwrite_original "-XMP-mwg-rs:RegionInfo={AppliedToDimensions={W=700,H=700,Unit=pixel},RegionList=[
  {Area={X=${m[0]},Y=${m[1]},W=${m[2]},H=${m[3]},Unit=normalized},Name=Marie Curie,Type=Face},
  {Area={X=${p[0]},Y=${p[1]},W=${p[2]},H=${p[3]},Unit=normalized},Name=Pierre Curie,Type=Face}]}" curie.6.square.jpg

# Embedded Microsoft People regions.
picture 8 curie.8.mp.jpg
exiftool -q -overwrite_original "-XMP-MP:RegionInfoMP=$(mp 8)" curie.8.mp.jpg

# Embedded IPTC Image Regions.
picture 6 curie.6.iptc.jpg
exiftool -q -overwrite_original "-XMP-iptcExt:ImageRegion=$(iptc 6 700 840)" curie.6.iptc.jpg

# Sidecars: the photo keeps its orientation and its own caption and date; the sidecar has the regions and a
# caption and date that win. darktable's and digiKam's name (IMG.jpg.xmp), then Lightroom's (IMG.xmp).
picture 6 curie.6.sidecar.jpg
exiftool -q -overwrite_original -EXIF:ImageDescription="the photo's own description" \
  -EXIF:DateTimeOriginal="2001:01:01 12:00:00" curie.6.sidecar.jpg
exiftool -q "-XMP-mwg-rs:RegionInfo=$(mwg 6 700 840)" -XMP-tiff:Orientation#=6 \
  -XMP-dc:Description="Pierre and Marie Curie in their laboratory" \
  -XMP-exif:DateTimeOriginal="1904:06:01 10:30:00" curie.6.sidecar.jpg.xmp
picture 3 curie.3.mp.jpg
exiftool -q -overwrite_original -EXIF:DateTimeOriginal="2001:01:01 12:00:00" curie.3.mp.jpg
exiftool -q "-XMP-MP:RegionInfoMP=$(mp 3)" -XMP-dc:Title="The Curies" \
  -XMP-photoshop:DateCreated="1904:06:02 09:15:00+01:00" curie.3.mp.xmp

# Boxes that cannot be used beside one that can: outside the picture, and empty.
picture 1 curie.1.bad.jpg
exiftool -q -overwrite_original "-XMP-mwg-rs:RegionInfo={RegionList=[
  {Area={X=0.37,Y=0.31,W=0.11,H=0.20,Unit=normalized},Name=Marie Curie,Type=Face},
  {Area={X=1.60,Y=0.24,W=0.10,H=0.24,Unit=normalized},Name=Outside,Type=Face},
  {Area={X=0.50,Y=0.50,W=0,H=0,Unit=normalized},Name=Empty,Type=Face}]}" curie.1.bad.jpg
