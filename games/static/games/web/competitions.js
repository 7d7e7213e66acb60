// Every tournament and league, newest first: its game, kind, status and players, each a link to
// its standings page.
import { api, askToLogIn, attempt, cell, el, renderAccount, session, VARIANTS } from "./api.js";

const STATUS = {
  registering: "registering players",
  closed: "registration closed",
  running: "running",
  finished: "finished",
};

const table = document.getElementById("competition-list");
const more = document.getElementById("more");
let nextPage = "/api/competitions";
let body = null;

function row(c) {
  const stage = c.kind === "tournament" && c.stage_count
    ? `, stage ${c.current_stage} of ${c.stage_count}` : "";
  return el("tr", { "data-competition": c.id },
    cell(el("a", { href: `/competitions/${c.id}/` }, c.name)),
    cell(c.kind === "league" ? "League" : "Tournament"),
    cell(VARIANTS[c.variant] || c.variant),
    cell(`${STATUS[c.status] || c.status}${stage}`),
    cell(c.registered, { num: true }));
}

async function load() {
  const page = await attempt(() => api("GET", nextPage));
  if (!page) return;
  if (!body) {
    const head = el("tr", {}, ...["Name", "Kind", "Game", "Status"].map(
      (h) => cell(h, { head: true, scope: "col" })), cell("Players", { head: true, scope: "col",
      num: true }));
    body = el("tbody");
    table.replaceChildren(el("thead", {}, head), body);
  }
  body.append(...page.data.results.map(row));
  if (!body.children.length) {
    body.append(el("tr", {}, el("td", { colspan: 5 }, "No tournaments or leagues yet.")));
  }
  const next = page.data.next && new URL(page.data.next);
  nextPage = next ? next.pathname + next.search : null;
  more.hidden = !nextPage;
  document.getElementById("competitions").dataset.loaded = "true";
}

renderAccount();
more.addEventListener("click", load);
if (!session.token) askToLogIn();
else load();
