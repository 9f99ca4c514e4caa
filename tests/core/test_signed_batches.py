"""Issue 32, item 2: every batch the service appends carries its own signature, in its last
row; the service never builds on a head it did not sign. A database writer's forged move stops
the game (`game_tampered`, 409) with one alert in the log and no retry loop, and the audit names
the first bad seq."""

from __future__ import annotations

import logging

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games.core import event_store, signing
from games.core.models import GameEvent, GameProjection
from tests.support.api import a_legal_command


def _play(gid: int, seats: list[APIClient], moves: int) -> None:
    for _ in range(moves):
        client, body = a_legal_command(gid, seats)
        answer = client.post(f"/api/games/{gid}/commands/", body, format="json")
        assert answer.status_code == 200, answer.content


def _forge(gid: int, *, with_projection: bool) -> int:
    """INSERT, as the service's role may, a move after the head that chains correctly; and,
    `with_projection`, move the projection onto it (so a command would build on it)."""
    proj = GameProjection.objects.get(game_id=gid)
    seq, at = proj.seq + 1, timezone.now()
    data = {"seat": 0}
    h = event_store.event_hash(proj.head_hash, seq, "turn_skipped", 1, data, at)
    GameEvent.objects.create(game_id=gid, seq=seq, type="turn_skipped", v=1, data=data, at=at,
                             prev_hash=proj.head_hash, hash=h)  # fmt: skip
    if with_projection:
        GameProjection.objects.filter(game_id=gid).update(seq=seq, head_hash=h)
    return seq


@pytest.mark.django_db
def test_every_batch_is_signed_in_its_last_row(running):
    """Mutant: append signs only checkpoints and ends → no batch head carries a signature."""
    gid, seats = running
    _play(gid, seats, 3)
    rows = event_store.load(gid)
    ats = [r.at for r in rows]
    heads = [r for i, r in enumerate(rows) if i + 1 == len(rows) or ats[i + 1] != r.at]
    assert len(heads) >= 4  # the create, two joins, the moves
    for r in rows:
        if r in heads:
            key, sig = r.head_signature.split(":")
            assert key == signing.key_id(signing.public_key())
            assert signing.verify(signing.public_key(), r.seq, r.hash, sig), r.seq
        else:
            assert r.head_signature is None, r.seq  # only a batch's last row is signed


@pytest.mark.django_db
def test_a_forged_move_under_a_moved_projection_is_not_built_on(running, caplog, make_player):
    """Mutant: `check_head` not called → the next command is appended after the forged move
    (and signs it)."""
    gid, seats = running
    _play(gid, seats, 1)
    forged = _forge(gid, with_projection=True)
    client, body = a_legal_command(gid, seats)
    with caplog.at_level(logging.ERROR, logger="games"):
        answer = client.post(f"/api/games/{gid}/commands/", body, format="json")
        again = client.post(f"/api/games/{gid}/commands/", body, format="json")
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "game_tampered"
    assert again.json()["error"]["code"] == "game_tampered"
    assert GameEvent.objects.filter(game_id=gid).order_by("-seq").first().seq == forged
    alerts = [r for r in caplog.records if "tampered" in r.getMessage()]
    assert len(alerts) == 1, [r.getMessage() for r in alerts]  # logged once, not per try
    proj = GameProjection.objects.get(game_id=gid)
    assert proj.status == "tampered" and proj.deadline_at is None  # no runner retries it
    audit = _staff(make_player).get(f"/api/games/{gid}/audit/").json()
    assert audit["signature_ok"] is False and audit["first_bad_seq"] == forged


@pytest.mark.django_db
def test_a_forged_raw_row_stops_the_game_without_a_retry_loop(running, caplog, make_player):
    """Before: every command 409 stale_seq ("duplicate key") and the deadline runner retried
    about five times a second. Mutant: the (game, seq) collision under the row lock taken for a
    lost race → stale_seq, the game stays `active` with its deadline."""
    gid, seats = running
    _play(gid, seats, 1)
    forged = _forge(gid, with_projection=False)
    client, body = a_legal_command(gid, seats)
    with caplog.at_level(logging.ERROR, logger="games"):
        answer = client.post(f"/api/games/{gid}/commands/", body, format="json")
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "game_tampered"
    proj = GameProjection.objects.get(game_id=gid)
    assert proj.status == "tampered" and proj.deadline_at is None
    assert len([r for r in caplog.records if "tampered" in r.getMessage()]) == 1
    audit = _staff(make_player).get(f"/api/games/{gid}/audit/").json()
    assert audit["first_bad_seq"] == forged


@pytest.mark.django_db
def test_the_audit_of_a_clean_running_game_is_green(running, make_player):
    gid, seats = running
    _play(gid, seats, 2)
    audit = _staff(make_player).get(f"/api/games/{gid}/audit/").json()
    assert audit["signature_ok"] is True and audit["first_bad_seq"] is None


def _staff(make_player) -> APIClient:
    from django.contrib.auth import get_user_model

    client = make_player()
    get_user_model().objects.filter(auth_token__key=client._credentials["HTTP_AUTHORIZATION"]
                                    .split()[1]).update(is_staff=True)  # fmt: skip
    return client
