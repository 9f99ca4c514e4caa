"""Issue 28: Web Push (API.md "Push notifications and the installable page"). Real pushes from
the service to a real HTTP push service on loopback (tests/webpush/conftest.py), decrypted as
a browser would with each fake browser's own keys; the VAPID JWT verified against the key the
page gets from GET /api/push/key/."""

from __future__ import annotations

import json
import re
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from games.notifications import runner, web_push
from games.notifications.models import Notification
from games.webpush import sending
from games.webpush.models import PushDelivery, PushSubscription
from tests.webpush.conftest import FakeBrowser, checked, subscribe, wait_for

# Seat 1 is on turn first and opens with C25 (green LOSE_1) on seat 0, who may block (R19).
RIG = {"first": 1, "hands": [["C33", "C34", "C35"], ["C25", "C29", "C30"]]}


def refused(answer) -> None:
    assert answer.status_code == 400, answer.content
    assert answer.json()["error"]["code"] == "invalid"


def game(players, rig=None, options=None) -> int:
    body = {"seats": len(players), "rig": rig or {"first": 0}, "options": options or {}}
    created = players[0].post("/api/games/", body, format="json")
    assert created.status_code == 201, created.content
    gid = created.json()["id"]
    for seat, client in enumerate(players):
        joined = client.post(f"/api/games/{gid}/join/", {"seat": seat}, format="json")
        assert joined.status_code == 200, joined.content
    return gid


def test_the_key_and_a_players_own_subscriptions(make_player, pushing):
    anna, ben = make_player(), make_player()
    key = anna.get("/api/push/key/").json()["public_key"]
    assert len(key) == 87 and re.fullmatch(r"[A-Za-z0-9_-]+", key)  # 65 bytes, base64url
    phone = FakeBrowser(pushing)
    made = subscribe(anna, phone)
    assert made["endpoint"] == phone.endpoint and made["last_used"] is None
    subscribe(anna, phone, status=200)  # the same endpoint again: updated
    listed = anna.get("/api/me/push-subscriptions/").json()
    assert [s["endpoint"] for s in listed] == [phone.endpoint]
    assert "keys" not in json.dumps(listed) and "p256dh" not in json.dumps(listed)
    assert ben.get("/api/me/push-subscriptions/").json() == []  # not his

    gone = ben.delete("/api/me/push-subscriptions/", {"endpoint": phone.endpoint}, format="json")
    assert gone.status_code == 204
    assert PushSubscription.objects.filter(endpoint=phone.endpoint).exists()  # another's stays
    gone = anna.delete("/api/me/push-subscriptions/", {"endpoint": phone.endpoint},
                       format="json")  # fmt: skip
    assert gone.status_code == 204 and not PushSubscription.objects.exists()
    from rest_framework.test import APIClient

    assert APIClient().get("/api/me/push-subscriptions/").status_code == 401
    assert APIClient().post("/api/me/push-subscriptions/", phone.subscription(),
                            format="json").status_code == 401  # fmt: skip


def test_a_user_keeps_his_newest_five_subscriptions(make_player, pushing):
    anna = make_player()
    browsers = [FakeBrowser(pushing) for _ in range(6)]
    for browser in browsers:
        subscribe(anna, browser)
    kept = {s["endpoint"] for s in anna.get("/api/me/push-subscriptions/").json()}
    assert kept == {b.endpoint for b in browsers[1:]}


REFUSED_ENDPOINTS = [
    "https://push.example.com/x",  # not a push service
    "https://fcm.googleapis.com.evil.example/x",  # only looks like one
    "http://fcm.googleapis.com/fcm/send/x",  # plain http to a real service
    "https://user@fcm.googleapis.com/fcm/send/x",  # user info
    "ftp://127.0.0.1/push/x",
    "javascript:alert(1)",
    "",
    None,
    12,
    ["x"],
    "https://127.0.0.1/push/x#frag",
    "https://fcm.googleapis.com:99999/x",
    "https://fcm.googleapis.com/" + "x" * 1100,
    "http://10.0.0.1/push/x",
    "http://localhost.evil.example/x",
]


def test_an_endpoint_off_the_allowed_hosts_is_refused_and_never_called(make_player, pushing):
    anna, ben = make_player(), make_player()
    for endpoint in REFUSED_ENDPOINTS:
        body = {**FakeBrowser(pushing).subscription(), "endpoint": endpoint}
        refused(anna.post("/api/me/push-subscriptions/", body, format="json"))
    assert not PushSubscription.objects.exists()
    game([anna, ben])  # anna is told your_turn: nothing to push it to
    assert sending.wait_idle(10)
    assert pushing.received == []


def test_a_stored_endpoint_is_not_called_once_its_host_is_no_longer_allowed(
    make_player, pushing, settings
):
    anna, ben = make_player(), make_player()
    subscribe(anna, FakeBrowser(pushing))
    settings.SEJMI_PUSH_HOSTS = ["fcm.googleapis.com"]
    game([anna, ben])
    assert sending.wait_idle(10)
    assert pushing.received == []
    assert list(PushDelivery.objects.values_list("state", flat=True)) == ["failed"]


