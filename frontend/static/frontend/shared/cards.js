// Card faces: both effects of a card in their colours, the colour named in words, the effect's
// line in the page's language (bold) and its one short explanation. Every word comes from the one
// source, frontend/card_words.py, read from the page by glossary.js (docs/PLAYING.md).
// Colour is never the only cue.

import { termify, CARD_WORDS } from "./glossary.js";
import { LANG } from "./i18n.js";

/** Effect id -> [Czech card line, English card line] (kept for callers of the old table). */
export const EFFECTS = Object.fromEntries(Object.entries(CARD_WORDS.effects)
  .map(([kind, words]) => [kind, [words.cs[0], words.en[0]]]));

export function colourWord(colour) {
  return CARD_WORDS.colours[LANG]?.[colour] ?? colour;
}

function scopeWord(colour) {
  return CARD_WORDS.scopes[LANG]?.[colour] ?? "";
}

/** The bold line of an effect in the page's language: "Gain 1 life" / "Přidej si 1 život". */
export function effectLabel(kind) {
  return CARD_WORDS.effects[kind]?.[LANG]?.[0] ?? kind;
}

/** The effect's one short explanation in the page's language. */
export function effectExplanation(kind) {
  return CARD_WORDS.effects[kind]?.[LANG]?.[1] ?? "";
}

/** The effect in words for log lines and prompts, in the page's language, always naming the
 * colour: "green: Duel". */
export function effectText(effect) {
  return `${colourWord(effect.colour)}: ${effectLabel(effect.kind)}`;
}

/** Both effects of card `id` in the page's language, as its face says them:
 * "blue, one or everyone: Gain 1 life; red, everyone: Lose 1 life" (accessible names such as
 * "Block with …"); "" for a card not in the catalogue. */
export function cardEffectsText(catalog, id) {
  return (catalog[id] ?? []).map((e) => `${colourWord(e.colour)}, ${scopeWord(e.colour)}: ${effectLabel(e.kind)}`)
    .join("; ");
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// One sign per effect kind, drawn beside its words on a card (decorative: the words say it).
const ICONS = {
  LOSE_1: "−1", GAIN_1: "+1", GIVE_NEIGHBOR: "♥→", STEAL_NEIGHBOR: "♥←", SWAP_NEIGHBOR: "⇄",
  BLAST: "✸", DUEL: "⚔", HALVE_EVEN: "½", DOUBLE_LOW: "×2", LOW_UP_TOP_DOWN: "⇅",
  LOW_2_TOP_5: "2|5", ODD_UP: "↑", EVEN_DOWN: "↓",
};

function effectFace(effect, index) {
  const face = el("span", `effect colour-${effect.colour}`);
  face.dataset.effectIndex = String(index);
  face.dataset.kind = effect.kind;
  const icon = el("span", "effect-icon", ICONS[effect.kind] ?? "•");
  icon.setAttribute("aria-hidden", "true");
  const label = el("span", "effect-colour", colourWord(effect.colour));
  label.append(el("span", "effect-scope", ` · ${scopeWord(effect.colour)}`));
  face.append(icon, label, el("span", "effect-label", effectLabel(effect.kind)),
    el("span", "effect-explain", effectExplanation(effect.kind)));
  return face;
}

/**
 * A card drawn with CSS: `tag` is "button" for a playable hand card, else "div"/"li".
 * `mini` draws the small pile form (id and colours only); the card keeps data-card=id.
 */
export function cardElement(catalog, id, { tag = "div", mini = false } = {}) {
  const card = el(tag, mini ? "card mini" : "card");
  card.dataset.card = id;
  if (tag === "button") card.type = "button";
  const effects = catalog[id];
  card.append(el("span", "card-id", id));
  if (!effects) return card;
  if (mini) {
    card.append(...effects.map((e) => el("span", `pip colour-${e.colour}`, colourWord(e.colour))));
    return card;
  }
  card.append(...effects.map(effectFace));
  if (tag === "button") card.setAttribute("aria-label", `${id}: ${cardEffectsText(catalog, id)}`);
  // Kostič, LOWHP … explain themselves (glossary.js): focusable links on a card that is no
  // control; on a button (or a span that goes into one) they explain themselves on hover only.
  termify(card, { focusable: tag === "div" || tag === "li" });
  return card;
}

/** A card id in running text (the log, prompts): an element with data-card (API.md hooks). */
// A card named in text. In the log it is the card shown there (`data-card`, API.md); beside a
// card element that already carries the hook (the pending play) it is a plain reference.
export function cardRef(id, { hook = true } = {}) {
  const ref = el("b", "cardref", id);
  if (hook) ref.dataset.card = id;
  return ref;
}
