"""Every page route, on both databases the service runs on: PostgreSQL as production has it and
`make run`'s SQLite, which a newcomer meets first (the page tests beside this one use Django's
test client on PostgreSQL only). Each database is one real server for the session
(tests/conftest.py `site`), driven over HTTP as a browser would: a session cookie from the
/login/ form, the CSRF token sent back. A page route added to the URLconf and not visited here
fails `test_every_page_route_is_visited`."""

from __future__ import annotations

import random
from collections.abc import Iterator

import httpx
import pytest
from django.urls import URLPattern, URLResolver, get_resolver, resolve

from games.notifications.mails import unsubscribe_token
from tests.browser.api import PASSWORD, Player, page_session, play_out, register, wait_until
from tests.browser.live import BOTH

NOT_PAGES = ("api/", "admin/", "i18n/")  # the REST API, Django's admin and language switch
CS = {"Accept-Language": "cs"}


def page_routes() -> set[str]:
    """The URLconf's page routes, as their patterns ("games/<int:game_id>/")."""

    def walk(patterns, prefix: str = "") -> Iterator[str]:
        for entry in patterns:
            route = prefix + str(entry.pattern)
            if isinstance(entry, URLResolver):
                yield from walk(entry.url_patterns, route)
            elif isinstance(entry, URLPattern):
                yield route

    return {r for r in walk(get_resolver().url_patterns) if not r.startswith(NOT_PAGES)}


def visited_route(path: str) -> str:
    return resolve(path.split("?")[0]).route


def seated_game(player: Player) -> tuple[int, int]:
    """`player` at seat 0 against the bot, on turn 1: (game id, the turn's first seq)."""
    gid = player.create_game(2, rig={"first": 0}, bots=[1])
    player.join(gid, 0)
    return gid, wait_until(lambda: player.view(gid)["phase"] == "play" and player.view(gid)["seq"])


def csrf(http: httpx.Client) -> dict[str, str]:
    return {"X-CSRFToken": http.cookies["csrftoken"]}


@pytest.mark.parametrize("site", BOTH, indirect=True)
def test_disputes_page_lists_a_filed_dispute(site):
    """The turn of the disputed moment comes from a JSON subquery, which SQLite answers with
    a bare number where PostgreSQL answers JSON text: the page reads both (on SQLite it was
    a 500 as soon as the player had filed a dispute)."""
    eva = register(site.base, "eva")
    gid, seq = seated_game(eva)
    filed = eva.post(f"/api/games/{gid}/disputes/", {"reason": "Odd deal.", "seq": seq}, 201)
    eva.post(f"/api/games/{gid}/disputes/", {"reason": "The whole game."}, status=201)
    page = page_session(eva).get("/disputes/")
    assert page.status_code == 200, page.text[-3000:]
    assert f'data-dispute="{filed["id"]}"' in page.text and "Odd deal." in page.text
    assert f'href="/games/{gid}/replay/?at={seq}"' in page.text and "turn 1" in page.text


