# The toolchain on PATH, else the one this kind of machine keeps at /opt/swift.
SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
PREFIX ?= /usr/local
CONFIG ?= release

FORMAT_PATHS := Sources Tests Package.swift
# Release binaries are static executables: they start about 3.5x faster than dynamically linked
# ones. `make build` checks that such a binary still resolves owner and group names.
# They also reach the metadata of concrete generic types (a Dictionary keyed by bytes) through
# accessors given their conformances, not through mangled names that the runtime decodes by
# looking each conformance up: every such first lookup scans all of the program's thousands of
# conformance records, and start-up paid for five.
RELEASE_FLAGS := $(if $(filter release,$(CONFIG)),-Xswiftc -static-executable \
	-Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors)
BIN_PATH = $$($(SWIFT) build -c $(CONFIG) $(RELEASE_FLAGS) --show-bin-path)
FUZZ_SECONDS ?= 600
FUZZ_BUILD := .build/fuzz

.DEFAULT_GOAL := build
.PHONY: setup build test run install format lint clean bench fuzz docs

# Installs what is missing (readline headers, tree, tmux) as root, or names the apt-get line.
setup:
	scripts/setup

build: setup
	$(SWIFT) build -c $(CONFIG) $(RELEASE_FLAGS) --product shelf
	scripts/check-owner-names "$(BIN_PATH)/shelf"

test: setup
	python3 -m unittest discover -s Benchmarks -p 'test_*.py'
	python3 -m unittest discover -s scripts -p 'test_*.py'
	$(SWIFT) build --build-tests
	SHELF_BIN="$$($(SWIFT) build --show-bin-path)/shelf" $(SWIFT) test
# The command tests again, each shell on an in-memory volume (docs/ARCHITECTURE.md, Volumes).
	SHELF_TEST_VOLUME=memory SHELF_BIN="$$($(SWIFT) build --show-bin-path)/shelf" \
		$(SWIFT) test --skip-build --filter ShellCoreTests

# The man page and the texts of `help COMMAND`, from the command pages in docs/commands.
docs:
	python3 scripts/generate-docs

# The benchmark against GNU coreutils, tree(1), bash and busybox, and on a local SeaweedFS against
# s5cmd, rclone and aws cli (docs/performance.md). QUICK=1 uses a small corpus and few rounds and
# writes no table; SECTION=local or SECTION=s3 runs one section and writes no table.
bench: build
	$(SWIFT) build -c $(CONFIG) $(RELEASE_FLAGS) --product shelf-bench
	mkdir -p .build && $(CC) -O2 -o .build/spawn Benchmarks/spawn.c
	python3 Benchmarks/bench.py --shelf "$(BIN_PATH)/shelf" \
		--completion-bench "$(BIN_PATH)/shelf-bench" --spawn .build/spawn \
		$(if $(QUICK),--quick,$(if $(SECTION),,--output docs/performance.md)) $(if $(ONLY),--only "$(ONLY)") \
		$(if $(SECTION),--section $(SECTION))

run: build
	"$(BIN_PATH)/shelf"

install:
	install -d "$(DESTDIR)$(PREFIX)/bin"
	install -m 0755 "$(BIN_PATH)/shelf" "$(DESTDIR)$(PREFIX)/bin/shelf"
	if [ -f docs/shelf.1 ]; then \
		install -d "$(DESTDIR)$(PREFIX)/share/man/man1" && \
		install -m 0644 docs/shelf.1 "$(DESTDIR)$(PREFIX)/share/man/man1/shelf.1"; \
	fi

format:
	$(SWIFT) format --in-place --recursive $(FORMAT_PATHS)

lint:
	$(SWIFT) format lint --strict --recursive $(FORMAT_PATHS)

clean:
	$(SWIFT) package clean
	rm -rf .build

# Builds the libFuzzer target in a build directory of its own, instrumented with -sanitize=fuzzer,address
# and linked by lld (gold fails on it), then runs it for FUZZ_SECONDS on the seed corpus in Fuzz/corpus.
# New inputs and crash reproducers go under $(FUZZ_BUILD).
fuzz:
	SHELF_FUZZ=1 $(SWIFT) build -c release --scratch-path $(FUZZ_BUILD) --product shelf-fuzz \
		-Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -use-ld=lld
	mkdir -p $(FUZZ_BUILD)/corpus
	"$(FUZZ_BUILD)/release/shelf-fuzz" -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=4096 \
		-artifact_prefix=$(FUZZ_BUILD)/ $(FUZZ_BUILD)/corpus Fuzz/corpus
