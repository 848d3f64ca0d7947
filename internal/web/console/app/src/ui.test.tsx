import { describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { MantineProvider } from "@mantine/core";
import { ConfirmDelete } from "./ui";

describe("ConfirmDelete", () => {
  it("deletes only after the object's name is typed, and shows the server's refusal", async () => {
    const onConfirm = vi.fn(async () => ["You do not have access to this tenant."]);
    render(
      <MantineProvider>
        <ConfirmDelete opened onClose={() => {}} kind="tenant" name="Harbor" consequence="Gone for good." onConfirm={onConfirm} />
      </MantineProvider>,
    );
    const button = await screen.findByRole("button", { name: "Delete tenant" });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    const input = screen.getByLabelText("Type the tenant name, Harbor, to confirm");
    fireEvent.change(input, { target: { value: "harbor" } });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(input, { target: { value: "Harbor" } });
    expect((button as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(button);
    await waitFor(() => expect(onConfirm).toHaveBeenCalledTimes(1));
    expect(await screen.findByText("You do not have access to this tenant.")).toBeTruthy();
  });
});
