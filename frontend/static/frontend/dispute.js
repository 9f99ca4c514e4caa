// "Dispute this moment" (API.md "More pages"), for a seated player: on the replay viewer at the
// seq it shows, and under the table's log at the seq shown when the form was opened (an earlier
// moment: the replay viewer, linked from the form). A disclosure button opens a form with one
// text box for the reason and a submit button; it files POST /api/games/{id}/disputes/
// {"reason", "seq"} and says in the page's language how that went, with a link to /disputes/.
// The server renders the box (#dispute) only for a seated player; this script fills it.

import { api } from "./api.js";
import { addWords, t } from "./i18n.js";
import { el } from "./render.js";

addWords({
  d_open: "Dispute this moment",
  d_moment: "Moment: event {seq}", d_moment_text: "Moment: event {seq} · {text}",
  d_reason: "Reason for the dispute",
  d_hint: "Say what you think went wrong. Staff see the game's whole record and decide.",
  d_send: "File the dispute", d_sending: "Filing…",
  d_done: "Dispute filed for event {seq}. Staff will decide; you will be told in your notifications (and by mail, if you have mail on).",
  d_mine: "My disputes",
  d_elsewhere: "Another moment? Open the replay viewer there",
  d_error_empty: "Write the reason first.",
  d_error_duplicate: "You have already disputed this moment: it is on your disputes page.",
  d_error_invalid: "The dispute was refused: the reason must be 1 to 2000 characters, and the moment one of this game's events.",
  d_error_forbidden: "Only a player of this game may dispute it.",
  d_error_not_authenticated: "Log in again to file a dispute.",
  d_error_not_found: "This game does not exist any more.",
  d_error_throttled: "Too many requests at once; wait a moment and try again.",
  d_error_network: "The server could not be reached. Check the connection and try again.",
  d_error: "The dispute was not filed: {message}",
}, {
  d_open: "Podat námitku k tomuto okamžiku",
  d_moment: "Okamžik: událost {seq}", d_moment_text: "Okamžik: událost {seq} · {text}",
  d_reason: "Důvod námitky",
  d_hint: "Napiš, co podle tebe proběhlo špatně. Správci uvidí celý záznam hry a rozhodnou.",
  d_send: "Odeslat námitku", d_sending: "Odesílám…",
  d_done: "Námitka k události {seq} je podaná. Správci ji posoudí; o rozhodnutí se dozvíš v upozorněních (a e-mailem, pokud ho máš zapnutý).",
  d_mine: "Moje námitky",
  d_elsewhere: "Jiný okamžik? Otevři ho v záznamu hry",
  d_error_empty: "Nejdřív napiš důvod.",
  d_error_duplicate: "K tomuto okamžiku už námitku máš: najdeš ji na stránce svých námitek.",
  d_error_invalid: "Námitku nešlo přijmout: důvod musí mít 1 až 2000 znaků a okamžik musí patřit k této hře.",
  d_error_forbidden: "Námitku může podat jen hráč této hry.",
  d_error_not_authenticated: "Pro podání námitky se znovu přihlas.",
  d_error_not_found: "Tahle hra už neexistuje.",
  d_error_throttled: "Příliš mnoho požadavků najednou; chvíli počkej a zkus to znovu.",
  d_error_network: "Server není dostupný. Zkontroluj připojení a zkus to znovu.",
  d_error: "Námitka nebyla podána: {message}",
});

const CODES = new Set(["duplicate", "invalid", "forbidden", "not_authenticated", "not_found", "throttled", "network"]);
const REASON_MAX = 2000; // replays.disputes.models.REASON_MAX_LENGTH

/**
 * Fill `box` with the control and its form. `shownSeq()` is the seq the page shows now;
 * `describe(seq)` that event in words (the log's line) or undefined. `follow`: the form's
 * moment follows the page (the replay viewer, call `update()` after each move); otherwise it
 * is the one shown when the form was opened (the live table moves on by itself).
 */
export function mountDispute(box, { gameId, shownSeq, describe = () => undefined, follow = false }) {
  const id = box.id || "dispute";
  const toggle = el("button", "dispute-toggle", t("d_open"));
  toggle.type = "button";
  toggle.dataset.control = "dispute";
  toggle.setAttribute("aria-expanded", "false");
  toggle.setAttribute("aria-controls", `${id}-form`);
  const form = el("form", "dispute-form stack-form");
  form.id = `${id}-form`;
  form.hidden = true;
  form.noValidate = true; // our own words for an empty reason, in the page's language
  const moment = el("p", "dispute-moment");
  moment.id = `${id}-moment`;
  const field = el("div", "field");
  const label = el("label", "", t("d_reason"));
  label.htmlFor = `${id}-reason`;
  const reason = el("textarea");
  Object.assign(reason, { id: `${id}-reason`, name: "reason", rows: 4, maxLength: REASON_MAX, required: true });
  const hint = el("p", "hint", t("d_hint"));
  hint.id = `${id}-hint`;
  reason.setAttribute("aria-describedby", `${moment.id} ${hint.id}`);
  field.append(label, reason, hint);
  const send = el("button", "primary", t("d_send"));
  send.type = "submit";
  const done = el("p", "dispute-done");
  done.setAttribute("role", "status");
  const alert = el("p", "form-alert dispute-error");
  alert.setAttribute("role", "alert");
  const said = el("div", "dispute-said"); // one gap in the form for both, while empty
  said.append(done, alert);
  form.append(moment, field, send, said);
  if (!follow) {
    const elsewhere = el("a", "dispute-elsewhere", t("d_elsewhere"));
    form.insertBefore(elsewhere, said);
    form.elsewhere = elsewhere;
  }
  box.replaceChildren(toggle, form);

  let seq = shownSeq();
  const update = () => {
    if (follow) seq = shownSeq();
    const text = describe(seq);
    moment.textContent = text ? t("d_moment_text", { seq, text }) : t("d_moment", { seq });
    if (form.elsewhere) form.elsewhere.href = `/games/${gameId}/replay/?at=${seq}`;
  };
  const setOpen = (open) => {
    form.hidden = !open;
    toggle.setAttribute("aria-expanded", String(open));
    if (!open) return;
    seq = shownSeq();
    update();
    done.replaceChildren();
    reason.focus();
  };
  toggle.addEventListener("click", () => setOpen(form.hidden));

  const mineLink = () => Object.assign(el("a", "", t("d_mine")), { href: "/disputes/" });
  const fail = (key, fields = {}) => {
    alert.textContent = t(key, fields);
    if (key === "d_error_duplicate") alert.append(" ", mineLink());
    reason.setAttribute("aria-invalid", String(["d_error_empty", "d_error_invalid"].includes(key)));
  };
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    alert.textContent = "";
    done.replaceChildren();
    const text = reason.value.trim();
    if (!text) {
      fail("d_error_empty");
      reason.focus();
      return;
    }
    reason.removeAttribute("aria-invalid");
    const at = seq;
    send.disabled = true;
    send.textContent = t("d_sending");
    try {
      await api(`/api/games/${gameId}/disputes/`, { method: "POST", body: { reason: text, seq: at } });
      reason.value = "";
      done.append(t("d_done", { seq: at }), " ", mineLink());
    } catch (error) {
      if (CODES.has(error.code)) fail(`d_error_${error.code}`);
      else fail("d_error", { message: error.message });
    } finally {
      send.disabled = false;
      send.textContent = t("d_send");
    }
  });
  return { update };
}
