// The match's socket (docs/api.md, "Live"), as the web table follows it: a ticket, the socket,
// a resume from the last move seen after a drop, and word to fall back to polling when the
// socket cannot be had. Frames are read, never logged: they are redacted for this seat, and
// they stay out of the console all the same.
import { api } from "./api.js";

/** Close codes after which reconnecting cannot help (a bad request, no seat, no match): the
 * table polls at once (and shows the API's own answer). */
const HOPELESS = new Set([4400, 4403, 4404]);
const MATCH_OVER = 4000;
/** Failed attempts in a row (a socket that never said hello, or dropped soon after) before
 * the table polls instead. */
const FAILURES_BEFORE_POLLING = 3;
/** Waits before reconnecting, by failures in a row (each with a little jitter). */
const BACKOFF_MS = [500, 1000];
/** While the table polls, the socket is tried again this often. */
const RETRY_WHILE_POLLING_MS = 30_000;
/** A socket that stayed up this long counts as having worked: its drop starts a fresh count. */
const STEADY_MS = 10_000;
/** The server's heartbeat comes every 25 s: after this much silence, ping; after more, drop. */
const QUIET_PING_MS = 40_000;
const QUIET_DROP_MS = 55_000;

/**
 * Follow match ``matchId`` over its socket until ``stop()``.
 *
 * handlers.frame(frame): every frame, in order (the caller decides what to fetch again);
 * handlers.mode(mode): how updates arrive now: "connecting", "socket", "polling" (the socket
 * failed: poll until it comes back) or "over" (the server closed it: the match is over).
 */
export function follow(matchId, handlers) {
  let after = null; // the last move seq seen: a reconnect resumes after it
  let failures = 0;
  let socket = null;
  let timer = null;
  let stopped = false;

  function setMode(mode) {
    handlers.mode(mode);
  }

  function later(ms) {
    window.clearTimeout(timer);
    timer = window.setTimeout(connect, ms);
  }

  function failed() {
    failures += 1;
    if (failures >= FAILURES_BEFORE_POLLING) {
      setMode("polling");
      later(RETRY_WHILE_POLLING_MS);
    } else {
      if (failures > 1) setMode("connecting");
      const base = BACKOFF_MS[Math.min(failures, BACKOFF_MS.length) - 1];
      later(base * (0.75 + Math.random() / 2));
    }
  }

  async function ticket() {
    try {
      const answer = await api("POST", `/api/matches/${matchId}/ticket`);
      return answer.data;
    } catch {
      return null; // a refusal or no network: the same as a socket that would not open
    }
  }

  async function connect() {
    if (stopped || socket) return;
    if (typeof WebSocket === "undefined") {
      setMode("polling");
      return;
    }
    const granted = await ticket();
    if (stopped) return;
    if (!granted) {
      failed();
      return;
    }
    const url = new URL(granted.url, window.location.href);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    if (after !== null) url.searchParams.set("after", String(after));
    let opened;
    try {
      opened = new WebSocket(url);
    } catch {
      failed();
      return;
    }
    socket = opened;
    let greetedAt = null;
    let heard = Date.now();
    const watch = window.setInterval(() => {
      const quiet = Date.now() - heard;
      if (quiet > QUIET_DROP_MS) drop();
      else if (quiet > QUIET_PING_MS && opened.readyState === WebSocket.OPEN) {
        opened.send(JSON.stringify({ type: "ping" }));
      }
    }, 5_000);

    function finish(code) {
      window.clearInterval(watch);
      if (socket !== opened) return; // already dropped
      socket = null;
      if (stopped) return;
      if (code === MATCH_OVER) {
        setMode("over");
        return;
      }
      if (greetedAt !== null && Date.now() - greetedAt >= STEADY_MS) failures = 0;
      if (HOPELESS.has(code)) failures = FAILURES_BEFORE_POLLING - 1;
      failed();
    }

    function drop() {
      finish(null);
      opened.close();
    }

    opened.addEventListener("message", (event) => {
      heard = Date.now();
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch {
        return;
      }
      if (!frame || typeof frame !== "object") return;
      if (frame.type === "hello") {
        greetedAt = Date.now();
        if (after === null) after = frame.seq;
        setMode("socket");
      } else if (frame.type === "move" && typeof frame.seq === "number") {
        after = Math.max(after ?? 0, frame.seq);
      }
      handlers.frame(frame);
    });
    opened.addEventListener("close", (event) => finish(event.code));
  }

  setMode("connecting");
  connect();
  return {
    stop() {
      stopped = true;
      window.clearTimeout(timer);
      if (socket) {
        const open = socket;
        socket = null;
        open.close(1000);
      }
    },
  };
}
