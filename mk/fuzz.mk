# Fuzzing with libFuzzer: `make fuzz` (FUZZ_SECONDS per fuzzer) and `make fuzz-smoke` (a short run for CI).
#
# SwiftPM cannot give one target sanitizer flags of its own, so each fuzzer is built here with swiftc and clang
# from the toolchain: every module it needs is compiled (instrumented for coverage and AddressSanitizer) into
# .build/fuzz, then linked with its Fuzz/<Name>Fuzzer.swift entry point. A crash, leak or timeout fails the
# make and leaves the input that caused it in .build/fuzz/artifacts/<name>/; replay it with
# `.build/fuzz/<name> FILE`.

FUZZ_SECONDS       ?= 60
FUZZ_SMOKE_SECONDS ?= 15
# More libFuzzer options, e.g. FUZZ_FLAGS=-jobs=2 or FUZZ_FLAGS=-only_ascii=1.
FUZZ_FLAGS         ?=
FUZZERS            := exif xmp jpeg png heif webp tiff gif bmp raw jxl jp2

FUZZ_DIR     := .build/fuzz
FUZZ_SWIFTC  ?= $(shell command -v swiftc)
FUZZ_CLANG   ?= $(dir $(FUZZ_SWIFTC))clang
# Instrumentation only: each module's optimisation and warning flags are the shipped binary's (see below).
# Its own clang module cache: the shared one (~/.cache/clang) does not notice a header added to an umbrella
# directory (Sources/C*Shim/include) and then hides the new header's functions; `rm -rf .build` clears this one.
FUZZ_SWIFTFLAGS := -sanitize=fuzzer,address -g -swift-version 6 -parse-as-library \
                   -module-cache-path $(FUZZ_DIR)/module-cache \
                   -I $(FUZZ_DIR)/modules -I Sources/CJPEG -I Sources/CPNG -I Sources/CHEIF -I Sources/CWebP -I Sources/CTIFF -I Sources/CGIF -I Sources/CLCMS -I Sources/CRaw -I Sources/CJXL -I Sources/COpenJPEG -I /usr/include/openjpeg-2.5 -I $(FUZZ_DIR)/cmodules
FUZZ_CFLAGS     := -fsanitize=fuzzer-no-link,address -g -fno-omit-frame-pointer $(shell pkg-config --cflags libpng16 libtiff-4)
# lld: gold warns about every local ASan symbol it cannot export.
FUZZ_LDFLAGS    := -use-ld=lld
FUZZ_RUNFLAGS    = -rss_limit_mb=2048 -timeout=10 -max_len=$(or $(FUZZ_MAX_LEN_$*),65536) -print_final_stats=1 $(FUZZ_FLAGS)
# A raw's structure spreads over its whole file (the seed DNG is 87 KB): cut to 64 KB, every input is a cut file.
FUZZ_MAX_LEN_raw := 131072

# fuzz-run-% is not .PHONY: make never looks for a pattern rule to make a phony target.
.PHONY: fuzz fuzz-smoke fuzz-build

fuzz-build: deps $(addprefix $(FUZZ_DIR)/,$(FUZZERS))

fuzz: fuzz-build
	@for name in $(FUZZERS); do $(MAKE) --no-print-directory fuzz-run-$$name || exit 1; done

fuzz-smoke: fuzz-build
	@for name in $(FUZZERS); do $(MAKE) --no-print-directory fuzz-run-$$name FUZZ_SECONDS=$(FUZZ_SMOKE_SECONDS) || exit 1; done

