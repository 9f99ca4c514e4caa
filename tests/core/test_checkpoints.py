"""Issue 32, item 10: every CHECKPOINT_EVERY-th event is signed in a HeadSignature row (no test
game reached 100 events, so a checkpoint could stop being signed and every test still passed)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games.core import event_store, signing
from games.core.models import HeadSignature
from games.table import commands


def _long_bot_game(min_events: int) -> int:
    host = get_user_model().objects.create_user("host")
    for _ in range(40):
        done = commands.game_create(user=host, seats=4, options={"bots": [0, 1, 2, 3]})
        while done.state.status != "ended":
            done = commands.game_bot_moves(game_id=done.game_id, expected_seq=done.seq)
        if done.seq >= min_events:
            return done.game_id
    raise AssertionError(f"no bot game reached {min_events} events")


@pytest.mark.django_db
def test_every_hundredth_event_and_the_end_are_signed_heads():
    """Mutant: append signs only game_ended (the `seq % CHECKPOINT_EVERY` test dropped) → no
    HeadSignature row at seq 100."""
    gid = _long_bot_game(event_store.CHECKPOINT_EVERY + 1)
    rows = {r.seq: r for r in event_store.load(gid)}
    signed = {s.seq: s for s in HeadSignature.objects.filter(game_id=gid)}
    wanted = {seq for seq in rows if seq % event_store.CHECKPOINT_EVERY == 0} | {max(rows)}
    assert wanted <= set(signed), (sorted(wanted), sorted(signed))
    for seq in wanted:
        s = signed[seq]
        assert s.head_hash == rows[seq].hash
        assert signing.verify(signing.public_key(), seq, s.head_hash, s.signature)
