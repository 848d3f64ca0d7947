// jsdom lacks what Mantine reads from the browser.
window.matchMedia = window.matchMedia || ((query: string) => ({
  matches: false, media: query, onchange: null,
  addListener: () => {}, removeListener: () => {}, addEventListener: () => {}, removeEventListener: () => {}, dispatchEvent: () => false,
}) as MediaQueryList);
class RO { observe() {} unobserve() {} disconnect() {} }
window.ResizeObserver = window.ResizeObserver || (RO as unknown as typeof ResizeObserver);

// Unmount after each test (vitest runs without globals, so Testing Library
// does not do it by itself): a dialog left mounted would render after the
// environment is gone.
import "./i18n";
import { afterEach } from "vitest";
import { cleanup } from "@testing-library/react";
afterEach(() => cleanup());
