"""docker-compose.yml's production shape (issue 9): `docker compose up --scale web=3` works
behind the balancer, and deadlines run without the broker. Docker itself is not run here: the
YAML is read, and deploy/haproxy.cfg is checked by HAProxy (`haproxy -c`) when installed."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
SERVICES = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]


def test_web_scales_behind_one_balancer():
    web, balancer = SERVICES["web"], SERVICES["balancer"]
    assert "ports" not in web, "replicas must not compete for one host port"
    assert balancer["ports"] and "web" in balancer["depends_on"]
    assert "./deploy/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro" in balancer["volumes"]
    assert web["environment"]["NUM_PROXIES"] == "1"  # throttles see the client (docs/PRODUCTION.md)
    config = (ROOT / "deploy" / "haproxy.cfg").read_text()
    assert "server-template web" in config and "option forwardfor" in config
    assert "cookie" not in config.split("backend web", 1)[1], "no stickiness"


def test_deadlines_run_from_postgresql_beside_celery():
    assert SERVICES["deadlines"]["command"] == "python manage.py run_deadlines"
    assert SERVICES["worker"]["command"].startswith("celery -A sejmi worker")
    assert SERVICES["beat"]["command"].startswith("celery -A sejmi beat")
    for name in ("web", "deadlines", "worker", "beat"):
        assert SERVICES[name]["depends_on"]["migrate"]["condition"] == (
            "service_completed_successfully")


@pytest.mark.skipif(not shutil.which("haproxy"), reason="HAProxy is not installed")
def test_haproxy_accepts_the_production_config(tmp_path):
    checked = subprocess.run(["haproxy", "-c", "-f", str(ROOT / "deploy" / "haproxy.cfg")],
                             capture_output=True, text=True, timeout=30)  # fmt: skip
    assert checked.returncode == 0, checked.stdout + checked.stderr
