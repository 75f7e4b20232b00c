# Benchmark: `make bench` times photobook on a generated corpus of 12-megapixel photos, and the hand-made
# vipsthumbnail + img2pdf pipeline beside it. Figures are printed, not asserted. See Bench/bench.py.
#   BENCH_RUNS=3 BENCH_RUNS_96=2 BENCH_IMAGEMAGICK=1 make bench
# It also times a dry run of the 96 photos (headers and plan only) against their build, 24 HEICs (made once with
# heif-enc, .bench/heic-v1/) and the same photos as a phone's grids of 512x512 tiles (.bench/heic-grid-v1/, muxed by
# Bench/heic_grid.py), each beside vipsthumbnail + img2pdf on them with heif-convert's decode floor, and a 2x2 grid
# of WebPs (cwebp, .bench/webp-v1-96/); a case photobook cannot build yet is printed as failed.
# BENCH_BUILD=0 uses the binaries in .build/release as they are (while another build of the tree runs).
# BENCH_SCRATCH=DIR builds and takes the binaries from SwiftPM's scratch path DIR (a second work tree), and
# BENCH_WORK=DIR keeps the corpus, the sets and the outputs in DIR instead of .bench/.
# BENCH_ONLY=words (also in a full run): issue 33, the 96 photos with a caption each in 11 scripts (sidecars, made in
# .bench/words-96/), built with --report: the share of the build its text work takes (timings.text), at most 5%.
# BENCH_ONLY=choose (also in a full run; Bench/bench_choose.py): issue 31, a 24-page book chosen from a trip of 500
# 12-MP photos (photobook-corpus --trip: bursts, blurred, dark and blown photos, screenshots, documents, ratings; 1 in
# 5 made HEIC with heif-enc -t 320; made once, .bench/trip-v1-500/ and .bench/choose-v1-500/): --dry-run against
# vipsthumbnail --size 256 of the same files, its peak memory, the build against a build of the chosen photos alone,
# and the choice against the trip's TRUTH.json. BENCH_CHOOSE_COUNT=60 makes a small trip for a quick look;
# BENCH_CHOOSE_PAGES=24 the pages asked.
#   BENCH_ONLY=choose BENCH_CHOOSE_COUNT=60 make bench
# It ends with the memory figures of `make bench-memory` (an 800-photo book against a 24-photo one, issue 14; some
# minutes and a few GB of disk in .bench/): BENCH_MEMORY=0 leaves them out. See Bench/bench_memory.py.

# Bench/same_books.sh OLD NEW: the same 23 books (demo, fixtures, a corpus, a chosen trip, corrupt photos, caption
# sidecars) built by two binaries and compared byte for byte, for a change that must not change what a user sees.

BENCH_PYTHON ?= $(shell command -v /usr/bin/python3 || command -v python3)

.PHONY: bench bench-deps bench-memory

# The comparison's tools, and those that make the HEIC and WebP photos from the corpus (heif-enc and heif-convert,
# libheif 1.15, for the HEIC case and its decode floor; cwebp for the WebP grid; avifenc for the 20-megapixel
# 10-bit AVIFs of bench-memory, which heif-enc's aom cannot write; cjxl for the JPEG XL case, numpy for
# Bench/raw_dng.py's DNGs and dcraw_emu for their decode floor); the benchmark still runs
# (photobook alone, without the cases whose tools are missing) when they cannot be installed.
bench-deps:
	@missing=""; \
	command -v vipsthumbnail >/dev/null || missing="$$missing libvips-tools"; \
	command -v img2pdf >/dev/null || missing="$$missing img2pdf"; \
	command -v heif-enc >/dev/null && command -v heif-convert >/dev/null || missing="$$missing libheif-examples"; \
	command -v cwebp >/dev/null || missing="$$missing webp"; \
	command -v avifenc >/dev/null || missing="$$missing libavif-bin"; \
	command -v cjxl >/dev/null || missing="$$missing libjxl-tools"; \
	command -v dcraw_emu >/dev/null || missing="$$missing libraw-bin"; \
	/usr/bin/python3 -c "import numpy" 2>/dev/null || missing="$$missing python3-numpy"; \
	if [ "$(BENCH_IMAGEMAGICK)" = 1 ]; then command -v mogrify >/dev/null || missing="$$missing imagemagick"; fi; \
	if [ -n "$$missing" ]; then \
	  echo "installing$$missing (for the comparison)"; \
	  { $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; } \
	    || echo "could not install$$missing: the comparison will be skipped"; \
	fi

bench: deps bench-deps
	SWIFT=$(SWIFT) BENCH_IMAGEMAGICK=$(BENCH_IMAGEMAGICK) $(BENCH_PYTHON) Bench/bench.py

bench-memory: deps bench-deps
	SWIFT=$(SWIFT) $(BENCH_PYTHON) Bench/bench_memory.py
