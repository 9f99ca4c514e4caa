"""`manage.py import_game FILE`: load a finished game from another installation, verified."""

from django.core.management.base import BaseCommand, CommandError

from replays.exports import BadFile, import_file, read_file


class Command(BaseCommand):
    help = "Import a game file; refuses one whose chain, seed or rules do not verify."
    requires_system_checks: list[str] = []  # a record check needs no URLconf or admin

    def add_arguments(self, parser):
        parser.add_argument("file")

    def handle(self, *args, **opts):
        try:
            with open(opts["file"], encoding="utf-8") as f:
                game_file = read_file(f)
            game_id = import_file(game_file)
        except (OSError, BadFile, ValueError) as err:
            raise CommandError(str(err)) from None
        self.stdout.write(f"imported as game {game_id}")
