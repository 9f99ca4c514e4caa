"""Issue 18, the play area: what a player needs for a decision fits the window, nothing covers
anything, a block button says what its card does, and hitting yourself asks first.

- At 1280 × 800 the pending play, the prompt and the hand show together (bounding boxes).
- At 360 px the countdown and the discard pile do not overlap, and no two controls do.
- During the animation after a block no element lies over a control (elementFromPoint at each
  control's centre, frame by frame, motion not reduced).
- A block button's accessible name holds its card's effects in the page's language.
- Aiming a harmful effect at yourself asks ("Lose 1 life yourself?", at 1 life: it knocks you
  out); Cancel sends nothing; after the end no standing-order form and no "Leave game".
The block-window screenshots of docs/screenshots/ are taken here (tests/browser/screenshots/).
"""

from __future__ import annotations

import pytest

from games.engine.effects import EFFECTS
from tests.browser.api import settled
from tests.browser.ui import SHOTS, login, open_table, wait_seq

LOG_IN = {"en": "Log in", "cs": "Přihlásit se"}

# Four players; Ota (1 life) falls to Eva's C25 in turn 1, which starts the countdown (R16);
# in turn 2 Jan plays C26 (green LOSE_1) on Walk, who holds three green cards: a block window
# with the countdown and a discard pile of four cards on the felt.
COUNTDOWN_RIG = {
    "lives": [6, 1, 5, 3],
    "first": 0,
    "hands": [["C25", "C33", "C34"], ["C07", "C08", "C09"], ["C26", "C02", "C05"],
              ["C29", "C01", "C30"]],
    "deck": ["C35", "C36", "C37", "C38"],
}  # fmt: skip

# Two players: Eva opens with C25 (green LOSE_1) on Jan, who holds green cards (the block).
DUO_RIG = {
    "lives": [6, 6],
    "first": 0,
    "hands": [["C25", "C33", "C34"], ["C29", "C01", "C30"]],
    "deck": ["C35", "C36", "C37", "C38"],
}


def countdown_block_window(make_player, open_page, lang: str, width: int, height: int):
    """Walk's page (seat 3) in turn 2's block window, the countdown at 6; (page, gid)."""
    eva, ota, jan, walk = (make_player(s) for s in ("eva", "ota", "jan", "walk"))
    gid = eva.create_game(4, rig=COUNTDOWN_RIG)
    for seat, player in enumerate((eva, ota, jan, walk)):
        player.join(gid, seat)
    eva.command(gid, {"type": "play", "card": "C25", "effect": 0, "scope": "one", "target": 1})
    for player in (ota, jan, walk):
        player.command(gid, {"type": "pass"})
    settled(ota, gid, lambda v: v["phase"] == "handoff")
    ota.command(gid, {"type": "handoff", "card": None, "to": None})
    settled(jan, gid, lambda v: v["kostic"] == 2 and v["phase"] == "play")
    page = open_page("walk", lang=lang)
    page.set_viewport_size({"width": width, "height": height})
    login(page, walk, button=LOG_IN[lang])
    open_table(page, gid)
    jan.command(gid, {"type": "play", "card": "C26", "effect": 0, "scope": "one", "target": 3})
    page.wait_for_selector('#prompt [data-command="pass"]')
    page.wait_for_function("() => document.getAnimations().length === 0")
    assert page.locator("#countdown").is_visible(), "the countdown runs (R16)"
    return page, gid


def apart(a: dict, b: dict) -> bool:
    """Two boxes of DRAWN_BOX that do not overlap."""
    return (a["right"] <= b["left"] or b["right"] <= a["left"]
            or a["bottom"] <= b["top"] or b["bottom"] <= a["top"])  # fmt: skip


def box(page, selector: str) -> dict:
    return page.locator(selector).bounding_box()


def inside_viewport(rect: dict, height: int) -> bool:
    return rect["y"] >= 0 and rect["y"] + rect["height"] <= height


# The box of an element with everything drawn inside it (a pile's cards lie beyond its box).
DRAWN_BOX = """(sel) => {
  const rects = [document.querySelector(sel), ...document.querySelectorAll(sel + ' *')]
    .map((n) => n.getBoundingClientRect()).filter((r) => r.width && r.height);
  const edge = (side, pick) => pick(...rects.map((r) => r[side]));
  return {left: edge('left', Math.min), right: edge('right', Math.max),
          top: edge('top', Math.min), bottom: edge('bottom', Math.max)};
}"""

CONTROLS = "button, a[href], input, select, textarea, summary"

