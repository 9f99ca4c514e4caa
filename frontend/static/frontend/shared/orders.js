// Standing orders (issue 10; API.md "Correspondence"): the player's own order for block
// windows, for this game on the table page or his default on My games, read and saved over
// the public API. Words come translated in the section's data-t-* attributes and labels.
import { api } from "./api.js";

for (const box of document.querySelectorAll("[data-standing-order]")) mount(box);

function mount(box) {
  const url = box.dataset.standingOrder;
  const form = box.querySelector("form");
  const status = box.querySelector("[role=status]");
  const ask = box.querySelector('[data-order=""]');
  const askWords = ask.textContent;
  const words = (order) => box.querySelector(`[data-order="${order}"]`).textContent;

  function show(order) {
    form.elements.block.value = order.block ?? "";
    // No order of its own but a default that answers: say which (table page only).
    ask.textContent = order.block === null && order.applies && order.game !== null
      ? `${box.dataset.tDefault} ${words(order.applies)}` : askWords;
  }

  api(url).then(show).catch((error) => {
    status.textContent = `${box.dataset.tError} ${error.message}`;
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    status.textContent = "";
    const block = form.elements.block.value || null;
    try {
      show(await api(url, { method: "PUT", body: { block } }));
      status.textContent = box.dataset.tSaved;
    } catch (error) {
      status.textContent = `${box.dataset.tError} ${error.message}`;
    }
  });
}
