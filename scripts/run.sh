#!/usr/bin/env bash
# Install (if needed) and start Stolik. With no DATABASE_URL it runs on the embedded SQLite
# file in ./data; migrations run at start. Open http://127.0.0.1:${PORT:-8000}/
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
exec .venv/bin/uvicorn app.main:app --host "${HOST:-127.0.0.1}" --port "${PORT:-8000}" \
  --ws app.realtime.transport:StolikWebSockets --ws-max-size 65536 --ws-per-message-deflate false \
  --timeout-keep-alive 75 --proxy-headers
