import { describe, expect, it, vi } from "vitest";
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { MantineProvider } from "@mantine/core";
import { RowMenu } from "./rowmenu";

function menu(onSuspend = vi.fn(), onDelete = vi.fn()) {
  render(
    <MantineProvider env="test">
      <RowMenu name="bob@acme.example" actions={[
        { label: "Suspend", onClick: onSuspend },
        false,
        { label: "Delete", onClick: onDelete, danger: true },
      ]} />
    </MantineProvider>,
  );
  return screen.getByRole("button", { name: "Actions for bob@acme.example" });
}

describe("RowMenu", () => {
  it("is a menu button named for its row, closed at first", () => {
    const button = menu();
    expect(button.getAttribute("aria-haspopup")).toBe("menu");
    expect(button.getAttribute("aria-expanded")).toBe("false");
    expect(screen.queryByRole("menu")).toBeNull();
  });

  for (const key of ["Enter", " "]) {
    it(`opens with ${key === " " ? "Space" : key}, the arrows move between the actions, Escape closes it and returns the focus`, async () => {
      const button = menu();
      button.focus();
      fireEvent.keyDown(button, { key });
      const list = await screen.findByRole("menu");
      expect(button.getAttribute("aria-expanded")).toBe("true");
      const items = await screen.findAllByRole("menuitem");
      expect(items.map((i) => i.textContent)).toEqual(["Suspend", "Delete"]);
      fireEvent.keyDown(list, { key: "ArrowDown" });
      await waitFor(() => expect(document.activeElement).toBe(items[0]));
      fireEvent.keyDown(document.activeElement!, { key: "ArrowDown" });
      await waitFor(() => expect(document.activeElement).toBe(items[1]));
      fireEvent.keyDown(document.activeElement!, { key: "ArrowDown" }); // wraps round
      await waitFor(() => expect(document.activeElement).toBe(items[0]));
      fireEvent.keyDown(document.activeElement!, { key: "Escape" });
      await waitFor(() => expect(screen.queryByRole("menu")).toBeNull());
      await waitFor(() => expect(document.activeElement).toBe(button));
      expect(button.getAttribute("aria-expanded")).toBe("false");
    });
  }

  it("runs the chosen action once and closes", async () => {
    const onSuspend = vi.fn();
    const onDelete = vi.fn();
    const button = menu(onSuspend, onDelete);
    fireEvent.click(button);
    const del = await screen.findByRole("menuitem", { name: "Delete" });
    act(() => del.click());
    expect(onDelete).toHaveBeenCalledTimes(1);
    expect(onSuspend).not.toHaveBeenCalled();
    await waitFor(() => expect(screen.queryByRole("menu")).toBeNull());
  });

  it("shows no button when the row offers no action", () => {
    render(<MantineProvider env="test"><RowMenu name="x" actions={[false, null, undefined]} /></MantineProvider>);
    expect(screen.queryByRole("button")).toBeNull();
  });
});
