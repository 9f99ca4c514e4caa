"""Django's createsuperuser, with the new user's folded name written in the same transaction
(no signal, STYLE.md: games.accounts.services.account_named, as `user_create` does) and the
reserved names and look-alikes of taken ones refused, as the API and the sign-up page refuse
them. It takes the place of django.contrib.auth's command because `games` is listed before it
in INSTALLED_APPS (tests/accounts/test_account_names.py)."""

from __future__ import annotations

from django.contrib.auth.management.commands import createsuperuser
from django.core.management.base import CommandError
from django.db import IntegrityError, transaction
from django.db.models import Max

from games.accounts.services import account_named, name_taken


class Command(createsuperuser.Command):
    def _validate_username(self, username, verbose_field_name, database):
        why = name_taken(username) if username else None
        if why is not None:
            return f"Error: {why}."
        return super()._validate_username(username, verbose_field_name, database)

    def handle(self, *args, **options):
        users = self.UserModel._default_manager.db_manager(options["database"])
        try:
            with transaction.atomic(using=options["database"]):
                before = users.aggregate(last=Max("pk"))["last"] or 0
                super().handle(*args, **options)
                for user in users.filter(pk__gt=before):  # the one Django's command made
                    why = name_taken(user.username)
                    if why is not None:
                        raise CommandError(f"{user.username}: {why}")
                    account_named(user)
        except IntegrityError as err:
            raise CommandError(f"that username is taken: {err}") from None
