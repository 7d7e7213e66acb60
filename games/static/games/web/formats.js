// Dates and numbers as the page's language writes them (<html lang>, the language the page was
// served in), with the same CLDR patterns and names as the PDFs (locale-formats.js, from
// Babel): a browser's Intl may not know the language (Chromium's has no Lao or Armenian).
// Times are shown in the reader's own time zone.
import { LOCALES } from "./locale-formats.js";

/** The page's language: <html lang>, else English. */
export function pageLanguage() {
  return document.documentElement.lang || "en";
}

function conventions() {
  const lang = pageLanguage().toLowerCase();
  return LOCALES[lang] || LOCALES[lang.split("-")[0]] || LOCALES.en;
}

const pad = (value, width) => String(value).padStart(width, "0");

// One field of a CLDR pattern ("MMM", "d", "HH"...) for `when`.
function field(letters, when, c) {
  const n = letters.length;
  switch (letters[0]) {
    case "d": return pad(when.getDate(), n);
    case "M": case "L":
      return n >= 4 ? c.monthsWide[when.getMonth()]
        : n === 3 ? c.months[when.getMonth()] : pad(when.getMonth() + 1, n);
    case "y": return n === 2 ? pad(when.getFullYear() % 100, 2) : pad(when.getFullYear(), n);
    case "G": return c.era;
    case "H": return pad(when.getHours(), n);
    case "h": return pad(when.getHours() % 12 || 12, n);
    case "m": return pad(when.getMinutes(), n);
    case "s": return pad(when.getSeconds(), n);
    case "a": return when.getHours() < 12 ? c.am : c.pm;
    default: return letters;
  }
}

// A CLDR pattern applied: runs of ASCII letters are fields, 'quoted' text is literal ('' is a
// quote), anything else is itself.
function applied(pattern, when, c) {
  return pattern.replace(/'((?:[^']|'')*)'|([A-Za-z])\2*/g, (run, quoted) =>
    quoted !== undefined ? (quoted === "" ? "'" : quoted.replaceAll("''", "'"))
      : field(run, when, c));
}

function parsed(value) {
  return value instanceof Date ? value : new Date(value);
}

/** A date (a Date, or an ISO 8601 string as the API sends it): short, medium or long. */
export function formatDate(value, length = "medium") {
  const c = conventions();
  return applied(c.date[length] || c.date.medium, parsed(value), c);
}

/** A date and its time of day: short (hours and minutes) or medium (and seconds). */
export function formatDateTime(value, length = "short") {
  const c = conventions();
  const when = parsed(value);
  const kind = c.dateTime[length] ? length : "short";
  return c.dateTime[kind].replace("{1}", applied(c.date[kind], when, c))
    .replace("{0}", applied(c.time[kind], when, c));
}

/** A number with the language's grouping and decimal sign: `digits` after the sign if given,
 * else as many as it has, up to 3 (as the PDFs write it). */
export function formatNumber(value, digits) {
  const c = conventions();
  const size = Math.abs(value);
  const fixed = digits === undefined ? String(Math.round(size * 1000) / 1000) : size.toFixed(digits);
  const [whole, fraction] = fixed.split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, c.group);
  return (value < 0 ? c.minus : "") + grouped + (fraction ? c.decimal + fraction : "");
}
