"""`{% notification_prefs as prefs %}`: the signed-in user's mail preferences for /me/'s form;
`{% notification_kinds_script %}`: the kinds' words for the bell."""

from django import template
from django.utils.html import json_script
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games.notifications import kinds, services

register = template.Library()


@register.simple_tag(takes_context=True)
def notification_prefs(context) -> dict:
    prefs = services.prefs_get(user=context["request"].user)
    prefs["mode_choices"] = [("immediate", _("at once")), ("digest", _("once a day")),
                             ("off", _("never"))]  # fmt: skip
    return prefs


@register.simple_tag
def notification_kinds_script() -> str:
    """Each notification kind's line and link in the page's language (the one table,
    games.notifications.kinds) as the JSON `#notification-kinds` that bell.js reads."""
    return json_script(kinds.for_page(get_language()), "notification-kinds")
