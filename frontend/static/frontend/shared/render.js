// Draws one view (API.md "View") into the table: seats, piles, countdown, deadline, the pending
// play, my hand, my partner's hand, the winners and, after the end, every hand (R23).
// Pure drawing: acting (prompt.js) and the log (log.js) add to what this draws.

import { awayMark } from "./away.js";
import { cardElement, cardRef, effectText } from "./cards.js";
import { keepTermFocus, termify } from "./glossary.js";
import { count, LANG, t, tNodes } from "./i18n.js";
import { pendingKey } from "./second_person.js";
import { seatName } from "./names.js";
import { timeLeft } from "./times.js";

const $ = (root, sel) => root.querySelector(sel);

export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Seat names as shown: names.js's rule (a bot is "bot#<seat>"), "seat N" when free; a name
 * still shared (an imported record) gets its seat number, as the transcript writes it. */
export function displayNames(players) {
  const raw = players.map((p) => seatName(p) ?? t("seat_name", { seat: p.seat }));
  return raw.map((name, seat) => (raw.filter((x) => x === name).length > 1 ? `${name}#${seat}` : name));
}

/** A die face drawn with CSS pips; `value` 0 draws an empty (eliminated) die. */
export function die(value, label) {
  const face = el("span", "die");
  face.setAttribute("role", "img");
  face.setAttribute("aria-label", label);
  face.title = label; // "4 lives" on hover: a newcomer may not read a die as lives
  for (let i = 0; i < 9; i += 1) face.append(el("i"));
  return face;
}

/** An opponent's hand as a fan of card backs (seven at most drawn), its size beside it. */
function handFan(n) {
  const box = el("span", "hand-count");
  const fan = el("span", "fan");
  fan.setAttribute("aria-hidden", "true");
  const shown = Math.min(n, 7);
  fan.style.setProperty("--mid", String((shown - 1) / 2));
  for (let k = 0; k < shown; k += 1) {
    const back = el("i");
    back.style.setProperty("--k", String(k));
    fan.append(back);
  }
  const words = count("cards", n);
  const number = el("span", "n", String(n));
  number.setAttribute("aria-hidden", "true");
  box.append(fan, number, el("span", "visually-hidden", words));
  box.title = words;
  return box;
}

function seatElement(view, p, ui) {
  const li = el("li", "seat");
  li.dataset.seat = String(p.seat);
  const awaited = view.awaiting.includes(p.seat);
  const won = (view.winners ?? []).includes(p.seat);
  li.classList.toggle("kostic", view.kostic === p.seat);
  li.classList.toggle("awaited", awaited);
  li.classList.toggle("eliminated", p.eliminated);
  li.classList.toggle("mine", view.you === p.seat);
  li.classList.toggle("won", won);
  const name = el(p.username !== null && !p.bot ? "a" : "span", "seat-name",
    p.username === null ? t("free_seat") : ui.names[p.seat]);
  if (name.tagName === "A") name.href = `/players/${encodeURIComponent(p.username)}/`; // profile
  name.title = name.textContent; // a long name is cut with an ellipsis: whole on hover
  const lives = die(p.lives, count("lives", p.lives));
  lives.dataset.lives = String(p.lives);
  const marks = el("span", "marks");
  const mark = (cls, text) => marks.append(el("span", `mark ${cls}`, text));
  // What the seat must do first: a narrow seat cuts the marks from the end (it cut "▶ to play").
  if (awaited && view.phase) mark("mark-await", `▶ ${t(`await_${view.phase}`)}`);
  if (view.kostic === p.seat) marks.append(termify(el("span", "mark mark-kostic", t("kostic")))); // a term: explains itself
  if (view.you === p.seat) mark("mark-you", t("you"));
  if (p.bot) mark("mark-bot", t("bot"));
  awayMark(p, mark);
  if (p.team !== null && p.team !== undefined) mark(`mark-team team-${p.team}`, t("pair", { team: p.team + 1 }));
  if (p.eliminated) mark("mark-out", `✕ ${t("out")}`);
  if (won) mark("mark-won", `★ ${t("winner")}`);
  if (p.username === null) li.classList.add("free");
  li.append(name, lives, handFan(p.hand_count), marks);
  return li;
}

