// The language picker every page has: choosing a language sets the django_language cookie
// (the server answers in it from then on) and, for a player who is logged in, saves it as their
// preference through the API (PATCH /api/players/me); then the page reloads in it.

import { api, session } from "./api.js";

const COOKIE = "django_language";
const YEAR = 365 * 24 * 60 * 60;

export async function chooseLanguage(code) {
  document.cookie = `${COOKIE}=${encodeURIComponent(code)}; path=/; max-age=${YEAR}; SameSite=Lax`;
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
if (picker) {
  picker.addEventListener("change", () => chooseLanguage(picker.value));
}
