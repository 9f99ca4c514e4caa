"""Copies of the state's records, made from their fields so a new field needs no edit here.

`evolve` copies a state before it changes it, once per command, so the copy is hot. It is
written out once per record class (like dataclasses writes `__init__`) from each field's
annotation: lists and dicts are copied (a list of lists one level deeper), nested records by
their own `copy`, immutable values and read-only mappings shared. A field of a type with no
rule fails at import, never by sharing a mutable value silently.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any, TypeVar

T = TypeVar("T")

# Values that are never changed in place, so a copy may share them (also tuples and Mappings:
# a field annotated Mapping is read-only by contract, and mypy holds the engine to it).
IMMUTABLE = ("str", "int", "bool", "Card", "Deck")
OPTIONAL = " | None"


def copy_expr(annotation: str, value: str, records: tuple[str, ...]) -> str:
    """Python source that copies `value`, whose field is annotated `annotation`."""
    base = annotation.removesuffix(OPTIONAL)
    if base in IMMUTABLE or base.startswith(("tuple[", "Mapping[")):
        return value
    if base.startswith("list[list["):
        expr = f"list(map(list, {value}))"  # a comprehension costs a frame per copy
    elif base == "list" or base.startswith("list["):
        expr = f"list({value})"  # the items are immutable: ints, strings, tuples
    elif base == "dict" or base.startswith("dict["):
        expr = f"dict({value})"  # JSON-like settings and int -> int maps, never nested edits
    elif base in records:
        expr = f"{value}.copy()"
    else:
        raise TypeError(f"no copy rule for a field annotated {annotation!r}")
    if base != annotation:
        return f"({expr} if {value} is not None else None)"
    return expr


def make_copier(cls: type[T], records: tuple[str, ...] = ()) -> Callable[[T], T]:
    """A function returning a copy of a `cls` instance that shares nothing mutable.

    `records` names the field types copied by their own `copy` method (nested records).
    """
    lines = [
        f"    new.{f.name} = {copy_expr(str(f.type), 'old.' + f.name, records)}"
        for f in fields(cls)  # type: ignore[arg-type]
    ]
    source = "\n".join(["def copy(old):", "    new = new_object(cls)", *lines, "    return new"])
    namespace: dict[str, Any] = {"new_object": object.__new__, "cls": cls}
    exec(source, namespace)  # noqa: S102 (source made above from field names only)
    return namespace["copy"]
