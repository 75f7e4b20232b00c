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
FUZZERS            := exif jpeg png

FUZZ_DIR     := .build/fuzz
FUZZ_SWIFTC  ?= $(shell command -v swiftc)
FUZZ_CLANG   ?= $(dir $(FUZZ_SWIFTC))clang
# -O keeps Swift's overflow and bounds checks (unlike the release build's -Ounchecked), so the fuzzer also
# finds arithmetic that the release build would let wrap silently.
FUZZ_SWIFTFLAGS := -sanitize=fuzzer,address -O -g -swift-version 6 -parse-as-library \
                   -I $(FUZZ_DIR)/modules -I Sources/CJPEG -I Sources/CPNG -I $(FUZZ_DIR)/cmodules
FUZZ_CFLAGS     := -fsanitize=fuzzer-no-link,address -O1 -g -fno-omit-frame-pointer $(shell pkg-config --cflags libpng16)
# lld: gold warns about every local ASan symbol it cannot export.
FUZZ_LDFLAGS    := -use-ld=lld
FUZZ_RUNFLAGS    = -rss_limit_mb=2048 -timeout=10 -max_len=65536 -print_final_stats=1 $(FUZZ_FLAGS)

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
	@$(FUZZ_DIR)/$* $(FUZZ_RUNFLAGS) -max_total_time=$(FUZZ_SECONDS) -dict=Fuzz/$*.dict \
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

$(FUZZ_DIR)/modules $(FUZZ_DIR)/cmodules/CJPEGShim $(FUZZ_DIR)/cmodules/CPNGShim:
	@mkdir -p $@

# The module maps SwiftPM would generate for the two C targets.
$(FUZZ_DIR)/cmodules/%/module.modulemap: | $(FUZZ_DIR)/cmodules/CJPEGShim $(FUZZ_DIR)/cmodules/CPNGShim
	@printf 'module %s {\n    umbrella "%s"\n    export *\n}\n' $* "$(CURDIR)/Sources/$*/include" > $@

$(FUZZ_DIR)/JPEGShim.o: Sources/CJPEGShim/jpeg_shim.c Sources/CJPEGShim/include/jpeg_shim.h
	$(FUZZ_CLANG) $(FUZZ_CFLAGS) -I Sources/CJPEGShim/include -c $< -o $@
$(FUZZ_DIR)/PNGShim.o: Sources/CPNGShim/png_shim.c Sources/CPNGShim/include/png_shim.h
	$(FUZZ_CLANG) $(FUZZ_CFLAGS) -I Sources/CPNGShim/include -c $< -o $@

# One Swift module: an object file and the .swiftmodule its dependents import.
define fuzz_swift_module
$(FUZZ_DIR)/$(1).o: $(wildcard Sources/$(1)/*.swift) $(foreach d,$(2),$(FUZZ_DIR)/$(d).o) $(3) | $(FUZZ_DIR)/modules
	$$(FUZZ_SWIFTC) $$(FUZZ_SWIFTFLAGS) -module-name $(1) -emit-module \
	    -emit-module-path $(FUZZ_DIR)/modules/$(1).swiftmodule -wmo -c $(wildcard Sources/$(1)/*.swift) -o $$@
endef
$(eval $(call fuzz_swift_module,Imaging,,))
$(eval $(call fuzz_swift_module,EXIF,,))
$(eval $(call fuzz_swift_module,JPEG,Imaging,$(FUZZ_DIR)/cmodules/CJPEGShim/module.modulemap))
$(eval $(call fuzz_swift_module,PNG,Imaging,$(FUZZ_DIR)/cmodules/CPNGShim/module.modulemap))

$(FUZZ_DIR)/exif: Fuzz/EXIFFuzzer.swift $(FUZZ_DIR)/EXIF.o
	$(FUZZ_SWIFTC) $(FUZZ_SWIFTFLAGS) $(FUZZ_LDFLAGS) -module-name EXIFFuzzer $^ -o $@
$(FUZZ_DIR)/jpeg: Fuzz/JPEGFuzzer.swift $(FUZZ_DIR)/JPEG.o $(FUZZ_DIR)/Imaging.o $(FUZZ_DIR)/JPEGShim.o
	$(FUZZ_SWIFTC) $(FUZZ_SWIFTFLAGS) $(FUZZ_LDFLAGS) -module-name JPEGFuzzer $^ -ljpeg -o $@
$(FUZZ_DIR)/png: Fuzz/PNGFuzzer.swift $(FUZZ_DIR)/PNG.o $(FUZZ_DIR)/Imaging.o $(FUZZ_DIR)/PNGShim.o
	$(FUZZ_SWIFTC) $(FUZZ_SWIFTFLAGS) $(FUZZ_LDFLAGS) -module-name PNGFuzzer $^ -lpng16 -o $@
