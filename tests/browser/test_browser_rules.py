"""The rules page and cards that speak the page's language, in Chromium.

- /rules/ in English and Czech holds every card of the engine's standard deck, each with its id
  and both effects in the page's language (frontend/card_words.py, the one source), and no
  card reference on it carries data-card (API.md);
- the header's link and the table's link lead to it;
- on the table, English cards say English (bold) and Czech cards Czech, in the hand, the pending
  play and the prompts;
- a term (Kostič, HIGHHP) explains itself on keyboard focus and on hover, and links to its place
  on the rules page.
The rules page is also in the axe-core check (test_browser_accessibility.py).
"""

from __future__ import annotations

import pytest

from frontend import card_words
from games.engine import load_deck
from tests.browser.api import settled
from tests.browser.ui import SHOTS, login, open_table

LOG_IN = {"en": "Log in", "cs": "Přihlásit se"}
RULES = {"en": "Rules", "cs": "Pravidla"}
TITLE = {"en": "How to play Sejmi je", "cs": "Jak se hraje Sejmi je"}
# Eva (seat 0) is the first Kostič; C14 is green BLAST / blue DOUBLE_LOW, C25 green LOSE_1 / blue
# GAIN_1, C17 green SWAP_NEIGHBOR / blue GAIN_1. Jan holds green cards only.
RIG = {
    "lives": [6, 6],
    "first": 0,
    "hands": [["C25", "C17", "C14"], ["C29", "C01", "C30"]],
    "deck": ["C35", "C36", "C37"],
}


def two_player_game(make_player) -> tuple[int, object, object]:
    eva, jan = make_player("eva"), make_player("jan")
    gid = eva.create_game(2, rig=RIG)
    eva.join(gid, 0)
    jan.join(gid, 1)
    return gid, eva, jan


@pytest.mark.parametrize(
    ("lang", "site"),
    [("en", "postgresql"), ("cs", "postgresql"), ("en", "sqlite")],
    indirect=["site"],
)  # and on make run's SQLite
def test_the_rules_page_holds_every_card_with_both_effects_in_the_page_language(lang, open_page):
    page = open_page(f"rules-{lang}", lang=lang)
    page.goto("/rules/")
    assert page.get_attribute("html", "lang") == lang
    assert page.get_by_role("heading", level=1).inner_text() == TITLE[lang]
    other = "cs" if lang == "en" else "en"
    deck = load_deck("standard")
    assert page.locator("ol.rules-deck > li.card").count() == len(deck.cards) == 40
    for card in deck.cards:
        shown = page.locator(f"#card-{card.id}")
        assert shown.locator(".card-id").inner_text() == card.id
        labels = shown.locator(".effect-label").all_inner_texts()
        explained = shown.locator(".effect-explain").all_inner_texts()
        assert labels == [card_words.EFFECTS[e.kind][lang].label for e in card.effects], card.id
        assert explained == [card_words.EFFECTS[e.kind][lang].explain for e in card.effects]
        for effect in card.effects:  # the other language's line is not the bold one
            assert card_words.EFFECTS[effect.kind][other].label not in labels, (card.id, effect)
        colours = shown.locator(".effect-colour").all_inner_texts()
        for effect, words in zip(card.effects, colours, strict=True):
            assert card_words.COLOURS[lang][effect.colour] in words.lower(), (card.id, words)
    assert page.locator("[data-card]").count() == 0, "a card reference carries no data-card"
    # anchors: a term and a card can be linked to
    page.goto("/rules/#card-C17")
    assert page.locator("#card-C17").is_visible()
    assert page.locator("#term-lowhp").inner_text() == "LOWHP"


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_the_header_and_the_table_link_to_the_rules(lang, make_player, open_page):
    gid, eva, _ = two_player_game(make_player)
    page = open_page(f"eva-{lang}", lang=lang)
    login(page, eva, button=LOG_IN[lang])
    page.goto("/")
    page.get_by_role("navigation").get_by_role("link", name=RULES[lang], exact=True).click()
    page.wait_for_url("**/rules/")
    assert page.get_by_role("heading", level=1).inner_text() == TITLE[lang]
    current = page.get_by_role("navigation").get_by_role("link", name=RULES[lang], exact=True)
    assert current.get_attribute("aria-current") == "page"

    open_table(page, gid)
    table_link = page.locator("#table .table-head").get_by_role("link", name=RULES[lang])
    with page.context.expect_page() as opened:  # a new tab: the live table stays where it is
        table_link.click()
    rules = opened.value
    rules.wait_for_load_state()
    assert rules.url.endswith("/rules/")
    assert rules.get_by_role("heading", level=1).inner_text() == TITLE[lang]


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_cards_on_the_table_speak_the_page_language(lang, make_player, open_page):
    gid, eva, _ = two_player_game(make_player)
    page = open_page(f"eva-{lang}", lang=lang)
    login(page, eva, button=LOG_IN[lang])
    open_table(page, gid)
    hand_card = page.locator('#hand button[data-card="C25"]')
    labels = hand_card.locator(".effect-label").all_inner_texts()
    expected = {
        "en": ["Lose 1 life", "Gain 1 life"],
        "cs": ["Uber si 1 život", "Přidej si 1 život"],
    }
    assert labels == expected[lang]
    other = "cs" if lang == "en" else "en"
    hand = page.inner_text("#hand")
    for kind in ("LOSE_1", "GAIN_1", "SWAP_NEIGHBOR", "BLAST", "DOUBLE_LOW"):
        assert card_words.EFFECTS[kind][other].label not in hand, f"{other} on the {lang} table"
    # the bold line is the page language's, and the card's accessible name says the same
    weight = hand_card.locator(".effect-label").first.evaluate(
        "e => getComputedStyle(e).fontWeight"
    )
    assert int(weight) >= 600
    assert expected[lang][0] in hand_card.get_attribute("aria-label")
    # the prompt names the effect in the page language too
    hand_card = page.locator('#hand button[data-card="C17"]')
    hand_card.click()
    choice = page.locator('[data-effect="0"]')
    swap = {
        "en": "green: Swap lives with a neighbour",
        "cs": "zelená: Prohoď si počet životů se sousedem",
    }
    assert choice.inner_text().startswith(swap[lang])
    explain = card_words.EFFECTS["SWAP_NEIGHBOR"][lang].explain  # the one explanation, here too
    assert choice.locator(".effect-explain").inner_text() == explain
    page.screenshot(path=SHOTS / f"table-effect-choice-{lang}.png")


