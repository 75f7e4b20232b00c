# The codec modules' tests under AddressSanitizer (and LeakSanitizer): any report fails the run.
# Builds into its own scratch folder, like `make tsan`, so the normal build stays as it is.
# mk/lsan.supp silences two leaks inside the toolchain (XCTest's runner, Foundation's Process), nothing of ours.

ASAN_TESTS := JPEGTests|PNGTests|HEIFTests|WebPTests|TIFFTests|GIFTests|BMPTests|RawTests|JXLTests|JPEG2000Tests|ImageCodecTests|ColourTests|EXIFTests|ImagingTests
.PHONY: asan
asan: test-deps
	$(SWIFT) build --build-tests --scratch-path .build/asan --sanitize=address
	@rm -rf $(TEST_TMPDIR) && mkdir -p $(TEST_TMPDIR)
	@$(GUARDED); trap 'rm -rf $(TEST_TMPDIR)' EXIT; export TMPDIR=$(TEST_TMPDIR); \
	  export ASAN_OPTIONS=halt_on_error=1:detect_leaks=1 LSAN_OPTIONS=suppressions=$(CURDIR)/mk/lsan.supp:print_suppressions=0; \
	  guarded "the AddressSanitizer run" \
	  $(SWIFT) test --skip-build --scratch-path .build/asan --sanitize=address --filter '$(ASAN_TESTS)' --skip '$(ALONE_PATTERN)'
