"""Template filters of the pages: names of variants and paces, durations and moments in the
page's language (frontend.time_words)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django import template
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from frontend import time_words
from frontend.forms import VARIANT_NAMES

register = template.Library()

# The lobby's create form offers these two paces (block window s, turn deadline s); any other
# pair of options is a custom pace. Kept in step with static/frontend/lobby.js.
PACES = {"live": (20, 120), "correspondence": (3600, 86400)}


@register.filter
def variant_name(variant: str) -> str:
    return str(VARIANT_NAMES.get(variant, variant))


@register.filter
def duration(seconds: Any) -> str:
    """20 → "20 s", 3595 → "59 min 55 s", 86400 → "1 d": frontend.time_words, in the page's
    language (static/frontend/times.js words it the same)."""
    if not isinstance(seconds, int) or isinstance(seconds, bool):
        return ""
    return time_words.duration(seconds, get_language())


@register.filter
def pace_name(options: dict[str, Any]) -> str:
    times = (options.get("block_window_s"), options.get("turn_deadline_s"))
    if times == PACES["live"]:
        return _("Live")
    if times == PACES["correspondence"]:
        return _("Correspondence")
    return _("Custom pace")


@register.filter
def time_left(deadline: datetime | None) -> str:
    """The countdown's first text, as static/frontend/me.js then writes it every second:
    "2 d 3 h", "59 min 55 s", "0 s" once due."""
    return time_words.time_left(deadline, get_language()) if deadline else ""


@register.filter
def when(moment: datetime | None) -> str:
    """A moment in the page's language: "1 Dec 2026, 18:05" / "1. 12. 2026 18:05" (UTC; put
    it in `<time datetime=… data-when>` and times.js shows it in the reader's time zone)."""
    return time_words.moment(moment, get_language()) if moment else ""


@register.filter
def iso(moment: datetime | None) -> str:
    return moment.isoformat().replace("+00:00", "Z") if moment else ""
