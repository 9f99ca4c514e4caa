// The game's words from their one source (frontend/card_words.py, rendered into the page as the
// JSON #card-words by {% card_words_script %}), and the terms that explain themselves: a term
// (Kostič, LOWHP, HIGHHP, TOPHP, MINHP) on the table is a link to its place on /rules/ that
// shows its meaning in a tooltip on hover and on keyboard focus (aria-describedby for screen
// readers; Escape closes the tooltip).

import { LANG } from "./i18n.js";

const source = document.getElementById("card-words");
/** {colours, scopes, effects: {KIND: {en: [label, explain, yourself], cs: [...]}},
 * rules: {KIND: the engine's effect table row}, terms: {key: {word, en, cs}}} */
export const CARD_WORDS = source ? JSON.parse(source.textContent)
  : { colours: {}, scopes: {}, effects: {}, rules: {}, terms: {} };

const TERM_KEYS = Object.keys(CARD_WORDS.terms);
// "Kostič" is inflected in Czech ("Kostiče", "Kostičem"): a term is its word and any ending.
const TERM_PATTERN = TERM_KEYS.length
  ? new RegExp(`(${TERM_KEYS.map((k) => CARD_WORDS.terms[k].word).join("|")})\\p{L}*`, "gu") : null;

function termKey(text) {
  return TERM_KEYS.find((k) => text.startsWith(CARD_WORDS.terms[k].word));
}

/** The meaning of a term in the page language, "LOWHP: A player with 1–3 lives (few)." */
export function termMeaning(key) {
  const term = CARD_WORDS.terms[key];
  return term ? `${term.word}: ${term[LANG]}` : "";
}

// One hidden definition per term, referenced by every term on the page (aria-describedby).
function definition(key) {
  const id = `term-def-${key}`;
  if (!document.getElementById(id)) {
    let box = document.getElementById("term-definitions");
    if (!box) {
      box = document.createElement("div");
      box.id = "term-definitions";
      box.hidden = true;
      document.body.append(box);
    }
    const def = document.createElement("span");
    def.id = id;
    def.textContent = termMeaning(key);
    box.append(def);
  }
  return id;
}

/** A term as a focusable link to its place on the rules page (a new tab: the table stays). */
export function termLink(key, text = CARD_WORDS.terms[key]?.word ?? key) {
  const link = document.createElement("a");
  link.className = "term";
  link.dataset.term = key;
  link.href = `/rules/#term-${key}`;
  link.target = "_blank";
  link.rel = "noopener";
  link.textContent = text;
  link.setAttribute("aria-describedby", definition(key));
  return link;
}

function termSpan(key, text) {
  const span = document.createElement("span"); // inside a button: hover only, no nested control
  span.className = "term";
  span.dataset.term = key;
  span.textContent = text;
  return span;
}

/** Wrap every term in the text of `node` (in place); inside a button the terms only explain
 * themselves on hover, as a button may hold no other control. Returns `node`. */
export function termify(node, { focusable = !node.closest?.("button") } = {}) {
  if (!TERM_PATTERN) return node;
  const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
  const texts = [];
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    if (!t.parentElement?.closest(".term")) texts.push(t);
  }
  for (const text of texts) {
    const found = [...text.data.matchAll(TERM_PATTERN)];
    if (!found.length) continue;
    const out = document.createDocumentFragment();
    let at = 0;
    for (const match of found) {
      out.append(text.data.slice(at, match.index));
      const key = termKey(match[0]);
      out.append(focusable ? termLink(key, match[0]) : termSpan(key, match[0]));
      at = match.index + match[0].length;
    }
    out.append(text.data.slice(at));
    text.replaceWith(out);
  }
  return node;
}

/** Keep keyboard focus on a term while `draw()` redraws the part of the page that holds it
 * (the table redraws the seats and the pending play on every move). */
export function keepTermFocus(root, draw) {
  const focused = document.activeElement;
  const term = focused?.classList?.contains("term") && root.contains(focused) ? focused : null;
  const place = term?.closest("[data-seat], #pending, #discard, #hand, #partner-hand, #hands");
  const index = place ? [...place.querySelectorAll("a.term")].indexOf(term) : -1;
  const selector = place?.dataset.seat !== undefined ? `[data-seat="${place.dataset.seat}"]` : place ? `#${place.id}` : null;
  draw();
  if (!selector || index < 0) return;
  const again = root.querySelector(selector)?.querySelectorAll("a.term")[index];
  if (again && again !== document.activeElement) again.focus({ preventScroll: true });
}

// The tooltip: one element for the page, placed beside the term under the pointer or focus.
let tip = null;
let hideTimer = 0;
let shownFor = null; // the term the tooltip explains now

function tooltip() {
  if (!tip) {
    tip = document.createElement("div");
    tip.className = "term-tip";
    tip.setAttribute("role", "tooltip");
    tip.hidden = true;
    tip.addEventListener("mouseenter", () => clearTimeout(hideTimer)); // hoverable (WCAG 1.4.13)
    tip.addEventListener("mouseleave", () => hide(0));
    document.body.append(tip);
  }
  return tip;
}

function show(term) {
  clearTimeout(hideTimer);
  shownFor = term;
  const box = tooltip();
  box.textContent = termMeaning(term.dataset.term);
  box.hidden = false;
  const at = term.getBoundingClientRect();
  const width = Math.min(box.offsetWidth, window.innerWidth - 16);
  const left = Math.max(8, Math.min(at.left, window.innerWidth - width - 8));
  const below = at.bottom + 6 + box.offsetHeight <= window.innerHeight;
  box.style.left = `${left}px`;
  box.style.top = `${below ? at.bottom + 6 : Math.max(8, at.top - 6 - box.offsetHeight)}px`;
}

function hide(delay = 150) {
  clearTimeout(hideTimer);
  hideTimer = setTimeout(() => { if (tip) tip.hidden = true; }, delay);
}

const termOf = (event) => event.target.closest?.(".term[data-term]");
document.addEventListener("mouseover", (e) => { const t = termOf(e); if (t) show(t); });
document.addEventListener("mouseout", (e) => { if (termOf(e)) hide(); });
document.addEventListener("focusin", (e) => { const t = termOf(e); if (t) show(t); });
document.addEventListener("focusout", (e) => { if (termOf(e)) hide(0); });
document.addEventListener("keydown", (e) => { if (e.key === "Escape" && tip && !tip.hidden) hide(0); });
// Scrolling (also the browser bringing a focused term into view) moves the tooltip with its term.
window.addEventListener("scroll", () => {
  if (!tip || tip.hidden) return;
  if (shownFor?.isConnected) show(shownFor);
  else hide(0);
}, { passive: true, capture: true });
