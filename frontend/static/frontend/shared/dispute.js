// "Dispute this moment" (API.md "More pages"), for a seated player: on the replay viewer at the
// seq it shows, and under the table's log at the seq shown when the form was opened (an earlier
// moment: the replay viewer, linked from the form). A disclosure button opens a form with one
// text box for the reason and a submit button; it files POST /api/games/{id}/disputes/
// {"reason", "seq"} and says in the page's language how that went, with a link to /disputes/.
// The server renders the box (#dispute) only for a seated player; this script fills it.

import { api } from "./api.js";
import { t } from "./i18n.js";
import { el } from "./render.js";


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
