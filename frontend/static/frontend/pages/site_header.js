// The bell in every page's header (signed-in users): the unread count, kept live over the
// user's own websocket /ws/me/ (API.md "Notifications": {"type": "notification",
// "notification", "unread"}), and a list of the newest notifications with links to their games,
// "Mark all read" and a link to them all (/notifications/). The list and the count come over
// REST (on load, on opening the list, after every reconnect); the socket only says that
// something new arrived. Each kind's line and link come from the one table of kinds
// (games/notifications/kinds.py) as the JSON island #notification-kinds of the page.
import { api } from "../shared/api.js";
import { t as say } from "../shared/i18n.js";
import { moment } from "../shared/times.js";
import { pushControl } from "../shared/push.js";

// This module's words are the catalog's "bell_…" (frontend/page_words.py).
const t = (key, fields = {}) => say("bell_" + key, fields);
const fill = (text, vars) => text.replace(/\{(\w+)\}/g, (_, name) => String(vars[name] ?? ""));
const KINDS = JSON.parse(document.getElementById("notification-kinds")?.textContent || "{}");
// A notification's line and link (its fields: game, seq; a tournament's round is its seq).
const said = (n) => {
  const kind = KINDS[n.kind] || { summary: n.kind, link: "/games/{game}/" };
  const vars = { game: n.game, seq: n.seq, round: n.seq };
  return { text: fill(kind.summary, vars), href: fill(kind.link, vars) };
};

const mount = document.querySelector("[data-bell]");
if (mount) start(mount);

function start(root) {
  root.hidden = false;
  root.innerHTML = `
    <button type="button" class="bell__button" aria-expanded="false" aria-controls="bell-panel">
      <svg class="bell__icon" aria-hidden="true" viewBox="0 0 24 24" width="18" height="18"><path fill="currentColor" d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1Z"/></svg><span class="bell__count" data-unread="0">0</span>
    </button>
    <div class="bell__panel" id="bell-panel" hidden>
      <ul class="bell__list" aria-live="polite"></ul>
      <button type="button" class="bell__mark">${t("mark_all")}</button>
      <a class="bell__all" href="/notifications/">${t("all")}</a>
      <div class="bell__push"></div>
    </div>`;
  pushControl(root.querySelector(".bell__push")); // push.js: "Notify me on this device"
  const button = root.querySelector(".bell__button");
  const panel = root.querySelector(".bell__panel");
  button.addEventListener("click", async () => {
    const open = panel.hidden;
    panel.hidden = !open;
    button.setAttribute("aria-expanded", String(open));
    if (open) await refresh(root);
  });
  root.querySelector(".bell__mark").addEventListener("click", async () => {
    const answer = await api("/api/notifications/read/", { method: "POST", body: { all: true } });
    showCount(root, answer.unread);
    await refresh(root);
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !panel.hidden) {
      panel.hidden = true;
      button.setAttribute("aria-expanded", "false");
      button.focus();
    }
  });
  refresh(root);
  listen(root);
  document.addEventListener("sejmi:notifications-read", () => refresh(root)); // visit_report.js
}

async function refresh(root) {
  try {
    const answer = await api("/api/notifications/");
    showCount(root, answer.unread);
    showList(root, answer.notifications);
  } catch {
    /* offline: the socket's reconnect refreshes */
  }
}

function showCount(root, unread) {
  const count = root.querySelector(".bell__count");
  count.textContent = String(unread);
  count.dataset.unread = String(unread);
  root.querySelector(".bell__button").setAttribute(
    "aria-label", unread ? t("unread", { n: unread }) : t("unread_none"));
}

function showList(root, notifications) {
  const list = root.querySelector(".bell__list");
  list.replaceChildren();
  if (!notifications.length) {
    const item = document.createElement("li");
    item.className = "bell__empty";
    item.textContent = t("empty");
    list.append(item);
  }
  // Grouped by game (issue 29), the game with the newest notification first.
  for (const n of notifications.slice(0, 20)) groupOf(list, n.game, "append").append(entry(root, n));
}

/** The list's group of game `game` (a heading and its own list), made at the end ("append")
 * or the top ("prepend") when missing; a group that gets a new notification moves to the top. */
function groupOf(list, game, where) {
  let group = list.querySelector(`:scope > .bell__game[data-game="${game}"]`);
  if (!group) {
    group = document.createElement("li");
    group.className = "bell__game";
    group.dataset.game = String(game);
    const title = document.createElement("a");
    title.className = "bell__game-title";
    title.href = `/games/${game}/`;
    title.textContent = t("game", { game });
    group.append(title, document.createElement("ul"));
    list[where](group);
  } else if (where === "prepend") {
    list.prepend(group);
  }
  return group.querySelector("ul");
}

function entry(root, n) {
  const item = document.createElement("li");
  item.className = n.read ? "bell__item" : "bell__item bell__item--unread";
  item.dataset.notification = String(n.id);
  const link = document.createElement("a");
  const { text, href } = said(n);
  link.href = href;
  link.textContent = text;
  if (!n.read) link.append(` (${t("unread_item")})`);
  link.addEventListener("click", async (event) => {
    if (n.read) return;
    event.preventDefault();
    try {
      await api("/api/notifications/read/", { method: "POST", body: { ids: [n.id] } });
    } finally {
      location.href = link.href;
    }
  });
  const time = document.createElement("time");
  time.dateTime = n.at;
  time.textContent = moment(n.at); // times.js, as on every page
  item.append(link, " ", time);
  return item;
}

// The user's own socket; a dropped one comes back with back-off (0.5 s doubling to 10 s) and
// refreshes the count, since notifications may have arrived meanwhile.
function listen(root, delay = 500, again = false) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/me/`);
  socket.addEventListener("open", () => {
    delay = 500;
    if (again) refresh(root);
  });
  socket.addEventListener("message", (message) => {
    const data = JSON.parse(message.data);
    if (data.type !== "notification") return;
    showCount(root, data.unread);
    const list = root.querySelector(".bell__list");
    list.querySelector(".bell__empty")?.remove();
    groupOf(list, data.notification.game, "prepend").prepend(entry(root, data.notification));
  });
  socket.addEventListener("close", (event) => {
    if (event.code === 4401) return; // signed out
    setTimeout(() => listen(root, Math.min(delay * 2, 10000), true), delay);
  });
}
