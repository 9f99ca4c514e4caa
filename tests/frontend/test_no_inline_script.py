"""The CSP allows only the site's own script files (`script-src 'self'`, sejmi/middleware.py):
an inline <script> or an on…="" handler in a template never runs. The offline page's was one
(its language switch never ran, so the Czech heading never showed: issue 29). JSON islands
(`type="application/json"`, json_script) are data, not scripts, and stay allowed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = sorted((ROOT / "frontend" / "templates").rglob("*.html"))
INLINE = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", re.I)
HANDLER = re.compile(r"\son[a-z]+\s*=\s*[\"']", re.I)


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda p: p.name)
def test_no_template_carries_an_inline_script(template):
    text = template.read_text(encoding="utf-8")
    assert not INLINE.search(text), f"{template.name}: an inline <script> (CSP: script-src 'self')"
    assert not HANDLER.search(text), f"{template.name}: an on…= handler (CSP: script-src 'self')"


def test_the_check_can_fail():
    assert INLINE.search("<script>\n  document.title = 1;\n</script>")
    assert HANDLER.search('<button onclick="location.reload()">')
    assert not INLINE.search('<script type="module" src="/static/x.js"></script>')
    assert not INLINE.search('<script id="page-words" type="application/json">{}</script>')
