// The replay viewer's position for the modules beside it (forks.js, notes.js, odds.js), read
// and moved through the page itself: the shown seq is #replay's data-seq (render.js sets it on
// every view drawn), and a jump moves the scrubber as a user would (replay.js follows it).

export function currentSeq(root) {
  return Number(root.dataset.seq) || Number(root.dataset.at) || 0;
}

/** Call `callback(seq)` whenever the page shows another moment. */
export function onMoment(root, callback) {
  new MutationObserver(() => callback(currentSeq(root)))
    .observe(root, { attributes: true, attributeFilter: ["data-seq"] });
}

/** Show moment `seq` (the scrubber's own input event: replay.js does the rest). */
export function jumpTo(seq) {
  const scrubber = document.getElementById("scrubber");
  if (!scrubber) return;
  scrubber.value = String(seq);
  scrubber.dispatchEvent(new Event("input", { bubbles: true }));
}
