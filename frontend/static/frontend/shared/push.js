// "Notify me on this device" (API.md "Push notifications and the installable page"): on /me/
// (#push-device) and in the bell's panel. The browser's permission is asked only when the player
// clicks; then the service worker (/sw.js, scope /) is registered, the browser subscribed with
// the service's VAPID key (GET /api/push/key/) and the subscription sent to
// POST /api/me/push-subscriptions/. "Stop notifying me on this device" unsubscribes the browser
// and DELETEs it on the service. A player who said yes before gets the worker registered on every
// page, and his subscription sent again every 12 hours (the service keeps a user's newest five).
import { api } from "./api.js";
import { t as say } from "./i18n.js";

// This module's words are the catalog's "push_…" (frontend/page_words.py).
const t = (key, fields = {}) => say("push_" + key, fields);
const REFRESH_MS = 12 * 3600 * 1000;
const SENT_AT = "sejmi.push.sent";

export const supported = () =>
  "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

export function registerWorker() {
  return navigator.serviceWorker.register("/sw.js", { scope: "/" });
}

async function current() {
  const registration = await navigator.serviceWorker.getRegistration("/");
  return registration ? registration.pushManager.getSubscription() : null;
}

function b64ToBytes(text) {
  const base64 = (text + "=".repeat((4 - (text.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

async function send(subscription) {
  await api("/api/me/push-subscriptions/", { method: "POST", body: subscription.toJSON() });
  localStorage.setItem(SENT_AT, String(Date.now()));
}

export async function turnOn() {
  if ((await Notification.requestPermission()) !== "granted") throw new Error("denied");
  const registration = await registerWorker();
  await navigator.serviceWorker.ready;
  const { public_key: key } = await api("/api/push/key/");
  let subscription = await registration.pushManager.getSubscription();
  if (subscription) {
    // Made with another key (a new VAPID key on the service): it would refuse our pushes.
    const made = subscription.options && subscription.options.applicationServerKey;
    const same = made && String(new Uint8Array(made)) === String(b64ToBytes(key));
    if (!same) {
      await subscription.unsubscribe();
      subscription = null;
    }
  }
  subscription ||= await registration.pushManager.subscribe({
    userVisibleOnly: true, applicationServerKey: b64ToBytes(key),
  });
  await send(subscription);
}

export async function turnOff() {
  const subscription = await current();
  if (!subscription) return;
  const { endpoint } = subscription;
  await subscription.unsubscribe();
  await api("/api/me/push-subscriptions/", { method: "DELETE", body: { endpoint } });
  localStorage.removeItem(SENT_AT);
}

// The control: a status line and one button that turns push on or off for this browser.
export function pushControl(root) {
  root.classList.add("push-control");
  const status = document.createElement("p");
  status.className = "push-control__status";
  status.setAttribute("role", "status");
  const button = document.createElement("button");
  button.type = "button";
  button.className = "push-control__button";
  root.replaceChildren(status, button);
  if (root.dataset.heading !== undefined) { // /me/: a section of its own
    const heading = document.createElement("h2");
    heading.id = "push-device-title";
    heading.textContent = t("heading");
    root.setAttribute("aria-labelledby", heading.id);
    root.prepend(heading);
  }
  if (!supported()) {
    status.textContent = t("unsupported");
    button.hidden = true;
    return root;
  }
  const show = async (problem) => {
    const on = Notification.permission === "granted" && Boolean(await current().catch(() => null));
    button.textContent = t(on ? "off" : "on");
    button.dataset.push = on ? "on" : "off";
    status.textContent = problem ? t(problem) : t(on ? "enabled" : "disabled");
  };
  button.addEventListener("click", async () => {
    button.disabled = true;
    let problem = null;
    try {
      if (button.dataset.push === "on") await turnOff();
      else await turnOn();
    } catch (error) {
      problem = Notification.permission === "denied" ? "denied" : "failed";
      console.warn("push:", error);
    } finally {
      button.disabled = false;
      await show(problem);
    }
  });
  show(Notification.permission === "denied" ? "denied" : null);
  return root;
}

// A player who allowed notifications before: the worker is registered (and updated) on every
// page, and the subscription sent again now and then, so the service knows it is alive.
async function keep() {
  if (!supported() || Notification.permission !== "granted") return;
  await registerWorker();
  const subscription = await current();
  const last = Number(localStorage.getItem(SENT_AT) || 0);
  if (subscription && Date.now() - last > REFRESH_MS) await send(subscription);
}
keep().catch(() => {});

const mount = document.getElementById("push-device");
if (mount) pushControl(mount);
