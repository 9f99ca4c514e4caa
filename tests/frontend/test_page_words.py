"""Issue 29.7: one way to translate the pages' scripts' words.

Every word a script shows is in frontend/page_words.py, translated in the site's catalog
(frontend/locale/cs/LC_MESSAGES/django.po, msgctxt = the script's key), and reaches the page as the
JSON island #page-words that shared/i18n.js alone reads. These tests fail when a script carries a
word table of its own, says a Czech word of its own, asks for a key the catalog lacks, or when a
word of the catalog has no Czech.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.utils import translation

from frontend import page_words

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "frontend" / "static" / "frontend"
PO = ROOT / "frontend" / "locale" / "cs" / "LC_MESSAGES" / "django.po"
SCRIPTS = sorted(p for p in STATIC.rglob("*.js") if p.name != "sw.js")
# A word table: `WORDS = {`, `addWords(`, or an object keyed by language (`en: {`, `cs: {`).
TABLE = re.compile(r"\b(?:WORDS\s*=\s*\{|addWords\s*\(|(?:en|cs)\s*:\s*\{)")
CZECH = re.compile(r"[ěščřžýáíéůúťďňĚŠČŘŽÝÁÍÉŮÚŤĎŇ]")
# t("key"), count("key", …), tNodes("key", …), has("key"), and a module's own prefix (say("chat_"…).
ASKED = re.compile(r'\b(?:t|tNodes|count|has)\(\s*"(\w+)"')
PREFIX = re.compile(r'say\("(\w+_)" \+ key')


def code_of(text: str) -> str:
    """The script without its comments (a comment may quote a Czech word)."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"(^|\s)//.*$", r"\1", text, flags=re.M)


def po_entries() -> dict[tuple[str, str], tuple[str, bool]]:
    """(msgctxt, msgid) → (msgstr, fuzzy) of the Czech catalog (single-line and wrapped)."""
    entries: dict[tuple[str, str], tuple[str, bool]] = {}
    for block in PO.read_text(encoding="utf-8").split("\n\n"):
        fields: dict[str, str] = {}
        current = None
        for line in block.splitlines():
            match = re.match(r'^(msgctxt|msgid|msgstr) (".*")$', line)
            if match:
                current = match.group(1)
                fields[current] = json.loads(match.group(2))
            elif line.startswith('"') and current:
                fields[current] += json.loads(line)
        if "msgid" in fields:
            key = (fields.get("msgctxt", ""), fields["msgid"])
            entries[key] = (fields.get("msgstr", ""), "#, fuzzy" in block)
    return entries


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: str(p.relative_to(STATIC)))
def test_no_script_keeps_words_of_its_own(script):
    text = code_of(script.read_text(encoding="utf-8"))
    assert not TABLE.search(text), f"{script.name} carries a word table: use the catalog"
    assert not CZECH.search(text), f"{script.name} says Czech words of its own: use the catalog"


def test_every_word_asked_for_is_in_the_catalog():
    asked = set()
    for script in SCRIPTS:
        text = script.read_text(encoding="utf-8")
        prefix = PREFIX.search(text)  # a module whose t() says the catalog's "<prefix>key"
        asked |= {(prefix.group(1) if prefix else "") + k for k in ASKED.findall(text)}
    plural = {k.rsplit("_", 1)[0] for k in page_words.WORDS if k.endswith("_many")}
    missing = {k for k in asked if k not in page_words.WORDS and k not in plural}
    assert not missing


def test_every_word_has_its_czech_translation():
    entries = po_entries()
    with translation.override("en"):
        english = {key: str(word) for key, word in page_words.WORDS.items()}
    lacking = []
    for key, text in english.items():
        czech, fuzzy = entries.get((key, text), ("", False))
        if not czech or fuzzy:
            lacking.append(key)
    assert not lacking, f"no Czech in django.po for {lacking}"
    with translation.override("cs"):
        assert page_words.for_page()["pass"] != english["pass"]  # the compiled .mo is current


def test_a_word_without_czech_fails_the_check(tmp_path, monkeypatch):
    """The check above can fail: a word the catalog lacks is named."""
    monkeypatch.setitem(page_words.WORDS, "not_in_the_catalog", "Not in the catalog")
    with pytest.raises(AssertionError, match="not_in_the_catalog"):
        test_every_word_has_its_czech_translation()


def test_a_script_with_its_own_table_fails_the_check(tmp_path):
    script = tmp_path / "rogue.js"
    script.write_text('const WORDS = { en: { hi: "Hi" }, cs: { hi: "Ahoj" } };\n')
    with pytest.raises(AssertionError, match="word table"):
        test_no_script_keeps_words_of_its_own(script)


def test_the_page_carries_the_words_in_its_language_only(client):
    page = client.get("/rules/", HTTP_ACCEPT_LANGUAGE="cs").content.decode()
    island = re.search(r'<script id="page-words" type="application/json">(.*?)</script>', page)
    assert island
    words = json.loads(island.group(1))
    assert words["pass"] != "Pass"  # Czech
    assert set(words) == set(page_words.WORDS)
