#!/bin/bash
# Writes the off-centre subject photos from the scikit-image samples in $SRC (see README.md); ImageMagick 6.9.
set -euo pipefail
# SRC: a folder holding the scikit-image samples named in README.md and ../face-regions/curie.jpg.
SRC=${SRC:?set SRC to the folder of source pictures}
OUT=$(cd "$(dirname "$0")" && pwd)
q="-quality 85 -sampling-factor 2x2 -strip"

# Real photos, cropped as a photographer might have framed them: the subject left or right of the centre.
convert "$SRC/coffee.png" -crop 520x400+80+0 +repage $q "$OUT/coffee.jpg"
convert "$SRC/rocket.jpg" -crop 380x317+260+110 +repage $q "$OUT/rocket.jpg"
convert "$SRC/astronaut.png" -crop 452x300+60+0 +repage $q "$OUT/astronaut.jpg"
convert "$SRC/camera.png" -crop 412x280+100+20 +repage -colorspace sRGB -type TrueColor $q "$OUT/camera.jpg"
convert "$SRC/curie.jpg" -crop 610x700+230+0 +repage -colorspace sRGB -type TrueColor $q "$OUT/curie.jpg"

# Scenes: a CC0 texture (grass, gravel, brick) coloured as the real thing, a subject cut from one of the photos
# above (or the horse silhouette) set off the centre with a soft edge, so its outline is no sharper than a photo's.
background() { # TEXTURE DARK LIGHT OUT
  convert "$SRC/$1" -resize 600x600^ -gravity center -crop 600x400+0+0 +repage -colorspace sRGB -type TrueColor \
    +level-colors "$2,$3" "$4"
}
subject() { # BACKGROUND PATCH X Y OUT: PATCH over BACKGROUND at X, Y, its edge blurred over 6 pixels
  local size
  size=$(identify -format '%wx%h' "$2")
  convert "$2" \( -size "$size" xc:black -fill white -draw "rectangle 8,8 $(( ${size%x*} - 9 )),$(( ${size#*x} - 9 ))" \
    -blur 0x4 \) -alpha off -compose CopyOpacity -composite /tmp/patch-$$.png
  convert "$1" /tmp/patch-$$.png -geometry "+$3+$4" -compose over -composite $q "$5"
  rm -f /tmp/patch-$$.png
}
T=$(mktemp -d)
background grass.png '#1d2e0f' '#9cbf62' "$T/grass.png"
background gravel.png '#4a4036' '#d9cbb4' "$T/gravel.png"
background brick.png '#3b2a25' '#b89a8c' "$T/brick.png"
background grass.png '#202020' '#b0b0b0' "$T/grass-grey.png"
background gravel.png '#303030' '#c8c8c8' "$T/gravel-grey.png"

convert "$SRC/chelsea.png" -crop 230x180+125+75 +repage -resize 180x141! "$T/cat.png"
subject "$T/grass.png" "$T/cat.png" 30 130 "$OUT/grass-cat.jpg"
convert "$SRC/coffee.png" -crop 250x300+165+10 +repage -resize 150x180! "$T/cup.png"
subject "$T/gravel.png" "$T/cup.png" 420 110 "$OUT/gravel-cup.jpg"
convert "$SRC/astronaut.png" -crop 170x170+140+5 +repage -resize 140x140! "$T/face.png"
subject "$T/brick.png" "$T/face.png" 440 40 "$OUT/brick-face.jpg"
convert "$SRC/camera.png" -crop 190x150+148+55 +repage -colorspace sRGB -type TrueColor "$T/cameraman.png"
subject "$T/gravel-grey.png" "$T/cameraman.png" 390 210 "$OUT/gravel-cameraman.jpg"
# The horse is a black silhouette on white: only its black is laid on the grass.
convert "$SRC/horse.png" -resize 200x164! -colorspace sRGB -type TrueColor "$T/horse.png"
convert "$T/grass-grey.png" \( "$T/horse.png" -negate -alpha copy -fill black -colorize 100 \) -geometry +20+200 \
  -compose over -composite $q "$OUT/grass-horse.jpg"
rm -rf "$T"
