"""The admin's users: Django's UserAdmin, whose forms refuse reserved names and look-alikes of
taken ones and whose saves write the account's folded name in the same transaction (no
signal, STYLE.md: games.accounts.services). Registered by games/admin.py."""

from __future__ import annotations

from django import forms
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.db import transaction

from games.accounts.names import folded
from games.accounts.services import account_named, account_renamed, name_taken


def _checked(username: str, before: str | None = None) -> str:
    if username and (before is None or folded(username) != folded(before)):
        why = name_taken(username)
        if why is not None:
            raise forms.ValidationError(why, code="unique")
    return username


class AccountCreationForm(AdminUserCreationForm):
    def clean_username(self) -> str:
        return _checked(super().clean_username())


class AccountChangeForm(UserChangeForm):
    def clean_username(self) -> str:
        return _checked(self.cleaned_data["username"], self.initial.get("username"))


class AccountAdmin(UserAdmin):
    add_form = AccountCreationForm
    form = AccountChangeForm

    def save_model(self, request, obj, form, change) -> None:
        with transaction.atomic():
            super().save_model(request, obj, form, change)
            (account_renamed if change else account_named)(obj)
