"""The accounts' own table: each user's name as compared (games.accounts.names.folded), unique,
so no two accounts are look-alikes of each other whatever path made them (the API, the sign-up
page, the admin, createsuperuser)."""

from django.conf import settings
from django.db import models


class AccountName(models.Model):
    """A user's folded name; written with the user (games.accounts.services.user_create)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                primary_key=True, related_name="+")  # fmt: skip
    folded = models.CharField(max_length=200, unique=True)
