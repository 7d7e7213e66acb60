// The lobby: register or log in; create a match against bots or for others to join; join one.
import {
  api, attempt, el, fmt, joined, nameNode, renderAccount, safeNext, say, session, STATUSES,
  VARIANTS, WEB_DEVICE,
} from "./api.js";
import { adoptSavedLanguage } from "./language.js";

// The bots as the API names them (games/names.py), with how each plays (docs/api.md, "Bots").
const SEAT_CHOICES = [
  ["bot:1", gettext("Rookie bot (level 1): any legal move")],
  ["bot:2", gettext("Greedy bot (level 2): the heaviest tile")],
  ["bot:3", gettext("Shark bot (level 3): the heaviest tile, doubles first")],
  ["bot:4", gettext("Strong bot (level 4): searches ahead")],
  ["open", gettext("Open seat (another player joins)")],
];

/** Where to go once logged in: the page that sent the player here (``?next=``), if any. */
const next = safeNext(new URLSearchParams(window.location.search).get("next"));

function listOf(data) {
  return data.results || data.matches || [];
}

function seatRow(index, value) {
  const select = el("select", { name: `seat-${index}`, "aria-label": fmt(gettext("Seat %(number)s"), { number: index + 1 }) });
  for (const [choice, label] of SEAT_CHOICES) {
    select.append(el("option", { value: choice, selected: choice === value }, label));
  }
  return el("li", {}, select);
}

function renderSeats(list, count) {
  const rows = [el("li", {}, gettext("You"))];
  const kept = [...list.querySelectorAll("select")].map((s) => s.value);
  for (let i = 1; i < count; i += 1) rows.push(seatRow(i, kept[i - 1] || "bot:2"));
  list.replaceChildren(...rows);
}

function matchLine(match, actions) {
  const names = joined(match.seats.map((s) => nameNode(s.name || gettext("open"))));
  const link = el("a", { href: `/matches/${match.id}/` },
    `${VARIANTS[match.variant] || match.variant} #${match.id}`);
  let note = STATUSES[match.status] || match.status;
  if (match.your_turn) note = gettext("your turn");
  return el("li", { "data-match": match.id }, link, ` · ${note} · `, ...names, " ", ...actions);
}

async function refreshLists() {
  const open = await attempt(() => api("GET", "/api/matches/open"));
  const mine = await attempt(() => api("GET", "/api/matches/mine"));
  if (open) {
    const items = listOf(open.data).map((match) => {
      const seated = match.seats.some((s) => s.you);
      const join = el("button", {
        type: "button",
        onclick: () => attempt(async () => {
          await api("POST", `/api/matches/${match.id}/join`, {});
          window.location.assign(`/matches/${match.id}/`);
        }),
      }, gettext("Join"));
      return matchLine(match, seated ? [] : [join]);
    });
    document.getElementById("open-matches").replaceChildren(
      ...(items.length ? items : [el("li", {}, gettext("No open matches: create one."))]));
  }
  if (mine) {
    const items = listOf(mine.data).map((match) => matchLine(match, []));
    document.getElementById("my-matches").replaceChildren(
      ...(items.length ? items : [el("li", {}, gettext("None yet."))]));
  }
}

function createBody(form) {
  const data = new FormData(form);
  const options = {};
  if (data.get("rounds")) options.rounds = Number(data.get("rounds"));
  const variant = data.get("variant");
  if (variant === "chickenfoot") {
    if (data.get("must_play_drawn")) options.must_play_drawn = true;
    if (data.get("spinner_arms")) options.spinner_arms = Number(data.get("spinner_arms"));
  } else {
    if (data.get("open_hands")) options.open_hands = true;
    if (data.get("satisfy_own_double")) options.satisfy_own_double = true;
  }
  const seats = [{ kind: "creator" }];
  for (const select of form.querySelectorAll("#seat-list select")) {
    const [kind, level] = select.value.split(":");
    seats.push(kind === "bot" ? { kind, level: Number(level) } : { kind });
  }
  return { variant, options, seats };
}

async function signedIn(player, token) {
  session.save(token, player);
  const relanguaged = await adoptSavedLanguage();
  if (next) {
    window.location.assign(next);
    return;
  }
  if (relanguaged) {
    window.location.reload();
    return;
  }
  showLobby();
}

/**
 * Send ``form`` once: while its answer is awaited (a log-in under load takes seconds) its
 * button is disabled and says ``working`` beside a spinner, the form is marked busy, and a
 * second press or Enter sends nothing. ``action`` runs once per press that is let through.
 */
function sendOnce(form, working, action) {
  const button = form.querySelector("button[type=submit]");
  const idle = button.textContent;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (form.getAttribute("aria-busy") === "true") return;
    form.setAttribute("aria-busy", "true");
    button.disabled = true;
    button.replaceChildren(el("span", { class: "spinner", "aria-hidden": "true" }), working);
    try {
      await attempt(() => action(Object.fromEntries(new FormData(form))));
    } finally {
      form.removeAttribute("aria-busy");
      button.disabled = false;
      button.textContent = idle;
    }
  });
}

function bindAuth() {
  sendOnce(document.getElementById("register-form"), gettext("Registering…"), async (data) => {
    if (!data.display_name) delete data.display_name;
    const { data: answer } = await api("POST", "/api/players", { ...data, device: WEB_DEVICE });
    await signedIn(answer.player, answer.token);
    say(fmt(gettext("Welcome, %(name)s."), { name: answer.player.name }));
  });
  sendOnce(document.getElementById("login-form"), gettext("Logging in…"), async (data) => {
    const { data: answer } = await api("POST", "/api/auth/token", { ...data, device: WEB_DEVICE });
    await signedIn(answer.player, answer.token);
  });
}

/** Only the house options of the game chosen are shown (and sent). */
function showVariantOptions(form) {
  const variant = form.elements.variant.value;
  for (const box of form.querySelectorAll(".variant-options")) {
    box.hidden = box.dataset.variant !== variant;
  }
}

function bindCreate() {
  const form = document.getElementById("create-form");
  form.elements.variant.addEventListener("change", () => showVariantOptions(form));
  showVariantOptions(form);
  const list = document.getElementById("seat-list");
  let count = 4;
  renderSeats(list, count);
  document.getElementById("add-seat").addEventListener("click", () => {
    count = Math.min(count + 1, 22);
    renderSeats(list, count);
  });
  document.getElementById("remove-seat").addEventListener("click", () => {
    count = Math.max(count - 1, 2);
    renderSeats(list, count);
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const body = createBody(form);
    attempt(async () => {
      const { data: match } = await api("POST", "/api/matches", body);
      if (!body.seats.some((s) => s.kind === "open")) {
        await api("POST", `/api/matches/${match.id}/start`);
      }
      window.location.assign(`/matches/${match.id}/`);
    });
  });
}

function showLobby() {
  renderAccount();
  const known = Boolean(session.token);
  document.getElementById("auth").hidden = known;
  document.getElementById("lobby").hidden = !known;
  if (known) refreshLists();
}

bindAuth();
bindCreate();
showLobby();
