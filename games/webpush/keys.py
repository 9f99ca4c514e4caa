"""The service's VAPID key pair (RFC 8292), on P-256: SEJMI_VAPID_PRIVATE_KEY (the raw private
key, base64url), or the file SEJMI_VAPID_KEY_FILE, made by the first process that needs it
(`vapid.key` beside manage.py and signing.key, git-ignored like it), so every process of one
checkout signs alike. The public key is the browsers' `applicationServerKey`
(GET /api/push/key/): a subscription made with it accepts only pushes signed with this key."""

from __future__ import annotations

import base64
import os
import re
import threading
from functools import cache
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.conf import settings
from py_vapid import Vapid

_made = threading.Lock()
_B64URL = re.compile(r"^[A-Za-z0-9_-]+={0,2}$")


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def unb64url(text: str) -> bytes:
    """base64url with or without padding; ValueError for anything else."""
    if not isinstance(text, str) or not text or len(text) > 200:
        raise ValueError("not base64url")
    text = text.strip()
    if not _B64URL.match(text):
        raise ValueError("not base64url")
    return base64.urlsafe_b64decode(text.rstrip("=") + "=" * (-len(text.rstrip("=")) % 4))


def _private_raw() -> str:
    if settings.SEJMI_VAPID_PRIVATE_KEY:
        return settings.SEJMI_VAPID_PRIVATE_KEY.strip()
    path = Path(settings.SEJMI_VAPID_KEY_FILE)
    with _made:
        if not path.exists():  # the first process of a fresh checkout makes it
            key = ec.generate_private_key(ec.SECP256R1())
            raw = key.private_numbers().private_value.to_bytes(32, "big")
            try:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            except FileExistsError:  # another process made it meanwhile
                pass
            else:
                with os.fdopen(fd, "w") as out:
                    out.write(b64url(raw) + "\n")
    return path.read_text().strip()


@cache
def vapid() -> Vapid:
    return Vapid.from_raw(_private_raw().encode())


@cache
def public_key() -> str:
    """The application server key: the uncompressed P-256 point, base64url (65 bytes)."""
    point = vapid().public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return b64url(point)
