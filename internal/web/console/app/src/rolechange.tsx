// RoleSelect is a user's role in a table row (D-role-change-confirm):
// choosing a role saves nothing by itself but opens a confirmation naming
// the user, the present and the chosen role; a change that raises the
// user's privileges (raisesPrivilege) is confirmed by typing the user's
// e-mail address. Cancel puts the select back on the present role.
import { useState } from "react";
import { NativeSelect } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { raisesPrivilege } from "./roles";
import { ConfirmDelete } from "./ui";

export function RoleSelect({ email, role, roles, kind, label, noRole, onSave }: {
  email: string;
  // role is the saved role ("" for none)
  role: string;
  roles: readonly string[];
  // kind names the user in the dialog ("user", "internal user")
  kind: string;
  label: string;
  // noRole names the empty role, when the user may hold none
  noRole?: string;
  // onSave saves the role and answers the server's refusals
  onSave: (role: string) => Promise<string[]>;
}) {
  const { t } = useTranslation();
  const [chosen, setChosen] = useState<string | null>(null);
  const name = (r: string) => r || noRole || r;
  const data = role === "" && noRole ? [{ value: "", label: noRole }, ...roles] : [...roles];
  const typed = chosen !== null && raisesPrivilege(role, chosen);
  return (
    <>
      <NativeSelect size="xs" aria-label={label} value={chosen ?? role} data={data}
        onChange={(e) => {
          const next = e.currentTarget.value;
          setChosen(next === role ? null : next);
        }} />
      <ConfirmDelete
        opened={chosen !== null}
        onClose={() => setChosen(null)}
        kind={kind}
        name={email}
        verb={t("tables.changeRoleOf")}
        typed={typed}
        button={t("tables.changeRoleTo", { role: name(chosen ?? "") })}
        consequence={t(typed ? "tables.roleRaise" : "tables.roleChange", { email, from: name(role), to: name(chosen ?? "") })}
        onConfirm={async () => onSave(chosen ?? role)}
      />
    </>
  );
}
