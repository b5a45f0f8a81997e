#!/usr/bin/env bash
# Issue 37's side-by-side comparison on this machine: boardgame.io in memory, boardgame.io on
# PostgreSQL and Stolik on PostgreSQL, alternated, each run on a fresh server (and a fresh
# database), the same lockstep method (bench/lockstep.py, bench/bgio/lockstep.js).
#   bench/bgio/side_by_side.sh "100 500" [rounds] [kinds]
# kinds: any of bgio-memory bgio-postgres stolik (default all three, in that order).
# Ports BGIO_PORT (8500) and STOLIK_PORT (8510); databases ${DB_PREFIX:-bgio}_run_*, dropped
# after each run. Needs bench/bgio/install.sh and scripts/install.sh first. Every run prints
# the load average before and after (the client prints it too).
set -euo pipefail
cd "$(dirname "$0")/../.."
TABLES=${1:-"100 500"}
ROUNDS=${2:-1}
KINDS=${3:-"bgio-memory bgio-postgres stolik"}
BGIO_PORT=${BGIO_PORT:-8500}
STOLIK_PORT=${STOLIK_PORT:-8510}
PROCS=${PROCS:-1}           # client processes for the boardgame.io client
PING_TIMEOUT=${PING_TIMEOUT:-120}  # boardgame.io server: socket.io ping timeout, s (its own: 20)
MAX_SECONDS=${MAX_SECONDS:-900}  # bound of the play (both clients): a run past it stops there
PG=postgresql://postgres@127.0.0.1:5432
DB=${DB_PREFIX:-bgio}_run_$$
psql_() { PGOPTIONS=--client-min-messages=warning psql -h 127.0.0.1 -U postgres -qc "$1" >/dev/null; }
stop() { if [ -n "${SERVER:-}" ]; then kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; fi; SERVER=; }
trap 'stop; psql_ "DROP DATABASE IF EXISTS $DB" || true' EXIT

for round in $(seq 1 "$ROUNDS"); do
  for tables in $TABLES; do
    for kind in $KINDS; do
      echo "=== $kind, $tables tables, round $round, $(date -u +%H:%M:%S) UTC, load $(cut -d' ' -f1-3 /proc/loadavg)"
      psql_ "DROP DATABASE IF EXISTS $DB"
      case $kind in
        bgio-memory)
          node bench/bgio/server.js --port "$BGIO_PORT" --ping-timeout "$PING_TIMEOUT" >/tmp/$DB.log 2>&1 & SERVER=$!
          node bench/bgio/lockstep.js --url "http://127.0.0.1:$BGIO_PORT" --tables "$tables" \
            --server-pid "$SERVER" --procs "$PROCS" --max-seconds "$MAX_SECONDS" ;;
        bgio-postgres)
          psql_ "CREATE DATABASE $DB"
          node bench/bgio/server.js --port "$BGIO_PORT" --ping-timeout "$PING_TIMEOUT" --postgres "$PG/$DB" >/tmp/$DB.log 2>&1 & SERVER=$!
          node bench/bgio/lockstep.js --url "http://127.0.0.1:$BGIO_PORT" --tables "$tables" \
            --server-pid "$SERVER" --procs "$PROCS" --max-seconds "$MAX_SECONDS" ;;
        stolik)
          psql_ "CREATE DATABASE $DB"
          DATABASE_URL="$PG/$DB" PORT="$STOLIK_PORT" REVIEW=false CREATE_RATE_COUNT=0 \
            ACT_RATE_COUNT=0 ACT_RATE_ADDRESS_COUNT=0 scripts/run.sh >/tmp/$DB.log 2>&1 & SERVER=$!
          .venv/bin/python bench/lockstep.py --url "http://127.0.0.1:$STOLIK_PORT" \
            --tables "$tables" --server-pid "$SERVER" --max-seconds "$MAX_SECONDS" ;;
        *) echo "unknown kind $kind" >&2; exit 2 ;;
      esac || echo "!!! $kind at $tables tables failed"
      # The server's RSS at the end of the run (its memory with the tables still open).
      echo "server RSS at the end: $(( $(awk '/VmRSS/ {print $2}' /proc/$SERVER/status) / 1024 )) MiB"
      stop
    done
  done
done
psql_ "DROP DATABASE IF EXISTS $DB"
