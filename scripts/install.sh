#!/usr/bin/env bash
# Install everything Stolik needs into ./.venv and static/vendor (idempotent).
# Python packages come from PyPI (pyproject.toml), front-end libraries from the npm registry
# at the versions pinned in package.json / package-lock.json.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[dev]'

npm ci --no-audit --no-fund --loglevel=error
mkdir -p static/vendor
cp node_modules/htmx.org/dist/htmx.min.js static/vendor/htmx.min.js
cp node_modules/htmx-ext-ws/dist/ws.js static/vendor/ws.js
echo "install: ok"
