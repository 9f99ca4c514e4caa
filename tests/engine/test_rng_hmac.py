"""R22: draw n is HMAC-SHA256(seed, f"{purpose}:{n}:{block}") (docs/RANDOMNESS.md). rng.py
computes the HMAC from hash states keyed once per seed, for speed; it must stay the HMAC anyone
re-derives with the standard library, or no audit of a game would check out."""

import hmac
import struct

import pytest

from games.engine import rng

SEEDS = [
    bytes(32),
    bytes(range(32)),
    b"\xff" * 32,
    b"short",
    b"",
    bytes(range(64)),  # exactly one SHA-256 block: used as it is
    bytes(range(65)),  # longer than a block: hashed first
    bytes(range(200)),
]


def _reference_stream(seed: bytes, purpose: str, n: int):
    block = 0
    while True:
        digest = hmac.digest(seed, f"{purpose}:{n}:{block}".encode(), "sha256")
        yield from struct.unpack(">16H", digest)
        block += 1


def _reference_below(stream, bound: int) -> int:
    span = 65536 - 65536 % bound
    return next(x % bound for x in stream if x < span)


@pytest.mark.parametrize("seed", SEEDS, ids=lambda s: f"{len(s)}-bytes-{s[:2].hex()}")
def test_each_block_is_the_standard_libraries_hmac_sha256(seed):
    for message in (b"", b"roll:0:0", b"shuffle:3:1", bytes(range(100))):
        assert rng._hmac_sha256(seed, message) == hmac.digest(seed, message, "sha256")


@pytest.mark.parametrize("seed", SEEDS, ids=lambda s: f"{len(s)}-bytes-{s[:2].hex()}")
def test_rolls_and_shuffles_are_those_the_spec_derives(seed):
    for n in range(20):
        assert rng.roll(seed, n) == _reference_below(_reference_stream(seed, "roll", n), 6) + 1
    cards = [f"c{i}" for i in range(60)]  # 59 draws: four blocks of the stream
    for n in range(3):
        stream, expected = _reference_stream(seed, "shuffle", n), list(cards)
        for i in range(len(expected) - 1, 0, -1):
            j = _reference_below(stream, i + 1)
            expected[i], expected[j] = expected[j], expected[i]
        assert rng.shuffle(seed, n, cards) == expected


def test_a_seed_keyed_once_gives_the_same_draws_when_asked_again():
    seed = bytes(range(32))
    first = [rng.roll(seed, n) for n in range(10)]
    rng._keyed.cache_clear()
    assert [rng.roll(seed, n) for n in range(10)] == first == [rng.roll(seed, n) for n in range(10)]


def test_a_roll_whose_first_block_is_all_rejected_reads_the_next_block(monkeypatch):
    """roll reads block 0 by itself; in the (never seen) case that all 16 numbers of it are
    rejected it must go on with block 1, as the stream does."""
    real = rng._block
    rejected = (65535,) * 16  # 65535 >= 65532, the largest multiple of 6 below 2**16
    monkeypatch.setattr(
        rng, "_block", lambda seed, p, n, block: rejected if block == 0 else real(seed, p, n, block)
    )
    seed = bytes(range(32))
    for n in range(5):
        following = real(seed, "roll", n, 1)
        assert rng.roll(seed, n) == next(x % 6 for x in following if x < 65532) + 1
