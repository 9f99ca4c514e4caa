"""Issue 32, item 9 (what to build: 8): `verify_game FILE` names the key it checked the
signatures by, and warns when no --public-key was given (a file re-signed with another key
"verified" against the key its own header names, and nothing said so)."""

from __future__ import annotations

import io
import json

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.contrib.auth import get_user_model
from django.core.management import call_command

from games.core import signing
from games.table import commands


def _bot_game() -> int:
    host = get_user_model().objects.create_user("host")
    done = commands.game_create(user=host, seats=2, options={"bots": [0, 1]})
    while done.state.status != "ended":
        done = commands.game_bot_moves(game_id=done.game_id, expected_seq=done.seq)
    return done.game_id


def _verify(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("verify_game", *args, stdout=out, stderr=err)
    except SystemExit as exit_:
        return int(exit_.code), out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


def _resign(path, key: Ed25519PrivateKey) -> None:
    """The file's signatures replaced by another key's, and that key put in its header."""
    header, *rows = path.read_text().splitlines()
    head = json.loads(header)
    head["public_key"] = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
    for s in head["signatures"]:
        s["signature"] = key.sign(signing.message(s["seq"], s["head_hash"])).hex()
    path.write_text("\n".join([json.dumps(head), *rows]) + "\n")


@pytest.mark.django_db
def test_verify_game_names_the_key_and_warns_without_one(tmp_path):
    """Mutant (before): no key named, no warning: a re-signed file printed only `verified`."""
    gid = _bot_game()
    path = tmp_path / "game.jsonl"
    call_command("export_game", gid, output=str(path))
    ours = signing.key_id(signing.public_key())
    status, out, err = _verify(str(path), "--public-key", signing.public_key())
    assert status == 0 and ours in out and "--public-key" in out
    _resign(path, Ed25519PrivateKey.generate())
    status, out, err = _verify(str(path))
    assert status == 0  # its own key does verify it: that is why the key is named
    theirs = signing.key_id(json.loads(path.read_text().splitlines()[0])["public_key"])
    assert theirs in out and "file's own header" in out
    assert "WARNING" in err and "--public-key" in err
    status, out, err = _verify(str(path), "--public-key", signing.public_key())
    assert status == 1 and "signature" in out


@pytest.mark.django_db
def test_verify_game_of_a_stored_game_names_the_services_key():
    gid = _bot_game()
    status, out, _ = _verify(str(gid))
    assert status == 0 and signing.key_id(signing.public_key()) in out
