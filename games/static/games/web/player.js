// A player's page: their figures, their rating's trend per game, their recent matches.
import {
  api, askToLogIn, attempt, cell, el, fmt, joined, nameNode, renderAccount, session, svgInto,
  VARIANTS,
} from "./api.js";
import { formatDate, formatNumber } from "./formats.js";

const root = document.getElementById("player");
const playerId = Number(root.dataset.playerId);

function figureRows(stats) {
  const shown = (value, digits = 2) => (value === null || value === undefined ? "–"
    : typeof value === "number" ? formatNumber(value, Number.isInteger(value) ? 0 : digits)
      : value);
  const rows = [
    ["Matches", gettext("Matches"), stats.matches],
    ["Wins", gettext("Wins"), stats.wins],
    ["Win share", gettext("Win share"), stats.win_share === null ? "–"
      : `${formatNumber(stats.win_share * 100, 1)} %`],
    ["Mean place", gettext("Mean place"), shown(stats.mean_place)],
    ["Rounds", gettext("Rounds"), stats.rounds],
    ["Mean points a round", gettext("Mean points a round"), shown(stats.mean_round_score)],
    ["Rounds at zero", gettext("Rounds at zero"), stats.rounds_at_zero],
    ["Best round", gettext("Best round"), shown(stats.best_round)],
  ];
  return rows.map(([key, name, value]) => el("tr", { "data-figure": key },
    el("th", { scope: "row" }, name), cell(value, { num: true })));
}

async function showRatings(stats) {
  const box = document.getElementById("ratings");
  if (!stats.ratings.length) {
    box.replaceChildren(el("p", {}, gettext("Not rated yet: ratings start with the first finished match.")));
    return;
  }
  box.replaceChildren();
  for (const rating of stats.ratings) {
    // the trend on the rating's own scale (the display rating, as the chart draws it)
    const change = rating.display_trend;
    const trend = change >= 0 ? `+${change}` : `${change}`;
    const figure = el("figure", {
      class: "chart", "data-variant": rating.variant, "data-trend": rating.display_trend,
    });
    figure.append(el("figcaption", {}, fmt(ngettext(
      "%(game)s: %(rating)s (%(matches)s rated match; %(trend)s over the last %(last)s)",
      "%(game)s: %(rating)s (%(matches)s rated matches; %(trend)s over the last %(last)s)",
      rating.matches,
    ), {
      game: VARIANTS[rating.variant], rating: rating.display, matches: rating.matches, trend,
      last: rating.trend_matches,
    })));
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
  const head = el("tr", {}, ...[[gettext("Match")], [gettext("Finished")],
    [gettext("Place"), true], [gettext("Points"), true], [gettext("At the table")]].map(([h, num]) => cell(h, { head: true, scope: "col", num })));
  const rows = page.results.map((row) => el("tr", { "data-match": row.match_id },
    el("td", {}, el("a", { href: `/matches/${row.match_id}/` },
      `${VARIANTS[row.variant]} #${row.match_id}`)),
    el("td", {}, formatDate(row.finished_at)),
    cell(row.place, { num: true }),
    cell(row.total, { num: true }),
    el("td", {}, ...joined(row.seats.map((s) => nameNode(s.name))))));
  document.getElementById("recent").replaceChildren(el("thead", {}, head),
    el("tbody", {}, ...(rows.length ? rows : [el("tr", {}, el("td", { colspan: 5 },
      gettext("No finished matches yet.")))])));
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
if (!session.token) askToLogIn();
else load();
