// The live table (/games/{id}/): the view and the log over REST, then the websocket
// /ws/games/{id}/ (API.md, Live stream); commands over that socket while it is open, over
// REST otherwise, with the same Idempotency-Key. Only the public API is used.

import { Actor } from "../shared/prompt.js";
import { api } from "../shared/api.js";
import { drawAwayControls } from "../shared/away.js";
import { has, t } from "../shared/i18n.js";
import { LogBook } from "../shared/log.js";
import { animate, Beats, capture } from "../shared/card_flight.js";
import { displayNames, renderView, tickDeadline, wireSideToggle } from "../shared/render.js";
import { watchTable } from "../shared/visit_report.js";

const root = document.getElementById("table");
const gameId = root.dataset.game;
const catalog = JSON.parse(document.getElementById("catalog").textContent);
// What this player's pages showed of the game (visit_report.js), and whether this tab is visible.
const watcher = watchTable({
  url: root.dataset.seenUrl, key: `sejmi:seen:${gameId}:${root.dataset.viewer}`,
  since: root.dataset.since === "" ? null : Number(root.dataset.since), socket: () => socket,
});
const logList = root.querySelector("#log");
const log = new LogBook(logList, catalog, { since: watcher.since });
const ui = { catalog, names: [], blocked: new Set(), replay: false, outOrder: log.outOrder };
const actor = new Actor(root, catalog, sendCommand);
const beats = new Beats(root);
let view = null;
let played = 0; // log.beats shown on the felt (or skipped: those of the first load)
let mine = null; // the seq my last command reached: "since your move" counts from it

/** What happened since my last move, for the prompt (after a bot run, say). */
function recap() {
  return mine === null ? [] : log.beatsSince(mine).slice(-6);
}

function showError(error) {
  const box = root.querySelector("#error");
  if (!error) return void (box.textContent = "");
  const key = `error_${error.code}`;
  box.textContent = has(key) ? t(key) : t("error", { message: error.message });
}

/** A fresh Idempotency-Key (plain http on a LAN has no crypto.randomUUID). */
function uuid() {
  if (window.crypto?.randomUUID) return crypto.randomUUID();
  return [...crypto.getRandomValues(new Uint8Array(16))].map((x) => x.toString(16).padStart(2, "0")).join("");
}

/** A selector for the same control after a re-render (its tag and data-* hooks). */
function focusKey(node) {
  if (!node || node === document.body || !root.contains(node)) return null;
  if (node.id) return `#${CSS.escape(node.id)}`;
  const data = Object.entries(node.dataset).map(([k, v]) => {
    const name = k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    return `[data-${name}="${CSS.escape(v)}"]`;
  });
  return data.length ? node.tagName.toLowerCase() + data.join("") : null;
}

/** Draw `next` unless a newer view is shown already; keyboard focus stays where it was. */
function show(next) {
  if (view && next.seq < view.seq) return;
  const before = view ? capture(root) : null;
  const focused = focusKey(document.activeElement);
  view = next;
  ui.blocked = log.blockedAt();
  renderView(root, view, ui);
  watcher.shown(view.seq);
  log.names = ui.names;
  actor.recap = recap();
  actor.draw(view, ui.names);
  beats.decorate();
  drawAwayControls(root, view, show, showError);
  hideWhenOut(view);
  if (focused && (!document.activeElement || document.activeElement === document.body)) {
    root.querySelector(focused)?.focus({ preventScroll: true });
  }
  animate(root, before, view, { blocked: ui.blocked, cameFrom: log.cameFrom });
}

/** After the end or my elimination no block window can ask me again: the standing-order form
 * goes (issue 18; the server no longer renders it then, this hides it live). */
function hideWhenOut(view) {
  const form = root.querySelector(".standing-order");
  const me = view.you === null || view.you === undefined ? null : view.players[view.you];
  if (form) form.hidden = view.status === "ended" || Boolean(me?.eliminated);
}

/** Nothing a player decides on changed: only hidden passes or the like moved the seq. */
function sameDecision(a, b) {
  const key = (v) => JSON.stringify([v.phase, v.turn, v.kostic, v.pending, v.hand,
    v.players.map((p) => [p.lives, p.hand_count])]);
  return key(a) === key(b);
}

const sameBody = (a, b) => JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());

async function sendCommand(body, retried = false) {
  showError(null);
  const shown = view;
  try {
    const seq = await submit({ expected_seq: shown.seq, ...body });
    if (seq) mine = seq;
  } catch (error) {
    if (!["stale_seq", "not_your_turn", "illegal_move", "game_over"].includes(error.code)) {
      return showError(error);
    }
    const fresh = await api(`/api/games/${gameId}/`).catch(() => view);
    show(fresh);
    // Something that leaves this decision as it was moved the seq (a player went away or
    // came back while the block window stays open: its sealed passes are carried, R19):
    // send the same, still legal command once more instead of asking the player again.
    const again = error.code === "stale_seq" && !retried && sameDecision(shown, fresh)
      && fresh.legal.some((c) => sameBody(c, body));
    if (again) return sendCommand(body, true);
    showError(error);
  }
}

/** Send a command over the open socket (its events and view come as everyone's do); when
 * the socket is gone or silent, the same request over REST, under the same key: if the
 * socket's copy landed, the service answers with it and appends nothing. */
async function submit(command) {
  const key = uuid();
  if (socket?.readyState === WebSocket.OPEN) {
    try {
      return (await overSocket(socket, key, command))?.seq;
    } catch (error) {
      // The service's answer, not a lost socket; `unavailable` (overload) goes on to REST,
      // which waits out Retry-After under the same key.
      if (error.code && error.code !== "unavailable") throw error;
    }
  }
  const answer = await api(`/api/games/${gameId}/commands/`, { method: "POST", body: command, key });
  show(answer.view);
  return answer.seq;
}

