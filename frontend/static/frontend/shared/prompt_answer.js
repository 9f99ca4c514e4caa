// Answering another's play in the prompt (a mixin of prompt.js's Actor): block it or let it
// pass (R19), pick a neighbour, bet in a duel, hand on a card once out. Only bodies in
// view.legal can be sent.

import { cardElement, effectExplanation, effectText } from "./cards.js";
import { count, t } from "./i18n.js";
import { el } from "./render.js";
import { button } from "./prompt_play.js";

export const answerPrompt = {
  blockParts(view, legal) {
    const p = view.pending;
    const effect = effectText({ colour: p.colour, kind: p.kind });
    const key = p.scope === "all" ? "block_ask_all" : p.target === view.you ? "block_ask_you" : "block_ask_one";
    const out = [el("p", "prompt-title", t(key, { who: this.names[p.seat], card: p.card, effect, target: this.names[p.target] }))];
    const row = el("div", "choices");
    legal.filter((c) => c.type === "block").forEach((c) => {
      const b = this.blockButton(c.card);
      b.addEventListener("click", () => this.submit(c));
      row.append(b);
    });
    if (!legal.some((c) => c.type === "block")) {
      // Nothing of mine can block: said, and passed by itself (passWhenNothingBlocks).
      const note = el("p", "no-block", t("no_block_auto"));
      note.id = "no-block";
      out.push(note);
      return out;
    }
    const pass = button(t("pass"), { command: "pass" });
    pass.addEventListener("click", () => this.submit({ type: "pass" }));
    row.append(pass);
    out.push(row);
    return out;
  },

  /** "Block with C29" over "green: Gain 1 life · blue: Lose 1 life": the button shows, and its
   * accessible name says, what the blocking card does (API.md "More pages"), in the words of
   * cards.js's effectText, so they follow whatever language cards speak. */
  blockButton(card) {
    const b = button("", { command: "block", card }, "block-choice");
    const effects = (this.catalog[card] ?? []).map(effectText);
    const label = t("block_with", { card });
    const list = el("span", "block-effects");
    (this.catalog[card] ?? []).forEach((effect, i) => {
      list.append(el("span", `block-effect colour-${effect.colour}`, effects[i]));
    });
    b.append(el("span", "block-card", label), list);
    // Said whole (the visible lines are apart by layout alone, which names do not keep).
    b.setAttribute("aria-label", `${label} (${effects.join("; ")})`);
    return b;
  },

  neighborParts(view, legal) {
    const p = view.pending;
    const effect = effectText({ colour: p.colour, kind: p.kind });
    const row = el("div", "choices");
    // Each neighbour with where he sits and his lives (issue 29): "bot#2 — on the left, 4 lives".
    const from = p.resolving ?? view.you;
    const living = view.players.filter((x) => !x.eliminated).map((x) => x.seat);
    const left = living[(living.indexOf(from) + 1) % living.length];
    legal.forEach((c) => {
      const other = view.players[c.neighbor];
      const where = c.neighbor === from ? t("neighbor_self") : t(c.neighbor === left ? "neighbor_left" : "neighbor_right");
      const b = button(t("neighbor_at", { who: this.names[c.neighbor], where, lives: count("lives", other.lives) }),
        { command: "choose_neighbor", neighbor: c.neighbor });
      b.addEventListener("click", () => this.submit(c));
      row.append(b);
    });
    return [el("p", "prompt-title", t("pick_neighbor", { effect })), row];
  },

  betParts(view, legal) {
    const duel = view.pending?.duel;
    const other = duel ? duel.seats.find((s) => s !== view.you) : null;
    const coin = legal.some((c) => c.kind === "coin");
    const row = el("div", "choices");
    legal.forEach((c) => {
      const b = button(t(`bet_${c.kind}_${c.value}`), { command: "bet", kind: c.kind, value: c.value });
      b.addEventListener("click", () => this.submit(c));
      row.append(b);
    });
    return [el("p", "prompt-title", t(coin ? "bet_ask_coin" : "bet_ask", { who: this.names[other] ?? "" })), row];
  },

  handoffParts(legal) {
    const s = this.sel;
    const out = [el("p", "prompt-title", t("handoff_ask"))];
    const cardsRow = el("div", "choices cards-choice");
    [...new Set(legal.filter((c) => c.card).map((c) => c.card))].forEach((id) => {
      const b = button("", { handoffCard: id }, "handoff-card");
      const face = cardElement(this.catalog, id, { tag: "span" });
      delete face.dataset.card; // a reference to a card of the hand, which shows it already
      b.append(el("span", "visually-hidden", t("handoff_card", { card: id })), face);
      b.setAttribute("aria-pressed", String(s.handoffCard === id));
      b.addEventListener("click", () => this.go({ handoffCard: id, handoffTo: undefined }));
      cardsRow.append(b);
    });
    out.push(cardsRow);
    if (s.handoffCard) {
      const row = el("div", "choices");
      legal.filter((c) => c.card === s.handoffCard).forEach((c) => {
        const b = button(t("handoff_to", { who: this.names[c.to] }), { handoffTo: c.to });
        b.setAttribute("aria-pressed", String(s.handoffTo === c.to));
        b.addEventListener("click", () => this.go({ handoffTo: c.to }));
        row.append(b);
      });
      out.push(row);
    }
    const body = legal.find((c) => c.card === s.handoffCard && c.to === s.handoffTo && c.card);
    const last = el("div", "choices");
    if (body) {
      const b = button(t("handoff"), { command: "handoff" }, "primary");
      b.setAttribute("aria-describedby", "handoff-summary");
      b.addEventListener("click", () => this.submit(body));
      const summary = el("p", "summary", t("handoff_confirm", { card: body.card, who: this.names[body.to] }));
      summary.id = "handoff-summary";
      out.push(summary);
      last.append(b);
    }
    const decline = button(t("decline"), { command: "decline" });
    decline.addEventListener("click", () => this.submit({ type: "handoff", card: null, to: null }));
    last.append(decline);
    out.push(last);
    return out;
  },
};
