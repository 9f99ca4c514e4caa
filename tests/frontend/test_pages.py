"""The server-rendered pages (issue 8): accounts, the lobby, "my games", the language switch.
Django's test client only; the browser tests drive the same pages in Chromium."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.frontend.page_helpers import (
    PASSWORD,
    api,
    bot_game,
    game_ids,
    join,
    logged_in,
    make_user,
    new_game,
    play_to_end,
)

CS = {"HTTP_ACCEPT_LANGUAGE": "cs"}
PAGES = ["/", "/signup/", "/login/", "/me/"]


def signup(client: Client, username: str, password: str, **headers):
    body = {"username": username, "password1": password, "password2": password}
    return client.post("/signup/", body, **headers)


# Accounts


@pytest.mark.django_db
def test_signup_creates_the_account_logs_in_and_goes_to_the_lobby():
    client = Client()
    answer = signup(client, "eva", PASSWORD)
    assert answer.status_code == 302 and answer["Location"] == "/"
    assert get_user_model().objects.filter(username="eva").exists()
    lobby = client.get("/").text
    assert "eva" in lobby and "Log out" in lobby and 'id="create-game"' in lobby


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("headers", "taken", "weak", "short"),
    [
        ({}, "A user with that username already exists.", "This password is entirely numeric.",
         "This password is too short. It must contain at least 8 characters."),
        (CS, "Uživatel s tímto jménem již existuje.", "Heslo se skládá pouze z čísel.",
         "Heslo je příliš krátké. Musí mít délku aspoň 8 znaků."),  # our catalog: Django's lacks it
    ],
)  # fmt: skip
def test_signup_errors_are_clear_and_in_the_page_language(headers, taken, weak, short):
    make_user("eva")
    client = Client()
    answer = signup(client, "eva", PASSWORD, **headers)
    assert answer.status_code == 200 and taken in answer.text
    assert 'aria-invalid="true"' in answer.text and 'role="alert"' in answer.text
    answer = signup(client, "jan", "40721893", **headers)
    assert answer.status_code == 200 and weak in answer.text
    answer = signup(client, "jan", "k7#q", **headers)
    assert short in answer.text
    assert not get_user_model().objects.filter(username="jan").exists()
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_the_bots_name_is_reserved():
    answer = signup(Client(), "Bot", PASSWORD)
    assert answer.status_code == 200 and "reserved for the built-in bot" in answer.text
    answer = signup(Client(), "bot", PASSWORD, **CS)
    assert "vyhrazeno pro vestavěného bota" in answer.text


@pytest.mark.django_db
def test_login_honours_next_and_logout_is_a_post():
    make_user("eva")
    client = Client()
    page = client.get("/login/?next=/me/")
    assert page.status_code == 200 and 'name="next" value="/me/"' in page.text
    wrong = client.post("/login/", {"username": "eva", "password": "nope", "next": "/me/"})
    assert wrong.status_code == 200 and "Please enter a correct username and password" in wrong.text
    answer = client.post("/login/", {"username": "eva", "password": PASSWORD, "next": "/me/"})
    assert answer.status_code == 302 and answer["Location"] == "/me/"
    assert client.get("/logout/").status_code == 405
    answer = client.post("/logout/")
    assert answer.status_code == 302 and answer["Location"] == "/"
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_login_never_sends_to_another_site():
    make_user("eva")
    body = {"username": "eva", "password": PASSWORD, "next": "https://evil.example/"}
    assert Client().post("/login/", body)["Location"] == "/"


@pytest.mark.django_db
def test_login_errors_in_czech():
    make_user("eva")
    wrong = Client().post("/login/", {"username": "eva", "password": "nope"}, **CS)
    assert "Zadej správnou hodnotu pole" in wrong.text  # "ty", as every page (issue 18)
    assert "Přihlásit se" in wrong.text


# Every page


@pytest.mark.django_db
@pytest.mark.parametrize("path", PAGES)
def test_every_page_has_the_language_switch_skip_link_and_csrf_cookie(path):
    client = logged_in("eva")
    page = client.get(path)
    assert page.status_code == 200
    assert '<html lang="en">' in page.text
    assert 'action="/i18n/setlang/"' in page.text
    assert re.search(r'<button[^>]*name="language" value="en"[^>]*>English</button>', page.text)
    assert re.search(r'<button[^>]*name="language" value="cs"[^>]*>Čeština</button>', page.text)
    assert f'name="next" value="{path}"' in page.text
    assert 'href="#main"' in page.text and '<main id="main"' in page.text
    assert "csrftoken" in page.cookies


@pytest.mark.django_db
@pytest.mark.parametrize("path", PAGES)
def test_czech_browsers_get_czech_pages(path):
    client = logged_in("eva", **CS)
    page = client.get(path)
    assert '<html lang="cs">' in page.text
    assert "Herna" in page.text and "Moje hry" in page.text and "Odhlásit se" in page.text


@pytest.mark.django_db
def test_the_language_choice_is_remembered():
    client = Client()
    answer = client.post("/i18n/setlang/", {"language": "cs", "next": "/signup/"})
    assert answer.status_code == 302 and answer["Location"] == "/signup/"
    page = client.get("/signup/").text
    assert '<html lang="cs">' in page and "Zaregistrovat se" in page and "Registrace" in page


@pytest.mark.django_db
def test_anonymous_header_offers_log_in_and_sign_up():
    page = Client().get("/").text
    assert "Log in" in page and "Sign up" in page and "Log out" not in page


# The lobby


@pytest.mark.django_db
def test_the_lobby_lists_open_running_and_finished_games():
    eva, jan = logged_in("eva"), logged_in("jan")
    waiting = new_game(eva, 3, duel_coin=True, block_window_s=3600, turn_deadline_s=86400)
    join(eva, waiting, 0)
    running = new_game(jan, 2)
    join(jan, running, 0), join(eva, running, 1)
    finished = bot_game(eva)
    play_to_end(eva, finished)

    page = Client().get("/").text
    assert game_ids(page, "open-games") == [waiting]
    assert game_ids(page, "running-games") == [running]
    assert game_ids(page, "finished-games") == [finished]
    row = page[page.index(f'data-game="{waiting}"') :]
    assert "1 of 3 seats taken" in row and "2 free" in row and "created by eva" in row
    assert "Correspondence" in row and "duels with a coin" in row
    assert f'href="/games/{running}/"' in page  # watch
    last_seq = eva.get(f"/api/games/{finished}/").json()["seq"]
    assert f'href="/games/{finished}/replay/?at={last_seq}"' in page


@pytest.mark.django_db
def test_the_lobby_shows_a_delayed_running_game_without_its_play():
    """Issue 10: the lobby is public, so of a game whose spectators stay behind it names the
    players and the delay, not the turn, the Kostič, lives or who is to act."""
    eva, jan = logged_in("eva"), logged_in("jan")
    delayed, live = new_game(jan, 2, spectator_delay=4), new_game(jan, 2, spectator_delay=0)
    for gid in (delayed, live):
        join(jan, gid, 0), join(eva, gid, 1)
    pages = ((Client(), "Delayed by 4 events"), (Client(**CS), "Zpožděno o 4 události"))
    for client, words in pages:
        page = client.get("/").text
        assert set(game_ids(page, "running-games")) == {delayed, live}
        row, other = game_row(page, delayed), game_row(page, live)
        assert words in row and 'data-delayed="4"' in row
        assert "seat-chip--awaited" not in row and "Kostič" not in row
        assert 'data-role="lives" hidden' in row
        assert "Kostič" in other and 'data-role="lives">' in other


@pytest.mark.django_db
def test_the_lobby_opens_my_own_running_game_instead_of_watching_it():
    """Issue 18: a player is offered his running game as "Open", without "Watch" or the
    spectators' "Delayed by N events" (he sees his game live); the others still watch it."""
    eva, jan = logged_in("eva"), logged_in("jan")
    gid = new_game(jan, 2, spectator_delay=4)
    join(jan, gid, 0), join(eva, gid, 1)
    mine = game_row(eva.get("/").text, gid)
    assert ">Open</a>" in mine and "You sit here" in mine
    assert "Watch" not in mine and "Delayed by" not in mine
    czech = game_row(eva.get("/", HTTP_ACCEPT_LANGUAGE="cs").text, gid)
    assert ">Otevřít</a>" in czech and "Sledovat" not in czech and "Zpožděno" not in czech
    other = game_row(logged_in("petr").get("/").text, gid)
    assert ">Watch</a>" in other and "Delayed by 4 events" in other


