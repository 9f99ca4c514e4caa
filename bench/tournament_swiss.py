"""A 60-player, 3-round Swiss (tables of 4–6) played to its end through the service (issue 27).

    DATABASE_URL=... .venv/bin/python -m bench.tournament_swiss [--players 60 --rounds 3]

Runs against the database of DATABASE_URL (a scratch one: it creates users `swissN`), with
the followers inline (`SEJMI_FOLLOW=inline`): the tournaments' follower scores each game and
pairs the next round right after the COMMIT that ends the round. Every player is a bot-driven
client of the services, as the API's routes call them: each awaited seat sends the first of its
legal commands (games.table.commands.game_command), every player's standing order passes every
block window (issue 10). Prints the wall time per round and per command."""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sejmi.settings")
os.environ["SEJMI_FOLLOW"] = "inline"


def main() -> None:
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model

    from games.engine import legal_commands
    from games.table import commands, selectors, standing_orders
    from games.tournaments import selectors as tsel
    from games.tournaments import services

    settings.SEJMI_FOLLOW = "inline"
    args = argparse.ArgumentParser()
    args.add_argument("--players", type=int, default=60)
    args.add_argument("--rounds", type=int, default=3)
    opts = args.parse_args()
    User = get_user_model()
    stamp = int(time.time())
    users = [User.objects.create_user(f"swiss{stamp}_{i}", password=None)
             for i in range(opts.players)]  # fmt: skip
    for user in users:
        standing_orders.order_set(user=user, game_id=None, body={"block": "never"})
    by_name = {u.username: u for u in users}
    proj = services.tournament_create(user=users[0], body={
        "name": f"Bench {stamp}", "format": "swiss", "rounds": opts.rounds,
        "table_size": {"min": 4, "max": 6}})  # fmt: skip
    tid = proj.tournament_id
    for user in users:
        services.tournament_join(user=user, tournament_id=tid)
    started = time.perf_counter()
    services.tournament_start(user=users[0], tournament_id=tid)
    sent = 0
    while True:
        view = tsel.tournament_view(tid)
        if view["status"] == "ended":
            break
        round_started = time.perf_counter()
        number = view["rounds"][-1]["number"]
        for table in view["rounds"][-1]["tables"]:
            sent += _play(table["game"], by_name, commands, selectors, legal_commands)
        print(f"round {number}: {len(view['rounds'][-1]['tables'])} tables, "
              f"{time.perf_counter() - round_started:.1f} s")  # fmt: skip
    took = time.perf_counter() - started
    view = tsel.tournament_view(tid)
    top = view["standings"][0]
    print(f"{opts.players} players, {len(view['rounds'])} rounds: {took:.1f} s, {sent} commands "
          f"({1000 * took / max(sent, 1):.1f} ms a command, pairing and scoring included); "
          f"winner {top['username']} with {top['points']} points")  # fmt: skip


def _play(game_id, by_name, commands, selectors, legal_commands) -> int:
    sent = 0
    while True:
        proj, state = selectors.current(game_id)
        if state.status == "ended":
            return sent
        seat = next(s for s in state.awaiting if legal_commands(state, s))
        body = {"expected_seq": proj.seq, **legal_commands(state, seat)[0].body()}
        commands.game_command(user=by_name[state.names[seat]], game_id=game_id, body=body,
                              key=None, view=False)  # fmt: skip
        sent += 1


if __name__ == "__main__":
    main()
