#!/bin/sh
# Makes Resources/FOGRA39L-photobook.icc, the CMYK output profile photobook's PDF/X books carry by default, from
# the FOGRA39L measurement data Debian ships in icc-profiles-free (zlib licence), with ArgyllCMS's colprof
# (Debian's argyll). Run from the repository's root; it installs both packages when they are missing (as root).
# See docs/research/pdfx.md for why this profile and these settings.
set -eu
missing=""
[ -f /usr/share/color/icc/FOGRA39L.ti3 ] || missing="$missing icc-profiles-free"
command -v colprof >/dev/null || missing="$missing argyll"
if [ -n "$missing" ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp /usr/share/color/icc/FOGRA39L.ti3 "$work/"
# -qm: medium table resolution; -kr: Argyll's default black generation ("r": ramp); -l300: FOGRA39's total ink
# limit of 300 % (ISO 12647-2 coated paper); -L95: at most 95 % black.
(cd "$work" && colprof -v -qm -kr -l300 -L95 -A "photobook" \
  -D "Based on FOGRA39 (coated paper, ISO 12647-2): photobook build from icc-profiles-free FOGRA39L.ti3" \
  -C "Zlib licence: measurement data (c) Kai-Uwe Behrmann, icc-profiles-free; profile made with ArgyllCMS colprof" \
  -O FOGRA39L-photobook.icc FOGRA39L)
mkdir -p Resources
cp "$work/FOGRA39L-photobook.icc" Resources/FOGRA39L-photobook.icc
echo "wrote Resources/FOGRA39L-photobook.icc"
