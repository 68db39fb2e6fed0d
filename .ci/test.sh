#!/usr/bin/env bash
# Install everything the test suite needs on a fresh Debian machine (root), then run it all.
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive
need=()
command -v chromium >/dev/null || need+=(chromium)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
command -v npm >/dev/null || need+=(npm)
if [ ${#need[@]} -gt 0 ]; then
  apt-get update -q >/dev/null
  apt-get install -y -q --no-install-recommends "${need[@]}" >/dev/null
fi
python3 -m venv .venv
.venv/bin/pip install -q --upgrade pip >/dev/null
.venv/bin/pip install -q -e '.[test]'
.venv/bin/ruff check .
.venv/bin/ruff format --check .
exec .venv/bin/pytest -q -p no:cacheprovider "$@"
