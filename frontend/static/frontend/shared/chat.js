// The chat panel of the table page (API.md, Correspondence: Chat). Tabs for the channels this
// viewer may read; messages over REST (GET/POST /api/games/{id}/chat/), live from the table's
// websocket: table.js passes every frame on as a "sejmi:socket" event on the table's root
// ({type: "chat"} frames, the views, and {type: "open"} when a socket opens, after which the
// messages missed while it was down are fetched). The server decides who reads and writes
// what (games/chat/rules.py); the tabs only follow the same rules, from the view.

import { api } from "./api.js";
import { has, t as say } from "./i18n.js";
import { clockTime } from "./times.js";

// This module's words are the catalog's "chat_…" (frontend/page_words.py).
const t = (key, fields = {}) => say("chat_" + key, fields);

const MAX = 500;
const PAIRS = ["pairs", "pairs_extreme"];

/** The channels `view`'s viewer reads, each with whether he may write it (games/chat/rules.py). */
function channelsFor(view, signedIn) {
  const player = view.you !== null && view.you !== undefined;
  const ended = view.status === "ended";
  if (player) {
    const mine = [{ name: "table", write: true }];
    if (PAIRS.includes(view.variant)) mine.push({ name: "partners", write: true });
    if (ended) mine.push({ name: "spectators", write: false });
    return mine;
  }
  return [{ name: "table", write: false }, { name: "spectators", write: signedIn }];
}

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("aria-") || key === "role" || key === "for") node.setAttribute(key, value);
    else node[key] = value;
  }
  node.append(...children);
  return node;
}

class ChatPanel {
  constructor(mount, gameId) {
    this.mount = mount;
    this.gameId = gameId;
    this.signedIn = mount.dataset.signedIn === "1";
    this.me = mount.dataset.user || null;
    this.channels = [];
    this.current = null;
    this.lists = new Map(); // channel -> <ol>
    this.lastId = new Map(); // channel -> the newest id shown
    this.unread = new Map();
    this.key = ""; // what the tabs were drawn for
    this.build();
  }

