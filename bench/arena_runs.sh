#!/bin/bash
# The arena's strength check (issue 36 §3): normal against random seats and hard against normal
# seats for every shipped title (4 players, Incan Gold 3), niced, two workers, each game
# recorded in bench/arena-runs/GAME-normal-random.jsonl or GAME-hard-normal.jsonl (kept in git, so
# a later session resumes them). Stopped at any time and started again, it resumes (the recorded
# seeds are skipped). Steps, in order:
# nr:GAME:N (normal vs random, up to N games) or hn:GAME:N (hard vs normal), e.g.
#
#     nohup bench/arena_runs.sh nr:incan_gold:100 hn:incan_gold:100 > /tmp/arena.log 2>&1 &
#     .venv/bin/python -m bench.arena --summary bench/arena-runs/*.jsonl --markdown
cd "$(dirname "$0")/.." && mkdir -p bench/arena-runs
run() { # game seats file games
  echo "$(date -u +%T) start $1 $2 $4 games, load $(cut -d' ' -f1-3 /proc/loadavg)"
  nice -n 19 .venv/bin/python -m bench.arena --game "$1" --seats "$2" --games "$4" \
    --workers 2 --out "bench/arena-runs/$3.jsonl" | sed -n 1,4p
  echo "$(date -u +%T) end $1, load $(cut -d' ' -f1-3 /proc/loadavg)"
}
for step in "$@"; do
  IFS=: read -r kind game n <<< "$step"
  weak=normal,random,random,random
  strong=hard,normal,normal,normal
  if [ "$game" = incan_gold ]; then weak=normal,random,random; strong=hard,normal,normal; fi
  case $kind in
    nr) run "$game" "$weak" "$game-normal-random" "$n" ;;
    hn) run "$game" "$strong" "$game-hard-normal" "$n" ;;
    *) echo "unknown step $step (nr:GAME:N or hn:GAME:N)"; exit 2 ;;
  esac
done
