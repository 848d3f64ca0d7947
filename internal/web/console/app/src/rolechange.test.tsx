import { describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { MantineProvider } from "@mantine/core";
import { RoleSelect } from "./rolechange";

function select(role: string, onSave = vi.fn(async () => [] as string[])) {
  render(
    <MantineProvider env="test">
      <RoleSelect email="bob@acme.example" role={role} roles={["admin", "billing", "viewer", "member"]} kind="user"
        label="Role of bob@acme.example" onSave={onSave} />
    </MantineProvider>,
  );
  return screen.getByLabelText("Role of bob@acme.example") as HTMLSelectElement;
}

describe("RoleSelect", () => {
  it("saves nothing on change; Cancel puts the select back", async () => {
    const onSave = vi.fn(async () => [] as string[]);
    const sel = select("member", onSave);
    fireEvent.change(sel, { target: { value: "viewer" } });
    const dialog = await screen.findByRole("dialog");
    expect(dialog.textContent).toContain("bob@acme.example changes from member to viewer.");
    expect(onSave).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(sel.value).toBe("member");
    expect(onSave).not.toHaveBeenCalled();
  });

  it("confirms a change that raises no privilege without typing", async () => {
    const onSave = vi.fn(async () => [] as string[]);
    const sel = select("member", onSave);
    fireEvent.change(sel, { target: { value: "billing" } });
    await screen.findByRole("dialog");
    expect(screen.queryByLabelText(/to confirm/)).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Change to billing" }));
    await waitFor(() => expect(onSave).toHaveBeenCalledWith("billing"));
    expect(onSave).toHaveBeenCalledTimes(1);
  });

  it("asks for the e-mail address before raising a user to admin, and shows the refusal", async () => {
    const onSave = vi.fn(async () => ["Only a platform_admin may do this."]);
    const sel = select("member", onSave);
    fireEvent.change(sel, { target: { value: "admin" } });
    await screen.findByRole("dialog");
    const confirm = screen.getByRole("button", { name: "Change to admin" }) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    const input = screen.getByLabelText("Type the user name, bob@acme.example, to confirm");
    fireEvent.change(input, { target: { value: "bob@acme" } });
    expect(confirm.disabled).toBe(true);
    fireEvent.click(confirm);
    expect(onSave).not.toHaveBeenCalled();
    fireEvent.change(input, { target: { value: "bob@acme.example" } });
    expect(confirm.disabled).toBe(false);
    fireEvent.click(confirm);
    await waitFor(() => expect(onSave).toHaveBeenCalledWith("admin"));
    expect(await screen.findByText("Only a platform_admin may do this.")).toBeTruthy();
  });
});