OVERLAPPING_CONTROLS = """(sel) => {
  const shown = [...document.querySelectorAll(sel)].filter((n) => n.getClientRects().length
    && getComputedStyle(n).visibility !== 'hidden' && !n.closest('.visually-hidden, .skip-link'));
  const name = (n) => `${n.tagName} "${(n.innerText || n.value || '').trim().slice(0, 30)}"`;
  const out = [];
  shown.forEach((a, i) => shown.slice(i + 1).forEach((b) => {
    if (a.contains(b) || b.contains(a)) return;
    const r = a.getBoundingClientRect(), s = b.getBoundingClientRect();
    const w = Math.min(r.right, s.right) - Math.max(r.left, s.left);
    const h = Math.min(r.bottom, s.bottom) - Math.max(r.top, s.top);
    if (w > 1 && h > 1) out.push(`${name(a)} × ${name(b)}`);
  }));
  return out;
}"""


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_block_prompt_pending_play_and_hand_fit_at_1280x800(make_player, open_page, lang):
    page, _ = countdown_block_window(make_player, open_page, lang, 1280, 800)
    for selector in ("#pending", "#prompt", "#hand"):
        rect = box(page, selector)
        assert rect and inside_viewport(rect, 800), f"{selector} outside the window: {rect}"
    # The discard pile's cards leave the countdown whole (the Czech "zbývá tahů" lost its "z").
    pile, countdown = page.evaluate(DRAWN_BOX, "#discard"), page.evaluate(DRAWN_BOX, "#countdown")
    assert apart(pile, countdown), f"the discard pile overlaps the countdown: {pile} {countdown}"
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=SHOTS / f"table-block-{lang}-1280.png")
    page.locator(".piles").screenshot(path=SHOTS / f"table-piles-{lang}-1280.png")


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_at_360px_countdown_pile_and_controls_do_not_overlap(make_player, open_page, lang):
    page, _ = countdown_block_window(make_player, open_page, lang, 360, 740)
    pile, countdown = page.evaluate(DRAWN_BOX, "#discard"), page.evaluate(DRAWN_BOX, "#countdown")
    assert apart(pile, countdown), f"the discard pile overlaps the countdown: {pile} {countdown}"
    assert page.evaluate(OVERLAPPING_CONTROLS, CONTROLS) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 360, "no sideways scroll"
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=SHOTS / f"table-block-{lang}-360.png")
    page.locator(".piles").screenshot(path=SHOTS / f"table-piles-{lang}-360.png")


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_block_buttons_name_what_the_card_does(make_player, open_page, lang):
    eva, jan = make_player("eva"), make_player("jan")
    gid = eva.create_game(2, rig=DUO_RIG)
    eva.join(gid, 0)
    jan.join(gid, 1)
    page = open_page("jan", lang=lang)
    login(page, jan, button=LOG_IN[lang])
    open_table(page, gid)
    eva.command(gid, {"type": "play", "card": "C25", "effect": 0, "scope": "one", "target": 1})
    page.wait_for_selector('#prompt [data-command="pass"]')
    # What the page itself says each card does (cards.js), in the page's language.
    expected = page.evaluate("""async () => {
      const src = document.querySelector('script[src$="table.js"]').src;
      const { effectText } = await import(new URL('../shared/cards.js', src));
      const { t } = await import(new URL('../shared/i18n.js', src));
      const catalog = JSON.parse(document.getElementById('catalog').textContent);
      const said = (id) => [id, [t('block_with', {card: id}), ...catalog[id].map(effectText)]];
      return Object.fromEntries(['C29', 'C01', 'C30'].map(said));
    }""")
    for card, (label, *effects) in expected.items():
        button = page.locator(f'#prompt [data-command="block"][data-card="{card}"]')
        shown = button.inner_text()
        assert label in shown and all(text in shown for text in effects), (shown, effects)
        # The accessible name, as assistive technology gets it: the label and both effects.
        name = f"{label} ({effects[0]}; {effects[1]})"
        assert page.get_by_role("button", name=name, exact=True).count() == 1, name
    if lang == "cs":
        assert "zelená" in name and "green" not in name


# In the page: after each frame, every control whose centre is in the window must be the top
# element there (or hold it); `.ghost` (the struck-through copy of the blocked play) seen once.
WATCH_CONTROLS = """(ms) => new Promise((done) => {
  const seen = {covered: [], ghost: false, frames: 0, moving: 0};
  const sel = 'button, a[href], input, select, textarea';
  const end = performance.now() + ms;
  const look = () => {
    seen.frames += 1;
    if (document.querySelector('.ghost')) seen.ghost = true;
    if (document.getAnimations().length) seen.moving += 1;
    for (const c of document.querySelectorAll(sel)) {
      if (!c.getClientRects().length || c.closest('.visually-hidden, .skip-link')) continue;
      const r = c.getBoundingClientRect();
      const x = r.left + r.width / 2, y = r.top + r.height / 2;
      if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
      const top = document.elementFromPoint(x, y);
      if (top && top !== c && !c.contains(top)) {
        const what = `${c.tagName} "${c.textContent.trim().slice(0, 25)}"`;
        seen.covered.push(`${what} under ${top.tagName}.${top.className}`);
      }
    }
    if (performance.now() < end) requestAnimationFrame(look); else done(seen);
  };
  requestAnimationFrame(look);
})"""


