# Wyvern: distributed statistical model checker for LLVM programs.
GO      ?= go
BIN     := bin/wyvern
PKGS    := ./...

.PHONY: all setup build example test test-short soundness vet lint bench fuzz clean

all: build

setup:
	bash scripts/install-deps.sh

build:
	$(GO) build -o $(BIN) ./cmd/wyvern

# The quick-start example: the probability that a racy two-thread program
# loses an update, then one run of it and the end of its trace.
example: setup build
	./$(BIN) check examples/race.c 'Pr[<=5000](<> [0.printf] && counter < 10)'
	./$(BIN) run examples/race.c --seed 1 || true
	./$(BIN) run examples/race.c --seed 1 --trace | tail -n 6 || true

vet:
	$(GO) vet $(PKGS)
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { echo "gofmt needed:"; gofmt -l $$(git ls-files '*.go'); exit 1; }

STATICCHECK := $(shell $(GO) env GOPATH)/bin/staticcheck

$(STATICCHECK):
	$(GO) install honnef.co/go/tools/cmd/staticcheck@v0.8.2

lint: vet $(STATICCHECK)
	$(STATICCHECK) $(PKGS)

# The full test suite (what CI runs). CI=true turns a missing clang-14 into a
# failure instead of a skip.
test: setup lint
	CI=true $(GO) test -count=1 -timeout 40m $(PKGS)
	CI=true $(GO) test -race -count=1 -timeout 20m -run 'TestSharedMachine|TestDeterministicAcrossWorkers|TestParallelLarge|TestParallelQueries|TestParallelDFS|TestStoreSeen' ./vm ./coordinator ./explicit
	$(MAKE) fuzz

test-short:
	$(GO) test -short $(PKGS)

# The statistical soundness suite alone (part of `make test`; docs/statistics.md).
soundness: setup
	$(GO) test -count=1 -timeout 30m -run Soundness -v $(PKGS)

# The figures of BENCHMARKS.md: interpreter (steps/s, allocations, ratio
# to native), simulation against the bare interpreter, explicit search.
bench: setup
	{ $(GO) test -run '^$$' -bench 'Interpreter' -benchtime 5x -cpu 1 ./vm; \
	  $(GO) test -run '^$$' -bench 'Step' -benchtime 100000000x -benchmem -cpu 1 ./vm; \
	  $(GO) test -run '^$$' -bench 'Trace|SMCOverhead' -benchtime 5000x -benchmem -cpu 1 ./simulator; \
	  $(GO) test -run '^$$' -bench 'Search' -benchmem -cpu 1 ./explicit; } | tee bench.out

# Fuzz targets (package:target:executions): the loader, the wire decoder, the
# snapshot decoder — everything that reads bytes a peer or a user sent. Each
# runs a fixed number of executions (about 20 s on a 2-core CI machine) with
# one worker and a short minimisation (how the loader's recursive-type crash
# was found in 17 s); new crashers land in PKG/testdata/fuzz/TARGET, to be
# committed with their fix. The budget is a count, not a duration: with a
# duration Go 1.26's fuzz coordinator can fail a clean run with "context
# deadline exceeded" as the time runs out (golang/go#75804, fixed in Go 1.27);
# a count never arms that deadline. FUZZTIME=30s (or 1000x) overrides every
# target's budget for a longer local run, at the risk of that spurious error.
FUZZTIME ?=
FUZZ     := ./ir:FuzzParseLL:40000 ./jobs:FuzzDecode:400000 ./jobs:FuzzOutcomes:400000 ./vm:FuzzRestore:250000

fuzz:
	@for t in $(FUZZ); do pkg=$${t%%:*}; rest=$${t#*:}; fn=$${rest%%:*}; n=$${rest#*:}; \
	  budget="$(FUZZTIME)"; [ -n "$$budget" ] || budget="$${n}x"; echo "fuzz $$fn in $$pkg for $$budget"; \
	  $(GO) test -run '^$$' -fuzz "^$$fn\$$" -fuzztime $$budget -parallel 1 -fuzzminimizetime 2s $$pkg || exit 1; done

clean:
	rm -rf bin bench.out
