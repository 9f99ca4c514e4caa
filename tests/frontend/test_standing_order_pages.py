"""The standing-order control (issue 10): on the table page for a seated player of a game not
over (his order for this game), on My games (his default); never for a spectator. The control
itself speaks only the public API (orders.js); the browser test drives it."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.table import commands

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
    assert "frontend/orders.js" in html
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
