"""Issue 28: the installable page. /manifest.webmanifest (name, icons 192 and 512, theme colour,
start URL /me/), /sw.js at the root with the whole site as its scope, /offline/ the same bytes
for everyone (the service worker caches it), and the page's hooks: the manifest link, the push
control on /me/ and the bell's JSON of kinds."""

from __future__ import annotations

import json
import struct

from django.contrib.staticfiles import finders


def test_the_manifest_names_the_site_its_icons_and_starts_at_my_games(client):
    answer = client.get("/manifest.webmanifest")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("application/manifest+json")
    manifest = json.loads(answer.content)
    assert manifest["name"] == "Sejmi je" and manifest["short_name"] == "Sejmi je"
    assert manifest["start_url"] == "/me/" and manifest["display"] == "standalone"
    assert manifest["theme_color"].startswith("#")
    sizes = set()
    for icon in manifest["icons"]:
        assert icon["type"] == "image/png"
        path = finders.find(icon["src"].removeprefix("/static/"))
        with open(path, "rb") as png:
            head = png.read(24)
        assert head[:8] == b"\x89PNG\r\n\x1a\n"
        width, height = struct.unpack(">II", head[16:24])
        assert icon["sizes"] == f"{width}x{height}"
        sizes.add(width)
    assert sizes == {192, 512}


def test_the_worker_is_served_from_the_root(client):
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/javascript")
    assert answer["Service-Worker-Allowed"] == "/"
    source = b"".join(answer.streaming_content) if answer.streaming else answer.content
    for hook in (b'"push"', b'"notificationclick"', b'"fetch"', b"/offline/"):
        assert hook in source
    assert client.post("/sw.js").status_code == 405


def test_the_offline_page_is_the_same_for_everyone(client, django_user_model):
    anonymous = client.get("/offline/")
    assert anonymous.status_code == 200 and "public" in anonymous["Cache-Control"]
    user = django_user_model.objects.create_user("offlinepetr", password="s3cret-pass-1")
    client.force_login(user)
    signed_in = client.get("/offline/", HTTP_ACCEPT_LANGUAGE="cs")
    assert signed_in.content == anonymous.content  # nothing of the user, no token, no language
    page = signed_in.content.decode()
    assert "You are offline" in page and "Jsi offline" in page and "offlinepetr" not in page
    assert "csrf" not in page.lower()


def test_the_pages_hooks(client, django_user_model):
    user = django_user_model.objects.create_user("hookpetr", password="s3cret-pass-1")
    client.force_login(user)
    page = client.get("/me/", HTTP_ACCEPT_LANGUAGE="cs").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert 'id="push-device"' in page
    kinds = json.loads(page.split('<script id="notification-kinds" type="application/json">')[1]
                       .split("</script>")[0])  # fmt: skip
    assert kinds["your_turn"] == {"summary": "Jsi na tahu ve hře {game}", "link": "/games/{game}/"}
    assert kinds["dispute_decided"]["link"] == "/disputes/"
