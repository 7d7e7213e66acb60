// Play a whole match through a TypeScript client generated from /api/schema/:
// openapi-typescript's types and openapi-fetch, without a cast or an `any`.
//
//     node build/play.js http://127.0.0.1:8000 chickenfoot mexican_train
//
// A human (this script) against two bots: register, create, start, then poll the match with
// its ETag and, on our turn, send back the first legal move with the version it answers, until
// the match is over. `tsc --noEmit --strict` checks it against the generated types (.ci/run).

import createClient from "openapi-fetch";

import type { components, paths } from "./generated/schema.js";

type Schemas = components["schemas"];
type MatchView = Schemas["MatchView"];
type CreateBody = Schemas["MatchCreateRequest"];
type Problem = Schemas["Problem"];
type Variant = Schemas["VariantEnum"];
type Client = ReturnType<typeof createClient<paths>>;

const POLL_MS = 50;
const MOVE_LIMIT = 5000;

class Refused extends Error {}

function problemText(what: string, problem: Problem | undefined, status: number): string {
  if (problem === undefined) return `${what}: ${status} without a problem document`;
  return `${what}: ${problem.status} ${problem.code}: ${problem.detail}`;
}

function createBody(variant: Variant): CreateBody {
  const seats: Schemas["SeatSpecRequest"][] = [
    { kind: "creator" },
    { kind: "bot", level: 1 },
    { kind: "bot", level: 3 },
  ];
  if (variant === "chickenfoot") {
    return { variant: "chickenfoot", options: { rounds: 2, spinner_arms: 4 }, seats };
  }
  return { variant: "mexican_train", options: { max_pip: 9, rounds: 2 }, seats };
}

/** Whose turn it is, and something of the table only this game's state has. */
function describe(view: MatchView): { turn: number | null; table: string } {
  const state = view.state;
  if (state === null) return { turn: null, table: "not dealt" };
  if (state.variant === "chickenfoot") {
    const played = state.layout.arms.reduce((n, arm) => n + arm.tiles.length, 0);
    return { turn: state.turn, table: `${played} tiles on the arms` };
  }
  const trains = state.layout.trains.filter((train) => train.tiles.length > 0).length;
  return { turn: state.turn, table: `${trains} trains started` };
}

