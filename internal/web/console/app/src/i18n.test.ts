import { describe, expect, it } from "vitest";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { catalogs, chooseLanguage } from "./i18n";

type Tree = { [k: string]: string | Tree };

function flatten(t: Tree, prefix = ""): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(t)) {
    if (typeof v === "string") out[prefix + k] = v;
    else Object.assign(out, flatten(v, prefix + k + "."));
  }
  return out;
}

const vars = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort().join(",");

// texts of several words a language may write as English does
const sameInTranslation = new Set<string>(["webhooks.http", "platform.openPaid", "catalog.plan2"]);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return f === "locales" || f === "gql" ? [] : sources(p);
    return /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f) ? [p] : [];
  });
}

describe("the app's catalogs", () => {
  const en = flatten(catalogs.en as Tree);
  it("has every key in every language, translated, with the same placeholders", () => {
    expect(Object.keys(en).length).toBeGreaterThan(50);
    for (const [code, cat] of Object.entries(catalogs)) {
      const flat = flatten(cat as Tree);
      expect(Object.keys(flat).sort(), code).toEqual(Object.keys(en).sort());
      for (const [k, v] of Object.entries(flat)) {
        expect(v.trim(), `${code} ${k}`).not.toBe("");
        expect(vars(v), `${code} ${k}`).toBe(vars(en[k]));
        if (code !== "en" && v === en[k] && v.split(" ").length > 1 && !sameInTranslation.has(k)) {
          throw new Error(`${code}: ${k} is not translated`);
        }
      }
    }
  });
  it("uses every key, and every key it uses exists", () => {
    const code = sources("src").map((f) => readFileSync(f, "utf8")).join("\n");
    const unused = Object.keys(en).filter((k) => !code.includes(`"${k}"`));
    expect(unused).toEqual([]);
    const used = [...code.matchAll(/\b(?:t|tr)\("([\w.]+)"/g)].map((m) => m[1]);
    expect(used.filter((k) => !(k in en))).toEqual([]);
  });
});

describe("chooseLanguage", () => {
  it("takes the choice in this browser, then the saved language, then the browser's, then English", () => {
    expect(chooseLanguage("de", "fr", ["es"])).toBe("de");
    expect(chooseLanguage(null, "fr", ["es"])).toBe("fr");
    expect(chooseLanguage(null, null, ["zh-TW", "es-MX"])).toBe("es");
    expect(chooseLanguage("xx", "pt", ["zh"])).toBe("en");
    expect(chooseLanguage(null, "ja-JP", [])).toBe("ja");
  });
});

describe("switchLanguage", () => {
  it("changes the texts and <html lang>, and keeps the choice in this browser", async () => {
    const { default: i18n, switchLanguage } = await import("./i18n");
    switchLanguage("de");
    expect(document.documentElement.lang).toBe("de");
    expect(i18n.t("shell.signOut")).toBe("Abmelden");
    expect(window.localStorage.getItem("console_language")).toBe("de");
    switchLanguage("en");
    expect(document.documentElement.lang).toBe("en");
    window.localStorage.removeItem("console_language");
  });
});
