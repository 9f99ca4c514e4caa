"""`manage.py verify_game ID|FILE [--public-key HEX]`: check chain, signatures, seed,
projection and rules; exit 1 if bad. A file's signatures are checked by --public-key (the
service's, from GET /api/signing-key/, known beforehand), else by the key its header names:
the key checked is always named, and without --public-key a warning says that a file re-signed
with another key verifies against that key too (issue 32)."""

import sys
import time

from django.core.management.base import BaseCommand, CommandError

from games.core import signing
from games.core.models import Game
from replays.exports import BadFile, read_file, verify_file
from replays.verification import verify_game


class Command(BaseCommand):
    help = "Verify a stored game (by id) or a game file: the first failing seq and why."
    requires_system_checks: list[str] = []  # a record check needs no URLconf or admin

    def add_arguments(self, parser):
        parser.add_argument("target", help="a game id, or the path of an exported file")
        parser.add_argument("--public-key", help="a file's signer's public key (hex)")

    def handle(self, *args, **opts):
        target, started = opts["target"], time.perf_counter()
        try:
            if target.isdigit() and Game.objects.filter(pk=int(target)).exists():
                report = verify_game(int(target))
                key, source = signing.public_key(), "this service's own key"
            else:
                with open(target, encoding="utf-8") as f:
                    game_file = read_file(f)
                report = verify_file(game_file, public_key=opts["public_key"])
                key, source = opts["public_key"], "--public-key"
                if not key:
                    key, source = game_file.header.get("public_key"), "the file's own header"
                    self.stderr.write(
                        "WARNING: no --public-key given: the signatures were checked by the key "
                        "the file's own header names, so a file re-signed with another key "
                        "verifies too. Pass --public-key (the service's: GET /api/signing-key/)."
                    )
        except FileNotFoundError:
            raise CommandError(f"no game and no file {target!r}") from None
        except (OSError, BadFile) as err:
            raise CommandError(str(err)) from None
        named = signing.key_id(key) if isinstance(key, str) and _hex32(key) else "none"
        self.stdout.write(f"key {named} ({key or 'no key'}), from {source}")
        for check in report.checks:
            mark = "ok " if check.ok else "BAD"
            where = f" at seq {check.first_bad_seq}" if check.first_bad_seq else ""
            self.stdout.write(
                f"{mark} {check.name}{where}{': ' + check.reason if check.reason else ''}"
            )
        self.stdout.write(
            f"{'verified' if report.ok else 'FAILED'} in {time.perf_counter() - started:.3f} s"
        )
        if not report.ok:
            sys.exit(1)


def _hex32(text: str) -> bool:
    try:
        return len(bytes.fromhex(text)) == 32
    except ValueError:
        return False
