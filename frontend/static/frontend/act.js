// Acting, guided by view.legal alone: every button this draws sends (or leads to) a body that
// is in `legal`, so the page cannot send an illegal command. The prompt (#prompt) is an inline
// panel; focus moves to it when a new decision is asked.

import { cardElement, effectExplanation, effectText } from "./cards.js";
import { count, t } from "./i18n.js";
import { el } from "./render.js";
import { selfWarning } from "./yourself.js";

const $ = (root, sel) => root.querySelector(sel);
// A block window where none of my cards can block: the page says so and passes by itself after
// this pause (issue 29). The pass is the same command, sealed the same way as a click's (R19):
// nothing anyone else receives differs, and a player who could block may pass as fast.
const AUTO_PASS_MS = 1500;

function button(text, data = {}, className = "") {
  const b = el("button", className, text);
  b.type = "button";
  Object.entries(data).forEach(([k, v]) => { b.dataset[k] = String(v); });
  return b;
}

export class Actor {
  /** `send(body)` posts a command (without expected_seq); returns a promise. */
  constructor(root, catalog, send) {
    Object.assign(this, { root, catalog, send });
    this.sel = {}; // the play being built: {card, effect, scope, target}; handoff: {card, to}
    this.decision = ""; // what the current prompt asks, to move focus only when it changes
    this.busy = false;
    this.recap = []; // what happened since my last move (table.js), said above a new decision
    this.autoPass = null;
  }

  /** Draw the prompt and the target buttons for `view` (after render.js drew the table). */
  draw(view, names) {
    this.view = view;
    this.names = names;
    const legal = view.legal ?? [];
    this.keepSelection(legal);
    this.root.querySelectorAll("#seats [data-target]").forEach((b) => b.remove());
    this.root.querySelectorAll("#seats .targetable").forEach((s) => s.classList.remove("targetable"));
    const prompt = $(this.root, "#prompt");
    const parts = legal.length ? this.parts(view, legal) : this.waiting(view);
    if (legal.length && this.recap.length) {
      const line = el("p", "recap");
      line.append(el("b", "", t("since_move")), ` ${this.recap.join(" · ")}`);
      parts.unshift(line);
    }
    prompt.hidden = parts.length === 0;
    prompt.setAttribute("aria-label", t("your_decision"));
    prompt.replaceChildren(...parts);
    prompt.classList.toggle("busy", this.busy);
    this.wireHand(view, legal);
    const decision = legal.length ? `${view.phase}:${view.turn}:${view.pending?.resolving ?? ""}:${view.pending?.handoff ?? ""}` : "";
    if (decision && decision !== this.decision) {
      prompt.focus({ preventScroll: true });
      this.bringIntoView();
    }
    this.decision = decision;
    this.passWhenNothingBlocks(view, legal, decision);
  }

  /** Only "pass" is legal in a block window: send it after AUTO_PASS_MS, once, if the same
   * decision still stands then (a visible tab only: a hidden one waits until it is seen). */
  passWhenNothingBlocks(view, legal, decision) {
    const only = view.phase === "block" && legal.length === 1 && legal[0].type === "pass";
    if (!only) return;
    if (this.autoPass?.decision === decision) return;
    clearTimeout(this.autoPass?.timer);
    const fire = () => {
      if (this.decision !== decision || this.busy) return;
      if (document.visibilityState === "hidden") {
        document.addEventListener("visibilitychange", () => this.autoPass?.decision === decision
          && (this.autoPass.timer = setTimeout(fire, AUTO_PASS_MS)), { once: true });
        return;
      }
      this.submit({ type: "pass" });
    };
    this.autoPass = { decision, timer: setTimeout(fire, AUTO_PASS_MS) };
  }

  parts(view, legal) {
    const phase = view.phase;
    if (phase === "play") return this.playParts(legal);
    if (phase === "block") return this.blockParts(view, legal);
    if (phase === "choose_neighbor") return this.neighborParts(view, legal);
    if (phase === "bet") return this.betParts(view, legal);
    if (phase === "handoff") return this.handoffParts(legal);
    return [];
  }

  waiting(view) {
    if (view.status === "lobby") return this.invite(view);
    const passed = view.phase === "block" && view.awaiting.includes(view.you);
    return passed ? [el("p", "", t("passed"))] : [];
  }

  /** A table still waiting for players: how many, and a link to send them (it seats whoever
   * opens it, logged in, at the first free seat). */
  invite(view) {
    const free = view.players.filter((p) => p.username === null).length;
    const link = `${location.origin}/games/${view.id}/?join=any`;
    const copy = button(t("invite_copy"), { control: "invite" });
    const said = el("span", "invite-done");
    said.setAttribute("role", "status");
    copy.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(link);
        said.textContent = t("invite_copied");
      } catch {
        said.textContent = link; // no clipboard (plain http on a LAN): the link to copy by hand
      }
    });
    const row = el("div", "choices");
    row.append(copy, said);
    return [el("p", "prompt-title", t("invite_wait", { n: free })), el("p", "", t("invite_how")), row];
  }

  /** Drop the selection parts that `legal` no longer allows (the view moved on). */
  keepSelection(legal) {
    const s = this.sel;
    const plays = legal.filter((c) => c.type === "play");
    if (s.card && !plays.some((c) => c.card === s.card)) this.sel = {};
    if (s.handoffCard && !legal.some((c) => c.type === "handoff" && c.card === s.handoffCard)) this.sel = {};
  }

  plays(filter = {}) {
    return this.view.legal.filter((c) => c.type === "play"
      && Object.entries(filter).every(([k, v]) => v === undefined || c[k] === v));
  }

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
  }

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
  }

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
  }

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
  }

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
  }

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
  }

  /** Scroll so that the felt (every seat), the pending play, the prompt and my hand show
   * together when they fit in
   * the window (issue 18: at 1280 × 800 the block prompt sat at the bottom edge); else the
   * prompt. At once, not smoothly: nothing moves under a pointer about to click. */
  bringIntoView() {
    const shown = [".felt", "#pending", "#prompt", "#hand"].map((sel) => $(this.root, sel))
      .filter((node) => node && !node.hidden && node.getClientRects().length);
    if (!shown.length) return;
    const rects = shown.map((node) => node.getBoundingClientRect());
    let top = Math.min(...rects.map((r) => r.top)) - 8;
    const bottom = Math.max(...rects.map((r) => r.bottom)) + 8;
    // Too tall with the whole felt (a short window): the pending play, the prompt, the hand.
    if (bottom - top > window.innerHeight) top = Math.min(...rects.slice(1).map((r) => r.top)) - 8;
    if (bottom - top > window.innerHeight) {
      $(this.root, "#prompt").scrollIntoView({ block: "nearest" });
    } else if (top < 0) {
      window.scrollBy(0, top);
    } else if (bottom > window.innerHeight) {
      window.scrollBy(0, bottom - window.innerHeight);
    }
  }

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
  }

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
  }

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
  }

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
  }

  focusHand() {
    $(this.root, "#hand button:not([disabled])")?.focus();
  }

  async submit(body) {
    if (this.busy) return;
    this.busy = true;
    $(this.root, "#prompt")?.querySelectorAll("button").forEach((b) => { b.disabled = true; });
    try {
      await this.send(body);
      this.sel = {};
    } finally {
      this.busy = false;
      if (this.view) this.draw(this.view, this.names);
    }
  }
}
