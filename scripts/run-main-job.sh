#!/usr/bin/env bash
# The main job: builds the funcspec command and runs it against the reference backend
# (the op catalogue and the smoke evaluation of every op; exit status 1 when a check fails).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-dependencies.sh
scripts/configure-and-build.sh build funcspec
exec build/tools/funcspec "$@"
