// The table: the board picture, your hand as buttons, legal targets, draw and pass, scores.
// The match's socket (live.js) says when something changed; the table then fetches the match
// once (with its ETag) and redraws. Without a socket it polls the match every second instead.
import {
  api, askToLogIn, attempt, cell, el, fmt, fmtNodes, joined, nameNode, renderAccount, session,
  showChart, svgInto, VARIANTS,
} from "./api.js";
import { showBoard } from "./board.js";
import { follow } from "./live.js";
import { renderEnd } from "./match_end.js";
import { tableMatch } from "./table_match.js";
import { tileSvg } from "./tiles.js";

const root = document.getElementById("table");
const matchId = root.dataset.matchId;
const POLL_MS = 1000;
const RESULTS_WAIT_MAX_MS = 30000; // the longest wait between reads for results still pending

let match = null; // the last match view
let etag = null;
let selected = null; // the chosen tile, "a-b"
let busy = false;
let shownRounds = -1;
let wanted = 0; // the newest version a frame announced
let forced = false; // fetch once more even without news (a move of ours, a poll)
let syncing = null; // the fetch-and-draw under way: one at a time
let feed = null; // the socket, while the match runs
let polls = 0; // the poll loop's generation: a new one retires the old
let resultsWait = 0; // the wait before the next read for pending results (0: none scheduled)
let present = []; // the seats with a socket open, as the last presence frame said
let atTable = null; // a match played at a table: its part of the page (table_match.js)

const key = (tile) => `${Math.min(...tile)}-${Math.max(...tile)}`;
const names = () => (match ? match.seats.map((s) => s.name || fmt(gettext("Seat %(number)s"), { number: s.position + 1 })) : []);

/** Where a target is, in words: nodes and text to spread into ``el``. */
function targetName(target) {
  if (target === "mexican") return [gettext("the Mexican Train")];
  let m = /^seat:(\d+)$/.exec(target);
  if (m) return fmtNodes(gettext("%(name)s's train"), { name: nameNode(names()[Number(m[1])]) });
  m = /^arm:(\d+)$/.exec(target);
  if (m) return [fmt(gettext("arm %(number)s"), { number: Number(m[1]) + 1 })];
  m = /^foot:(\d+):toe:(\d+)$/.exec(target);
  if (m) {
    return [fmt(gettext("foot %(foot)s, toe %(toe)s"),
      { foot: Number(m[1]) + 1, toe: Number(m[2]) + 1 })];
  }
  return [target];
}

function legal() {
  return (match && match.state && match.state.legal_moves) || [];
}

async function play(move) {
  if (busy) return;
  busy = true;
  selected = null;
  await attempt(() => api("POST", `/api/matches/${matchId}/moves`,
    { ...move, version: match.version },
    { idempotencyKey: crypto.randomUUID() }));
  busy = false;
  await sync(true);
}

function renderTargets() {
  const box = document.getElementById("targets");
  const board = document.querySelector("#board svg");
  for (const slot of board ? board.querySelectorAll(".open-end") : []) {
    slot.classList.remove("choice");
    slot.onclick = null;
  }
  if (!selected) {
    box.replaceChildren();
    return;
  }
  const moves = legal().filter((m) => m.kind === "play" && key(m.tile) === selected);
  const buttons = moves.map((m) => el("button", {
    type: "button", class: "target", "data-target": m.target, onclick: () => play(m),
  }, ...fmtNodes(gettext("Play %(tile)s on %(target)s"), {
    tile: selected.replace("-", "|"), target: el("span", {}, ...targetName(m.target)),
  })));
  box.replaceChildren(...buttons);
  for (const m of moves) {
    const slot = board && board.querySelector(`.open-end[data-target="${CSS.escape(m.target)}"]`);
    if (slot) {
      slot.classList.add("choice");
      slot.onclick = () => play(m);
    }
  }
  if (buttons.length) buttons[0].focus();
}

/** Why a tile of your hand cannot be played now (shown as its tooltip and read with its name),
 * or null when it can. */
