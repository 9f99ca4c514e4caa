"""The failover drill's pure parts (bench/scenarios/failover.py, bench/harness/pg_pair.py):
which acknowledged commands count as lost, how the silence around the kill is measured, and the
configuration that makes the standby synchronous and lets it serve once promoted. The drill
itself is a benchmark (`make bench-failover`), not a test."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from bench.harness.pg_pair import STANDBY_NAME, haproxy_cfg, primary_conf, standby_conf
from bench.scenarios.failover import missing_acked, outage


def test_an_acked_command_is_lost_without_its_stored_answer_or_its_event():
    acked = [(1.0, 7, 3, "k1"), (2.0, 7, 4, "k2"), (3.0, 7, 5, "k3"), (4.0, 8, 2, "k4")]
    stored = {"k1": 3, "k2": 9, "k4": 2}  # k2 answered another seq; k3 never stored
    events = {(7, 3), (7, 4), (7, 5)}  # game 8 has no event at seq 2
    lost = {m["key"]: m["why"] for m in missing_acked(acked, stored, events)}
    assert set(lost) == {"k2", "k3", "k4"}
    assert "seq 9" in lost["k2"] and "key" in lost["k3"] and "event" in lost["k4"]
    assert missing_acked(acked[:1], stored, events) == []


def test_the_silence_is_the_longest_gap_between_acks_around_the_kill():
    # table 1 acks every second; table 2 until the kill at 10.0, then again at 14.5
    acks = [(float(t), 1) for t in range(0, 10)] + [(13.0, 1), (14.0, 1)]
    acks += [(8.5, 2), (9.9, 2), (14.5, 2)]
    found = outage(acks, kill_at=10.0)
    assert (found["silence_s"], found["silence_from_s"], found["silence_to_s"]) == (3.1, -0.1, 3.0)
    assert found["tables_active"] == 2 and found["tables_back"] == 2
    assert found["table_back_max_s"] == 4.5
    assert found["longest_gap_before_s"] == 1.0


def test_the_primary_waits_for_the_standby_and_the_promoted_standby_for_no_one():
    primary = primary_conf(56432, "/tmp/x", "p", synchronous=True)
    assert f"synchronous_standby_names = '{STANDBY_NAME}'" in primary
    assert "fsync = on" in primary and "synchronous_commit = on" in primary
    assert "synchronous_standby_names = ''" in primary_conf(56432, "/tmp/x", "p",
                                                            synchronous=False)  # fmt: skip
    standby = standby_conf(56433, "/tmp/y", "s", 56432)
    assert "synchronous_standby_names = ''" in standby  # else, once promoted, commits hang
    assert f"application_name={STANDBY_NAME}" in standby and "port=56432" in standby


@pytest.mark.skipif(shutil.which("haproxy") is None, reason="haproxy is not installed")
def test_haproxy_accepts_the_proxy_config_with_the_standby_in_maintenance(tmp_path):
    cfg = haproxy_cfg(50001, 56432, 56433, str(tmp_path / "sock"))
    assert "server standby 127.0.0.1:56433" in cfg and "disabled" in cfg.split("standby")[-1]
    assert "backup" not in cfg  # writes must never reach a standby that is not promoted
    (tmp_path / "h.cfg").write_text(cfg)
    check = subprocess.run(["haproxy", "-c", "-f", str(tmp_path / "h.cfg")],
                           capture_output=True, text=True)  # fmt: skip
    assert check.returncode == 0, check.stderr
