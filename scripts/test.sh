#!/usr/bin/env bash
# Install (if needed) and run the whole test suite: engines, web (on SQLite AND PostgreSQL),
# and the browser test (Debian's Chromium driven by Playwright). Extra args go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
if [ ! -x /usr/bin/chromium ] && [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
.venv/bin/ruff check .
.venv/bin/mypy
exec .venv/bin/pytest -q "$@"