const ACK_WAIT_MS = 5000;
const pending = new Map(); // command id → {resolve, reject, timer}

function overSocket(ws, id, command) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => settle(id, null, new Error("no answer")), ACK_WAIT_MS);
    pending.set(id, { resolve, reject, timer });
    ws.send(JSON.stringify({ type: "command", id, command }));
  });
}

/** Answer a waiting command: `error` is an API error ({code, message}) or a lost socket. */
function settle(id, ack, error) {
  const waiting = pending.get(id);
  if (!waiting) return;
  pending.delete(id);
  clearTimeout(waiting.timer);
  if (error) waiting.reject(error);
  else waiting.resolve(ack);
}

function socketLost() {
  [...pending.keys()].forEach((id) => settle(id, null, new Error("socket closed")));
}

function addEvents(events) {
  const list = logList;
  const atBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 40;
  events.forEach((event) => log.offer(event));
  if (atBottom) list.scrollTop = list.scrollHeight;
}

// The websocket: events into the log (each once, in seq order: log.offer keeps one that came
// after a gap until the gap fills), views drawn; on a drop "Reconnecting…", back-off
// 0.5 s .. 10 s, then a new socket resyncs from the last seq shown. A socket never sends an
// event twice, so a resync on it brings only what it has not sent (docs/LIVE_STREAM.md).
let socket = null;
let backoff = 500;
let retry = null;
let asked = null; // the `after` of this socket's latest resync

function resync(ws) {
  asked = log.lastSeq;
  ws.send(JSON.stringify({ type: "resync", after: asked }));
}

function setConn(key) {
  const box = root.querySelector("#conn");
  box.textContent = t(key);
  box.dataset.state = key;
}

/** Every frame, and each opening ({type: "open"}), to the page's other panels (chat.js). */
function tell(data) {
  root.dispatchEvent(new CustomEvent("sejmi:socket", { detail: data }));
}

function onMessage(message) {
  const data = JSON.parse(message.data);
  tell(data);
  if (data.type === "event") {
    addEvents([data.event]);
    beats.add(log.beats.slice(played));
    played = log.beats.length;
    // Ahead of the log (pushed before the answer to the opening resync, say): ask once.
    if (log.missing && asked !== log.lastSeq) resync(socket);
  } else if (data.type === "view") {
    show(data.view);
  } else if (data.type === "ack") {
    settle(data.id, data, null);
  } else if (data.type === "error" && data.id) {
    settle(data.id, null, data.error);
  }
}

function connect() {
  clearTimeout(retry);
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws/games/${gameId}/`);
  socket = ws;
  ws.onopen = () => {
    backoff = 500;
    setConn("live");
    watcher.opened(ws);
    resync(ws);
    tell({ type: "open" });
  };
  ws.onmessage = onMessage;
  ws.onclose = (e) => {
    if (socket !== ws) return;
    socketLost();
    if (e.code === 4404) return;
    reconnectLater();
  };
}

function reconnectLater() {
  setConn("reconnecting");
  clearTimeout(retry);
  retry = setTimeout(connect, backoff);
  backoff = Math.min(backoff * 2, 10000);
}

/** Abandon the socket at once (going offline does not always close it) and try again. */
function drop() {
  const ws = socket;
  socket = null;
  if (ws) {
    ws.onclose = ws.onmessage = null;
    ws.close();
  }
  socketLost();
  reconnectLater();
}

window.addEventListener("offline", drop);
window.addEventListener("online", () => {
  if (socket && socket.readyState <= WebSocket.OPEN) return;
  backoff = 500;
  connect();
});

/** `?join=0|any` from the lobby's "Create game": take the seat now that the table is drawn
 * (the game starts when its last seat is taken, and its bots move at once). */
async function joinWhenDrawn() {
  const wanted = root.dataset.join;
  if (wanted === undefined || !view || view.status !== "lobby") return;
  history.replaceState(null, "", location.pathname);
  try {
    const body = wanted === "any" ? {} : { seat: Number(wanted) };
    await api(`/api/games/${gameId}/join/`, { method: "POST", body });
    show(await api(`/api/games/${gameId}/`));
  } catch (error) {
    showError(error);
  }
}

async function start() {
  wireSideToggle(root);
  setConn("connecting");
  try {
    const [first, events] = await Promise.all([
      api(`/api/games/${gameId}/`), api(`/api/games/${gameId}/events/?after=0`),
    ]);
    log.names = displayNames(first.players);
    addEvents(events.events);
    played = log.beats.length; // the past is in the log; only what comes live is played
    show(first);
  } catch (error) {
    showError(error);
  }
  root.querySelector("#log-summary").textContent = log.summary();
  const mark = root.querySelector("#log-since");
  logList.scrollTop = mark ? mark.offsetTop - logList.offsetTop : logList.scrollHeight;
  connect();
  await joinWhenDrawn();
  setInterval(() => tickDeadline(root), 1000);
  // A seated player's "Dispute this moment", at the seq shown when its form opens. The server
  // renders the button; dispute.js (7 KB) loads when it is first pressed, so the table's page
  // stays within its byte budget (bench.web), then opens the form that was asked for.
  const disputeBox = root.querySelector("#dispute");
  disputeBox?.querySelector("button")?.addEventListener("click", async () => {
    const { mountDispute } = await import("../shared/dispute.js");
    mountDispute(disputeBox, { gameId, shownSeq: () => Number(root.dataset.seq), describe: (seq) => log.texts.get(seq) });
    disputeBox.querySelector("button").click();
  }, { once: true });
}

start();