// Seats around the table in a 3 × 3 grid (the piles in the middle), clockwise from the bottom
// as seen from the bottom seat: the next seat (the left neighbour) sits to its left.
const AT = { B: "3 / 2", T: "1 / 2", L: "2 / 1 / 4 / 2", R: "2 / 3 / 4 / 4", UL: "2 / 1", LL: "3 / 1",
  UR: "2 / 3", LR: "3 / 3", TL: "1 / 1", TR: "1 / 3" };
const PLACES = { 2: ["B", "T"], 3: ["B", "TL", "TR"], 4: ["B", "L", "T", "R"],
  5: ["B", "LL", "UL", "UR", "LR"], 6: ["B", "LL", "UL", "T", "UR", "LR"] };

/** Me (or seat 0 for a spectator) at the bottom. */
function placeSeats(list, view) {
  const n = view.players.length;
  const base = view.you ?? 0;
  list.dataset.count = String(n);
  [...list.children].forEach((li, seat) => {
    li.style.gridArea = AT[PLACES[n]?.[(seat - base + n) % n]] ?? "auto";
  });
}

function renderSeats(root, view, ui) {
  const list = $(root, "#seats");
  list.replaceChildren(...view.players.map((p) => seatElement(view, p, ui)));
  placeSeats(list, view);
}

function renderPiles(root, view, ui) {
  const draw = $(root, "#draw");
  draw.replaceChildren(el("span", "pile-label", t("draw_pile")),
    el("span", "card back", ""), el("span", "pile-count", count("cards", view.draw_count)));
  draw.setAttribute("aria-label", `${t("draw_pile")}: ${count("cards", view.draw_count)}`);
  const discard = $(root, "#discard");
  const top = view.discard.at(-1);
  discard.setAttribute("aria-label", `${t("discard_pile")}: ${count("cards", view.discard.length)}`
    + (top ? `, ${t("top_card", { card: top })}` : ""));
  const stack = el("ol", "stack");
  view.discard.forEach((id, i) => {
    const last = i === view.discard.length - 1;
    const card = cardElement(ui.catalog, id, { tag: "li", mini: !last });
    if (ui.blocked.has(id)) card.classList.add("blocked");
    card.style.setProperty("--i", String(Math.min(view.discard.length - 1 - i, 6)));
    stack.append(card);
  });
  discard.replaceChildren(el("span", "pile-label", t("discard_pile")), stack,
    el("span", "pile-count", view.discard.length ? count("cards", view.discard.length) : t("empty")));
  const under = view.discard.at(-2); // R25: a blocked play lies just under its blocking card
  if (under && ui.blocked.has(under)) {
    const note = el("span", "pile-note");
    note.append(el("s", "", under), ` ${t("blocked")}`);
    discard.append(note);
  }
  const countdown = $(root, "#countdown");
  countdown.hidden = view.countdown === null;
  if (view.countdown !== null) {
    const label = view.countdown > 1 ? count("countdown_left", view.countdown) : t("countdown_last");
    const face = die(view.countdown, label);
    face.dataset.lives = String(view.countdown);
    const left = view.countdown > 1 ? count("turns_left", view.countdown) : t("last_turn");
    countdown.replaceChildren(el("span", "pile-label", t("countdown")), face, el("span", "pile-count", left));
  }
}

/** Refresh the live countdown of `#deadline` (called every second by table.js). */
export function tickDeadline(root) {
  const box = $(root, "#deadline");
  if (!box || box.hidden) return;
  if (root.dataset.status !== "active") return void (box.hidden = true);
  const iso = box.dataset.deadline;
  const over = Date.parse(iso) <= Date.now();
  const time = el("time", "", over ? t("overdue") : t("deadline", { time: timeLeft(iso) }));
  time.dateTime = iso;
  box.classList.toggle("overdue", over);
  box.replaceChildren(time);
}

function renderDeadline(root, view) {
  const box = $(root, "#deadline");
  if (!box) return;
  box.hidden = !view.deadline || view.status !== "active";
  if (box.hidden) return;
  box.dataset.deadline = view.deadline;
  tickDeadline(root);
}

