// The scorer's page (/score/#<code>): a phone at the table enters each round's scores with a
// scorer link's code alone. The code comes from the address's fragment, which a browser never
// sends to a server (so no server or proxy log holds it), or is typed in from the table card; it
// goes out only in the Authorization header of the API calls (Scorer <code>). The page sends no
// referrer and keeps no copy of it. Names are set as text.
import {
  api, attempt, el, fmt, fmtNodes, nameNode, Problem, say, session, VARIANTS,
} from "./api.js";

const root = document.getElementById("scorer");
let code = "";
let auth = {};
const POLL_MS = 5000;

const state = {
  matchId: null,
  match: null,
  etag: null,
  mode: "points",
  points: [], // typed text per seat, kept across reloads
  tiles: [], // a Set of "a-b" per seat
  wentOut: null, // a seat, or null
  attempt: null, // {key, body}: an entry sent and not yet answered
  correctAttempt: null,
};

/** A fresh Idempotency-Key (crypto.getRandomValues works on plain http too). */
function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function call(method, path, body, opts = {}) {
  return api(method, path, body, { ...auth, ...opts });
}

function refused(problem) {
  const box = document.getElementById("refused");
  const gone = problem.status === 401 || problem.status === 403;
  box.replaceChildren(gone
    ? gettext("This scorer link is unknown or has been revoked. Ask the organiser (or the match's creator) for a new QR code.")
    : problem.message);
  if (gone && problem.message) box.append(el("br"), el("small", {}, problem.message));
  box.hidden = false;
  root.dataset.state = "refused";
  for (const id of ["entry", "correct", "rounds-card", "log-card", "final"]) {
    document.getElementById(id).hidden = true;
  }
}

const seats = () => state.match.seats;
const seatName = (position) => seats()[position]?.name
  || fmt(gettext("Seat %(number)s"), { number: position + 1 });
const roundsTotal = () => state.match.options.rounds;
const maxPip = () => state.match.options.max_pip;
const entered = () => state.match.table_rounds || [];
const nextRound = () => entered().length + 1;
const startDouble = (number) => maxPip() - (number - 1);

function pipValue(a, b) {
  if (a === 0 && b === 0) return state.match.options.double_blank_points ?? 50;
  return a + b;
}

function tilesOf(position) {
  return [...state.tiles[position]].map((key) => key.split("-").map(Number));
}

function keepTyped() {
  const n = seats().length;
  while (state.points.length < n) state.points.push("");
  while (state.tiles.length < n) state.tiles.push(new Set());
}

function renderHead() {
  const match = state.match;
  const event = state.context.event;
  const line = document.getElementById("event");
  if (event) {
    const where = [
      event.stage ? fmt(gettext("Stage %(number)s"), { number: event.stage }) : null,
      event.table ? fmt(gettext("Table %(table)s"), { table: event.table }) : null,
    ]
      .filter(Boolean).join(" · ");
    line.replaceChildren(nameNode(event.name), where ? ` · ${where}` : "");
    line.hidden = false;
  }
  document.getElementById("title").textContent =
    fmt(gettext("%(game)s at the table"), { game: VARIANTS[match.variant] || match.variant });
  const round = document.getElementById("round-line");
  if (match.status === "finished") round.textContent = gettext("The match is over.");
  else {
    const d = startDouble(nextRound());
    round.textContent = fmt(gettext("Round %(round)s of %(rounds)s · starts with %(double)s"),
      { round: nextRound(), rounds: roundsTotal(), double: `${d}|${d}` });
  }
}

function roundFlag(entry) {
  if (entry.disputed) return gettext("disputed");
  if (entry.status === "awaiting_confirmation") return gettext("awaiting confirmation");
  if (entry.status === "confirmed") return gettext("confirmed");
  return "";
}

/** The rounds so far, a seat a row (names wrap in the first column, however long): each
 * round's points (✓: went out) and the total; a flag under the table for a round that waits
 * for confirmation or is disputed. */
