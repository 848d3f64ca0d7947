// The app's languages (D-languages): i18next with one JSON catalog per
// language in ./locales, its keys grouped by page. The language is the one
// the user switched to in this browser, else the language saved on the
// account page (the ID token's locale claim), else the browser's
// navigator.languages, else English; <html lang> follows it.
import i18n from "i18next";
import { initReactI18next } from "react-i18next";
import en from "./locales/en.json";
import de from "./locales/de.json";
import fr from "./locales/fr.json";
import es from "./locales/es.json";
import ja from "./locales/ja.json";

export const catalogs = { en, de, fr, es, ja } as const;
export type Language = keyof typeof catalogs;
export const LANGUAGES: { code: Language; name: string }[] = [
  { code: "en", name: "English" }, { code: "de", name: "Deutsch" }, { code: "fr", name: "Français" },
  { code: "es", name: "Español" }, { code: "ja", name: "日本語" },
];

const CHOSEN = "console_language";

function supported(tag: string | null | undefined): Language | null {
  if (!tag) return null;
  const base = tag.toLowerCase().split("-")[0];
  return base in catalogs ? (base as Language) : null;
}

// savedLocale is the locale claim of the ID token the callback checked.
function savedLocale(): string | null {
  const tok = window.sessionStorage.getItem("id_token");
  if (!tok) return null;
  try {
    const part = tok.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
    const bytes = Uint8Array.from(atob(part), (c) => c.charCodeAt(0));
    const claims = JSON.parse(new TextDecoder().decode(bytes)) as { locale?: unknown };
    return typeof claims.locale === "string" ? claims.locale : null;
  } catch {
    return null;
  }
}

// chooseLanguage picks the language in the order above.
export function chooseLanguage(chosen: string | null, saved: string | null, browser: readonly string[]): Language {
  for (const c of [chosen, saved, ...browser]) {
    const l = supported(c);
    if (l) return l;
  }
  return "en";
}

function initial(): Language {
  let chosen: string | null = null;
  try {
    chosen = window.localStorage.getItem(CHOSEN);
  } catch {
    chosen = null;
  }
  return chooseLanguage(chosen, savedLocale(), navigator.languages ?? [navigator.language]);
}

// switchLanguage changes the app's language and keeps the choice in this browser.
export function switchLanguage(l: Language) {
  try {
    window.localStorage.setItem(CHOSEN, l);
  } catch {
    // private windows may refuse storage: the switch holds for this page
  }
  void i18n.changeLanguage(l);
}

void i18n.use(initReactI18next).init({
  resources: Object.fromEntries(Object.entries(catalogs).map(([k, v]) => [k, { translation: v }])),
  lng: initial(),
  fallbackLng: "en",
  interpolation: { escapeValue: false }, // React escapes
  returnNull: false,
});
document.documentElement.lang = i18n.language;
i18n.on("languageChanged", (l) => {
  document.documentElement.lang = l;
});

// tr translates where no component renders (a table's columns, a
// select's options, a module's lists): the text of the language at the
// time it is called. Components use useTranslation, which re-renders them
// when the language changes.
export function tr(key: string, opts: Record<string, string | number> = {}): string {
  return String(i18n.t(key, opts));
}

export default i18n;
