"""Issue 29, moves you can follow: the events of a batch are shown one at a time on the felt
(#beat: "jan: C30 → eva"), a seat whose lives change shows −1 / +1 for a moment, and the next
decision starts with "Since your move: …"; with reduced motion nothing is queued (the prompt's
line still says it)."""

from __future__ import annotations

import pytest

from tests.browser.api import settled
from tests.browser.ui import login, open_table, play

# Eva opens with C25 (green LOSE_1) on Jan, who holds no green card that he wants to spend;
# then Jan plays C30's blue LOSE_1 on Eva, who holds C33 (blue): a block window for her.
RIG = {
    "lives": [6, 6],
    "first": 0,
    "hands": [["C25", "C33", "C34"], ["C30", "C01", "C36"]],
    "deck": ["C35", "C37", "C38"],
}


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_batch_is_shown_move_by_move_and_recapped_at_the_prompt(make_player, open_page, motion):
    eva, jan = make_player("eva"), make_player("jan")
    gid = eva.create_game(2, rig=RIG)
    eva.join(gid, 0)
    jan.join(gid, 1)
    page = open_page("eva", motion=motion)
    login(page, eva)
    open_table(page, gid)
    play(page, "C25", 0, target=1)
    settled(jan, gid, lambda v: v["phase"] == "block")
    page.evaluate("""() => { window.__seen = {beats: [], deltas: []};
      new MutationObserver(() => {
        const line = document.querySelector('#beat .beat-line');
        if (line) window.__seen.beats.push(line.textContent);
        document.querySelectorAll('#seats .delta').forEach((d) =>
          window.__seen.deltas.push([d.closest('[data-seat]').dataset.seat, d.textContent]));
      }).observe(document.querySelector('#table'), {childList: true, subtree: true}); }""")
    jan.command(gid, {"type": "pass"})
    settled(jan, gid, lambda v: v["kostic"] == 1 and v["phase"] == "play")
    jan.command(gid, {"type": "play", "card": "C30", "effect": 1, "scope": "one", "target": 0})
    page.wait_for_selector('#prompt [data-command="block"][data-card="C33"]')
    recap = page.locator("#prompt .recap").inner_text()
    assert recap.startswith("Since your move:"), recap
    assert "6 → 5" in recap and "C30" in recap, recap
    # The table is drawn at once; the felt tells the batch after it, one move at a time.
    page.wait_for_function("() => document.querySelector('#beat').classList.contains('idle')",
                           timeout=20_000)  # fmt: skip
    seen = page.evaluate("window.__seen")
    if motion == "reduce":
        assert seen["beats"] == [] and seen["deltas"] == [], seen
    else:
        assert any("6 → 5" in b for b in seen["beats"]), sorted(set(seen["beats"]))
        assert any("C30" in b for b in seen["beats"]), seen["beats"]
        assert ["1", "−1"] in seen["deltas"], seen["deltas"]
