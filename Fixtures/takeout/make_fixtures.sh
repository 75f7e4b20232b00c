#!/bin/bash
# Writes a small Google Photos Takeout export (see README.md) from ../face-regions/curie.jpg: a year folder and an
# album holding one of its photos again, byte for byte, each photo with the JSON Takeout writes beside it (old and
# new names, copy counters, a name cut short, an edited copy without one). Run from anywhere; needs ImageMagick
# (convert) and exiftool (ImageMagick 6.9 and exiftool 12.57 made them).
set -euo pipefail
cd "$(dirname "$0")"
rm -rf Takeout
YEAR="Takeout/Google Photos/Photos from 2019"
ALBUM="Takeout/Google Photos/Trip to Paris"
mkdir -p "$YEAR" "$ALBUM"

# photo OUT [CONVERT OPTIONS...]: curie.jpg made small (and changed by OPTIONS), with no metadata at all.
photo() {
  local out="$1"; shift
  convert ../face-regions/curie.jpg -resize 280x "$@" -quality 80 "$out"
  exiftool -q -overwrite_original -all= "$out"
}

# json OUT TITLE SECONDS DESCRIPTION: a photo's JSON as Takeout writes it (fields it always has; the times as
# strings of UTC seconds).
json() {
  cat > "$1" <<JSON
{
  "title": "$2",
  "description": "$4",
  "imageViews": "3",
  "creationTime": {
    "timestamp": "1600000000",
    "formatted": "13 Sept 2020, 12:26:40 UTC"
  },
  "photoTakenTime": {
    "timestamp": "$3",
    "formatted": "(not read)"
  },
  "geoData": { "latitude": 0.0, "longitude": 0.0, "altitude": 0.0, "latitudeSpan": 0.0, "longitudeSpan": 0.0 },
  "url": "https://photos.google.com/photo/AF1Qip",
  "googlePhotosOrigin": { "mobileUpload": { "deviceType": "ANDROID_PHONE" } }
}
JSON
}

# No date of its own: the JSON's 2019-06-01 10:00 UTC and its caption.
photo "$YEAR/IMG_0001.jpg"
json "$YEAR/IMG_0001.jpg.json" IMG_0001.jpg 1559383200 "Marie and Pierre in the laboratory"
# Another upload of the same name: Takeout numbers the photo and moves the counter behind the JSON's ".jpg".
photo "$YEAR/IMG_0001(1).jpg" -flop
json "$YEAR/IMG_0001.jpg(1).json" IMG_0001.jpg 1559379600 ""
# Its own EXIF date (2019-05-01 12:00, no offset) and ImageDescription: the date wins over the JSON's 2019-07-01,
# the JSON's description over the ImageDescription. A newer export's name.
photo "$YEAR/IMG_0002.jpg" -colorspace Gray
exiftool -q -overwrite_original -EXIF:DateTimeOriginal="2019:05:01 12:00:00" \
  -EXIF:ImageDescription="From the camera" "$YEAR/IMG_0002.jpg"
json "$YEAR/IMG_0002.jpg.supplemental-metadata.json" IMG_0002.jpg 1561982400 "The laboratory in May"
# Edited in Google Photos: no JSON of its own, its original's (so 2019-07-01 12:00 UTC).
photo "$YEAR/IMG_0002-edited.jpg" -colorspace Gray -negate
# The newer names with a counter: "(1)" after the cut ".supplemental-metadata".
photo "$YEAR/IMG_0003.jpg" -rotate 180
json "$YEAR/IMG_0003.jpg.supplemental-metadata.json" IMG_0003.jpg 1554105600 ""
photo "$YEAR/IMG_0003(1).jpg" -rotate 180 -flop
json "$YEAR/IMG_0003.jpg.supplemental-metadata(1).json" IMG_0003.jpg 1554107400 ""
# A long name: the JSON's name is cut to 46 characters before ".json", into the photo's own name.
LONG="Marie and Pierre Curie in their laboratory in Paris.jpg"
photo "$YEAR/$LONG" -crop 200x200+40+0
json "$YEAR/Marie and Pierre Curie in their laboratory in .json" "$LONG" 1564682400 "Paris, 1904"

# The album holds IMG_0001.jpg again, the same bytes and JSON, and the album's own metadata.json.
cp "$YEAR/IMG_0001.jpg" "$YEAR/IMG_0001.jpg.json" "$ALBUM/"
cat > "$ALBUM/metadata.json" <<JSON
{
  "title": "Trip to Paris",
  "description": "",
  "access": "protected",
  "date": { "timestamp": "1559383200", "formatted": "1 Jun 2019, 10:00:00 UTC" }
}
JSON

# The two files of one shot, beside a phone's HEIC (../heif/metadata-extractor-images/iphone-xr.heic, 4032x3024,
# Apple iPhone XR, 2019:08:21 11:21:36.245; copied beside them by the tests as IMG_1234.HEIC): its JPEG, smaller,
# with the same camera and time; the next photo of a burst (a thousandth of a second later); and a photo of the
# same camera and second that says no fraction of it, which cannot be told from a burst's.
rm -rf shots
mkdir -p shots
shot() {
  photo "shots/$1"
  exiftool -q -overwrite_original -EXIF:Make=Apple -EXIF:Model="iPhone XR" \
    -EXIF:DateTimeOriginal="2019:08:21 11:21:36" "${@:2}" "shots/$1"
}
shot IMG_1234.JPG -EXIF:SubSecTimeOriginal=245
shot IMG_1235.JPG -EXIF:SubSecTimeOriginal=246
shot IMG_1236.JPG
