# photobook: `make demo` and `make test` do all the set-up on a fresh Debian 12 machine with Swift 6.

SWIFT    ?= swift
PREFIX   ?= /usr/local
BIN      := .build/release/photobook
SUDO     := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Tests are ordered by signals, never by time, but a test that hangs must still end the run.
TEST_TIMEOUT ?= 2400

# The C libraries photobook links, and the tools the tests use to look at its output as a person would.
BUILD_PACKAGES := libjpeg-dev libpng-dev libhpdf-dev pkg-config
TEST_PACKAGES  := poppler-utils qpdf python3-png libjpeg-turbo-progs imagemagick

.PHONY: all deps test-deps build test demo install clean

all: build

# Installs the Debian packages whose headers are missing (through sudo when not root).
deps:
	@missing=""; \
	[ -f /usr/include/jpeglib.h ] || [ -f /usr/include/x86_64-linux-gnu/jpeglib.h ] || [ -f /usr/include/$$(gcc -dumpmachine 2>/dev/null)/jpeglib.h ] || missing="$$missing libjpeg-dev"; \
	[ -f /usr/include/png.h ] || missing="$$missing libpng-dev"; \
	[ -f /usr/include/hpdf.h ] || missing="$$missing libhpdf-dev"; \
	command -v pkg-config >/dev/null || missing="$$missing pkg-config"; \
	if [ -n "$$missing" ]; then \
	  echo "installing$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

test-deps: deps
	@missing=""; \
	command -v pdfinfo >/dev/null || missing="$$missing poppler-utils"; \
	command -v qpdf >/dev/null || missing="$$missing qpdf"; \
	/usr/bin/python3 -c 'import png' 2>/dev/null || missing="$$missing python3-png"; \
	command -v djpeg >/dev/null || missing="$$missing libjpeg-turbo-progs"; \
	command -v convert >/dev/null && convert -version 2>/dev/null | grep -q ImageMagick || missing="$$missing imagemagick"; \
	if [ -n "$$missing" ]; then \
	  echo "installing$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

build: deps
	$(SWIFT) build -c release --product photobook

# The whole suite (end-to-end tests run the release binary, as a user would), then the concurrency tests
# again under ThreadSanitizer.
test: test-deps build
	PHOTOBOOK_BIN=$(CURDIR)/$(BIN) timeout $(TEST_TIMEOUT) $(SWIFT) test
	$(MAKE) tsan

demo: build
	$(BIN) build Fixtures/exif-orientation Fixtures/cmyk-jpeg -o demo.pdf --page-size a5 --fit fit
	@echo "open demo.pdf to see the sample book"

install: build
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/photobook

clean:
	$(SWIFT) package clean
	rm -f demo.pdf

# Further targets live in their own files: tsan and asan (mk/sanitizers.mk, mk/asan.mk), fuzz and fuzz-smoke
# (mk/fuzz.mk, see Fuzz/README.md), bench (mk/bench.mk, see Bench/).
-include mk/*.mk
