// "My games" kept live: a countdown per deadline, each game's row following its websocket
// (`view` messages, API.md Live stream), the games waiting for me first, and the page title
// "(N) Sejmi je" counting them. Words come translated in the list's data-t-* attributes.
import { seatName } from "../shared/names.js";
import { timeLeft } from "../shared/times.js";
// The vacation controls (#vacation) and the standing order, each mounting itself.
import "../shared/away.js";
import "../shared/orders.js";

const TITLE = "Sejmi je";
const PLURAL = new Intl.PluralRules(document.documentElement.lang || "en");
const MAX_SOCKETS = 30;
const list = document.getElementById("my-games");

if (list) {
  const rows = [...list.querySelectorAll("[data-game]")];
  rows.filter((row) => row.dataset.status !== "ended").slice(0, MAX_SOCKETS)
    .forEach((row) => follow(row));
  tick();
  setInterval(tick, 1000);
}

function tick() {
  const now = Date.now();
  for (const time of document.querySelectorAll("time[data-deadline]")) {
    if (!time.dataset.deadline) continue;
    time.textContent = timeLeft(time.dataset.deadline, now); // never negative: R21 acts on it
  }
}

// One socket per game; a dropped one comes back with back-off (0.5 s doubling to 10 s).
function follow(row, delay = 500) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/games/${row.dataset.game}/`);
  socket.addEventListener("open", () => {
    delay = 500;
  });
  socket.addEventListener("message", (message) => {
    const data = JSON.parse(message.data);
    if (data.type === "view") show(row, data.view);
  });
  socket.addEventListener("close", () => {
    if (row.dataset.status === "ended") return;
    setTimeout(() => follow(row, Math.min(delay * 2, 10000)), delay);
  });
}

function show(row, view) {
  const waiting = view.status === "active" && view.you !== null && view.awaiting.includes(view.you);
  row.dataset.waiting = waiting ? "1" : "0";
  row.dataset.status = view.status;
  row.classList.toggle("game-row--waiting", waiting);
  const time = row.querySelector("time[data-deadline]");
  time.dataset.deadline = view.deadline || "";
  time.setAttribute("datetime", view.deadline || "");
  time.closest(".deadline").hidden = !view.deadline;
  row.querySelector("[data-role=turn]").textContent = turnText(view, waiting);
  for (const player of view.players) showSeat(row, player, view);
  order();
}

function turnText(view, waiting) {
  const t = list.dataset;
  if (view.status === "lobby") return t.tLobby;
  if (view.status === "ended") return t.tFinished;
  if (waiting) return t.tYourTurn;
  const names = view.awaiting.map((seat) => seatName(view.players[seat])).join(", ");
  return `${t.tWaitingFor} ${names}`;
}

function showSeat(row, player, view) {
  const chip = row.querySelector(`[data-chip-seat="${player.seat}"]`);
  if (!chip) return;
  const name = chip.querySelector(".seat-chip__name");
  name.textContent = seatName(player) ?? name.dataset.free;
  chip.classList.toggle("seat-chip--free", player.username === null);
  chip.classList.toggle("seat-chip--bot", player.bot);
  chip.classList.toggle("seat-chip--out", player.eliminated);
  chip.classList.toggle("seat-chip--awaited", view.awaiting.includes(player.seat));
  chip.querySelector("[data-role=to-act]").hidden = !view.awaiting.includes(player.seat);
  const lives = chip.querySelector("[data-role=lives]");
  lives.hidden = view.status === "lobby" || player.username === null;
  lives.querySelector("b").textContent = player.lives;
}

// Waiting games first (soonest deadline first), then the others as the server ordered them.
function order() {
  const rows = [...list.querySelectorAll("[data-game]")];
  const rank = (row) => (row.dataset.waiting === "1" ? 0 : 1);
  const due = (row) => Date.parse(row.querySelector("time").dataset.deadline) || Infinity;
  const sorted = [...rows].sort((a, b) => rank(a) - rank(b) ||
    (rank(a) === 0 ? due(a) - due(b) : rows.indexOf(a) - rows.indexOf(b)));
  if (sorted.some((row, i) => row !== rows[i])) list.append(...sorted);
  count(rows.filter((row) => row.dataset.waiting === "1").length);
}

function count(n) {
  document.title = n > 0 ? `(${n}) ${TITLE}` : TITLE;
  const t = list.dataset;
  const form = n === 0 ? "zero" : PLURAL.select(n); // Czech: one (1), few (2–4), other (5+)
  const sample = { zero: t.tSummaryZero, one: t.tSummaryOne, few: t.tSummaryFew }[form] ?? t.tSummaryMany;
  const summary = document.getElementById("waiting-summary");
  const text = sample.replace(/\d+/, String(n));
  if (summary.textContent !== text) summary.textContent = text;
}
