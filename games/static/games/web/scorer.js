// The scorer's page (/score/#<code>): a phone at the table enters each round's scores with a
// scorer link's code alone. The code comes from the address's fragment, which a browser never
// sends to a server (so no server or proxy log holds it), or is typed in from the table card; it
// goes out only in the Authorization header of the API calls (Scorer <code>). The page sends no
// referrer and keeps no copy of it. Names are set as text.
import {
  api, attempt, checkMark, el, fmt, fmtNodes, nameNode, Problem, say, session, VARIANTS,
} from "./api.js";
import { scoreForms } from "./score_forms.js";
import { stageClock } from "./stage_clock.js";

const root = document.getElementById("scorer");
let code = "";
let auth = {};
const POLL_MS = 5000;

const state = {
  matchId: null,
  match: null,
  etag: null,
};
let forms = null; // the entry and correction forms (score_forms.js), once wired
const clock = stageClock(document.getElementById("stage-clock"));

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
 * round's points (a check mark: went out) and the total; a flag under the table for a round that waits
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
      return el("td", { class: "num" }, `${score.points}`,
        ...(score.went_out ? [" ", checkMark(gettext("went out"))] : []));
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
  renderHead();
  renderFinal();
  renderRounds();
  forms.render(state.match);
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

/** The table's event and its stage clock, with the server's time to count it down from. */
async function readContext() {
  state.context = (await call("GET", "/api/scorer")).data;
  clock.set(state.context.event ? state.context.event.clock : null, state.context.now);
}

async function poll() {
  try {
    if (state.context.event) await readContext(); // the organiser may start or stop the clock
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
  forms = scoreForms({ call, reload, refused });
  const found = codeFromAddress();
  if (found) begin(found);
  else askForCode();
}

async function begin(found) {
  code = found;
  auth = { authorization: `Scorer ${code}` };
  root.dataset.state = "loading";
  try {
    await readContext();
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
