#!/usr/bin/env bash
# Builds everything and runs every test: the unit tests, the catalogue-wide sample checks and the
# property tests, first in the normal build, then in the AddressSanitizer+UndefinedBehaviorSanitizer
# build. Exits non-zero when any test fails or either build has a warning.
#
#   scripts/run-tests.sh            # every test CI runs: the conformance suite at the pr tier
#   scripts/run-tests.sh --nightly  # and the nightly job's tests too (ctest label "nightly": the
#                                   # conformance suite at the exhaustive tier)
set -euo pipefail
cd "$(dirname "$0")/.."
nightly_tests=(-LE nightly)
case "${1:-}" in
  "") ;;
  --nightly) nightly_tests=() ;;
  *) echo "usage: scripts/run-tests.sh [--nightly]" >&2; exit 2 ;;
esac
scripts/install-dependencies.sh

# Both builds are unity builds (FUNCSPEC_UNITY_BUILD, see CMakeLists.txt): about half the compile
# time of a clean build. A build directory that already exists keeps the options it was configured with.
echo "== build (warnings are errors) =="
scripts/configure-and-build.sh build -- -DFUNCSPEC_UNITY_BUILD=ON
echo "== tests =="
# This includes the golden fixtures check (label "fixtures", docs/fixtures.md): `funcspec fixtures
# verify` (fixtures/golden is what regeneration writes) and fixtures/golden run as a case directory
# against the reference; not repeated here.
(cd build && ctest --output-on-failure -j "$(nproc)" --timeout 300 "${nightly_tests[@]}")
echo "== peers (optional: a smoke run of the torch driver when python3-torch is installed) =="
tools/peers/ci-smoke.sh build/tools/funcspec

echo "== build with ASan+UBSan =="
# Everything but the benchmarks, so every test executable ctest knows about exists. The CUDA backend
# is built against the host emulator (docs/cuda.md): the normal build above proves the .cu files
# compile with nvcc (and runs the CUDA tests where a GPU is present); here the same kernels and their
# glue run on the cpu under the sanitizers, so the CUDA tests, the reference-cuda suite and the
# cross-check run on every machine, a GPU or not.
scripts/configure-and-build.sh build-asan -- \
  -DFUNCSPEC_SANITIZE=ON -DFUNCSPEC_BUILD_BENCHMARKS=OFF -DCMAKE_BUILD_TYPE=Debug -DFUNCSPEC_UNITY_BUILD=ON \
  -DFUNCSPEC_CUDA_EMULATOR=ON
echo "== tests under ASan+UBSan =="
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  bash -c 'cd build-asan && ctest --output-on-failure -j "$(nproc)" --timeout 600'
