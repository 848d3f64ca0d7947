// State lives in the URL: the route is the path under the app's base
// (/dashboard for internal users, /portal for customer users), filters and
// paging are query parameters, so a reload or a shared link keeps the page.
import { useSyncExternalStore, type MouseEvent } from "react";

const listeners = new Set<() => void>();
function notify() {
  for (const l of listeners) l();
}
window.addEventListener("popstate", notify);

function subscribe(l: () => void) {
  listeners.add(l);
  return () => listeners.delete(l);
}
const snapshot = () => window.location.pathname + window.location.search;

export function navigate(to: string, opts: { replace?: boolean } = {}): void {
  if (to === snapshot()) return;
  if (opts.replace) window.history.replaceState(null, "", to);
  else window.history.pushState(null, "", to);
  notify();
}

export interface Route {
  base: string; // "/dashboard" or "/portal"
  segments: string[]; // path segments under base
  query: URLSearchParams;
}

export function parseRoute(url: string): Route {
  const u = new URL(url, "http://x");
  const parts = u.pathname.split("/").filter(Boolean).map(decodeURIComponent);
  return { base: "/" + (parts[0] ?? "dashboard"), segments: parts.slice(1), query: u.searchParams };
}

export function useRoute(): Route {
  const s = useSyncExternalStore(subscribe, snapshot);
  return parseRoute(s);
}

// withQuery returns the current URL with the given parameters changed
// (empty values removed); changing a filter drops the paging cursor.
export function withQuery(url: string, changes: Record<string, string | null | undefined>): string {
  const u = new URL(url, "http://x");
  for (const [k, v] of Object.entries(changes)) {
    if (v == null || v === "") u.searchParams.delete(k);
    else u.searchParams.set(k, v);
  }
  const q = u.searchParams.toString();
  return u.pathname + (q ? "?" + q : "");
}

// useQueryParam reads one query parameter and sets it in the URL (replace,
// so typing in a search box does not fill the history).
export function useQueryParam(key: string): [string, (v: string, more?: Record<string, string | null>) => void] {
  const route = useRoute();
  const value = route.query.get(key) ?? "";
  const set = (v: string, more: Record<string, string | null> = {}) =>
    navigate(withQuery(snapshot(), { [key]: v, ...more }), { replace: true });
  return [value, set];
}

// linkProps makes an anchor navigate inside the app (plain clicks only).
export function linkProps(href: string) {
  return {
    href,
    onClick: (e: MouseEvent) => {
      if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      e.preventDefault();
      navigate(href);
    },
  };
}
