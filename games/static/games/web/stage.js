// The organiser's dashboard of a table event's stage: each table's progress (rounds entered of
// rounds, confirmed, disputed, finished, locked), the disputes to resolve with a note, a stage
// a late correction left paired from old standings (what changed, and a button that re-pairs
// it), check-in for the next stage and starting it. It polls the API every few seconds (no
// socket serves organisers).
import {
  api, askToLogIn, attempt, checkMark, el, fmt, fmtNodes, joined, nameNode, Problem,
  renderAccount, say, session, statusWord,
} from "./api.js";

const root = document.getElementById("stage");
const id = root.dataset.competitionId;
const number = Number(root.dataset.stage);
const POLL_MS = 5000;
let competition = null;

/** A table as a card (a phone shows it whole): its players, how far its scoring has got. */
function tableCard(table) {
  // label: a message whose %(count)s is the figure (in bold); values: its other placeholders
  const figure = (label, value, extra, values = {}) => el("span", { class: `figure ${extra || ""}` },
    ...fmtNodes(label, { ...values, count: el("strong", {}, `${value}`) }));
  return el("li", { "data-table": table.table, class: `table-card${table.disputed ? " disputed" : ""}` },
    el("h3", {}, fmt(gettext("Table %(table)s"), { table: table.table }),
      el("span", { class: "state" }, table.finished ? gettext(" · finished") : gettext(" · playing")),
      table.locked ? el("span", { class: "locked" }, gettext(" · locked")) : ""),
    el("p", { class: "players" }, el("a", { href: `/matches/${table.match_id}/` },
      ...joined(table.seats.map((seat) => nameNode(seat.name))))),
    el("p", { class: "figures" },
      figure(gettext("%(count)s of %(rounds)s rounds entered"), table.rounds_entered, "",
        { rounds: table.rounds }),
      figure(gettext("%(count)s confirmed"), table.confirmed),
      figure(gettext("%(count)s disputed"), table.disputed, table.disputed ? "alert" : "")));
}

async function disputesOf(table) {
  const answer = await api("GET", `/api/matches/${table.match_id}`);
  return (answer.data.table_rounds || []).filter((r) => r.disputed)
    .map((round) => ({ table, round, seats: answer.data.seats }));
}

function disputeForm({ table, round, seats }) {
  const who = seats[round.dispute.seat]?.name || gettext("A player");
  const note = el("input", { type: "text", maxlength: "500", "aria-label": gettext("Note"), required: true });
  const form = el("form", { class: "dispute card", "data-table": table.table, "data-round": round.number },
    el("p", {}, ...fmtNodes(gettext("Table %(table)s, round %(round)s: %(who)s disputes it: %(reason)s"), {
      table: table.table, round: round.number, who: nameNode(who),
      reason: el("q", {}, round.dispute.reason),
    })),
    el("label", {}, ...fmtNodes(gettext("Resolve with a note %(note)s"), { note })),
    el("button", { type: "submit" }, gettext("Resolve")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const done = await attempt(() => api("POST",
      `/api/matches/${table.match_id}/rounds/${round.number}/resolve`, { note: note.value }));
    if (done) {
      say(fmt(gettext("Table %(table)s, round %(round)s: resolved."),
        { table: table.table, round: round.number }));
      await refresh();
    }
  });
  return form;
}

/** A stage paired from standings a correction has since changed: who moved, and a re-pair. */
function renderStale(board) {
  const stale = board.pairing_stale;
  const box = document.getElementById("stale");
  box.hidden = !stale;
  if (!stale) return;
  document.getElementById("stale-text").textContent = fmt(gettext(
    "A correction of an earlier stage changed the standings stage %(stage)s was seated from."),
  { stage: number });
  document.getElementById("stale-changes").replaceChildren(...stale.changes.map((change) =>
    el("li", { "data-player": change.player_id }, ...fmtNodes(
      gettext("%(name)s: rank %(before)s, now %(after)s (%(points_before)s, now %(points_after)s points)"), {
        name: nameNode(change.name),
        before: change.rank_before ?? "–",
        after: change.rank_after ?? "–",
        points_before: change.placement_points_before,
        points_after: change.placement_points_after,
      }))));
  const button = document.getElementById("re-pair");
  button.dataset.version = String(board.version);
}

