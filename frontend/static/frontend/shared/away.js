// Away from a seat (API.md "Correspondence"): the badge next to a name (`away`: "vacation" or
// "bot"), the table's "Leave game" and "Take my seat back" buttons, how the log tells who came
// and went, and the vacation controls of /me/ (mounted on #vacation when the page has it).
// Only the public API: POST /api/games/{id}/leave/ and /return/, GET/POST/DELETE /api/me/vacation/.

import { api } from "./api.js";
import { t } from "./i18n.js";
import { moment } from "./times.js";


const when = moment; // times.js: "1 Dec 2026, 18:05" / "1. 12. 2026 18:05"

/** The badge next to a seat's name: `mark(className, text)` is render.js's. */
export function awayMark(player, mark) {
  if (player.left) mark("mark-away mark-left", `⇥ ${t("away_left")}`);
  else if (player.away === "bot") mark("mark-away mark-away-bot", `⚙ ${t("away_bot")}`);
  else if (player.away === "vacation") {
    const text = player.away_until ? t("away_vacation_until", { until: when(player.away_until) }) : t("away_vacation");
    mark("mark-away mark-away-vacation", `☼ ${text}`);
  }
}

/** log.js's lines for the events of who came and went. */
export const AWAY_TELL = {
  seat_left: (log, d) => [["log_seat_left", { who: log.name(d.seat) }]],
  seat_taken_by_bot: (log, d) => [["log_seat_taken_by_bot", { who: log.name(d.seat) }]],
  seat_returned: (log, d) => [["log_seat_returned", { who: log.name(d.seat) }]],
  vacation_started: (log, d) => [["log_vacation_started", { who: log.name(d.seat), until: when(d.until) }]],
  vacation_ended: (log, d) => [["log_vacation_ended", { who: log.name(d.seat) }]],
};

function button(text, onClick, className = "") {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  if (className) b.className = className;
  b.addEventListener("click", onClick);
  return b;
}

/** The table's own controls (into #away-controls): leave a running game, take a seat back
 * from the bot. `show(view)` draws the view a POST answers with; `onError` shows a refusal. */
export function drawAwayControls(root, view, show, onError) {
  const box = root.querySelector("#away-controls");
  if (!box) return;
  const me = view.you === null ? null : view.players[view.you];
  box.replaceChildren();
  // Nothing to leave once out of the game or after its end (issue 18).
  if (!me || view.status !== "active" || me.eliminated) return;
  const post = async (tail) => {
    try {
      const answer = await api(`/api/games/${view.id}/${tail}/`, { method: "POST", body: {} });
      onError(null);
      show(answer.view);
    } catch (err) {
      onError(err);
    }
  };
  if (me.left) {
    box.append(Object.assign(document.createElement("p"), { className: "away-note", textContent: t("left_note") }));
    return;
  }
  if (me.away === "bot") {
    box.append(Object.assign(document.createElement("p"), { className: "away-note", textContent: t("seat_taken_note") }),
      button(t("take_seat_back"), () => post("return"), "primary"));
  }
  // Asked in the page, not in the browser's confirm box (issue 29); the question stays through
  // the redraws of a running game until it is answered.
  if (leaving === view.id) {
    const ask = document.createElement("div");
    ask.className = "leave-confirm";
    ask.setAttribute("role", "group");
    ask.setAttribute("aria-labelledby", "leave-question");
    const question = Object.assign(document.createElement("p"), { id: "leave-question", textContent: t("leave_confirm") });
    const redraw = () => drawAwayControls(root, view, show, onError);
    const yes = button(t("leave_yes"), () => { leaving = null; post("leave"); }, "danger");
    const no = button(t("leave_no"), () => { leaving = null; redraw(); box.querySelector("button")?.focus(); });
    ask.append(question, yes, no);
    box.append(ask);
    return;
  }
  box.append(button(t("leave_game"), () => {
    leaving = view.id;
    drawAwayControls(root, view, show, onError);
    box.querySelector(".leave-confirm button:last-of-type")?.focus(); // the safe answer first
  }, "danger"));
}

let leaving = null; // the game whose "Leave game" waits for its answer

/** /me/: the caller's vacation: days to declare, until when, days left, end now. */
async function mountVacation(section) {
  const heading = document.createElement("h2");
  heading.id = "vacation-title";
  heading.textContent = t("vacation_title");
  section.setAttribute("aria-labelledby", heading.id);
  const intro = Object.assign(document.createElement("p"), { textContent: t("vacation_intro") });
  const state = Object.assign(document.createElement("p"), { id: "vacation-state" });
  state.setAttribute("role", "status");
  const left = Object.assign(document.createElement("p"), { id: "vacation-left" });
  const error = Object.assign(document.createElement("p"), { className: "error" });
  error.setAttribute("role", "alert");
  const form = document.createElement("form");
  form.className = "vacation-form";
  const label = Object.assign(document.createElement("label"), { htmlFor: "vacation-days", textContent: t("vacation_days") });
  const days = Object.assign(document.createElement("input"), { id: "vacation-days", type: "number", min: 1, value: 7, required: true });
  const start = Object.assign(document.createElement("button"), { type: "submit", textContent: t("vacation_start") });
  const end = button(t("vacation_end"), () => send("DELETE"));
  end.id = "vacation-end";
  form.append(label, days, start);
  section.replaceChildren(heading, intro, state, left, form, end, error);

  const draw = (status) => {
    state.textContent = status.until ? t("vacation_until", { until: when(status.until) }) : t("vacation_none");
    left.textContent = t("vacation_left", { n: status.days_left, total: status.days_per_year });
    days.max = String(Math.max(1, status.days_left));
    form.hidden = Boolean(status.until);
    end.hidden = !status.until;
  };
  const send = async (method, body) => {
    try {
      draw(await api("/api/me/vacation/", { method, body }));
      error.textContent = "";
    } catch (err) {
      error.textContent = err.message;
    }
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    send("POST", { days: Number(days.value) });
  });
  draw(await api("/api/me/vacation/"));
}

const vacation = document.getElementById("vacation");
if (vacation) mountVacation(vacation);