# One fuzzer: new inputs go to corpus-<name> (kept between runs), the seeds are made again from Fixtures/.
fuzz-run-%: $(FUZZ_DIR)/%
	@rm -rf $(FUZZ_DIR)/seeds-$* && /usr/bin/python3 Fuzz/make_seeds.py $* $(FUZZ_DIR)/seeds-$*
	@mkdir -p $(FUZZ_DIR)/corpus-$* $(FUZZ_DIR)/artifacts/$*
	@echo "fuzz: $* for $(FUZZ_SECONDS) s"
	@LSAN_OPTIONS=suppressions=$(CURDIR)/$(or $(wildcard mk/lsan-$*.supp),mk/lsan.supp) $(FUZZ_DIR)/$* $(FUZZ_RUNFLAGS) -max_total_time=$(FUZZ_SECONDS) -dict=Fuzz/$*.dict \
	    -artifact_prefix=$(FUZZ_DIR)/artifacts/$*/ $(FUZZ_DIR)/corpus-$* $(FUZZ_DIR)/seeds-$* \
	    > $(FUZZ_DIR)/$*.log 2>&1; \
	  status=$$?; grep -E "^#[0-9]+[[:space:]]+DONE|^stat::|^Done " $(FUZZ_DIR)/$*.log; \
	  if [ $$status -ne 0 ]; then \
	    sed -n '/^==[0-9]*== *ERROR\|^ERROR:\|Fatal error\|^SUMMARY/,$$p' $(FUZZ_DIR)/$*.log | grep -v '^stat::' | head -n 60; \
	    echo "fuzz: $* FAILED (status $$status); full log $(FUZZ_DIR)/$*.log"; \
	    grep -ho 'Test unit written to .*' $(FUZZ_DIR)/$*.log | sed 's|^Test unit written to \(.*\)|fuzz: input kept in \1; replay: $(FUZZ_DIR)/$* \1|'; \
	    exit 1; \
	  fi

# ---- building ----

$(FUZZ_DIR)/modules $(FUZZ_DIR)/flags $(FUZZ_DIR)/cmodules/CJPEGShim $(FUZZ_DIR)/cmodules/CPNGShim $(FUZZ_DIR)/cmodules/CTIFFShim \
$(FUZZ_DIR)/cmodules/CHEIFDecoders $(FUZZ_DIR)/cmodules/CRawStream $(FUZZ_DIR)/CJPEGShim:
	@mkdir -p $@

# Each module is compiled with the optimisation and warning flags of the shipped binary, read from Package.swift
# (`swift build -c release`'s own -O/-O2, then the target's release settings: -Ounchecked for Imaging only), so
# the fuzzers run the code users run and the two cannot drift. ASan still sees every out-of-bounds access.
# A flags file is replaced only when its flags change, so editing Package.swift rebuilds only what it changes.
$(FUZZ_DIR)/package.json: Package.swift | $(FUZZ_DIR)/flags
	@$(SWIFT) package dump-package > $@.tmp && mv $@.tmp $@
$(FUZZ_DIR)/flags/%.swift: $(FUZZ_DIR)/package.json mk/release_flags.py
	@/usr/bin/python3 mk/release_flags.py $< $* swift > $@.tmp
	@cmp -s $@.tmp $@ && rm $@.tmp || { mv $@.tmp $@; echo "fuzz: $* gets $$(cat $@)"; }
$(FUZZ_DIR)/flags/%.c: $(FUZZ_DIR)/package.json mk/release_flags.py
	@/usr/bin/python3 mk/release_flags.py $< $* c > $@.tmp
	@cmp -s $@.tmp $@ && rm $@.tmp || { mv $@.tmp $@; echo "fuzz: $* gets $$(cat $@)"; }

# The module maps SwiftPM would generate for the two C targets.
$(FUZZ_DIR)/cmodules/%/module.modulemap: | $(FUZZ_DIR)/cmodules/CJPEGShim $(FUZZ_DIR)/cmodules/CPNGShim $(FUZZ_DIR)/cmodules/CTIFFShim $(FUZZ_DIR)/cmodules/CHEIFDecoders $(FUZZ_DIR)/cmodules/CRawStream
	@printf 'module %s {\n    umbrella "%s"\n    export *\n}\n' $* "$(CURDIR)/Sources/$*/include" > $@