/** Send back the first legal move, with the version the legal moves answered. */
async function playFirstLegalMove(client: Client, matchId: number): Promise<void> {
  const path = { match_id: matchId };
  const legal = await client.GET("/api/matches/{match_id}/legal-moves", { params: { path } });
  if (legal.data === undefined) {
    throw new Refused(problemText("legal moves", legal.error, legal.response.status));
  }
  const choice = legal.data.moves[0];
  if (choice === undefined) throw new Refused("a turn, and no legal move");
  const submitted = await client.POST("/api/matches/{match_id}/moves", {
    params: { path, header: { "Idempotency-Key": crypto.randomUUID() } },
    body: { ...choice, version: legal.data.version },
  });
  if (submitted.data === undefined) {
    throw new Refused(problemText("move", submitted.error, submitted.response.status));
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function register(baseUrl: string): Promise<{ client: Client; username: string }> {
  const anonymous = createClient<paths>({ baseUrl });
  const username = `ts-${Math.random().toString(36).slice(2, 12)}`;
  const registered = await anonymous.POST("/api/players", {
    body: { username, password: "correct horse battery staple" },
  });
  if (registered.data === undefined) {
    throw new Refused(problemText("register", registered.error, registered.response.status));
  }
  const headers = { Authorization: `Bearer ${registered.data.token}` };
  return { client: createClient<paths>({ baseUrl, headers }), username };
}

async function playMatch(baseUrl: string, variant: Variant): Promise<string> {
  const { client } = await register(baseUrl);

  const created = await client.POST("/api/matches", { body: createBody(variant) });
  if (created.data === undefined) {
    throw new Refused(problemText("create", created.error, created.response.status));
  }
  const path = { match_id: created.data.id };
  const started = await client.POST("/api/matches/{match_id}/start", { params: { path } });
  if (started.data === undefined) {
    throw new Refused(problemText("start", started.error, started.response.status));
  }
  let view: MatchView = started.data;
  let etag = started.response.headers.get("ETag") ?? `"${view.version}"`;
  let moves = 0;
  while (view.status === "playing") {
    if (describe(view).turn === view.your_seat) {
      await playFirstLegalMove(client, path.match_id);
      moves += 1;
      if (moves > MOVE_LIMIT) throw new Refused(`no end in ${MOVE_LIMIT} moves`);
    }
    const polled = await client.GET("/api/matches/{match_id}", {
      params: { path, header: { "If-None-Match": etag } },
    });
    if (polled.response.status === 304) {
      await sleep(POLL_MS); // unchanged: the bots are still thinking
      continue;
    }
    if (polled.data === undefined) {
      throw new Refused(problemText("poll", polled.error, polled.response.status));
    }
    view = polled.data;
    etag = polled.response.headers.get("ETag") ?? etag;
  }
  const rounds = await client.GET("/api/matches/{match_id}/rounds", { params: { path } });
  if (rounds.data === undefined) {
    throw new Refused(problemText("rounds", rounds.error, rounds.response.status));
  }
  const places = (view.standings ?? []).map((p) => `${p.place}. ${p.name ?? "?"} (${p.total})`);
  return (
    `${variant}: match ${view.id} over after ${rounds.data.rounds.length} rounds, ` +
    `${moves} moves of ours, ${describe(view).table}; ${places.join(", ")}`
  );
}

/** Two players, each a client of their own: an invitation, accepted, and a match to the end. */
async function invitedMatch(baseUrl: string): Promise<string> {
  const host = await register(baseUrl);
  const guest = await register(baseUrl);
  const created = await host.client.POST("/api/matches", {
    body: {
      variant: "mexican_train",
      options: { max_pip: 9, rounds: 1 },
      seats: [{ kind: "creator" }, { kind: "open" }],
    },
  });
  if (created.data === undefined) {
    throw new Refused(problemText("create", created.error, created.response.status));
  }
  const path = { match_id: created.data.id };
  const invited = await host.client.POST("/api/matches/{match_id}/invitations", {
    params: { path },
    body: { seat: 1, username: guest.username, link: false },
  });
  if (invited.data === undefined) {
    throw new Refused(problemText("invite", invited.error, invited.response.status));
  }
  const received = await guest.client.GET("/api/invitations", {});
  if (received.data === undefined) {
    throw new Refused(problemText("invitations", received.error, received.response.status));
  }
  const held = received.data.results.find((i) => i.match_id === path.match_id);
  if (held === undefined || held.state !== "pending") throw new Refused("no pending invitation");
  const accepted = await guest.client.POST("/api/invitations/{invitation_id}/accept", {
    params: { path: { invitation_id: held.id } },
  });
  if (accepted.data === undefined) {
    throw new Refused(problemText("accept", accepted.error, accepted.response.status));
  }
  const started = await host.client.POST("/api/matches/{match_id}/start", { params: { path } });
  if (started.data === undefined) {
    throw new Refused(problemText("start", started.error, started.response.status));
  }
  const seats: Client[] = [host.client, guest.client];
  let view: MatchView = started.data;
  let moves = 0;
  while (view.status === "playing") {
    const turn = describe(view).turn;
    const mover = turn === null ? undefined : seats[turn];
    if (mover === undefined) throw new Refused(`a turn of seat ${turn}, which nobody here holds`);
    await playFirstLegalMove(mover, path.match_id);
    moves += 1;
    if (moves > MOVE_LIMIT) throw new Refused(`no end in ${MOVE_LIMIT} moves`);
    const polled = await host.client.GET("/api/matches/{match_id}", { params: { path } });
    if (polled.data === undefined) {
      throw new Refused(problemText("poll", polled.error, polled.response.status));
    }
    view = polled.data;
  }
  const kinds = new Set<string>();
  let cursor: string | null = null;
  for (;;) {
    const query: { cursor?: string } = cursor === null ? {} : { cursor };
    const page = await guest.client.GET("/api/notifications", { params: { query } });
    if (page.data === undefined) {
      throw new Refused(problemText("inbox", page.error, page.response.status));
    }
    for (const n of page.data.results) {
      if (n.payload.match_id === path.match_id) kinds.add(n.kind);
    }
    if (page.data.next === null) break;
    cursor = new URL(page.data.next).searchParams.get("cursor");
    if (cursor === null) throw new Refused("a next page without its cursor");
  }
  if (!kinds.has("invited") || !kinds.has("match_over")) {
    throw new Refused(`the invitee's inbox: ${[...kinds].join(", ")}`);
  }
  return (
    `invited: match ${view.id} over after ${moves} moves of two clients; ` +
    `the invitee was notified of ${[...kinds].sort().join(", ")}`
  );
}

async function main(argv: string[]): Promise<void> {
  const baseUrl = argv[2] ?? "http://127.0.0.1:8000";
  const variants: Variant[] = [];
  for (const name of argv.slice(3)) {
    if (name !== "chickenfoot" && name !== "mexican_train") throw new Refused(`no game ${name}`);
    variants.push(name);
  }
  for (const variant of variants.length > 0 ? variants : (["chickenfoot", "mexican_train"] satisfies Variant[])) {
    console.log(await playMatch(baseUrl, variant));
  }
  console.log(await invitedMatch(baseUrl));
}

main(process.argv).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
