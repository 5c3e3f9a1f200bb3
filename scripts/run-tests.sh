#!/usr/bin/env bash
# Builds everything (benchmarks included) and runs every test: the unit tests, the catalogue-wide
# sample checks, the conformance runs and the property tests, in an AddressSanitizer +
# UndefinedBehaviorSanitizer build. Exits non-zero when any test fails or the build has a warning.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-dependencies.sh

# One build, optimized and sanitized: -O2 keeps the optimizer's warnings (errors here, as in the
# main job's build) and runs the tests at speed, ASan+UBSan catch memory errors and undefined
# behaviour in every test. Building twice (plain, then sanitized) cost CI's two cores half its time.
echo "== build: RelWithDebInfo with ASan+UBSan, warnings are errors =="
scripts/configure-and-build.sh build-asan -- -DFUNCSPEC_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo
echo "== tests under ASan+UBSan =="
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  bash -c 'cd build-asan && ctest --output-on-failure -j "$(nproc)" --timeout 600'
