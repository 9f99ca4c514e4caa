// The offline page (/offline/, cached by the service worker with this script, served as
// /offline.js): the player's language from the site's language cookie (the switch in every
// page's header), else the browser's; and "Try again". Out of the page, because the CSP allows
// no inline script (an inline one never ran: the Czech heading never showed, issue 29).
const chosen = (document.cookie.match(/(?:^|;\s*)django_language=([a-z-]+)/i) || [])[1];
const lang = (chosen || navigator.language || "en").toLowerCase().startsWith("cs") ? "cs" : "en";
document.documentElement.lang = lang;
for (const part of document.querySelectorAll("[data-lang]")) {
  part.hidden = part.getAttribute("data-lang") !== lang;
}
for (const again of document.querySelectorAll("[data-reload]")) {
  again.addEventListener("click", () => location.reload());
}
