"""`manage.py run_deadlines`: the deadline runner of production. Looks every 0.2 s and applies
overdue deadlines and bot moves (games.clock.runner.run), and the reminders when due, from
PostgreSQL alone, so a deadline holds whatever Celery's broker does (a Redis restart once left
the worker consuming nothing: deadlines up to 95 s late, docs/RELIABILITY.md). Celery stays:
its ETA task is the fast path, beat a second sweeper. Several runners may run at once (one per
host, say): a deadline is applied once.

It is also the follower process (games.core.followers, SEJMI_FOLLOW "queue"): a thread beside the
loop catches up the games the web processes woke (a Redis list), and sweeps what a lost wake-up
left, so the notifications', ratings' and tournaments' work is done here, not in the web.
`--no-followers` leaves that to another process (`--only-followers` is that process)."""

import signal
import threading

from django.conf import settings
from django.core.management.base import BaseCommand

from games.clock import runner
from games.core import followers
from games.notifications import runner as notifications_runner


class Command(BaseCommand):
    help = "Apply overdue deadlines (R21) and bot moves, sweeping PostgreSQL every --interval s."

    def add_arguments(self, parser):
        parser.add_argument("--interval", type=float, default=0.2, help="seconds between sweeps")
        parser.add_argument("--no-followers", action="store_true",
                            help="do not run the followers' thread here")  # fmt: skip
        parser.add_argument("--only-followers", action="store_true",
                            help="run the followers alone, no deadlines")  # fmt: skip

    def handle(self, *args, **opts):
        # This process sweeps again within --interval: what it commits needs no Celery task,
        # and sending one would make it wait on the broker it exists to do without.
        settings.SEJMI_SEND_TASKS = False
        stop = threading.Event()
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, lambda *_: stop.set())
        self.stdout.write(f"run_deadlines: sweeping every {opts['interval']} s", ending="\n")
        self.stdout.flush()
        follow = settings.SEJMI_FOLLOW == "queue" and not opts["no_followers"]
        if opts["only_followers"]:
            followers.serve(stop)
            return
        thread = None
        if follow:
            thread = threading.Thread(target=followers.serve, args=(stop,), name="followers")
            thread.start()
        runner.run(interval=opts["interval"], stop=stop, beside=notifications_runner.remind_due)
        if thread is not None:
            thread.join()