MALFORMED_KEYS = [
    {"p256dh": "not base64!", "auth": "AAAAAAAAAAAAAAAAAAAAAA"},
    {"p256dh": "BAAA", "auth": "AAAAAAAAAAAAAAAAAAAAAA"},  # too short
    {"p256dh": "BA" + "A" * 85, "auth": "AAAAAAAAAAAAAAAAAAAAAA"},  # 0x04 then zeros: no point
    {"auth": "AAAAAAAAAAAAAAAAAAAAAA"},
    {"p256dh": None, "auth": None},
    "keys",
    None,
    {"p256dh": "GOOD", "auth": "AAAAAAAAAAAAAAAAAAAA"},  # auth 15 bytes
    {"p256dh": "GOOD", "auth": "AAAAAAAAAAAAAAAAAAAAAA", "extra": "x"},
]


def test_malformed_keys_are_refused(make_player, pushing):
    anna = make_player()
    good = FakeBrowser(pushing).subscription()
    for keys in MALFORMED_KEYS:
        if isinstance(keys, dict) and keys.get("p256dh") == "GOOD":
            keys = {**keys, "p256dh": good["keys"]["p256dh"]}
        refused(anna.post("/api/me/push-subscriptions/", {**good, "keys": keys}, format="json"))
    refused(anna.post("/api/me/push-subscriptions/", {**good, "colour": "red"}, format="json"))
    refused(anna.post("/api/me/push-subscriptions/", [good], format="json"))
    assert not PushSubscription.objects.exists()
    subscribe(anna, FakeBrowser(pushing))  # the good one is taken


def test_a_push_is_encrypted_signed_in_the_subscriptions_language_and_holds_no_card(
    make_player, pushing
):
    anna, ben = make_player(), make_player()
    key = anna.get("/api/push/key/").json()["public_key"]
    laptop, phone, bens = FakeBrowser(pushing), FakeBrowser(pushing), FakeBrowser(pushing)
    subscribe(anna, laptop, "en")
    subscribe(anna, phone, "cs")
    subscribe(ben, bens)
    gid = game([anna, ben], rig=RIG)  # ben (seat 1) is on turn

    turn = wait_for(lambda: pushing.to(bens), "ben's your_turn")[0]
    payload = checked(turn, bens, key, pushing)
    seq = Notification.objects.get(user__username=ben.username, kind="your_turn").seq
    assert payload == {
        "kind": "your_turn",
        "game": gid,
        "seq": seq,
        "title": "Your turn",
        "body": f"Your turn in game {gid}",
        "url": f"/games/{gid}/",
    }
    assert turn.headers["urgency"] == "normal" and turn.headers["topic"] == f"game-{gid}"
    assert pushing.to(laptop) == pushing.to(phone) == []  # anna waits: nothing for her yet

    view = ben.get(f"/api/games/{gid}/").json()
    play = next(c for c in view["legal"] if c.get("card") == "C25" and c.get("target") in (0, None))
    answer = ben.post(f"/api/games/{gid}/commands/", {"expected_seq": view["seq"], **play},
                      format="json")  # fmt: skip
    assert answer.status_code == 200, answer.content

    english = wait_for(lambda: pushing.to(laptop), "anna's block window")[0]
    czech = wait_for(lambda: pushing.to(phone), "anna's block window, in Czech")[0]
    for push in (english, czech):
        assert push.headers["urgency"] == "high" and push.headers["topic"] == f"game-{gid}"
    en, cs = checked(english, laptop, key, pushing), checked(czech, phone, key, pushing)
    assert (en["kind"], en["title"], en["body"]) == (
        "block_window",
        "You may block",
        f"You may block in game {gid}",
    )
    assert (cs["kind"], cs["title"], cs["body"]) == (
        "block_window",
        "Můžeš blokovat",
        f"Ve hře {gid} můžeš blokovat",
    )
    print("decrypted payload (en):", json.dumps(en, ensure_ascii=False))
    print("decrypted payload (cs):", json.dumps(cs, ensure_ascii=False))
    assert sending.wait_idle(10)
    assert set(PushDelivery.objects.values_list("state", flat=True)) == {"sent"}
    assert PushSubscription.objects.get(endpoint=laptop.endpoint).last_used is not None


def test_the_body_says_how_many_games_wait_for_the_player(make_player, pushing):
    anna = make_player()
    phone, laptop = FakeBrowser(pushing), FakeBrowser(pushing)
    subscribe(anna, phone, "cs")
    subscribe(anna, laptop, "en")
    games = []
    for n in range(1, 4):  # anna is on turn in each new game (seat 0 first)
        games.append(game([anna, make_player()]))
        pushes = wait_for(lambda n=n: len(pushing.to(phone)) == n and pushing.to(phone), "push")
    bodies = [phone.decrypt(p.body)["body"] for p in pushes]
    assert bodies[0] == f"Jsi na tahu ve hře {games[0]}"  # one game: no count
    assert bodies[1] == f"Jsi na tahu ve hře {games[1]}\nJsi na tahu ve 2 hrách"
    assert bodies[2] == f"Jsi na tahu ve hře {games[2]}\nJsi na tahu ve 3 hrách"
    last = wait_for(lambda: len(pushing.to(laptop)) == 3 and pushing.to(laptop), "en")[-1]
    english = laptop.decrypt(last.body)["body"]
    assert english == f"Your turn in game {games[2]}\nYour turn in 3 games"
    assert {p.headers["topic"] for p in pushes} == {f"game-{g}" for g in games}  # one per game


