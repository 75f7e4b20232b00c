# Sanitizer runs: each builds into its own scratch folder so it never invalidates the normal build.

# The concurrency contract under ThreadSanitizer: any report fails the run.
TSAN_TESTS := ContractTests|BuildSessionTests|ConcurrencyTests|poolsOnTwoThreadsAtOnceStayApart
.PHONY: tsan
tsan: test-deps
	$(SWIFT) build --build-tests --scratch-path .build/tsan --sanitize=thread
	@rm -rf $(TEST_TMPDIR) && mkdir -p $(TEST_TMPDIR)
	@$(GUARDED); trap 'rm -rf $(TEST_TMPDIR)' EXIT; export TMPDIR=$(TEST_TMPDIR); \
	  export TSAN_OPTIONS=halt_on_error=1; guarded "the ThreadSanitizer run" \
	  $(SWIFT) test --skip-build --scratch-path .build/tsan --sanitize=thread --filter '$(TSAN_TESTS)'