function renderRounds() {
  const table = document.getElementById("rounds");
  const head = el("tr", {}, el("th", { scope: "col" }, gettext("Seat")),
    ...entered().map((entry) => el("th", {
      scope: "col", class: `num${entry.disputed ? " disputed" : ""}`, "data-round": entry.number,
    }, fmt(gettext("R%(number)s"), { number: entry.number }))),
    el("th", { scope: "col", class: "num" }, gettext("Total")));
  const rows = seats().map((seat) => el("tr", { "data-seat": seat.position },
    el("th", { scope: "row", class: "name" }, nameNode(seat.name)),
    ...entered().map((entry) => {
      const score = entry.scores.find((s) => s.seat === seat.position);
      return el("td", { class: "num" }, score.went_out ? `${score.points}✓` : `${score.points}`);
    }),
    el("td", { class: "num total" }, `${state.match.totals[seat.position]}`)));
  table.replaceChildren(el("thead", {}, head), el("tbody", {}, ...rows));
  const flags = entered().filter((entry) => roundFlag(entry)).map((entry) => {
    const item = el("li", { class: entry.disputed ? "disputed" : null, "data-round": entry.number },
      fmt(gettext("Round %(number)s: %(flag)s"), { number: entry.number, flag: roundFlag(entry) }));
    if (entry.disputed && entry.dispute) item.append(" (", el("q", {}, entry.dispute.reason), ")");
    return item;
  });
  document.getElementById("round-flags").replaceChildren(...flags);
  renderConfirm();
}

/** The seat of the player signed in on this browser, if they sit at this table: they may
 * confirm a round (a seated player's act, with their own token: the link confirms nothing). */
function mySeat() {
  if (!session.token || !session.playerId) return null;
  const seat = seats().find((s) => String(s.player_id) === session.playerId && s.kind === "human");
  return seat || null;
}

function renderConfirm() {
  const box = document.getElementById("confirm");
  const waiting = entered().filter((entry) => entry.status === "awaiting_confirmation");
  box.hidden = waiting.length === 0;
  if (box.hidden) return;
  const me = mySeat();
  if (!me) {
    box.replaceChildren(el("p", { class: "note" },
      gettext("A player at the table confirms these rounds from their own account.")));
    return;
  }
  box.replaceChildren(...waiting.filter((entry) => !entry.confirmed_by.includes(me.position))
    .map((entry) => {
      const button = el("button", { type: "button", "data-round": entry.number },
        ...fmtNodes(gettext("Confirm round %(number)s as %(name)s"),
          { number: entry.number, name: nameNode(me.name) }));
      button.addEventListener("click", async () => {
        const done = await attempt(() => api("POST",
          `/api/matches/${state.matchId}/rounds/${entry.number}/confirm`));
        if (done) {
          say(fmt(gettext("Round %(number)s confirmed."), { number: entry.number }));
          await reload();
        }
      });
      return button;
    }));
}

function renderFinal() {
  const box = document.getElementById("final");
  const standings = state.match.standings;
  box.hidden = !(state.match.status === "finished" && standings);
  if (box.hidden) return;
  document.getElementById("places").replaceChildren(...standings.map((row) => el("li", {},
    el("span", { class: "place" }, `${row.place}.`), " ", nameNode(seatName(row.seat)),
    fmt(ngettext(" · %(points)s point", " · %(points)s points", row.total),
      { points: row.total }))));
}

function tilePicker(position) {
  const start = startDouble(nextRound());
  const chosen = state.tiles[position];
  const sum = el("span", { class: "sum" });
  const showSum = () => {
    const tiles = tilesOf(position);
    sum.textContent = tiles.length
      ? `${tiles.map(([a, b]) => `${a}|${b}`).join(" ")} = ${tiles.reduce((t, [a, b]) => t + pipValue(a, b), 0)}`
      : gettext("no tiles chosen (0)");
  };
  const grid = el("div", { class: "tiles", role: "group", "aria-label": fmt(gettext("Tiles left with %(name)s"), { name: seatName(position) }),
  });
  for (let a = 0; a <= maxPip(); a += 1) {
    for (let b = a; b <= maxPip(); b += 1) {
      const key = `${a}-${b}`;
      const isStart = a === start && b === start;
      const button = el("button", {
        type: "button", "aria-pressed": String(chosen.has(key)), disabled: isStart,
        title: isStart ? gettext("The round's start double: in no hand") : null, "data-tile": key,
      }, `${a}|${b}`);
      button.addEventListener("click", () => {
        if (chosen.has(key)) chosen.delete(key); else chosen.add(key);
        button.setAttribute("aria-pressed", String(chosen.has(key)));
        showSum();
      });
      grid.append(button);
    }
  }
  showSum();
  const details = el("details", { class: "picker" }, el("summary", {}, sum), grid);
  return details;
}

