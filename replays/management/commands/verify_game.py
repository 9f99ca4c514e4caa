"""`manage.py verify_game ID|FILE [--public-key HEX]`: check chain, signatures, seed,
projection and rules; exit 1 if bad. A file's signatures are checked by --public-key (the
service's, from GET /api/signing-key/, known beforehand), else by the key its header names."""

import sys
import time

from django.core.management.base import BaseCommand, CommandError

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
            else:
                with open(target, encoding="utf-8") as f:
                    report = verify_file(read_file(f), public_key=opts["public_key"])
        except FileNotFoundError:
            raise CommandError(f"no game and no file {target!r}") from None
        except (OSError, BadFile) as err:
            raise CommandError(str(err)) from None
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
