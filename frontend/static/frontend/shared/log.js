// The game log: one <li data-log-seq> per event, in the page language, built from the event's
// type and data (games/engine/events.py; the same ideas as replays/transcript.py). It follows
// the lives as the events change them, so life changes read "Eva 6 → 5".

import { AWAY_TELL } from "./away.js";
import { cardRef, effectText } from "./cards.js";
import { FORK_TELL } from "./fork_log.js";
import { count, t, tNodes } from "./i18n.js";
import { seatName } from "./names.js";
import { el } from "./render.js";

const MINOR = new Set(["block_passed", "neighbor_requested", "turn_ended", "card_drawn", "seat_taken"]);

/** Lines that only keep the record complete are drawn quieter than the moves. */
function minor(event) {
  const d = event.data;
  if (event.type === "die_rolled") return d.purpose === "first";
  if (event.type === "effect_resolved") return !d.bonus?.length;
  return MINOR.has(event.type);
}

export class LogBook {
  /** `list` is the #log <ol>; `since` the last seq seen on the previous visit (or null). */
  constructor(list, catalog, { since = null } = {}) {
    Object.assign(this, { list, catalog, since });
    this.lastSeq = 0;
    this.early = new Map(); // seq -> a live event that came after a gap, until the gap fills
    this.names = [];
    this.lives = [];
    this.countdown = null; // the countdown die as last told, to tell only its changes
    this.lastPlay = null; // {card, item} of the latest card_played, for a block to strike it
    this.marks = []; // [{seq, card}] blocks and [{seq, reset: true}] reshuffles, for blockedAt
    this.away = null; // what changed since the last visit: {from, events, turns, out, ended}
    this.texts = new Map(); // seq -> the line in plain words (the replay's "now" line)
    this.cameFrom = new Map(); // card id -> the seat that last put it on the table (motion)
    this.outOrder = []; // seats in the order they went out (the places at the end)
    this.beats = []; // [{seq, text, die, coin, lives}] the moves worth showing one by one (card_flight.js)
  }

  name(seat) {
    return this.names[seat] ?? t("seat_name", { seat });
  }

  /** Append `event` unless it was shown already (never twice); returns its <li> or null. */
  add(event) {
    if (event.seq <= this.lastSeq) return null;
    this.lastSeq = event.seq;
    this.noteSince(event);
    const item = el("li", minor(event) ? "minor" : "");
    item.dataset.logSeq = String(event.seq);
    item.classList.add(`ev-${event.type}`);
    const beat = BEATS[event.type]?.(this, event.data);
    if (beat) this.beats.push({ seq: event.seq, type: event.type, ...beat });
    if (event.type === "player_eliminated") this.outOrder.push(event.data.seat);
    // Nothing changed: said quietly, once (issue 29: no "Lives: bot#2 6 → 6").
    const moved = (pairs) => pairs.some(([seat, x]) => this.lives[seat] !== x);
    if ((event.type === "lives_changed" && !moved(event.data.changes))
      || (event.type === "effect_resolved" && !moved(event.data.bonus ?? []))) {
      item.classList.add("minor");
    }
    const lines = (FORMAT[event.type] ?? (() => [[event.type, {}]]))(this, event.data);
    const texts = lines.map(([key, fields], i) => {
      const line = tNodes(key, fields);
      const text = line.textContent;
      if (i) item.append(el("br"));
      item.append(line);
      return text;
    });
    this.texts.set(event.seq, texts.join(" · "));
    if (event.type === "card_played") this.lastPlay = { card: event.data.card, item };
    if (["card_played", "play_blocked"].includes(event.type)) this.cameFrom.set(event.data.card, event.data.seat);
    if (event.type === "play_blocked" && this.lastPlay) {
      this.lastPlay.item.classList.add("blocked");
      this.lastPlay.item.append(" — ", el("em", "", t("blocked")));
      this.marks.push({ seq: event.seq, card: this.lastPlay.card });
    }
    if (event.type === "deck_reshuffled") this.marks.push({ seq: event.seq, reset: true });
    this.list.append(item);
    return item;
  }

  /** The beats after `seq` (what happened since my move), in words, for the prompt. */
  beatsSince(seq) {
    return this.beats.filter((b) => b.seq > seq).map((b) => b.text);
  }

  /** A live event, in whatever order it came: shown when it is the next, kept while an
   *  earlier one is missing (then shown once that arrives), ignored when shown already. */
  offer(event) {
    if (event.seq > this.lastSeq + 1) return void this.early.set(event.seq, event);
    this.add(event);
    for (let next; (next = this.early.get(this.lastSeq + 1)); ) this.add(next);
    this.early.forEach((_, seq) => seq <= this.lastSeq && this.early.delete(seq));
  }

  /** True while an event came ahead of one still missing. */
  get missing() {
    return this.early.size > 0;
  }

