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

function fly(node, from, { duration = 450 } = {}) {
  if (!from) return null;
  const to = node.getBoundingClientRect();
  if (!to.width) return null;
  const [fx, fy] = centre(from);
  const [tx, ty] = centre(to);
  const scale = Math.min(Math.max(from.width / to.width, 0.3), 2);
  return node.animate([
    { transform: `translate(${fx - tx}px, ${fy - ty}px) scale(${scale})`, opacity: 0.7 },
    { transform: "none", opacity: 1 },
  ], { duration, easing: "cubic-bezier(.2,.7,.3,1)" });
}

/** A copy of the blocked play, struck through where it lay, travelling to the discard pile. */
function strike(before, target) {
  const ghost = before.pending;
  const r = before.pendingRect;
  Object.assign(ghost.style, { position: "fixed", left: `${r.left}px`, top: `${r.top}px`,
    width: `${r.width}px`, margin: 0, zIndex: 5, pointerEvents: "none" });
  ghost.removeAttribute("data-card"); // a picture of a card already in the pile, not a card
  ghost.setAttribute("aria-hidden", "true");
  ghost.inert = true; // its term links (glossary.js) must not take the focus while hidden
  ghost.classList.add("struck");
  (target.closest(".table") ?? document.body).append(ghost); // inside: the colours live there
  const to = target.getBoundingClientRect();
  const [fx, fy] = centre(r);
  const [tx, ty] = centre(to);
  const move = ghost.animate([
    { transform: "none", opacity: 1, offset: 0 },
    { transform: "none", opacity: 1, offset: 0.6 },
    { transform: `translate(${tx - fx}px, ${ty - fy}px) scale(${to.width / r.width})`, opacity: 0 },
  ], { duration: 1400, easing: "ease-in" });
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
    strike(before, top);
    fly(top, before.rects.get(top.dataset.card) ?? fromSeat(top.dataset.card), { duration: 700 });
  } else {
    fly(top, before.rects.get(top.dataset.card) ?? before.pendingRect ?? fromSeat(top.dataset.card));
  }
}
