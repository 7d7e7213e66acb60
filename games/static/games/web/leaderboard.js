// A game's leaderboard: rank, player (a link to their page), rating, rated matches; 50 a page.
import {
  api, askToLogIn, attempt, cell, el, nameNode, renderAccount, session,
} from "./api.js";
import { formatNumber } from "./formats.js";

const root = document.getElementById("leaderboard");
const table = document.getElementById("leaderboard-table");
const more = document.getElementById("more");
let nextPage = `/api/leaderboards/${root.dataset.variant}`;
let body = null;

function row(r) {
  return el("tr", { "data-player": r.player_id, "data-rank": r.rank },
    cell(formatNumber(r.rank, 0), { num: true }),
    cell(el("a", { href: `/players/${r.player_id}/` }, nameNode(r.name))),
    cell(r.kind === "bot" ? gettext("bot") : gettext("player")),
    cell(formatNumber(r.display, 0), { num: true }),
    cell(formatNumber(r.matches, 0), { num: true }));
}

async function load() {
  const page = await attempt(() => api("GET", nextPage));
  if (!page) return;
  if (!body) {
    const head = el("tr", {}, cell(gettext("Rank"), { head: true, scope: "col", num: true }),
      cell(gettext("Player"), { head: true, scope: "col" }), cell(gettext("Kind"), { head: true, scope: "col" }),
      cell(gettext("Rating"), { head: true, scope: "col", num: true }),
      cell(gettext("Rated matches"), { head: true, scope: "col", num: true }));
    body = el("tbody");
    table.replaceChildren(el("thead", {}, head), body);
  }
  body.append(...page.data.results.map(row));
  if (!body.children.length) {
    body.append(el("tr", {}, el("td", { colspan: 5 }, gettext("No rated matches yet."))));
  }
  const next = page.data.next && new URL(page.data.next);
  nextPage = next ? next.pathname + next.search : null;
  more.hidden = !nextPage;
  root.dataset.loaded = "true";
}

renderAccount();
more.addEventListener("click", load);
if (!session.token) askToLogIn();
else load();