def test_a_term_explains_itself_on_keyboard_focus_and_on_hover(make_player, open_page):
    gid, eva, jan = two_player_game(make_player)
    page = open_page("jan")
    login(page, jan)
    open_table(page, gid)
    tip = page.get_by_role("tooltip")
    kostic = page.locator('[data-seat="0"] a.term[data-term="kostic"]')
    assert kostic.inner_text() == "Kostič" and kostic.get_attribute("href") == "/rules/#term-kostic"
    assert not tip.is_visible()

    # Keyboard only: Tab from the top of the page until the Kostič mark has the focus.
    page.locator("body").focus()
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.dataset.term === 'kostic'"):
            break
    else:
        pytest.fail("Tab never reached the Kostič term")
    meaning = "Kostič: " + card_words.TERMS["kostic"]["en"]
    tip.wait_for(state="visible")
    assert tip.inner_text() == meaning
    described = kostic.get_attribute("aria-describedby")
    assert page.locator(f"#{described}").text_content() == meaning, "screen readers get it too"
    page.keyboard.press("Escape")
    tip.wait_for(state="hidden")

    # Hover: a term on the pending play's card (Eva plays C14's green BLAST on Jan at 6 lives).
    eva.command(gid, {"type": "play", "card": "C14", "effect": 0, "scope": "one", "target": 1})
    settled(jan, gid, lambda v: v["phase"] == "block")
    highhp = page.locator('#pending a.term[data-term="highhp"]').first
    highhp.wait_for()
    highhp.hover()
    tip.wait_for(state="visible")
    assert tip.inner_text() == "HIGHHP: " + card_words.TERMS["highhp"]["en"]
    assert highhp.get_attribute("href") == "/rules/#term-highhp"
    page.screenshot(path=SHOTS / "table-term-tooltip-en.png")
    page.mouse.move(0, 0)
    tip.wait_for(state="hidden")


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_rules_page_screenshots(lang, open_page):
    """The rules page at 1280×800 and 360 px wide (the viewport, and the deck at 360 px), for
    docs/screenshots/ (copied there by hand after looking at them)."""
    page = open_page(f"shots-{lang}", lang=lang)
    SHOTS.mkdir(exist_ok=True)
    for width, height in ((1280, 800), (360, 740)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto("/rules/")
        page.screenshot(path=SHOTS / f"rules-{lang}-{width}.png")
        page.goto("/rules/#deck")
        page.screenshot(path=SHOTS / f"rules-{lang}-{width}-deck.png")
        overflow = page.evaluate("() => document.documentElement.scrollWidth - innerWidth")
        assert overflow <= 0, f"the rules page scrolls sideways at {width} px"
    page.set_viewport_size({"width": 1280, "height": 800})