function seatFieldset(seat, { points, wentOut, radioName, idPrefix, picker }) {
  const p = seat.position;
  const box = el("fieldset", { class: "seat", "data-seat": p }, el("legend", {}, nameNode(seat.name)));
  const row = el("div", { class: "row" });
  if (picker) row.append(picker);
  else {
    const input = el("input", {
      type: "number", inputmode: "numeric", min: "0", step: "1", id: `${idPrefix}-points-${p}`,
      "aria-label": fmt(gettext("Points of %(name)s"), { name: seat.name }), value: points ?? "",
    });
    row.append(input);
  }
  const radio = el("input", { type: "radio", name: radioName, value: String(p), id: `${idPrefix}-out-${p}` });
  radio.checked = wentOut === p;
  row.append(el("label", { class: "went-out", for: `${idPrefix}-out-${p}` }, radio, gettext("went out")));
  box.append(row, el("p", { class: "seat-error", hidden: true }));
  return box;
}

function renderEntry() {
  const section = document.getElementById("entry");
  section.hidden = state.match.status !== "playing" || nextRound() > roundsTotal();
  if (section.hidden) return;
  document.getElementById("entry-title").textContent = fmt(gettext("Round %(number)s"), { number: nextRound() });
  for (const mode of ["points", "tiles"]) {
    document.getElementById(`mode-${mode}`).setAttribute("aria-pressed", String(state.mode === mode));
  }
  const fields = document.getElementById("seat-fields");
  fields.replaceChildren(...seats().map((seat) => seatFieldset(seat, {
    points: state.points[seat.position], wentOut: state.wentOut, radioName: "went-out",
    idPrefix: "entry", picker: state.mode === "tiles" ? tilePicker(seat.position) : null,
  })));
  document.getElementById("nobody-out").checked = state.wentOut === null;
  for (const input of fields.querySelectorAll("input[type=number]")) {
    input.addEventListener("input", () => {
      state.points[Number(input.closest(".seat").dataset.seat)] = input.value;
    });
  }
  document.getElementById("submit").textContent = state.attempt
    ? gettext("Retry: send the same entry")
    : fmt(gettext("Enter round %(number)s"), { number: nextRound() });
}

function renderCorrect() {
  const section = document.getElementById("correct");
  section.hidden = entered().length === 0;
  if (section.hidden) return;
  const select = document.getElementById("correct-round");
  const chosen = Number(select.value) || entered().at(-1).number;
  select.replaceChildren(...entered().map((entry) => {
    const option = el("option", { value: entry.number },
      fmt(gettext("Round %(number)s"), { number: entry.number }));
    option.selected = entry.number === chosen;
    return option;
  }));
  fillCorrection();
}

function fillCorrection() {
  const number = Number(document.getElementById("correct-round").value);
  const entry = entered().find((e) => e.number === number);
  if (!entry) return;
  const out = entry.scores.find((s) => s.went_out);
  document.getElementById("correct-fields").replaceChildren(...seats().map((seat) => seatFieldset(seat, {
    points: String(entry.scores[seat.position].points), wentOut: out ? out.seat : null,
    radioName: "correct-out", idPrefix: "correct", picker: null,
  })));
}

function renderLog(entries) {
  const list = document.getElementById("score-log");
  if (!entries.length) {
    list.replaceChildren(el("li", { class: "note" }, gettext("Nothing entered yet.")));
    return;
  }
  list.replaceChildren(...entries.map((entry) => {
    const who = entry.author ? nameNode(entry.author.name) : gettext("a scorer link");
    const points = entry.after.map((s) => `${seatName(s.seat)} ${s.points}`).join(", ");
    const item = el("li", { "data-kind": entry.kind, "data-round": entry.round },
      ...fmtNodes(entry.kind === "correction"
        ? gettext("Round %(round)s corrected by %(who)s: %(points)s.")
        : gettext("Round %(round)s entered by %(who)s: %(points)s."),
      { round: entry.round, who, points }));
    if (entry.reason) {
      item.append(...fmtNodes(gettext(" Why: %(reason)s"),
        { reason: el("q", { class: "reason" }, entry.reason) }));
    }
    return item;
  }));
}

