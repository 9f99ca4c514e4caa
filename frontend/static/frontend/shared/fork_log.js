// How the game log tells a fork's start (issue 30): its first event `forked` (where it came
// from, the position it starts in) and its `game_started` with no deal. log.js spreads
// FORK_TELL into its formatters, as it does away.js's.

import { t } from "./i18n.js";


export const FORK_TELL = {
  forked: (log, d) => {
    log.lives = [...d.lives];
    return [["log_forked", { game: d.source.game, at: d.source.at, deal: t(`log_fork_${d.deal}`), count: d.draw.length }]];
  },
};
