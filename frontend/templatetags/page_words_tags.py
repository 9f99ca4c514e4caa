"""`{% page_words_script %}`: every word of the pages' scripts (frontend/page_words.py) in the
page's language, as the JSON island `#page-words` that static/frontend/shared/i18n.js reads."""

from __future__ import annotations

from django import template
from django.utils.html import json_script

from frontend import page_words

register = template.Library()


@register.simple_tag
def page_words_script() -> str:
    return json_script(page_words.for_page(), "page-words")
