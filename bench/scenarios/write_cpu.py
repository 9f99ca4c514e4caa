"""CPU of one move on the write path, in-process (issue 11, "the lean write path").

    BENCH_DATABASE_URL=... BENCH_REDIS_URL=... python -m bench.scenarios.write_cpu [--commands 300]
                                                                         [--profile FILE]

Process CPU time (`time.process_time`: every thread of this process, so the broadcast's
own loop thread counts too; a loaded machine moves it far less than the wall clock) of:
- `commands.game_command`, the whole service call as a socket command makes it (in a worker
  thread of an event loop, as games.live.consumer calls it): row-locked
  projection, engine, append, projection, idempotency row, and after COMMIT the broadcast to
  Redis and Celery's `apply_async`;
- the receiving side of its broadcast, as a web process does it: the channel layer's
  `receive` of the group message, then for every seat and one spectator the socket's frames
  (games.live.consumer: the batch parsed once, then redaction + view + JSON per viewer).
Humans in every seat of 2-4 seat games, commands chosen at random from `legal`. With
--profile, cProfile of the service calls (sorted by tottime) is written to FILE.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import pstats
import random
import statistics
import time
import uuid

from bench.harness import env


def _setup() -> None:
    """A fresh bench database; Redis is not flushed (other runs may share the database)."""
    env.fresh_database()
    os.environ.update(env.service_env())
    import django

    django.setup()
    import games.tasks  # noqa: F401  (registers the deadline task, as a web process has it)


def run(commands: int, profile: str | None) -> dict:
    from channels.db import database_sync_to_async
    from channels.layers import get_channel_layer
    from django.contrib.auth import get_user_model

    from games.core.pubsub import game_group
    from games.live import consumer
    from games.table import commands, selectors

    users = [get_user_model().objects.create(username=f"bench-cpu-{uuid.uuid4().hex[:10]}")
             for _ in range(4)]  # fmt: skip
    layer = get_channel_layer()
    loop = asyncio.new_event_loop()
    rnd = random.Random(11)
    profiler = cProfile.Profile() if profile else None

    def call(**kwargs) -> dict:
        if profiler:  # cProfile follows the thread it was enabled in: the worker's
            profiler.enable()
        try:
            return commands.game_command(**kwargs)
        finally:
            if profiler:
                profiler.disable()

    # As games.live.consumer calls it: in a worker thread of a running loop, so the broadcast's
    # async_to_sync hops back to that loop (as in a web process) instead of starting one.
    command = database_sync_to_async(call)
    service, receiving, frames_per_viewer = [], [], []

    def new_table(n: int) -> tuple[int, str]:
        done = commands.game_create(user=users[0], seats=n)
        for user in users[:n]:
            commands.game_join(user=user, game_id=done.game_id)
        channel = loop.run_until_complete(layer.new_channel())  # after the joins' batches
        loop.run_until_complete(layer.group_add(game_group(done.game_id), channel))
        return done.game_id, channel

    n = 2
    game, channel = new_table(n)
    while len(service) < commands:
        proj, state = selectors.current(game)
        if state.status != "active":
            n = 2 + (n - 1) % 3
            game, channel = new_table(n)
            continue
        for seat in state.awaiting:  # R19: who passed stays listed until the window closes
            legal = selectors.game_view(game, state, users[seat], seq=proj.seq, deadline=None)
            if legal["legal"]:
                break
        body = {"expected_seq": proj.seq, **rnd.choice(legal["legal"])}
        key = uuid.uuid4().hex
        started = time.process_time()
        answer = loop.run_until_complete(command(user=users[seat], game_id=game, body=body,
                                                 key=key))  # fmt: skip
        service.append(time.process_time() - started)
        if answer["seq"] == proj.seq:
            continue  # a sealed pass (R19): nothing broadcast
        started = time.process_time()
        message = loop.run_until_complete(layer.receive(channel))
        while message["type"] != "game.committed":  # a sealed pass's note (R19) came first
            message = loop.run_until_complete(layer.receive(channel))
        receiving.append(time.process_time() - started)
        viewers = [*users[:n], None]
        started = time.process_time()
        state_now = consumer.committed_state(message)
        for user in viewers:
            viewer = selectors.seat_of(state_now, user)
            consumer.frames_for(message, state_now, viewer, message["events"][0]["seq"] - 1)
        frames_per_viewer.append((time.process_time() - started) / len(viewers))
    loop.close()
    if profiler:
        profiler.dump_stats(profile)
        pstats.Stats(profile).sort_stats("tottime").print_stats(40)

    def ms(values: list[float]) -> dict:
        ordered = [v * 1000 for v in values]
        return {"p50": round(statistics.median(ordered), 3),
                "mean": round(statistics.mean(ordered), 3),
                "p90": round(env.percentile(ordered, 90), 3)}  # fmt: skip

    return {"commands": len(service), "broadcasts": len(receiving),
            "service_call_ms": ms(service), "layer_receive_ms": ms(receiving),
            "frames_per_viewer_ms": ms(frames_per_viewer), "load": env.load(),
            "code": env.code_version()}  # fmt: skip


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commands", type=int, default=300)
    parser.add_argument("--profile", help="write cProfile stats of the service calls here")
    args = parser.parse_args()
    _setup()
    print(run(args.commands, args.profile))
