SWIFT ?= swift
PREFIX ?= /usr/local
CONFIG ?= release

FORMAT_PATHS := Sources Tests Package.swift

.DEFAULT_GOAL := build
.PHONY: build test run install format lint clean

build:
	$(SWIFT) build -c $(CONFIG) --product shelf

test:
	$(SWIFT) build --build-tests
	SHELF_BIN="$$($(SWIFT) build --show-bin-path)/shelf" $(SWIFT) test

run: build
	"$$($(SWIFT) build -c $(CONFIG) --show-bin-path)/shelf"

install:
	install -d "$(DESTDIR)$(PREFIX)/bin"
	install -m 0755 "$$($(SWIFT) build -c $(CONFIG) --show-bin-path)/shelf" "$(DESTDIR)$(PREFIX)/bin/shelf"
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
