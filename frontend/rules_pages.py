"""The rules page (`/rules/`, API.md "More pages"): the whole game for a person who has never
played. The prose is a template per language (templates/frontend/rules_en.html, rules_cs.html);
the effects, the terms and the whole standard deck are drawn from frontend.card_words and the
engine's deck, so the page cannot drift from what the table shows."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from frontend import card_words
from games.engine import load_deck


def rules(request: HttpRequest) -> HttpResponse:
    lang = card_words.page_language()
    deck = load_deck("standard")
    context = {
        "cards": card_words.deck_faces(deck, lang),
        "effects": card_words.effect_list(lang),
        "terms": card_words.term_list(lang),
        "card_count": len(deck.cards),
    }
    return render(request, f"frontend/rules_{lang}.html", context)