function renderCheckIns(checkIns) {
  const inIds = new Set(checkIns.check_ins.map((c) => c.player_id));
  document.getElementById("next-title").textContent =
    fmt(gettext("Check-in for stage %(stage)s"), { stage: checkIns.stage });
  document.getElementById("check-in-status").textContent = checkIns.open
    ? fmt(gettext("Check-in is open: %(count)s checked in."), { count: checkIns.check_ins.length })
    : gettext("Check-in is closed.");
  document.getElementById("check-ins").replaceChildren(...checkIns.check_ins.map((c) =>
    el("li", { "data-player": c.player_id }, nameNode(c.name), " ",
      checkMark(gettext("checked in")))));
  const absent = competition.players.filter((p) => !inIds.has(p.id));
  document.getElementById("absent").replaceChildren(...absent.map((p) => {
    const button = el("button", { type: "button", disabled: !checkIns.open }, gettext("Check in"));
    button.addEventListener("click", async () => {
      if (await attempt(() => api("POST", `/api/competitions/${id}/check-in`, { player_id: p.id }))) {
        await refresh();
      }
    });
    return el("li", { "data-player": p.id }, nameNode(p.name), " ", button);
  }));
  document.getElementById("close-check-in").disabled = !checkIns.open;
  const next = checkIns.stage;
  const start = document.getElementById("start-next");
  start.textContent = fmt(gettext("Start stage %(stage)s"), { stage: next });
  start.dataset.stage = String(next);
  start.disabled = !["closed", "running"].includes(competition.status)
    || next > (competition.stage_count || 0);
}

async function refresh() {
  const detail = await attempt(() => api("GET", `/api/competitions/${id}`));
  if (!detail) return;
  competition = detail.data;
  document.getElementById("stage-title").replaceChildren(...fmtNodes(
    gettext("%(name)s: stage %(stage)s"), { name: nameNode(competition.name), stage: number }));
  const links = Array.from({ length: competition.current_stage || 0 }, (_, i) => i + 1)
    .map((n) => (n === number ? el("strong", {}, fmt(gettext("Stage %(number)s"), { number: n }))
      : el("a", { href: `/competitions/${id}/stages/${n}/` },
        fmt(gettext("Stage %(number)s"), { number: n }))));
  links.push(el("a", { href: `/competitions/${id}/` }, gettext("Standings")));
  document.getElementById("stage-links").replaceChildren(...joined(links, " · "));
  let board = null;
  try {
    board = await api("GET", `/api/competitions/${id}/stages/${number}/dashboard`);
  } catch (error) {
    if (!(error instanceof Problem)) throw error;
    if (error.body.code !== "wrong_stage") {
      say(error.message, "error");
      root.dataset.state = "refused";
      return;
    }
    // not started yet: its check-in and its start are still here
    document.getElementById("stage-status").textContent =
      fmt(gettext("Stage %(number)s has not started yet."), { number });
    document.getElementById("tables").replaceChildren();
    document.getElementById("disputes").replaceChildren();
    document.getElementById("stale").hidden = true;
  }
  if (board) {
    const tables = board.data.tables;
    document.getElementById("stage-status").textContent =
      fmt(gettext("Stage %(number)s is %(status)s: %(finished)s of %(tables)s tables finished."), {
        number, status: statusWord(board.data.status), finished: board.data.finished, tables: tables.length,
      });
    document.getElementById("tables").replaceChildren(...tables.map(tableCard));
    renderStale(board.data);
    const disputes = (await Promise.all(tables.filter((t) => t.disputed).map(disputesOf))).flat();
    const box = document.getElementById("disputes");
    if (!box.contains(document.activeElement)) box.replaceChildren(...disputes.map(disputeForm));
  }
  const checkIns = await attempt(() => api("GET", `/api/competitions/${id}/check-ins`));
  document.getElementById("next").hidden = !checkIns;
  if (checkIns) renderCheckIns(checkIns.data);
  root.dataset.state = "ready";
  root.dataset.updated = String(Number(root.dataset.updated || 0) + 1);
}

function wire() {
  document.getElementById("re-pair").addEventListener("click", async (event) => {
    const version = Number(event.currentTarget.dataset.version);
    const done = await attempt(() => api("POST", `/api/competitions/${id}/stages/${number}/re-pair`,
      { reason: gettext("The standings were corrected") }, { ifMatch: version }));
    if (done) {
      say(fmt(gettext("Stage %(stage)s is paired again."), { stage: number }));
      await refresh();
    }
  });
  document.getElementById("close-check-in").addEventListener("click", async () => {
    if (await attempt(() => api("POST", `/api/competitions/${id}/check-in/close`))) await refresh();
  });
  document.getElementById("start-next").addEventListener("click", async (event) => {
    const next = Number(event.currentTarget.dataset.stage);
    if (await attempt(() => api("POST", `/api/competitions/${id}/stages`, { number: next }))) {
      window.location.assign(`/competitions/${id}/stages/${next}/`);
    }
  });
}

async function poll() {
  await refresh();
  window.setTimeout(poll, POLL_MS);
}

renderAccount();
if (!session.token) askToLogIn();
else {
  wire();
  poll();
}