def test_no_element_covers_a_control_while_a_block_animates(make_player, open_page):
    eva, jan = make_player("eva"), make_player("jan")
    gid = eva.create_game(2, rig=DUO_RIG)
    eva.join(gid, 0)
    jan.join(gid, 1)
    page = open_page("jan", motion="no-preference")
    login(page, jan)
    open_table(page, gid)
    eva.command(gid, {"type": "play", "card": "C25", "effect": 0, "scope": "one", "target": 1})
    page.wait_for_selector('#prompt [data-command="block"][data-card="C29"]')
    page.wait_for_function("() => document.getAnimations().length === 0")
    page.evaluate(f"(ms) => {{ window.__watch = ({WATCH_CONTROLS})(ms); }}", 1600)  # runs on
    page.click('#prompt [data-command="block"][data-card="C29"]')
    # Jan is the next Kostič: he picks a card at once, so effect buttons show mid-animation.
    page.wait_for_selector('#hand button[data-card="C01"]:not([disabled])')
    page.click('#hand button[data-card="C01"]')
    seen = page.evaluate("window.__watch")
    assert seen["ghost"] and seen["moving"], f"the block was not animated: {seen}"
    assert page.locator("#prompt [data-effect]").count() == 2
    assert seen["covered"] == [], "\n".join(seen["covered"][:20])


def test_hitting_yourself_asks_first_and_says_you(make_player, open_page):
    eva, jan = make_player("eva"), make_player("jan")
    gid = eva.create_game(2, rig={**DUO_RIG, "lives": [1, 6]})
    eva.join(gid, 0)
    jan.join(gid, 1)
    page = open_page("eva")
    login(page, eva)
    seq = open_table(page, gid)
    # The page asks by the engine's effect table (#card-words' `rules`), not by rules of its own:
    # what it counts as lost, for every effect and every count of lives, is the table's `loss`.
    lost = page.evaluate(
        """async (kinds) => {
        const table = document.querySelector('script[src$="/table.js"]').src;
        const shared = table.replace(/pages\\/table\\.js$/, "shared/");
        const { selfLoss } = await import(shared + "second_person.js");
        const lives = [0, 1, 2, 3, 4, 5, 6];
        return Object.fromEntries(kinds.map((k) => [k, lives.map((x) => selfLoss(k, x))]));
    }""",
        list(EFFECTS),
    )
    assert lost == {kind: list(rule.loss) for kind, rule in EFFECTS.items()}
    page.click('#hand button[data-card="C25"]')
    page.click('[data-effect="0"]')
    page.get_by_role("button", name="Target yourself", exact=True).click()
    summary = page.inner_text("#prompt .summary")
    assert "yourself" in summary and eva.username not in summary, summary
    page.get_by_role("button", name="Play", exact=True).click()
    warning = page.locator("#self-warning")
    assert "Lose 1 life yourself?" in warning.inner_text()
    assert "You have 1 life: this knocks you out of the game." in warning.inner_text()
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=SHOTS / "table-self-target-en-1280.png")

    page.get_by_role("button", name="Cancel", exact=True).click()
    assert not warning.count(), "Cancel closes the question"
    assert eva.view(gid)["seq"] == seq and eva.view(gid)["phase"] == "play", "nothing was sent"
    assert page.get_by_role("button", name="Play", exact=True).count() == 1, "the choice stays"

    page.get_by_role("button", name="Play", exact=True).click()
    page.get_by_role("button", name="Yes, play it", exact=True).click()
    settled(jan, gid, lambda v: v["phase"] == "block")
    # The API has it; the page draws it when its frame arrives.
    page.wait_for_function(
        "() => document.querySelector('#pending')?.innerText.includes('You play C25')"
    )
    pending = page.locator("#pending").inner_text()
    assert "You play C25" in pending and "on yourself" in pending, pending
    jan.command(gid, {"type": "pass"})
    end = settled(eva, gid, lambda v: v["status"] == "ended")
    assert eva.view(gid)["players"][0]["lives"] == 0, "the confirmed play knocked Eva out"
    wait_seq(page, end)
    assert not page.locator(".standing-order").is_visible(), "no standing order after the end"
    assert page.get_by_role("button", name="Leave game").count() == 0
    page.reload()
    open_table(page, gid)
    assert page.locator(".standing-order").count() == 0, "nor when the page is loaded anew"
    assert page.get_by_role("button", name="Leave game").count() == 0
