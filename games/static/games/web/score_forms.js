// A table match's entry and correction forms (templates: games/web/_score_forms.html), for the
// scorer's page (a scorer link's code) and the match's own page (a player's token): each seat's
// points or the tiles left in its hand, who went out, a correction with its reason. Each entry
// is sent once per attempt (an Idempotency-Key); what was typed is kept across redraws.
import { el, fmt, nameNode, Problem, say } from "./api.js";

/** A fresh Idempotency-Key (crypto.getRandomValues works on plain http too). */
function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The seat a problem's errors field names (``scores.2.points`` -> the seat of entry 2). */
function seatOfField(field, body) {
  const found = /^scores\.(\d+)/.exec(field);
  if (!found) return null;
  const item = body.scores[Number(found[1])];
  return item ? item.seat : null;
}

function clearErrors(container) {
  for (const box of container.querySelectorAll(".seat")) {
    box.classList.remove("invalid");
    const line = box.querySelector(".seat-error");
    line.hidden = true;
    line.textContent = "";
  }
}

/**
 * The forms, wired once. ``call(method, path, body, opts)`` calls the API as the page does;
 * ``reload()`` fetches the match again and redraws (calling ``render``); ``refused(problem)``
 * takes a 401 or 403 (a link revoked, a right withdrawn). Returns ``render(match)``.
 */
