"""`{% card_words_script %}`: frontend.card_words (the card and term words, with the engine's
effect table) as the JSON `#card-words` that static/frontend/glossary.js, cards.js and
yourself.js read."""

from __future__ import annotations

from django import template
from django.utils.html import json_script

from frontend import card_words

register = template.Library()


@register.simple_tag
def card_words_script() -> str:
    return json_script(card_words.for_page(), "card-words")