function renderPending(root, view, ui) {
  const box = $(root, "#pending");
  const p = view.pending;
  box.hidden = !p;
  if (!p) return box.replaceChildren();
  const name = (seat) => ui.names[seat];
  const effect = effectText({ colour: p.colour, kind: p.kind });
  const line = el("p", "pending-line");
  const fields = { who: name(p.seat), card: cardRef(p.card, { hook: false }), effect, target: name(p.target) };
  line.append(tNodes(pendingKey(p, view.you), fields));
  const card = cardElement(ui.catalog, p.card);
  card.querySelector(`[data-effect-index="${p.effect}"]`)?.classList.add("chosen");
  const notes = el("ul", "pending-notes");
  const note = (text, cls = "") => notes.append(el("li", cls, text));
  if (view.phase === "block") note(t("block_open"), "note-block");
  if (p.resolving !== null && p.resolving !== undefined) {
    note(p.resolving === view.you ? t("resolving_you") : t("resolving", { who: name(p.resolving) }));
  }
  if (p.duel) {
    note(t("duel_state", { a: name(p.duel.seats[0]), b: name(p.duel.seats[1]) }));
    if (p.duel.bet) note(t("duel_bet", { who: name(p.duel.bettor), value: t(`bet_${p.duel.bet[1]}`) }));
    else note(t("duel_bettor", { who: name(p.duel.bettor) }));
  }
  if (p.handoff !== undefined && p.handoff !== null) note(t("handoff_state", { who: name(p.handoff) }));
  const text = el("div", "pending-text");
  text.append(line, notes);
  box.replaceChildren(card, text);
}

function renderHand(list, ids, ui, tag) {
  if (!list) return;
  if (!ids.length) return list.replaceChildren(el("li", "no-cards", t("no_cards")));
  const shown = [...list.querySelectorAll("[data-card]")].map((node) => node.dataset.card);
  if (shown.join() === ids.join()) return; // unchanged: keep the buttons (focus, a click under way)
  list.replaceChildren(...ids.map((id) => {
    const li = el("li");
    li.append(cardElement(ui.catalog, id, { tag }));
    return li;
  }));
}

/** Places at the end: the winners first (R20 pairs: their pair), then by lives and cards in
 * hand (the rule's tie-break), the players out after them, the last one out first when the log
 * says in which order (`ui.outOrder`); equal players share a place. [{seat, place}] */
export function places(view, outOrder = []) {
  const winners = new Set(view.winners ?? []);
  const outRank = (seat) => outOrder.indexOf(seat);
  const key = (p) => [winners.has(p.seat) ? 1 : 0, p.eliminated ? 0 : 1, p.lives, p.hand_count,
    p.eliminated ? outRank(p.seat) : 0];
  const sorted = [...view.players].sort((a, b) => {
    const [ka, kb] = [key(a), key(b)];
    for (let i = 0; i < ka.length; i += 1) if (ka[i] !== kb[i]) return kb[i] - ka[i];
    return a.seat - b.seat;
  });
  let place = 0;
  return sorted.map((p, i) => {
    const prev = sorted[i - 1];
    if (!prev || JSON.stringify(key(prev)) !== JSON.stringify(key(p))) place = i + 1;
    return { seat: p.seat, place };
  });
}

function placeWord(n) {
  return t("place", { n, th: LANG === "en" ? (["st", "nd", "rd"][n - 1] ?? "th") : "" });
}