function render() {
  keepTyped();
  renderHead();
  renderFinal();
  renderRounds();
  renderEntry();
  renderCorrect();
  root.dataset.state = state.match.status;
  root.dataset.version = String(state.match.version);
}

async function reload() {
  const answer = await call("GET", `/api/matches/${state.matchId}`, undefined, { etag: state.etag });
  if (answer.status === 304) return false;
  state.match = answer.data;
  state.etag = answer.etag;
  render();
  const log = await call("GET", `/api/matches/${state.matchId}/score-log?limit=100`);
  renderLog(log.data.entries);
  return true;
}

/** The seat a problem's errors field names (``scores.2.points`` -> the seat of entry 2). */
function seatOfField(field, body) {
  const found = /^scores\.(\d+)/.exec(field);
  if (!found) return null;
  const item = body.scores[Number(found[1])];
  return item ? item.seat : null;
}

function clearErrors(container) {
  for (const box of container.querySelectorAll(".seat")) {
    box.classList.remove("invalid");
    const line = box.querySelector(".seat-error");
    line.hidden = true;
    line.textContent = "";
  }
}

function showRefusal(problem, body, container) {
  const errors = problem.body.errors || {};
  const lines = [];
  for (const [field, messages] of Object.entries(errors)) {
    const seat = seatOfField(field, body);
    const text = [].concat(messages).join(" ");
    if (seat === null) {
      lines.push(text);
      continue;
    }
    const box = container.querySelector(`.seat[data-seat="${seat}"]`);
    if (box) {
      box.classList.add("invalid");
      const line = box.querySelector(".seat-error");
      line.hidden = false;
      line.textContent = text;
    }
    lines.push([nameNode(seatName(seat)), `: ${text}`]);
  }
  const rule = problem.body.rule ? ` (${problem.body.rule})` : "";
  const parts = [`${problem.message}${rule}`];
  for (const line of lines) parts.push(el("br"), ...[].concat(line));
  say(parts, "error");
}

function entryBody() {
  const scores = seats().map((seat) => {
    const p = seat.position;
    const item = { seat: p, went_out: state.wentOut === p };
    if (state.mode === "tiles") item.tiles = tilesOf(p);
    else {
      const text = (state.points[p] || "").trim();
      item.points = text === "" && state.wentOut === p ? 0 : Number(text === "" ? NaN : text);
    }
    return item;
  });
  return { version: state.match.version, scores };
}

/** Send ``body`` to ``path`` once per attempt: a retry of the same attempt (the same body)
 * sends the same Idempotency-Key, so an answer lost on the way enters nothing twice. */
async function send(method, path, body, slot, container) {
  const same = state[slot] && JSON.stringify(state[slot].body) === JSON.stringify(body);
  if (!same) state[slot] = { key: newKey(), body };
  clearErrors(container);
  try {
    await call(method, path, body, { idempotencyKey: state[slot].key });
  } catch (error) {
    if (!(error instanceof Problem)) {
      say(gettext("No answer from the server. Send again: the same entry is entered at most once."), "error");
      renderEntry();
      return false;
    }
    state[slot] = null;
    if (error.status === 409 && error.body.code === "stale_version") {
      await reload();
      say(gettext("The scores changed meanwhile (another phone?): check the rounds above and send again. What you typed is kept."), "error");
      return false;
    }
    if (error.status === 401 || error.status === 403) {
      refused(error);
      return false;
    }
    showRefusal(error, body, container);
    return false;
  }
  state[slot] = null;
  return true;
}

