"""/disputes/ (API.md "More pages") lists the caller's own disputes, newest first,
with the moment, the reason, the status and the staff's resolution; it needs a login, shows
nobody else's, and says what to do when there is none, in English and in Czech ("ty")."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from replays.disputes import services as disputes
from tests.frontend.page_helpers import api, logged_in, make_user


def seated(client: Client) -> int:
    gid = api(client, "/api/games/", {"seats": 2, "options": {"bots": [1]}}).json()["id"]
    assert api(client, f"/api/games/{gid}/join/").status_code == 200
    return gid


def file(client: Client, gid: int, reason: str, seq: int | None = None) -> int:
    body = {"reason": reason, **({"seq": seq} if seq else {})}
    answer = api(client, f"/api/games/{gid}/disputes/", body)
    assert answer.status_code == 201, answer.content
    return answer.json()["id"]


@pytest.mark.django_db
def test_disputes_page_needs_a_login():
    answer = Client().get("/disputes/")
    assert answer.status_code == 302 and answer["Location"] == "/login/?next=/disputes/"


@pytest.mark.django_db
def test_the_page_lists_mine_newest_first_with_status_and_resolution():
    eva, jan = logged_in("eva"), logged_in("jan")
    gid = seated(eva)
    older = file(eva, gid, "The deal was odd.", seq=2)
    newer = file(eva, gid, "The whole game felt wrong.")
    file(jan, seated(jan), "Jan's own complaint.")
    disputes.dispute_close(dispute_id=older, by=make_user("referee", is_staff=True),
                           status="rejected", resolution="The deal matches the seed.")  # fmt: skip

    html = eva.get("/disputes/").text
    listed = [int(i) for i in re.findall(r'data-dispute="(\d+)"', html)]
    assert listed == [newer, older]
    assert "Jan&#x27;s own complaint." not in html and "Jan's own complaint." not in html
    assert f'href="/games/{gid}/replay/?at=2"' in html and "Event 2" in html
    assert "The whole game" in html and "Waiting for a decision" in html
    assert "Rejected" in html and "The deal matches the seed." in html


@pytest.mark.django_db
def test_an_empty_list_says_how_to_dispute_in_both_languages():
    english = logged_in("eva").get("/disputes/").text
    assert 'id="my-disputes-empty"' in english and "Dispute this moment" in english
    czech = logged_in("jana", HTTP_ACCEPT_LANGUAGE="cs").get("/disputes/").text
    assert "Zatím nemáš žádnou námitku" in czech and "Moje námitky" in czech
