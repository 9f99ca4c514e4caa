"""axe-core's verdict on a page (the accessibility and ratings tests)."""

from __future__ import annotations

from axe_playwright_python.sync_playwright import Axe


def violations(axe: Axe, page, where: str) -> list[str]:
    """Serious and critical violations on the page as it is now, one line per rule: where,
    which elements, and axe's message about the first of them."""
    lines = []
    for v in axe.run(page).response["violations"]:
        if v["impact"] not in ("serious", "critical"):
            continue
        nodes = v["nodes"]
        first = next((c["message"] for c in nodes[0]["any"] + nodes[0]["all"]), "") if nodes else ""
        targets = "; ".join(" ".join(n["target"]) for n in nodes[:5])
        lines.append(f"{where}: {v['id']} ({v['impact']}) {v['help']} — {targets} — {first}")
    return lines
