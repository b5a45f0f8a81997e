"""The failure rehearsals (tests/deploy/test_rehearsal.py) with their figures printed, and
Redis away for the real `--redis-outage` seconds (60 by default; the test suite uses 25):

    .venv/bin/python -m bench.rehearse                 # all of them
    .venv/bin/python -m bench.rehearse -k redis        # one (pytest's -k)

Each rehearsal starts its own Redis (and PostgreSQL where it restarts it), two replicas and
nginx on loopback, and prints one `REHEARSAL …` line. A script that prints figures.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--redis-outage", type=float, default=60.0, help="seconds")
    parser.add_argument("-k", default="", help="only the rehearsals matching (pytest -k)")
    args = parser.parse_args()
    command = [sys.executable, "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider"]
    command += ["tests/deploy/test_rehearsal.py", *(("-k", args.k) if args.k else ())]
    env = {**os.environ, "STOLIK_REHEARSAL_OUTAGE": str(args.redis_outage)}
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    lines = [line for line in done.stdout.splitlines() if line.startswith("REHEARSAL")]
    print("\n".join(lines) or done.stdout[-3000:])
    print(done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr[-2000:])
    sys.exit(done.returncode)


if __name__ == "__main__":
    main()
