"""After a bench-load run, from the database alone:

- every game's audit: `replays.verification.verify_game` (what `manage.py verify_game ID`
  runs: chain, seed, rederive, rules, replay) in this process for every game, plus the CLI
  itself and `GET /api/games/{id}/audit/` as staff on a few games, which must agree;
- every deadline as it was kept: the log is folded batch by batch (one command's events share
  one `at`), each batch's pending decision and its deadline recomputed as the projection does
  (games.table.deadline.due), and each `timed_out` batch timed against its deadline: one before
  its deadline would be a second act on a decision already timed out (or a wrong deadline);
  two `timed_out` batches for one decision (one `since`) would be a duplicate;
- how long decisions that only bots had to answer waited for their batch.
"""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from itertools import groupby

import httpx

from bench.harness import env
from bench.harness.env import percentile


def verify_all(game_ids: list[int]) -> dict:
    from replays.verification import verify_game

    failed = {}
    for game in game_ids:
        report = verify_game(game)
        if not report.ok:
            failed[game] = report.summary()
    return {"games": len(game_ids), "green": len(game_ids) - len(failed), "failed": failed}


def verify_cli(game_ids: list[int]) -> dict:
    """`manage.py verify_game ID` as a new process, for a few games."""
    out = {}
    for game in game_ids:
        done = subprocess.run([sys.executable, "manage.py", "verify_game", str(game)],
                              cwd=env.ROOT, env=env.service_env(), capture_output=True,
                              text=True, timeout=120)  # fmt: skip
        out[game] = done.returncode == 0
    return out


def audit_as_staff(base: str, game_ids: list[int]) -> dict:
    """`GET /api/games/{id}/audit/` as a staff user, for a few games."""
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    staff, _ = get_user_model().objects.get_or_create(username="bench-staff",
                                                      defaults={"is_staff": True})  # fmt: skip
    token, _ = Token.objects.get_or_create(user=staff)
    out = {}
    with httpx.Client(base_url=base, timeout=60) as http:
        for game in game_ids:
            answer = http.get(f"/api/games/{game}/audit/",
                              headers={"Authorization": f"Token {token.key}"})  # fmt: skip
            body = answer.json() if answer.status_code == 200 else {}
            out[game] = bool(body.get("chain_ok") and body.get("replay_ok"))
    return out


def _batches(rows):
    return [list(batch) for _, batch in groupby(rows, key=lambda r: r.at)]


def deadlines_kept(game_ids: list[int]) -> dict:
    from games.core import event_store
    from games.engine import events as ev
    from games.engine import fold
    from games.table.deadline import DeadlineKind, due

    late_ms, bot_wait_ms, early, twice = [], [], [], []
    kinds: Counter = Counter()
    batches = 0
    for game in game_ids:
        state, since, timed_since = None, None, set()
        for batch in _batches(event_store.load(game)):
            at = batch[0].at
            batches += 1
            if state is not None:
                kind, deadline = due(state, since)
                if batch[0].type == ev.TIMED_OUT:
                    kinds[str(kind)] += 1
                    ms = (at - deadline).total_seconds() * 1000
                    late_ms.append(ms)
                    if ms < 0:
                        early.append((game, batch[0].seq, round(ms)))
                    if since in timed_since:
                        twice.append((game, batch[0].seq))
                    timed_since.add(since)
                elif kind is DeadlineKind.BOT:
                    bot_wait_ms.append((at - deadline).total_seconds() * 1000)
            events = [event_store.to_event(r) for r in batch]
            state = fold(events, state)
            if any(ev.kind_of(e.type).new_decision for e in events):  # as the projection
                since = at
    return {
        "batches": batches, "timeouts": len(late_ms), "by_kind": dict(kinds),
        "late_ms_p50": round(percentile(late_ms, 50)) if late_ms else None,
        "late_ms_p99": round(percentile(late_ms, 99)) if late_ms else None,
        "late_ms_max": round(max(late_ms)) if late_ms else None,
        "late_over_1s": sum(ms > 1000 for ms in late_ms),
        "early": early, "twice": twice,
        "bot_decisions": len(bot_wait_ms),
        "bot_wait_ms_p50": round(percentile(bot_wait_ms, 50)) if bot_wait_ms else None,
        "bot_wait_ms_p99": round(percentile(bot_wait_ms, 99)) if bot_wait_ms else None,
        "bot_wait_ms_max": round(max(bot_wait_ms)) if bot_wait_ms else None,
    }  # fmt: skip
