"""`{% card_words_script %}`: frontend.card_words (the one source of effect and term texts) as
the JSON `#card-words` that static/frontend/glossary.js and cards.js read."""

from __future__ import annotations

from django import template
from django.utils.html import json_script

from frontend import card_words

register = template.Library()


@register.simple_tag
def card_words_script() -> str:
    return json_script(card_words.for_page(), "card-words")
