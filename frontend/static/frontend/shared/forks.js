// "Play on from here" (issue 30; API.md "Play on from a moment, notes and odds"): on the
// replay viewer of a finished game (from the moment shown) and on the table of a finished game
// (from the start of its last turn), a form to choose each seat (me, the bot, open for anyone
// to join) and the deal (the same draw pile, or the unseen cards reshuffled); POST
// /api/games/{id}/forks/ and go to the new table. A fork's own table says where it came from,
// with a link back to that moment of the source's replay.

import { api } from "./api.js";
import { has, t } from "./i18n.js";
import { currentSeq, onMoment } from "./replay_position.js";
import { displayNames, el } from "./render.js";


function choice(name, value, label, checked) {
  const wrap = el("label", "fork-choice");
  const input = Object.assign(el("input"), { type: "radio", name, value, checked });
  wrap.append(input, ` ${label}`);
  return wrap;
}

/** The form in `box`: seats of `view`, the moment from `at()`. */
function mountForm(box, { gameId, view, at, titleKey, you }) {
  const names = displayNames(view.players);
  const details = el("details", "play-on");
  const summary = el("summary", "", t(titleKey));
  const form = el("form", "fork-form");
  const intro = el("p", "fork-intro");
  const error = el("p", "error");
  error.setAttribute("role", "alert");
  const showIntro = () => { intro.textContent = t("fork_intro", { at: at() }); };
  const seats = view.players.map((p, seat) => {
    const field = el("label", "fork-seat", `${t("fork_seat", { seat, name: names[seat] })} `);
    const select = el("select");
    select.name = `seat-${seat}`;
    for (const kind of ["me", "bot", "open"]) {
      const option = Object.assign(el("option", "", t(`fork_${kind}`)), { value: kind });
      option.selected = kind === (seat === you ? "me" : "bot");
      select.append(option);
    }
    field.append(select);
    return field;
  });
  const deal = el("fieldset", "fork-deal");
  deal.append(el("legend", "", t("fork_deal")), choice("deal", "same", t("fork_same"), true),
    choice("deal", "fresh", t("fork_fresh"), false));
  const submit = Object.assign(el("button", "", t("fork_start")), { type: "submit" });
  submit.dataset.control = "fork";
  form.append(intro, ...seats, deal, submit, error);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    submit.disabled = true;
    error.textContent = "";
    const body = {
      at: at(), deal: form.querySelector('input[name="deal"]:checked').value,
      seats: seats.map((field) => field.querySelector("select").value),
    };
    try {
      const fork = await api(`/api/games/${gameId}/forks/`, { method: "POST", body });
      window.location.assign(`/games/${fork.id}/`);
    } catch (failure) {
      error.textContent = has(`error_${failure.code}`) ? t(`error_${failure.code}`) : failure.message;
      submit.disabled = false;
    }
  });
  details.addEventListener("toggle", showIntro);
  details.append(summary, form);
  showIntro();
  box.replaceChildren(details);
  return showIntro;
}

function signInNote(box) {
  const note = el("p", "fork-note");
  const link = Object.assign(el("a", "", t("fork_sign_in")), { href: `/login/?next=${encodeURIComponent(location.pathname + location.search)}` });
  note.append(link);
  box.replaceChildren(note);
}

function forkedFrom(box, from) {
  const line = el("p", "forked-from");
  const link = Object.assign(el("a", "", t("fork_from_link")), { href: `/games/${from.game}/replay/?at=${from.at}` });
  line.append(`${t("fork_from", { game: from.game, at: from.at })} `, link);
  box.before(line);
}

async function listForks(box, gameId) {
  const forks = await api(`/api/games/${gameId}/forks/`).catch(() => []);
  if (!forks.length) return;
  const section = el("div", "fork-list");
  const title = el("h2", "", t("fork_list"));
  title.id = "fork-list-title";
  const list = el("ul");
  list.setAttribute("aria-labelledby", title.id);
  list.append(...forks.map((f) => {
    const li = el("li");
    li.append(Object.assign(el("a", "", t("fork_item", { game: f.game, at: f.at })), { href: `/games/${f.game}/` }));
    return li;
  }));
  section.append(title, list);
  box.append(section);
}

async function replayPage(root, box) {
  const gameId = root.dataset.game;
  const view = await api(`/api/games/${gameId}/`);
  if (view.forked_from) forkedFrom(box, view.forked_from);
  if (view.status !== "ended") return;
  if (!box.dataset.signedIn) signInNote(box);
  else {
    const refresh = mountForm(box, { gameId, view, at: () => currentSeq(root), titleKey: "fork_title", you: view.you });
    onMoment(root, refresh);
  }
  await listForks(box, gameId);
}

async function tablePage(root, box) {
  const gameId = root.dataset.game;
  let view = await api(`/api/games/${gameId}/`);
  if (view.forked_from) forkedFrom(box, view.forked_from);
  const offer = async () => {
    // The start of the last turn: the last moment where a Kostič had a card to play.
    const { events } = await api(`/api/games/${gameId}/events/?after=0`);
    const starts = events.filter((e) => e.type === "turn_started").map((e) => e.seq);
    if (!starts.length) return;
    const slot = el("div", "play-on-slot");
    box.append(slot);
    if (!box.dataset.signedIn) return signInNote(slot);
    const at = starts[starts.length - 1];
    mountForm(slot, { gameId, view, at: () => at, titleKey: "fork_title_end", you: view.you });
  };
  if (view.status === "ended") return offer();
  // The game ends while the page is open: offer it then (one read, when the status says so).
  const status = document.getElementById("status");
  const watch = new MutationObserver(async () => {
    if (!status.textContent.startsWith(t("status_ended", { variant: "" }).replace(/\s*·\s*$/, ""))) return;
    watch.disconnect();
    view = await api(`/api/games/${gameId}/`);
    if (view.status === "ended") offer();
  });
  watch.observe(status, { childList: true, characterData: true, subtree: true });
}

const box = document.getElementById("play-on");
const replayRoot = document.getElementById("replay");
const tableRoot = document.getElementById("table");
if (box && replayRoot) replayPage(replayRoot, box).catch(() => {});
else if (box && tableRoot) tablePage(tableRoot, box).catch(() => {});
