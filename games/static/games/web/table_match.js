// A match played at a table, on its own page (/matches/{id}/): what the API holds of it, for
// its creator, its seated players and its organiser. Each round's scores by seat (who went
// out) with the running totals, each round's confirmations and disputes, the score log with
// every correction and its reason, the totals chart and the score sheet (PDF); for those who
// may score it (you_may_score), the scorer's page's entry and correction forms. The page
// (table.js) follows the match's socket and calls ``render`` with each new version.
import {
  api, attempt, cell, checkMark, el, fmt, fmtNodes, nameNode, Problem, say, session, showChart,
} from "./api.js";
import { scoreForms } from "./score_forms.js";

/**
 * The table match's part of the page. ``reload()`` fetches the match again and redraws it.
 * Returns ``render(match)`` (async: it fetches the log and the chart of a new version).
 */
export function tableMatch({ reload }) {
  let match = null;
  let forms = null;
  let drawnChart = -1; // the version whose chart and log are drawn
  let readsLog = true; // false once the API said this reader may not read the log
  const enteredBy = new Map(); // round -> the player id of its latest entry (from the log)

  const seatName = (position) => match.seats[position]?.name
    || fmt(gettext("Seat %(number)s"), { number: position + 1 });
  const rounds = () => match.table_rounds || [];

  /** The line under the title: the round to enter next, or that the match is over. */
  function statusLine() {
    if (match.status === "finished") {
      return match.results_pending ? gettext("The match is over: its places are being worked out.")
        : gettext("The match is over.");
    }
    const next = rounds().length + 1;
    if (next > match.options.rounds) return gettext("Every round is entered.");
    const double = match.options.max_pip - (next - 1);
    return fmt(gettext("Round %(round)s of %(rounds)s to enter · starts with %(double)s"),
      { round: next, rounds: match.options.rounds, double: `${double}|${double}` });
  }

  /** Each round a row, each seat a column: its points (a check: went out) and, under them,
   * its total so far; the totals at the foot. */
  function renderRounds() {
    const table = document.getElementById("rounds");
    document.getElementById("no-rounds").hidden = rounds().length > 0;
    table.hidden = rounds().length === 0;
    const head = el("tr", {}, el("th", { scope: "col" }, gettext("Round")),
      ...match.seats.map((seat) => cell(nameNode(seatName(seat.position)),
        { head: true, scope: "col", num: true })));
    const running = match.seats.map(() => 0);
    const rows = rounds().map((entry) => {
      const double = entry.start_double[0];
      return el("tr", { "data-round": entry.number, class: entry.disputed ? "disputed" : null },
        el("th", { scope: "row" }, fmt(gettext("Round %(number)s"), { number: entry.number }),
          el("span", { class: "double" }, `${double}|${double}`)),
        ...entry.scores.map((score) => {
          running[score.seat] += score.points;
          const points = el("span", { class: "points" }, `${score.points}`);
          if (score.went_out) points.append(" ", checkMark(gettext("went out")));
          return el("td", { class: "num", "data-seat": score.seat, "data-went-out": String(score.went_out) },
            points, el("span", { class: "running" },
              fmt(gettext("total %(points)s"), { points: running[score.seat] })));
        }));
    });
    const totals = el("tr", { class: "totals" }, el("th", { scope: "row" }, gettext("Total")),
      ...match.totals.map((points) => cell(points, { num: true })));
    table.replaceChildren(el("thead", {}, head), el("tbody", {}, ...rows, totals));
  }

  const names = (seats) => seats.map((seat) => nameNode(seatName(seat)));

  /** What became of each round that someone had to confirm or disputed. */
  function reviewLine(entry) {
    const parts = [];
    if (entry.status === "confirmed") {
      parts.push(...fmtNodes(gettext("confirmed by %(names)s"),
        { names: el("span", {}, ...names(entry.confirmed_by).flatMap((n, i) => (i ? [", ", n] : [n]))) }));
    } else if (entry.status === "awaiting_confirmation") {
      parts.push(gettext("awaiting confirmation"));
    }
    if (entry.disputed && entry.dispute) {
      if (parts.length) parts.push("; ");
      parts.push(...fmtNodes(gettext("disputed by %(name)s: %(reason)s"), {
        name: nameNode(entry.dispute.seat === null ? gettext("a player") : seatName(entry.dispute.seat)),
        reason: el("q", { class: "reason" }, entry.dispute.reason),
      }));
    } else if (entry.resolution) {
      if (parts.length) parts.push("; ");
      parts.push(...fmtNodes(gettext("a dispute resolved: %(note)s"),
        { note: el("q", { class: "reason" }, entry.resolution.reason) }));
    }
    return parts;
  }

  function renderReviews() {
    const items = rounds().map((entry) => [entry, reviewLine(entry)])
      .filter(([, parts]) => parts.length)
      .map(([entry, parts]) => el("li", {
        "data-round": entry.number, class: entry.disputed ? "disputed" : null,
      }, ...fmtNodes(gettext("Round %(number)s: %(what)s"),
        { number: entry.number, what: el("span", {}, ...parts) })));
    document.getElementById("round-reviews").replaceChildren(...items);
  }

  /** A seated player confirms, with their own token, a round that waits for them. */
  function renderConfirm() {
    const box = document.getElementById("confirm");
    const seat = match.your_seat;
    const mine = seat !== null && match.seats[seat]?.kind === "human";
    // a round is confirmed by someone other than whoever entered it as it stands
    const waiting = mine ? rounds().filter((entry) => entry.status === "awaiting_confirmation"
      && !entry.confirmed_by.includes(seat)
      && enteredBy.get(entry.number) !== match.seats[seat].player_id) : [];
    box.hidden = waiting.length === 0;
    box.replaceChildren(...waiting.map((entry) => {
      const button = el("button", { type: "button", "data-round": entry.number },
        fmt(gettext("Confirm round %(number)s"), { number: entry.number }));
      button.addEventListener("click", async () => {
        button.disabled = true;
        const done = await attempt(() => api("POST",
          `/api/matches/${match.id}/rounds/${entry.number}/confirm`));
        button.disabled = false;
        if (done) {
          say(fmt(gettext("Round %(number)s confirmed."), { number: entry.number }));
          await reload();
        }
      });
      return button;
    }));
  }

  /** A log entry's seats as "name points", and for a correction what each changed seat was. */
  function logPoints(entry) {
    const before = new Map((entry.before || []).map((s) => [s.seat, s.points]));
    const parts = entry.after.flatMap((s, index) => {
      const was = before.get(s.seat);
      const points = was !== undefined && was !== s.points ? `${was} → ${s.points}` : `${s.points}`;
      return [...(index ? [", "] : []), nameNode(seatName(s.seat)), ` ${points}`];
    });
    return el("span", {}, ...parts);
  }

  function renderLog(entries) {
    for (const entry of entries) enteredBy.set(entry.round, entry.author?.player_id ?? null);
    const list = document.getElementById("score-log");
    if (!entries.length) {
      list.replaceChildren(el("li", { class: "note" }, gettext("Nothing entered yet.")));
      return;
    }
    list.replaceChildren(...entries.map((entry) => {
      const who = entry.author ? nameNode(entry.author.name) : gettext("a scorer link");
      const item = el("li", { "data-kind": entry.kind, "data-round": entry.round },
        ...fmtNodes(entry.kind === "correction"
          ? gettext("Round %(round)s corrected by %(who)s: %(points)s.")
          : gettext("Round %(round)s entered by %(who)s: %(points)s."),
        { round: entry.round, who, points: logPoints(entry) }));
      if (entry.reason) {
        item.append(...fmtNodes(gettext(" Why: %(reason)s"),
          { reason: el("q", { class: "reason" }, entry.reason) }));
      }
      return item;
    }));
  }

  /** The log and the chart of a version not drawn yet; the log only for those who may read it
   * (its players, its creator, its organiser), and so the score sheet. */
  async function renderLogAndChart() {
    if (drawnChart === match.version) return;
    drawnChart = match.version;
    if (readsLog) {
      try {
        const log = await api("GET", `/api/matches/${match.id}/score-log?limit=100`);
        renderLog(log.data.entries);
        renderConfirm(); // now that who entered each round is known
      } catch (error) {
        if (!(error instanceof Problem) || error.status !== 403) throw error;
        readsLog = false;
      }
    }
    document.getElementById("log-card").hidden = !readsLog;
    document.getElementById("score-sheet").hidden = !readsLog || rounds().length === 0;
    const box = document.getElementById("table-chart");
    if (rounds().length === 0) {
      box.replaceChildren();
      return;
    }
    await showChart(box, `/api/matches/${match.id}/scores.svg`);
  }

  async function downloadScoreSheet() {
    const response = await fetch(`/api/matches/${match.id}/score-sheet.pdf`, {
      headers: { Authorization: `Bearer ${session.token}`, Accept: "application/pdf" },
    });
    if (!response.ok) {
      say(gettext("The score sheet could not be fetched."), "error");
      return;
    }
    const link = el("a", { href: URL.createObjectURL(await response.blob()),
      download: `score-sheet-${match.id}.pdf` });
    link.click();
  }

  document.getElementById("score-sheet").addEventListener("click", downloadScoreSheet);

  return {
    async render(next) {
      match = next;
      document.getElementById("table-match").hidden = false;
      document.getElementById("status").textContent = statusLine();
      renderRounds();
      renderReviews();
      renderConfirm();
      if (match.you_may_score) {
        forms ||= scoreForms({
          call: api,
          reload,
          refused: (problem) => say(problem.message, "error"),
        });
        forms.render(match);
      } else {
        document.getElementById("entry").hidden = true;
        document.getElementById("correct").hidden = true;
      }
      await renderLogAndChart();
    },
  };
}