def game_row(page: str, gid: int) -> str:
    """The lobby row of game `gid`: up to the next row or the end of its section."""
    start = page.index(f'<li class="game-row" data-game="{gid}"')
    ends = [page.find(mark, start + 1) for mark in ('<li class="game-row"', "</section>")]
    return page[start : min(e for e in ends if e > 0)]


@pytest.mark.django_db
def test_finished_games_filter_by_player_and_variant():
    eva, jan = logged_in("eva"), logged_in("jan")
    evas, jans = bot_game(eva), bot_game(jan)
    play_to_end(eva, evas), play_to_end(jan, jans)
    client = Client()
    assert game_ids(client.get("/").text, "finished-games") == [jans, evas]
    assert game_ids(client.get("/?player=eva").text, "finished-games") == [evas]
    assert game_ids(client.get("/?player=JAN&variant=standard").text, "finished-games") == [jans]
    assert game_ids(client.get("/?variant=pairs").text, "finished-games") == []
    assert 'name="player" value="eva"' in client.get("/?player=eva").text


@pytest.mark.django_db
def test_the_create_form_is_only_for_logged_in_players():
    new_game(logged_in("jan"), 2)
    anonymous = Client().get("/").text
    assert 'id="create-game"' not in anonymous and "data-join=" not in anonymous
    page = logged_in("eva").get("/").text
    assert 'id="create-game"' in page and "data-join=" in page
    for hook in ('name="seats"', 'name="variant"', 'name="bots"', 'name="duel_coin"',
                 'name="pace" value="live"', 'name="pace" value="correspondence"',
                 'name="pace" value="custom"', 'name="block_window_s"', 'name="turn_deadline_s"',
                 'name="sit"', 'role="alert"', "frontend/pages/lobby.js"):  # fmt: skip
        assert hook in page, hook


