"""Auditable randomness (R22).

A game's secret seed is 32 bytes; its commitment, published in the first event, is SHA-256 of
those bytes. Draw number n (a counter kept in the state and written into each event) is
HMAC-SHA256(seed, f"{purpose}:{n}:{block}") read as a byte stream. Anyone holding the seed can
re-derive every roll and shuffle with the two functions below; docs/RANDOMNESS.md spells it out.
"""

from __future__ import annotations

import hashlib
import secrets
import struct
from collections.abc import Iterator, Sequence
from functools import lru_cache, partial
from itertools import chain, count


def new_seed() -> bytes:
    return secrets.token_bytes(32)


def commitment(seed: bytes) -> str:
    return hashlib.sha256(seed).hexdigest()


# A block is one HMAC-SHA256 digest: 32 bytes, read as 16 big-endian two-byte numbers.
_BLOCK = struct.Struct(">16H")


# HMAC-SHA256 as RFC 2104 defines it, H((K ^ opad) || H((K ^ ipad) || m)), with both keyed
# hashes started once per seed and copied for each draw: `hmac.digest` keys OpenSSL afresh at
# every call, half the cost of a draw (~4 % of a bot game, bench-engine). The result is the
# same HMAC (tests/engine/test_rng_hmac.py checks it against `hmac.digest`).
_SHA256_BLOCK = 64  # bytes: a longer key is hashed first, a shorter one padded with zeros
# Each byte XOR ipad / opad, as translation tables (as the standard library's hmac.py does): a
# new game has a new seed, and a generator over its 64 bytes cost ~0.7 % of a bot game.
_IPAD = bytes(x ^ 0x36 for x in range(256))
_OPAD = bytes(x ^ 0x5C for x in range(256))


@lru_cache(maxsize=64)  # a few games' seeds at a time; it keeps each seed's keyed hashes only
def _keyed(seed: bytes) -> tuple[hashlib._Hash, hashlib._Hash]:
    """The inner and outer SHA-256 states after absorbing the seed XOR ipad and XOR opad."""
    key = hashlib.sha256(seed).digest() if len(seed) > _SHA256_BLOCK else seed
    key = key.ljust(_SHA256_BLOCK, b"\0")
    inner = hashlib.sha256(key.translate(_IPAD))
    outer = hashlib.sha256(key.translate(_OPAD))
    return inner, outer


def _hmac_sha256(seed: bytes, message: bytes) -> bytes:
    inner, outer = _keyed(seed)
    inner, outer = inner.copy(), outer.copy()
    inner.update(message)
    outer.update(inner.digest())
    return outer.digest()


def _block(seed: bytes, purpose: str, n: int, block: int) -> tuple[int, ...]:
    return _BLOCK.unpack(_hmac_sha256(seed, f"{purpose}:{n}:{block}".encode()))


def _stream(seed: bytes, purpose: str, n: int) -> Iterator[int]:
    """The draw's byte stream, two bytes at a time (a digest holds a whole number of pairs).
    Chained by itertools, in C: a generator re-entered the interpreter for every number
    (Python 3.11), ~45 times in a new game's shuffle (bench-engine)."""
    return chain.from_iterable(map(partial(_block, seed, purpose, n), count()))


def _below(stream: Iterator[int], bound: int) -> int:
    """A uniform integer in [0, bound) for bound <= 2**16, by rejection sampling."""
    span = 65536 - 65536 % bound
    for x in stream:
        if x < span:
            return x % bound
    raise AssertionError("the stream is endless")  # pragma: no cover


_SPAN_6 = 65536 - 65536 % 6  # _below's rejection bound for a die


def roll(seed: bytes, n: int) -> int:
    """Die roll number n: 1..6. A coin toss is a roll too: odd = heads, even = tails."""
    # The stream's first block decides all but about one roll in 10**67: read it without
    # making the stream's four iterators (~0.6 % of a bot game); else the stream, from its start.
    for x in _block(seed, "roll", n, 0):
        if x < _SPAN_6:
            return x % 6 + 1
    return _below(_stream(seed, "roll", n), 6) + 1


def shuffle(seed: bytes, n: int, cards: Sequence[str]) -> list[str]:
    """Shuffle number n of `cards` (Fisher–Yates from the last position down)."""
    out = list(cards)
    stream = _stream(seed, "shuffle", n)
    for i in range(len(out) - 1, 0, -1):
        j = _below(stream, i + 1)
        out[i], out[j] = out[j], out[i]
    return out
