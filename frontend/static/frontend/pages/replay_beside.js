// The replay page's second entry: the features beside the replay (issue 30) — the odds, the
// notes and "Play on from here" — after pages/replay.js, so the viewer asks for its events first.
import "../shared/odds.js";
import "../shared/notes.js";
import "../shared/forks.js";
