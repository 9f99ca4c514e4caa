"""How user names are compared (API.md, Conventions): after NFKC and case folding, so "ｂｏｔ",
"BOT" and "bot" are one name, as are "STRASSE" and "straße". Reserved names — the built-in
bot's, the importer's, and the words a reader takes for the service itself — cannot be taken by
any spelling. Pure functions: registration (games.accounts.services), the sign-up page and the
`look_alike_accounts` command ask the same questions here."""

from __future__ import annotations

import unicodedata

from games.engine.setup import BOT_NAME

IMPORTER = "importer"  # owns imported games (replays.exports); their players are not rated here

# Folded. The bot's and the importer's names are the service's own; the others would pass for
# the service's voice in a chat, a dispute or a notification.
RESERVED = frozenset({
    BOT_NAME, IMPORTER, "admin", "administrator", "staff", "system", "root", "sejmi",
    "moderator", "support", "service", "server", "anonymous", "spectator", "nobody", "null",
})  # fmt: skip


def folded(name: str) -> str:
    """The name as compared: NFKC, then case-folded (then NFKC again: folding can undo it)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def reserved(name: str) -> bool:
    return folded(name) in RESERVED
