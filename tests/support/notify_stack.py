"""The real processes the notification tests need: an SMTP server on loopback (aiosmtpd) that
keeps every mail it receives, and a Celery worker as a subprocess (`celery -A sejmi worker`) on
the test database and REDIS_URL's broker. The worker consumes a queue of its own
(SEJMI_NOTIFY_QUEUE), so it never takes another test's deadline tasks; both live for the
session (the worker starts in about two seconds)."""

from __future__ import annotations

import email
import email.policy
import os
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from email.message import EmailMessage
from pathlib import Path
from urllib.parse import urlparse

from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]
CELERY = ROOT / ".venv" / "bin" / "celery"
QUEUE = f"notify-tests-{os.getpid()}"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Inbox:
    """aiosmtpd's handler: every accepted mail, parsed."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.messages: list[EmailMessage] = []

    async def handle_DATA(self, server, session, envelope) -> str:  # noqa: N802 (aiosmtpd's name)
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        with self.lock:
            self.messages.append(message)
        return "250 OK"

    def to(self, address: str) -> list[EmailMessage]:
        with self.lock:
            return [m for m in self.messages if address in str(m["To"])]


@contextmanager
def smtp_server() -> Iterator[Inbox]:
    """An SMTP server on a free loopback port keeping every mail; its port as `inbox.port`."""
    from aiosmtpd.controller import Controller

    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    inbox.port = controller.port  # type: ignore[attr-defined]
    try:
        yield inbox
    finally:
        controller.stop()


@contextmanager
def worker_on(database: str, smtp_port: int, queue: str = QUEUE) -> Iterator[Worker]:
    """A notification worker on `queue`, ready; stopped after."""
    from sejmi.celery import app

    log = Path(tempfile.gettempdir()) / f"sejmi-notify-worker-{queue}.log"
    worker = Worker(database, smtp_port, log, queue=queue)
    try:
        worker.wait_ready(app)
        yield worker
    finally:
        worker.stop()


class Worker:
    """`celery -A sejmi worker -Q QUEUE --pool=solo` on the test database (`queue`: another
    queue, for a module with a worker and an SMTP server of its own)."""

    def __init__(self, database: str, smtp_port: int, log: Path, queue: str = QUEUE) -> None:
        url = urlparse(os.environ["DATABASE_URL"])._replace(path=f"/{database}").geturl()
        env = {**os.environ, "DATABASE_URL": url, "EMAIL_HOST": "127.0.0.1",
               "EMAIL_PORT": str(smtp_port), "SEJMI_NOTIFY_QUEUE": queue,
               "SEJMI_BASE_URL": "http://testserver", "SEJMI_DB_POOL_MAX": "2",
               # the test process's channels (its prefix comes from the configured database
               # name, not the test database's): /ws/me/ sockets hear the worker's pushes
               "CHANNEL_PREFIX": settings.CHANNEL_PREFIX}  # fmt: skip
        env.pop("SEJMI_INPROCESS_RUNNER", None)
        self.log = log
        self.name = f"{queue}@localhost"
        argv = [str(CELERY), "-A", "sejmi", "worker", "-Q", queue, "--pool=solo",
                "--loglevel=WARNING", "-n", self.name, "--without-gossip", "--without-mingle",
                "--without-heartbeat"]  # fmt: skip
        self.proc = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=log.open("w"),
                                     stderr=subprocess.STDOUT, start_new_session=True)  # fmt: skip

    def wait_ready(self, app, timeout: float = 60) -> None:
        give_up = time.monotonic() + timeout
        while not app.control.ping(destination=[self.name], timeout=0.5):
            if self.proc.poll() is not None or time.monotonic() > give_up:
                raise RuntimeError(f"the Celery worker did not start:\n{self.log.read_text()}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)
