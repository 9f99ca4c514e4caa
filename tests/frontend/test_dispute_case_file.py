"""The admin's dispute page as a case file, and the dispute's optional seq.

The verdict comes first as OK / FAILED lines; the transcript is in the admin's language; the
event log has one line per event with the card catalogue folded away in a <details>; the
replay viewer is linked at the disputed moment.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from django.contrib.auth.models import Permission
from django.db import connection
from django.test import Client

from games.core.models import GameEvent
from replays.disputes.models import Dispute
from tests.frontend.page_helpers import api, logged_in, make_user
from tests.support.db_roles import as_owner

# Two players with one life each: once seat 1 lets it pass, seat 0's red LOSE_1 on all ends
# the game at once (R17). A whole game in a dozen events.
RIG = {"lives": [1, 1], "hands": [["C06", "C02", "C03"], ["C07", "C08", "C09"]], "first": 0}
CHECKS = ("chain", "signature", "seed", "rederive", "rules", "replay")
TRIGGER = "games_event_append_only"


@dataclass
class Ended:
    gid: int
    eva: Client  # seat 0, who disputes


@pytest.fixture
def ended(settings) -> Ended:
    settings.SEJMI_ALLOW_RIGGED = True
    eva, jan = logged_in("eva"), logged_in("jan")
    gid = api(eva, "/api/games/", {"seats": 2, "rig": RIG}).json()["id"]
    api(eva, f"/api/games/{gid}/join/"), api(jan, f"/api/games/{gid}/join/")
    seq = eva.get(f"/api/games/{gid}/").json()["seq"]
    play = {"type": "play", "card": "C06", "effect": 1, "scope": "all", "target": None}
    seq = api(eva, f"/api/games/{gid}/commands/", {"expected_seq": seq, **play}).json()["seq"]
    done = api(jan, f"/api/games/{gid}/commands/", {"expected_seq": seq, "type": "pass"})
    assert done.json()["view"]["status"] == "ended", done.content
    return Ended(gid, eva)


def staff_client(**headers: str) -> Client:
    staff = make_user(f"referee{Dispute.objects.count()}{len(headers)}", is_staff=True)
    codenames = ["view_dispute", "change_dispute", "view_disputenote", "add_disputenote"]
    staff.user_permissions.set(Permission.objects.filter(codename__in=codenames))
    client = Client(**headers)
    client.force_login(staff)
    return client


def dispute(game: Ended, **body) -> dict:
    path = f"/api/games/{game.gid}/disputes/"
    answer = api(game.eva, path, {"reason": "My block was ignored.", **body})
    assert answer.status_code == 201, answer.content
    return answer.json()


def outside_details(html: str) -> str:
    return re.sub(r"<details.*?</details>", "", html, flags=re.S)


def page_of(client, dispute_id: int) -> str:
    answer = client.get(f"/admin/replays/dispute/{dispute_id}/change/")
    assert answer.status_code == 200
    return answer.text


# The case file


@pytest.mark.django_db
def test_the_case_file_puts_the_verdict_first_and_links_the_disputed_moment(ended):
    gid = ended.gid
    d = dispute(ended, seq=5)
    html = page_of(staff_client(), d["id"])
    verdict = html.index("Verification verdict")
    assert verdict < html.index('name="status"') < html.index('class="transcript"')
    for check in CHECKS:
        line = re.search(rf'<li class="case-line case-ok" data-check="{check}">\s*'
                         r'<strong class="case-word">OK</strong>', html)  # fmt: skip
        assert line, check
    assert "FAILED" not in html and "All 6 checks pass" in html
    assert f'href="/games/{gid}/replay/?at=5"' in html and "Open the replay viewer at seq 5" in html
    assert "The player names event seq 5" in html


@pytest.mark.django_db
def test_the_event_log_reads_one_line_per_event_and_folds_the_catalogue_away(ended):
    d = dispute(ended)
    html = page_of(staff_client(), d["id"])
    events = list(GameEvent.objects.filter(game_id=ended.gid).order_by("seq"))
    lines = re.findall(r'<li id="event-(\d+)" class="case-event', html)
    assert [int(seq) for seq in lines] == [e.seq for e in events]
    assert events[-1].hash in html  # each line carries its hash (in full on hover)
    shown = outside_details(html)
    assert 'class="card-catalogue"' in html and 'class="card-catalogue"' not in shown
    assert '"cards"' not in html and "DUEL, red, GAIN_1" not in html  # no raw deck dump
    assert re.search(r"deck: standard, \d+ cards \(see the card catalogue\)", shown)
    last = events[-1].seq
    assert f'href="/games/{ended.gid}/replay/?at={last}"' in shown  # no seq named: the last
    assert f"The player named no event; the last one is seq {last}" in shown


@pytest.mark.django_db
def test_the_transcript_is_in_the_admins_language(ended):
    d = dispute(ended)
    english = page_of(staff_client(), d["id"])
    assert "Seat 0: eva" in english and "Final standings:" in english
    czech = page_of(staff_client(HTTP_ACCEPT_LANGUAGE="cs"), d["id"])
    assert "Místo 0: eva" in czech and "Seat 0: eva" not in czech
    assert "Ověření záznamu" in czech and ">V POŘÁDKU<" in czech


@pytest.mark.django_db
def test_a_tampered_record_is_shown_as_failed_lines_pointing_at_the_seq(ended):
    d = dispute(ended)
    edited = GameEvent.objects.get(game_id=ended.gid, type="card_played")
    with as_owner(), connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute(f"ALTER TABLE games_gameevent DISABLE TRIGGER {TRIGGER}")
        cursor.execute("UPDATE games_gameevent SET data = jsonb_set(data, '{card}', '\"C02\"') "
                       "WHERE id = %s", [edited.pk])  # fmt: skip
        cursor.execute(f"ALTER TABLE games_gameevent ENABLE TRIGGER {TRIGGER}")
        cursor.execute("SET CONSTRAINTS ALL DEFERRED")
    html = page_of(staff_client(), d["id"])
    failed = r'<li class="case-line case-failed" data-check="chain">(.*?)</li>'
    chain = re.search(failed, html, re.S)
    assert chain and ">FAILED<" in chain.group(1)
    assert f"first bad event: seq {edited.seq}" in chain.group(1)
    assert f'href="/games/{ended.gid}/replay/?at={edited.seq}"' in chain.group(1)
    assert "checks fail" in html


@pytest.mark.django_db
def test_players_still_cannot_open_the_case_file(ended):
    d = dispute(ended)
    answer = ended.eva.get(f"/admin/replays/dispute/{d['id']}/change/")
    assert answer.status_code == 302 and "/admin/login/" in answer["Location"]


# The dispute's seq (API.md: {"reason", "seq"})


@pytest.mark.django_db
def test_a_dispute_may_name_the_seq_it_is_about(ended):
    last = GameEvent.objects.filter(game_id=ended.gid).count()
    for seq in (1, last, None):
        body = dispute(ended, seq=seq)
        assert body["seq"] == seq
        assert Dispute.objects.get(pk=body["id"]).seq == seq
    # One dispute per player and moment: the same moment again, or the whole
    # game again, is a duplicate (409), however the seq is left out.
    for again in ({"seq": last}, {"seq": None}, {}):
        answer = api(ended.eva, f"/api/games/{ended.gid}/disputes/", {"reason": "Again.", **again})
        assert answer.status_code == 409 and answer.json()["error"]["code"] == "duplicate", again
    assert Dispute.objects.filter(game_id=ended.gid).count() == 3


@pytest.mark.django_db
def test_a_seq_outside_the_games_record_is_invalid(ended):
    last = GameEvent.objects.filter(game_id=ended.gid).count()
    for seq in (0, -1, last + 1, "3", 2.5, True, [1]):
        body = {"reason": "Look at this one.", "seq": seq}
        answer = api(ended.eva, f"/api/games/{ended.gid}/disputes/", body)
        assert answer.status_code == 400, (seq, answer.content)
        assert answer.json()["error"]["code"] == "invalid", seq
    assert not Dispute.objects.exists()
