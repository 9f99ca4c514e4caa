// The one door through which the pages' scripts get their words. Every word lives in the site's
// catalog (frontend/page_words.py, translated in frontend/locale/*/django.po) and reaches the
// page, in its language only, as the JSON island #page-words that {% page_words_script %}
// renders on every page (no inline script: the CSP stays `script-src 'self'`). No module keeps
// a word table of its own (tests/frontend/test_page_words.py). The page's language is
// <html lang> (set by Django from the browser's preference or the language switch).

export const LANG = (document.documentElement.lang || "en").toLowerCase().startsWith("cs")
  ? "cs" : "en";

const island = document.getElementById("page-words");
const WORDS = island ? JSON.parse(island.textContent) : {};
/** The string `key` in the page language with `{field}`s filled in (text only). */
export function t(key, fields = {}) {
  const template = WORDS[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (_, name) => String(fields[name] ?? ""));
}

/** Like t(), but fields may be DOM nodes (card references): returns a DocumentFragment. */
export function tNodes(key, fields = {}) {
  const template = WORDS[key] ?? key;
  const out = document.createDocumentFragment();
  template.split(/(\{\w+\})/).forEach((part) => {
    const name = part.match(/^\{(\w+)\}$/)?.[1];
    const value = name ? fields[name] : part;
    if (value instanceof Node) out.append(value);
    else out.append(String(value ?? ""));
  });
  return out;
}

/** Whether `key` has words (to prefer our own over a server's English message). */
export function has(key) {
  return key in WORDS;
}

const PLURAL = new Intl.PluralRules(LANG);

/** "1 life" / "3 lives", Czech "1 karta" / "3 karty" / "5 karet": the words `${key}_one`,
 * `${key}_few` (Czech 2–4) or `${key}_many` (any other count: Intl's "other", and Czech
 * "many", which only fractions get) for n, chosen by Intl.PluralRules of the page language. */
export function count(key, n, fields = {}) {
  const rule = PLURAL.select(n);
  const form = rule === "one" || rule === "few" ? rule : "many";
  const found = WORDS[`${key}_${form}`] !== undefined ? form : "many";
  return t(`${key}_${found}`, { n, ...fields });
}
