"""The pages on `make run`'s SQLite: a newcomer meets the service there first, and the page
tests beside this one run on PostgreSQL only. One `make run`-like server for the session
(tests/conftest.py `live_sqlite`), driven over HTTP as a browser would."""

from __future__ import annotations

from tests.browser.api import page_session, register, wait_until


def test_disputes_page_lists_a_filed_dispute_on_sqlite(live_sqlite):
    """The turn of the disputed moment comes from a JSON subquery, which SQLite answers with
    an integer where PostgreSQL answers JSON: the page must read both."""
    eva = register(live_sqlite.base, "eva")
    gid = eva.create_game(2, rig={"first": 0}, bots=[1])
    eva.join(gid, 0)
    seq = wait_until(lambda: eva.view(gid)["phase"] == "play" and eva.view(gid)["seq"])
    body = {"reason": "Odd deal.", "seq": seq}  # in turn 1
    filed = eva.post(f"/api/games/{gid}/disputes/", body, status=201)
    eva.post(f"/api/games/{gid}/disputes/", {"reason": "The whole game."}, status=201)
    page = page_session(eva).get("/disputes/")
    assert page.status_code == 200, page.text[-3000:]
    assert f'data-dispute="{filed["id"]}"' in page.text and "Odd deal." in page.text
    assert f'href="/games/{gid}/replay/?at={seq}"' in page.text and "turn 1" in page.text
