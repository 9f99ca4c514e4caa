"""`manage.py grant_service_role`: the role the service connects as may read and append game
events and dispute notes, and read and write every other table, nothing more.

Run it as the tables' owner (the "owner" database, MIGRATE_DATABASE_URL) after every
`migrate --database owner`: grants cover the tables that exist when it runs. The role is the
user of DATABASE_URL (created with its password if missing) unless --role names another.
What the role cannot do is the point: UPDATE, DELETE or TRUNCATE an append-only table, or
switch its triggers off (only a table's owner may ALTER it).
"""

from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connections, transaction

from games.append_only import APPEND_ONLY

READ_ONLY = ("django_migrations",)  # the owner records migrations; the service only reads


def grants(role: str) -> list[str]:
    """The statements that give `role` (a quoted name) exactly its rights, from none."""
    return [
        f"GRANT USAGE ON SCHEMA public TO {role}",
        f"REVOKE ALL ON ALL TABLES IN SCHEMA public FROM {role}",
        f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {role}",
        *(f"REVOKE INSERT, UPDATE, DELETE ON {table} FROM {role}" for table in READ_ONLY),
        *(f"REVOKE UPDATE, DELETE ON {table} FROM {role}" for table in APPEND_ONLY),
        f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {role}",
    ]


class Command(BaseCommand):
    help = "Create the service's database role and grant it read + append on game events."

    def add_arguments(self, parser):
        parser.add_argument("--database", default="owner", help="the owner's connection")
        parser.add_argument("--role", help="default: the user of DATABASE_URL")
        parser.add_argument("--password", help="default: the password of DATABASE_URL")

    def handle(self, *args, database: str, role: str | None, password: str | None, **opts):
        service = settings.DATABASES["default"]
        role = role or service.get("USER")
        password = password if password is not None else (service.get("PASSWORD") or None)
        connection = connections[database]
        if connection.vendor != "postgresql":
            self.stdout.write(f"{connection.vendor}: no roles to grant")
            return
        if not role:
            raise CommandError("no role: set DATABASE_URL's user or pass --role")
        with transaction.atomic(using=database), connection.cursor() as cursor:
            cursor.execute("SELECT current_user")
            if cursor.fetchone()[0] == role:
                self.stdout.write(f"the service connects as the owner {role}: nothing to grant")
                return
            quoted = connection.ops.quote_name(role)
            cursor.execute(f"DO $$ BEGIN CREATE ROLE {quoted} LOGIN; "
                           "EXCEPTION WHEN duplicate_object THEN NULL; END $$")  # fmt: skip
            if password:
                cursor.execute(f"ALTER ROLE {quoted} LOGIN PASSWORD %s", [password])
            for statement in grants(quoted):
                cursor.execute(statement)
        self.stdout.write(f"{role}: SELECT, INSERT on {', '.join(APPEND_ONLY)}; "
                          "read and write on the other tables")  # fmt: skip
