#!/usr/bin/env bash
# Installs boardgame.io 0.50.2 and bgio-postgres for the side-by-side benchmark (README.md
# here) from package-lock.json. Not part of scripts/install.sh: CI does not need it.
set -euo pipefail
cd "$(dirname "$0")"
command -v npm >/dev/null || { echo "bench/bgio needs node (>= 18) and npm" >&2; exit 1; }
npm ci --no-audit --no-fund
echo "bench/bgio: ok"
