// Notes at a moment (issue 30; /api/games/{id}/notes/) in the replay viewer: the notes of the
// shown moment beside it, every note as a jump, and (signed in) a note of one's own at the
// shown moment, private or public. The server decides who reads what: one's own notes, and
// everyone's public ones once the game has ended.

import { api } from "./api.js";
import { has, t } from "./i18n.js";
import { currentSeq, jumpTo, onMoment } from "./replay_position.js";
import { el } from "./render.js";


const MAX = 2000;

function noteItem(note) {
  const li = el("li", "note");
  const head = el("p", "note-head", t("notes_item", { seq: note.seq, author: note.author }));
  if (!note.public) head.append(` (${t("notes_private")})`);
  li.append(head, el("p", "note-text", note.hidden ? t("notes_hidden") : note.text));
  return li;
}

function mount(box, root) {
  const gameId = root.dataset.game;
  let notes = [];
  const title = el("h2", "", t("notes_title"));
  title.id = "notes-title";
  box.setAttribute("aria-labelledby", title.id);
  const hereTitle = el("h3", "notes-here-title");
  hereTitle.id = "notes-here-title";
  const here = el("ul", "notes-here");
  here.setAttribute("aria-labelledby", hereTitle.id);
  const empty = el("p", "notes-empty", t("notes_none_here"));
  const all = el("details", "notes-all");
  const allSummary = el("summary");
  const allList = el("ol");
  all.append(allSummary, allList);
  const form = el("form", "note-form");
  const label = el("label", "note-label");
  label.htmlFor = "note-text";
  const text = Object.assign(el("textarea"), { id: "note-text", name: "text", rows: 3, maxLength: MAX, required: true });
  const publicBox = Object.assign(el("input"), { type: "checkbox", id: "note-public", name: "public" });
  const publicLabel = el("label", "", ` ${t("notes_public")}`);
  publicLabel.prepend(publicBox);
  const save = Object.assign(el("button", "", t("notes_save")), { type: "submit" });
  save.dataset.control = "note";
  const error = el("p", "error");
  error.setAttribute("role", "alert");
  form.append(label, text, publicLabel, save, error);

  const show = (seq) => {
    hereTitle.textContent = t("notes_here", { seq });
    label.textContent = t("notes_add", { seq });
    const mine = notes.filter((n) => n.seq === seq);
    here.replaceChildren(...mine.map(noteItem));
    empty.hidden = mine.length > 0;
    allSummary.textContent = t("notes_all", { n: notes.length });
    allList.replaceChildren(...notes.map((n) => {
      const li = el("li");
      const b = Object.assign(el("button", "link-button", t("notes_item", { seq: n.seq, author: n.author })), { type: "button" });
      b.addEventListener("click", () => jumpTo(n.seq));
      li.append(b);
      return li;
    }));
    all.hidden = notes.length === 0;
  };
  const reload = async () => {
    notes = await api(`/api/games/${gameId}/notes/`).catch(() => []);
    show(currentSeq(root));
  };
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    save.disabled = true;
    error.textContent = "";
    try {
      await api(`/api/games/${gameId}/notes/`, { method: "POST", body: { seq: currentSeq(root), text: text.value, public: publicBox.checked } });
      text.value = "";
      await reload();
    } catch (failure) {
      error.textContent = has(`error_${failure.code}`) ? t(`error_${failure.code}`) : failure.message;
    } finally {
      save.disabled = false;
    }
  });
  box.replaceChildren(title, hereTitle, here, empty, all);
  if (box.dataset.signedIn) box.append(form);
  else box.append(el("p", "notes-sign-in", t("notes_sign_in")));
  onMoment(root, show);
  reload();
}

const box = document.getElementById("notes");
const root = document.getElementById("replay");
if (box && root) mount(box, root);