@pytest.mark.parametrize("site", BOTH, indirect=True)
def test_every_page_route_answers_on_both_databases(site):
    """A finished game with disputes, notifications, a rating and a running game: every page
    as a visitor, as the player in English and Czech, the forms' POSTs, and the staff's case
    file; no answer is a 500, and the server logged no error."""
    eva, jan, referee = (register(site.base, stem) for stem in ("eva", "jan", "referee"))
    site.make_staff(referee.username)
    gid, seq = seated_game(eva)
    dispute = eva.post(f"/api/games/{gid}/disputes/", {"reason": "Odd.", "seq": seq}, 201)
    ended = play_out(gid, [eva], random.Random(5), timeout=120)
    running, _ = seated_game(jan)
    open_gid = jan.create_game(3)
    [[eva_id]] = site.execute("SELECT id FROM auth_user WHERE username = %s", (eva.username,))
    token = unsubscribe_token(eva_id)  # both servers sign with the same SECRET_KEY as this process
    last = ended["seq"]

    visits: list[tuple[str, str, int, int]] = []  # (who, path, expected, got)
    started = site.mark()

    def visit(who: str, http: httpx.Client, path: str, expected: int, **post) -> httpx.Response:
        if post:
            answer = http.post(path, headers=csrf(http), **post)
        else:
            answer = http.get(path)
        visits.append((who, path, expected, answer.status_code))
        return answer

    visitor = httpx.Client(base_url=site.base, timeout=15)
    for path, expected in [
        ("/", 200), ("/signup/", 200), ("/login/", 200), ("/login/?next=/me/", 200),
        ("/me/", 302), ("/notifications/", 302), ("/disputes/", 302),
        (f"/games/{gid}/", 200), (f"/games/{gid}/replay/", 200),
        (f"/games/{gid}/replay/?at={seq}", 200), (f"/games/{running}/", 200),
        (f"/games/{open_gid}/", 200), ("/games/999999/", 404),
        (f"/players/{eva.username}/", 200), ("/players/nobody-here/", 404),
        ("/leaderboard/", 200), ("/leaderboard/?variant=standard", 200), ("/rules/", 200),
        (f"/unsubscribe/{token}/", 200), ("/unsubscribe/not-a-token/", 404),
        ("/manifest.webmanifest", 200), ("/sw.js", 200), ("/offline/", 200), ("/offline.js", 200),
        ("/tournaments/", 200), ("/tournaments/999999/", 404),
        ("/tournaments/999999/join/", 302),  # an action needs a signed-in player first
    ]:  # fmt: skip
        visit("visitor", visitor, path, expected)
    visit("visitor", visitor, f"/games/{gid}/seen/", 403, json={"seq": 1})

    for who, headers in (("eva", {}), ("eva-cs", CS)):
        mine = page_session(eva, **headers)
        for path in ["/", "/me/", f"/games/{gid}/", f"/games/{gid}/replay/",
                     f"/games/{gid}/replay/?at={last}", f"/games/{running}/", "/notifications/",
                     "/disputes/", f"/players/{eva.username}/", "/leaderboard/", "/rules/",
                     f"/players/{jan.username}/", "/tournaments/"]:  # fmt: skip
            visit(who, mine, path, 200)
    mine = page_session(eva)
    visit("eva", mine, f"/games/{gid}/seen/", 204, json={"seq": last})
    visit("eva", mine, "/notifications/read/", 302, data={"all": "1"})
    visit("eva", mine, "/tournaments/999999/join/", 404, data={})
    visit("eva", mine, "/me/preferences/", 302, data={"email_mode": "off", "language": "cs"})
    visit("eva", visitor, f"/unsubscribe/{token}/", 200, data={})
    visit("eva", mine, "/logout/", 302, data={})
    newcomer = httpx.Client(base_url=site.base, timeout=15)
    visit("newcomer", newcomer, "/signup/", 200)
    form = {"username": f"new{eva_id}", "password1": PASSWORD, "password2": PASSWORD,
            "csrfmiddlewaretoken": newcomer.cookies["csrftoken"]}  # fmt: skip
    visit("newcomer", newcomer, "/signup/", 302, data=form)

    staff = page_session(referee)
    case_file = f"/admin/replays/dispute/{dispute['id']}/change/"
    for path in ["/admin/", "/admin/replays/dispute/", case_file]:
        visit("staff", staff, path, 200)
    case = staff.get(case_file).text
    assert "case-overall case-ok" in case and "case-failed" not in case, case[-3000:]

    wrong = [v for v in visits if v[2] != v[3]]
    assert not wrong, wrong
    # What this sweep made the server log (the server is shared by the session's page tests).
    logged = site.since(started)
    assert "Traceback" not in logged, logged[-6000:]
    visited = {visited_route(path) for _, path, _, _ in visits if not path.startswith("/admin/")}
    assert page_routes() <= visited, page_routes() - visited


def test_every_page_route_is_visited():
    """The sweep above names each page route of the URLconf; a deliberate gap shows here."""
    routes = page_routes()
    assert {"", "disputes/", "games/<int:game_id>/replay/", "rules/"} <= routes
    assert not any(r.startswith(NOT_PAGES) for r in routes)
