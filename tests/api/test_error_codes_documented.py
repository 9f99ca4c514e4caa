"""Issue 32: the codes the service answers with beyond ../shared/API.md's list (which we may not
edit) are where a client finds them: the OpenAPI schema's error body enumerates every `Code`
(`game_tampered` 409 and `too_many` 429 among them), docs/CHOICES.md names each with its status,
and docs/LIVE_STREAM.md names every close code the socket uses.

Before: the schema's error code was free text ("not_your_turn, illegal_move, stale_seq, ..."),
CHOICES.md had neither `game_tampered` nor `too_many`, and 4429 stood in LIVE_STREAM.md's prose
only, beside no list of close codes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from rest_framework.test import APIClient

from games.engine.errors import Code
from games.live import guard

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.mark.django_db
def test_the_schemas_error_body_enumerates_every_code():
    schema = yaml.safe_load(APIClient().get("/api/schema/").content)
    detail = schema["components"]["schemas"]["ErrorDetail"]["properties"]["code"]
    ref = detail.get("$ref") or detail.get("allOf", [{}])[0].get("$ref", "")
    enum = detail.get("enum") or schema["components"]["schemas"][ref.rsplit("/", 1)[-1]]["enum"]
    assert set(enum) == {code.value for code in Code}
    assert {"game_tampered", "too_many"} <= set(enum)


def test_choices_md_names_every_code_with_its_status():
    text = (DOCS / "CHOICES.md").read_text()
    codes = text.split("- **Status codes**", 1)[1].split("\n- ", 1)[0]
    for code in Code:
        found = re.search(rf"`{code.value}`[^;.]*?\b{code.status}\b", codes, re.S)
        assert found, f"{code.value} ({code.status}) is not in CHOICES.md's status codes"


def test_live_stream_md_lists_every_close_code():
    text = (DOCS / "LIVE_STREAM.md").read_text()
    table = text.split("| close code |", 1)
    assert len(table) == 2, "no table of close codes in LIVE_STREAM.md"
    rows = table[1].split("\n\n", 1)[0]
    for close in (4404, 1013, guard.TOO_MANY):
        assert f"| {close} |" in rows, close
    assert "game_tampered" in text
