"""The Czech register of every page (issue 18): the rule sheet speaks "ty", so do the pages,
their scripts and the mails. `vy_forms(text)` finds what would break it; the page tests
(tests/frontend/test_consistency.py) and the browser tests (test_browser_consistency.py) fail
on any."""

from __future__ import annotations

import re

# Forms of the "vy" register (2nd person plural: verbs, pronouns, imperatives) that must not
# appear on a Czech page: the rule sheet speaks "ty", and so does every page (issue 18, item 7).
VY_WORDS = (
    "jste nejste jste-li máte nemáte můžete nemůžete chcete nechcete budete sedíte nesedíte "
    "dostanete nedostanete zapnete vaše váš vaši vašim vašich vaší vašeho vašemu vašem vám vás "
    "vámi přisedněte zadejte opravte zkontrolujte zkuste přihlaste založte vyberte zvolte "
    "najděte sledujte přehrajte zaregistrujte klikněte použijte vyplňte pište uveďte vyřešte "
    "zamítněte ukončete potvrďte zadali zapomněli"
).split()
VY = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, VY_WORDS)) + r")(?![\w-])", re.I)


def vy_forms(text: str) -> list[str]:
    """The vy-register words in `text`, each with a little context."""
    return [text[max(0, m.start() - 30) : m.end() + 30] for m in VY.finditer(text)]