async function submitEntry(event) {
  event.preventDefault();
  const number = nextRound();
  const body = entryBody();
  if (body.scores.some((s) => s.points !== undefined && !Number.isFinite(s.points))) {
    say(gettext("Type every seat's points (0 for the seat that went out)."), "error");
    return;
  }
  const form = document.getElementById("entry-form");
  const ok = await send("POST", `/api/matches/${state.matchId}/rounds/${number}/scores`, body, "attempt", form);
  if (!ok) return;
  state.points = [];
  state.tiles = [];
  state.wentOut = null;
  say(fmt(gettext("Round %(number)s entered."), { number }));
  await reload();
}

async function submitCorrection(event) {
  event.preventDefault();
  const number = Number(document.getElementById("correct-round").value);
  const reason = document.getElementById("correct-reason").value.trim();
  if (!reason) {
    say(gettext("Say why the round is corrected."), "error");
    return;
  }
  const form = document.getElementById("correct-form");
  const out = form.querySelector("input[name=correct-out]:checked");
  const scores = seats().map((seat) => ({
    seat: seat.position,
    points: Number(form.querySelector(`#correct-points-${seat.position}`).value),
    went_out: out !== null && Number(out.value) === seat.position,
  }));
  const body = { version: state.match.version, reason, scores };
  const ok = await send("PUT", `/api/matches/${state.matchId}/rounds/${number}/scores`, body, "correctAttempt", form);
  if (!ok) return;
  document.getElementById("correct-reason").value = "";
  say(fmt(gettext("Round %(number)s corrected."), { number }));
  await reload();
}

function wire() {
  document.getElementById("mode-points").addEventListener("click", () => { state.mode = "points"; renderEntry(); });
  document.getElementById("mode-tiles").addEventListener("click", () => { state.mode = "tiles"; renderEntry(); });
  document.getElementById("entry-form").addEventListener("change", (event) => {
    if (event.target.name === "went-out") state.wentOut = event.target.value === "" ? null : Number(event.target.value);
  });
  document.getElementById("entry-form").addEventListener("submit", submitEntry);
  document.getElementById("correct-round").addEventListener("change", fillCorrection);
  document.getElementById("correct-form").addEventListener("submit", submitCorrection);
}

async function poll() {
  try {
    // while a form is in use, keep what is typed: the redraw keeps the entry's values
    if (!document.getElementById("correct-form").contains(document.activeElement)) await reload();
  } catch (error) {
    if (error instanceof Problem && (error.status === 401 || error.status === 403)) {
      refused(error);
      return;
    }
  }
  if (state.match.status !== "finished") window.setTimeout(poll, POLL_MS);
}

/** The code in the address: its fragment (/score/#<code>), or a path of the older form
 * (/score/<code>/), which is then moved into the fragment so that reloads send it nowhere. */
function codeFromAddress() {
  const fromHash = decodeURIComponent(window.location.hash.slice(1)).trim();
  if (fromHash) return fromHash;
  const fromPath = decodeURIComponent(window.location.pathname.split("/")[2] || "").trim();
  if (fromPath) window.history.replaceState(null, "", `/score/#${encodeURIComponent(fromPath)}`);
  return fromPath;
}

/** No code in the address: ask for the one printed on the table card. */
function askForCode() {
  root.dataset.state = "code";
  const form = document.getElementById("code-form");
  form.hidden = false;
  document.getElementById("rounds-card").hidden = true;
  document.getElementById("log-card").hidden = true;
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const typed = document.getElementById("code-input").value.replace(/[\s-]/g, "").toUpperCase();
    if (!typed) return;
    window.history.replaceState(null, "", `/score/#${encodeURIComponent(typed)}`);
    form.hidden = true;
    document.getElementById("rounds-card").hidden = false;
    document.getElementById("log-card").hidden = false;
    begin(typed);
  });
}

async function start() {
  wire();
  const found = codeFromAddress();
  if (found) begin(found);
  else askForCode();
}

async function begin(found) {
  code = found;
  auth = { authorization: `Scorer ${code}` };
  root.dataset.state = "loading";
  try {
    state.context = (await call("GET", "/api/scorer")).data;
    state.matchId = state.context.match_id;
    await reload();
  } catch (error) {
    if (error instanceof Problem) {
      refused(error);
      return;
    }
    say(gettext("The server cannot be reached: reload the page to try again."), "error");
    return;
  }
  if (state.match.status !== "finished") window.setTimeout(poll, POLL_MS);
}

start();
