// The profile's rating history as a small line chart: an inline SVG drawn from the
// #rating-history JSON the page carries (API.md "Players": [{game, ordinal, at}], oldest first).
// The figure's caption is the chart's text alternative; a table of the same points follows it.

import "../shared/times.js"; // the page's <time data-when> in the reader's zone

const SVG = "http://www.w3.org/2000/svg";
const W = 640, H = 200, PAD = { left: 44, right: 12, top: 12, bottom: 24 };

function node(tag, attrs, text) {
  const el = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, String(value));
  if (text !== undefined) el.textContent = text;
  return el;
}

/** Round "nice" bounds around the values, so the axis labels read well. */
function bounds(values) {
  const low = Math.floor(Math.min(0, ...values));
  const high = Math.ceil(Math.max(1, ...values));
  return [low, high === low ? low + 1 : high];
}

export function drawChart(box, history, labelGame) {
  const values = history.map((point) => point.ordinal);
  const [low, high] = bounds(values);
  const x = (i) => PAD.left + (history.length < 2 ? (W - PAD.left - PAD.right) / 2
    : (i * (W - PAD.left - PAD.right)) / (history.length - 1));
  const y = (v) => PAD.top + ((high - v) * (H - PAD.top - PAD.bottom)) / (high - low);
  const svg = node("svg", { viewBox: `0 0 ${W} ${H}`, role: "img",
    "aria-labelledby": "rating-chart-caption", class: "rating-chart__svg" });
  for (const v of [low, 0, high].filter((v, i, all) => all.indexOf(v) === i)) {
    svg.append(node("line", { x1: PAD.left, x2: W - PAD.right, y1: y(v), y2: y(v),
      class: v === 0 ? "axis axis--zero" : "axis" }));
    svg.append(node("text", { x: PAD.left - 6, y: y(v) + 4, "text-anchor": "end",
      class: "label" }, String(v)));
  }
  const points = history.map((point, i) => `${x(i).toFixed(1)},${y(point.ordinal).toFixed(1)}`);
  svg.append(node("polyline", { points: points.join(" "), class: "line" }));
  history.forEach((point, i) => {
    const dot = node("circle", { cx: x(i), cy: y(point.ordinal), r: 3.5, class: "dot" });
    dot.append(node("title", {}, `${labelGame} ${point.game}: ${point.ordinal.toFixed(2)}`));
    svg.append(dot);
  });
  box.replaceChildren(svg);
}

const box = document.querySelector("[data-chart]");
const data = document.getElementById("rating-history");
if (box && data) {
  const history = JSON.parse(data.textContent);
  if (history.length) drawChart(box, history, box.dataset.labelGame);
}
