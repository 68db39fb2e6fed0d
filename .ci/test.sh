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
  # another apt run (unattended upgrades on a fresh machine) may hold the lock: wait for it, up to 10 minutes
  lock=(-o DPkg::Lock::Timeout=600)
  for try in $(seq 60); do  # `update` has no lock timeout of its own: retry while the lists are locked
    apt-get "${lock[@]}" update -q >/dev/null 2>/tmp/apt-update.err && break
    grep -q "lock" /tmp/apt-update.err || { cat /tmp/apt-update.err >&2; exit 1; }
    [ "$try" -lt 60 ] || { cat /tmp/apt-update.err >&2; exit 1; }
    sleep 10
  done
  apt-get "${lock[@]}" install -y -q --no-install-recommends "${need[@]}" >/dev/null
fi
python3 -m venv .venv
.venv/bin/pip install -q --upgrade pip >/dev/null
.venv/bin/pip install -q -e '.[test]'
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy  # settings and files in pyproject.toml [tool.mypy]
# Tests marked `shared` need ../shared (the real-site corpus): .ci/run runs them as a step of their own.
exec .venv/bin/pytest -q -p no:cacheprovider -m "not shared" "$@"
