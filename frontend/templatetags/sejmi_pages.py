"""Template filters of the lobby and my-games pages: names of variants, paces and durations
in the page's language."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django import template
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

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
    """20 → "20 s", 120 → "2 min", 3600 → "1 hour", 86400 → "1 day"; the largest unit that
    divides the time exactly, so no figure is rounded."""
    if not isinstance(seconds, int) or isinstance(seconds, bool):
        return ""
    if seconds and seconds % 86400 == 0:
        days = seconds // 86400
        return ngettext("%(n)d day", "%(n)d days", days) % {"n": days}
    if seconds and seconds % 3600 == 0:
        hours = seconds // 3600
        return ngettext("%(n)d hour", "%(n)d hours", hours) % {"n": hours}
    if seconds and seconds % 60 == 0:
        return _("%(n)d min") % {"n": seconds // 60}
    return _("%(n)d s") % {"n": seconds}


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
    "2 d 03:04:05", "03:04:05", or "00:00:00" once due ("d" reads as day and den alike)."""
    if deadline is None:
        return ""
    left = max(0, int((deadline - timezone.now()).total_seconds()))
    days, rest = divmod(left, 86400)
    clock = f"{rest // 3600:02d}:{rest % 3600 // 60:02d}:{rest % 60:02d}"
    return f"{days} d {clock}" if days else clock


@register.filter
def iso(moment: datetime | None) -> str:
    return moment.isoformat().replace("+00:00", "Z") if moment else ""
