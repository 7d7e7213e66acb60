// The JSON API, as the web table uses it: the player's token from local storage, problem
// documents (RFC 9457) shown to the user, ETags for polling. No framework, no build step.

const TOKEN_KEY = "chickenfoot.token";
/** The device name a web login gives its token (the token list shows it). */
export const WEB_DEVICE = "Web browser";
const NAME_KEY = "chickenfoot.name";
const ID_KEY = "chickenfoot.player";

export const session = {
  get token() { return localStorage.getItem(TOKEN_KEY); },
  get name() { return localStorage.getItem(NAME_KEY) || ""; },
  get playerId() { return localStorage.getItem(ID_KEY); },
  save(token, player) {
    localStorage.setItem(TOKEN_KEY, token);
    localStorage.setItem(NAME_KEY, player.name);
    localStorage.setItem(ID_KEY, String(player.id));
  },
  clear() {
    for (const key of [TOKEN_KEY, NAME_KEY, ID_KEY]) localStorage.removeItem(key);
  },
};

// The page's messages come from the catalog of its language (/jsi18n/, loaded before the page's
// scripts): gettext(), ngettext() and interpolate() are globals it defines.

/** A message with named placeholders (``%(name)s``), filled in with ``values``. */
export function fmt(text, values) {
  return interpolate(text, values, true);
}

/** A message whose named placeholders hold nodes (a name, as a bidi isolate) or text: the
 * nodes and text to spread into ``el``, so a translation may put a name anywhere. */
