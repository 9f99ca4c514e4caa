"""`manage.py simulate`: bot-vs-bot games, for balance checks and a quick health check."""

import json
import time

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from games.engine.bots import BOTS
from games.engine.simulate import Summary, run
from games.engine.state import VARIANTS


class Command(BaseCommand):
    help = "Play N bot games; print turns, events, wins by seat and by bot, games per second."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument("--players", type=int, default=4, choices=range(2, 7))
        parser.add_argument("--variant", default="standard", choices=VARIANTS)
        parser.add_argument(
            "--seed", default="0", help="run seed: the same seed replays the same games"
        )
        parser.add_argument(
            "--bot",
            default="random",
            help="random|heuristic, or a comma list given to seats in turn (e.g. heuristic,random)",
        )
        parser.add_argument("--json", action="store_true", help="end with one JSON line")

    def handle(self, *args, **opts):
        bots = opts["bot"].split(",")
        if any(b not in BOTS for b in bots):
            raise CommandError(f"--bot takes {', '.join(BOTS)} (comma separated)")
        if opts["games"] < 1:
            raise CommandError("--games must be at least 1")
        if opts["variant"] != "standard" and opts["players"] != 4:
            raise CommandError("the pairs variants are for 4 players")
        summary = Summary()
        bar = lambda it: tqdm(it, total=opts["games"], unit="game", file=self.stderr._out)  # noqa: E731
        started = time.perf_counter()
        for result in run(
            games=opts["games"],
            players=opts["players"],
            variant=opts["variant"],
            bots=bots,
            seed=opts["seed"],
            progress=bar,
        ):
            summary.add(result)
        report = summary.as_dict(time.perf_counter() - started)
        if opts["json"]:
            self.stdout.write(json.dumps(report))
            return
        self._print(report)

    def _print(self, r: dict) -> None:
        t, e = r["turns_per_game"], r["events_per_game"]
        self.stdout.write(f"games played:      {r['games']}")
        self.stdout.write(f"turns per game:    {t['mean']} (min {t['min']}, max {t['max']})")
        self.stdout.write(f"events per game:   {e['mean']} (min {e['min']}, max {e['max']})")
        self.stdout.write(f"wins by seat:      {r['wins_by_seat']}")
        self.stdout.write(
            f"wins by bot:       {r['wins_by_bot']} (per seat held: {r['win_rate_by_bot']})"
        )
        self.stdout.write(f"games per second:  {r['games_per_second']}")
