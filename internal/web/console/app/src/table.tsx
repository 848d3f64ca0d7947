import type { ReactNode } from "react";
import { Table } from "@mantine/core";

export interface Column<T> {
  label: string;
  cell: (row: T) => ReactNode;
  numeric?: boolean;
}

// DataTable is a plain table that scrolls sideways on narrow screens.
export function DataTable<T>({ rows, columns, label, rowKey }: {
  rows: T[];
  columns: Column<T>[];
  label: string;
  rowKey: (row: T) => string;
}) {
  return (
    <Table.ScrollContainer minWidth={480} type="native" tabIndex={0} role="region" aria-label={label}>
      <Table striped highlightOnHover aria-label={label} data-testid={label.toLowerCase().replace(/\s+/g, "-") + "-table"}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((c) => (
              <Table.Th key={c.label} ta={c.numeric ? "right" : undefined}>
                {c.label}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r) => (
            <Table.Tr key={rowKey(r)}>
              {columns.map((c) => (
                <Table.Td key={c.label} ta={c.numeric ? "right" : undefined}>
                  {c.cell(r)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