function whyNot(state, playable) {
  if (playable) return null;
  if (match.status !== "playing") return gettext("The round is over");
  if (state.turn !== match.your_seat) return gettext("Not your turn yet");
  return gettext("No open end takes it now");
}

function renderHand(state) {
  const playable = new Set(legal().filter((m) => m.kind === "play").map((m) => key(m.tile)));
  const tiles = (state.hand || []).map((tile) => {
    const k = key(tile);
    const reason = whyNot(state, playable.has(k));
    return el("button", {
      type: "button",
      class: `tile${playable.has(k) ? " playable" : ""}${selected === k ? " selected" : ""}`,
      "data-tile": k,
      "aria-pressed": selected === k ? "true" : "false",
      "aria-disabled": reason ? "true" : "false",
      "aria-label": reason
        ? fmt(gettext("Tile %(a)s–%(b)s: %(reason)s"), {
          a: tile[0], b: tile[1], reason: reason.toLocaleLowerCase(document.documentElement.lang),
        })
        : fmt(gettext("Tile %(a)s–%(b)s"), { a: tile[0], b: tile[1] }),
      title: reason,
      onclick: () => {
        if (!playable.has(k)) return;
        selected = selected === k ? null : k;
        renderHand(state);
        renderTargets();
      },
    }, tileSvg(tile[0], tile[1]));
  });
  document.getElementById("hand").replaceChildren(...tiles);
  const kinds = new Set(legal().map((m) => m.kind));
  document.getElementById("draw").disabled = !kinds.has("draw");
  document.getElementById("pass").disabled = !kinds.has("pass");
}

/** The line under the title: nodes and text to spread into ``replaceChildren``. */
function statusLine(state) {
  if (match.status === "finished") return [gettext("The match is over.")];
  if (match.status === "abandoned") return [gettext("The match was abandoned.")];
  if (state.turn === null || state.turn === undefined) return [];
  if (state.turn === match.your_seat) {
    return [legal().some((m) => m.kind === "play") ? gettext("Your turn: choose a tile.")
      : gettext("Your turn: nothing fits, draw or pass.")];
  }
  return fmtNodes(gettext("%(name)s to play."), { name: nameNode(names()[state.turn]) });
}

async function renderResults(state) {
  const scores = state.scores || [];
  document.getElementById("results").hidden = scores.length === 0;
  if (scores.length === 0 || scores.length === shownRounds) return;
  shownRounds = scores.length;
  const head = el("tr", {}, el("th", { scope: "col" }, gettext("Round")),
    ...names().map((n) => cell(nameNode(n), { head: true, scope: "col", num: true })));
  const rows = scores.map((row, i) => el("tr", { "data-round": i + 1 },
    el("th", { scope: "row" }, fmt(gettext("Round %(number)s"), { number: i + 1 })), ...row.map((p) => cell(p, { num: true }))));
  const totals = el("tr", { class: "totals" }, el("th", { scope: "row" }, gettext("Total")),
    ...(state.totals || []).map((p) => cell(p, { num: true })));
  document.getElementById("scores").replaceChildren(el("thead", {}, head),
    el("tbody", {}, ...rows, totals));
  await showChart(document.getElementById("chart"), `/api/matches/${matchId}/scores.svg`);
  const last = await attempt(() => api("GET",
    `/api/matches/${matchId}/board.svg?round=${scores.length}&hand=false`, undefined,
    { text: true }));
  if (last) {
    const box = el("figure", { class: "board last-round", id: "last-round" });
    svgInto(box, last.data, { naturalWidth: true });
    box.append(el("figcaption", {},
      fmt(gettext("Round %(number)s as it ended"), { number: scores.length })));
    document.getElementById("last-round")?.remove();
    document.getElementById("results").append(box);
  }
}

/** The final order, best first, each row with ``seat``, ``total``, ``place`` and, from the
 * results, ``name`` and ``player_id``: the results once written, else the engine's own. */
function finalOrder() {
  if (match.standings) return match.standings;
  return ((match.state && match.state.standings) || []).map((row) => ({
    ...row, name: names()[row.seat], player_id: null,
  }));
}