export function scoreForms({ call, reload, refused }) {
  let match = null;
  const typed = { mode: "points", points: [], tiles: [], wentOut: null };
  const attempts = { entry: null, correct: null };

  const seats = () => match.seats;
  const seatName = (position) => seats()[position]?.name
    || fmt(gettext("Seat %(number)s"), { number: position + 1 });
  const entered = () => match.table_rounds || [];
  const nextRound = () => entered().length + 1;
  const startDouble = (number) => match.options.max_pip - (number - 1);

  function pipValue(a, b) {
    if (a === 0 && b === 0) return match.options.double_blank_points ?? 50;
    return a + b;
  }

  function tilesOf(position) {
    return [...typed.tiles[position]].map((key) => key.split("-").map(Number));
  }

  function keepTyped() {
    const n = seats().length;
    while (typed.points.length < n) typed.points.push("");
    while (typed.tiles.length < n) typed.tiles.push(new Set());
  }

  function tilePicker(position) {
    const start = startDouble(nextRound());
    const chosen = typed.tiles[position];
    const sum = el("span", { class: "sum" });
    const showSum = () => {
      const tiles = tilesOf(position);
      sum.textContent = tiles.length
        ? `${tiles.map(([a, b]) => `${a}|${b}`).join(" ")} = ${tiles.reduce((t, [a, b]) => t + pipValue(a, b), 0)}`
        : gettext("no tiles chosen (0)");
    };
    const grid = el("div", {
      class: "tiles", role: "group",
      "aria-label": fmt(gettext("Tiles left with %(name)s"), { name: seatName(position) }),
    });
    for (let a = 0; a <= match.options.max_pip; a += 1) {
      for (let b = a; b <= match.options.max_pip; b += 1) {
        const key = `${a}-${b}`;
        const isStart = a === start && b === start;
        const button = el("button", {
          type: "button", "aria-pressed": String(chosen.has(key)), disabled: isStart,
          title: isStart ? gettext("The round's start double: in no hand") : null, "data-tile": key,
        }, `${a}|${b}`);
        button.addEventListener("click", () => {
          if (chosen.has(key)) chosen.delete(key); else chosen.add(key);
          button.setAttribute("aria-pressed", String(chosen.has(key)));
          showSum();
        });
        grid.append(button);
      }
    }
    showSum();
    return el("details", { class: "picker" }, el("summary", {}, sum), grid);
  }

  function seatFieldset(seat, { points, wentOut, radioName, idPrefix, picker }) {
    const p = seat.position;
    const box = el("fieldset", { class: "seat", "data-seat": p },
      el("legend", {}, nameNode(seatName(p))));
    const row = el("div", { class: "row" });
    if (picker) row.append(picker);
    else {
      row.append(el("input", {
        type: "number", inputmode: "numeric", min: "0", step: "1", id: `${idPrefix}-points-${p}`,
        "aria-label": fmt(gettext("Points of %(name)s"), { name: seatName(p) }), value: points ?? "",
      }));
    }
    const radio = el("input", { type: "radio", name: radioName, value: String(p), id: `${idPrefix}-out-${p}` });
    radio.checked = wentOut === p;
    row.append(el("label", { class: "went-out", for: `${idPrefix}-out-${p}` }, radio, gettext("went out")));
    box.append(row, el("p", { class: "seat-error", hidden: true }));
    return box;
  }

  function renderEntry() {
    const section = document.getElementById("entry");
    section.hidden = match.status !== "playing" || nextRound() > match.options.rounds;
    if (section.hidden) return;
    document.getElementById("entry-title").textContent =
      fmt(gettext("Round %(number)s"), { number: nextRound() });
    for (const mode of ["points", "tiles"]) {
      document.getElementById(`mode-${mode}`).setAttribute("aria-pressed", String(typed.mode === mode));
    }
    const fields = document.getElementById("seat-fields");
    fields.replaceChildren(...seats().map((seat) => seatFieldset(seat, {
      points: typed.points[seat.position], wentOut: typed.wentOut, radioName: "went-out",
      idPrefix: "entry", picker: typed.mode === "tiles" ? tilePicker(seat.position) : null,
    })));
    document.getElementById("nobody-out").checked = typed.wentOut === null;
    for (const input of fields.querySelectorAll("input[type=number]")) {
      input.addEventListener("input", () => {
        typed.points[Number(input.closest(".seat").dataset.seat)] = input.value;
      });
    }
    document.getElementById("submit").textContent = attempts.entry
      ? gettext("Retry: send the same entry")
      : fmt(gettext("Enter round %(number)s"), { number: nextRound() });
  }

  /** The correction form: while it is in use (focus in it) a redraw keeps what is typed. */
  function renderCorrect() {
    const section = document.getElementById("correct");
    section.hidden = entered().length === 0;
    if (section.hidden) return;
    const select = document.getElementById("correct-round");
    const form = document.getElementById("correct-form");
    const chosen = Number(select.value) || entered().at(-1).number;
    const inUse = form.contains(document.activeElement) && select.value !== "";
    select.replaceChildren(...entered().map((entry) => {
      const option = el("option", { value: entry.number },
        fmt(gettext("Round %(number)s"), { number: entry.number }));
      option.selected = entry.number === chosen;
      return option;
    }));
    if (!inUse) fillCorrection();
  }

  function fillCorrection() {
    const number = Number(document.getElementById("correct-round").value);
    const entry = entered().find((e) => e.number === number);
    if (!entry) return;
    const out = entry.scores.find((s) => s.went_out);
    document.getElementById("correct-fields").replaceChildren(...seats().map((seat) => seatFieldset(seat, {
      points: String(entry.scores[seat.position].points), wentOut: out ? out.seat : null,
      radioName: "correct-out", idPrefix: "correct", picker: null,
    })));
  }

  function showRefusal(problem, body, container) {
    const errors = problem.body.errors || {};
    const lines = [];
    for (const [field, messages] of Object.entries(errors)) {
      const seat = seatOfField(field, body);
      const text = [].concat(messages).join(" ");
      if (seat === null) {
        lines.push(text);
        continue;
      }
      const box = container.querySelector(`.seat[data-seat="${seat}"]`);
      if (box) {
        box.classList.add("invalid");
        const line = box.querySelector(".seat-error");
        line.hidden = false;
        line.textContent = text;
      }
      lines.push([nameNode(seatName(seat)), `: ${text}`]);
    }
    const rule = problem.body.rule ? ` (${problem.body.rule})` : "";
    const parts = [`${problem.message}${rule}`];
    for (const line of lines) parts.push(el("br"), ...[].concat(line));
    say(parts, "error");
  }

  function entryBody() {
    const scores = seats().map((seat) => {
      const p = seat.position;
      const item = { seat: p, went_out: typed.wentOut === p };
      if (typed.mode === "tiles") item.tiles = tilesOf(p);
      else {
        const text = (typed.points[p] || "").trim();
        item.points = text === "" && typed.wentOut === p ? 0 : Number(text === "" ? NaN : text);
      }
      return item;
    });
    return { version: match.version, scores };
  }

  /** Send ``body`` to ``path`` once per attempt: a retry of the same attempt (the same body)
   * sends the same Idempotency-Key, so an answer lost on the way enters nothing twice. */
  async function send(method, path, body, slot, container) {
    const same = attempts[slot] && JSON.stringify(attempts[slot].body) === JSON.stringify(body);
    if (!same) attempts[slot] = { key: newKey(), body };
    clearErrors(container);
    try {
      await call(method, path, body, { idempotencyKey: attempts[slot].key });
    } catch (error) {
      if (!(error instanceof Problem)) {
        say(gettext("No answer from the server. Send again: the same entry is entered at most once."), "error");
        renderEntry();
        return false;
      }
      attempts[slot] = null;
      if (error.status === 409 && error.body.code === "stale_version") {
        await reload();
        say(gettext("The scores changed meanwhile (another phone?): check the rounds above and send again. What you typed is kept."), "error");
        return false;
      }
      if (error.status === 401 || error.status === 403) {
        refused(error);
        return false;
      }
      showRefusal(error, body, container);
      return false;
    }
    attempts[slot] = null;
    return true;
  }

  async function submitEntry(event) {
    event.preventDefault();
    const number = nextRound();
    const body = entryBody();
    if (body.scores.some((s) => s.points !== undefined && !Number.isFinite(s.points))) {
      say(gettext("Type every seat's points (0 for the seat that went out)."), "error");
      return;
    }
    const form = document.getElementById("entry-form");
    const ok = await send("POST", `/api/matches/${match.id}/rounds/${number}/scores`, body, "entry", form);
    if (!ok) return;
    typed.points = [];
    typed.tiles = [];
    typed.wentOut = null;
    say(fmt(gettext("Round %(number)s entered."), { number }));
    await reload();
  }

  async function submitCorrection(event) {
    event.preventDefault();
    const number = Number(document.getElementById("correct-round").value);
    const reason = document.getElementById("correct-reason").value.trim();
    if (!reason) {
      say(gettext("Say why the round is corrected."), "error");
      return;
    }
    const form = document.getElementById("correct-form");
    const out = form.querySelector("input[name=correct-out]:checked");
    const scores = seats().map((seat) => ({
      seat: seat.position,
      points: Number(form.querySelector(`#correct-points-${seat.position}`).value),
      went_out: out !== null && Number(out.value) === seat.position,
    }));
    const body = { version: match.version, reason, scores };
    const ok = await send("PUT", `/api/matches/${match.id}/rounds/${number}/scores`, body, "correct", form);
    if (!ok) return;
    document.getElementById("correct-reason").value = "";
    document.activeElement?.blur?.(); // the form is done with: the redraw may fill it again
    say(fmt(gettext("Round %(number)s corrected."), { number }));
    await reload();
  }

  document.getElementById("mode-points").addEventListener("click", () => { typed.mode = "points"; renderEntry(); });
  document.getElementById("mode-tiles").addEventListener("click", () => { typed.mode = "tiles"; renderEntry(); });
  document.getElementById("entry-form").addEventListener("change", (event) => {
    if (event.target.name === "went-out") typed.wentOut = event.target.value === "" ? null : Number(event.target.value);
  });
  document.getElementById("entry-form").addEventListener("submit", submitEntry);
  document.getElementById("correct-round").addEventListener("change", fillCorrection);
  document.getElementById("correct-form").addEventListener("submit", submitCorrection);

  return {
    /** Draw the forms for ``next`` (the match view); what was typed stays. */
    render(next) {
      match = next;
      keepTyped();
      renderEntry();
      renderCorrect();
    },
  };
}
