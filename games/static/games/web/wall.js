// The public wall (/events/{id}/): the server renders it once; this script follows the
// wall's socket (/ws/public/competitions/{id}/, no token) and redraws the standings and the
// tables from each frame, without a reload. Names are set as text, never as markup.

import { statusWord } from "./api.js";
import { formatNumber } from "./formats.js";

const root = document.getElementById("wall");
const competitionId = root.dataset.competitionId;
/** Close codes after which reconnecting cannot help: not public (4404), a bad request. */
const HOPELESS = new Set([4400, 4404]);
const BACKOFF_MS = [1000, 2000, 5000, 10000];

let wall = null;

/** A message of the page's language (/jsi18n/) with its named placeholders filled in. */
const fmt = (text, values) => interpolate(text, values, true);

function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (className) node.className = className;
  return node;
}

function points(value) {
  return formatNumber(value, 1);
}

/** The tie-breaks shown in columns of their own (placement points and total pips have theirs). */
const TIE_BREAKS = {
  wins: gettext("Wins"),
  buchholz: gettext("Buchholz"),
  median_buchholz: gettext("Median Buchholz"),
  rounds_at_zero: gettext("Rounds at zero"),
  best_round: gettext("Lowest round"),
  head_to_head: gettext("Head-to-head"),
  mean_points_per_round: gettext("Pips a round"),
};

function tieBreakKeys() {
  return wall.competition.tie_breaks.filter((key) => key in TIE_BREAKS);
}

function drawHead(keys) {
  const row = document.querySelector("#wall-standings thead tr");
  const cells = [...row.children].filter((th) => !th.classList.contains("tie-break"));
  const added = keys.map((key) => {
    const th = el("th", TIE_BREAKS[key], "tie-break");
    th.scope = "col";
    th.dataset.key = key;
    return th;
  });
  row.replaceChildren(...cells.slice(0, 3), ...added, ...cells.slice(3));
}

function drawStandings() {
  const body = document.querySelector("#wall-standings tbody");
  const keys = tieBreakKeys();
  drawHead(keys);
  const rows = wall.standings.map((row) => {
    const tr = el("tr");
    tr.append(
      el("td", row.rank === null ? "–" : `${row.rank}${row.shared ? "=" : ""}`),
      el("td", row.name, "name"),
      el("td", points(row.placement_points)),
      ...keys.map((key) => el("td", row[key] === null ? "–" : formatNumber(row[key]), "tie-break")),
      el("td", row.total_points),
      el("td", row.matches),
    );
    const stages = el("td", null, "by-stage");
    for (const stage of row.by_stage) {
      stages.append(
        el("span", fmt(stage.bye ? gettext("S%(stage)s: bye %(points)s") : gettext("S%(stage)s: %(points)s"),
          { stage: stage.stage, points: points(stage.placement_points) })),
        " ",
      );
    }
    tr.append(stages);
    return tr;
  });
  if (!rows.length) {
    const tr = el("tr");
    const td = el("td", gettext("No standings yet."));
    td.colSpan = 6 + keys.length;
    tr.append(td);
    rows.push(tr);
  }
  body.replaceChildren(...rows);
}

function tableItem(table) {
  const li = el("li", null, "wall-table");
  li.dataset.table = table.table;
  li.dataset.status = table.status;
  let progress = statusWord(table.status);
  if (table.rounds) {
    progress += fmt(gettext(": round %(entered)s of %(total)s entered"),
      { entered: table.rounds.entered, total: table.rounds.total });
  }
  li.append(
    el("strong", fmt(gettext("Table %(table)s"), { table: table.table })),
    " ",
    el("span", table.seats.join(", "), "seats"),
    " ",
    el("span", progress, "progress"),
  );
  return li;
}

function drawStages() {
  const stages = wall.stages.map((stage) => {
    const section = el("section", null, "wall-stage");
    section.dataset.stage = stage.number;
    const title = el("h3", `${fmt(gettext("Stage %(number)s"), { number: stage.number })} `);
    title.append(el("span", `(${statusWord(stage.status)})`, "status"));
    const list = el("ol", null, "wall-table-list");
    list.append(...stage.tables.map(tableItem));
    section.append(title, list);
    if (stage.byes.length) section.append(el("p", fmt(gettext("Byes: %(byes)s"), { byes: stage.byes.join(", ") }), "byes"));
    return section;
  });
  if (!stages.length) stages.push(el("p", gettext("No tables yet.")));
  document.getElementById("wall-stages").replaceChildren(...stages);
}

function draw() {
  document.getElementById("wall-name").textContent = wall.competition.name;
  document.title = fmt(gettext("%(name)s: standings"), { name: wall.competition.name });
  const { current_stage: stage, stage_count: count } = wall.competition;
  document.getElementById("wall-stage").textContent = stage
    ? fmt(count ? gettext("Stage %(stage)s of %(total)s") : gettext("Stage %(stage)s"),
      { stage, total: count })
    : "";
  drawStandings();
  drawStages();
}

function onFrame(frame) {
  if (frame.type === "hello") {
    wall = frame.wall;
  } else if (!wall) {
    return;
  } else if (frame.type === "standings_changed") {
    const { type: _type, ...changed } = frame;
    wall = changed;
  } else if (frame.type === "table_updated") {
    const { stage: number, ...table } = frame.table;
    const stage = wall.stages.find((s) => s.number === number);
    if (!stage) return;
    const at = stage.tables.findIndex((t) => t.table === table.table);
    if (at >= 0) stage.tables[at] = table;
    else stage.tables.push(table);
  } else {
    return;
  }
  draw();
  root.dataset.updates = String(Number(root.dataset.updates || 0) + 1);
}

function setLive(state, text) {
  const live = document.getElementById("wall-live");
  live.dataset.state = state;
  live.textContent = text;
}

function connect(failures) {
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(
    `${scheme}://${window.location.host}/ws/public/competitions/${competitionId}/`,
  );
  socket.addEventListener("open", () => {
    failures = 0;
    setLive("live", gettext("live"));
  });
  socket.addEventListener("message", (event) => onFrame(JSON.parse(event.data)));
  socket.addEventListener("close", (event) => {
    if (HOPELESS.has(event.code)) {
      setLive("off", gettext("not live"));
      return;
    }
    setLive("connecting", gettext("reconnecting…"));
    const wait = BACKOFF_MS[Math.min(failures, BACKOFF_MS.length - 1)];
    window.setTimeout(() => connect(failures + 1), wait);
  });
}

connect(0);
