// A domino as the pictures draw it (games/pictures/tiles.py: the same sizes, pips and colours),
// so that a tile in the hand looks like the same tile on the board: pips up to 9, a numeral
// above. The page's tests compare the two drawings.

const SVG_NS = "http://www.w3.org/2000/svg";
/** Half a tile's long side: a tile is 2U x U. */
const U = 22;
const INK = "#1d2330";
const FACE = "#fffdf6";
const EDGE = "#4a4f5c";
const FAMILY = "'Noto Sans', 'Noto Sans Lao', 'Noto Sans Thai', 'Noto Sans Armenian', "
  + "'Noto Sans Math', sans-serif";
/** Where the dots of 0 to 9 sit on a 3 x 3 grid (column, row). */
const DOTS = [
  [],
  [[1, 1]],
  [[0, 0], [2, 2]],
  [[0, 0], [1, 1], [2, 2]],
  [[0, 0], [2, 0], [0, 2], [2, 2]],
  [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]],
  [[0, 0], [2, 0], [0, 1], [2, 1], [0, 2], [2, 2]],
  [[0, 0], [2, 0], [0, 1], [1, 1], [2, 1], [0, 2], [2, 2]],
  [[0, 0], [1, 0], [2, 0], [0, 1], [2, 1], [0, 2], [1, 2], [2, 2]],
  [[0, 0], [1, 0], [2, 0], [0, 1], [1, 1], [2, 1], [0, 2], [1, 2], [2, 2]],
];

function shape(tag, attrs) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  return node;
}

/** The pips (or the numeral) of one half, in the U x U square whose top left is (x, 0). */
function half(value, x) {
  if (value > 9) {
    const numeral = shape("text", {
      x: x + U / 2, y: U / 2, "font-size": U * 0.55, "font-weight": "bold", fill: INK,
      "text-anchor": "middle", "dominant-baseline": "central", "font-family": FAMILY,
    });
    numeral.textContent = String(value);
    return [numeral];
  }
  const step = U / 4;
  return DOTS[value].map(([col, row]) => shape("circle", {
    cx: x + step * (col + 1), cy: step * (row + 1), r: U * 0.08, fill: INK,
  }));
}

/** The tile ``a|b`` lying along, ``a`` on the left, as an SVG element (for a button: hidden
 * from screen readers, which read the button's name). */
export function tileSvg(a, b) {
  const svg = shape("svg", {
    viewBox: `0 0 ${2 * U} ${U}`, class: "tile-face", "aria-hidden": "true", focusable: "false",
  });
  svg.append(
    shape("rect", {
      x: 0, y: 0, width: 2 * U, height: U, rx: U * 0.18, fill: FACE, stroke: EDGE,
      "stroke-width": 1.5,
    }),
    shape("path", { d: `M${U},3 L${U},${U - 3}`, stroke: EDGE, "stroke-width": 1 }),
    ...half(a, 0),
    ...half(b, U),
  );
  return svg;
}
