// timeBound turns what a person types into a time filter into the RFC 3339
// time the API takes, in UTC: a day (2026-05-01) is its first instant, or,
// as the end of a range (end), the first instant of the day after, so the
// day itself is included; a day and a time (2026-05-01T12:30 or with a
// space) is that minute. Anything else goes as it is and the server names
// the problem. Empty is no bound (null).
export function timeBound(v: string, end = false): string | null {
  const s = v.trim();
  if (s === "") return null;
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) {
    const d = new Date(s + "T00:00:00Z");
    if (isNaN(d.getTime())) return s;
    if (end) d.setUTCDate(d.getUTCDate() + 1);
    return d.toISOString();
  }
  const m = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})$/.exec(s);
  if (m) return `${m[1]}T${m[2]}:00Z`;
  return s;
}