export function fmtNodes(text, values) {
  const parts = [];
  let last = 0;
  for (const found of text.matchAll(/%\((\w+)\)s/g)) {
    if (found.index > last) parts.push(text.slice(last, found.index));
    const value = values[found[1]];
    parts.push(value instanceof Node ? value : String(value));
    last = found.index + found[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

/** A refusal from the API: its problem document. */
export class Problem extends Error {
  constructor(status, body) {
    super(body && body.detail ? body.detail : `HTTP ${status}`);
    this.status = status;
    this.body = body || {};
  }
}

/**
 * Call the API. Returns {status, data, etag}; throws Problem on 4xx/5xx.
 * opts.etag sends If-None-Match (a 304 comes back with data null); opts.text reads text;
 * opts.authorization replaces the player's token (the scorer's page sends its link's code).
 */
export async function api(method, path, body, opts = {}) {
  const headers = { Accept: opts.text ? "image/svg+xml" : "application/json" };
  if (opts.authorization) headers.Authorization = opts.authorization;
  else if (session.token) headers.Authorization = `Bearer ${session.token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (opts.etag) headers["If-None-Match"] = opts.etag;
  if (opts.idempotencyKey) headers["Idempotency-Key"] = opts.idempotencyKey;
  if (opts.ifMatch !== undefined) headers["If-Match"] = `"${opts.ifMatch}"`;
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: "no-store",
  });
  const etag = response.headers.get("ETag");
  if (response.status === 304) return { status: 304, data: null, etag };
  if (response.status === 401 && session.token && !opts.authorization) {
    session.clear(); // the token expired or was revoked: log in again
  }
  const type = response.headers.get("Content-Type") || "";
  const data = opts.text && response.ok ? await response.text()
    : type.includes("json") ? await response.json() : null;
  if (!response.ok) throw new Problem(response.status, data);
  return { status: response.status, data, etag };
}

/** Show a message (a problem's detail, or news) in the page's live region: text, or nodes and
 * text to spread into one line. */
export function say(text, kind = "info") {
  const box = document.getElementById("messages");
  const line = document.createElement("p");
  line.className = `message ${kind}`;
  line.append(...(Array.isArray(text) ? text : [text]));
  box.replaceChildren(line);
}

/** Where the lobby may send a player back to once they have logged in: a path on this site
 * (``/matches/7/``), never another host (``//evil.example``, ``https://…``). */
export function safeNext(value) {
  return typeof value === "string" && /^\/(?![/\\])/.test(value) ? value : null;
}

/** A page that needs a player and has none: say so, with a link to the log-in form that comes
 * back here once logged in. */
export function askToLogIn() {
  const here = window.location.pathname + window.location.search;
  const link = el("a", { href: `/?next=${encodeURIComponent(here)}#login-form`, id: "log-in-link" },
    gettext("Log in"));
  say(fmtNodes(gettext("%(log_in)s first to see this page."), { log_in: link }), "error");
}

/** Run an action; a Problem becomes a visible message instead of an exception. */
export async function attempt(action) {
  try {
    return await action();
  } catch (error) {
    if (error instanceof Problem) {
      const rule = error.body.rule ? ` (${error.body.rule})` : "";
      say(`${error.message}${rule}`, "error");
      return undefined;
    }
    throw error;
  }
}

/** The account corner: who is signed in, and a way out. */
export function renderAccount() {
  const nav = document.getElementById("account");
  if (!session.token) {
    nav.replaceChildren();
    return;
  }
  const who = document.createElement("span");
  const page = document.createElement("a");
  page.href = session.playerId ? `/players/${session.playerId}/` : "/";
  page.append(nameNode(session.name));
  who.append(...fmtNodes(gettext("Signed in as %(name)s"), { name: page }));
  const out = document.createElement("button");
  out.type = "button";
  out.textContent = gettext("Sign out");
  out.addEventListener("click", async () => {
    try {
      await api("POST", "/api/auth/logout"); // revoke this browser's token, not just forget it
    } catch (problem) {
      // already expired or revoked: nothing left to revoke
    }
    session.clear();
    window.location.assign("/");
  });
  nav.replaceChildren(who, document.createTextNode(" "), out);
}

/** What a picture may not bring into the page: what runs or embeds something. */
const UNSAFE_IN_PICTURES = "script, foreignObject, iframe, object, embed";

/**
 * Put an SVG document (a picture from the API) into ``container``, sized by the page's CSS.
 * The pictures escape what users wrote; all the same, nothing in one that could run (a script,
 * an embedded document, an ``on…`` handler, a ``javascript:`` link) reaches the page, and a
 * picture that does not parse shows nothing. Returns the picture, or null. ``naturalWidth``:
 * the picture keeps the width it was drawn at (one unit a pixel) where the page has room.
 */
export function svgInto(container, text, { naturalWidth = false } = {}) {
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  if (doc.documentElement.localName !== "svg" || doc.querySelector("parsererror")) {
    container.replaceChildren();
    return null;
  }
  for (const node of doc.querySelectorAll(UNSAFE_IN_PICTURES)) node.remove();
  for (const node of doc.querySelectorAll("*")) {
    for (const { name, value } of [...node.attributes]) {
      if (/^on/i.test(name) || (/href$/i.test(name) && /^\s*javascript:/i.test(value))) {
        node.removeAttribute(name);
      }
    }
  }
  const svg = document.importNode(doc.documentElement, true);
  if (!naturalWidth) svg.removeAttribute("width"); // else app.css scales it down to fit at most
  svg.removeAttribute("height");
  svg.setAttribute("role", "img");
  container.replaceChildren(svg);
  return svg;
}

/** The width to ask a chart to be drawn at (``?width=``): its box's, so that its text is drawn
 * at its own size (11 px or more), between 280 and 640 px. */
export function chartWidth(box) {
  return Math.max(280, Math.min(640, Math.floor(box.clientWidth || 640)));
}

const charted = new WeakMap(); // a chart's box -> the address it was fetched from

/** Draw the chart at ``path`` (an SVG of the API that takes ``?width=``) in ``box`` for the
 * box's width; when the box's width changes (a phone turned, a window resized) it is drawn
 * again for the new one. */
export async function showChart(box, path) {
  const known = charted.has(box);
  charted.set(box, path);
  const width = chartWidth(box);
  const answer = await attempt(() => api("GET", `${path}?width=${width}`, undefined,
    { text: true }));
  if (!answer || charted.get(box) !== path) return;
  svgInto(box, answer.data, { naturalWidth: true });
  box.dataset.width = String(width);
  if (known) return;
  let waiting = null;
  new ResizeObserver(() => {
    window.clearTimeout(waiting);
    waiting = window.setTimeout(() => {
      if (box.clientWidth && Number(box.dataset.width) !== chartWidth(box)) {
        showChart(box, charted.get(box));
      }
    }, 150);
  }).observe(box);
}

/** A DOM element with text and attributes. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "onclick") node.addEventListener("click", value);
    else if (value === true) node.setAttribute(key, "");
    else if (value !== false && value !== null && value !== undefined) node.setAttribute(key, value);
  }
  for (const child of children) {
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** A table cell: ``num`` cells (counts, points, ratings, ranks) line up on the right, text on
 * the left (app.css). */
export function cell(content, { num = false, head = false, scope } = {}) {
  return el(head ? "th" : "td", { class: num ? "num" : null, scope }, content);
}

const SVG_NS = "http://www.w3.org/2000/svg";

/** A check mark, drawn (no face the pages carry has ✓), named ``label`` for a screen reader
 * and in a tooltip. */
export function checkMark(label) {
  const mark = document.createElementNS(SVG_NS, "svg");
  for (const [key, value] of Object.entries({
    viewBox: "0 0 12 12", width: "0.85em", height: "0.85em", class: "check", role: "img",
    "aria-label": label,
  })) mark.setAttribute(key, value);
  const title = document.createElementNS(SVG_NS, "title");
  title.textContent = label;
  const path = document.createElementNS(SVG_NS, "path");
  for (const [key, value] of Object.entries({
    d: "M2 6.5 5 9.5 10.5 2.5", fill: "none", stroke: "currentColor", "stroke-width": "2",
    "stroke-linecap": "round", "stroke-linejoin": "round",
  })) path.setAttribute(key, value);
  mark.append(title, path);
  return mark;
}

/** A name someone chose, as a bidi isolate: a right-to-left override in it cannot reorder the
 * text around it. */
export function nameNode(name) {
  return el("bdi", {}, name);
}

/** ``items`` (nodes or text) with ``separator`` between them, to spread into ``el``. */
export function joined(items, separator = ", ") {
  return items.flatMap((item, index) => (index ? [separator, item] : [item]));
}

export const VARIANTS = {
  chickenfoot: gettext("Chicken Foot"), mexican_train: gettext("Mexican Train"),
};

/** A status (of a match, a table, a stage, a competition), in words; else as the API says it. */
export const STATUSES = {
  open: gettext("open"),
  playing: gettext("playing"),
  finished: gettext("finished"),
  abandoned: gettext("abandoned"),
  running: gettext("running"),
  registering: gettext("registering"),
  closed: gettext("closed"),
};

export function statusWord(status) {
  return STATUSES[status] || status;
}
