#!/usr/bin/env bash
# Install (if needed) and run the whole test suite: formatting, lint, types, then pytest
# (engines, web on SQLite AND PostgreSQL, browser tests in Debian's Chromium) with coverage.
# Extra args go to pytest; with none, the coverage floors are enforced (engines 95 %, app 85 %).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
if [ ! -x /usr/bin/chromium ] && [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
.venv/bin/ruff format --check .
.venv/bin/ruff check .
.venv/bin/mypy
if [ "$#" -gt 0 ]; then
  exec .venv/bin/pytest -q "$@"
fi
.venv/bin/pytest -q --cov --cov-report=
echo "coverage (floors: engines 95 %, app 85 %):"
.venv/bin/coverage report --include='engines/*' --fail-under=95 | grep '^TOTAL' | sed 's/^TOTAL  /engines/'
.venv/bin/coverage report --include='app/*' --fail-under=85 | grep '^TOTAL' | sed 's/^TOTAL  /app    /'
