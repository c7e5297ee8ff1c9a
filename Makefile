# evgrep build, test and run targets. See README.md.
GO      ?= go
BIN     := bin/evgrep
STATIC  := bin/evgrep-static
SHARED  ?= ../shared
PKGS    := ./...

.PHONY: build static test run conformance conformance-13 conformance-walker clean

# A statically linked binary (cgo on, for tree-sitter grammars, linked with
# -static). `build`, `static` and `release` share these flags: a dynamic
# binary spends about 2-3 ms of every run in the dynamic loader (libstdc++,
# which the YAML grammar's scanner needs, libm, libgcc_s, libc), which the
# tiny-tree benchmark job measures. `build` keeps the symbol table.
STATIC_TAGS    := netgo osusergo
STATIC_LINK    := -linkmode external -extldflags "-static"
STATIC_LDFLAGS := -s -w $(STATIC_LINK)

# Without cgo (CGO_ENABLED=0, or no C compiler) Go links statically by
# itself, and external linking is not available.
ifeq ($(shell $(GO) env CGO_ENABLED),1)
BUILD_LDFLAGS := $(STATIC_LINK)
endif

build:
	$(GO) build -trimpath -tags '$(STATIC_TAGS)' -ldflags '$(BUILD_LDFLAGS)' -o $(BIN) ./cmd/evgrep

static:
	CGO_ENABLED=1 $(GO) build -trimpath -tags '$(STATIC_TAGS)' \
		-ldflags '$(STATIC_LDFLAGS)' -o $(STATIC) ./cmd/evgrep

# Release binaries (README.md "Releases"): static, cgo on, one per
# architecture, cross-compiled with Debian's gcc-aarch64-linux-gnu (and
# libc6-dev-arm64-cross) for arm64, into $(DIST) with SHA256SUMS. The
# version, stamped into internal/app.Version, is `git describe`'s.
# Not run by .ci/run (it compiles the C grammars twice); `make release-check`
# is the cheap check of its flags.
VERSION     ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo unknown)
VERSION_VAR := github.com/evgrep/evgrep/internal/app.Version
DIST        ?= dist
RELEASE_ARCHES := amd64 arm64
CC_amd64    ?= x86_64-linux-gnu-gcc
CC_arm64    ?= aarch64-linux-gnu-gcc
# The YAML grammar's scanner is C++, so cgo links with the C++ compiler.
CXX_amd64   ?= x86_64-linux-gnu-g++
CXX_arm64   ?= aarch64-linux-gnu-g++
RELEASE_BINS := $(foreach a,$(RELEASE_ARCHES),$(DIST)/evgrep-$(VERSION)-linux-$(a))

.PHONY: release release-check $(RELEASE_BINS)
release: $(RELEASE_BINS)
	cd $(DIST) && sha256sum $(notdir $(RELEASE_BINS)) > SHA256SUMS
	cat $(DIST)/SHA256SUMS

# $(call release_build,ARCH,OUTPUT): one command line, so that
# release-check can read it back from `make -n`.
release_build = CGO_ENABLED=1 GOOS=linux GOARCH=$(1) CC=$(CC_$(1)) CXX=$(CXX_$(1)) $(GO) build -trimpath -tags '$(STATIC_TAGS)' -ldflags '$(STATIC_LDFLAGS) -X $(VERSION_VAR)=$(VERSION)' -o $(2) ./cmd/evgrep

$(RELEASE_BINS): $(DIST)/evgrep-$(VERSION)-linux-%:
	@mkdir -p $(DIST)
	$(call release_build,$*,$@)

# What `make release` would run, checked without compiling: each binary is
# static and stamped, and the stamped variable exists as a string var.
release-check:
	@out="$$($(MAKE) -s -n release)"; \
	for a in $(RELEASE_ARCHES); do \
	  line="$$(printf '%s\n' "$$out" | grep -F -- "-o $(DIST)/evgrep-$(VERSION)-linux-$$a ")" || \
	    { echo "release-check: no build of linux-$$a"; exit 1; }; \
	  for f in "CGO_ENABLED=1" "GOARCH=$$a" "-tags '$(STATIC_TAGS)'" "-linkmode external" \
	           '-extldflags "-static"' "-X $(VERSION_VAR)=$(VERSION)"; do \
	    case "$$line" in *"$$f"*) ;; *) echo "release-check: linux-$$a lacks $$f"; exit 1;; esac; \
	  done; \
	done; \
	grep -q '^var Version = ' internal/app/app.go || { echo "release-check: internal/app.Version is not a var"; exit 1; }; \
	echo "release-check: ok ($(RELEASE_ARCHES), version $(VERSION))"

test: release-check
	$(GO) test $(PKGS)

# Re-record the reference's answers for the differential tests
# (testdata/golden, see README.md "Tests"); never edit those files by hand.
# The reference is EVGREP_REFERENCE_RG (default: rg on PATH), e.g.
#   make golden EVGREP_REFERENCE_RG=/opt/rg15/rg
EVGREP_REFERENCE_RG ?= rg
.PHONY: golden
golden:
	rm -rf testdata/golden
	EVGREP_REFERENCE_RG=$(EVGREP_REFERENCE_RG) EVGREP_UPDATE_GOLDEN=1 $(GO) test -count=1 $(PKGS)
	cat testdata/golden/REFERENCE

