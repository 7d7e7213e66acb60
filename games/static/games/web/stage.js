// The organiser's dashboard of a table event's stage: each table's progress (rounds entered of
// rounds, confirmed, disputed, finished), the disputes to resolve with a note, check-in for the
// next stage and starting it. It polls the API every few seconds (no socket serves organisers).
import {
  api, askToLogIn, attempt, el, joined, nameNode, Problem, renderAccount, say, session,
} from "./api.js";

const root = document.getElementById("stage");
const id = root.dataset.competitionId;
const number = Number(root.dataset.stage);
const POLL_MS = 5000;
let competition = null;

/** A table as a card (a phone shows it whole): its players, how far its scoring has got. */
function tableCard(table) {
  const figure = (label, value, extra) => el("span", { class: `figure ${extra || ""}` },
    el("strong", {}, `${value}`), ` ${label}`);
  return el("li", { "data-table": table.table, class: `table-card${table.disputed ? " disputed" : ""}` },
    el("h3", {}, `Table ${table.table}`, el("span", { class: "state" }, table.finished ? " · finished" : " · playing")),
    el("p", { class: "players" }, el("a", { href: `/matches/${table.match_id}/` },
      ...joined(table.seats.map((seat) => nameNode(seat.name))))),
    el("p", { class: "figures" },
      figure(`of ${table.rounds} rounds entered`, table.rounds_entered),
      figure("confirmed", table.confirmed),
      figure("disputed", table.disputed, table.disputed ? "alert" : "")));
}

async function disputesOf(table) {
  const answer = await api("GET", `/api/matches/${table.match_id}`);
  return (answer.data.table_rounds || []).filter((r) => r.disputed)
    .map((round) => ({ table, round, seats: answer.data.seats }));
}

function disputeForm({ table, round, seats }) {
  const who = seats[round.dispute.seat]?.name || "A player";
  const note = el("input", { type: "text", maxlength: "500", "aria-label": "Note", required: true });
  const form = el("form", { class: "dispute card", "data-table": table.table, "data-round": round.number },
    el("p", {}, `Table ${table.table}, round ${round.number}: `, nameNode(who), " disputes it: ",
      el("q", {}, round.dispute.reason)),
    el("label", {}, "Resolve with a note ", note),
    el("button", { type: "submit" }, "Resolve"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const done = await attempt(() => api("POST",
      `/api/matches/${table.match_id}/rounds/${round.number}/resolve`, { note: note.value }));
    if (done) {
      say(`Table ${table.table}, round ${round.number}: resolved.`);
      await refresh();
    }
  });
  return form;
}

function renderCheckIns(checkIns) {
  const inIds = new Set(checkIns.check_ins.map((c) => c.player_id));
  document.getElementById("next-title").textContent = `Check-in for stage ${checkIns.stage}`;
  document.getElementById("check-in-status").textContent = checkIns.open
    ? `Check-in is open: ${checkIns.check_ins.length} checked in.` : "Check-in is closed.";
  document.getElementById("check-ins").replaceChildren(...checkIns.check_ins.map((c) =>
    el("li", { "data-player": c.player_id }, nameNode(c.name), " ✓")));
  const absent = competition.players.filter((p) => !inIds.has(p.id));
  document.getElementById("absent").replaceChildren(...absent.map((p) => {
    const button = el("button", { type: "button", disabled: !checkIns.open }, "Check in");
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
  start.textContent = `Start stage ${next}`;
  start.dataset.stage = String(next);
  start.disabled = !["closed", "running"].includes(competition.status)
    || next > (competition.stage_count || 0);
}

async function refresh() {
  const detail = await attempt(() => api("GET", `/api/competitions/${id}`));
  if (!detail) return;
  competition = detail.data;
  document.getElementById("stage-title").replaceChildren(nameNode(competition.name), `: stage ${number}`);
  const links = Array.from({ length: competition.current_stage || 0 }, (_, i) => i + 1)
    .map((n) => (n === number ? el("strong", {}, `Stage ${n}`)
      : el("a", { href: `/competitions/${id}/stages/${n}/` }, `Stage ${n}`)));
  links.push(el("a", { href: `/competitions/${id}/` }, "Standings"));
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
    document.getElementById("stage-status").textContent = `Stage ${number} has not started yet.`;
    document.getElementById("tables").replaceChildren();
    document.getElementById("disputes").replaceChildren();
  }
  if (board) {
    const tables = board.data.tables;
    document.getElementById("stage-status").textContent =
      `Stage ${number} is ${board.data.status}: ${board.data.finished} of ${tables.length} tables finished.`;
    document.getElementById("tables").replaceChildren(...tables.map(tableCard));
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
