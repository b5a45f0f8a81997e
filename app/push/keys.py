"""The server's VAPID key pair (RFC 8292): generated once into the data directory (or given
by the PUSH_VAPID_KEY setting), never committed. Browsers subscribe with its public half."""

from __future__ import annotations

import base64
import contextlib
import os
from functools import cache
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid02


def load_or_create(data_dir: Path, given: str = "") -> Vapid02:
    """The VAPID key: `given` (a PEM, or the path of one) if set, else the one in `data_dir`
    (made on first use, readable by the server's user only)."""
    if given:
        path = Path(given)
        if "BEGIN" not in given and path.exists():
            return Vapid02.from_file(str(path))
        return Vapid02.from_pem(given.encode())
    path = data_dir / "vapid_private.pem"
    if not path.exists():
        data_dir.mkdir(parents=True, exist_ok=True)
        key = Vapid02()
        key.generate_keys()
        draft = data_dir / f".vapid_private.{os.getpid()}.pem"
        key.save_key(str(draft))
        draft.chmod(0o600)
        # Processes sharing the directory may start together: the first link wins, and
        # every one of them reads the winner's key (a subscription is bound to one key).
        with contextlib.suppress(FileExistsError):
            os.link(draft, path)
        draft.unlink()
    return Vapid02.from_file(str(path))


@cache
def server_key(data_dir: Path, given: str = "") -> Vapid02:
    """`load_or_create`, once per process."""
    return load_or_create(data_dir, given)


def public_key(key: Vapid02) -> str:
    """The public key as a browser's `applicationServerKey` wants it: the uncompressed P-256
    point, base64url without padding."""
    raw = key.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")
