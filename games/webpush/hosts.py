"""Which push endpoints the service stores and calls: no SSRF. Only hosts named in
SEJMI_PUSH_HOSTS (the browsers' push services by default; "*.example.com" names the subdomains
of example.com), over https; a loopback host (127.0.0.0/8, ::1, localhost) named there may be
plain http, for tests. No user info in the URL, no other scheme. Checked when a subscription
is stored and again before every request (the setting may have changed); redirects are never
followed (games.webpush.sending)."""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from django.conf import settings

MAX_LENGTH = 1024


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _named(host: str, allowed: list[str]) -> bool:
    for entry in allowed:
        entry = entry.strip().lower().rstrip(".")
        if entry.startswith("*."):
            if host.endswith(entry[1:]) and len(host) > len(entry) - 1:
                return True
        elif host == entry:
            return True
    return False


def allowed(endpoint: object) -> bool:
    """Whether `endpoint` may be stored and posted to."""
    if not isinstance(endpoint, str) or not 0 < len(endpoint) <= MAX_LENGTH:
        return False
    if any(ord(c) <= 32 or ord(c) == 127 for c in endpoint):
        return False
    try:
        parts = urlsplit(endpoint)
        port = parts.port  # a bad port raises ValueError
    except ValueError:
        return False
    host = (parts.hostname or "").lower().rstrip(".")
    if not host or parts.username is not None or parts.password is not None or parts.fragment:
        return False
    if port is not None and not 0 < port < 65536:
        return False
    if not _named(host, list(settings.SEJMI_PUSH_HOSTS)):
        return False
    return parts.scheme == "https" or (parts.scheme == "http" and _loopback(host))