function renderStandings() {
  renderEnd(match.status === "finished" ? finalOrder() : [],
    (row) => row.name || names()[row.seat]);
  // the banner says that the match is over, and who won: the line under the title is not needed
  document.getElementById("status").hidden = !document.getElementById("winner").hidden;
  const replay = document.getElementById("replay-link");
  replay.hidden = !(match.status === "finished" && match.play === "online");
}

function renderPresence() {
  const line = document.getElementById("presence");
  line.hidden = root.dataset.live !== "socket" || !match || present.length === 0;
  if (line.hidden) return;
  line.dataset.seats = present.join(",");
  const who = present.map((seat) => el("span", {}, nameNode(names()[seat]),
    seat === match.your_seat ? gettext(" (you)") : ""));
  line.replaceChildren(...fmtNodes(gettext("At the table now: %(who)s"),
    { who: el("span", {}, ...joined(who)) }));
}

/** The waiting room: the seats, Join while one is free, Start for the creator alone. */
function renderWaiting() {
  const seated = match.seats.some((s) => s.you);
  const free = match.open_seats > 0;
  document.getElementById("waiting-title").textContent = free ? gettext("Waiting for players")
    : gettext("Every seat is taken");
  document.getElementById("seats").replaceChildren(...match.seats.map((s) => el("li", {},
    ...fmtNodes(gettext("Seat %(number)s: %(name)s"),
      { number: s.position + 1, name: nameNode(s.name || gettext("open")) }),
    s.you ? gettext(" (you)") : "")));
  document.getElementById("join").hidden = seated || !free;
  document.getElementById("start").hidden = !match.you_may_start;
  document.getElementById("start").disabled = free;
  const note = document.getElementById("start-note");
  note.hidden = match.you_may_start;
  note.textContent = gettext("Waiting for the creator to start.");
  let line = gettext("Waiting for players.");
  if (!free) {
    line = match.you_may_start ? gettext("Every seat is taken: start when you are ready.")
      : gettext("Every seat is taken: waiting for the creator to start.");
  }
  document.getElementById("status").textContent = line;
}

/** Read by scripts and browser tests: the version on screen once drawn, and whose turn. */
function markDrawn() {
  root.dataset.version = String(match.version);
  root.dataset.status = match.status;
  root.dataset.yourTurn = String(Boolean(match.state && match.state.turn === match.your_seat
    && match.your_seat !== null));
}

async function render() {
  document.getElementById("title").textContent =
    `${VARIANTS[match.variant] || match.variant} #${match.id}`;
  const state = match.state;
  document.getElementById("waiting").hidden = match.status !== "open";
  document.getElementById("play").hidden = !state;
  if (match.status === "open") {
    renderWaiting();
    renderPresence();
    markDrawn();
    return;
  }
  if (match.play === "table") {
    document.getElementById("title").textContent = fmt(gettext("%(game)s at the table"),
      { game: VARIANTS[match.variant] || match.variant }) + ` #${match.id}`;
    atTable ||= tableMatch({ reload: () => sync(true) });
    await atTable.render(match);
    renderStandings();
    renderPresence();
    markDrawn();
    return;
  }
  if (!state) return;
  document.getElementById("status").replaceChildren(...statusLine(state));
  // Once the match is over the picture of its last round (with the hands it revealed) is the
  // board: the table is not drawn a second time above it.
  const ended = match.status === "finished" && (state.scores || []).length > 0;
  document.getElementById("play").hidden = ended;
  if (!ended) {
    // the hand is drawn once, as buttons: the picture leaves it out
    const picture = await attempt(() => api("GET",
      `/api/matches/${matchId}/board.svg?hand=false`, undefined, { text: true }));
    if (picture) showBoard(document.getElementById("board"), picture.data);
  }
  document.getElementById("hand-card").hidden = match.your_seat === null || ended;
  renderHand(state);
  renderTargets();
  await renderResults(state);
  renderStandings();
  renderPresence();
  markDrawn();
}

