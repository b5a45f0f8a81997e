#!/usr/bin/env bash
# Install (if needed) and run the whole test suite: formatting, lint, types, then pytest
# (engines, app on SQLite AND PostgreSQL, browser tests in Debian's Chromium, deployment) with
# coverage. Extra args go to pytest; with none, the coverage floors are enforced (engines 95 %,
# app 85 %). `--fast` first: the same checks and every test except tests/browser/ (the
# `browser` marker) and tests/deploy/, without coverage, in STOLIK_TEST_WORKERS (4) pytest-xdist
# workers: the tests mostly wait on sockets and databases (5-10 minutes on 2 cores); args may
# follow.
# With no args the same split runs with coverage: those tests in the xdist workers, then the
# browser and deployment tests one at a time (one Chromium, the ports of a cluster), their
# coverage appended; one serial run of everything took ~1 hour on a slow 2-core machine.
set -euo pipefail
cd "$(dirname "$0")/.."
FAST=0
if [ "${1:-}" = "--fast" ]; then
  FAST=1
  shift
fi
bash scripts/install.sh
# Debian's Chromium (browser tests) and nginx (the two-process proxy test); never a download.
if [ "$FAST" = "0" ] && { [ ! -x /usr/bin/chromium ] || [ ! -x /usr/sbin/nginx ]; } \
  && [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium nginx >/dev/null
  # The package may start a system nginx on port 80; the tests run their own.
  service nginx stop >/dev/null 2>&1 || true
fi
.venv/bin/ruff format --check .
.venv/bin/ruff check .
.venv/bin/mypy
if [ "$FAST" = "1" ]; then
  exec .venv/bin/pytest -q -n "${STOLIK_TEST_WORKERS:-4}" -m "not browser" \
    --ignore=tests/browser --ignore=tests/deploy "$@"
fi
if [ "$#" -gt 0 ]; then
  exec .venv/bin/pytest -q "$@"
fi
.venv/bin/pytest -q -n "${STOLIK_TEST_WORKERS:-4}" -m "not browser" \
  --ignore=tests/browser --ignore=tests/deploy --cov --cov-report=
.venv/bin/pytest -q tests/browser tests/deploy --cov --cov-append --cov-report=
echo "coverage (floors: engines 95 %, app 85 %):"
.venv/bin/coverage report --include='engines/*' --fail-under=95 | grep '^TOTAL' | sed 's/^TOTAL  /engines/'
.venv/bin/coverage report --include='app/*' --fail-under=85 | grep '^TOTAL' | sed 's/^TOTAL  /app    /'
