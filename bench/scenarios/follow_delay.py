"""How long after a command's COMMIT its notification exists, in the production shape: the
web (this process) wakes the followers through Redis (SEJMI_FOLLOW "queue") and the follower
process (`manage.py run_deadlines --only-followers`, outside the web) tells the news.

Two humans play 2-seat games by their legal commands; after each command's answer, the
notifications told at its seq are polled every millisecond: the delay is from the answer
(just after COMMIT) to the row being committed and visible.

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

    settings.SEJMI_FOLLOW, settings.SEJMI_SEND_TASKS = "queue", False
    follower = subprocess.Popen(
        [sys.executable, "manage.py", "run_deadlines", "--only-followers"], cwd=env.ROOT,
        env=env.service_env(SEJMI_FOLLOW="queue"), stdout=subprocess.DEVNULL)  # fmt: skip
    try:
        time.sleep(3)  # Django set up in the follower process
        delays = _play(args.moves)
    finally:
        follower.terminate()
        follower.wait(timeout=10)
    ms = sorted(d * 1000 for d in delays)
    print(json.dumps({"notifications": len(ms), "p50_ms": round(env.percentile(ms, 50), 2),
                      "p99_ms": round(env.percentile(ms, 99), 2),
                      "max_ms": round(ms[-1], 2), "load": env.load()}))  # fmt: skip


def _play(moves: int) -> list[float]:
    from django.contrib.auth import get_user_model

    from games.notifications.models import Notification
    from games.table import commands, selectors

    users = [get_user_model().objects.create(username=f"delay-{uuid.uuid4().hex[:8]}")
             for _ in range(2)]  # fmt: skip
    rnd, delays, game = random.Random(26), [], None
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
        done = commands.game_command(user=users[seat], game_id=game, body=body,
                                     key=uuid.uuid4().hex, view=False)  # fmt: skip
        answered = time.perf_counter()
        told = Notification.objects.filter(game_id=game, seq=done["seq"])
        if not _awaits_a_human(game):
            continue
        give_up = answered + 5
        while not told.exists() and time.perf_counter() < give_up:
            time.sleep(0.001)
        delays.append(time.perf_counter() - answered)
    return delays


def _awaits_a_human(game: int) -> bool:
    """Whether the new state asks someone (every such batch tells `your_turn` or a window)."""
    from games.table import selectors

    _, state = selectors.current(game)
    return state.status == "active" and bool(state.awaiting)


if __name__ == "__main__":
    main()
