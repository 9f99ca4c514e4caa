"""Signed heads (issue 21, games.core.signing): the service role may INSERT events (it must), so
it could append a forged event after a game's end with a correctly computed chain, and the
audit said `chain_ok: true`. The service now signs each game's end and checkpoints with a key
the database never holds: such an append fails the chain check, and an export verifies
offline with the public key alone."""

from __future__ import annotations

import json

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from games.core import event_store, signing
from games.core.models import GameEvent, HeadSignature
from replays.exports import export_lines, read_file, verify_file
from tests.support.ended_game import ended_game
from tests.support.players import register as player


@pytest.fixture
def game(db, settings) -> int:
    settings.SEJMI_ALLOW_RIGGED = True
    return ended_game(player(), player())


def forge_after_the_end(gid: int) -> int:
    """As the service's role (the tests run as it): one more event after game_ended, its hash
    computed as the chain wants. Returns its seq."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_user")
        assert cursor.fetchone()[0] == "sejmi_app"  # not the owner: what production runs as
    last = GameEvent.objects.filter(game_id=gid).order_by("-seq").first()
    seq, at, data = last.seq + 1, timezone.now(), {"seat": 1, "delta": 3, "lives": 9}
    GameEvent.objects.create(game_id=gid, seq=seq, type="lives_changed", v=1, data=data, at=at,
                             prev_hash=last.hash,
                             hash=event_store.event_hash(last.hash, seq, "lives_changed", 1,
                                                         data, at))  # fmt: skip
    return seq


def audit(gid: int) -> dict:
    return APIClient().get(f"/api/games/{gid}/audit/").json()


@pytest.mark.django_db
def test_an_untouched_game_is_signed_at_its_end_and_audits_green(game):
    last = GameEvent.objects.filter(game_id=game).order_by("-seq").first()
    assert HeadSignature.objects.filter(game_id=game, seq=last.seq, head_hash=last.hash).exists()
    answer = audit(game)
    assert answer["chain_ok"] and answer["signature_ok"] and answer["rules_ok"]
    assert answer["public_key"] == APIClient().get("/api/signing-key/").json()["public_key"]


@pytest.mark.django_db
def test_a_forged_append_after_the_end_fails_the_chain_check(game):
    seq = forge_after_the_end(game)
    assert event_store.verify_chain(event_store.load(game)).ok  # the chain alone is fooled
    answer = audit(game)
    assert not answer["chain_ok"] and not answer["signature_ok"]
    assert answer["first_bad_seq"] == seq


@pytest.mark.django_db
def test_a_signature_made_without_the_key_does_not_verify(game):
    seq = forge_after_the_end(game)
    row = GameEvent.objects.get(game_id=game, seq=seq)
    mallory = Ed25519PrivateKey.generate()
    HeadSignature.objects.create(game_id=game, seq=seq, head_hash=row.hash, key_id="mallory",
                                 signature=mallory.sign(signing.message(seq, row.hash)).hex(),
                                 at=timezone.now())  # fmt: skip
    answer = audit(game)
    assert not answer["chain_ok"] and answer["first_bad_seq"] == seq
    assert "not valid" in answer["reason"]


@pytest.mark.django_db
def test_an_export_verifies_offline_with_the_public_key_alone(game):
    key = APIClient().get("/api/signing-key/").json()["public_key"]
    lines = list(export_lines(game))
    assert verify_file(read_file(lines), public_key=key).ok

    # The file extended by a forger who also rewrote the header's count and head, and signed
    # his head with his own key, naming that key in the header: by the service's key, refused.
    header, rows = json.loads(lines[0]), [json.loads(line) for line in lines[1:]]
    last = rows[-1]
    seq, data = last["seq"] + 1, {"seat": 1, "delta": 3, "lives": 9}
    at = timezone.now()
    forged = {
        "seq": seq,
        "type": "lives_changed",
        "v": 1,
        "data": data,
        "at": at.isoformat(),
        "prev_hash": last["hash"],
        "hash": event_store.event_hash(last["hash"], seq, "lives_changed", 1, data, at),
    }
    mallory = Ed25519PrivateKey.generate()
    mallory_key = mallory.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
    header.update(events=seq, head_hash=forged["hash"], public_key=mallory_key, signatures=[
        {"seq": seq, "head_hash": forged["hash"],
         "signature": mallory.sign(signing.message(seq, forged["hash"])).hex()}])  # fmt: skip
    tampered = [json.dumps(header), *lines[1:], json.dumps(forged)]

    by_the_service = verify_file(read_file(tampered), public_key=key).check("signature")
    assert not by_the_service.ok and by_the_service.first_bad_seq == seq
