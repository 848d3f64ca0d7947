// Pieces the platform sections share: a section heading with its create
// button, and a table's Edit / Delete column for roles that may write.
import type { ReactNode } from "react";
import { Button, Group, Title } from "@mantine/core";
import type { Column } from "./table";
import i18n from "./i18n";

export function SectionHead({ title, action, first }: { title: string; action?: ReactNode; first?: boolean }) {
  return (
    <Group justify="space-between" mt={first ? undefined : "xl"} mb="xs">
      <Title order={2} size="h3">{title}</Title>
      {action}
    </Group>
  );
}

// editColumn is the Actions column: Edit and a destructive action (Delete
// unless named otherwise), each button named for its row (what(row)); none
// without write access.
export function editColumn<T>(write: boolean, what: (row: T) => string, onEdit: (row: T) => void, onRemove: (row: T) => void,
  remove = i18n.t("common.delete")): Column<T>[] {
  if (!write) return [];
  return [{
    label: i18n.t("users.actions"),
    cell: (r) => (
      <Group gap="xs" wrap="nowrap">
        <Button size="xs" variant="default" aria-label={i18n.t("common.editWhat", { what: what(r) })} onClick={() => onEdit(r)}>{i18n.t("common.edit")}</Button>
        <Button size="xs" variant="outline" color="var(--app-danger)" aria-label={`${remove} ${what(r)}`} onClick={() => onRemove(r)}>{remove}</Button>
      </Group>
    ),
  }];
}
