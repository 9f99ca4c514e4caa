// What the table's page shows its player, told to the service (docs/NOTIFICATIONS.md, "Quiet at
// the table"):
// - over the game socket, whether the tab is visible (the Page Visibility API):
//   {"type": "visibility", "visible": bool} on every opening and every change; while it is
//   visible, notifications about this game are born read and never mailed;
// - the last seq shown while the tab was visible, to POST /games/{id}/seen/ (at most every
//   few seconds, and at once when the tab is hidden or left): "since your last visit" counts
//   from there, not from the last page load. A reload is answered before the old page's last
//   report arrives, so the seq is also kept in sessionStorage for the next page of this tab.

import { cookie } from "./api.js";

const REPORT_EVERY_MS = 3000;
const visible = () => document.visibilityState === "visible";

/** sessionStorage, which a browser may refuse (storage blocked): then the service alone. */
function keep(key, value) {
  try {
    if (value === undefined) return sessionStorage.getItem(key);
    sessionStorage.setItem(key, value);
  } catch {
    /* no storage: the service's record only */
  }
  return null;
}

/** `url`: the report's address (none for an anonymous page); `key`: this game and viewer in
 * sessionStorage; `since`: what the service had recorded when the page loaded; `socket()`:
 * the game socket now (or null). Returns {opened(ws), shown(seq), since}. */
export function watchTable({ url, key, since, socket }) {
  const kept = url ? Number(keep(key) ?? NaN) : NaN;
  // This tab showed more than the service knew at load: its last report was still on its way.
  const start = Number.isFinite(kept) && (since === null || kept > since) ? kept : since;
  let shownSeq = 0;
  let seenSeq = start ?? 0;
  let reported = since ?? 0; // what the service has: the tab's kept seq is told again if past it
  let timer = null;

  function tellSocket(ws = socket()) {
    if (ws?.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "visibility", visible: visible() }));
  }

  function report(leaving) {
    clearTimeout(timer);
    timer = null;
    if (!url || seenSeq <= reported) return;
    const seq = seenSeq;
    const before = reported;
    reported = seq;
    fetch(url, {
      method: "POST", keepalive: leaving, credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": cookie("csrftoken") || "" },
      body: JSON.stringify({ seq }),
    }).then((answer) => {
      if (!answer.ok && reported === seq) reported = before; // said again with the next one
      // What the page showed became read (a game's first "your turn", told before the table
      // opened): the bell counts again (bell.js).
      if (Number(answer.headers.get("X-Notifications-Read")) > 0) {
        document.dispatchEvent(new CustomEvent("sejmi:notifications-read"));
      }
    }, () => {
      if (reported === seq) reported = before;
    });
  }

  function see() {
    if (shownSeq <= seenSeq) return;
    seenSeq = shownSeq;
    if (url) keep(key, String(seenSeq));
    if (url && !timer) timer = setTimeout(() => report(false), REPORT_EVERY_MS);
  }

  if (url && seenSeq > reported) timer = setTimeout(() => report(false), REPORT_EVERY_MS);

  document.addEventListener("visibilitychange", () => {
    tellSocket();
    if (visible()) see();
    else report(true);
  });
  window.addEventListener("pagehide", () => report(true));

  return {
    since: start,
    opened: tellSocket,
    shown(seq) {
      shownSeq = Math.max(shownSeq, seq);
      if (visible()) see();
    },
  };
}
