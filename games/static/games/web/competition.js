// A tournament's or league's standings, for the wall: the table (shared ranks marked "="),
// each player's placement points by stage as a chart, and the CSV.
import {
  api, askToLogIn, attempt, cell, el, fmt, fmtNodes, nameNode, renderAccount, say, session,
  statusWord, svgInto, VARIANTS,
} from "./api.js";
import { formatNumber } from "./formats.js";

const root = document.getElementById("competition");
const id = root.dataset.competitionId;

// [heading, cell content, a number (right-aligned)?]
/** A figure as the page's language writes it ("–" when there is none). */
const figure = (value) => (value === null || value === undefined ? "–" : formatNumber(value));

const COLUMNS = [
  [gettext("Rank"), (r) => (r.rank === null ? "–" : `${r.shared ? "=" : ""}${r.rank}`), true],
  [gettext("Player"), (r) => el("a", { href: `/players/${r.player_id}/` }, nameNode(r.name)), false],
  [gettext("Matches"), (r) => figure(r.matches), true],
  [gettext("Wins"), (r) => figure(r.wins), true],
  [gettext("Placement points"), (r) => figure(r.placement_points), true],
  [gettext("Points"), (r) => figure(r.total_points), true],
  [gettext("Points a round"), (r) => figure(r.mean_points_per_round), true],
  [gettext("Rounds at zero"), (r) => figure(r.rounds_at_zero), true],
  [gettext("Best round"), (r) => figure(r.best_round), true],
];
const RATING = [gettext("Rating"), (r) => figure(r.rating), true];
/** The tie-breaks with a column only when the competition's order uses them. */
const BY_ORDER = {
  buchholz: [gettext("Buchholz"), (r) => figure(r.buchholz), true],
  median_buchholz: [gettext("Median Buchholz"), (r) => figure(r.median_buchholz), true],
  head_to_head: [gettext("Head-to-head"), (r) => figure(r.head_to_head), true],
};
/** What each key of an order is called (docs/scoring.md, "Tie-breaks"). */
const TIE_BREAKS = {
  placement_points: gettext("Placement points"),
  buchholz: gettext("Buchholz"),
  median_buchholz: gettext("Median Buchholz"),
  wins: gettext("Wins"),
  rounds_at_zero: gettext("Rounds at zero"),
  best_round: gettext("Lowest round"),
  head_to_head: gettext("Head-to-head"),
  total_points: gettext("Total pips"),
  mean_points_per_round: gettext("Pips a round"),
};

async function downloadCsv() {
  const response = await fetch(`/api/competitions/${id}/standings?format=csv`, {
    headers: { Authorization: `Bearer ${session.token}`, Accept: "text/csv" },
  });
  if (!response.ok) {
    say(gettext("The CSV could not be fetched."), "error");
    return;
  }
  const link = el("a", { href: URL.createObjectURL(await response.blob()),
    download: `standings-${id}.csv` });
  link.click();
}

/** A button that fetches a printed sheet with the session's token and saves it. */
function sheetButton(sheet, label) {
  const button = el("button", { type: "button", "data-sheet": sheet }, label);
  button.addEventListener("click", () => attempt(async () => {
    const response = await fetch(`/api/competitions/${id}/${sheet}.pdf`, {
      headers: { Authorization: `Bearer ${session.token}`, Accept: "application/pdf" },
    });
    if (!response.ok) {
      say(gettext("The sheet could not be fetched."), "error");
      return;
    }
    const link = el("a", { href: URL.createObjectURL(await response.blob()),
      download: `competition-${id}-${sheet}.pdf` });
    link.click();
  }));
  return button;
}

async function load() {
  const detail = await attempt(() => api("GET", `/api/competitions/${id}`));
  const body = await attempt(() => api("GET", `/api/competitions/${id}/standings`));
  if (!detail || !body) return;
  const info = detail.data;
  document.getElementById("competition-name").textContent = info.name;
  document.getElementById("competition-status").textContent =
    fmt(info.kind === "league" ? gettext("League of %(game)s · %(standings)s")
      : gettext("Tournament of %(game)s · %(standings)s"), {
      game: VARIANTS[info.variant],
      standings: body.data.final ? gettext("final standings")
        : fmt(gettext("%(status)s, standings so far"), { status: statusWord(info.status) }),
    });
  const stages = document.getElementById("stage-dashboards");
  const organiser = String(info.organiser?.id) === session.playerId;
  stages.hidden = !(organiser && info.play === "table" && info.kind === "tournament");
  if (!stages.hidden) {
    const count = Math.max(info.current_stage || 0, 1);
    const links = el("span", {}, ...Array.from({ length: count }, (_, i) => [
      i ? " · " : "", el("a", { href: `/competitions/${id}/stages/${i + 1}/` },
        fmt(gettext("Stage %(number)s"), { number: i + 1 })),
    ]).flat());
    stages.replaceChildren(...fmtNodes(gettext("The stages' dashboards: %(links)s"), { links }));
  }
  const order = body.data.tie_breaks;
  const columns = [...COLUMNS, ...order.filter((key) => key in BY_ORDER).map((key) => BY_ORDER[key]),
    RATING];
  const head = el("tr", {}, ...columns.map(([name, , num]) => cell(name, {
    head: true, scope: "col", num,
  })));
  const rows = body.data.standings.map((row) => el("tr", {
    "data-player": row.player_id, "data-rank": row.rank === null ? "" : row.rank,
  }, ...columns.map(([, content, num]) => cell(content(row), { num }))));
  document.getElementById("standings-order").textContent = fmt(gettext("Ranked by: %(order)s"),
    { order: order.map((key) => TIE_BREAKS[key]).join(" · ") });
  // the printed sheets: the organiser's, and anyone's once the competition is public
  const sheets = document.getElementById("sheets");
  sheets.hidden = !(organiser || info.public);
  if (!sheets.hidden) {
    const buttons = [sheetButton("standings", gettext("Standings to print (PDF)"))];
    if (info.kind === "tournament") {
      buttons.push(" ", sheetButton("crosstable", gettext("Crosstable to print (PDF)")));
    }
    sheets.replaceChildren(...buttons);
  }
  document.getElementById("standings-table").replaceChildren(el("thead", {}, head),
    el("tbody", {}, ...rows));
  document.getElementById("by-stage-title").textContent = info.kind === "league"
    ? gettext("Points by match") : gettext("Points by stage");
  const box = document.getElementById("by-stage");
  if (!body.data.standings.some((row) => row.matches > 0)) {
    box.replaceChildren(el("p", { class: "note empty" }, gettext("No rated matches yet.")));
  } else {
    const chart = await attempt(() => api("GET", `/api/competitions/${id}/standings.svg`,
      undefined, { text: true }));
    if (chart) svgInto(box, chart.data);
  }
  root.dataset.loaded = "true";
}

renderAccount();
document.getElementById("csv").addEventListener("click", () => attempt(downloadCsv));
if (!session.token) askToLogIn();
else load();
