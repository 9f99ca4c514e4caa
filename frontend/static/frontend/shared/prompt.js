// The prompt (#prompt): what I may decide now, guided by view.legal alone. Every button drawn
// sends (or leads to) a body that is in `legal`, so the page cannot send an illegal command. It
// is an inline panel; focus moves to it when a new decision is asked. The decisions' own parts
// are mixed in: my play (prompt_play.js), answers to another's play (prompt_answer.js) and the
// automatic pass when nothing of mine can block (auto_pass.js).

import { autoPass } from "./auto_pass.js";
import { t } from "./i18n.js";
import { answerPrompt } from "./prompt_answer.js";
import { button, playPrompt } from "./prompt_play.js";
import { el } from "./render.js";

const $ = (root, sel) => root.querySelector(sel);

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

Object.assign(Actor.prototype, playPrompt, answerPrompt, autoPass);
