// The pass of a block window where none of my cards can block (issue 29): the prompt says so
// ("no_block_auto") and the page passes by itself, with no click (a mixin of prompt.js's Actor).
//
// R19: the window closes when everyone asked has passed, and nobody may learn who could have
// blocked. The pass is the same command, sealed the same way as a click's, so no payload differs;
// but *when* the window closes is public. A pass at a fixed moment (it was 1.5 s) tells the
// table "this one could not block" whenever the window closes at exactly that moment. So the
// moment is drawn at random over the range in which people decide to pass by hand (most within
// a few seconds, some later), from the browser's CSPRNG, never past the window's deadline; a
// player who could block may pass at any of the same moments.

// A human's pass: uniform between 1.2 s and 3.5 s, plus a tail (one in four) up to 8 s.
export const HUMAN_PASS_MS = { from: 1200, to: 3500, tail: 8000, tailShare: 0.25 };
// Never later than this before the window's deadline (the service would pass for us then).
const DEADLINE_MARGIN_MS = 1000;

/** A uniform number in [0, 1) from the CSPRNG (Math.random's generator is guessable). */
export function secureRandom() {
  const [word] = crypto.getRandomValues(new Uint32Array(1));
  return word / 2 ** 32;
}

/** How long to wait before the automatic pass, in ms: drawn over HUMAN_PASS_MS from
 * `random()` (two draws in [0, 1)), cut to leave DEADLINE_MARGIN_MS before `leftMs` (the window's
 * time left; null when unknown). */
export function passDelay(leftMs = null, random = secureRandom) {
  const { from, to, tail, tailShare } = HUMAN_PASS_MS;
  const late = random() < tailShare;
  const delay = late ? to + random() * (tail - to) : from + random() * (to - from);
  if (leftMs === null || !Number.isFinite(leftMs)) return delay;
  return Math.max(0, Math.min(delay, leftMs - DEADLINE_MARGIN_MS));
}

export const autoPass = {
  /** Only "pass" is legal in a block window: send it after passDelay(), once, if the same
   * decision still stands then (a visible tab only: a hidden one waits until it is seen). */
  passWhenNothingBlocks(view, legal, decision) {
    const only = view.phase === "block" && legal.length === 1 && legal[0].type === "pass";
    if (!only) return;
    if (this.autoPass?.decision === decision) return;
    clearTimeout(this.autoPass?.timer);
    const left = () => (view.deadline ? Date.parse(view.deadline) - Date.now() : null);
    const fire = () => {
      if (this.decision !== decision || this.busy) return;
      if (document.visibilityState === "hidden") {
        document.addEventListener("visibilitychange", () => this.autoPass?.decision === decision
          && (this.autoPass.timer = setTimeout(fire, passDelay(left()))), { once: true });
        return;
      }
      this.submit({ type: "pass" });
    };
    const delay = passDelay(left());
    this.autoPass = { decision, delay, timer: setTimeout(fire, delay) };
    this.root.dataset.autoPassMs = String(Math.round(delay)); // read by the browser tests
  },
};