# Re-record ast-grep's answers for the structural differential tests
# (testdata/golden/structural, README.md "Structural search"): the
# reference is ast-grep 0.51.1 (.ci/run installs it under /opt/ast-grep).
EVGREP_REFERENCE_ASTGREP ?= /opt/ast-grep/bin/ast-grep
.PHONY: golden-structural
golden-structural:
	rm -rf testdata/golden/structural
	EVGREP_REFERENCE_ASTGREP=$(EVGREP_REFERENCE_ASTGREP) EVGREP_UPDATE_GOLDEN=1 $(GO) test -count=1 ./internal/astsearch/

# The structural differential over real code (bench/structdiff): pinned
# real trees in 13 languages installed outside the repository, and
# evgrep's match sets compared with ast-grep 0.51.1's recorded answers
# (testdata/golden/structural/realtrees.json); a difference not listed in
# bench/structdiff/DIFFERENCES, or absent trees, fail.
STRUCT_TREES ?= /var/tmp/evgrep-struct-trees
.PHONY: struct-trees struct-diff struct-diff-record
struct-trees:
	bash bench/structdiff/trees.sh $(STRUCT_TREES)

struct-diff:
	$(GO) run ./bench/structdiff -trees $(STRUCT_TREES)

struct-diff-record:
	$(GO) run ./bench/structdiff -trees $(STRUCT_TREES) -record -astgrep $(EVGREP_REFERENCE_ASTGREP)

# The quick-start search: this repository, for the places that start a program.
run: build
	./$(BIN) --sort path -n 'func main\(' .

# Conformance: all of ripgrep's scenarios against the reference ripgrep 15.2
# (make reference installs it); conformance-13 against Debian 12's rg 13.
conformance: build
	python3 $(SHARED)/conformance/run.py $(BIN) --reference $(RG15_DIR)/rg-direct

conformance-13: build
	python3 $(SHARED)/conformance/run.py $(BIN) --supported-flags $(SHARED)/conformance/flags-all.txt

conformance-walker: build
	python3 $(SHARED)/conformance/run.py $(BIN) --reference $(RG15_DIR)/rg-direct --supported-flags $(SHARED)/conformance/flags-walker.txt

# The reference ripgrep 15.2.0, from $(SHARED)/conformance/rg15: unpacked
# into RG15_DIR with the C library it needs. Besides the launcher DIR/rg
# that the installer writes, DIR/rg-direct is the same executable with its
# interpreter and library path written in (patchelf), so that timings do
# not include a shell.
RG15_DIR ?= /opt/rg15
.PHONY: reference
reference:
	bash $(SHARED)/conformance/rg15/install.sh $(RG15_DIR)
	cp $(RG15_DIR)/root/usr/bin/rg $(RG15_DIR)/rg-direct
	patchelf --set-interpreter $(RG15_DIR)/root/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 \
		--set-rpath $(RG15_DIR)/root/usr/lib/x86_64-linux-gnu $(RG15_DIR)/rg-direct
	$(RG15_DIR)/rg-direct --version | head -1

# Benchmarks (bench/README.md): evgrep against rg, grep, git grep and ugrep.
# The rg side is ripgrep 15.2 ($(RG15_DIR)/rg-direct, `make reference`) when
# it is installed, else rg on PATH.
# Extra flags: make bench BENCHFLAGS='--runs 3 --corpus ~/src/linux'.
.PHONY: bench bench-quick
BENCHFLAGS ?=
BENCH_RG ?= $(firstword $(wildcard $(RG15_DIR)/rg-direct) rg)
# ast-grep (the structural job's peer) is found on PATH; .ci/run installs
# it under /opt/ast-grep.
ASTGREP_BIN ?= /opt/ast-grep/bin

bench: build
	PATH="$(ASTGREP_BIN):$$PATH" $(GO) run ./bench --evgrep $(BIN) --rg $(BENCH_RG) $(BENCHFLAGS)

bench-quick: build
	$(GO) run ./bench --quick --evgrep $(BIN) --rg $(BENCH_RG) $(BENCHFLAGS)

# One broad agent call against the rg pipeline it replaces (bench/agentbench).
.PHONY: bench-agent
bench-agent: build
	$(GO) run ./bench/agentbench --evgrep $(BIN) --rg $(BENCH_RG) $(BENCHFLAGS)

# Ranked retrieval (bench/rank): NDCG@10, Recall@5 and tokens to the first
# relevant file of evgrep --rank against a grep baseline, on GOROOT/src and
# this repository, then on the multi-language trees of bench/rank/corpora.tsv
# (installed outside the repository by rank-trees, into RANKTREES);
# bench-rank-latency times cold and warm queries. BENCHRANKFLAGS='-split test
# -v' for more.
.PHONY: bench-rank bench-rank-latency rank-trees
BENCHRANKFLAGS ?=
RANKTREES ?= $(HOME)/.cache/evgrep/rank-trees
rank-trees:
	sh bench/rank/trees.sh $(RANKTREES)

bench-rank: rank-trees
	$(GO) run ./bench/rank $(BENCHRANKFLAGS)
	$(GO) run ./bench/rank -trees $(RANKTREES) $(BENCHRANKFLAGS)

bench-rank-latency: build
	$(GO) run ./bench/rank -latency -evgrep $(BIN)

clean:
	rm -rf bin $(DIST)
