// "My games" kept live: a countdown per deadline, each game's row following its websocket
// (`view` messages, API.md Live stream), the games waiting for me first, and the page title
// "(N) Sejmi je" counting them. Words come translated in the list's data-t-* attributes.
const TITLE = "Sejmi je";
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
    time.textContent = clock(Date.parse(time.dataset.deadline) - now);
  }
}

// "2 d 03:04:05" or "03:04:05"; never negative (the server acts on the deadline, R21).
export function clock(ms) {
  const left = Math.max(0, Math.floor(ms / 1000));
  const days = Math.floor(left / 86400);
  const rest = left % 86400;
  const pad = (n) => String(n).padStart(2, "0");
  const hms = `${pad(Math.floor(rest / 3600))}:${pad(Math.floor((rest % 3600) / 60))}:${pad(rest % 60)}`;
  return days ? `${days} d ${hms}` : hms;
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
  const names = view.awaiting.map((seat) => view.players[seat].username).join(", ");
  return `${t.tWaitingFor} ${names}`;
}

function showSeat(row, player, view) {
  const chip = row.querySelector(`[data-chip-seat="${player.seat}"]`);
  if (!chip) return;
  const name = chip.querySelector(".seat-chip__name");
  name.textContent = player.bot ? name.dataset.bot : (player.username ?? name.dataset.free);
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
  const sample = n === 0 ? t.tSummaryZero : n === 1 ? t.tSummaryOne
    : n <= 4 ? t.tSummaryFew : t.tSummaryMany;
  const summary = document.getElementById("waiting-summary");
  const text = sample.replace(/\d+/, String(n));
  if (summary.textContent !== text) summary.textContent = text;
}
