"""`{% module_preloads "frontend/pages/table.js" %}`: a `<link rel="modulepreload">` for every
module the page's script imports, read from the static files themselves (so the list cannot drift).
Without it a cold page fetches its ES modules level by level, each only once its importer has
arrived: issue 18's new modules made the table's first render ~120 ms slower (bench.web)."""

from __future__ import annotations

import re
from functools import lru_cache
from posixpath import dirname, join, normpath

from django import template
from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.utils.html import format_html_join

register = template.Library()

# Static imports only (`import … from "./x.js"`, `import "../shared/x.js"`): a dynamic import()
# loads when it is asked for.
IMPORT = re.compile(r'^\s*import\b(?:[^;"]*?\bfrom)?\s*"(\.\.?/[\w./-]+\.js)"', re.M)


@lru_cache(maxsize=32)
def imported_by(entry: str) -> tuple[str, ...]:
    """Every static module `entry` imports, directly or not, in the order first met."""
    found: list[str] = []
    todo = [entry]
    while todo:
        path = todo.pop(0)
        file = finders.find(path)
        if file is None:
            continue
        with open(file, encoding="utf-8") as source:
            text = source.read()
        for relative in IMPORT.findall(text):
            module = normpath(join(dirname(path), relative))
            if module not in found and module != entry:
                found.append(module)
                todo.append(module)
    return tuple(found)


@register.simple_tag
def module_preloads(*entries: str) -> str:
    """The modules the page's entries import, each once (not the entries themselves)."""
    modules = dict.fromkeys(m for e in entries for m in imported_by(e) if m not in entries)
    return format_html_join("\n", '<link rel="modulepreload" href="{}">',
                            ((static(m),) for m in modules))  # fmt: skip
