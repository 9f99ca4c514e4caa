// How the game log tells a fork's start (issue 30): its first event `forked` (where it came
// from, the position it starts in) and its `game_started` with no deal. log.js spreads
// FORK_TELL into its formatters, as it does away.js's.

import { addWords, t } from "./i18n.js";

addWords({
  log_forked: "Played on from game {game} after move {at}; deal: {deal}; draw pile: {count}",
  log_fork_same: "the same draw pile", log_fork_fresh: "the unseen cards reshuffled",
  log_fork_started: "The game goes on where its source stood",
}, {
  log_forked: "Pokračování hry {game} po tahu {at}; karty: {deal}; v dobíracím balíčku: {count}",
  log_fork_same: "stejný dobírací balíček", log_fork_fresh: "neviděné karty znovu zamíchány",
  log_fork_started: "Hra pokračuje tam, kde stála původní",
});

export const FORK_TELL = {
  forked: (log, d) => {
    log.lives = [...d.lives];
    return [["log_forked", { game: d.source.game, at: d.source.at, deal: t(`log_fork_${d.deal}`), count: d.draw.length }]];
  },
};
