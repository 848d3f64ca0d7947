// Text the forms turn into API values: JSON documents (settings, a JWK
// Set) and lists typed as words (scopes, webhook events).

export type Parsed<T> = { value: T; error?: undefined } | { value?: undefined; error: string };

// parseObject reads a JSON object typed into a field; anything else (bad
// JSON, an array, a string) is a message for that field, in the words the
// server uses ("settings must be a JSON object").
export function parseObject(field: string, text: string): Parsed<Record<string, unknown>> {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    const why = e instanceof Error ? e.message.replace(/^JSON\.parse: /, "") : "";
    return { error: `${field} is not valid JSON${why ? ": " + why : ""}` };
  }
  if (v === null || typeof v !== "object" || Array.isArray(v)) return { error: `${field} must be a JSON object` };
  return { value: v as Record<string, unknown> };
}

// pretty shows a JSON value as the editor's text.
export function pretty(v: unknown): string {
  return JSON.stringify(v ?? {}, null, 2);
}

// words splits a list typed with spaces, commas or new lines; empty items
// go, the order and the first of each repeated item stay.
export function words(text: string): string[] {
  const out: string[] = [];
  for (const w of text.split(/[\s,]+/)) if (w && !out.includes(w)) out.push(w);
  return out;
}
