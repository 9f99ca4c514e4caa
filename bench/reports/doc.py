"""The one writer of the benchmarks' figures into the docs (docs/PERFORMANCE.md, and bench-load's
and the failover drill's into docs/RELIABILITY.md): every benchmark's block goes between two
markers of its own, and only there; what stands around them (the analysis, written by hand) is
kept."""

from __future__ import annotations

from pathlib import Path

from bench.harness.env import ROOT

DOC = ROOT / "docs" / "PERFORMANCE.md"
RELIABILITY = ROOT / "docs" / "RELIABILITY.md"


def verdict(ok: bool) -> str:
    """A target's verdict as the tables word it."""
    return "met" if ok else "**missed**"


def markers(name: str, command: str) -> tuple[str, str]:
    """The begin and end markers of benchmark `name`'s block, written by `command`."""
    return f"<!-- bench-{name}:begin (written by `{command}`) -->", f"<!-- bench-{name}:end -->"


def write_block(block: str, begin: str, end: str, *, section: str | None = None,
                doc: Path = DOC) -> None:  # fmt: skip
    """Put `block` (which starts with `begin` and ends with `end`) in place of the text between
    the two markers. Where they are missing: under the section's heading (its first line) when
    the document has it, else at the document's end after `section` (heading and introduction);
    with no section, missing markers are an error."""
    text = doc.read_text(encoding="utf-8") if doc.exists() else "# Performance\n"
    if begin in text and end in text:
        head, rest = text.split(begin, 1)
        text = head + block + rest.split(end, 1)[1]
    elif section is None:
        raise SystemExit(f"{doc} has no {begin} … {end} block")
    elif (heading := "\n" + section.split("\n", 1)[0]) in text:
        head, rest = text.split(heading, 1)
        title, _, body = rest.partition("\n")
        text = f"{head}{heading}{title}\n\n{block}\n{body}"
    else:
        text = text.rstrip("\n") + "\n\n" + section + block + "\n"
    doc.parent.mkdir(exist_ok=True)
    doc.write_text(text, encoding="utf-8")
