// A finished match, move by move: the board after each move, every hand face up, the move's
// mark from the analysis and the better move beside it. Buttons, the arrow keys and a slider
// step through the moves (GET /api/matches/{id}/replay?seq=n).
import {
  api, attempt, cell, el, fmt, fmtNodes, nameNode, renderAccount, say, Problem,
} from "./api.js";
import { showBoard } from "./board.js";
import { formatNumber } from "./formats.js";
import { tileSvg } from "./tiles.js";

const root = document.getElementById("replay");
const matchId = root.dataset.matchId;
const slider = document.getElementById("slider");
const MARKS = {
  best: () => gettext("best"),
  good: () => gettext("good"),
  inaccuracy: () => gettext("inaccuracy"),
  mistake: () => gettext("mistake"),
  blunder: () => gettext("blunder"),
};
let match = null;
let seq = 1;
let shown = 0;

const seatName = (seat) => match.seats[seat]?.name
  || fmt(gettext("Seat %(number)s"), { number: seat + 1 });

function targetName(target) {
  if (target === "mexican") return [gettext("the Mexican Train")];
  let m = /^seat:(\d+)$/.exec(target);
  if (m) return fmtNodes(gettext("%(name)s's train"), { name: nameNode(seatName(Number(m[1]))) });
  m = /^arm:(\d+)$/.exec(target);
  if (m) return [fmt(gettext("arm %(number)s"), { number: Number(m[1]) + 1 })];
  m = /^foot:(\d+):toe:(\d+)$/.exec(target);
  if (m) {
    return [fmt(gettext("foot %(foot)s, toe %(toe)s"),
      { foot: Number(m[1]) + 1, toe: Number(m[2]) + 1 })];
  }
  return [target];
}

function tileNode(tile, label) {
  return el("span", { class: "tile", role: "img", "aria-label": label || `${tile[0]}–${tile[1]}` },
    tileSvg(tile[0], tile[1]));
}

function moveWords(move) {
  if (move.kind === "draw") return [gettext("draws")];
  if (move.kind === "pass") return [gettext("passes")];
  return fmtNodes(gettext("plays %(tile)s on %(target)s"), {
    tile: tileNode(move.tile), target: el("span", {}, ...targetName(move.target)),
  });
}

function renderMove(body) {
  const line = document.getElementById("move-line");
  const better = document.getElementById("better");
  const move = body.move;
  line.replaceChildren(
    fmt(gettext("Move %(seq)s of %(total)s"), { seq: body.seq, total: body.moves_played }), ": ",
    ...fmtNodes(gettext("%(name)s %(move)s"), {
      name: nameNode(seatName(move.seat)), move: el("span", {}, ...moveWords(move)),
    }));
  const analysis = body.analysis;
  better.hidden = true;
  delete root.dataset.mark;
  if (!analysis) return;
  root.dataset.mark = analysis.mark;
  line.append(" ", el("strong", { class: `mark mark-${analysis.mark}`, id: "mark" },
    MARKS[analysis.mark]()));
  if (analysis.mark !== "best") {
    better.replaceChildren(el("span", {}, gettext("Better:")), " ", ...moveWords(analysis.best),
      " ", el("span", { class: "note" }, fmt(gettext("(lost %(loss)s)"),
        { loss: formatNumber(analysis.loss, 3) })));
    better.hidden = false;
  }
}

function renderHands(body) {
  const hands = document.getElementById("hands");
  hands.replaceChildren(...body.hands.map((hand, seat) => el("div", { class: "seat-hand" },
    el("h3", {}, nameNode(seatName(seat))),
    el("div", { class: "hand", "data-seat": seat }, ...hand.map((t) => tileNode(t))))));
  document.getElementById("boneyard").replaceChildren(...body.boneyard.map((t) => tileNode(t)));
  document.getElementById("hands-card").hidden = false;
}

async function show(n) {
  seq = Math.max(1, Math.min(n, match.moves_played));
  slider.value = String(seq);
  const wanted = seq;
  const [body, picture] = await Promise.all([
    attempt(() => api("GET", `/api/matches/${matchId}/replay?seq=${wanted}`)),
    attempt(() => api("GET", `/api/matches/${matchId}/board.svg?seq=${wanted}&hand=false`,
      undefined, { text: true })),
  ]);
  if (!body || wanted !== seq) return;
  if (picture) showBoard(document.getElementById("board"), picture.data);
  renderMove(body.data);
  renderHands(body.data);
  shown = wanted;
  root.dataset.seq = String(shown);
}

function renderAccuracy(analysis) {
  const table = document.getElementById("accuracy");
  const rounds = [...new Set(analysis.players.flatMap((p) => p.rounds.map((r) => r.round)))];
  const head = el("tr", {}, cell(gettext("Player"), { head: true, scope: "col" }),
    cell(gettext("Match"), { head: true, scope: "col", num: true }),
    ...rounds.map((r) => cell(fmt(gettext("Round %(number)s"), { number: r }),
      { head: true, scope: "col", num: true })));
  const pct = (v) => (v === null ? "–" : formatNumber(v, 1));
  const rows = analysis.players.map((p) => el("tr", {},
    cell(nameNode(seatName(p.seat)), { head: true, scope: "row" }), cell(pct(p.accuracy), { num: true }),
    ...rounds.map((r) => cell(pct(p.rounds.find((x) => x.round === r)?.accuracy ?? null),
      { num: true }))));
  table.replaceChildren(el("thead", {}, head), el("tbody", {}, ...rows));
  document.getElementById("accuracy-card").hidden = !analysis.players.length;
}

async function loadAnalysis() {
  const note = document.getElementById("analysis-note");
  const answer = await attempt(() => api("GET", `/api/matches/${matchId}/analysis`));
  if (!answer) return;
  if (answer.status === 202) {
    note.textContent = fmt(gettext("The analysis is running: %(done)s of %(total)s moves."),
      { done: answer.data.done, total: answer.data.total || "…" });
    note.hidden = false;
    setTimeout(loadAnalysis, 2000);
    return;
  }
  note.hidden = true;
  renderAccuracy(answer.data);
  if (shown) await show(shown);
  root.dataset.analysed = "true";
}

async function start() {
  renderAccount();
  let opening;
  try {
    match = (await api("GET", `/api/matches/${matchId}`)).data;
    opening = (await api("GET", `/api/matches/${matchId}/replay?seq=0`)).data;
  } catch (error) {
    if (error instanceof Problem) {
      say(error.message, "error");
      return;
    }
    throw error;
  }
  match.moves_played = opening.moves_played;
  if (!match.moves_played) {
    say(gettext("No move was played in this match."), "info");
    return;
  }
  slider.max = String(match.moves_played);
  document.getElementById("stepper").hidden = false;
  document.getElementById("first").addEventListener("click", () => show(1));
  document.getElementById("prev").addEventListener("click", () => show(seq - 1));
  document.getElementById("next").addEventListener("click", () => show(seq + 1));
  document.getElementById("last").addEventListener("click", () => show(match.moves_played));
  slider.addEventListener("input", () => show(Number(slider.value)));
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLInputElement && event.target !== slider) return;
    if (event.key === "ArrowRight") { event.preventDefault(); show(seq + 1); }
    if (event.key === "ArrowLeft") { event.preventDefault(); show(seq - 1); }
    if (event.key === "Home") { event.preventDefault(); show(1); }
    if (event.key === "End") { event.preventDefault(); show(match.moves_played); }
  });
  await show(1);
  root.dataset.loaded = "true";
  await loadAnalysis();
}

start();