# The JPEG shim, every C file of it as SwiftPM builds them (large_blocks.c too: the shim calls it to count
# reuses); each depends on every header of the target, the private ones beside the sources too.
JPEG_SHIM_OBJECTS := $(patsubst Sources/CJPEGShim/%.c,$(FUZZ_DIR)/CJPEGShim/%.o,$(wildcard Sources/CJPEGShim/*.c))
$(JPEG_SHIM_OBJECTS): $(FUZZ_DIR)/CJPEGShim/%.o: Sources/CJPEGShim/%.c $(wildcard Sources/CJPEGShim/*.h Sources/CJPEGShim/include/*.h) \
                                             $(FUZZ_DIR)/flags/CJPEGShim.c | $(FUZZ_DIR)/CJPEGShim
	$(FUZZ_CLANG) $(FUZZ_CFLAGS) $$(cat $(FUZZ_DIR)/flags/CJPEGShim.c) -I Sources/CJPEGShim/include -c $< -o $@
$(FUZZ_DIR)/PNGShim.o: Sources/CPNGShim/png_shim.c Sources/CPNGShim/include/png_shim.h $(FUZZ_DIR)/flags/CPNGShim.c
	$(FUZZ_CLANG) $(FUZZ_CFLAGS) $$(cat $(FUZZ_DIR)/flags/CPNGShim.c) -I Sources/CPNGShim/include -c $< -o $@
# The image data of 8-bit RGB and RGBA PNGs, read by photobook itself (PNGRows): fuzzed with the rest.
$(FUZZ_DIR)/PNGRows.o: Sources/CPNGShim/png_rows.c Sources/CPNGShim/include/png_rows.h Sources/CPNGShim/include/png_shim.h $(FUZZ_DIR)/flags/CPNGShim.c
	$(FUZZ_CLANG) $(FUZZ_CFLAGS) $$(cat $(FUZZ_DIR)/flags/CPNGShim.c) -I Sources/CPNGShim/include -c $< -o $@

# libtiff's va_list error and warning handlers and its variadic TIFFGetField, in C.
$(FUZZ_DIR)/TIFFShim.o: Sources/CTIFFShim/tiff_shim.c Sources/CTIFFShim/include/tiff_shim.h $(FUZZ_DIR)/flags/CTIFFShim.c
	$(FUZZ_CLANG) $(FUZZ_CFLAGS) $$(cat $(FUZZ_DIR)/flags/CTIFFShim.c) -I Sources/CTIFFShim/include -c $< -o $@

# photobook's libheif decoder plugins (HEVC through libavcodec, AV1 through dav1d): fuzzed with libheif.
$(FUZZ_DIR)/HEIFDecoders.o: Sources/CHEIFDecoders/heif_decoders.c Sources/CHEIFDecoders/plugins.h Sources/CHEIFDecoders/include/heif_decoders.h $(FUZZ_DIR)/flags/CHEIFDecoders.c
	$(FUZZ_CLANG) $(FUZZ_CFLAGS) $$(cat $(FUZZ_DIR)/flags/CHEIFDecoders.c) -I Sources/CHEIFDecoders/include -c $< -o $@
# LibRaw's stream over our reads (C++), compiled as SwiftPM compiles it, with ASan like the C shims.
$(FUZZ_DIR)/RawStream.o: Sources/CRawStream/raw_stream.cpp Sources/CRawStream/include/raw_stream.h $(FUZZ_DIR)/flags/CRawStream.c
	$(FUZZ_CLANG)++ $(FUZZ_CFLAGS) $$(cat $(FUZZ_DIR)/flags/CRawStream.c) -I Sources/CRawStream/include -c $< -o $@
$(FUZZ_DIR)/HEIFAV1.o: Sources/CHEIFDecoders/av1_plugin.c Sources/CHEIFDecoders/plugins.h Sources/CHEIFDecoders/include/heif_decoders.h $(FUZZ_DIR)/flags/CHEIFDecoders.c
	$(FUZZ_CLANG) $(FUZZ_CFLAGS) $$(cat $(FUZZ_DIR)/flags/CHEIFDecoders.c) -I Sources/CHEIFDecoders/include -c $< -o $@

# One Swift module: an object file and the .swiftmodule its dependents import. swiftc leaves an output it
# would write unchanged alone, so the object is touched to tell make it is up to date.
define fuzz_swift_module
$(FUZZ_DIR)/$(1).o: $(wildcard Sources/$(1)/*.swift) $(foreach d,$(2),$(FUZZ_DIR)/$(d).o) $(3) \
                    $(FUZZ_DIR)/flags/$(1).swift | $(FUZZ_DIR)/modules
	$$(FUZZ_SWIFTC) $$(FUZZ_SWIFTFLAGS) $$$$(cat $(FUZZ_DIR)/flags/$(1).swift) -module-name $(1) -emit-module \
	    -emit-module-path $(FUZZ_DIR)/modules/$(1).swiftmodule -c $(wildcard Sources/$(1)/*.swift) -o $$@
	@touch $$@
endef
$(eval $(call fuzz_swift_module,Geometry,,))
$(eval $(call fuzz_swift_module,Imaging,Geometry,))
$(eval $(call fuzz_swift_module,EXIF,,))
$(eval $(call fuzz_swift_module,Platform,,))
$(eval $(call fuzz_swift_module,ImageCodec,Geometry Imaging EXIF Platform,))
$(eval $(call fuzz_swift_module,JPEG,Geometry Imaging ImageCodec EXIF Colour Platform,$(FUZZ_DIR)/cmodules/CJPEGShim/module.modulemap Sources/CJPEGShim/include/jpeg_shim.h))
$(eval $(call fuzz_swift_module,PNG,Geometry Imaging ImageCodec Platform,$(FUZZ_DIR)/cmodules/CPNGShim/module.modulemap))
$(eval $(call fuzz_swift_module,WebP,Geometry Imaging ImageCodec,Sources/CWebP/module.modulemap Sources/CWebP/shim.h))
$(eval $(call fuzz_swift_module,JXL,Geometry Imaging ImageCodec,Sources/CJXL/module.modulemap Sources/CJXL/shim.h))
$(eval $(call fuzz_swift_module,JPEG2000,Geometry Imaging ImageCodec,Sources/COpenJPEG/module.modulemap Sources/COpenJPEG/shim.h))
$(eval $(call fuzz_swift_module,Colour,,Sources/CLCMS/module.modulemap Sources/CLCMS/shim.h))
$(eval $(call fuzz_swift_module,HEIF,Imaging ImageCodec Colour Platform,$(FUZZ_DIR)/cmodules/CHEIFDecoders/module.modulemap Sources/CHEIF/module.modulemap Sources/CHEIF/shim.h))
$(eval $(call fuzz_swift_module,TIFF,Imaging EXIF ImageCodec Colour,$(FUZZ_DIR)/cmodules/CTIFFShim/module.modulemap Sources/CTIFF/module.modulemap Sources/CTIFF/shim.h))
$(eval $(call fuzz_swift_module,GIF,Geometry Imaging ImageCodec,Sources/CGIF/module.modulemap Sources/CGIF/shim.h))
$(eval $(call fuzz_swift_module,BMP,Geometry Imaging ImageCodec,))
$(eval $(call fuzz_swift_module,Raw,Geometry Imaging ImageCodec EXIF JPEG,Sources/CRaw/module.modulemap Sources/CRaw/shim.h $(FUZZ_DIR)/cmodules/CRawStream/module.modulemap Sources/CRawStream/include/raw_stream.h))

# Each entry point is compiled with the flags of the module it fuzzes.
$(FUZZ_DIR)/exif: Fuzz/EXIFFuzzer.swift $(FUZZ_DIR)/EXIF.o
	$(FUZZ_SWIFTC) $(FUZZ_SWIFTFLAGS) $$(cat $(FUZZ_DIR)/flags/EXIF.swift) $(FUZZ_LDFLAGS) -module-name EXIFFuzzer $^ -o $@
$(FUZZ_DIR)/xmp: Fuzz/XMPFuzzer.swift $(FUZZ_DIR)/EXIF.o
	$(FUZZ_SWIFTC) $(FUZZ_SWIFTFLAGS) $$(cat $(FUZZ_DIR)/flags/EXIF.swift) $(FUZZ_LDFLAGS) -module-name XMPFuzzer $^ -o $@
$(FUZZ_DIR)/jpeg: Fuzz/JPEGFuzzer.swift $(FUZZ_DIR)/JPEG.o $(FUZZ_DIR)/Imaging.o $(FUZZ_DIR)/Geometry.o $(JPEG_SHIM_OBJECTS) \
                  $(FUZZ_DIR)/ImageCodec.o $(FUZZ_DIR)/EXIF.o $(FUZZ_DIR)/Platform.o $(FUZZ_DIR)/Colour.o
	$(FUZZ_SWIFTC) $(FUZZ_SWIFTFLAGS) $$(cat $(FUZZ_DIR)/flags/JPEG.swift) $(FUZZ_LDFLAGS) -module-name JPEGFuzzer $^ -ljpeg -llcms2 -o $@
$(FUZZ_DIR)/png: Fuzz/PNGFuzzer.swift $(FUZZ_DIR)/PNG.o $(FUZZ_DIR)/Imaging.o $(FUZZ_DIR)/Geometry.o $(FUZZ_DIR)/PNGShim.o $(FUZZ_DIR)/PNGRows.o \
                 $(FUZZ_DIR)/ImageCodec.o $(FUZZ_DIR)/EXIF.o $(FUZZ_DIR)/Platform.o
	$(FUZZ_SWIFTC) $(FUZZ_SWIFTFLAGS) $$(cat $(FUZZ_DIR)/flags/PNG.swift) $(FUZZ_LDFLAGS) -module-name PNGFuzzer $^ -lpng16 -lz -o $@
$(FUZZ_DIR)/webp: Fuzz/WebPFuzzer.swift Fuzz/StillPictureFuzzing.swift $(FUZZ_DIR)/WebP.o $(FUZZ_DIR)/ImageCodec.o $(FUZZ_DIR)/Imaging.o $(FUZZ_DIR)/Geometry.o \
                  $(FUZZ_DIR)/EXIF.o $(FUZZ_DIR)/Platform.o
	$(FUZZ_SWIFTC) $(FUZZ_SWIFTFLAGS) $$(cat $(FUZZ_DIR)/flags/WebP.swift) $(FUZZ_LDFLAGS) -module-name WebPFuzzer $^ $$(pkg-config --libs libwebpdemux) -o $@
$(FUZZ_DIR)/tiff: Fuzz/TIFFFuzzer.swift $(FUZZ_DIR)/TIFF.o $(FUZZ_DIR)/Colour.o $(FUZZ_DIR)/ImageCodec.o \
                  $(FUZZ_DIR)/Imaging.o $(FUZZ_DIR)/Geometry.o $(FUZZ_DIR)/EXIF.o $(FUZZ_DIR)/Platform.o $(FUZZ_DIR)/TIFFShim.o
	$(FUZZ_SWIFTC) $(FUZZ_SWIFTFLAGS) $$(cat $(FUZZ_DIR)/flags/TIFF.swift) $(FUZZ_LDFLAGS) -module-name TIFFFuzzer $^ -ltiff -llcms2 -o $@
$(FUZZ_DIR)/gif: Fuzz/GIFFuzzer.swift Fuzz/StillPictureFuzzing.swift $(FUZZ_DIR)/GIF.o $(FUZZ_DIR)/ImageCodec.o $(FUZZ_DIR)/Imaging.o $(FUZZ_DIR)/Geometry.o \
                 $(FUZZ_DIR)/EXIF.o $(FUZZ_DIR)/Platform.o
	$(FUZZ_SWIFTC) $(FUZZ_SWIFTFLAGS) $$(cat $(FUZZ_DIR)/flags/GIF.swift) $(FUZZ_LDFLAGS) -module-name GIFFuzzer $^ -lgif -o $@
$(FUZZ_DIR)/bmp: Fuzz/BMPFuzzer.swift Fuzz/StillPictureFuzzing.swift $(FUZZ_DIR)/BMP.o $(FUZZ_DIR)/ImageCodec.o $(FUZZ_DIR)/Imaging.o $(FUZZ_DIR)/Geometry.o \
                 $(FUZZ_DIR)/EXIF.o $(FUZZ_DIR)/Platform.o
	$(FUZZ_SWIFTC) $(FUZZ_SWIFTFLAGS) $$(cat $(FUZZ_DIR)/flags/BMP.swift) $(FUZZ_LDFLAGS) -module-name BMPFuzzer $^ -o $@
$(FUZZ_DIR)/heif: Fuzz/HEIFFuzzer.swift $(FUZZ_DIR)/HEIF.o $(FUZZ_DIR)/Colour.o $(FUZZ_DIR)/ImageCodec.o \
                  $(FUZZ_DIR)/Imaging.o $(FUZZ_DIR)/Geometry.o $(FUZZ_DIR)/EXIF.o $(FUZZ_DIR)/Platform.o $(FUZZ_DIR)/HEIFDecoders.o $(FUZZ_DIR)/HEIFAV1.o
	$(FUZZ_SWIFTC) $(FUZZ_SWIFTFLAGS) $$(cat $(FUZZ_DIR)/flags/HEIF.swift) $(FUZZ_LDFLAGS) -module-name HEIFFuzzer $^ $$(pkg-config --libs libheif lcms2 libavcodec libavutil dav1d) -o $@
# LibRaw and lcms2 (LibRaw's colour) from Debian, uninstrumented, as libjpeg is for the JPEG module.
$(FUZZ_DIR)/raw: Fuzz/RawFuzzer.swift $(FUZZ_DIR)/Raw.o $(FUZZ_DIR)/JPEG.o $(JPEG_SHIM_OBJECTS) $(FUZZ_DIR)/Colour.o \
                 $(FUZZ_DIR)/ImageCodec.o $(FUZZ_DIR)/Imaging.o $(FUZZ_DIR)/Geometry.o $(FUZZ_DIR)/EXIF.o $(FUZZ_DIR)/Platform.o \
                 $(FUZZ_DIR)/RawStream.o
	$(FUZZ_SWIFTC) $(FUZZ_SWIFTFLAGS) $$(cat $(FUZZ_DIR)/flags/Raw.swift) $(FUZZ_LDFLAGS) -module-name RawFuzzer $^ -lraw_r -ljpeg -llcms2 -lstdc++ -o $@
$(FUZZ_DIR)/jxl: Fuzz/JXLFuzzer.swift Fuzz/StillPictureFuzzing.swift $(FUZZ_DIR)/JXL.o $(FUZZ_DIR)/ImageCodec.o $(FUZZ_DIR)/Imaging.o $(FUZZ_DIR)/Geometry.o \
                 $(FUZZ_DIR)/EXIF.o $(FUZZ_DIR)/Platform.o
	$(FUZZ_SWIFTC) $(FUZZ_SWIFTFLAGS) $$(cat $(FUZZ_DIR)/flags/JXL.swift) $(FUZZ_LDFLAGS) -module-name JXLFuzzer $^ -ljxl -o $@
$(FUZZ_DIR)/jp2: Fuzz/JPEG2000Fuzzer.swift Fuzz/StillPictureFuzzing.swift $(FUZZ_DIR)/JPEG2000.o $(FUZZ_DIR)/ImageCodec.o $(FUZZ_DIR)/Imaging.o $(FUZZ_DIR)/Geometry.o \
                 $(FUZZ_DIR)/EXIF.o $(FUZZ_DIR)/Platform.o
	$(FUZZ_SWIFTC) $(FUZZ_SWIFTFLAGS) $$(cat $(FUZZ_DIR)/flags/JPEG2000.swift) $(FUZZ_LDFLAGS) -module-name JPEG2000Fuzzer $^ -lopenjp2 -o $@
