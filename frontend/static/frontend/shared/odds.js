// Each seat's odds turn by turn (issue 30; GET /api/games/{id}/odds/), drawn under the replay
// viewer's scrubber as an SVG chart: one line per seat from the start of every turn, the shown
// moment marked, a click jumps to that turn. The odds are computed in the background once the
// game has ended: while they are pending (202) the chart says so and asks again; a game still
// being played (409) has none. The figures are also a table, for screen readers and keyboards.

import { api } from "./api.js";
import { t } from "./i18n.js";
import { currentSeq, jumpTo, onMoment } from "./replay_position.js";
import { displayNames, el } from "./render.js";


const SVG = "http://www.w3.org/2000/svg";
const COLOURS = ["#1b6ca8", "#c2410c", "#15803d", "#7c3aed", "#b91c1c", "#0f766e"];
// Low enough that the replay's table stays on the screen with the scrubber and the chart.
const H = 72, PAD = { left: 38, right: 10, top: 6, bottom: 20 };
const RETRY_MS = 3000;

function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

function draw(box, root, odds, names, last) {
  const { points } = odds;
  const W = Math.max(320, Math.round(box.clientWidth || 640)); // drawn at the page's width
  const x = (seq) => PAD.left + ((seq - 1) / Math.max(last - 1, 1)) * (W - PAD.left - PAD.right);
  const y = (p) => PAD.top + (1 - p) * (H - PAD.top - PAD.bottom);
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "odds-chart", role: "img", "aria-labelledby": "odds-title odds-desc" });
  const desc = svg("desc", { id: "odds-desc" });
  desc.textContent = t("odds_chart");
  chart.append(desc);
  for (const p of [0, 0.5, 1]) {
    chart.append(svg("line", { x1: PAD.left, x2: W - PAD.right, y1: y(p), y2: y(p), class: "odds-grid" }));
    const label = svg("text", { x: PAD.left - 4, y: y(p) + 4, class: "odds-axis", "text-anchor": "end" });
    label.textContent = `${Math.round(p * 100)}%`;
    chart.append(label);
  }
  names.forEach((_, seat) => {
    const line = points.map((pt) => `${x(pt.seq).toFixed(1)},${y(pt.win[seat]).toFixed(1)}`).join(" ");
    chart.append(svg("polyline", { points: line, fill: "none", stroke: COLOURS[seat % COLOURS.length], "stroke-width": 2, class: "odds-line", "data-odds-seat": seat }));
  });
  for (const pt of [points[0], points[points.length - 1]]) {
    const label = svg("text", { x: x(pt.seq), y: H - 6, class: "odds-axis", "text-anchor": "middle" });
    label.textContent = t("odds_turn", { seq: pt.seq });
    chart.append(label);
  }
  const marker = svg("line", { y1: PAD.top, y2: H - PAD.bottom, class: "odds-now" });
  chart.append(marker);
  const mark = (seq) => { marker.setAttribute("x1", x(seq)); marker.setAttribute("x2", x(seq)); };
  mark(currentSeq(root));
  onMoment(root, mark);
  chart.addEventListener("click", (event) => {
    const box = chart.getBoundingClientRect();
    const at = ((event.clientX - box.left) / box.width) * W; // in the viewBox's units
    const nearest = points.reduce((best, pt) => (Math.abs(x(pt.seq) - at) < Math.abs(x(best.seq) - at) ? pt : best), points[0]);
    if (nearest) jumpTo(nearest.seq);
  });
  const legend = el("ul", "odds-legend");
  legend.append(...names.map((name, seat) => {
    const li = el("li");
    const swatch = el("span", "odds-swatch");
    swatch.style.background = COLOURS[seat % COLOURS.length];
    li.append(swatch, ` ${name}`);
    return li;
  }));
  const err = Math.sqrt(0.25 / odds.playouts).toFixed(2);
  const summary = el("p", "odds-note", t("odds_summary", { n: odds.playouts, err }));
  box.replaceChildren(title(), chart, legend, summary, table(points, names));
}

function title() {
  const h = el("h2", "odds-title", t("odds_title"));
  h.id = "odds-title";
  return h;
}

function table(points, names) {
  const details = el("details", "odds-table");
  details.append(el("summary", "", t("odds_table")));
  const tab = el("table");
  const head = el("tr");
  head.append(el("th", "", ""), ...names.map((n) => Object.assign(el("th", "", n), { scope: "col" })));
  tab.append(head);
  for (const pt of points) {
    const row = el("tr");
    const th = Object.assign(el("th"), { scope: "row" });
    const jump = Object.assign(el("button", "link-button", t("odds_turn", { seq: pt.seq })), { type: "button" });
    jump.setAttribute("aria-label", t("odds_jump", { seq: pt.seq }));
    jump.addEventListener("click", () => jumpTo(pt.seq));
    th.append(jump);
    row.append(th, ...pt.win.map((p) => el("td", "", `${Math.round(p * 100)}%`)));
    tab.append(row);
  }
  details.append(tab);
  return details;
}

async function load(box, root) {
  const gameId = root.dataset.game;
  const last = Number(root.dataset.last);
  let players;
  for (;;) {
    let odds;
    try {
      odds = await api(`/api/games/${gameId}/odds/`);
    } catch {
      box.hidden = true; // a game still being played (409), or none: no chart
      return;
    }
    if (odds.points && !odds.points.length) { // a game that ended before its first turn
      box.hidden = true;
      return;
    }
    if (odds.points) {
      players = players ?? (await api(`/api/games/${gameId}/`)).players;
      box.hidden = false; // first: the chart is drawn at the box's width
      draw(box, root, odds, displayNames(players), last);
      return;
    }
    box.hidden = false;
    box.replaceChildren(title(), el("p", "odds-note", t("odds_pending")));
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
}

const box = document.getElementById("odds");
const root = document.getElementById("replay");
if (box && root) load(box, root);
