// Card faces: both effects of a card in their colours, the colour named in words, the Czech
// text of the card sheet (RULES.md, section 3) and an English line. Colour is never the only cue.

import { LANG } from "./i18n.js";

// Effect id -> [Czech sheet text, English line].
export const EFFECTS = {
  LOSE_1: ["Uber si 1 život", "Lose 1 life"],
  GAIN_1: ["Přidej si 1 život", "Gain 1 life"],
  GIVE_NEIGHBOR: ["Dej sousedovi 1 svůj život", "Give a neighbour 1 of your lives"],
  STEAL_NEIGHBOR: ["Vezmi sousedovi 1 život a přidej si ho", "Take 1 life from a neighbour"],
  SWAP_NEIGHBOR: ["Prohoď si počet životů se sousedem", "Swap lives with a neighbour"],
  BLAST: ["Uber si 2 životy, tví sousedi si uberou 1 (jen na HIGHHP)",
    "Lose 2 lives, your neighbours lose 1 (4–6 lives only)"],
  DUEL: ["Souboj", "Duel"],
  HALVE_EVEN: ["Vyděl si počet životů 2 / :2 (jen na sudé)", "Halve your lives (even only)"],
  DOUBLE_LOW: ["Vynásob si počet životů 2 / x2 (jen na malé)", "Double your lives (1–3 lives only)"],
  LOW_UP_TOP_DOWN: ["LOWHP +1, TOPHP −1", "1–3 lives: +1; the most lives: −1"],
  LOW_2_TOP_5: ["LOWHP = 2, TOPHP = 5", "1–3 lives: set to 2; the most lives: set to 5"],
  ODD_UP: ["Lichoživotníci +1", "Odd lives: +1"],
  EVEN_DOWN: ["Sudoživotníci −1", "Even lives: −1"],
};

const COLOUR = {
  en: { red: "red", green: "green", blue: "blue" },
  cs: { red: "červená", green: "zelená", blue: "modrá" },
};
// The scope each colour allows (section 2), said on the card so a newcomer needs no rules.
const SCOPE = {
  en: { red: "everyone", green: "one player", blue: "one or everyone" },
  cs: { red: "všichni", green: "jeden hráč", blue: "jeden nebo všichni" },
};

export function colourWord(colour) {
  return COLOUR[LANG][colour] ?? colour;
}

/** The effect in words for log lines and prompts: "green: Souboj / Duel …" shortened to the
 * page language's line, always naming the colour. */
export function effectText(effect) {
  const [cs, en] = EFFECTS[effect.kind] ?? [effect.kind, effect.kind];
  return `${colourWord(effect.colour)}: ${LANG === "cs" ? cs : en}`;
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function effectFace(effect, index) {
  const [cs, en] = EFFECTS[effect.kind] ?? [effect.kind, effect.kind];
  const face = el("span", `effect colour-${effect.colour}`);
  face.dataset.effectIndex = String(index);
  const label = el("span", "effect-colour", colourWord(effect.colour));
  label.append(el("span", "effect-scope", ` · ${SCOPE[LANG][effect.colour]}`));
  const czech = el("span", "effect-cs", cs);
  czech.lang = "cs";
  const english = el("span", "effect-en", en);
  english.lang = "en";
  face.append(label, czech, english);
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
  if (tag === "button") card.setAttribute("aria-label", cardWords(id, effects));
  return card;
}

/** The card read aloud in the order it is drawn: "C25: green, one player: Uber si … (Lose 1 life); …". */
function cardWords(id, effects) {
  const words = effects.map((e) => {
    const [cs, en] = EFFECTS[e.kind] ?? [e.kind, e.kind];
    return `${colourWord(e.colour)}, ${SCOPE[LANG][e.colour]}: ${cs} (${en})`;
  });
  return `${id}: ${words.join("; ")}`;
}

/** A card id in running text (the log, prompts): an element with data-card (API.md hooks). */
// A card named in text. In the log it is the card shown there (`data-card`, API.md); beside a
// card element that already carries the hook (the pending play) it is a plain reference.
export function cardRef(id, { hook = true } = {}) {
  const ref = el("b", "cardref", id);
  if (hook) ref.dataset.card = id;
  return ref;
}
