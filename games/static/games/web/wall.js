// The public wall (/events/{id}/): the server renders it once; this script follows the
// wall's socket (/ws/public/competitions/{id}/, no token) and redraws the standings and the
// tables from each frame, without a reload. Names are set as text, never as markup.

import { statusWord } from "./api.js";
import { formatNumber } from "./formats.js";
import { stageClock } from "./stage_clock.js";

const root = document.getElementById("wall");
const competitionId = root.dataset.competitionId;
/** Close codes after which reconnecting cannot help: not public (4404), a bad request. */
const HOPELESS = new Set([4400, 4404]);
const BACKOFF_MS = [1000, 2000, 5000, 10000];

/** The wall as the API or the socket's hello gave it, then as each frame leaves it. */
let wall = null;
const clock = stageClock(document.getElementById("wall-clock"));

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
  const rows = [];
  let division = null;
  for (const row of wall.standings) {
    if (row.division !== undefined && row.division !== division) {
      // an event with divisions: each division's rows under its own heading
      division = row.division;
      const heading = el("tr", null, "division");
      const th = el("th", fmt(gettext("Division %(division)s"), { division }));
      th.colSpan = 6 + keys.length;
      th.scope = "rowgroup";
      heading.append(th);
      rows.push(heading);
    }
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
    rows.push(tr);
  }
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
  li.append(el("strong", fmt(gettext("Table %(table)s"), { table: table.table })), " ");
  if (table.division !== undefined && table.division !== null) {
    li.dataset.division = table.division;
    li.append(el("span", fmt(gettext("Division %(division)s"), { division: table.division }), "division"), " ");
  }
  li.append(
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
    if (stage.number === wall.competition.current_stage) section.dataset.current = "";
    const heading = stage.final_table
      ? gettext("Final table")
      : fmt(gettext("Stage %(number)s"), { number: stage.number });
    const title = el("h3", `${heading} `);
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

/** The stage "Find my table" searches: the one playing, else the last one seated. */
function findStage() {
  return wall.stages.find((s) => s.number === wall.competition.current_stage)
    || wall.stages[wall.stages.length - 1] || null;
}

const FIND_LIMIT = 12;
const folded = (text) => text.normalize("NFKC").toLocaleLowerCase();

/** Each entrant of the stage whose name holds what is typed, with their table and seat (or
 * their bye): the names the wall shows already, searched here, in the page. */
function drawFind() {
  const typed = folded(document.getElementById("find-input").value.trim());
  const list = document.getElementById("find-results");
  if (!typed || !wall) {
    list.replaceChildren();
    return;
  }
  const stage = findStage();
  if (!stage) {
    list.replaceChildren(el("li", gettext("No tables yet.")));
    return;
  }
  const found = [];
  for (const table of stage.tables) {
    table.seats.forEach((name, index) => {
      if (folded(name).includes(typed)) {
        found.push([name, fmt(gettext("Table %(table)s, seat %(seat)s"),
          { table: table.table, seat: index + 1 })]);
      }
    });
  }
  for (const name of stage.byes) {
    if (folded(name).includes(typed)) found.push([name, gettext("a bye this stage")]);
  }
  if (!found.length) {
    list.replaceChildren(el("li", fmt(gettext("Nobody of that name at stage %(stage)s."),
      { stage: stage.number })));
    return;
  }
  const items = found.slice(0, FIND_LIMIT).map(([name, where]) => {
    const item = el("li");
    item.append(el("span", name, "name"), " — ", el("span", where, "where"));
    return item;
  });
  if (found.length > FIND_LIMIT) {
    items.push(el("li", fmt(gettext("and %(count)s more: type more of the name."),
      { count: found.length - FIND_LIMIT })));
  }
  list.replaceChildren(...items);
}

document.getElementById("find-input").addEventListener("input", drawFind);

/** The projector pages through a field too large for its screen: as many rows (or tables) as
 * fit, then the next ones every PAGE_MS, saying "Page 2 of 5". */
const PAGE_MS = 10000;
const projector = document.body.classList.contains("layout-projector");
const pagers = [];

function pager(box, items, label) {
  let page = 0;
  let pages = 1;
  let size = Infinity;
  function show() {
    const all = items();
    all.forEach((item, index) => {
      if (Math.floor(index / size) === page) delete item.dataset.pagedOut;
      else item.dataset.pagedOut = "";
    });
    label.hidden = pages < 2;
    label.textContent = pages < 2 ? ""
      : fmt(gettext("page %(page)s of %(pages)s"), { page: page + 1, pages });
  }
  /** Measure again: every item shown, those that end inside the box make a page. */
  function fit() {
    const all = items();
    for (const item of all) delete item.dataset.pagedOut;
    label.hidden = false;
    label.textContent = fmt(gettext("page %(page)s of %(pages)s"), { page: 1, pages: 1 });
    const bottom = box.getBoundingClientRect().bottom - 8;
    const fitting = all.filter((item) => item.getBoundingClientRect().bottom <= bottom).length;
    size = Math.max(1, fitting);
    pages = Math.max(1, Math.ceil(all.length / size));
    page = Math.min(page, pages - 1);
    show();
  }
  function next() {
    page = (page + 1) % pages;
    show();
  }
  return { fit, next };
}

function drawPages() {
  if (!projector) return;
  for (const pagerOf of pagers) pagerOf.fit();
}

if (projector) {
  pagers.push(
    pager(document.querySelector(".wall-standings"),
      () => [...document.querySelectorAll("#wall-standings tbody tr")],
      document.getElementById("standings-page")),
    pager(document.querySelector(".wall-tables"),
      () => [...document.querySelectorAll(".wall-stage[data-current] .wall-table")],
      document.getElementById("tables-page")),
  );
  window.setInterval(() => { for (const pagerOf of pagers) pagerOf.next(); }, PAGE_MS);
  window.addEventListener("resize", drawPages);
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
  drawFind();
  drawPages();
}

/** The clock of the stage playing (the competition's current stage), or null. */
function currentClock() {
  const stage = wall.stages.find((s) => s.number === wall.competition.current_stage);
  return stage ? stage.clock : null;
}

/** The wall read over HTTP as the page opens (the clock, and the names "Find my table"
 * searches), whether or not the socket can be reached; its hello may come first. */
async function load() {
  try {
    const response = await fetch(`/api/public/competitions/${competitionId}/standings`,
      { headers: { Accept: "application/json" } });
    if (!response.ok || wall) return;
    wall = await response.json();
    clock.set(currentClock(), wall.now);
    drawFind();
  } catch {
    // the socket's hello brings the wall
  }
}

function onFrame(frame) {
  if (frame.type === "hello") {
    wall = frame.wall;
    clock.set(currentClock(), wall.now);
  } else if (!wall) {
    return;
  } else if (frame.type === "standings_changed") {
    const { type: _type, ...changed } = frame;
    wall = changed;
    clock.set(currentClock(), wall.now);
  } else if (frame.type === "stage_clock") {
    const stage = wall.stages.find((s) => s.number === frame.stage);
    if (stage) stage.clock = frame.clock;
    clock.set(currentClock(), frame.now);
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

drawPages();
load();
connect(0);
