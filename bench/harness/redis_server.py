"""redis-server on a port of its own for bench-load (its broker and, scaled out, the channel
layer's servers): started, stopped and restarted by the faults. Nothing here touches the shared
Redis on 6379."""

from __future__ import annotations

import subprocess
import time
from dataclasses import dataclass
from pathlib import Path


def _wait(check, what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.1)
    raise RuntimeError(f"{what} did not come up within {timeout} s")


@dataclass
class Redis:
    """redis-server on its own port, no persistence: a restart loses every key, as a crash of
    an unpersisted Redis does (channel-layer groups, queued Celery messages)."""

    port: int
    logs: Path = Path("/tmp")

    def _cli(self, *words: str) -> subprocess.CompletedProcess:
        return subprocess.run(["redis-cli", "-p", str(self.port), *words],
                              capture_output=True, text=True, timeout=10)  # fmt: skip

    def up(self) -> bool:
        return self._cli("ping").stdout.strip() == "PONG"

    def start(self) -> None:
        if self.up():
            raise SystemExit(f"something already answers on Redis port {self.port}")
        files = self.logs / f"sejmi-bl-redis-{self.port}"
        subprocess.run(["redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
                        "--save", "", "--appendonly", "no", "--daemonize", "yes",
                        "--maxclients", "10000", "--logfile", f"{files}.log",
                        "--pidfile", f"{files}.pid"], check=True, timeout=10)  # fmt: skip
        _wait(self.up, f"redis on {self.port}")

    def stop(self) -> None:
        self._cli("shutdown", "nosave")
        _wait(lambda: not self.up(), f"redis on {self.port} stopping", 10)

    def restart(self, down_s: float) -> None:
        self.stop()
        time.sleep(down_s)
        self.start()
