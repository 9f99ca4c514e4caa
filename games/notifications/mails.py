"""The mails' text, in the user's language (cs/en), each with a link to the game and an
unsubscribe link: a signed token that sets email_mode to off without a login
(frontend: `/unsubscribe/<token>/`)."""

from __future__ import annotations

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMessage
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.notifications.models import Notification

SALT = "sejmi.notifications.unsubscribe"


def unsubscribe_token(user_id: int) -> str:
    return signing.dumps({"u": user_id}, salt=SALT)


def user_of_token(token: str) -> int | None:
    """The user an unsubscribe token was made for; None for a forged or mangled one."""
    try:
        return int(signing.loads(token, salt=SALT)["u"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        return None


def _url(path: str) -> str:
    return settings.SEJMI_BASE_URL.rstrip("/") + path


def line(row: Notification) -> str:
    """One sentence for a notification, in the active language."""
    texts = {
        "your_turn": _("It is your turn in game %(game)s."),
        "block_window": _("A block window is open for you in game %(game)s."),
        "deadline_soon": _("Only a fifth of your time is left in game %(game)s."),
        "eliminated": _("You were eliminated in game %(game)s."),
        "game_over": _("Game %(game)s is over."),
        "dispute_decided": _("Staff have decided your dispute about game %(game)s."),
        "tournament_round": _("Your tournament table is ready: game %(game)s."),
        "tournament_ended": _("A tournament you played in has ended (your last game: %(game)s)."),
        "tournament_withdrawn": _("You were withdrawn from a tournament: the bot played all of "
                                  "game %(game)s for you."),  # fmt: skip
    }
    return texts[row.kind] % {"game": row.game_id}


def link(row: Notification) -> str:
    """Where a notification's mail sends the reader: the game, or for a decided dispute the
    player's disputes page (which shows the resolution)."""
    return _url("/disputes/" if row.kind == "dispute_decided" else f"/games/{row.game_id}/")


def _message(
    *, to: str, user_id: int, language: str, subject: str, lines: list[str]
) -> EmailMessage:
    unsubscribe = _url(f"/unsubscribe/{unsubscribe_token(user_id)}/")
    body = (
        "\n".join(lines)
        + "\n\n-- \n"
        + _("No more mails from Sejmi je: %(url)s") % {"url": unsubscribe}
    )
    headers = {"List-Unsubscribe": f"<{unsubscribe}>",
               "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
               "Content-Language": language}  # fmt: skip
    return EmailMessage(subject=subject, body=body, to=[to], headers=headers)


def immediate(row: Notification, *, to: str, language: str) -> EmailMessage:
    with translation.override(language):
        text = line(row)
        if row.kind == "dispute_decided":
            opener = _("Read the decision: %(url)s") % {"url": link(row)}
        else:
            opener = _("Open the game: %(url)s") % {"url": link(row)}
        return _message(to=to, user_id=row.user_id, language=language,
                        subject=f"Sejmi je: {text}", lines=[text, "", opener])  # fmt: skip


def digest(rows: list[Notification], *, user_id: int, to: str, language: str) -> EmailMessage:
    with translation.override(language):
        subject = ngettext(
            "Sejmi je: %(n)d notification today", "Sejmi je: %(n)d notifications today", len(rows)
        ) % {"n": len(rows)}
        lines = [f"- {line(r)} {link(r)}" for r in rows]
        return _message(to=to, user_id=user_id, language=language, subject=subject, lines=lines)