/** The end: the winners, my own result, every place with its lives, the replay. */
function renderWinners(root, view, ui) {
  const box = $(root, "#winners");
  const winners = view.winners ?? [];
  box.hidden = winners.length === 0;
  if (!winners.length) return box.replaceChildren();
  const names = winners.map((seat) => ui.names[seat]).join(", ");
  const out = [el("h2", "winners-title", `★ ${t(winners.length > 1 ? "winners_many" : "winners_one", { names })} ★`)];
  const ranked = places(view, ui.outOrder ?? []);
  const mine = ranked.find((r) => r.seat === view.you);
  if (mine) {
    const me = view.players[view.you];
    const text = winners.includes(view.you) ? t("you_win")
      : t("your_place", { place: placeWord(mine.place), of: view.players.length, lives: count("lives", me.lives) });
    out.push(el("p", winners.includes(view.you) ? "you-win" : "your-result", text));
  }
  const list = el("ol", "places");
  list.setAttribute("aria-label", t("places"));
  ranked.forEach(({ seat, place }) => {
    const p = view.players[seat];
    const li = el("li", winners.includes(seat) ? "won" : "");
    li.dataset.placeOf = String(seat);
    const face = die(p.lives, count("lives", p.lives));
    face.dataset.lives = String(p.lives);
    li.append(el("span", "place", placeWord(place)), el("span", "", ui.names[seat]), face,
      el("span", "visually-hidden", count("lives", p.lives)));
    list.append(li);
  });
  out.push(list);
  if (!ui.replay) {
    const links = el("p", "end-links");
    const replay = el("a", "", t("end_replay"));
    replay.href = `/games/${view.id}/replay/`;
    const lobby = el("a", "", t("end_new_game"));
    lobby.href = "/#create-game";
    links.append(replay, lobby);
    out.push(links);
  }
  box.replaceChildren(...out);
}

function renderAllHands(root, view, ui) {
  const box = $(root, "#hands");
  box.hidden = !view.hands;
  if (!view.hands) return box.replaceChildren();
  const rows = view.hands.map((hand, seat) => {
    const row = el("div", "revealed");
    row.dataset.handOf = String(seat);
    const list = el("ul", "hand small");
    renderHand(list, hand, ui, "div");
    row.append(el("h3", "", ui.names[seat]), list);
    return row;
  });
  const grid = el("div", "hands-grid");
  grid.append(...rows);
  box.replaceChildren(el("h2", "", t("hands_title")), grid);
}

function renderStatus(root, view, ui) {
  const box = $(root, "#status");
  const variant = t(`variant_${view.variant}`);
  const taken = view.players.filter((p) => p.username !== null).length;
  let text = t(`status_${view.status}`, { turn: view.turn, variant, taken, seats: view.players.length });
  if (view.status === "active" && view.awaiting.length) {
    const names = view.awaiting.map((seat) => ui.names[seat]).join(", ");
    text += ` · ${view.awaiting.includes(view.you) && view.legal.length ? t("your_decision") : t("waiting_for", { names })}`;
  }
  if (view.rigged) text += ` · ${t("rigged")}`;
  // A spectator of a delayed game is shown the past (issue 10): say so, and by how much.
  if (view.delayed) text += ` · ${count("delayed", view.options.spectator_delay)}`;
  root.dataset.status = view.status; // the deadline's clock stops at the end (tickDeadline)
  root.dataset.delayed = view.delayed ? String(view.options.spectator_delay) : "";
  box.textContent = text;
}

/** Draw `view` into `root` (#table or #replay); `ui` holds catalog, names and blocked cards. */
export function renderView(root, view, ui) {
  ui.names = displayNames(view.players);
  renderStatus(root, view, ui);
  keepTermFocus(root, () => { // a focused term (Kostič, LOWHP …) stays focused through a redraw
    renderSeats(root, view, ui);
    renderPiles(root, view, ui);
    renderDeadline(root, view);
    renderPending(root, view, ui);
  });
  renderHand($(root, "#hand"), view.hand ?? [], ui, ui.replay ? "div" : "button");
  const handArea = $(root, "#hand-area");
  if (handArea && ui.replay) handArea.hidden = !(view.hand ?? []).length || Boolean(view.hands);
  const partner = $(root, "#partner");
  if (partner) partner.hidden = !view.partner_hand;
  renderHand($(root, "#partner-hand"), view.partner_hand ?? [], ui, "div");
  renderWinners(root, view, ui);
  renderAllHands(root, view, ui);
  root.dataset.seq = String(view.seq);
}

/** The head's "Game log" button: on a narrow screen it opens and closes the drawer (#side)
 * that holds the log and the chat; beside the table on a wide screen it is not shown. */
export function wireSideToggle(root) {
  const toggle = root.querySelector("#side-toggle");
  const side = root.querySelector("#side");
  if (!toggle || !side) return;
  toggle.addEventListener("click", () => {
    const open = !side.classList.contains("open");
    side.classList.toggle("open", open);
    toggle.setAttribute("aria-expanded", String(open));
    if (open) side.scrollIntoView({ block: "start" });
  });
}
