# SPDX-License-Identifier: MIT
# Makefile: the two-command quick start (make run, make check) over CMake.
BUILD ?= build
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60
PREFIX ?= /usr/local
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=

CI_BUILD ?= build-ci
CI_ASAN_BUILD ?= build-ci-asan

.PHONY: all configure build run check check-asan ci fuzz bench bench-quick install clean portability kmod dkms dkms-remove

all: build

# Configured every time (a second or two), so that what is given now (PREFIX, CMAKE_FLAGS) wins
# over whatever an earlier configure left in $(BUILD)/CMakeCache.txt.
configure:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=$(PREFIX) $(CMAKE_FLAGS)

build: configure
	cmake --build $(BUILD) -j $(JOBS)

# Build, then characterise this machine: validate every clock method, measure the resolution.
run: build
	./$(BUILD)/tickscope

# Build, then run every test; then list the tests CTest skipped, each with its reason (a missing
# package, mostly). With TKS_CI=1 (what .ci/run sets) a skip fails the check.
check: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS) --output-junit $(abspath $(BUILD))/check-junit.xml; \
	  rc=$$?; python3 $(CURDIR)/tests/skips.py $(abspath $(BUILD))/check-junit.xml || rc=1; exit $$rc

# Only the portability matrix (also part of check): clang, i386 and arm64 (QEMU) builds with their
# tests, and the public headers as C99, C11, C++ and for Windows. Skips name missing packages.
portability: build
	cd $(BUILD) && ctest --output-on-failure -L portability

# The same tests under AddressSanitizer and UndefinedBehaviorSanitizer.
check-asan:
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTKS_SANITIZE=ON $(CMAKE_FLAGS)
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	@cd $(ASAN_BUILD) && ctest --output-on-failure -j $(JOBS) --output-junit $(abspath $(ASAN_BUILD))/check-junit.xml; \
	  rc=$$?; python3 $(CURDIR)/tests/skips.py $(abspath $(ASAN_BUILD))/check-junit.xml || rc=1; exit $$rc

# What CI runs: warnings are errors, then the tests plain and sanitised, then the quick benches
# against their targets. In build directories of its own, so that neither a `make run` before nor
# a `make check` after changes what it tests.
ci:
	$(MAKE) check BUILD=$(CI_BUILD) CMAKE_FLAGS="-DTKS_WERROR=ON $(CMAKE_FLAGS)"
	$(MAKE) check-asan ASAN_BUILD=$(CI_ASAN_BUILD) CMAKE_FLAGS="-DTKS_WERROR=ON $(CMAKE_FLAGS)"
	$(MAKE) bench-quick BUILD=$(CI_BUILD) CMAKE_FLAGS="-DTKS_WERROR=ON $(CMAKE_FLAGS)"

# Every parser fuzzed with libFuzzer (clang; tests/fuzz/run.sh) for FUZZ_SECONDS each; a crashing
# input lands in tests/fuzz/corpus/NAME/, which ctest replays.
fuzz:
	bash tests/fuzz/run.sh . $(FUZZ_BUILD) $(FUZZ_SECONDS)

# Benchmarks of tickscope itself: each prints its figures. Each gets the tickscope binary's path
# (bench_validate runs it; the others ignore it). Those that hold figures to targets (published
# costs on a CPU bench/known_cpu.h knows) exit 1 on a miss: every bench still runs, and the
# misses are listed at the end (exit 1).
bench: build
	@failed=""; for b in $(BUILD)/bench/bench_*; do echo "== $$b"; $$b $(BUILD)/tickscope || failed="$$failed $${b##*/}"; done; \
	  if [ -n "$$failed" ]; then echo "bench: missed a target or failed:$$failed"; exit 1; fi

# The quick benches, what CI runs (a minute and a half on a 2-vCPU Zen 4 guest): bench_asm (the
# published latencies and throughputs of this CPU, one add resolved, one snippet's time) and
# bench_compare with 20 comparisons a case (19 of 20 verdicts right, each under 2 s), run up to
# three times and passing at the first run that meets its targets (bench_asm takes the best of
# three of each figure itself): a loaded machine moves verdicts and times, three misses in a row
# are no load. Exit 1 when one misses a target.
BENCH_QUICK_COMPARISONS ?= 20
bench-quick: build
	@failed=""; \
	  echo "== bench_asm"; $(BUILD)/bench/bench_asm $(BUILD)/tickscope || failed="$$failed bench_asm"; \
	  ok=0; for try in 1 2 3; do echo "== bench_compare $(BENCH_QUICK_COMPARISONS) (try $$try of 3)"; \
	    if $(BUILD)/bench/bench_compare $(BENCH_QUICK_COMPARISONS); then ok=1; break; fi; done; \
	  [ $$ok = 1 ] || failed="$$failed bench_compare"; \
	  if [ -n "$$failed" ]; then echo "bench-quick: missed a target or failed:$$failed"; exit 1; fi

# The kernel module tickscope.ko, built by kbuild into $(BUILD)/kmod against the running kernel's
# headers (KDIR=/path/to/build for another kernel). See kmod/README.md.
kmod:
	$(MAKE) -C kmod OUT=$(abspath $(BUILD))/kmod

# The kernel module under DKMS, rebuilt at every kernel update (kmod/README.md): its sources go to
# /usr/src/tickscope-VERSION, then dkms add, build and install. dkms-remove undoes it.
dkms:
	sh kmod/dkms.sh install

dkms-remove:
	sh kmod/dkms.sh remove

# PREFIX as given now (default /usr/local), whatever the build directory was configured with.
install: build
	cmake --install $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(CI_BUILD) $(CI_ASAN_BUILD) $(FUZZ_BUILD)
