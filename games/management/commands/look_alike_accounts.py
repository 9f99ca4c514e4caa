"""List the accounts whose names are look-alikes (games.accounts.names: NFKC and case folding)
of each other or of a reserved name: made before issue 32, when registration compared names as
typed. Nothing is changed: staff decide (rename, deactivate) case by case."""

from __future__ import annotations

from collections import defaultdict

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from games.accounts.names import IMPORTER, folded, reserved


class Command(BaseCommand):
    help = "List accounts whose folded names collide with another's or with a reserved name."

    def handle(self, *args, **options) -> None:
        groups: dict[str, list[tuple[int, str, bool]]] = defaultdict(list)
        users = get_user_model().objects.order_by("pk")
        for pk, name, active in users.values_list("pk", "username", "is_active"):
            groups[folded(name)].append((pk, name, active))
        found = 0
        for key, members in sorted(groups.items()):
            service_own = key == IMPORTER and members[0][1] == IMPORTER and not members[0][2]
            shown = members[1:] if service_own else members  # import_file's own account
            if reserved(key) and shown:
                found += len(shown)
                for pk, name, _ in shown:
                    self.stdout.write(f"reserved\t{key}\tid {pk}\t{name!r}")
            elif len(members) > 1:
                found += len(members)
                for pk, name, _ in members:
                    self.stdout.write(f"look-alike\t{key}\tid {pk}\t{name!r}")
        self.stdout.write(f"{found} account(s) to review")
