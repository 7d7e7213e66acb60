// A player's page: their figures, their rating's trend per game, their recent matches.
import {
  api, attempt, el, joined, nameNode, renderAccount, say, session, svgInto, VARIANTS,
} from "./api.js";

const root = document.getElementById("player");
const playerId = Number(root.dataset.playerId);

function figureRows(stats) {
  const shown = (value, digits = 2) => (value === null || value === undefined ? "–"
    : typeof value === "number" && !Number.isInteger(value) ? value.toFixed(digits) : value);
  const rows = [
    ["Matches", stats.matches],
    ["Wins", stats.wins],
    ["Win share", stats.win_share === null ? "–" : `${(stats.win_share * 100).toFixed(1)} %`],
    ["Mean place", shown(stats.mean_place)],
    ["Rounds", stats.rounds],
    ["Mean points a round", shown(stats.mean_round_score)],
    ["Rounds at zero", stats.rounds_at_zero],
    ["Best round", shown(stats.best_round)],
  ];
  return rows.map(([name, value]) => el("tr", { "data-figure": name },
    el("th", { scope: "row" }, name), el("td", {}, value)));
}

async function showRatings(stats) {
  const box = document.getElementById("ratings");
  if (!stats.ratings.length) {
    box.replaceChildren(el("p", {}, "Not rated yet: ratings start with the first finished match."));
    return;
  }
  box.replaceChildren();
  for (const rating of stats.ratings) {
    const trend = rating.trend >= 0 ? `+${rating.trend.toFixed(2)}` : rating.trend.toFixed(2);
    const figure = el("figure", { class: "chart", "data-variant": rating.variant });
    figure.append(el("figcaption", {}, `${VARIANTS[rating.variant]}: ${rating.display} `
      + `(${rating.matches} rated matches; ${trend} over the last ${rating.trend_matches})`));
    box.append(figure);
    const chart = await attempt(() => api("GET",
      `/api/players/${playerId}/rating.svg?variant=${rating.variant}`, undefined, { text: true }));
    if (chart) {
      const holder = el("div");
      svgInto(holder, chart.data);
      figure.prepend(holder);
    }
  }
}

function showRecent(page) {
  const head = el("tr", {}, ...["Match", "Finished", "Place", "Points", "At the table"]
    .map((h) => el("th", { scope: "col" }, h)));
  const rows = page.results.map((row) => el("tr", { "data-match": row.match_id },
    el("td", {}, el("a", { href: `/matches/${row.match_id}/` },
      `${VARIANTS[row.variant]} #${row.match_id}`)),
    el("td", {}, new Date(row.finished_at).toLocaleDateString()),
    el("td", {}, row.place),
    el("td", {}, row.total),
    el("td", {}, ...joined(row.seats.map((s) => nameNode(s.name))))));
  document.getElementById("recent").replaceChildren(el("thead", {}, head),
    el("tbody", {}, ...(rows.length ? rows : [el("tr", {}, el("td", { colspan: 5 },
      "No finished matches yet."))])));
  const me = page.results.length && page.results[0].seats.find((s) => s.player_id === playerId);
  if (me) document.getElementById("player-name").textContent = me.name;
}

async function load() {
  const stats = await attempt(() => api("GET", `/api/players/${playerId}/stats`));
  if (!stats) return;
  document.getElementById("figures").replaceChildren(el("tbody", {}, ...figureRows(stats.data)));
  const history = await attempt(() => api("GET", `/api/players/${playerId}/history?page_size=10`));
  if (history) showRecent(history.data);
  await showRatings(stats.data);
  root.dataset.loaded = "true";
}

renderAccount();
if (!session.token) say("Log in first: go to the lobby.", "error");
else load();
