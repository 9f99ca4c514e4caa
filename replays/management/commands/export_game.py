"""`manage.py export_game ID [-o FILE]`: write a game as a self-contained JSON Lines file."""

import sys

from django.core.management.base import BaseCommand, CommandError

from games.core.models import Game
from replays.exports import export_lines


class Command(BaseCommand):
    help = "Export a game (header + every event with its hash) as JSON Lines."
    requires_system_checks: list[str] = []  # a record check needs no URLconf or admin

    def add_arguments(self, parser):
        parser.add_argument("game_id", type=int)
        parser.add_argument("-o", "--output", help="file to write (default: standard output)")

    def handle(self, *args, **opts):
        if not Game.objects.filter(pk=opts["game_id"]).exists():
            raise CommandError(f"no game {opts['game_id']}")
        out = open(opts["output"], "w", encoding="utf-8") if opts["output"] else sys.stdout
        try:
            for line in export_lines(opts["game_id"]):
                out.write(line + "\n")
        finally:
            if out is not sys.stdout:
                out.close()
