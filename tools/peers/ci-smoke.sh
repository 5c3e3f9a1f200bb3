#!/usr/bin/env bash
# The peers' CI step (docs/peers.md, tools/peers/README.md): the drivers' own tests, then a
# smoke-tier conformance run of the torch driver against Debian's PyTorch, judged with the expected
# failures of tools/peers/torch-1.13.smoke.xfail. Without python3-torch it says so and succeeds.
#   tools/peers/ci-smoke.sh [path/to/funcspec]
set -euo pipefail
cd "$(dirname "$0")/../.."
funcspec=${1:-build/tools/funcspec}
python=/usr/bin/python3

if ! "$python" -c 'import torch, functorch' >/dev/null 2>&1; then
  echo "peers: skipped the torch driver's smoke run: python3-torch is not installed (apt-get install -y python3-torch)"
  exit 0
fi
version=$("$python" -c 'import torch; print(torch.__version__)')
manifest=tools/peers/torch-1.13.smoke.xfail
if [[ $version != 1.13* ]]; then
  echo "peers: skipped the torch driver's smoke run: $manifest is for PyTorch 1.13, this is PyTorch $version"
  exit 0
fi
echo "== peers: driver tests =="
"$python" -m unittest discover -s tools/peers/tests
echo "== peers: torch driver (PyTorch $version), smoke tier =="
"$funcspec" check --backend "exec:$python tools/peers/torch_func.py" --tier smoke --xfail "$manifest" --quiet
