"""The profile and leaderboard pages (issue 10): server-rendered from the ratings; the chart is
drawn by rating_chart.js from the history the page carries. Django's test client only."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from tests.frontend.page_helpers import api, bot_game, join, logged_in, new_game
from tests.frontend.page_helpers import play_to_end as play_against_bot

CS = {"HTTP_ACCEPT_LANGUAGE": "cs"}


def human_game(clients: list[Client], variant: str = "standard") -> int:
    """A game of these players, each sending its first legal command, to the end."""
    gid = new_game(clients[0], len(clients), variant)
    for seat, client in enumerate(clients):
        join(client, gid, seat)
    for _ in range(3000):
        acted = False
        for client in clients:
            view = client.get(f"/api/games/{gid}/").json()
            if view["status"] == "ended":
                return gid
            if view["legal"]:
                body = {"expected_seq": view["seq"], **view["legal"][0]}
                assert api(client, f"/api/games/{gid}/commands/", body).status_code == 200
                acted = True
                break
        assert acted, "nobody may act"
    raise AssertionError(f"game {gid} did not end")


@pytest.fixture
def played(db):
    eva, jan, petr = logged_in("eva"), logged_in("jan"), logged_in("petr")
    rated = [human_game([eva, jan]), human_game([jan, petr, eva])]
    unrated = bot_game(eva)
    play_against_bot(eva, unrated)
    return {"eva": eva, "rated": rated, "unrated": unrated}


def test_the_profile_shows_the_rating_its_history_variants_and_recent_games(played):
    page = Client().get("/players/eva/").text
    profile = Client().get("/api/players/eva/").json()
    history = json.loads(re.search(r'id="rating-history"[^>]*>(.*?)</script>', page).group(1))
    assert history == profile["history"] and [p["game"] for p in history] == played["rated"]
    assert "frontend/pages/player.js" in page and 'id="rating-chart-caption"' in page
    assert "Rating after each of 2 rated games" in page
    assert f"{profile['rating']['ordinal']:.1f}" in page
    table = page[page.index('id="by-variant"') :]
    assert '<th scope="col">Variant</th>' in table and '<th scope="row">Standard</th>' in table
    assert '<td class="num" data-role="games">2</td>' in table  # the bot game is not rated
    recent = page[page.index('id="recent-games"') :]
    for gid in [*played["rated"], played["unrated"]]:
        assert f'href="/games/{gid}/replay/"' in recent
    unrated_row = recent[recent.index(f'data-game="{played["unrated"]}"') :]
    assert "not rated" in unrated_row.split("</li>")[0]
    assert 'href="/players/jan/"' in recent  # the other players link to their profiles


def test_the_profile_and_leaderboard_speak_czech(played):
    page = Client().get("/players/eva/", **CS).text
    assert "Hodnocení" in page and "Nedávné hry" in page and "Podle variant" in page
    assert "Výhra" in page or "Prohra" in page
    board = Client().get("/leaderboard/", **CS).text
    assert "Žebříček" in board and "Hráč" in board


def test_a_player_without_rated_games_has_the_initial_rating_and_no_chart(db):
    logged_in("nova")
    page = Client().get("/players/nova/").text
    assert "No rated game yet." in page
    assert '<span class="rating-big" data-role="ordinal">0.0' in page


def test_an_unknown_player_is_a_404_page(db):
    answer = Client().get("/players/nobody/")
    assert answer.status_code == 404 and "No such player" in answer.text
    assert Client().get("/players/a%00b/").status_code == 404  # never a 500


def test_the_leaderboard_lists_players_best_first_and_filters_by_variant(played):
    page = Client().get("/leaderboard/").text
    listed = re.findall(r'<tr data-player="([^"]+)">', page)
    board = Client().get("/api/leaderboard/").json()
    assert listed == [row["username"] for row in board] and set(listed) == {"eva", "jan", "petr"}
    assert '<th scope="col">Player</th>' in page
    assert '<h2 id="board-title">All variants</h2>' in page
    assert 'href="/players/eva/"' in page
    pairs = Client().get("/leaderboard/?variant=pairs").text
    assert '<h2 id="board-title">Pairs</h2>' in pairs and "No rated game yet." in pairs
    odd = Client().get("/leaderboard/?variant=chess")  # the page shows every variant instead
    assert odd.status_code == 200 and '<h2 id="board-title">All variants</h2>' in odd.text


def test_the_header_links_the_leaderboard_and_the_lobby_links_player_names(played):
    lobby = Client().get("/").text
    assert 'href="/leaderboard/"' in lobby and 'href="/players/eva/"' in lobby
    board = Client().get("/leaderboard/").text
    assert 'href="/leaderboard/" aria-current="page"' in board
