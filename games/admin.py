"""What the admin shows of games/: the users, through the accounts' own admin (their folded
names written with them)."""

import django.contrib.auth.admin  # noqa: F401  registers Django's UserAdmin first (games is listed before auth)
from django.contrib import admin
from django.contrib.auth import get_user_model

from games.accounts.admin import AccountAdmin

users = get_user_model()
if admin.site.is_registered(users):
    admin.site.unregister(users)
admin.site.register(users, AccountAdmin)
