"""Times as every page words them, one format per language (static/frontend/times.js is the
same rule for the pages' scripts; mails use this module):

- a duration (a pace, a countdown, the time left): its two largest units, each whole, units
  as SI symbols, read alike in English and Czech: "45 s", "59 min 55 s", "1 h 5 min", "1 h",
  "2 d 3 h". A countdown floors, so it never promises time that is not there.
- a moment: "1 Dec 2026, 18:05" in English, "1. 12. 2026 18:05" in Czech (Intl's medium date
  and short time for en-GB and cs, which times.js uses): day before month, a 24-hour clock,
  never the ambiguous "01/12/2026". The server writes UTC; times.js rewrites every
  `<time data-when>` in the reader's own time zone.
"""

from __future__ import annotations

from datetime import UTC, datetime

from django.utils import timezone, translation
from django.utils.dateformat import format as date_format

UNITS = {  # day, hour, minute, second
    "en": ("d", "h", "min", "s"),
    "cs": ("d", "h", "min", "s"),
}
MOMENT = {"en": "j M Y, H:i", "cs": "j. n. Y G:i"}  # Django's date() format characters
STEPS = (86400, 3600, 60, 1)


def lang_of(language: str | None) -> str:
    return "cs" if (language or "").lower().startswith("cs") else "en"


def duration(seconds: int, language: str | None = "en") -> str:
    """3595 → "59 min 55 s"; 3900 → "1 h 5 min"; 183600 → "2 d 3 h"; 0 → "0 s"."""
    units = UNITS[lang_of(language)]
    left, parts = max(0, int(seconds)), list[tuple[int, str]]()
    for step, unit in zip(STEPS, units, strict=True):
        amount, left = divmod(left, step)
        if amount or parts:  # from the largest unit present on
            parts.append((amount, unit))
    if not parts:
        return f"0 {units[-1]}"
    first, *rest = parts[:2]  # "1 h", not "1 h 0 min"
    return " ".join(f"{n} {unit}" for n, unit in [first, *(p for p in rest if p[0])])


def time_left(deadline: datetime, language: str | None = "en") -> str:
    """duration() from now until `deadline` (0 s once due)."""
    return duration(int((deadline - timezone.now()).total_seconds()), language)


def moment(value: datetime, language: str | None = "en") -> str:
    """1 Dec 2026 18:05 UTC → "1 Dec 2026, 18:05" / "1. 12. 2026 18:05" (in UTC)."""
    lang = lang_of(language)
    utc = value.astimezone(UTC) if timezone.is_aware(value) else value
    with translation.override(lang):  # the month's abbreviation in that language
        return date_format(utc, MOMENT[lang])
