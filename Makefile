# photobook: `make demo` and `make test` do all the set-up on a fresh Debian 12 machine with Swift 6.2 or later.

SWIFT    ?= swift
PREFIX   ?= /usr/local
BIN      := .build/release/photobook
SUDO     := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Tests are ordered by signals, never by time, but a test that hangs must still end the run.
TEST_TIMEOUT ?= 2400
# SwiftPM leaves folders of its own (TemporaryDirectory.*) and lock files in $TMPDIR on every run: they go to
# .build/tmp, so that a clone's make demo and make test leave nothing in /tmp (make clean removes it).
SWIFT_TMPDIR := $(CURDIR)/.build/tmp
export TMPDIR := $(SWIFT_TMPDIR)
$(shell mkdir -p $(SWIFT_TMPDIR))

.PHONY: all deps test-deps build harness test demo install docs clean

all: build

# Installs the Debian packages whose headers are missing (through sudo when not root). Without recommends:
# libavcodec-dev's would bring Mesa and every VA-API driver, none of which a build uses. The fonts: DejaVu Sans is
# the book's; Noto Sans CJK (Chinese, Japanese, Korean) and Noto's core fonts (Devanagari, Thai, and most other
# scripts) draw what DejaVu lacks, found through fontconfig.
deps:
	@missing=""; \
	[ -f /usr/include/jpeglib.h ] || [ -f /usr/include/x86_64-linux-gnu/jpeglib.h ] || [ -f /usr/include/$$(gcc -dumpmachine 2>/dev/null)/jpeglib.h ] || missing="$$missing libjpeg-dev"; \
	[ -f /usr/include/png.h ] || missing="$$missing libpng-dev"; \
	[ -f /usr/include/hpdf.h ] || missing="$$missing libhpdf-dev"; \
	arch=$$(gcc -dumpmachine 2>/dev/null); \
	[ -f /usr/include/libheif/heif.h ] || [ -f /usr/include/$$arch/libheif/heif.h ] || missing="$$missing libheif-dev"; \
	[ -f /usr/include/$$arch/libavcodec/avcodec.h ] || [ -f /usr/include/libavcodec/avcodec.h ] || missing="$$missing libavcodec-dev"; \
	[ -f /usr/include/dav1d/dav1d.h ] || missing="$$missing libdav1d-dev"; \
	[ -f /usr/include/webp/demux.h ] || missing="$$missing libwebp-dev"; \
	[ -f /usr/include/tiffio.h ] || [ -f /usr/include/$$arch/tiffio.h ] || missing="$$missing libtiff-dev"; \
	[ -f /usr/include/gif_lib.h ] || missing="$$missing libgif-dev"; \
	[ -f /usr/include/libraw/libraw.h ] || missing="$$missing libraw-dev"; \
	[ -f /usr/include/lcms2.h ] || missing="$$missing liblcms2-dev"; \
	[ -f /usr/include/harfbuzz/hb-subset.h ] || missing="$$missing libharfbuzz-dev"; \
	[ -f /usr/include/unicode/ubrk.h ] || missing="$$missing libicu-dev"; \
	[ -f /usr/include/fontconfig/fontconfig.h ] || missing="$$missing libfontconfig-dev"; \
	[ -f /usr/include/jxl/decode.h ] || missing="$$missing libjxl-dev"; \
	[ -f /usr/include/openjpeg-2.5/openjpeg.h ] || missing="$$missing libopenjp2-7-dev"; \
	[ -f /usr/include/microhttpd.h ] || missing="$$missing libmicrohttpd-dev"; \
	[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || missing="$$missing fonts-dejavu-core"; \
	[ -f /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc ] || missing="$$missing fonts-noto-cjk"; \
	[ -f /usr/share/fonts/truetype/noto/NotoSansThai-Regular.ttf ] || missing="$$missing fonts-noto-core"; \
	[ -f /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ] || missing="$$missing fonts-noto-color-emoji"; \
	[ -f /usr/include/zlib.h ] || missing="$$missing zlib1g-dev"; \
	command -v pkg-config >/dev/null || missing="$$missing pkg-config"; \
	if [ -n "$$missing" ]; then \
	  echo "installing$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi

# Every program a test runs. The end-to-end tests name /usr/bin/... paths, so those are what is checked; for
# /usr/bin/time (the peak-memory probe) `command -v time` would not do: in bash it finds the keyword and succeeds.
# The tmpfs tests need mount and umount (and root), the install test /usr/bin/make; bash, setpriv, sha256sum and
# timeout are in essential packages. The colour tests embed Ghostscript's ICC profiles (Adobe RGB, CMYK, grey)
# and render with gs, the colour-managing reader at hand (Debian's MuPDF has no ICC support).
# The PDF/X tests read books back with python3-pikepdf (qpdf's Python binding), a reader that is not ours.
# The report tests validate reports against docs/report.schema.json with python3-jsonschema, a validator that is
# not ours; the progress tests get a terminal from script(1), in bsdutils, an essential package. strace counts
# how often a build opens each photo (OpenCountTests). The font tests embed a CID-keyed CFF collection (Noto Sans
# CJK), a TrueType collection (WenQuanYi Zen Hei: also what fontconfig wrongly answers for Japanese) and a
# name-keyed CFF (Nimbus Sans, from fonts-urw-base35, which Ghostscript brings anyway). The fallback tests
# (WordsTests) find Devanagari and Thai in fonts-noto-core and check that Noto Color Emoji (bitmaps) is passed over.
# The shaping tests compare with hb-shape and hb-view (libharfbuzz-bin): HarfBuzz's own tools on the same fonts.
# TextBreaksTests compare ICU's bidi order with fribidi(1)'s (libfribidi-bin), a UAX #9 that shares no code with ICU.
# The shaped-text tests read the PDF back with MuPDF's mutool (mupdf-tools) too: a second extractor, not poppler.
# BMPTests compare with netpbm's bmptopnm where ImageMagick refuses a BMP Suite file (a 2-bit palette).
# The JPEG XL and JPEG 2000 tests compare with libjxl's djxl and OpenJPEG's opj_decompress (libjxl-tools,
# libopenjp2-tools), and make files with cjxl and opj_compress.
test-deps: deps
	@missing=""; \
	for tool in pdfinfo pdfimages pdftoppm pdftocairo; do \
	  [ -x /usr/bin/$$tool ] || { missing="$$missing poppler-utils"; break; }; \
	done; \
	[ -x /usr/bin/qpdf ] || missing="$$missing qpdf"; \
	/usr/bin/python3 -c 'import pikepdf' 2>/dev/null || missing="$$missing python3-pikepdf"; \
	/usr/bin/python3 -c 'import png' 2>/dev/null || missing="$$missing python3-png"; \
	/usr/bin/python3 -c 'import jsonschema' 2>/dev/null || missing="$$missing python3-jsonschema"; \
	command -v djpeg >/dev/null || missing="$$missing libjpeg-turbo-progs"; \
	command -v dcraw_emu >/dev/null || missing="$$missing libraw-bin"; \
	/usr/bin/convert -version 2>/dev/null | grep -q ImageMagick || missing="$$missing imagemagick"; \
	[ -f /usr/share/color/icc/ghostscript/a98.icc ] || missing="$$missing libgs-common"; \
	[ -x /usr/bin/gs ] || missing="$$missing ghostscript"; \
	[ -x /usr/bin/man ] || missing="$$missing man-db"; \
	[ -x /usr/bin/groff ] || missing="$$missing groff-base"; \
	[ -x /usr/bin/zsh ] || missing="$$missing zsh"; \
	[ -x /usr/bin/fish ] || missing="$$missing fish"; \
	[ -x /usr/bin/time ] || missing="$$missing time"; \
	[ -x /usr/bin/strace ] || missing="$$missing strace"; \
	[ -f /usr/share/fonts/truetype/wqy/wqy-zenhei.ttc ] || missing="$$missing fonts-wqy-zenhei"; \
	[ -f /usr/share/fonts/opentype/urw-base35/NimbusSans-Regular.otf ] || missing="$$missing fonts-urw-base35"; \
	{ [ -x /usr/bin/hb-shape ] && [ -x /usr/bin/hb-view ]; } || missing="$$missing libharfbuzz-bin"; \
	[ -x /usr/bin/fribidi ] || missing="$$missing libfribidi-bin"; \
	[ -x /usr/bin/mutool ] || missing="$$missing mupdf-tools"; \
	{ [ -x /usr/bin/djxl ] && [ -x /usr/bin/cjxl ]; } || missing="$$missing libjxl-tools"; \
	{ [ -x /usr/bin/opj_decompress ] && [ -x /usr/bin/opj_compress ]; } || missing="$$missing libopenjp2-tools"; \
	{ [ -x /usr/bin/mount ] && [ -x /usr/bin/umount ]; } || missing="$$missing mount"; \
	[ -x /usr/bin/make ] || missing="$$missing make"; \
	{ [ -x /usr/bin/heif-convert ] && [ -x /usr/bin/heif-enc ]; } || missing="$$missing libheif-examples"; \
	{ [ -x /usr/bin/cwebp ] && [ -x /usr/bin/dwebp ] && [ -x /usr/bin/webpmux ]; } || missing="$$missing webp"; \
	{ [ -x /usr/bin/tiff2rgba ] && [ -x /usr/bin/tiffcp ]; } || missing="$$missing libtiff-tools"; \
	[ -x /usr/bin/exiftool ] || missing="$$missing libimage-exiftool-perl"; \
	{ [ -x /usr/bin/bmptopnm ] && [ -x /usr/bin/ppmtoppm ]; } || missing="$$missing netpbm"; \
	/usr/bin/python3 -c 'import PIL' 2>/dev/null || missing="$$missing python3-pil"; \
	{ [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; } || missing="$$missing chromium chromium-driver"; \
	/usr/bin/python3 -c 'import selenium' 2>/dev/null || missing="$$missing python3-selenium"; \
	if [ -n "$$missing" ]; then \
	  echo "installing$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

build: deps
	$(SWIFT) build -c release --product photobook

# photobook with the test and benchmark switches (Sources/photobook-harness), for `make test` and `make bench`;
# never installed.
HARNESS := .build/release/photobook-harness
harness: build
	$(SWIFT) build -c release --product photobook-harness

# The whole suite (end-to-end tests run the release binary, as a user would), the editor driven by headless
# Chromium (Tests/editor), then the concurrency tests again under ThreadSanitizer.
# Tests that measure the whole process (its peak memory, its threads) run after the rest, one suite at a time:
# beside other suites they would count those suites' memory and threads too. (Buffer pools are not the process's:
# each test counts the reuse of pools of its own.)
# The hang guard covers the tests only, never the build (a debug build takes ten minutes on a loaded machine),
# and says so when it fires. Every test's temporary files go to a folder of the run's own, removed at the end,
# so a run leaves nothing in /tmp, not even when a test is killed.
ALONE_TESTS := TIFFMemoryTests HEIFThreadTests
ALONE_PATTERN := $(subst $(eval) ,|,$(ALONE_TESTS))
TEST_TMPDIR := $(CURDIR)/.build/test-tmp
# `guarded NAME COMMAND...`: runs COMMAND under the hang guard and names a run that the guard ended.
GUARDED = guarded() { name=$$1; shift; timeout $(TEST_TIMEOUT) "$$@"; status=$$?; \
	  if [ $$status = 124 ]; then echo "make: $$name timed out after $(TEST_TIMEOUT) s (TEST_TIMEOUT)" >&2; fi; \
	  return $$status; }
test: test-deps build harness
	$(SWIFT) build --build-tests
	@rm -rf $(TEST_TMPDIR) && mkdir -p $(TEST_TMPDIR)
	@$(GUARDED); trap 'rm -rf $(TEST_TMPDIR)' EXIT; export TMPDIR=$(TEST_TMPDIR); \
	  export PHOTOBOOK_BIN=$(CURDIR)/$(BIN); set -x; guarded "the test suite" $(SWIFT) test --skip-build --skip '$(ALONE_PATTERN)' || exit $$?; \
	  for suite in $(ALONE_TESTS); do guarded "$$suite" $(SWIFT) test --skip-build --filter "$$suite" || exit $$?; done; \
	  guarded "the editor in a browser" /usr/bin/python3 -m unittest -v Tests/editor/test_editor.py || exit $$?
	$(MAKE) tsan

# Sample books from the photos in Fixtures/: one photo per page shown whole, a contact sheet, the automatic
# layout with a title page, captions, sections and page numbers, a print-ready one with bleed, crop marks and
# facing pages, and its wrap cover. The fixtures are web-sized (1200 px a side), so the books are small squares
# (14 cm) where every photo reaches the 300 dpi asked for, and the cover, whose panels take a photo whole, asks
# for the 200 dpi print shops want: a sample run warns of nothing.
DEMO_BOOKS := demo.pdf demo-grid.pdf demo-auto.pdf demo-print.pdf demo-cover.pdf demo-words.pdf demo-words-cover.pdf
DEMO_PHOTOS := Fixtures/exif-orientation
demo: build
	$(BIN) build $(DEMO_PHOTOS) -o demo.pdf --page-size 14x14cm --fit fit
	$(BIN) build $(DEMO_PHOTOS) -o demo-grid.pdf --layout "grid 3x4"
	$(BIN) build $(DEMO_PHOTOS) -o demo-auto.pdf --layout auto --page-size 14x14cm \
	  --title "photobook" --subtitle "a sample book" --cover-photo $(DEMO_PHOTOS)/Landscape_1.jpg \
	  --captions name --sections folder --page-numbers
	$(BIN) build $(DEMO_PHOTOS) -o demo-print.pdf --layout auto --page-size 14x14cm \
	  --margin 0 --bleed 3mm --crop-marks --binding 8mm --pad-to 4 --page-numbers
	$(BIN) cover $(DEMO_PHOTOS)/Landscape_1.jpg $(DEMO_PHOTOS)/Portrait_1.jpg -o demo-cover.pdf \
	  --page-size 14x14cm --bleed 3mm --interior-pages 120 --paper-ppi 444 --dpi 200 --title "photobook" --author "Fixtures"
	$(BIN) build Fixtures/words/book.json -o demo-words.pdf
	$(BIN) cover $(DEMO_PHOTOS)/Landscape_1.jpg $(DEMO_PHOTOS)/Portrait_1.jpg -o demo-words-cover.pdf \
	  --page-size 14x14cm --bleed 3mm --spine 12mm --dpi 200 --title "旅の記録「二〇二六」" --author "山田太郎" --lang ja
	@echo "open demo.pdf, demo-grid.pdf and demo-auto.pdf to see the sample books, demo-print.pdf for one with bleed,"
	@echo "crop marks and facing pages, demo-cover.pdf for its wrap cover, demo-words.pdf for captions in ten"
	@echo "languages and demo-words-cover.pdf for a Japanese spine (make clean removes all seven)"

# The binary, the man page, the completion scripts and the default PDF/X output profile (which the binary looks
# for in ../share/photobook beside itself), under PREFIX (and DESTDIR, for packaging).
MANDIR ?= $(PREFIX)/share/man
install: build
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(MANDIR)/man1 \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions \
	  $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d $(DESTDIR)$(PREFIX)/share/photobook
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/photobook
	install -m 644 docs/photobook.1 $(DESTDIR)$(MANDIR)/man1/photobook.1
	install -m 644 completions/photobook.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/photobook
	install -m 644 completions/_photobook $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_photobook
	install -m 644 completions/photobook.fish $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/photobook.fish
	install -m 644 Resources/FOGRA39L-photobook.icc $(DESTDIR)$(PREFIX)/share/photobook/FOGRA39L-photobook.icc

# Writes again, from the option table in the binary, the documents kept in the repository: the man page, the
# completion scripts and the README's options table. A test fails when they differ from the table.
docs: build
	$(BIN) docs man > docs/photobook.1
	$(BIN) docs bash > completions/photobook.bash
	$(BIN) docs zsh > completions/_photobook
	$(BIN) docs fish > completions/photobook.fish
	$(BIN) docs readme > .build/readme-options.md
	awk -v table=.build/readme-options.md \
	  'index($$0, "<!-- options:") == 1 { while ((getline line < table) > 0) print line; skip = 1; next } \
	   skip && index($$0, "<!-- end of options -->") == 1 { skip = 0; next } !skip' README.md > README.md.new
	mv README.md.new README.md

clean:
	$(SWIFT) package clean
	rm -rf $(DEMO_BOOKS) $(SWIFT_TMPDIR)

# Further targets live in their own files: tsan and asan (mk/sanitizers.mk, mk/asan.mk), fuzz and fuzz-smoke
# (mk/fuzz.mk, see Fuzz/README.md), bench (mk/bench.mk, see Bench/).
-include mk/*.mk
