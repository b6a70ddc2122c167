# Makefile: the two-command quick start (make run, make check) over CMake.
BUILD ?= build
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60
PREFIX ?= /usr/local
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=

.PHONY: all build run check check-asan ci fuzz bench install clean portability kmod dkms dkms-remove

all: build

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=$(PREFIX) $(CMAKE_FLAGS)

build: $(BUILD)/CMakeCache.txt
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

# What CI runs: warnings are errors, then the tests plain and sanitised.
ci:
	$(MAKE) check CMAKE_FLAGS="-DTKS_WERROR=ON"
	$(MAKE) check-asan CMAKE_FLAGS="-DTKS_WERROR=ON"

# Every parser fuzzed with libFuzzer (clang; tests/fuzz/run.sh) for FUZZ_SECONDS each; a crashing
# input lands in tests/fuzz/corpus/NAME/, which ctest replays.
fuzz:
	bash tests/fuzz/run.sh . $(FUZZ_BUILD) $(FUZZ_SECONDS)

# Benchmarks of tickscope itself: each prints its figures. Each gets the tickscope binary's path
# (bench_validate runs it; the others ignore it).
bench: build
	@for b in $(BUILD)/bench/bench_*; do echo "== $$b"; $$b $(BUILD)/tickscope || exit 1; done

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

install: build
	cmake --install $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD)
