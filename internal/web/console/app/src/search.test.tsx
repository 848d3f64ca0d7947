import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, fireEvent, render, screen } from "@testing-library/react";
import { MantineProvider } from "@mantine/core";
import { SEARCH_DELAY, SearchBox } from "./search";

function box() {
  render(
    <MantineProvider>
      <SearchBox label="Search tenants" />
    </MantineProvider>,
  );
  return screen.getByLabelText("Search tenants") as HTMLInputElement;
}

describe("search box", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    window.history.replaceState(null, "", "/dashboard/tenants?after=c2&prev=_");
  });
  afterEach(() => vi.useRealTimers());

  it("puts the text into the URL once typing pauses, from the first page, without a history entry", () => {
    const input = box();
    const entries = window.history.length;
    fireEvent.change(input, { target: { value: "har" } });
    fireEvent.change(input, { target: { value: "harb" } });
    act(() => vi.advanceTimersByTime(SEARCH_DELAY - 1));
    expect(window.location.search).toBe("?after=c2&prev=_");
    act(() => vi.advanceTimersByTime(1));
    expect(window.location.search).toBe("?q=harb");
    expect(window.history.length).toBe(entries);
    fireEvent.change(input, { target: { value: "  " } });
    act(() => vi.advanceTimersByTime(SEARCH_DELAY));
    expect(window.location.search).toBe("");
  });

  it("starts from the URL's search and follows the URL when it changes elsewhere", () => {
    window.history.replaceState(null, "", "/dashboard/tenants?q=north");
    const input = box();
    expect(input.value).toBe("north");
    act(() => {
      window.history.pushState(null, "", "/dashboard/tenants?q=south");
      window.dispatchEvent(new PopStateEvent("popstate"));
    });
    expect(input.value).toBe("south");
    act(() => vi.advanceTimersByTime(SEARCH_DELAY));
    expect(window.location.search).toBe("?q=south");
  });

  it("keeps trailing spaces in the box but not in the URL", () => {
    const input = box();
    fireEvent.change(input, { target: { value: "acme " } });
    act(() => vi.advanceTimersByTime(SEARCH_DELAY));
    expect(input.value).toBe("acme ");
    expect(window.location.search).toBe("?q=acme");
  });
});
