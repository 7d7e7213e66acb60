// Play a whole match through a TypeScript client generated from /api/schema/:
// openapi-typescript's types and openapi-fetch, without a cast or an `any`.
//
//     node build/play.js http://127.0.0.1:8000 DEVICE_FOLDER chickenfoot mexican_train
//
// A human (this script) against two bots: register, create, start, then poll the match with
// its ETag and, on our turn, send back the first legal move with the version it answers, until
// the match is over. `tsc --noEmit --strict` checks it against the generated types (.ci/run).
//
// Then two players, each a client of their own: the host finds the guest by the start of their
// name, opens their profile, uploads an avatar and asks the guest to be a friend; the guest
// accepts. The host invites the friend, whose phone (DEVICE_FOLDER, clients/check.py: its Web
// Push subscription in `subscription-ts.json`, each push it decrypted in `pushes/`) shows the
// invitation, its title and body naming the host. The guest accepts, the host says a phrase of
// the quick chat, the guest reads it, and they play the match to the end.

import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { crc32, deflateSync } from "node:zlib";

import createClient from "openapi-fetch";

import type { components, paths } from "./generated/schema.js";

type Schemas = components["schemas"];
type MatchView = Schemas["MatchView"];
type CreateBody = Schemas["MatchCreateRequest"];
type Problem = Schemas["Problem"];
type Variant = Schemas["VariantEnum"];
type Client = ReturnType<typeof createClient<paths>>;
type Person = { client: Client; username: string; id: number; name: string };

const POLL_MS = 50;
const MOVE_LIMIT = 5000;
const WAIT_MS = 30_000;

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

/** The answers that may be a 304 Not Modified (`If-None-Match` held the current ETag). */
type Polled =
  | "/api/matches/{match_id}"
  | "/api/matches/{match_id}/legal-moves"
  | "/api/matches/{match_id}/rounds";
/** A 304 as the schema declares it: the ETag still current, and an empty text. */
type NotModified = paths[Polled]["get"]["responses"][304];

/** The typed 304 of a poll, or undefined when the answer is another (openapi-fetch hands a 304
 * over as neither data nor error). */
