"""How long after a command's COMMIT its notification exists, and its Web Push arrives, in the
production shape: the web (this process) wakes the followers through Redis (SEJMI_FOLLOW
"queue") and the follower process (`manage.py run_deadlines --only-followers`, outside the web)
tells the news and pushes it.

Two humans play 2-seat games, one game at a time, by their legal commands; each has a push
subscription on a test push service on loopback (tests/support/webpush.py, the one allowed push
host). After each command's answer, the notification told at its seq is polled every
millisecond: the delay is from the answer (just after COMMIT) to the row being committed and
visible, and to the push service receiving the push.

    python -m bench.scenarios.follow_delay [--moves 300]
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
import uuid

from bench.harness import env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=300)
    args = parser.parse_args()
    env.prepare()  # a fresh bench database and Redis, Django set up on them
    from django.conf import settings

    from tests.support.webpush import PushService

    settings.SEJMI_FOLLOW, settings.SEJMI_SEND_TASKS = "queue", False
    settings.SEJMI_PUSH_HOSTS = ["127.0.0.1"]
    service = PushService()
    follower = subprocess.Popen(
        [sys.executable, "manage.py", "run_deadlines", "--only-followers"], cwd=env.ROOT,
        env=env.service_env(SEJMI_FOLLOW="queue", SEJMI_PUSH_HOSTS="127.0.0.1"),
        stdout=subprocess.DEVNULL)  # fmt: skip
    try:
        time.sleep(3)  # Django set up in the follower process
        cpu_before = env.cpu_s(follower.pid)
        told, pushed, commands = _play(args.moves, service)
        time.sleep(1)  # the last moves' followers done
        follower_ms = (env.cpu_s(follower.pid) - cpu_before) * 1000 / max(commands, 1)
    finally:
        follower.terminate()
        follower.wait(timeout=10)
        service.server.shutdown()
    print(json.dumps({"notification": _figures(told), "push": _figures(pushed),
                      "commands": commands, "follower_cpu_ms_per_command": round(follower_ms, 2),
                      "load": env.load()}))  # fmt: skip


def _figures(delays: list[float]) -> dict:
    ms = sorted(d * 1000 for d in delays) or [float("nan")]
    return {"count": len(delays), "p50_ms": round(env.percentile(ms, 50), 2),
            "p99_ms": round(env.percentile(ms, 99), 2), "max_ms": round(ms[-1], 2)}  # fmt: skip


def _play(moves: int, service) -> tuple[list[float], list[float], int]:
    from django.contrib.auth import get_user_model

    from games.notifications.models import Notification
    from games.table import commands, selectors
    from games.webpush import services as webpush
    from tests.support.webpush import FakeBrowser

    users = [get_user_model().objects.create(username=f"delay-{uuid.uuid4().hex[:8]}")
             for _ in range(2)]  # fmt: skip
    browsers = [FakeBrowser(service) for _ in users]
    for user, browser in zip(users, browsers, strict=True):
        webpush.subscribe(user=user, body=browser.subscription(), language="en")
    rnd, delays, pushes, game, sent = random.Random(26), [], [], None, 0
    while len(delays) < moves:
        if game is None or selectors.current(game)[1].status != "active":
            game = commands.game_create(user=users[0], seats=2).game_id
            for user in users:
                commands.game_join(user=user, game_id=game)
            continue
        proj, state = selectors.current(game)
        seat = state.awaiting[0]
        view = selectors.game_view(game, state, users[seat], seq=proj.seq, deadline=None)
        if not view["legal"]:
            continue
        body = {"expected_seq": proj.seq, **rnd.choice(view["legal"])}
        received = len(service.received)
        done = commands.game_command(user=users[seat], game_id=game, body=body,
                                     key=uuid.uuid4().hex, view=False)  # fmt: skip
        sent += 1
        answered, wall = time.perf_counter(), time.time()
        told = Notification.objects.filter(game_id=game, seq=done["seq"])
        if not _awaits_a_human(game):
            continue
        give_up = answered + 5
        while not told.exists() and time.perf_counter() < give_up:
            time.sleep(0.001)
        delays.append(time.perf_counter() - answered)
        mine = _push_of(service, browsers, received, game, done["seq"])
        while mine is None and time.perf_counter() < give_up:
            time.sleep(0.001)
            mine = _push_of(service, browsers, received, game, done["seq"])
        if mine is not None:
            pushes.append(mine.at - wall)
    return delays, pushes, sent


def _push_of(service, browsers, since: int, game: int, seq: int):
    """The first push received since `since` that is about (game, seq), decrypted as its
    browser would (a late push of an earlier move does not count)."""
    by_path = {b.path: b for b in browsers}
    for push in service.received[since:]:
        payload = by_path[push.path].decrypt(push.body)
        if payload["game"] == game and payload["seq"] == seq:
            return push
    return None


def _awaits_a_human(game: int) -> bool:
    """Whether the new state asks someone (every such batch tells `your_turn` or a window)."""
    from games.table import selectors

    _, state = selectors.current(game)
    return state.status == "active" and bool(state.awaiting)


if __name__ == "__main__":
    main()