  /** The played cards still lying blocked in the discard pile after event `seq`. */
  blockedAt(seq = Infinity) {
    const out = new Set();
    this.marks.filter((m) => m.seq <= seq).forEach((m) => (m.reset ? out.clear() : out.add(m.card)));
    return out;
  }

  /** Track what happened after the previous visit; put the separator before its first event. */
  noteSince(event) {
    if (this.since === null || event.seq <= this.since) return;
    if (!this.away) {
      this.away = { from: [...this.lives], events: 0, turns: 0, out: [], ended: false };
      const sep = el("li", "since", t("log_since"));
      sep.id = "log-since";
      this.list.append(sep);
    }
    this.away.events += 1;
    if (event.type === "turn_started") this.away.turns += 1;
    if (event.type === "player_eliminated") this.away.out.push(event.data.seat);
    if (event.type === "game_ended") this.away.ended = true;
  }

  /** "Since your last visit: …" in words, or "" on a first visit. */
  summary() {
    if (this.since === null) return "";
    const a = this.away;
    if (!a) return t("log_nothing_new");
    const parts = [t("log_summary", { events: count("events", a.events), turns: count("turns", a.turns) })];
    const changed = this.lives.map((x, seat) => [seat, a.from[seat], x]).filter(([, b, x]) => b !== x);
    if (changed.length) {
      const text = changed.map(([seat, b, x]) => `${this.name(seat)} ${b} → ${x}`).join(", ");
      parts.push(t("log_summary_lives", { changes: text }));
    }
    if (a.out.length) parts.push(t("log_summary_out", { names: a.out.map((s) => this.name(s)).join(", ") }));
    if (a.ended) parts.push(t("log_summary_end"));
    return parts.join(" ");
  }

  changes(pairs) {
    const moved = pairs.filter(([seat, x]) => this.lives[seat] !== x); // no "Eva 6 → 6"
    const text = moved.map(([seat, x]) => `${this.name(seat)} ${this.lives[seat] ?? "?"} → ${x}`).join(", ");
    pairs.forEach(([seat, x]) => { this.lives[seat] = x; });
    return text;
  }

  effect(card, index) {
    const effect = this.catalog[card]?.[index];
    return el("span", "effect-text", effect ? effectText(effect) : `#${index}`);
  }
}

const cards = (ids) => {
  const out = document.createDocumentFragment();
  ids.forEach((id, i) => out.append(i ? " " : "", cardRef(id)));
  return out;
};

/** The moves worth showing one at a time on the felt (card_flight.js) and in "since your move":
 * plays, blocks, rolls, tosses, bets, neighbour picks, lives that moved, players out, the end.
 * Called before FORMAT, while `log.lives` still holds the lives before the event. */
const BEATS = {
  turn_started: (log, d) => ({ text: t("b_turn", { turn: d.turn, who: log.name(d.kostic) }), quiet: true }),
  card_played: (log, d) => ({ text: d.scope === "all" ? t("b_play_all", { who: log.name(d.seat), card: d.card })
    : t("b_play", { who: log.name(d.seat), card: d.card, target: log.name(d.target) }), card: d.card }),
  play_blocked: (log, d) => ({ text: t("b_blocked", { who: log.name(d.seat), card: d.card }) }),
  die_rolled: (log, d) => (d.purpose === "first" ? null : { text: t("b_roll", { who: log.name(d.seat), value: d.value }), die: d.value }),
  coin_tossed: (log, d) => ({ text: t("b_toss", { who: log.name(d.seat), side: t(`bet_${d.side}`) }), coin: d.side }),
  bet_placed: (log, d) => ({ text: t("b_bet", { who: log.name(d.seat), value: t(`bet_${d.value}`) }) }),
  neighbor_chosen: (log, d) => ({ text: t("b_neighbor", { who: log.name(d.seat), other: log.name(d.neighbor) }) }),
  lives_changed: (log, d) => livesBeat(log, d.changes),
  effect_resolved: (log, d) => (d.bonus?.length ? livesBeat(log, d.bonus) : null),
  player_eliminated: (log, d) => ({ text: t("b_out", { who: log.name(d.seat) }) }),
  game_ended: () => ({ text: t("b_end") }),
};

function livesBeat(log, pairs) {
  const moved = pairs.filter(([seat, x]) => log.lives[seat] !== undefined && log.lives[seat] !== x);
  if (!moved.length) return null;
  return {
    text: moved.map(([seat, x]) => t("b_lives", { who: log.name(seat), from: log.lives[seat], to: x })).join(", "),
    lives: moved.map(([seat, x]) => [seat, x - log.lives[seat]]),
  };
}

