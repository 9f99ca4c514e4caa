"""Issue 28's "done when": a 2-seat game against the bot, played by a subscribed player who keeps
no page open, produces the pushes the contract names and no others: one push per notification
she is told (none born read: no table open), each once, in her subscription's language, and
nothing for the bot's seat. Also measures the delay from the notification's commit to the push
arriving at the push service (docs/NOTIFICATIONS.md, "Push": printed with -s)."""

from __future__ import annotations

import statistics
import time

from games.clock import runner as clock
from games.notifications.models import Notification
from games.webpush import sending
from games.webpush.models import PushDelivery
from tests.webpush.conftest import FakeBrowser, checked, subscribe

SHORT_GAME = {"deck": [], "first": 0}  # catalog order, no dice: short and the same every run
TOLD_KINDS = {"your_turn", "block_window", "deadline_soon", "eliminated", "game_over"}


def play_to_the_end(anna, gid: int) -> int:
    moves = 0
    for _ in range(500):
        view = anna.get(f"/api/games/{gid}/").json()
        if view["status"] == "ended":
            return moves
        if view["legal"]:
            body = {"expected_seq": view["seq"], **view["legal"][0]}
            answer = anna.post(f"/api/games/{gid}/commands/", body, format="json")
            assert answer.status_code in (200, 409), answer.content
            moves += 1
        else:
            clock.sweep()  # the bot's moves are due at once (R21): what the runner does
            time.sleep(0.01)
    raise AssertionError("the game did not end")


def test_a_game_against_the_bot_pushes_each_notification_once(make_player, pushing):
    anna = make_player()
    key = anna.get("/api/push/key/").json()["public_key"]
    phone = FakeBrowser(pushing)
    subscribe(anna, phone, "cs")
    created = anna.post("/api/games/", {"seats": 2, "options": {"bots": [1]}, "rig": SHORT_GAME},
                        format="json")  # fmt: skip
    assert created.status_code == 201, created.content
    gid = created.json()["id"]
    assert anna.post(f"/api/games/{gid}/join/", {"seat": 0}, format="json").status_code == 200
    moves = play_to_the_end(anna, gid)
    assert sending.wait_idle(15)

    told = Notification.objects.filter(user__username=anna.username, game_id=gid)
    expected = sorted((n.kind, n.seq) for n in told)
    assert not told.filter(born_read=True).exists()  # no page open: nothing is born read
    pushes = pushing.to(phone)
    payloads = [checked(p, phone, key, pushing) for p in pushes]
    assert sorted((p["kind"], p["seq"]) for p in payloads) == expected  # each once, no other
    assert {kind for kind, _ in expected} <= TOLD_KINDS
    assert "game_over" in {kind for kind, _ in expected} and "your_turn" in dict(expected)
    assert all(p["game"] == gid and p["url"] == f"/games/{gid}/" for p in payloads)
    assert all(p["title"] in ("Jsi na tahu", "Můžeš blokovat", "Došly ti životy", "Konec hry")
               for p in payloads)  # Czech: her subscription's language  # fmt: skip
    assert pushing.received == pushes  # nobody else was pushed anything (the bot has no one)
    assert set(PushDelivery.objects.values_list("state", flat=True)) == {"sent"}

    # The delay from the notification (written in the move's transaction, just before its
    # COMMIT) to the push service receiving the push.
    at = {(n.kind, n.seq): n.at.timestamp() for n in told}
    delays = sorted(
        (push.at - at[(p["kind"], p["seq"])]) * 1000
        for push, p in zip(pushes, payloads, strict=True)
    )
    p99 = delays[min(len(delays) - 1, round(0.99 * (len(delays) - 1)))]
    print(
        f"\npush delay over {len(delays)} pushes ({moves} moves of anna): "
        f"p50 {statistics.median(delays):.1f} ms, p99 {p99:.1f} ms, max {delays[-1]:.1f} ms"
    )
    assert delays[0] >= 0 and statistics.median(delays) < 2000
