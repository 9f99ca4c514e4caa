"""The project skeleton loads, passes Django's checks, serves a page, and its apps depend on
each other in one direction only."""

import ast
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command


def test_settings_load_and_system_check_passes() -> None:
    assert settings.ROOT_URLCONF == "sejmi.urls"
    call_command("check")


@pytest.mark.django_db
def test_admin_login_page_answers_200(client) -> None:
    response = client.get("/admin/login/")
    assert response.status_code == 200


def test_games_never_imports_replays() -> None:
    """The arrow points one way: replays/ builds on games/, never the reverse (issue 7)."""
    offenders = []
    for source in sorted((Path(settings.BASE_DIR) / "games").rglob("*.py")):
        for node in ast.walk(ast.parse(source.read_text(), filename=str(source))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            offenders += [f"{source}: {name}" for name in names
                          if name == "replays" or name.startswith("replays.")]  # fmt: skip
    assert offenders == []


def test_error_codes_are_written_from_the_one_enumeration() -> None:
    """Issue 7: a code is written as a `Code` member, never as a loose string literal."""
    import re

    literal = re.compile(r"""(ApiError|error_response|IllegalCommand)\(\s*["']""")
    offenders = [
        f"{source}:{number}"
        for folder in ("games", "replays", "frontend", "sejmi")
        for source in sorted((Path(settings.BASE_DIR) / folder).rglob("*.py"))
        for number, line in enumerate(source.read_text().splitlines(), 1)
        if literal.search(line)
    ]
    assert offenders == []


def test_one_celery_result_backend_serves_every_thread() -> None:
    """Every task sent at commit touches the app's result backend. Celery made one per thread,
    and making one scans every installed package's entry points; under ASGI each request's
    sync code runs in a thread of its own, so every commit paid the scan (bench-load: 6 % of a
    web worker's CPU). Results are never kept, so one stateless backend serves all threads."""
    import threading

    from sejmi.celery import app

    seen = []
    thread = threading.Thread(target=lambda: seen.append(app.backend))
    thread.start()
    thread.join()
    assert seen == [app.backend]
