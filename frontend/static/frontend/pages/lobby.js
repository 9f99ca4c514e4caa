// The lobby's two actions, through the public API only (API.md): create a game (and take
// seat 0 when asked), and join an open game; both then go to the table.
import { api } from "../shared/api.js";
import { has, t } from "../shared/i18n.js";
import "../shared/times.js"; // the page's <time data-when> in the reader's zone

// The create form's paces (block window s, turn deadline s); frontend/templatetags names them.
const PACES = { live: [20, 120], correspondence: [3600, 86400] };
const PAIRS = new Set(["pairs", "pairs_extreme"]);

const form = document.getElementById("create-game");
if (form) setUpCreate(form);
for (const button of document.querySelectorAll("[data-join]")) {
  button.addEventListener("click", () => join(button));
}

function setUpCreate(form) {
  const seats = form.elements.seats;
  const variant = form.elements.variant;
  variant.addEventListener("change", () => {
    if (PAIRS.has(variant.value)) seats.value = "4";
    syncSeats(form);
  });
  seats.addEventListener("change", () => syncSeats(form));
  for (const radio of form.elements.pace) radio.addEventListener("change", () => syncPace(form));
  syncSeats(form);
  syncPace(form);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    create(form);
  });
}

// Only the chosen number of seats can be bots; a hidden seat is also unticked.
function syncSeats(form) {
  const n = Number(form.elements.seats.value);
  for (const label of form.querySelectorAll("[data-seat-option]")) {
    const outside = Number(label.dataset.seatOption) >= n;
    label.hidden = outside;
    const box = label.querySelector("input");
    box.disabled = outside;
    if (outside) box.checked = false;
  }
}

function syncPace(form) {
  const custom = form.elements.pace.value === "custom";
  const box = form.querySelector("#custom-pace");
  box.hidden = !custom;
  for (const input of box.querySelectorAll("input")) input.disabled = !custom;
}

function options(form) {
  const els = form.elements;
  const bots = [...form.querySelectorAll("input[name=bots]:checked")].map((b) => Number(b.value));
  const [block, turn] = PACES[els.pace.value] ||
    [Number(els.block_window_s.value), Number(els.turn_deadline_s.value)];
  return { duel_coin: els.duel_coin.checked, block_window_s: block, turn_deadline_s: turn, bots };
}

async function create(form) {
  const alert = document.getElementById("create-error");
  const button = form.querySelector("button[type=submit]");
  const els = form.elements;
  const body = { seats: Number(els.seats.value), variant: els.variant.value, options: options(form) };
  alert.textContent = "";
  button.disabled = true;
  try {
    const game = await api("/api/games/", { method: "POST", body });
    // The first seat is the creator's by default (the first free one if the bot has it); the
    // table takes it once it is drawn (table.js, ?join=), so the game starts, and its bots
    // move, only when the creator's table is on screen (issue 29).
    const seat = body.options.bots.includes(0) ? "any" : "0";
    location.assign(`/games/${game.id}/${els.sit.checked ? `?join=${seat}` : ""}`);
  } catch (err) {
    alert.textContent = say(err);
    button.disabled = false;
  }
}

async function join(button) {
  const id = button.dataset.join;
  const alert = document.getElementById("join-error");
  alert.textContent = "";
  button.disabled = true;
  try {
    await api(`/api/games/${id}/join/`, { method: "POST", body: {} });
    location.assign(`/games/${id}/`);
  } catch (err) {
    const title = button.closest("[data-game]").querySelector(".game-row__title").textContent;
    alert.textContent = `${title}: ${say(err)}`;
    button.disabled = false;
  }
}

// The error in the page's language where the lobby knows its code (API.md error codes).
function say(err) {
  if (err.code === "invalid") return `${t("lobby_error_invalid")} ${err.message}`;
  return has(`lobby_error_${err.code}`) ? t(`lobby_error_${err.code}`) : err.message;
}