def test_at_most_once_per_notification_and_subscription(make_player, pushing):
    anna, ben = make_player(), make_player()
    phone = FakeBrowser(pushing)
    subscribe(anna, phone)
    gid = game([anna, ben])
    wait_for(lambda: pushing.to(phone), "the push")
    row = Notification.objects.get(user__username=anna.username, game_id=gid)
    runner.deliver([row], [])  # told again: a duplicate task, the sweeper...
    assert web_push.push_now([row]) == 0
    assert sending.wait_idle(10)
    assert len(pushing.to(phone)) == 1
    assert PushDelivery.objects.count() == 1


def test_nothing_pushed_when_born_read_or_the_preference_is_off(make_player, pushing):
    anna, ben = make_player(), make_player()
    phone = FakeBrowser(pushing)
    subscribe(anna, phone)
    put = anna.put("/api/me/preferences/", {"push": False}, format="json")
    assert put.status_code == 200 and put.json()["push"] is False
    gid = game([anna, ben])
    assert sending.wait_idle(10) and pushing.to(phone) == []

    assert anna.put("/api/me/preferences/", {"push": True}, format="json").json()["push"]
    quiet = Notification.objects.create(user_id=Notification.objects.get(game_id=gid).user_id,
                                        kind="game_over", game_id=gid, seq=99, read=True,
                                        born_read=True, at=timezone.now())  # fmt: skip
    runner.deliver([quiet], [])  # told at a visible table: never pushed, like never mailed
    assert sending.wait_idle(10) and pushing.to(phone) == []


@pytest.mark.parametrize("status", [404, 410])
def test_a_subscription_the_push_service_no_longer_knows_is_deleted(make_player, pushing,
                                                                    status):  # fmt: skip
    anna, ben = make_player(), make_player()
    old, new = FakeBrowser(pushing), FakeBrowser(pushing)
    subscribe(anna, old)
    subscribe(anna, new)
    pushing.script(old, status)
    game([anna, ben])
    assert sending.wait_idle(10)
    assert len(pushing.to(old)) == 1 and len(pushing.to(new)) == 1
    assert [s["endpoint"] for s in anna.get("/api/me/push-subscriptions/").json()] == [new.endpoint]


def test_a_failing_or_silent_push_service_is_retried_then_given_up_and_stalls_nothing(
    make_player, pushing
):
    anna, ben, carl, dora = make_player(), make_player(), make_player(), make_player()
    broken, silent, flaky, healthy = (FakeBrowser(pushing) for _ in range(4))
    subscribe(anna, broken)
    subscribe(ben, silent)
    subscribe(carl, flaky)
    subscribe(dora, healthy)
    pushing.script(broken, 500, 503, 500)
    pushing.script(silent, "hang", "hang", "hang")
    pushing.script(flaky, 500)
    game([anna, make_player()])
    game([ben, make_player()])
    game([carl, make_player()])
    started = time.time()
    game([dora, make_player()])
    # The healthy one is not held up by the others' timeouts and back-offs.
    arrived = wait_for(lambda: pushing.to(healthy), "the healthy push")[0].at
    assert arrived - started < 1.0, arrived - started
    assert sending.wait_idle(15)
    assert [r.status for r in pushing.to(broken)] == [500, 503, 500]  # 3 tries, then no more
    assert len(pushing.to(silent)) == 3
    assert [r.status for r in pushing.to(flaky)] == [500, 201]  # the retry got through
    states = dict(PushDelivery.objects.values_list("subscription__endpoint", "state"))
    assert states == {
        broken.endpoint: "failed",
        silent.endpoint: "failed",
        flaky.endpoint: "sent",
        healthy.endpoint: "sent",
    }  # nothing left sending
    assert PushSubscription.objects.count() == 4  # a failing service does not lose them
    gaps = [b.at - a.at for a, b in itertools_pairwise(pushing.to(broken))]
    assert all(gap >= 0.09 for gap in gaps) and gaps[1] > gaps[0]  # back-off, doubling


def itertools_pairwise(items):
    return zip(items, items[1:], strict=False)


def test_old_deliveries_do_not_block_new_pushes(make_player, pushing):
    """A row left `sending` by a process that died is never posted again, and is no obstacle to
    the next notification's push."""
    anna, ben = make_player(), make_player()
    phone = FakeBrowser(pushing)
    subscribe(anna, phone)
    sub = PushSubscription.objects.get()
    PushDelivery.objects.create(subscription=sub, key="n999999", created=timezone.now()
                                - timedelta(hours=1))  # fmt: skip
    game([anna, ben])
    wait_for(lambda: pushing.to(phone), "the push")
