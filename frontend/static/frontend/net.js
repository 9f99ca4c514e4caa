// Talking to the public API (API.md) from the table and the replay viewer: JSON, the session
// cookie with the CSRF header, and the error shape {code, message}.

import { t } from "./i18n.js";

function cookie(name) {
  const found = document.cookie.split("; ").find((c) => c.startsWith(`${name}=`));
  return found ? decodeURIComponent(found.slice(name.length + 1)) : "";
}

/** A fresh Idempotency-Key. */
export function uuid() {
  if (window.crypto?.randomUUID) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16)); // plain http on a LAN: no randomUUID
  return [...bytes].map((x) => x.toString(16).padStart(2, "0")).join("");
}

/** The answer's JSON, or throws {code, message} (API.md errors; code "network" when down). */
export async function api(path, { method = "GET", body, headers = {} } = {}) {
  const sent = { Accept: "application/json", ...headers };
  if (body !== undefined) {
    sent["Content-Type"] = "application/json";
    sent["X-CSRFToken"] = cookie("csrftoken");
  }
  let answer;
  try {
    answer = await fetch(path, { method, credentials: "same-origin", headers: sent,
      body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw { code: "network", message: t("error_network") };
  }
  const data = await answer.json().catch(() => null);
  if (!answer.ok) throw data?.error ?? { code: "http", message: `HTTP ${answer.status}` };
  return data;
}