const FORMAT = {
  game_created: (log, d) => {
    log.lives = Array(d.seats).fill(6);
    const duel = t(d.options?.duel_coin ? "duel_coin" : "duel_die");
    const rigged = d.rig ? t("rigged_suffix") : "";
    return [["created", { variant: t(`variant_${d.variant}`), players: count("players", d.seats), duel, rigged }]];
  },
  seat_taken: (log, d) => {
    // The view naming this player arrives after the events of the same batch (game start).
    if (!log.names[d.seat] || log.names[d.seat] === t("seat_name", { seat: d.seat })) log.names[d.seat] = seatName({ seat: d.seat, username: d.name, bot: d.bot });
    return [[d.bot ? "seat_taken_bot" : "seat_taken", { who: d.name, seat: d.seat }]];
  },
  game_started: (log, d) => {
    if (d.forked) return [["log_fork_started", {}]]; // a fork's start: its `forked` dealt
    log.lives = [...d.lives];
    const lines = [["started", { count: d.draw.length }]];
    d.hands.forEach((hand, seat) => {
      if (hand.length && !hand.includes(null)) lines.push(["holds", { who: log.name(seat), cards: cards(hand) }]);
    });
    return lines;
  },
  die_rolled: (log, d) => (d.purpose === "first"
    ? [["first_roll", { who: log.name(d.seat), value: d.value }]]
    : [["roll", { who: log.name(d.seat), value: d.value, result: t(d.hit ? "hit" : "miss") }]]),
  coin_tossed: (log, d) => [["toss", { who: log.name(d.seat), side: t(`bet_${d.side}`), result: t(d.hit ? "hit" : "miss") }]],
  turn_started: (log, d) => [["turn", { turn: d.turn, who: log.name(d.kostic) }]],
  turn_skipped: (log, d) => [[`skip_${d.reason}`, { who: log.name(d.seat) }]],
  card_played: (log, d) => {
    const fields = { who: log.name(d.seat), card: cardRef(d.card), effect: log.effect(d.card, d.effect) };
    if (d.scope === "all") return [["play_all", fields]];
    return [["play_one", { ...fields, target: log.name(d.target) }]];
  },
  block_passed: (log, d) => [d.seat === null ? ["passes_hidden", {}]
    : [d.standing ? "passes_standing" : "passes", { who: log.name(d.seat) }]],
  play_blocked: (log, d) => [[d.standing ? "blocks_standing" : "blocks", { who: log.name(d.seat), card: cardRef(d.card) }]],
  block_window_closed: () => [["unblocked", {}]],
  neighbor_requested: (log, d) => [["neighbor_asked", { who: log.name(d.seat) }]],
  neighbor_chosen: (log, d) => [["neighbor_chosen", { who: log.name(d.seat), other: log.name(d.neighbor) }]],
  duel_started: (log, d) => [["duel", { who: log.name(d.seats[0]), other: log.name(d.seats[1]) }]],
  bet_placed: (log, d) => [["bet", { who: log.name(d.seat), value: t(`bet_${d.value}`) }]],
  lives_changed: (log, d) => [d.changes.some(([seat, x]) => log.lives[seat] !== x)
    ? ["lives_changed", { changes: log.changes(d.changes) }] : ["no_change", {}]],
  player_eliminated: (log, d) => [d.by === null || d.by === undefined
    ? ["eliminated", { who: log.name(d.seat) }]
    : ["eliminated_by", { who: log.name(d.seat), by: log.name(d.by) }]],
  countdown_started: (log, d) => {
    log.countdown = d.value;
    return [["countdown_started", { value: d.value }]];
  },
  // A bonus that moves nothing (already at 6) is no line of its own (issue 29: no "bonus:" alone).
  effect_resolved: (log, d) => [d.bonus.some(([seat, x]) => log.lives[seat] !== x)
    ? ["bonus", { changes: log.changes(d.bonus) }] : ["effect_done", {}]],
  card_handed_off: (log, d) => {
    const who = log.name(d.seat);
    const lines = [d.to === null ? ["handoff_declined", { who }]
      : d.card === null ? ["handed_hidden", { who, to: log.name(d.to) }]
        : ["handed", { who, card: cardRef(d.card), to: log.name(d.to) }]];
    if (d.discarded?.length) lines.push(["discards", { who, cards: cards(d.discarded) }]);
    return lines;
  },
  deck_reshuffled: (log, d) => [["reshuffled", { count: d.draw.length }]],
  card_drawn: (log, d) => [d.card ? ["draws", { who: log.name(d.seat), card: cardRef(d.card) }]
    : ["draws_hidden", { who: log.name(d.seat) }]],
  turn_ended: (log, d) => {
    const step = d.countdown !== null && !d.game_over && d.countdown !== log.countdown;
    log.countdown = d.countdown;
    return [step ? ["countdown_step", { value: d.countdown }] : ["turn_ended", { turn: d.turn }]];
  },
  timed_out: (log, d) => [["timed_out", { phase: t(`phase_${d.phase}`), who: d.seats.map((s) => log.name(s)).join(", ") }]],
  ...AWAY_TELL, // who left, was taken over by the bot, came back, went on vacation
  ...FORK_TELL, // a fork's first event (issue 30)
  game_ended: (log, d) => [[`ended_${d.reason}`, {}],
    [d.winners.length > 1 ? "winners_many" : "winners_one", { names: d.winners.map((s) => log.name(s)).join(", ") }]],
};
