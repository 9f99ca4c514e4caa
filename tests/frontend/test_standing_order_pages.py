"""The standing-order control (issue 10): on the table page for a seated player of a game not
over (his order for this game), on My games (his default); never for a spectator. The control
itself speaks only the public API (orders.js); the browser test drives it."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.table import commands
from tests.frontend.page_helpers import api, join, logged_in, new_game

CONTROL = "data-standing-order="


@pytest.fixture
def eva(db):
    return get_user_model().objects.create_user(username="eva", password="s3cret-pass-1")


@pytest.fixture
def game(eva) -> int:
    gid = commands.game_create(user=eva, seats=2, options={"bots": [1]}).game_id
    commands.game_join(user=eva, game_id=gid, seat=0)
    return gid


def page(path: str, user=None, **headers) -> str:
    client = Client(**headers)
    if user is not None:
        client.force_login(user)
    answer = client.get(path)
    assert answer.status_code == 200
    return answer.content.decode()


def test_the_table_offers_a_seated_player_his_order_for_this_game(eva, game):
    html = page(f"/games/{game}/", eva)
    assert f'{CONTROL}"/api/games/{game}/standing-order/"' in html
    assert "frontend/pages/table_beside.js" in html  # it imports orders.js
    for value in ("never", "aimed_at_me", "duel_against_me", ""):
        assert f'name="block" value="{value}"' in html
    assert "While I'm away, block windows:" in html


def test_a_spectator_sees_no_order_control(game):
    assert CONTROL not in page(f"/games/{game}/")


def test_my_games_offers_the_default_order_in_czech_too(eva):
    html = page("/me/", eva)
    assert f'{CONTROL}"/api/me/standing-order/"' in html
    czech = page("/me/", eva, HTTP_ACCEPT_LANGUAGE="cs")
    assert "blokovat efekty mířené na mě" in czech and "Uložit výchozí pokyn" in czech


def test_no_order_control_after_elimination_or_the_end(db, settings):
    """Issue 18: once out (the game goes on without him) or after the end, no block window can
    ask the player again, so the table offers no order (table.js hides it live as well)."""
    settings.SEJMI_ALLOW_RIGGED = True
    eva, jan, ota = logged_in("eva"), logged_in("jan"), logged_in("ota")
    rig = {"lives": [6, 1, 6], "first": 0, "hands": [["C25", "C33", "C34"],
           ["C07", "C08", "C09"], ["C02", "C05", "C06"]]}  # fmt: skip
    gid = new_game(eva, 3, rig=rig)
    for seat, client in enumerate((eva, jan, ota)):
        join(client, gid, seat)
    assert CONTROL in jan.get(f"/games/{gid}/").content.decode(), "still in: his order"

    def send(client, body):
        seq = client.get(f"/api/games/{gid}/").json()["seq"]
        answer = api(client, f"/api/games/{gid}/commands/", {"expected_seq": seq, **body})
        assert answer.status_code == 200, answer.content

    send(eva, {"type": "play", "card": "C25", "effect": 0, "scope": "one", "target": 1})
    send(jan, {"type": "pass"})
    send(ota, {"type": "pass"})
    view = jan.get(f"/api/games/{gid}/").json()
    assert view["players"][1]["eliminated"] and view["status"] == "active"
    assert CONTROL not in jan.get(f"/games/{gid}/").content.decode(), "out: no order"
    assert CONTROL in eva.get(f"/games/{gid}/").content.decode(), "the others keep theirs"
