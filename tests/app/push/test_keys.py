"""The VAPID key: generated once into the data directory (readable by the server's user
only), the same for processes that start together on a shared directory, or given by the
PUSH_VAPID_KEY setting (a PEM or its path)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from app.core.config import ROOT
from app.push.keys import load_or_create, public_key

PRINT_KEY = (
    "import sys; from pathlib import Path; from app.push.keys import load_or_create, public_key;"
    "print(public_key(load_or_create(Path(sys.argv[1]))))"
)


def test_generated_once_and_private(tmp_path: Path) -> None:
    first = public_key(load_or_create(tmp_path))
    assert public_key(load_or_create(tmp_path)) == first
    path = tmp_path / "vapid_private.pem"
    assert path.stat().st_mode & 0o777 == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["vapid_private.pem"]


def test_processes_starting_together_share_one_key(tmp_path: Path) -> None:
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", PRINT_KEY, str(tmp_path)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(4)
    ]
    keys = set()
    for proc in procs:
        out, _ = proc.communicate(timeout=60)
        keys.add(out.strip())
    assert len(keys) == 1 and keys == {public_key(load_or_create(tmp_path))}


def test_given_by_the_setting(tmp_path: Path) -> None:
    made = load_or_create(tmp_path / "a")
    pem = (tmp_path / "a" / "vapid_private.pem").read_text()
    assert public_key(load_or_create(tmp_path / "b", pem)) == public_key(made)
    given_path = str(tmp_path / "a" / "vapid_private.pem")
    assert public_key(load_or_create(tmp_path / "c", given_path)) == public_key(made)
    assert not (tmp_path / "b").exists() and not (tmp_path / "c").exists()
