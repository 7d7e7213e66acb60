// A finished match's banner and final places, online or at a table: who won with how many
// points, each place with its total, and how a tie on points was broken (C-WIN).
import { el, fmt, fmtNodes, joined, nameNode } from "./api.js";

/** The rule that orders a match's players (docs/rules.md): its id is the same in every language. */
const C_WIN = "C-WIN";

/** How a place was decided, in words; null when the points alone decided it. */
export function decidedBy(row) {
  const rule = { rule: C_WIN };
  if (row.decided_by === "shared") {
    return fmt(gettext("level on every count: the place is shared (%(rule)s)"), rule);
  }
  if (row.place === 1 && row.decided_by === "zero_rounds") {
    return fmt(gettext("won on rounds at zero (%(rule)s)"), rule);
  }
  if (row.place === 1 && row.decided_by === "lowest_round") {
    return fmt(gettext("won on the lowest non-zero round (%(rule)s)"), rule);
  }
  if (row.decided_by === "zero_rounds") {
    return fmt(gettext("level on points, placed by rounds at zero (%(rule)s)"), rule);
  }
  if (row.decided_by === "lowest_round") {
    return fmt(gettext("level on points and rounds at zero, placed by the lowest non-zero round (%(rule)s)"), rule);
  }
  return null;
}

/** The banner at the top of a finished match: who won, with how many points, and how a tie on
 * points was broken. */
function renderWinner(order, nameOf) {
  const banner = document.getElementById("winner");
  const first = order.filter((row) => row.place === 1);
  banner.hidden = first.length === 0;
  if (banner.hidden) return;
  const who = el("strong", {}, ...joined(first.map((row) => nameNode(nameOf(row))), gettext(" and ")));
  const total = first[0].total;
  let line;
  if (first.length > 1) {
    line = ngettext("%(who)s share first place with %(points)s point each.",
      "%(who)s share first place with %(points)s points each.", total);
  } else if (first[0].decided_by === "zero_rounds") {
    line = ngettext("%(who)s won with %(points)s point, on rounds at zero (%(rule)s).",
      "%(who)s won with %(points)s points, on rounds at zero (%(rule)s).", total);
  } else if (first[0].decided_by === "lowest_round") {
    line = ngettext("%(who)s won with %(points)s point, on the lowest non-zero round (%(rule)s).",
      "%(who)s won with %(points)s points, on the lowest non-zero round (%(rule)s).", total);
  } else {
    line = ngettext("%(who)s won with %(points)s point.", "%(who)s won with %(points)s points.", total);
  }
  banner.dataset.decidedBy = first.length > 1 ? "shared" : first[0].decided_by;
  banner.replaceChildren(...fmtNodes(line, { who, points: total, rule: C_WIN }));
}

/**
 * The final places (``order``: rows with ``place``, ``seat``, ``total``, ``decided_by`` and,
 * from the results, ``name`` and ``player_id``) under the banner; both hidden while there are
 * none. ``nameOf(row)`` names a row's seat.
 */
export function renderEnd(order, nameOf) {
  const section = document.getElementById("standings");
  section.hidden = order.length === 0;
  renderWinner(order, nameOf);
  if (section.hidden) return;
  const items = order.map((row) => {
    const how = decidedBy(row);
    return el("li", { "data-place": row.place, "data-decided-by": row.decided_by || "total" },
      row.player_id ? el("a", { href: `/players/${row.player_id}/` }, nameNode(nameOf(row)))
        : nameNode(nameOf(row)),
      row.place === 1
        ? fmt(ngettext(": %(points)s point (winner)", ": %(points)s points (winner)", row.total),
          { points: row.total })
        : fmt(ngettext(": %(points)s point", ": %(points)s points", row.total),
          { points: row.total }),
      ...(how ? [" · ", el("span", { class: "decided" }, how)] : []));
  });
  document.getElementById("standings-list").replaceChildren(...items);
}
