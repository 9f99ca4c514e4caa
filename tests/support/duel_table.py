"""A rigged three-seat game with a block, a duel, an elimination, the countdown and the end,
played over the REST API (the replay and socket-command tests)."""

from __future__ import annotations

from rest_framework.test import APIClient

ANNA_HAND, BOB_HAND, CARL_HAND = ["C04", "C29", "C30"], ["C01", "C31", "C32"], ["C25", "C26", "C27"]
RIG = {"lives": [6, 6, 2], "hands": [ANNA_HAND, BOB_HAND, CARL_HAND], "first": 0, "dice": [1]}


class Table:
    def __init__(self, make_player) -> None:
        self.seats = [make_player() for _ in range(3)]
        live = {"spectator_delay": 0}  # its spectators read the running game's present
        created = self.seats[0].post("/api/games/", {"seats": 3, "rig": RIG, "options": live},
                                     format="json")  # fmt: skip
        assert created.status_code == 201, created.content
        self.gid = created.json()["id"]
        for seat, client in enumerate(self.seats):
            joined = client.post(f"/api/games/{self.gid}/join/", {"seat": seat}, format="json")
            assert joined.status_code == 200, joined.content

    def do(self, seat: int, body: dict) -> dict:
        client = self.seats[seat]
        seq = client.get(f"/api/games/{self.gid}/").json()["seq"]
        answer = client.post(f"/api/games/{self.gid}/commands/", {"expected_seq": seq, **body},
                             format="json")  # fmt: skip
        assert answer.status_code == 200, answer.content
        return answer.json()["view"]

    def to_the_elimination(self) -> None:
        """Turn 1: anna's duel on bob is blocked by carl (R18). Turn 2: bob duels carl, who
        bets even and rolls the rigged 1: carl loses 2 lives and is out (R14 bonus to bob),
        the countdown starts (R16); carl is asked for a handoff (R15)."""
        self.do(0, {"type": "play", "card": "C04", "effect": 0, "scope": "one", "target": 1})
        self.do(2, {"type": "block", "card": "C25"})
        self.do(1, {"type": "play", "card": "C01", "effect": 0, "scope": "one", "target": 2})
        self.do(2, {"type": "pass"})
        self.do(0, {"type": "pass"})
        view = self.do(2, {"type": "bet", "kind": "parity", "value": "even"})
        assert view["phase"] == "handoff" and view["countdown"] == 6

    def to_the_end(self) -> dict:
        """Carl declines the handoff; then each seat plays its first legal command."""
        view = self.do(2, {"type": "handoff", "card": None, "to": None})
        for _ in range(500):
            if view["status"] == "ended":
                return view
            for seat, client in enumerate(self.seats):
                mine = client.get(f"/api/games/{self.gid}/").json()
                if mine["legal"]:
                    view = self.do(seat, mine["legal"][0])
                    break
        raise AssertionError("the rigged game did not end")

    def events(self) -> list[dict]:
        return APIClient().get(f"/api/games/{self.gid}/events/").json()["events"]
