"""A real test push service on loopback (RFC 8030), and fake browsers that decrypt what it
receives as a browser would (RFC 8291 with http_ece, each with its own P-256 key pair and auth
secret), for the Web Push tests (tests/webpush, tests/browser/test_browser_push.py)."""

from __future__ import annotations

import base64
import itertools
import json
import os
import re
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

_names = itertools.count(1)


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Received:
    path: str
    headers: dict[str, str]  # lower-case names
    body: bytes
    at: float  # time.time() when the request arrived
    status: int  # what the service answered


class PushService:
    """Accepts pushes on http://127.0.0.1:<port>/push/<name>. `script(name, *answers)` sets
    the next answers for that subscription (a status, or "hang": no answer for `hang_s`);
    afterwards it answers 201 Created, as the push services do."""

    def __init__(self) -> None:
        self.received: list[Received] = []
        self.answers: dict[str, list] = {}
        self.hang_s = 3.0
        self.lock = threading.Lock()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with service.lock:
                    script = service.answers.get(self.path) or []
                    answer = script.pop(0) if script else 201
                    service.received.append(Received(
                        self.path, {k.lower(): v for k, v in self.headers.items()}, body,
                        time.time(), 0 if answer == "hang" else answer))  # fmt: skip
                if answer == "hang":
                    time.sleep(service.hang_s)
                    return  # the sender timed out long ago
                self.send_response(answer)
                self.send_header("Content-Length", "0")
                if answer == 201:
                    self.send_header("Location", f"{self.path}/message")
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def script(self, browser: FakeBrowser, *answers) -> None:
        with self.lock:
            self.answers[browser.path] = list(answers)

    def to(self, browser: FakeBrowser) -> list[Received]:
        with self.lock:
            return [r for r in self.received if r.path == browser.path]

    def clear(self) -> None:
        with self.lock:
            self.received.clear()
            self.answers.clear()


class FakeBrowser:
    """One browser's push subscription: its endpoint on the test service and its keys."""

    def __init__(self, service: PushService) -> None:
        self.path = f"/push/b{next(_names)}x{os.getpid()}"
        self.endpoint = service.url + self.path
        self.private = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)

    def subscription(self) -> dict:
        """What the page POSTs: `PushSubscription.toJSON()`."""
        point = self.private.public_key().public_bytes(Encoding.X962,
                                                       PublicFormat.UncompressedPoint)  # fmt: skip
        return {"endpoint": self.endpoint, "expirationTime": None,
                "keys": {"p256dh": b64(point), "auth": b64(self.auth)}}  # fmt: skip

    def decrypt(self, body: bytes) -> dict:
        plain = http_ece.decrypt(body, private_key=self.private, auth_secret=self.auth,
                                 version="aes128gcm")  # fmt: skip
        return json.loads(plain)


def vapid_claims(authorization: str, public_key: str) -> dict:
    """RFC 8292: `vapid t=<JWT>,k=<the service's public key>`; the JWT's ES256 signature
    verified against `public_key` (GET /api/push/key/). Its claims."""
    scheme, _, params = authorization.partition(" ")
    assert scheme == "vapid", authorization
    parts = dict(p.split("=", 1) for p in params.split(","))
    assert parts["k"] == public_key, "signed with another key than the one the page got"
    head, claims, signature = parts["t"].split(".")
    assert json.loads(unb64(head)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64(signature)
    assert len(raw) == 64
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(public_key))
    try:
        key.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        pytest.fail("the VAPID JWT's signature does not verify")
    return json.loads(unb64(claims))


CARD = re.compile(r"\bC\d\d\b")
PAYLOAD_KEYS = {"kind", "game", "seq", "title", "body", "url"}


def subscribe(client, browser: FakeBrowser, language: str = "en", status: int = 201):
    answer = client.post("/api/me/push-subscriptions/", browser.subscription(), format="json",
                         HTTP_ACCEPT_LANGUAGE=language)  # fmt: skip
    assert answer.status_code == status, answer.content
    return answer.json()


def checked(push, browser: FakeBrowser, public_key: str, service) -> dict:
    """Every header the contract names, the VAPID signature, and the decrypted payload."""
    h = push.headers
    assert h["content-encoding"] == "aes128gcm"
    assert int(h["ttl"]) > 0
    assert re.fullmatch(r"[A-Za-z0-9_-]{1,32}", h["topic"]), h["topic"]
    assert h["urgency"] in ("normal", "high")
    claims = vapid_claims(h["authorization"], public_key)
    assert claims["aud"] == service.url and claims["exp"] > time.time()
    assert claims["sub"].startswith(("mailto:", "https:"))
    payload = browser.decrypt(push.body)
    assert set(payload) == PAYLOAD_KEYS, payload
    assert not CARD.search(json.dumps(payload)), payload  # shown on lock screens: no card
    return payload
