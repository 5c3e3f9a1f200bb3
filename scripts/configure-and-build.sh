#!/usr/bin/env bash
# Configures (once) and builds one build tree. Usage: configure-and-build.sh BUILD_DIR [TARGET...] [-- CMAKE_ARGS...]
# Incremental: a second run with nothing changed does no work beyond ninja's check.
set -euo pipefail
cd "$(dirname "$0")/.."

build_dir=$1
shift
targets=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do targets+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
cmake_args=("$@")

if [ ! -f "$build_dir/build.ninja" ]; then
  mkdir -p "$build_dir"
  cmake -S . -B "$build_dir" -G Ninja "${cmake_args[@]}" >"$build_dir/configure.log" 2>&1 || {
    cat "$build_dir/configure.log" >&2
    exit 1
  }
fi
jobs=$(nproc)
ninja -C "$build_dir" -j "$jobs" "${targets[@]}"
