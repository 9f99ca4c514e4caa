// The replay viewer (/games/{id}/replay/?at=): a scrubber over every event, back and forward
// (buttons and arrow keys), play and pause at a chosen speed, the markers as jumps. Views come
// from GET /api/games/{id}/replay/?at= and are cached; the rest are fetched ahead, nearest first,
// so scrubbing is instant after the first load. The URL follows the position.

import { api } from "../shared/api.js";
import { mountDispute } from "../shared/dispute.js";
import { has, t } from "../shared/i18n.js";
import { LogBook } from "../shared/log.js";
import { displayNames, el, renderView, wireSideToggle } from "../shared/render.js";

const root = document.getElementById("replay");
const gameId = root.dataset.game;
const last = Number(root.dataset.last);
const catalog = JSON.parse(document.getElementById("catalog").textContent);
const logList = root.querySelector("#log");
const log = new LogBook(logList, catalog);
const ui = { catalog, names: [], blocked: new Set(), replay: true, outOrder: log.outOrder };
const cache = new Map(); // seq -> view
const SPEEDS = [0.5, 1, 2, 4, 8];
const STEP_MS = 800; // one event per 0.8 s at 1×
let at = Number(root.dataset.at);
let shownUpTo = last; // log lines after this are hidden
let timer = null;
let scrollFrame = 0;

function button(text, name) {
  const b = el("button", "", text);
  b.type = "button";
  b.dataset.control = name;
  return b;
}

/** A compact control: a sign on the button, its name in words for assistive technology. */
function iconButton(sign, name, control) {
  const b = button(sign, control);
  b.setAttribute("aria-label", name);
  b.title = name;
  return b;
}

const scrubber = Object.assign(el("input"), { type: "range", id: "scrubber", min: "1", max: String(last), value: String(at) });
scrubber.setAttribute("aria-label", t("r_scrubber"));
const TEXT = "\uFE0E"; // the sign as text, never as a colour emoji
const back = iconButton(`‹${TEXT}`, t("r_back"), "back");
const playPause = iconButton(`▶${TEXT}`, t("r_play"), "play");
const forward = iconButton(`›${TEXT}`, t("r_forward"), "forward");
// Steps by turn as well as by event: to the start of this (or the previous) turn, the next one's.
const turnBack = iconButton(`«${TEXT}`, t("r_turn_back_name"), "turn-back");
const turnForward = iconButton(`»${TEXT}`, t("r_turn_forward_name"), "turn-forward");
let turnStarts = []; // seqs of turn_started, ascending
const position = el("span", "position");
const speed = el("select");
speed.id = "speed";
SPEEDS.forEach((s) => speed.append(Object.assign(el("option", "", `${s}×`), { value: String(s), selected: s === 1 })));
const speedLabel = el("label", "speed", `${t("r_speed")} `);
speedLabel.append(speed);
const now = el("p", "now");
now.setAttribute("aria-live", "polite");
// The moments (blocks, duels, eliminations …) in a menu, not a wall of chips over the table.
const moments = el("details", "moments");
moments.id = "moments";
const momentsTitle = el("summary", "", t("r_markers"));
momentsTitle.id = "moments-title";
const markerList = el("ol", "markers");
markerList.id = "markers";
markerList.setAttribute("aria-labelledby", "moments-title");
moments.append(momentsTitle, markerList);
root.querySelector("#controls").append(turnBack, back, playPause, forward, turnForward, scrubber, position,
  speedLabel, moments, el("span", "visually-hidden", t("r_keys")));
root.querySelector("#controls").after(now);
wireSideToggle(root);
// A seated player's "Dispute this moment" (the server renders #dispute for them only).
const disputeBox = root.querySelector("#dispute");
const dispute = disputeBox && mountDispute(disputeBox, {
  gameId, shownSeq: () => Number(root.dataset.seq) || at, describe: (seq) => log.texts.get(seq), follow: true,
});

async function fetchView(seq) {
  if (!cache.has(seq)) cache.set(seq, api(`/api/games/${gameId}/replay/?at=${seq}`));
  try {
    const view = await cache.get(seq);
    cache.set(seq, view);
    return view;
  } catch (error) {
    cache.delete(seq);
    throw error;
  }
}

/** Hide the log lines after `seq` and mark the line of `seq` (only the lines that change). */
function showLogUpTo(seq) {
  const [from, to] = seq < shownUpTo ? [seq + 1, shownUpTo] : [shownUpTo + 1, seq];
  for (let s = from; s <= to; s += 1) {
    const item = logList.querySelector(`[data-log-seq="${s}"]`);
    if (item) item.hidden = s > seq;
  }
  shownUpTo = seq;
  logList.querySelector('[aria-current="step"]')?.removeAttribute("aria-current");
  const current = logList.querySelector(`[data-log-seq="${seq}"]`);
  if (current) {
    current.setAttribute("aria-current", "step");
    now.textContent = log.texts.get(seq) ?? "";
  }
  cancelAnimationFrame(scrollFrame); // measure once per frame, not once per step
  scrollFrame = requestAnimationFrame(() => {
    if (!current) return;
    logList.scrollTop = current.offsetTop - logList.offsetTop - logList.clientHeight + current.offsetHeight + 8;
  });
}

