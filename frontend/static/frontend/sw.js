// The service worker of Sejmi je, served as /sw.js with the whole site as its scope
// (frontend/install_pages.py; API.md "Push notifications and the installable page").
//
// - push: shows the push (JSON {kind, game, seq, title, body, url}, already in the player's
//   language: games/notifications/web_push.py) as a notification tagged with its game, so a
//   newer one of the same game replaces the older one.
// - notificationclick: focuses a tab that shows that page (the game's table) or opens one.
// - fetch: a page (a navigation) that cannot be loaded shows /offline/ (both languages, the
//   player's shown) instead of the browser's error. Nothing else is touched or kept: the
//   offline page is the one cached response, the same for every user.
const CACHE = "sejmi-offline-v2";
const OFFLINE = "/offline/";
const OFFLINE_SCRIPT = "/offline.js"; // its language and "Try again" (no inline script: the CSP)
const ICON = "/static/frontend/icons/icon-192.png";

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll([OFFLINE, OFFLINE_SCRIPT].map((url) => new Request(url, { credentials: "omit" })));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) if (key !== CACHE) await caches.delete(key);
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  if (new URL(event.request.url).pathname === OFFLINE_SCRIPT) {
    event.respondWith((async () => (await caches.match(OFFLINE_SCRIPT)) || fetch(event.request))());
    return;
  }
  if (event.request.mode !== "navigate") return; // the network as usual, nothing cached
  event.respondWith((async () => {
    try {
      return await fetch(event.request);
    } catch {
      return (await caches.match(OFFLINE)) || Response.error();
    }
  })());
});

// Only a page of this site: a push names a path ("/games/12/"), never another origin.
function here(url) {
  try {
    const target = new URL(url || "/me/", self.location.origin);
    return target.origin === self.location.origin ? target : new URL("/me/", self.location.origin);
  } catch {
    return new URL("/me/", self.location.origin);
  }
}

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = {};
  }
  const tag = data.game !== undefined && data.game !== null ? String(data.game) : "sejmi";
  event.waitUntil(self.registration.showNotification(data.title || "Sejmi je", {
    body: data.body || "",
    tag,
    renotify: true,
    icon: ICON,
    data: { url: here(data.url).href, kind: data.kind, game: data.game },
  }));
});

// The click: a tab already showing that page is focused, else the page opens in a new one.
async function choose(notification) {
  const target = here(notification.data && notification.data.url);
  const tabs = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const tab = tabs.find((c) => new URL(c.url).pathname === target.pathname && "focus" in c);
  return { tab, url: target.href };
}
// tests/browser/test_browser_push.py asks it what a click would do: focus() and openWindow()
// are allowed only in a real click's notificationclick, which headless Chromium cannot give.
self.sejmiClickTarget = async (notification) => {
  const { tab, url } = await choose(notification);
  return tab ? { focus: tab.url } : { open: url };
};

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil((async () => {
    const { tab, url } = await choose(event.notification);
    return tab ? tab.focus() : self.clients.openWindow(url);
  })());
});