  build() {
    this.tabs = el("div", { role: "tablist", className: "chat-tabs", "aria-labelledby": "chat-title" });
    this.panels = el("div", { className: "chat-panels" });
    this.note = el("p", { className: "chat-note", id: "chat-note" });
    this.error = el("p", { className: "chat-error", role: "alert", id: "chat-error" });
    this.text = el("textarea", { id: "chat-text", rows: 2, maxLength: MAX, "aria-describedby": "chat-note chat-left chat-error" });
    this.left = el("span", { id: "chat-left", className: "chat-left" });
    this.button = el("button", { type: "submit", className: "primary", textContent: t("send") });
    this.form = el("form", { className: "chat-form" },
      el("label", { for: "chat-text", textContent: t("message") }), this.text,
      el("div", { className: "chat-send" }, this.left, this.button));
    this.mount.append(el("h2", { id: "chat-title", textContent: t("chat") }), this.tabs,
      this.panels, this.note, this.form, this.error);
    this.form.addEventListener("submit", (e) => { e.preventDefault(); this.send(); });
    this.text.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && !e.shiftKey && !e.isComposing) { e.preventDefault(); this.send(); }
    });
    this.text.addEventListener("input", () => this.count());
    this.tabs.addEventListener("keydown", (e) => this.arrows(e));
    this.count();
  }

  /** A view arrived: draw the tabs again if the channels changed (a join, the end). */
  follow(view) {
    const channels = channelsFor(view, this.signedIn);
    const key = JSON.stringify(channels);
    if (key === this.key) return;
    this.key = key;
    this.channels = channels;
    this.tabs.replaceChildren(...channels.map((c) => this.tab(c.name)));
    for (const c of channels) {
      if (!this.lists.has(c.name)) {
        const list = el("ol", { className: "chat-log", tabIndex: 0, "aria-live": "polite",
          "aria-labelledby": `chat-tab-${c.name}` });
        list.dataset.channel = c.name;
        this.lists.set(c.name, list);
        this.panels.append(el("div", { role: "tabpanel", id: `chat-panel-${c.name}`,
          "aria-labelledby": `chat-tab-${c.name}` }, list));
        this.load(c.name);
      }
    }
    for (const [name, list] of this.lists) {
      if (!channels.some((c) => c.name === name)) { list.parentNode.remove(); this.lists.delete(name); }
    }
    const keep = channels.some((c) => c.name === this.current);
    this.select(keep ? this.current : channels[0].name);
  }

  tab(name) {
    const button = el("button", { type: "button", role: "tab", id: `chat-tab-${name}`,
      className: "chat-tab", "aria-controls": `chat-panel-${name}` });
    button.dataset.channel = name;
    button.addEventListener("click", () => this.select(name));
    this.label(button, name);
    return button;
  }

  label(button, name) {
    const n = this.unread.get(name) || 0;
    button.replaceChildren(t(name));
    if (n) button.append(" ", el("span", { className: "chat-unread", textContent: t("unread", { n }) }));
  }

  arrows(e) {
    const i = this.channels.findIndex((c) => c.name === this.current);
    const step = { ArrowRight: 1, ArrowLeft: -1 }[e.key];
    if (!step || i < 0) return;
    const next = this.channels[(i + step + this.channels.length) % this.channels.length].name;
    this.select(next);
    this.tabs.querySelector(`[data-channel="${next}"]`).focus();
  }

  select(name) {
    this.current = name;
    this.unread.set(name, 0);
    for (const button of this.tabs.children) {
      const on = button.dataset.channel === name;
      button.setAttribute("aria-selected", String(on));
      button.tabIndex = on ? 0 : -1;
      this.label(button, button.dataset.channel);
    }
    for (const [channel, list] of this.lists) list.parentNode.hidden = channel !== name;
    const write = this.channels.find((c) => c.name === name)?.write;
    this.form.hidden = !write;
    this.note.textContent = !this.signedIn && name === "spectators" ? t("sign_in")
      : !write ? t(`read_only_${name}`) : name === "partners" ? t("help_partners")
        : name === "spectators" ? t("help_spectators") : "";
    this.error.textContent = "";
    this.scrollDown(this.lists.get(name));
  }

  async load(channel) {
    const after = this.lastId.get(channel);
    const query = `channel=${channel}` + (after !== undefined ? `&after=${after}` : "");
    try {
      let page = await api(`/api/games/${this.gameId}/chat/?${query}`);
      this.add(page.messages, { quiet: after === undefined });
      while (page.more) {
        page = await api(`/api/games/${this.gameId}/chat/?channel=${channel}&after=${this.lastId.get(channel)}`);
        this.add(page.messages, { quiet: false });
      }
      if (!this.lastId.has(channel)) this.lastId.set(channel, 0); // after a drop: ask after 0
    } catch (error) {
      if (error.code !== "forbidden") this.showError(error);
    }
    const list = this.lists.get(channel);
    if (list && !list.children.length) list.append(el("li", { className: "chat-empty", textContent: t("empty") }));
  }

  /** Messages in, each once and in id order (a live one may come before an older page; a
   * hiding replaces the message it hides). */
  add(messages, { quiet }) {
    for (const m of messages) {
      const list = this.lists.get(m.channel);
      if (!list) continue;
      list.querySelector(".chat-empty")?.remove();
      const atBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 40;
      const line = this.line(m);
      const old = list.querySelector(`[data-chat="${m.id}"]`);
      if (old) { old.replaceWith(line); continue; }
      const later = [...list.children].find((li) => Number(li.dataset.chat) > m.id);
      list.insertBefore(line, later ?? null);
      this.lastId.set(m.channel, Math.max(this.lastId.get(m.channel) ?? 0, m.id));
      if (atBottom || m.author === this.me) this.scrollDown(list);
      if (!quiet && m.channel !== this.current) {
        this.unread.set(m.channel, (this.unread.get(m.channel) || 0) + 1);
        const button = this.tabs.querySelector(`[data-channel="${m.channel}"]`);
        if (button) this.label(button, m.channel);
      }
    }
  }

  line(m) {
    const at = new Date(m.at);
    const time = el("time", { dateTime: m.at, textContent: clockTime(at) });
    const who = el("strong", { className: "chat-author", textContent: m.author === this.me ? `${m.author} (${t("you")})` : m.author });
    const text = m.hidden
      ? el("em", { className: "chat-text chat-hidden", textContent: t("hidden") })
      : el("span", { className: "chat-text", textContent: m.text });
    const line = el("li", { className: "chat-line" }, time, " ", who, ": ", text);
    line.dataset.chat = m.id;
    return line;
  }

  scrollDown(list) {
    if (list) list.scrollTop = list.scrollHeight;
  }

  count() {
    this.left.textContent = t("left", { n: MAX - this.text.value.length });
  }

  showError(error) {
    const key = `error_${error.code}`;
    this.error.textContent = has(`chat_${key}`) ? t(key) : t("error", { message: error.message });
  }

  async send() {
    const text = this.text.value.trim();
    if (!text || this.button.disabled) return;
    this.button.disabled = true;
    this.error.textContent = "";
    try {
      const message = await api(`/api/games/${this.gameId}/chat/`, {
        method: "POST", body: { channel: this.current, text },
      });
      this.add([message], { quiet: true });
      this.text.value = "";
      this.count();
    } catch (error) {
      this.showError(error);
    } finally {
      this.button.disabled = false;
      this.text.focus();
    }
  }

  /** A websocket frame, as table.js passes it on. */
  frame(data) {
    if (data.type === "chat") this.add([data.message], { quiet: false });
    else if (data.type === "view") this.follow(data.view);
    else if (data.type === "open") for (const c of this.channels) if (this.lastId.has(c.name)) this.load(c.name);
  }
}

const root = document.getElementById("table");
const mount = document.getElementById("chat");
if (root && mount) {
  const panel = new ChatPanel(mount, root.dataset.game);
  root.addEventListener("sejmi:socket", (e) => panel.frame(e.detail));
  api(`/api/games/${root.dataset.game}/`).then((view) => panel.follow(view), (error) => panel.showError(error));
}
