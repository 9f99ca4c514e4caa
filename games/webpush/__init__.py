"""Web Push (RFC 8030, 8291, 8292; API.md "Push notifications and the installable page"): the
transport, which knows nothing of what a message says.

- `models`: a browser's subscription (endpoint, keys, language, last used) and one delivery row
  per (subscription, message key): at most once;
- `hosts`: which endpoints may be stored and called (SEJMI_PUSH_HOSTS: no SSRF);
- `keys`: the VAPID key pair (SEJMI_VAPID_PRIVATE_KEY, or a file made once);
- `services`: subscribe, unsubscribe, list (the API's one service);
- `sending`: encrypt (aes128gcm), sign (VAPID), post, retry with back-off, off the caller's
  thread; `routes`: the REST views.

What to push and to whom is the notifications' business (games.notifications.web_push): they
sit above this package and call `sending.later` after COMMIT.
"""
