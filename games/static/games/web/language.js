// The language picker every page has: choosing a language (and Change) sets the django_language cookie
// (the server answers in it from then on) and, for a player who is logged in, saves it as their
// preference through the API (PATCH /api/players/me); then the page reloads in it.

import { api, session } from "./api.js";

const COOKIE = "django_language";
const YEAR = 365 * 24 * 60 * 60;

function setCookie(code) {
  document.cookie = `${COOKIE}=${encodeURIComponent(code)}; path=/; max-age=${YEAR}; SameSite=Lax`;
}

export async function chooseLanguage(code) {
  setCookie(code);
  if (session.token) {
    try {
      await api("PATCH", "/api/players/me", { language: code });
    } catch (error) {
      // the cookie alone still changes the pages' language
    }
  }
  window.location.reload();
}

const picker = document.getElementById("language-picker");

/** Once a player has signed in on this browser: their saved language, if they chose one, becomes
 * the pages' (the cookie). True when it differs from the page's: the caller reloads. */
export async function adoptSavedLanguage() {
  try {
    const { data } = await api("GET", "/api/players/me");
    if (!data.language || (picker && data.language === picker.dataset.current)) return false;
    setCookie(data.language);
    return true;
  } catch (error) {
    return false; // the page's language stays
  }
}

// A form with a button, not a select that acts on change: moving through the languages with
// the arrow keys changes nothing until the button (or Enter) says so.
const form = document.getElementById("language-form");
if (form && picker) {
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    chooseLanguage(picker.value);
  });
}
