# Sanitizer runs: each builds into its own scratch folder so it never invalidates the normal build.

# The concurrency contract under ThreadSanitizer: any report fails the run.
TSAN_TESTS := ContractTests|BuildSessionTests|ConcurrencyTests|poolsOnTwoThreadsAtOnceStayApart
.PHONY: tsan
tsan: test-deps
	TSAN_OPTIONS=halt_on_error=1 timeout $(TEST_TIMEOUT) $(SWIFT) test --scratch-path .build/tsan --sanitize=thread --filter '$(TSAN_TESTS)'
