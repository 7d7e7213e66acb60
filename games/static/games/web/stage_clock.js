// A stage's clock on the wall and the scorer's page: the time left until the organiser's
// clock runs out, counted from the server's time. Every answer that carries a clock carries
// the server's `now` too: the page keeps the difference between that and its own clock, so a
// screen whose clock is wrong still shows the right time. Once the clock has run out it says
// the last round is on. It enforces nothing: the page only shows it.

const pad = (value) => String(value).padStart(2, "0");

/** "45:00", "1:05:09": the time left, rounded up to the second. */
export function timeLeft(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  return hours ? `${hours}:${pad(minutes)}:${pad(seconds)}` : `${minutes}:${pad(seconds)}`;
}

/**
 * The clock drawn into `node` (hidden while there is none): `set(clock, now)` with the
 * clock as the API gives it (`{state, minutes, started_at, ends_at}` or null) and the server's
 * `now` it came with. `node.dataset.state` says `off`, `running` or `ended`.
 */
export function stageClock(node) {
  let endsAt = null;
  let skew = 0; // the server's clock minus this page's
  let timer = null;

  function tick() {
    if (endsAt === null) {
      node.hidden = true;
      node.dataset.state = "off";
      node.textContent = "";
      return;
    }
    const left = endsAt - (Date.now() + skew);
    node.hidden = false;
    if (left <= 0) {
      node.dataset.state = "ended";
      node.textContent = gettext("Last round");
      window.clearInterval(timer);
      timer = null;
      return;
    }
    node.dataset.state = "running";
    node.textContent = interpolate(gettext("Time left: %(time)s"), { time: timeLeft(left) }, true);
  }

  return {
    set(clock, now) {
      if (now) skew = Date.parse(now) - Date.now();
      endsAt = clock ? Date.parse(clock.ends_at) : null;
      if (timer === null && endsAt !== null) timer = window.setInterval(tick, 250);
      tick();
    },
  };
}
