// RowMenu is a table row's actions in one menu button (D-row-menu): the
// button names its row ("Actions for alice@acme.example"), says it opens a
// menu (aria-haspopup) and opens from the keyboard with Enter, Space or
// ArrowDown; inside, the arrows move between the actions, Escape closes the
// menu and gives the focus back to the button. A row whose role is offered
// no action shows no button.
import { useState } from "react";
import { Button, Menu } from "@mantine/core";
import { useTranslation } from "react-i18next";

export interface RowAction {
  label: string;
  onClick: () => void;
  // danger marks a destructive action (data-danger; its confirmation
  // dialog says what it destroys)
  danger?: boolean;
  testId?: string;
}

// rowActions keeps the actions offered: a false, null or undefined entry is
// an action the caller's role (or the row's state) does not offer.
export function rowActions(list: (RowAction | false | null | undefined)[]): RowAction[] {
  return list.filter((a): a is RowAction => !!a);
}

export function RowMenu({ name, actions }: { name: string; actions: (RowAction | false | null | undefined)[] }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const items = rowActions(actions);
  if (items.length === 0) return null;
  return (
    // in place, not in a portal: the menu stays inside the page's landmarks
    <Menu opened={opened} onChange={setOpened} position="bottom-end" loop returnFocus closeOnEscape withinPortal={false}
      withInitialFocusPlaceholder={false} transitionProps={{ duration: 0 }}>
      <Menu.Target>
        <Button size="xs" variant="default" aria-label={t("tables.actionsFor", { name })} data-testid="row-menu"
          rightSection={<span aria-hidden="true">▾</span>}
          onKeyDown={(e) => {
            if (e.key === "Enter" || e.key === " " || e.key === "ArrowDown") {
              e.preventDefault();
              setOpened(true);
            }
          }}>
          {t("tables.actions")}
        </Button>
      </Menu.Target>
      <Menu.Dropdown data-testid="row-menu-items">
        {items.map((a) => (
          <Menu.Item key={a.label} onClick={a.onClick} data-testid={a.testId} data-danger={a.danger || undefined}>
            {a.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
