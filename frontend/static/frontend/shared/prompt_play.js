// Building my own play in the prompt (a mixin of prompt.js's Actor): the card from my hand,
// which of its effects, on whom (one player or everyone), the target's button at his seat, and
// a confirmation when the effect would cost me lives. Only bodies in view.legal can be built.

import { effectExplanation, effectText } from "./cards.js";
import { t } from "./i18n.js";
import { el } from "./render.js";
import { selfWarning } from "./second_person.js";

const $ = (root, sel) => root.querySelector(sel);

export function button(text, data = {}, className = "") {
  const b = el("button", className, text);
  b.type = "button";
  Object.entries(data).forEach(([k, v]) => { b.dataset[k] = String(v); });
  return b;
}

export const playPrompt = {
  /** Drop the selection parts that `legal` no longer allows (the view moved on). */
  keepSelection(legal) {
    const s = this.sel;
    const plays = legal.filter((c) => c.type === "play");
    if (s.card && !plays.some((c) => c.card === s.card)) this.sel = {};
    if (s.handoffCard && !legal.some((c) => c.type === "handoff" && c.card === s.handoffCard)) this.sel = {};
  },

  plays(filter = {}) {
    return this.view.legal.filter((c) => c.type === "play"
      && Object.entries(filter).every(([k, v]) => v === undefined || c[k] === v));
  },

  go(change) {
    Object.assign(this.sel, change);
    this.draw(this.view, this.names);
    const q = (sel) => $(this.root, sel);
    const picking = this.sel.scope === "one" && this.sel.target === undefined;
    // Asked whether to hit myself: the safe answer has the focus, so Enter twice is no accident.
    const next = (this.sel.confirming ? q('#prompt [data-command="cancel"]') : null)
      ?? q('#prompt [data-command="play"], #prompt [data-command="handoff"]')
      ?? (picking ? q("#seats [data-target]") : null)
      ?? q("#prompt .choices:last-of-type button:not([disabled])")
      ?? q("#prompt button:not([disabled])");
    next?.focus({ preventScroll: true });
    this.bringIntoView(); // the target buttons and the summary make the table taller
  },

  playParts() {
    const s = this.sel;
    if (!s.card) return [el("p", "prompt-title", t("pick_card"))];
    const out = [el("p", "prompt-title", t("pick_effect", { card: s.card }))];
    const effects = el("div", "choices");
    this.catalog[s.card].forEach((effect, index) => {
      const b = button(effectText(effect), { effect: index }, `effect-choice colour-${effect.colour}`);
      b.append(el("span", "effect-explain", effectExplanation(effect.kind))); // what it does (card_words)
      const ok = this.plays({ card: s.card, effect: index }).length > 0;
      b.disabled = !ok;
      if (!ok) b.append(el("span", "why", ` (${t("not_playable")})`));
      b.setAttribute("aria-pressed", String(s.effect === index));
      b.addEventListener("click", () => this.go({ effect: index, scope: undefined, target: undefined, confirming: false }));
      effects.append(b);
    });
    const back = button(t("back"), { back: 1 }, "secondary"); // in the effects' row: one row less
    back.addEventListener("click", () => { this.sel = {}; this.draw(this.view, this.names); this.focusHand(); });
    effects.append(back);
    out.push(effects);
    if (s.effect === undefined) return out;
    const scopes = [...new Set(this.plays({ card: s.card, effect: s.effect }).map((c) => c.scope))];
    if (scopes.length > 1) {
      const row = el("div", "choices");
      row.append(el("span", "choice-label", t("pick_scope")));
      scopes.forEach((scope) => {
        const b = button(t(`scope_${scope}`), { scope });
        b.setAttribute("aria-pressed", String(s.scope === scope));
        b.addEventListener("click", () => this.go({ scope, target: undefined, confirming: false }));
        row.append(b);
      });
      out.push(row);
    } else if (s.scope === undefined) s.scope = scopes[0];
    if (s.scope === undefined) return out;
    if (s.scope === "one") this.targetButtons();
    if (s.scope === "one" && s.target === undefined) {
      out.push(el("p", "", t("pick_target")));
      return out;
    }
    const body = this.plays({ card: s.card, effect: s.effect, scope: s.scope, target: s.scope === "one" ? s.target : null })[0];
    if (!body) return out;
    const effect = effectText(this.catalog[s.card][s.effect]);
    const mine = s.scope === "one" && s.target === this.view.you;
    const key = s.scope === "all" ? "play_summary_all" : mine ? "play_summary_self" : "play_summary_one";
    const summary = el("p", "summary", t(key, { card: s.card, effect, target: this.names[s.target] }));
    const lives = this.view.players[this.view.you]?.lives ?? 0;
    const warning = selfWarning({ ...this.catalog[s.card][s.effect], scope: s.scope, target: s.target }, this.view.you, lives);
    if (warning && s.confirming) {
      out.push(summary, ...this.selfConfirm(body, warning));
      return out;
    }
    const confirm = button(t("play"), { command: "play" }, "primary");
    // A play that costs me lives asks once more before it is sent (issue 18).
    confirm.addEventListener("click", () => (warning ? this.go({ confirming: true }) : this.submit(body)));
    out.push(summary, confirm);
    return out;
  },

  /** "Lose 1 life yourself? You have 1 life: this knocks you out." with Yes / Cancel. */
  selfConfirm(body, warning) {
    const box = el("div", "self-warning");
    box.id = "self-warning";
    box.setAttribute("role", "alert");
    box.append(el("p", "", warning.question), el("p", "", warning.after));
    const row = el("div", "choices");
    const yes = button(t("self_confirm"), { command: "play", selfConfirm: 1 }, "danger-confirm");
    yes.setAttribute("aria-describedby", box.id);
    yes.addEventListener("click", () => this.submit(body));
    const no = button(t("self_cancel"), { command: "cancel" });
    no.addEventListener("click", () => this.go({ confirming: false }));
    row.append(yes, no);
    return [box, row];
  },

  /** A button at each legal target's seat (R3, R9, R12 are already in `legal`). */
  targetButtons() {
    const s = this.sel;
    this.plays({ card: s.card, effect: s.effect, scope: "one" }).forEach((c) => {
      const seat = $(this.root, `#seats [data-seat="${c.target}"]`);
      const label = c.target === this.view.you ? t("target_yourself") : t("target", { who: this.names[c.target] });
      const b = button(label, { target: c.target }, "target");
      b.setAttribute("aria-pressed", String(s.target === c.target));
      b.addEventListener("click", () => this.go({ target: c.target, confirming: false }));
      seat?.append(b);
      seat?.classList.add("targetable");
    });
  },

  /** Hand cards pick the card to play; those no legal play uses stay disabled. */
  wireHand(view, legal) {
    const playing = view.phase === "play" && legal.some((c) => c.type === "play");
    this.root.querySelectorAll("#hand button[data-card]").forEach((b) => {
      const id = b.dataset.card;
      const ok = playing && legal.some((c) => c.type === "play" && c.card === id);
      b.disabled = !ok || this.busy;
      b.classList.toggle("unplayable", playing && !ok);
      b.setAttribute("aria-pressed", String(this.sel.card === id));
      b.onclick = ok ? () => this.go({ card: id, effect: undefined, scope: undefined, target: undefined }) : null;
    });
  },

  focusHand() {
    $(this.root, "#hand button:not([disabled])")?.focus();
  },
};
