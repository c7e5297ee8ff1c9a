# evgrep build, test and run targets. See README.md.
GO      ?= go
BIN     := bin/evgrep
STATIC  := bin/evgrep-static
SHARED  ?= ../shared
PKGS    := ./...

.PHONY: build static test run conformance conformance-walker clean

build:
	$(GO) build -trimpath -o $(BIN) ./cmd/evgrep

# A statically linked binary (cgo on, for tree-sitter grammars, linked with -static).
static:
	CGO_ENABLED=1 $(GO) build -trimpath -tags 'netgo osusergo' \
		-ldflags '-s -w -linkmode external -extldflags "-static"' -o $(STATIC) ./cmd/evgrep

test:
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

# The quick-start search: this repository, for the places that start a program.
run: build
	./$(BIN) --sort path -n 'func main\(' .

conformance: build
	python3 $(SHARED)/conformance/run.py $(BIN) --supported-flags $(SHARED)/conformance/flags-all.txt

conformance-walker: build
	python3 $(SHARED)/conformance/run.py $(BIN) --supported-flags $(SHARED)/conformance/flags-walker.txt

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
bench: build
	$(GO) run ./bench --evgrep $(BIN) --rg $(BENCH_RG) $(BENCHFLAGS)

bench-quick: build
	$(GO) run ./bench --quick --evgrep $(BIN) --rg $(BENCH_RG) $(BENCHFLAGS)

# One broad agent call against the rg pipeline it replaces (bench/agentbench).
.PHONY: bench-agent
bench-agent: build
	$(GO) run ./bench/agentbench --evgrep $(BIN) --rg $(BENCH_RG) $(BENCHFLAGS)

clean:
	rm -rf bin
