"""Issue 28: the installable page and Web Push in Chromium. The page registers the service
worker (/sw.js, scope /) once the player has allowed notifications, never asking before his
click; a push delivered through the DevTools protocol (`ServiceWorker.deliverPushMessage`, as a
push service would) shows a notification titled as the payload says, tagged with its game; its
click goes to the game's table. Headless Chromium has no push service of its own (its
`pushManager.subscribe` fails) and shows no OS notification a test could click: see
docs/NOTIFICATIONS.md "Push" for what is covered where."""

from __future__ import annotations

import json

from tests.browser.api import wait_until
from tests.browser.ui import login

READY = "async () => { const r = await navigator.serviceWorker.ready; return r.scope; }"
SHOWN = """async () => (await (await navigator.serviceWorker.ready).getNotifications())
    .map((n) => ({title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url}))"""


def registration_id(page, cdp, scope: str) -> str:
    """The worker's registration id, as DevTools reports it (its events arrive while Playwright
    is called: the wait pumps them)."""
    found: dict[str, str] = {}

    def seen(event) -> None:
        for reg in event["registrations"]:
            if reg["scopeURL"] == scope and not reg.get("isDeleted"):
                found["id"] = reg["registrationId"]

    cdp.on("ServiceWorker.workerRegistrationUpdated", seen)
    cdp.send("ServiceWorker.enable")
    for _ in range(200):
        if "id" in found:
            return found["id"]
        page.wait_for_timeout(50)
    raise AssertionError(f"no registration of {scope} reported")


def test_the_worker_shows_a_pushed_notification_and_its_click_opens_the_table(
    open_page, make_player, live
):
    eva, jan = make_player("eva"), make_player("jan")
    gid = eva.create_game(2)
    eva.join(gid, 0)
    jan.join(gid, 1)
    page = open_page("eva")
    login(page, eva)
    page.goto("/me/")
    button = page.get_by_role("button", name="Notify me on this device").first
    button.wait_for()
    # Not allowed yet: no worker registered, no prompt (the permission is asked on the click).
    assert page.evaluate("() => navigator.serviceWorker.getRegistrations()"
                         ".then((r) => r.length)") == 0  # fmt: skip
    assert page.evaluate("() => Notification.permission") == "default"

    page.context.grant_permissions(["notifications"], origin=live.base)
    page.locator("#push-device").get_by_role("button", name="Notify me on this device").click()
    scope = page.evaluate(READY)
    assert scope == live.base + "/"
    # Headless Chromium has no push service: the subscription fails, and the page says so.
    page.locator("#push-device [role=status]").filter(has_text="could not").wait_for()

    cdp = page.context.new_cdp_session(page)
    payload = {"kind": "your_turn", "game": gid, "seq": 3, "title": "Your turn",
               "body": f"Your turn in game {gid}", "url": f"/games/{gid}/"}  # fmt: skip
    registration = registration_id(page, cdp, scope)
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": live.base, "registrationId": registration, "data": json.dumps(payload)},
    )
    shown = wait_until(lambda: page.evaluate(SHOWN), what="the notification")
    assert shown == [{"title": "Your turn", "body": f"Your turn in game {gid}", "tag": str(gid),
                      "url": f"{live.base}/games/{gid}/"}]  # fmt: skip

    # The click (a real click on an OS notification is out of reach headless, and focus() and
    # openWindow() are allowed only in a real click's event): what the worker's
    # notificationclick does with it. No tab of the game: the table opens.
    worker = wait_until(lambda: page.context.service_workers, what="the worker")[0]
    click = "async () => self.sejmiClickTarget((await self.registration.getNotifications())[0])"
    assert worker.evaluate(click) == {"open": f"{live.base}/games/{gid}/"}
    # A tab that shows the table already: that tab is focused, no other opens.
    table = page.context.new_page()
    table.goto(f"/games/{gid}/")
    assert worker.evaluate(click) == {"focus": f"{live.base}/games/{gid}/"}
    # A push that names another site's page opens the player's own games instead.
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {
            "origin": live.base,
            "registrationId": registration,
            "data": json.dumps({**payload, "game": gid + 1, "url": "https://evil.example/"}),
        },
    )
    wait_until(lambda: len(page.evaluate(SHOWN)) == 2, what="the second notification")
    assert {n["url"] for n in page.evaluate(SHOWN)} == {f"{live.base}/games/{gid}/",
                                                        f"{live.base}/me/"}  # fmt: skip


def test_offline_the_worker_shows_the_offline_page_in_the_players_language(
    open_page, make_player, live
):
    petr = make_player("petr")
    page = open_page("petr", lang="cs")
    page.context.grant_permissions(["notifications"], origin=live.base)  # allowed before
    login(page, petr, button="Přihlásit se")
    page.goto("/me/")
    assert page.evaluate(READY) == live.base + "/"  # registered on the page, no click needed
    page.wait_for_function("() => navigator.serviceWorker.controller !== null || "
                           "navigator.serviceWorker.ready")  # fmt: skip
    cached = page.evaluate("""async () => {
        const out = [];
        for (const name of await caches.keys())
            for (const req of await (await caches.open(name)).keys()) out.push(req.url);
        return out; }""")  # fmt: skip
    # Nothing per user, nothing else: the page and its script (the CSP allows no inline one).
    assert sorted(cached) == [f"{live.base}/offline.js", f"{live.base}/offline/"]

    page.context.set_offline(True)
    try:
        page.goto("/me/")
        page.get_by_role("heading", name="Jsi offline").wait_for()
        assert petr.username not in page.content()
    finally:
        page.context.set_offline(False)
