// Motion only where it explains (issue 8, Look): a played card travels from its player to the
// table and on to the discard pile; a blocked effect is struck through on its way there.
// Nothing moves when the system asks for reduced motion.

const reduced = window.matchMedia("(prefers-reduced-motion: reduce)");

/** Where cards and seats are before a re-render. */
export function capture(root) {
  const rects = new Map();
  root.querySelectorAll("#hand [data-card], #pending .card[data-card]").forEach((node) => {
    rects.set(node.dataset.card, node.getBoundingClientRect());
  });
  const seats = new Map();
  root.querySelectorAll("#seats [data-seat]").forEach((node) => {
    seats.set(Number(node.dataset.seat), node.getBoundingClientRect());
  });
  const pending = root.querySelector("#pending .card[data-card]");
  const top = root.querySelector("#discard .stack > :last-child");
  return { rects, seats, pending: pending?.cloneNode(true), pendingRect: pending?.getBoundingClientRect(), top: top?.dataset.card };
}

function centre(r) {
  return [r.left + r.width / 2, r.top + r.height / 2];
}

/** `node` travels from the rect `from` to where it lies. While it moves it stays under every
 * control (table.css lifts controls above moving cards), so a flight never covers a button. */
function fly(node, from, { duration = 450, delay = 0 } = {}) {
  if (!from) return null;
  const to = node.getBoundingClientRect();
  if (!to.width) return null;
  const [fx, fy] = centre(from);
  const [tx, ty] = centre(to);
  const scale = Math.min(Math.max(from.width / to.width, 0.3), 2);
  return node.animate([
    { transform: `translate(${fx - tx}px, ${fy - ty}px) scale(${scale})`, opacity: 0.7 },
    { transform: "none", opacity: 1 },
  ], { duration, delay, fill: "backwards", easing: "cubic-bezier(.2,.7,.3,1)" });
}

/** A copy of the blocked play, struck through, laid on the discard pile where the played card
 * now lies under its blocker (R25), then fading into it. It is drawn inside the pile, which
 * holds no control, and scrolls with it: it never covers a button (issue 18; it used to sit
 * 1.4 s in fixed position where the pending play had been, over the next prompt). */
function strike(before, stack) {
  const card = before.pending;
  card.removeAttribute("data-card"); // a picture of a card already in the pile, not a card
  card.classList.add("struck");
  const ghost = document.createElement("li"); // the pile is a list
  ghost.className = "ghost";
  ghost.setAttribute("aria-hidden", "true");
  ghost.inert = true; // its term links (glossary.js) must not take the focus while hidden
  ghost.append(card);
  stack.prepend(ghost); // first: the pile's top stays its last child
  const move = ghost.animate([
    { opacity: 1, transform: "none", offset: 0 },
    { opacity: 1, transform: "none", offset: 0.55 },
    { opacity: 0, transform: "translate(6px, 6px) scale(.92)" },
  ], { duration: 900, easing: "ease-in" });
  move.onfinish = () => ghost.remove();
}

/** Animate what moved between `before` and the table just drawn. */
export function animate(root, before, view, { blocked, cameFrom }) {
  if (reduced.matches || !before) return;
  const fromSeat = (id) => before.seats.get(cameFrom.get(id));
  const pending = root.querySelector("#pending .card[data-card]");
  const oldPending = before.pending?.dataset.card;
  if (pending && pending.dataset.card !== oldPending) {
    const id = pending.dataset.card;
    fly(pending, before.rects.get(id) ?? fromSeat(id) ?? before.seats.get(view.pending?.seat));
  }
  const top = root.querySelector("#discard .stack > :last-child");
  if (!top || top.dataset.card === before.top) return;
  if (oldPending && blocked.has(oldPending) && before.pendingRect?.width) {
    strike(before, top.parentElement);
    fly(top, before.rects.get(top.dataset.card) ?? fromSeat(top.dataset.card), { duration: 700, delay: 350 });
  } else {
    fly(top, before.rects.get(top.dataset.card) ?? before.pendingRect ?? fromSeat(top.dataset.card));
  }
}

const PACE_MS = 750; // one move on the felt at a time, readable (issue 29)
const HOLD_MS = 1800; // how long a seat shows its −1 / +1

function span(className, text) {
  const node = document.createElement("span");
  node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A die face like render.js's (pips by data-lives), thrown in. */
function thrownDie(value) {
  const face = span("die thrown");
  face.dataset.lives = String(value);
  for (let i = 0; i < 9; i += 1) face.append(document.createElement("i"));
  return face;
}

/**
 * The moves of a batch shown one at a time in the felt's #beat row (a row of its own, under
 * the piles: it covers nothing): "bot#1: C25 → Eva", a thrown die, "Eva 6 → 5" with −1 on her
 * seat. Skipped by a click on the felt or Escape; with reduced motion nothing is queued (the
 * log and the prompt's "since your move" say it all at once).
 */
export class Beats {
  constructor(root) {
    this.root = root;
    this.box = root.querySelector("#beat");
    this.queue = [];
    this.timer = null;
    this.deltas = new Map(); // seat -> {value, until}
    root.querySelector(".felt")?.addEventListener("click", () => this.skip());
    document.addEventListener("keydown", (e) => { if (e.key === "Escape") this.skip(); });
  }

  /** Queue beats (log.js's) from live events. */
  add(beats) {
    if (!this.box || reduced.matches) return;
    this.queue.push(...beats.filter((b) => !b.quiet));
    if (!this.timer) this.next();
  }

  next() {
    const beat = this.queue.shift();
    if (!beat) return this.idle();
    const line = span("beat-line", beat.text);
    if (beat.die) line.prepend(thrownDie(beat.die));
    if (beat.coin) line.prepend(span("coin thrown", beat.coin === "heads" ? "H" : "T"));
    this.box.replaceChildren(line);
    this.box.classList.remove("idle");
    (beat.lives ?? []).forEach(([seat, value]) => this.deltas.set(seat, { value, until: performance.now() + HOLD_MS }));
    this.decorate();
    // A long batch goes faster, so the felt never lags far behind the table.
    this.wait(this.queue.length > 4 ? PACE_MS / 2 : PACE_MS);
  }

  /** The next beat after `ms`, timed by animation frames (a beat is something seen). */
  wait(ms) {
    const due = performance.now() + ms;
    const frame = (now) => {
      if (this.timer === null) return; // skipped
      if (now >= due) this.next();
      else this.timer = requestAnimationFrame(frame);
    };
    this.timer = requestAnimationFrame(frame);
  }

  idle() {
    this.timer = null;
    this.box?.classList.add("idle");
    this.box?.replaceChildren();
  }

  skip() {
    cancelAnimationFrame(this.timer);
    this.queue = [];
    this.deltas.clear();
    this.root.querySelectorAll("#seats .delta").forEach((node) => node.remove());
    this.idle();
  }

  /** Put the current −1 / +1 on their seats (again after a redraw of the seats). */
  decorate() {
    const now = performance.now();
    this.deltas.forEach(({ value, until }, seat) => {
      const li = this.root.querySelector(`#seats [data-seat="${seat}"]`);
      li?.querySelector(".delta")?.remove();
      if (until <= now || !li) return void this.deltas.delete(seat);
      const badge = span(`delta ${value < 0 ? "down" : "up"}`, value < 0 ? `−${-value}` : `+${value}`);
      badge.setAttribute("aria-hidden", "true");
      li.append(badge);
      setTimeout(() => { badge.remove(); }, until - now);
    });
  }
}
