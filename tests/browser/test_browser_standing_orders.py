"""Standing orders in the browser (issue 10): Jan leaves an order on the table page and a
default on My games; when Eva's play is aimed at him, his order blocks it at once (he does
nothing) and his log says so."""

from __future__ import annotations

from tests.browser.ui import login, open_table, wait_seq

# Eva (seat 0) plays C25 (green LOSE_1) on Jan, who holds C26 (green/blue), C01 (green/red)
# and C40 (blue/blue): his order blocks with C26, the card that keeps every colour in hand.
RIG = {
    "lives": [6, 6],
    "first": 0,
    "hands": [["C25", "C33", "C34"], ["C26", "C01", "C40"]],
    "deck": ["C35", "C36", "C37", "C38"],
}
LOSE_ON_JAN = {"type": "play", "card": "C25", "effect": 0, "scope": "one", "target": 1}


def save(page, label: str, button: str) -> None:
    page.get_by_label(label, exact=True).check()
    page.get_by_role("button", name=button).click()
    page.wait_for_selector(".standing-order [role=status]:has-text('Saved.')")


def test_an_order_left_on_the_table_blocks_at_once_and_the_log_says_so(make_player, open_page):
    eva, jan = make_player("eva"), make_player("jan")
    gid = eva.create_game(2, rig=RIG, block_window_s=3600)
    eva.join(gid, 0)
    jan.join(gid, 1)
    page = open_page("jan")
    login(page, jan)

    page.goto("/me/")
    save(page, "never block", "Save my default order")
    assert jan.get("/api/me/standing-order/")["block"] == "never"

    open_table(page, gid)
    page.wait_for_selector("text=as my default says: never block")  # no order of its own yet
    save(page, "block effects aimed at me", "Save the order for this game")
    assert jan.get(f"/api/games/{gid}/standing-order/")["block"] == "aimed_at_me"

    answer = eva.command(gid, LOSE_ON_JAN)  # Jan sends nothing

    wait_seq(page, answer["seq"])
    page.wait_for_selector("#log :text('blocks with')")
    entry = page.locator("#log li", has_text="blocks with").first.inner_text()
    assert "(standing order)" in entry and "C26" in entry
    assert answer["view"]["kostic"] == 1  # the window closed with the play: Jan's turn now
    page.reload()
    page.wait_for_selector("input[name=block][value=aimed_at_me]:checked")


def test_the_order_control_in_czech(make_player, open_page):
    jan = make_player("jan")
    page = open_page("jan-cs", lang="cs")
    login(page, jan, button="Přihlásit se")
    page.goto("/me/")
    page.get_by_label("blokovat souboje proti mně", exact=True).check()
    page.get_by_role("button", name="Uložit výchozí pokyn").click()
    page.wait_for_selector(".standing-order [role=status]:has-text('Uloženo.')")
    assert jan.get("/api/me/standing-order/")["block"] == "duel_against_me"
    # The mail mode's radios sit beside their labels (they were stretched across the panel,
    # each label under its own radio, by the text fields' full width).
    for mode in ("immediate", "digest", "off"):
        radio = page.locator(f"input[name=email_mode][value={mode}]").bounding_box()
        label = page.locator(f"label:has(input[name=email_mode][value={mode}])").bounding_box()
        assert radio["width"] < 40 and abs(label["y"] - radio["y"]) < 20, (mode, radio, label)