async function goTo(seq) {
  at = Math.min(Math.max(seq, 1), last);
  scrubber.value = String(at);
  position.textContent = t("r_position", { at, last });
  history.replaceState(null, "", `?at=${at}`);
  root.querySelectorAll("#markers button").forEach((b) => b.setAttribute("aria-current", String(Number(b.dataset.seq) === at)));
  back.disabled = at <= 1;
  forward.disabled = at >= last;
  turnBack.disabled = at <= 1;
  turnForward.disabled = !turnStarts.some((seq) => seq > at);
  showLogUpTo(at);
  const wanted = at;
  try {
    const cached = cache.get(at);
    const view = cached && !(cached instanceof Promise) ? cached : await fetchView(at);
    if (wanted !== at) return; // the user moved on while it loaded
    ui.blocked = log.blockedAt(at);
    renderView(root, view, ui);
    dispute?.update();
    root.querySelector("#error").textContent = "";
  } catch (error) {
    showError(error);
  }
}

function showError(error) {
  const key = `error_${error.code}`;
  root.querySelector("#error").textContent = has(key) ? t(key) : error.message;
}

function setPlaying(on) {
  clearInterval(timer);
  timer = null;
  playPause.textContent = on ? `❚❚${TEXT}` : `▶${TEXT}`;
  playPause.setAttribute("aria-label", t(on ? "r_pause" : "r_play"));
  playPause.title = t(on ? "r_pause" : "r_play");
  playPause.dataset.control = on ? "pause" : "play";
  if (!on) return;
  if (at >= last) goTo(1);
  timer = setInterval(() => {
    if (at >= last) return setPlaying(false);
    goTo(at + 1);
  }, STEP_MS / Number(speed.value));
}

scrubber.addEventListener("input", () => goTo(Number(scrubber.value)));
back.addEventListener("click", () => goTo(at - 1));
turnBack.addEventListener("click", () => goTo([...turnStarts].reverse().find((seq) => seq < at) ?? 1));
turnForward.addEventListener("click", () => goTo(turnStarts.find((seq) => seq > at) ?? last));
forward.addEventListener("click", () => goTo(at + 1));
playPause.addEventListener("click", () => setPlaying(!timer));
speed.addEventListener("change", () => { if (timer) setPlaying(true); });
document.addEventListener("keydown", (e) => {
  const inField = e.target.closest?.("input, select, textarea");
  if (inField || e.altKey || e.ctrlKey || e.metaKey) return;
  const moves = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 1, End: last };
  if (!(e.key in moves)) return;
  e.preventDefault();
  goTo(moves[e.key]);
});

/** Fetch every other view in the background, nearest to the position first, 4 at a time. */
async function fetchAhead() {
  const next = () => {
    for (let d = 1; d <= last; d += 1) {
      for (const seq of [at + d, at - d]) if (seq >= 1 && seq <= last && !cache.has(seq)) return seq;
    }
    return null;
  };
  const worker = async () => {
    for (let seq = next(); seq !== null; seq = next()) await fetchView(seq).catch(() => null);
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
}

function drawMarkers(markers) {
  const list = markerList;
  momentsTitle.textContent = `${t("r_markers")} (${markers.length})`;
  list.replaceChildren(...markers.map((m) => {
    const li = el("li");
    const who = m.seats.map((s) => ui.names[s] ?? log.name(s)).join(", ");
    const b = button(`${t("m_turn", { turn: m.turn })}: ${t(`m_${m.kind}`)}${who ? ` — ${who}` : ""}`, "marker");
    b.dataset.seq = String(m.seq);
    b.addEventListener("click", () => { moments.open = false; goTo(m.seq); });
    li.append(b);
    return li;
  }));
}

async function start() {
  try {
    const [current, events, markers] = await Promise.all([
      api(`/api/games/${gameId}/`), api(`/api/games/${gameId}/events/?after=0`),
      api(`/api/games/${gameId}/markers/`),
    ]);
    ui.names = displayNames(current.players);
    log.names = ui.names;
    events.events.filter((e) => e.seq <= last).forEach((e) => log.add(e));
    turnStarts = events.events.filter((e) => e.type === "turn_started" && e.seq <= last).map((e) => e.seq);
    drawMarkers(markers.markers.filter((m) => m.seq <= last));
  } catch (error) {
    showError(error);
  }
  await goTo(at);
  fetchAhead();
}

start();
