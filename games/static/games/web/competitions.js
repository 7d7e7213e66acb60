// Every tournament and league, newest first: its game, kind, status and players, each a link to
// its standings page.
import {
  api, askToLogIn, attempt, cell, el, fmt, renderAccount, session, VARIANTS,
} from "./api.js";

const STATUS = {
  registering: gettext("registering players"),
  closed: gettext("registration closed"),
  running: gettext("running"),
  finished: gettext("finished"),
};

const table = document.getElementById("competition-list");
const more = document.getElementById("more");
let nextPage = "/api/competitions";
let body = null;

function row(c) {
  const status = STATUS[c.status] || c.status;
  const shown = c.kind === "tournament" && c.stage_count
    ? fmt(gettext("%(status)s, stage %(stage)s of %(stages)s"),
      { status, stage: c.current_stage, stages: c.stage_count })
    : status;
  return el("tr", { "data-competition": c.id },
    cell(el("a", { href: `/competitions/${c.id}/` }, c.name)),
    cell(c.kind === "league" ? gettext("League") : gettext("Tournament")),
    cell(VARIANTS[c.variant] || c.variant),
    cell(shown),
    cell(c.registered, { num: true }));
}

async function load() {
  const page = await attempt(() => api("GET", nextPage));
  if (!page) return;
  if (!body) {
    const head = el("tr", {}, ...[gettext("Name"), gettext("Kind"), gettext("Game"),
      gettext("Status")].map((h) => cell(h, { head: true, scope: "col" })),
    cell(gettext("Players"), { head: true, scope: "col",
      num: true }));
    body = el("tbody");
    table.replaceChildren(el("thead", {}, head), body);
  }
  body.append(...page.data.results.map(row));
  if (!body.children.length) {
    body.append(el("tr", {}, el("td", { colspan: 5 }, gettext("No tournaments or leagues yet."))));
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