@pytest.mark.django_db
def test_a_seated_player_sees_no_join_button_on_his_own_open_game():
    eva = logged_in("eva")
    gid = new_game(eva, 3)
    join(eva, gid)
    page = eva.get("/").text
    assert f'data-join="{gid}"' not in page and "You sit here" in page
    assert f'data-join="{gid}"' in logged_in("jan").get("/").text


@pytest.mark.django_db
def test_the_lobby_in_czech():
    page = logged_in("eva", **CS).get("/").text
    for text in ("Otevřené hry", "Rozehrané hry", "Dohrané hry", "Založit hru"):
        assert text in page, text


# My games


@pytest.mark.django_db
def test_my_games_needs_a_login():
    answer = Client().get("/me/")
    assert answer.status_code == 302 and answer["Location"] == "/login/?next=/me/"


@pytest.mark.django_db
def test_my_games_lists_the_games_waiting_for_me_first(settings):
    settings.SEJMI_ALLOW_RIGGED = True  # to choose the first Kostič
    eva, jan = logged_in("eva"), logged_in("jan")
    lobby_game = new_game(eva, 3)
    join(eva, lobby_game)
    games = {}
    for first in (0, 1, 1, 0):  # eva sits in seat 1: she is the Kostič when first is 1
        gid = new_game(jan, 2, rig={"first": first}, turn_deadline_s=3600 * (len(games) + 1))
        join(jan, gid, 0), join(eva, gid, 1)
        games[gid] = eva.get(f"/api/games/{gid}/").json()
    mine = [gid for gid, view in games.items() if view["awaiting"] == [1]]
    theirs = [gid for gid, view in games.items() if view["awaiting"] == [0]]
    assert len(mine) == len(theirs) == 2

    page = eva.get("/me/").text
    listed = game_ids(page, "my-games")
    assert listed[:2] == mine  # waiting for eva, the soonest deadline first
    assert sorted(listed[2:4]) == sorted(theirs) and listed[4] == lobby_game
    for gid in mine:
        assert f'data-game="{gid}" data-waiting="1"' in page
    for gid in [*theirs, lobby_game]:
        assert f'data-game="{gid}" data-waiting="0"' in page
    assert "<title>(2) Sejmi je</title>" in page and "2 games are waiting for you." in page
    assert page.count("data-deadline=") == 5 and "frontend/pages/me.js" in page
    row = page[page.index(f'data-game="{theirs[0]}"') :]
    assert "Waiting for jan" in row and "Kostič: jan" in row