async function refresh() {
  const answer = await attempt(() => api("GET", `/api/matches/${matchId}`, undefined, { etag }));
  if (!answer || answer.status === 304) return;
  match = answer.data;
  etag = answer.etag;
  await render();
}

const over = () => Boolean(match && (match.status === "finished" || match.status === "abandoned"));

/**
 * The match is over but its results are not written yet (no frame will say when: the socket
 * closed at the end): read it again, one second later, then waiting twice as long each time up
 * to 30 s, until they are. Writing them moves the version on, so an unchanged read is a 304.
 */
function awaitResults() {
  if (!match || !match.results_pending || resultsWait) return;
  resultsWait = POLL_MS;
  const again = () => window.setTimeout(async () => {
    await sync(true);
    if (match.results_pending) {
      resultsWait = Math.min(resultsWait * 2, RESULTS_WAIT_MAX_MS);
      again();
    } else {
      resultsWait = 0;
    }
  }, resultsWait);
  again();
}

/**
 * Fetch and draw until the table shows the newest version announced (``force``: at least once
 * more). Calls while a fetch is under way join it, so a burst of frames costs one or two
 * fetches, never one each.
 */
function sync(force = false) {
  if (force) forced = true;
  if (!syncing) {
    syncing = (async () => {
      let idle = 0; // fetches that brought nothing new: give up after two
      while (idle < 2 && (forced || !match || wanted > match.version)) {
        forced = false;
        const before = match && match.version;
        await refresh();
        idle = match && match.version !== before ? 0 : idle + 1;
      }
      if (over()) {
        ended();
        awaitResults();
      }
    })().finally(() => {
      syncing = null;
    });
  }
  return syncing;
}

/** The match is over: nothing more will come; the socket, if any, is closed. */
function ended() {
  if (feed) feed.stop();
  feed = null;
  polls += 1; // the poll loop, if any, ends
  root.dataset.live = "over";
  document.getElementById("live-note").hidden = true;
  renderPresence();
}

/** A frame from the socket: fetch again only if it announces a version not drawn yet. */
function heard(frame) {
  if (frame.type === "presence" && Array.isArray(frame.seats)) {
    present = frame.seats;
    renderPresence();
    return;
  }
  if (typeof frame.version === "number" && frame.version > wanted) wanted = frame.version;
  if (match && wanted > match.version) sync();
}

async function poll(generation) {
  if (generation !== polls) return;
  await sync(true);
  if (generation === polls && !over()) window.setTimeout(() => poll(generation), POLL_MS);
}

/** How updates arrive: by the socket, by polling (said on the page), or no more. */
function setLive(mode) {
  root.dataset.live = mode;
  document.getElementById("live-note").hidden = mode !== "polling";
  renderPresence();
  if (mode === "polling" && !over()) {
    polls += 1;
    poll(polls);
  } else if (mode !== "polling") {
    polls += 1; // the poll loop, if any, ends
  }
  if (mode === "over") sync(true);
}

function bind() {
  document.getElementById("draw").addEventListener("click", () => play({ kind: "draw" }));
  document.getElementById("pass").addEventListener("click", () => play({ kind: "pass" }));
  document.getElementById("join").addEventListener("click", () => attempt(async () => {
    await api("POST", `/api/matches/${matchId}/join`, {});
    await sync(true);
  }));
  document.getElementById("start").addEventListener("click", () => attempt(async () => {
    await api("POST", `/api/matches/${matchId}/start`);
    await sync(true);
  }));
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLInputElement || !match || match.play === "table") return;
    if (event.key === "d" && !document.getElementById("draw").disabled) play({ kind: "draw" });
    if (event.key === "p" && !document.getElementById("pass").disabled) play({ kind: "pass" });
    if (event.key === "Escape") {
      selected = null;
      if (match && match.state) renderHand(match.state);
      renderTargets();
    }
  });
}

async function start() {
  await sync(true);
  if (!over()) feed = follow(matchId, { frame: heard, mode: setLive });
}

renderAccount();
bind();
if (!session.token) {
  askToLogIn();
} else {
  start();
}
