"""bench/ as a house (bench/importlinter.toml): its packages by role import downward only, no
two of its modules import each other in a cycle (imports inside functions included), and
nothing in it reaches a private name (`_name`) of the product or of another bench module."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "bench" / "importlinter.toml"
LINT = str(Path(sys.executable).with_name("lint-imports"))
OWNERS = ("games", "replays", "frontend", "sejmi", "bench")  # whose private names are private


def test_bench_s_import_contracts_are_kept():
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([LINT, "--no-cache", str(CONFIG)], cwd=ROOT, capture_output=True,
                          text=True, env=env)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def test_no_two_modules_of_bench_import_each_other_even_inside_functions():
    sys.path.insert(0, str(ROOT))
    try:
        graph = grimp.build_graph("bench", cache_dir=None)
    finally:
        sys.path.remove(str(ROOT))
    circles = sorted(
        (importer, imported)
        for importer in graph.modules
        for imported in graph.find_modules_directly_imported_by(importer)
        if imported in graph.modules and graph.chain_exists(imported=importer, importer=imported)
    )
    assert circles == [], circles


def private_reaches(source: str) -> list[str]:
    """`module._name` and `from package import _name` where the module or package is one of
    OWNERS': the private names a module of bench/ uses that are not its own."""
    tree = ast.parse(source)
    modules: set[str] = set()  # local names bound to a module of OWNERS
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in OWNERS:
                    modules.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in OWNERS:
            for alias in node.names:
                if _private(alias.name):
                    found.append(f"from {node.module} import {alias.name}")
                modules.add(alias.asname or alias.name)  # a module or not: its attributes count
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and _private(node.attr)
                and isinstance(node.value, ast.Name) and node.value.id in modules):  # fmt: skip
            found.append(f"{node.value.id}.{node.attr}")
    return found


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def test_nothing_in_bench_reaches_a_private_name_of_the_product_or_of_another_module():
    found = {
        str(path.relative_to(ROOT)): reaches
        for path in sorted((ROOT / "bench").rglob("*.py"))
        if (reaches := private_reaches(path.read_text()))
    }
    assert found == {}, found


def test_the_private_reach_check_finds_what_it_looks_for():
    planted = (
        "from games.live import consumer\n"
        "from games.live.consumer import _remember\n"
        "import bench.harness.env as env\n"
        "consumer._frames(1, 2, 3, 4)\n"
        "env._loopback_only('x')\n"
        "url = object()\n"
        "url._replace(path='/')\n"  # not a module's: a value's method
        "consumer.frames_for(1, 2, 3, 4)\n"
    )
    assert private_reaches(planted) == [
        "from games.live.consumer import _remember",
        "consumer._frames",
        "env._loopback_only",
    ]
