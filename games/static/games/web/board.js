// The board picture on the table's page, drawn as large as the room it has allows: the width of
// its box and the height of the window below the box's top (the whole board in view), up to
// twice its own size; a board longer than that room is drawn to its box's width (up to 1.5
// times) and scrolls with the page. Never below its own size (one unit a pixel, where the pips
// can be read): a narrower box scrolls sideways instead.
import { svgInto } from "./api.js";

const MOST = 2;
/** A board longer than the window, however drawn, scrolls with the page: it is drawn to the
 * width of its box, up to this. */
const MOST_WHEN_LONG = 1.5;
const watched = new WeakSet();

function fit(box) {
  const svg = box.querySelector("svg");
  if (!svg || !svg.viewBox.baseVal || !box.clientWidth) return;
  const { width, height } = svg.viewBox.baseVal;
  const top = box.getBoundingClientRect().top + window.scrollY;
  const below = window.innerHeight - Math.min(top, window.innerHeight / 3) - 16;
  const across = box.clientWidth / width;
  const scale = height > below ? Math.min(MOST_WHEN_LONG, Math.max(1, across))
    : Math.min(MOST, Math.max(1, Math.min(across, below / height)));
  svg.setAttribute("width", String(width * scale));
  box.dataset.scale = scale.toFixed(3);
}

/** Put the picture ``text`` (board.svg) into ``box`` and size it; it is sized again whenever
 * the box or the window changes size. */
export function showBoard(box, text) {
  svgInto(box, text, { naturalWidth: true });
  fit(box);
  if (!watched.has(box)) {
    watched.add(box);
    new ResizeObserver(() => fit(box)).observe(box);
    window.addEventListener("resize", () => fit(box));
  }
}
