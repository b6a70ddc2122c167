# Makefile: the two-command quick start (make run, make check) over CMake.
BUILD ?= build
ASAN_BUILD ?= build-asan
PREFIX ?= /usr/local
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=

.PHONY: all build run check check-asan ci bench install clean

all: build

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=$(PREFIX) $(CMAKE_FLAGS)

build: $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

# Build, then characterise this machine: validate every clock method, measure the resolution.
run: build
	./$(BUILD)/tickscope

# Build, then run every test.
check: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The same tests under AddressSanitizer and UndefinedBehaviorSanitizer.
check-asan:
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTKS_SANITIZE=ON $(CMAKE_FLAGS)
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ctest --output-on-failure -j $(JOBS)

# What CI runs: warnings are errors, then the tests plain and sanitised.
ci:
	$(MAKE) check CMAKE_FLAGS="-DTKS_WERROR=ON"
	$(MAKE) check-asan CMAKE_FLAGS="-DTKS_WERROR=ON"

# Benchmarks of tickscope itself: each prints its figures. Each gets the tickscope binary's path
# (bench_validate runs it; the others ignore it).
bench: build
	@for b in $(BUILD)/bench/bench_*; do echo "== $$b"; $$b $(BUILD)/tickscope || exit 1; done

install: build
	cmake --install $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
