"""The mails, in the user's language (cs/en; each kind's words: the table in `kinds`), each with
a link to the game and an unsubscribe link: a signed token that sets email_mode to off without
a login (frontend: `/unsubscribe/<token>/`)."""

from __future__ import annotations

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMessage
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.notifications import kinds
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
    """One sentence for a notification, in the active language (the kinds table's `mail`)."""
    return kinds.mail_sentence(row, translation.get_language())


def link(row: Notification) -> str:
    """Where a notification's mail sends the reader (the kinds table's link)."""
    return _url(kinds.path(row))


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
        opener = f"{kinds.action(row, language)}: {link(row)}"
        return _message(to=to, user_id=row.user_id, language=language,
                        subject=kinds.subject(row, language), lines=[text, "", opener])  # fmt: skip


def digest(rows: list[Notification], *, user_id: int, to: str, language: str) -> EmailMessage:
    with translation.override(language):
        subject = ngettext(
            "Sejmi je: %(n)d notification today", "Sejmi je: %(n)d notifications today", len(rows)
        ) % {"n": len(rows)}
        lines = [f"- {line(r)} {link(r)}" for r in rows]
        return _message(to=to, user_id=user_id, language=language, subject=subject, lines=lines)
