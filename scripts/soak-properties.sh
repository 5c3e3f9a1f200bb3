#!/usr/bin/env bash
# Soak of the property suite: `funcspec check --filter 'PROP-*'` at one tier over many seeds, against
# the reference or any backend. Each seed's report, log and counterexample cases go to
# funcspec-soak/seed-N.*; the summary lists every failing seed with the command that replays it.
# Usage: scripts/soak-properties.sh [FIRST_SEED [COUNT [TIER]]] [-- MORE_CHECK_ARGS...]
#   scripts/soak-properties.sh 1 200 pr                       # the soak docs/properties.md reports
#   scripts/soak-properties.sh 1 20 nightly -- --backend exec:"python3 my_backend.py"
set -euo pipefail
cd "$(dirname "$0")/.."

first=1 count=200 tier=pr
[ $# -gt 0 ] && [ "$1" != "--" ] && { first=$1; shift; }
[ $# -gt 0 ] && [ "$1" != "--" ] && { count=$1; shift; }
[ $# -gt 0 ] && [ "$1" != "--" ] && { tier=$1; shift; }
[ "${1:-}" = "--" ] && shift

scripts/configure-and-build.sh build funcspec >/dev/null
out=funcspec-soak
rm -rf "$out"
mkdir -p "$out"
failed=()
start=$(date +%s)
for ((seed = first; seed < first + count; seed++)); do
  if build/tools/funcspec check --filter 'PROP-*' --tier "$tier" --seed "$seed" --quiet \
      --json "$out/seed-$seed.json" --artifacts "$out/artifacts-$seed" "$@" >"$out/seed-$seed.log" 2>&1; then
    echo "seed $seed: pass"
  else
    echo "seed $seed: FAIL (see $out/seed-$seed.log)"
    failed+=("$seed")
  fi
done
elapsed=$(($(date +%s) - start))

echo "== soak: $count seeds ($first..$((first + count - 1))) of the $tier tier in ${elapsed}s: $((count - ${#failed[@]})) passed, ${#failed[@]} failed =="
for seed in "${failed[@]}"; do
  echo "  replay: build/tools/funcspec check --filter 'PROP-*' --tier $tier --seed $seed $*"
done
[ ${#failed[@]} -eq 0 ]
