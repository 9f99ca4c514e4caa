"""The house's import contracts (pyproject.toml [tool.importlinter]) hold, and bite: `make test`
fails on an arrow that points upward, and on any import cycle between modules, imports inside
functions included."""

import shutil
import subprocess
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("games", "replays", "frontend")
LINT = str(Path(sys.executable).with_name("lint-imports"))


def _lint(where: Path) -> subprocess.CompletedProcess:
    return subprocess.run([LINT, "--no-cache"], cwd=where, capture_output=True, text=True,
                          env={"PYTHONPATH": str(where), "PATH": "/usr/bin:/bin"})  # fmt: skip


def test_every_import_contract_is_kept():
    done = _lint(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def test_an_upward_import_breaks_the_layers(tmp_path):
    for name in (*PACKAGES, "sejmi"):
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("static"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    errors = tmp_path / "games" / "core" / "errors.py"
    errors.write_text(errors.read_text() + "\nfrom games.table import commands  # noqa\n")

    done = _lint(tmp_path)

    assert done.returncode != 0
    assert "games.core.errors -> games.table.commands" in done.stdout


def test_the_record_never_imports_the_disputes_and_a_new_module_is_placed(tmp_path):
    for name in (*PACKAGES, "sejmi"):
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("static"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    transcript = tmp_path / "replays" / "transcript.py"
    transcript.write_text(transcript.read_text() + "\nfrom replays.disputes import models\n")
    (tmp_path / "replays" / "leaderboards.py").write_text('"""A module in no layer."""\n')

    done = _lint(tmp_path)

    assert done.returncode != 0
    assert "replays.transcript -> replays.disputes.models" in done.stdout
    assert "replays.leaderboards" in done.stdout  # the replays' layers are exhaustive


def test_no_import_cycle_between_modules_even_inside_functions():
    sys.path.insert(0, str(ROOT))
    try:
        graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    finally:
        sys.path.remove(str(ROOT))
    cycles = _cycles({m: graph.find_modules_directly_imported_by(m) for m in graph.modules})
    assert cycles == [], cycles


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm), or of
    one module that imports itself."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in edges.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1 or node in edges.get(node, ()):
                found.append(sorted(component))

    sys.setrecursionlimit(10_000)
    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found