@pytest.mark.django_db
def test_my_games_title_counts_waiting_games():
    eva = logged_in("eva")
    gid = bot_game(eva)  # the bot never keeps eva waiting: she acts or it acts at once
    from games.clock import tasks

    while tasks.sweep():
        pass
    view = eva.get(f"/api/games/{gid}/").json()
    page = eva.get("/me/").text
    waits = view["status"] == "active" and view["you"] in view["awaiting"]
    assert waits, view
    assert "<title>(1) Sejmi je</title>" in page and "1 game is waiting for you." in page
    cs = eva.get("/me/", **CS).text
    assert "1 hra na tebe čeká." in cs and "Jsi na tahu" in cs  # "ty", as every page (issue 18)


@pytest.mark.django_db
def test_a_join_through_the_api_is_what_the_lobby_button_does():
    eva, jan = logged_in("eva"), logged_in("jan")
    gid = new_game(eva, 2)
    answer = api(jan, f"/api/games/{gid}/join/")
    assert answer.status_code == 200 and answer.json()["you"] == 0
    assert gid in game_ids(jan.get("/me/").text, "my-games")


@pytest.mark.django_db
def test_lists_never_tell_who_passed_in_an_open_block_window(settings):
    """R19: everyone asked stays marked as awaited until the window closes; only the player who
    passed learns from "my games" that the game no longer waits for him."""
    settings.SEJMI_ALLOW_RIGGED = True
    eva, jan, petr = logged_in("eva"), logged_in("jan"), logged_in("petr")
    gid = new_game(eva, 3, rig={"first": 0}, spectator_delay=0)  # the lobby shows its play
    for seat, client in enumerate((eva, jan, petr)):
        join(client, gid, seat)
    view = eva.get(f"/api/games/{gid}/").json()
    play = next(c for c in view["legal"] if c["type"] == "play")
    seq = api(eva, f"/api/games/{gid}/commands/", {"expected_seq": view["seq"], **play})
    passed = api(jan, f"/api/games/{gid}/commands/", {"expected_seq": seq.json()["seq"],
                                                      "type": "pass"})  # fmt: skip
    assert passed.status_code == 200 and passed.json()["view"]["phase"] == "block"

    row = Client().get("/").text.split(f'data-game="{gid}"')[1]  # the only game listed
    for seat in (1, 2):
        assert re.search(rf'seat-chip--awaited" data-chip-seat="{seat}"', row), seat
    assert f'data-game="{gid}" data-waiting="0"' in jan.get("/me/").text
    assert f'data-game="{gid}" data-waiting="1"' in petr.get("/me/").text
