import pytest

from games.clock import tasks


@pytest.mark.django_db(transaction=True)
def test_a_human_plays_a_whole_game_against_a_bot_over_http(player):
    game = player.post("/api/games/", {"seats": 2, "options": {"bots": [1]}}, format="json")
    assert game.status_code == 201, game.content
    gid = game.json()["id"]
    view = player.post(f"/api/games/{gid}/join/", {}, format="json").json()
    assert view["status"] == "active"
    for _ in range(2000):
        while tasks.sweep():  # the sweeper, run here (no worker)
            pass
        view = player.get(f"/api/games/{gid}/").json()
        if view["status"] == "ended":
            break
        assert view["you"] == 0
        if view["legal"]:
            body = {"expected_seq": view["seq"], **view["legal"][0]}
            answer = player.post(f"/api/games/{gid}/commands/", body, format="json")
            assert answer.status_code == 200, answer.content
    assert view["status"] == "ended" and view["winners"]
    events = player.get(f"/api/games/{gid}/events/").json()["events"]
    assert [e["seq"] for e in events] == list(range(1, view["seq"] + 1))
    audit = player.get(f"/api/games/{gid}/audit/").json()
    assert audit["chain_ok"] and audit["replay_ok"] and audit["seed_ok"]
