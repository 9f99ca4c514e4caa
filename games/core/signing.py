"""Signed checkpoints: the service signs a game's head (seq, hash of the chain there) with an
Ed25519 key the database never holds, so a writer of the database — the service's own role may
INSERT events, it must — cannot extend or replace a game's record unnoticed: a forged append
after a signed head is not covered by any signature, and a forged signature does not verify.

The key: SEJMI_SIGNING_KEY (the 32-byte private seed, hex), or the file SEJMI_SIGNING_KEY_FILE;
without either (`make run`, tests) a key is made once and kept in `signing.key` beside
manage.py (git-ignored), so every process of one checkout signs alike. The public key is
published (GET /api/signing-key/) and written into every export; verifying needs nothing else
(replays.verification, docs/INTEGRITY.md).
"""

from __future__ import annotations

import hashlib
import os
import threading
from functools import cache
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.conf import settings

ALGORITHM = "ed25519"
_made = threading.Lock()


def message(seq: int, head_hash: str) -> bytes:
    """What is signed: the head of a chain. The hash covers every event up to `seq`, the
    first of which commits to the game's seed, so the head names one game's record."""
    return f"sejmi-head:v1:{seq}:{head_hash}".encode()


def sign(seq: int, head_hash: str) -> str:
    """The service's signature of this head, hex."""
    return _private_key().sign(message(seq, head_hash)).hex()


def verify(public_key_hex: str, seq: int, head_hash: str, signature_hex: str) -> bool:
    """Whether `signature_hex` is the owner of `public_key_hex`'s signature of this head."""
    try:
        key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_key_hex))
        key.verify(bytes.fromhex(signature_hex), message(seq, head_hash))
    except (InvalidSignature, ValueError, TypeError):
        return False
    return True


@cache
def public_key() -> str:
    """The public key, hex (32 bytes)."""
    raw = _private_key().public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    return raw.hex()


def key_id(public_key_hex: str) -> str:
    """A short name of a public key: the first 16 hex digits of its SHA-256."""
    return hashlib.sha256(bytes.fromhex(public_key_hex)).hexdigest()[:16]


@cache
def _private_key() -> Ed25519PrivateKey:
    return Ed25519PrivateKey.from_private_bytes(bytes.fromhex(_seed_hex()))


def _seed_hex() -> str:
    if settings.SEJMI_SIGNING_KEY:
        return settings.SEJMI_SIGNING_KEY.strip()
    path = Path(settings.SEJMI_SIGNING_KEY_FILE)
    with _made:
        if not path.exists():  # the first process of a fresh checkout makes it
            seed = os.urandom(32).hex()
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w") as out:
                out.write(seed + "\n")
    return path.read_text().strip()
