"""`{% notification_prefs as prefs %}`: the signed-in user's mail preferences for /me/'s form."""

from django import template
from django.utils.translation import gettext as _

from games.notifications import services

register = template.Library()


@register.simple_tag(takes_context=True)
def notification_prefs(context) -> dict:
    prefs = services.prefs_get(user=context["request"].user)
    prefs["mode_choices"] = [("immediate", _("at once")), ("digest", _("once a day")),
                             ("off", _("never"))]  # fmt: skip
    return prefs
