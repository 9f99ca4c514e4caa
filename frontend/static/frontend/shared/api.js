// The one door to the public API (API.md) for every page script: JSON in and out, the session
// cookie, the CSRF header Django asks of a browser, and API.md's error shape as an Error.
//
//   import { api, ApiError } from "./api.js";
//   const view = await api(`/api/games/${id}/`);
//   await api(`/api/games/${id}/commands/`, { method: "POST", body, key: crypto.randomUUID() });
//
// A 4xx/5xx answer throws an ApiError with {status, code, message}: `code` is API.md's machine
// code ("stale_seq", "game_full", ...); a network failure throws one with status 0 and code
// "network".

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message || code);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
  }
}

export function cookie(name) {
  for (const part of document.cookie.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return decodeURIComponent(rest.join("="));
  }
  return null;
}

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);
const BUSY_RETRIES = 3;

export async function api(path, { method = "GET", body, key } = {}) {
  const headers = { Accept: "application/json" };
  const init = { method, headers, credentials: "same-origin" };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  if (!SAFE.has(method)) headers["X-CSRFToken"] = cookie("csrftoken") || "";
  if (key) headers["Idempotency-Key"] = key;
  let response;
  for (let busy = 0; ; busy++) {
    try {
      response = await fetch(path, init);
    } catch (err) {
      throw new ApiError(0, "network", String(err && err.message ? err.message : err));
    }
    // 503 `unavailable` (overload): again after its Retry-After, a few times (docs/PRODUCTION.md). Safe
    // for a command too: it carries its Idempotency-Key.
    const wait = Number(response.headers.get("Retry-After"));
    if (response.status !== 503 || !wait || busy >= BUSY_RETRIES) break;
    await new Promise((done) => setTimeout(done, wait * 1000));
  }
  const data = await readJson(response);
  if (!response.ok) {
    const error = (data && data.error) || {};
    throw new ApiError(response.status, error.code || `http_${response.status}`,
      error.message || response.statusText);
  }
  return data;
}

async function readJson(response) {
  if (response.status === 204) return null;
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return { error: { code: `http_${response.status}`, message: text.slice(0, 200) } };
  }
}
