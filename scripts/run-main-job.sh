#!/usr/bin/env bash
# The main job: builds the funcspec command and runs the conformance suite (pr tier) against the
# reference backend, writing its reports to funcspec-report/ (JSON, JUnit XML, the clause matrix in
# Markdown). Exit status 0 iff no test failed unexpectedly. Extra arguments go to `funcspec check`
# and override the defaults below (e.g. --tier smoke, --backend exec:"python3 my_backend.py").
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-dependencies.sh
scripts/configure-and-build.sh build funcspec funcspec-reference-backend funcspec_reference_plugin
mkdir -p funcspec-report
exec build/tools/funcspec check --backend reference --tier pr --jobs "$(nproc)" \
  --json funcspec-report/report.json --junit funcspec-report/junit.xml --markdown funcspec-report/clauses.md \
  --artifacts funcspec-report/replay "$@"
