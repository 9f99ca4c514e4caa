"""Account forms and the finished-games filter. Django's own messages come translated from
Django's catalogs; ours are in frontend/locale."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from games.accounts.names import folded, reserved
from games.accounts.services import name_taken, user_create
from games.engine.setup import BOT_NAME
from games.engine.state import PAIRS, PAIRS_EXTREME, STANDARD

VARIANT_NAMES = {
    STANDARD: _("Standard"),
    PAIRS: _("Pairs"),
    PAIRS_EXTREME: _("Pairs extreme"),
}

# Django 5.2 reworded the password-length error ("%d" instead of "%(min_length)d") and its Czech
# catalog still has only the old wording: our catalog carries the new one, so a Czech sign-up
# never shows that one error in English. Never evaluated here, only read by makemessages.
DJANGO_CATALOG_GAPS = [
    ngettext_lazy(
        "This password is too short. It must contain at least %d character.",
        "This password is too short. It must contain at least %d characters.",
        "min_length",
    ),
]

# Django's Czech catalog speaks "vy"; our pages speak "ty", as the rule sheet does.
# Our catalog carries these messages of the login and sign-up forms in the "ty" register, and
# is read before Django's. Never evaluated here either.
DJANGO_IN_TY = [
    _("Please enter a correct %(username)s and password. Note that both fields may be "
      "case-sensitive."),
    _("Your password can’t be too similar to your other personal information."),
    _("Your password can’t be a commonly used password."),
    _("Your password can’t be entirely numeric."),
    _("Enter the same password as before, for verification."),
]  # fmt: skip


class SignupForm(UserCreationForm):
    """Django's sign-up form (username, password1, password2, the password validators), minus
    the reserved names and the look-alikes of taken ones, in any spelling (NFKC, case folding:
    games.accounts.names), as the API refuses them."""

    def clean_username(self) -> str:
        username = super().clean_username()
        if username and folded(username) == BOT_NAME:
            raise forms.ValidationError(
                _("That name is reserved for the built-in bot."), code="reserved"
            )
        if username and reserved(username):
            raise forms.ValidationError(_("That name is reserved."), code="reserved")
        if username and name_taken(username) is not None:  # a look-alike of a taken name
            raise forms.ValidationError(
                self.instance.unique_error_message(self._meta.model, ["username"]), code="unique"
            )
        return username

    def save(self, commit: bool = True):
        """The account through games.accounts.services.user_create (his folded name with him)."""
        return user_create(username=self.cleaned_data["username"],
                           password=self.cleaned_data["password1"])  # fmt: skip


class LoginForm(AuthenticationForm):
    """Django's login form (username, password); named here so the pages import one module."""


class FinishedFilterForm(forms.Form):
    """The lobby's filter of finished games (GET): by a seated player and by variant."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)

    player = forms.CharField(label=_("Player"), required=False, max_length=150)
    variant = forms.ChoiceField(
        label=_("Variant"),
        required=False,
        choices=[("", _("Any variant")), *VARIANT_NAMES.items()],
    )
