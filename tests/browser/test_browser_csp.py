"""Issue 32, item 9 (what to build: 8): every page is served with a Content-Security-Policy
(`script-src 'self'`: the pages run no inline script), and no page breaks it: each is opened in
Chromium with a listener for CSP violations, signed out and signed in."""

from __future__ import annotations

from tests.browser.ui import login

LISTEN = """
window.__csp = [];
document.addEventListener('securitypolicyviolation',
  (e) => window.__csp.push(
    `${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
"""


def _visit(page, path: str) -> list[str]:
    answer = page.goto(path)
    assert answer is not None and answer.status < 400, (path, answer and answer.status)
    policy = answer.headers.get("content-security-policy", "")
    script_src = policy.split("script-src", 1)[-1].split(";")[0]
    assert "script-src 'self'" in policy and "unsafe-inline" not in script_src, (path, policy)
    page.wait_for_load_state("networkidle")
    return page.evaluate("window.__csp")


def test_every_page_has_a_csp_and_breaks_none_of_it(open_page, finished_game, make_player):
    """Before: no Content-Security-Policy header on any page."""
    gid, host = finished_game
    me = make_player("csp")
    signed_out = ["/", "/signup/", "/login/", "/rules/", "/leaderboard/", f"/games/{gid}/",
                  f"/games/{gid}/replay/", f"/players/{host.username}/"]  # fmt: skip
    signed_in = [*signed_out, "/me/", "/notifications/", "/disputes/"]
    violations: dict[str, list[str]] = {}
    page = open_page("csp-out")
    page.context.add_init_script(LISTEN)
    for path in signed_out:
        violations[f"out {path}"] = _visit(page, path)
    page = open_page("csp-in")
    page.context.add_init_script(LISTEN)
    login(page, me)
    for path in signed_in:
        violations[f"in {path}"] = _visit(page, path)
    assert {k: v for k, v in violations.items() if v} == {}
