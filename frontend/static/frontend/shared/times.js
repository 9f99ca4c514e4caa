// Times as every page words them, one format per language (the rule of frontend/time_words.py,
// which writes the server's first text and the mails):
// - a duration (a countdown, the time left): its two largest units, each whole, as SI symbols
//   read alike in English and Czech: "45 s", "59 min 55 s", "1 h 5 min", "1 h", "2 d 3 h";
// - a moment: "1 Dec 2026, 18:05" / "1. 12. 2026 18:05" (Intl's medium date and short time in
//   en-GB and cs: day before month, 24-hour clock), in the reader's own time zone;
// - a clock time: "18:05".
// Loading this module rewrites every server-rendered <time data-when> in the reader's zone.
import { LANG } from "./i18n.js";

const UNITS = { en: ["d", "h", "min", "s"], cs: ["d", "h", "min", "s"] };
const STEPS = [86400, 3600, 60, 1];
const LOCALE = { en: "en-GB", cs: "cs" };
const MOMENT = new Intl.DateTimeFormat(LOCALE[LANG], { dateStyle: "medium", timeStyle: "short" });
const CLOCK = new Intl.DateTimeFormat(LOCALE[LANG], { timeStyle: "short" });

/** 3595 → "59 min 55 s", 3900 → "1 h 5 min", 183600 → "2 d 3 h", 0 → "0 s". */
export function duration(seconds) {
  const units = UNITS[LANG];
  let left = Math.max(0, Math.floor(seconds));
  const parts = [];
  STEPS.forEach((step, i) => {
    const amount = Math.floor(left / step);
    left %= step;
    if (amount || parts.length) parts.push([amount, units[i]]);
  });
  if (!parts.length) return `0 ${units.at(-1)}`;
  const [first, ...rest] = parts.slice(0, 2); // "1 h", not "1 h 0 min"
  return [first, ...rest.filter(([n]) => n)].map(([n, unit]) => `${n} ${unit}`).join(" ");
}

/** duration() from `now` until the ISO time `iso` ("0 s" once due). */
export function timeLeft(iso, now = Date.now()) {
  return duration((Date.parse(iso) - now) / 1000);
}

/** An ISO time (or Date) as a moment: "1 Dec 2026, 18:05" / "1. 12. 2026 18:05". */
export function moment(value) {
  return MOMENT.format(new Date(value));
}

/** An ISO time (or Date) as a clock time: "18:05" / "18:05". */
export function clockTime(value) {
  return CLOCK.format(new Date(value));
}

/** Every <time datetime=… data-when> under `root`, in the reader's time zone. */
export function showMoments(root = document) {
  for (const time of root.querySelectorAll("time[data-when]")) {
    if (time.dateTime) time.textContent = moment(time.dateTime);
  }
}

showMoments();
