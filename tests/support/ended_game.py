"""A rigged two-player game played to its end over the API in three commands (the append-only,
chain and signing tests)."""

from __future__ import annotations

from rest_framework.test import APIClient

# Two players with one life each: seat 0's red LOSE_1 on all ends the game once seat 1 passes.
RIG = {"lives": [1, 1], "hands": [["C06", "C02", "C03"], ["C07", "C08", "C09"]], "first": 0}


def ended_game(alice: APIClient, bob: APIClient) -> int:
    """A rigged two-player game played to its end over the API (three commands)."""
    gid = alice.post("/api/games/", {"seats": 2, "rig": RIG}, format="json").json()["id"]
    for client in (alice, bob):
        assert client.post(f"/api/games/{gid}/join/", {}, format="json").status_code == 200
    seq = alice.get(f"/api/games/{gid}/").json()["seq"]
    play = {"type": "play", "card": "C06", "effect": 1, "scope": "all", "target": None}
    answer = alice.post(f"/api/games/{gid}/commands/", {"expected_seq": seq, **play},
                        format="json", HTTP_IDEMPOTENCY_KEY="play")  # fmt: skip
    assert answer.status_code == 200, answer.content
    body = {"expected_seq": answer.json()["seq"], "type": "pass"}
    passed = bob.post(f"/api/games/{gid}/commands/", body, format="json",
                      HTTP_IDEMPOTENCY_KEY="pass")  # fmt: skip
    assert passed.status_code == 200 and passed.json()["view"]["status"] == "ended"
    return gid
