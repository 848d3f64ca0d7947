// chooseTab picks the open tab from the URL's: one the caller is offered
// (an old name first becomes its new one), else the first offered; a tab
// typed into the URL opens nothing the role may not see.
export function chooseTab(offered: readonly string[], asked: string | null | undefined, renamed: Record<string, string> = {}): string {
  const want = asked ? (renamed[asked] ?? asked) : "";
  return offered.includes(want) ? want : (offered[0] ?? "");
}