function notModified(response: Response): NotModified | undefined {
  if (response.status !== 304) return undefined;
  const etag = response.headers.get("ETag");
  if (etag === null) throw new Refused("a 304 without the ETag it still holds");
  return { headers: { ETag: etag }, content: { "text/plain": "" } };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function register(baseUrl: string): Promise<Person> {
  const anonymous = createClient<paths>({ baseUrl });
  const username = `ts-${Math.random().toString(36).slice(2, 12)}`;
  const registered = await anonymous.POST("/api/players", {
    body: { username, password: "correct horse battery staple" },
  });
  if (registered.data === undefined) {
    throw new Refused(problemText("register", registered.error, registered.response.status));
  }
  const headers = { Authorization: `Bearer ${registered.data.token}` };
  const { id, name } = registered.data.player;
  return { client: createClient<paths>({ baseUrl, headers }), username, id, name };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/** What the phone showed: a push, decrypted, as JSON (the notification as the inbox lists it). */
type Push = { kind: string; title: string; body: string; matchId: number | null };

function readPush(raw: unknown): Push | null {
  if (!isRecord(raw) || !isRecord(raw.payload)) return null;
  const { kind, title, body } = raw;
  const matchId = raw.payload.match_id;
  if (typeof kind !== "string" || typeof title !== "string" || typeof body !== "string") {
    return null;
  }
  return { kind, title, body, matchId: typeof matchId === "number" ? matchId : null };
}

/** The phone's Web Push subscription, as `PushSubscription.toJSON()` gives it. */
function subscription(device: string): Schemas["PushDeviceRegistrationRequest"] {
  const raw: unknown = JSON.parse(readFileSync(join(device, "subscription-ts.json"), "utf8"));
  if (!isRecord(raw) || typeof raw.endpoint !== "string" || !isRecord(raw.keys)) {
    throw new Refused("the phone's subscription is not a Web Push subscription");
  }
  const { p256dh, auth } = raw.keys;
  if (typeof p256dh !== "string" || typeof auth !== "string") {
    throw new Refused("the phone's subscription lacks its keys");
  }
  return { kind: "webpush", endpoint: raw.endpoint, keys: { p256dh, auth } };
}

/** The first push of ``kind`` about ``matchId`` the phone shows, once it has come. */
async function pushed(device: string, kind: string, matchId: number): Promise<Push> {
  const folder = join(device, "pushes");
  const deadline = Date.now() + WAIT_MS;
  while (Date.now() < deadline) {
    const names = readdirSync(folder, { withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith(".json"))
      .map((entry) => entry.name)
      .sort();
    for (const name of names) {
      const push = readPush(JSON.parse(readFileSync(join(folder, name), "utf8")));
      if (push !== null && push.kind === kind && push.matchId === matchId) return push;
    }
    await sleep(POLL_MS);
  }
  throw new Refused(`no ${kind} push for match ${matchId} in ${WAIT_MS / 1000} s`);
}

/** A PNG of one colour, ``size`` pixels a side (RGB, 8 bits, one IDAT chunk). */
function png(size: number, rgb: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer): Buffer => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([head, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, truecolour, deflate, no filter, no interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array(size).fill(rgb).flat())]);
  const pixels = deflateSync(Buffer.concat(Array<Buffer>(size).fill(row)));
  const signature = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
  return Buffer.concat([
    signature,
    chunk("IHDR", header),
    chunk("IDAT", pixels),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** The host finds the guest, opens their profile, uploads an avatar and asks the guest to be
 * a friend; the guest accepts. */
async function befriend(host: Person, guest: Person): Promise<string> {
  const search = guest.username.slice(0, 8);
  const found = await host.client.GET("/api/players", { params: { query: { search } } });
  if (found.data === undefined) {
    throw new Refused(problemText("search", found.error, found.response.status));
  }
  if (!found.data.results.some((row) => row.id === guest.id)) {
    throw new Refused(`a search for ${search} does not find the guest`);
  }
  const player_id = guest.id;
  const profile = await host.client.GET("/api/players/{player_id}", {
    params: { path: { player_id } },
  });
  if (profile.data === undefined) {
    throw new Refused(problemText("profile", profile.error, profile.response.status));
  }
  if (profile.data.name !== guest.name || profile.data.friend) {
    throw new Refused(`the guest's profile: ${JSON.stringify(profile.data)}`);
  }
  // the picture is the body, as it is: its bytes, carried in the schema's binary string
  const uploaded = await host.client.PUT("/api/players/me/avatar", {
    body: png(96, [139, 31, 95]).toString("latin1"),
    bodySerializer: (bytes) => Buffer.from(bytes, "latin1"),
    headers: { "Content-Type": "image/png" },
  });
  if (uploaded.data === undefined) {
    throw new Refused(problemText("avatar", uploaded.error, uploaded.response.status));
  }
  if (!uploaded.data.uploaded) throw new Refused("the upload is not the host's avatar");
  const asked = await host.client.POST("/api/friends/requests", { body: { player_id } });
  if (asked.data === undefined) {
    throw new Refused(problemText("friend request", asked.error, asked.response.status));
  }
  const requests = await guest.client.GET("/api/friends/requests", {});
  if (requests.data === undefined) {
    throw new Refused(problemText("requests", requests.error, requests.response.status));
  }
  const held = requests.data.incoming.find((r) => r.id === asked.data.id);
  if (held === undefined || held.sender.id !== host.id) throw new Refused("no friend request");
  const accepted = await guest.client.POST("/api/friends/requests/{request_id}/accept", {
    params: { path: { request_id: held.id } },
  });
  if (accepted.data === undefined) {
    throw new Refused(problemText("befriend", accepted.error, accepted.response.status));
  }
  const seen = await guest.client.GET("/api/players/{player_id}", {
    params: { path: { player_id: host.id } },
  });
  if (seen.data === undefined) {
    throw new Refused(problemText("profile", seen.error, seen.response.status));
  }
  if (!seen.data.friend || seen.data.avatar_url !== uploaded.data.avatar_url) {
    throw new Refused(`the host's profile, seen by a friend: ${JSON.stringify(seen.data)}`);
  }
  return `friends: found by ${search}, the request ${accepted.data.state}, the avatar shown`;
}

/** The host says a phrase of the quick chat; the guest reads it from their seat. */
async function chat(host: Person, guest: Person, matchId: number): Promise<string> {
  const path = { match_id: matchId };
  const said = await host.client.POST("/api/matches/{match_id}/chat", {
    params: { path },
    body: { phrase: "good_luck" },
  });
  if (said.data === undefined) {
    throw new Refused(problemText("chat", said.error, said.response.status));
  }
  const read = await guest.client.GET("/api/matches/{match_id}/chat", { params: { path } });
  if (read.data === undefined) {
    throw new Refused(problemText("read the chat", read.error, read.response.status));
  }
  const heard = read.data.messages.find((m) => m.seq === said.data.seq);
  if (heard === undefined || heard.player_id !== host.id || heard.phrase !== "good_luck") {
    throw new Refused(`the guest's chat: ${JSON.stringify(read.data.messages)}`);
  }
  return `chat: the guest read ${heard.emoji} "${heard.text}"`;
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
    const unchanged = notModified(polled.response);
    if (unchanged !== undefined) {
      etag = unchanged.headers.ETag;
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
  const roundsTag = rounds.response.headers.get("ETag");
  if (roundsTag === null) throw new Refused("rounds without their ETag");
  const again = await client.GET("/api/matches/{match_id}/rounds", {
    params: { path, header: { "If-None-Match": roundsTag } },
  });
  if (notModified(again.response)?.headers.ETag !== roundsTag) {
    throw new Refused(`rounds again with their ETag: ${again.response.status}, not 304`);
  }
  const places = (view.standings ?? []).map((p) => `${p.place}. ${p.name ?? "?"} (${p.total})`);
  return (
    `${variant}: match ${view.id} over after ${rounds.data.rounds.length} rounds, ` +
    `${moves} moves of ours, ${describe(view).table}; ${places.join(", ")}`
  );
}

/** Two players, each a client of their own: friends, an invitation pushed to the guest's
 * phone and accepted, a phrase of the quick chat, and a match to the end. */
async function invitedMatch(baseUrl: string, device: string): Promise<string> {
  const host = await register(baseUrl);
  const guest = await register(baseUrl);
  const phone = await guest.client.POST("/api/push/devices", { body: subscription(device) });
  if (phone.data === undefined) {
    throw new Refused(problemText("phone", phone.error, phone.response.status));
  }
  console.log(await befriend(host, guest));
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
  const shown = await pushed(device, "invited", path.match_id);
  if (shown.title === "" || !shown.body.includes(host.name)) {
    throw new Refused(`the invitation's push: ${JSON.stringify(shown)}`);
  }
  console.log(`push: "${shown.title}" / "${shown.body}"`);
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
  console.log(await chat(host, guest, path.match_id));
  const seats: Client[] = [host.client, guest.client];
  let view: MatchView = started.data;
  let etag = started.response.headers.get("ETag") ?? `"${view.version}"`;
  let moves = 0;
  while (view.status === "playing") {
    const turn = describe(view).turn;
    const mover = turn === null ? undefined : seats[turn];
    if (mover === undefined) throw new Refused(`a turn of seat ${turn}, which nobody here holds`);
    await playFirstLegalMove(mover, path.match_id);
    moves += 1;
    if (moves > MOVE_LIMIT) throw new Refused(`no end in ${MOVE_LIMIT} moves`);
    const polled = await host.client.GET("/api/matches/{match_id}", {
      params: { path, header: { "If-None-Match": etag } },
    });
    if (notModified(polled.response) !== undefined) {
      throw new Refused("a move was made, yet the match is unchanged since its ETag");
    }
    if (polled.data === undefined) {
      throw new Refused(problemText("poll", polled.error, polled.response.status));
    }
    view = polled.data;
    etag = polled.response.headers.get("ETag") ?? etag;
  }
  const over = await host.client.GET("/api/matches/{match_id}", {
    params: { path, header: { "If-None-Match": etag } },
  });
  if (notModified(over.response) === undefined) {
    throw new Refused(`the match over, polled with its ETag: ${over.response.status}, not 304`);
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
  const device = argv[3];
  if (device === undefined) throw new Refused("no device folder (clients/check.py gives one)");
  const variants: Variant[] = [];
  for (const name of argv.slice(4)) {
    if (name !== "chickenfoot" && name !== "mexican_train") throw new Refused(`no game ${name}`);
    variants.push(name);
  }
  for (const variant of variants.length > 0 ? variants : (["chickenfoot", "mexican_train"] satisfies Variant[])) {
    console.log(await playMatch(baseUrl, variant));
  }
  console.log(await invitedMatch(baseUrl, device));
}

main(process.argv).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
