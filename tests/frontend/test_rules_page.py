"""The rules page (/rules/, issue 18, API.md "More pages") and the one source of card words
(frontend/card_words.py): served in both languages, every card of the engine's standard deck on
it with its id and both effects in the page's language, linked from the header and the table.
The browser tests (tests/browser/test_browser_rules.py) check the same in Chromium."""

from __future__ import annotations

import html as html_lib
import json
import re

import pytest
from django.test import Client

from frontend import card_words
from games.engine import load_deck
from games.engine.effects import EFFECTS as ENGINE_EFFECTS
from tests.frontend.page_helpers import bot_game, logged_in

CS = {"HTTP_ACCEPT_LANGUAGE": "cs"}
CARD = re.compile(r'<li class="card" id="card-(C\d+)">(.*?)</li>', re.S)


def text_of(fragment: str) -> str:
    return " ".join(html_lib.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def cards_on(page: str) -> dict[str, str]:
    return {card_id: text_of(body) for card_id, body in CARD.findall(page)}


def test_every_effect_of_the_engine_has_both_words_in_both_languages():
    assert set(card_words.EFFECTS) == set(ENGINE_EFFECTS)
    for kind, words in card_words.EFFECTS.items():
        for lang in card_words.LANGUAGES:
            assert words[lang].label and words[lang].explain, (kind, lang)
        assert words["en"].label != words["cs"].label, f"{kind}: the English line is not English"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("headers", "lang", "title"),
    [({}, "en", "How to play Sejmi je"), (CS, "cs", "Jak se hraje Sejmi je")],
)
def test_the_rules_page_is_served_in_the_page_language(headers, lang, title):
    answer = Client().get("/rules/", **headers)
    assert answer.status_code == 200
    assert f'<html lang="{lang}">' in answer.text and title in answer.text


@pytest.mark.django_db
@pytest.mark.parametrize(("headers", "lang"), [({}, "en"), (CS, "cs")])
def test_the_rules_page_holds_every_card_with_its_id_and_both_effects(headers, lang):
    page = Client().get("/rules/", **headers).text
    shown = cards_on(page)
    deck = load_deck("standard")
    assert list(shown) == [card.id for card in deck.cards]
    for card in deck.cards:
        for effect in card.effects:
            words = card_words.EFFECTS[effect.kind][lang]
            colour = card_words.COLOURS[lang][effect.colour]
            for part in (card.id, colour, words.label, words.explain):
                assert html_lib.unescape(part) in shown[card.id], (card.id, part)
    # a card reference is no card in play: no data-card anywhere on the page (API.md)
    assert "data-card" not in page


@pytest.mark.django_db
def test_english_cards_say_english_and_czech_cards_czech():
    english = cards_on(Client().get("/rules/").text)
    czech = cards_on(Client().get("/rules/", **CS).text)
    # C19: green HALVE_EVEN, red DOUBLE_LOW; C01: green DUEL, red GAIN_1
    assert "Halve your lives" in english["C19"] and "Double your lives" in english["C19"]
    assert "Vyděl si" not in english["C19"] and "Vynásob si" not in english["C19"]
    assert "Vyděl si počet životů 2" in czech["C19"] and "Vynásob si počet životů 2" in czech["C19"]
    assert "Duel" in english["C01"] and "Gain 1 life" in english["C01"]
    assert "Souboj" in czech["C01"] and "Přidej si 1 život" in czech["C01"]


@pytest.mark.django_db
@pytest.mark.parametrize(("headers", "lang"), [({}, "en"), (CS, "cs")])
def test_the_rules_page_explains_every_term_with_an_anchor(headers, lang):
    page = Client().get("/rules/", **headers).text
    for key, term in card_words.TERMS.items():
        assert f'id="term-{key}"' in page and term["word"] in page
        assert html_lib.unescape(term[lang]) in html_lib.unescape(page)
    for section in ("setup", "turn", "colours", "blocking", "elimination", "end", "duel", "pairs"):
        assert f'id="{section}"' in page


@pytest.mark.django_db
@pytest.mark.parametrize(("headers", "name"), [({}, "Rules"), (CS, "Pravidla")])
def test_the_header_links_to_the_rules_page(headers, name):
    page = Client().get("/", **headers).text
    assert re.search(rf'<a href="/rules/"[^>]*>{name}</a>', page)


@pytest.mark.django_db
def test_the_table_links_to_the_rules_and_carries_the_card_words():
    client = logged_in("eva")
    page = client.get(f"/games/{bot_game(client)}/").text
    assert re.search(r'<a class="rules-link" href="/rules/"', page)
    words = re.search(r'<script id="card-words" type="application/json">(.*?)</script>', page, re.S)
    data = json.loads(words.group(1))
    duel = card_words.EFFECTS["DUEL"]["en"]
    assert data["effects"]["DUEL"]["en"] == [duel.label, duel.explain, ""]
    assert set(data["terms"]) == set(card_words.TERMS)


@pytest.mark.django_db
def test_the_page_json_holds_every_effect_of_the_deck_with_its_rule_and_words():
    """The table's #card-words carries, for every effect of the standard deck, its words in both
    languages and its row of the engine's effect table (what yourself.js asks by)."""
    client = logged_in("eva")
    page = client.get(f"/games/{bot_game(client)}/").text
    words = re.search(r'<script id="card-words" type="application/json">(.*?)</script>', page, re.S)
    data = json.loads(words.group(1))
    kinds = {e.kind for card in load_deck("standard").cards for e in card.effects}
    assert kinds <= set(data["effects"]) and kinds <= set(data["rules"])
    assert set(data["rules"]) == set(ENGINE_EFFECTS) == set(data["effects"])
    for kind in ENGINE_EFFECTS:
        for lang in card_words.LANGUAGES:
            label, explain, yourself = data["effects"][kind][lang]
            assert label and explain, (kind, lang)
            # A question exactly where the effect can cost the player who aims it at himself.
            assert bool(yourself) == any(data["rules"][kind]["loss"]), (kind, lang)
        rule = ENGINE_EFFECTS[kind]
        assert data["rules"][kind]["loss"] == list(rule.loss)
        assert data["rules"][kind]["table_wide"] == rule.table_wide
    # R9: BLAST costs 2 only at HIGHHP; HALVE_EVEN half of an even count; GAIN_1 nothing.
    assert data["rules"]["BLAST"]["loss"] == [0, 0, 0, 0, 2, 2, 2]
    assert data["rules"]["HALVE_EVEN"]["loss"] == [0, 0, 1, 0, 2, 0, 3]
    assert data["rules"]["GAIN_1"]["loss"] == [0] * 7
