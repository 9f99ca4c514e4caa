"""`manage.py demo`: one game between built-in bots, told turn by turn in the terminal."""

from django.core.management.base import BaseCommand

from games.engine import HeuristicBot, RandomBot, execute, fold, new_game, new_seed
from games.engine.state import VARIANTS
from replays.transcript import transcript


class Command(BaseCommand):
    help = "Play one bot-vs-bot game and print its transcript."

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=4, choices=range(2, 7))
        parser.add_argument("--variant", default="standard", choices=VARIANTS)
        parser.add_argument("--lang", default="en", choices=("en", "cs"))

    def handle(self, *args, **opts):
        n, seed = opts["players"], new_seed()
        events = new_game(seats=n, seed=seed, variant=opts["variant"],
                          options={"bots": list(range(n))})  # fmt: skip
        state = fold(events)
        bots = [HeuristicBot() if seat % 2 == 0 else RandomBot() for seat in range(n)]
        while state.status == "active":
            seat = state.awaiting[0]
            new, state = execute(state, bots[seat].choose(state, seat), actor=seat, seed=seed)
            events += new
        for line in transcript(events, lang=opts["lang"]):
            self.stdout.write(line)
