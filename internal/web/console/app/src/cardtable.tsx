// CardTable is a list that reads at any width (D-row-menu): a table whose
// columns fit a 1280 px window without scrolling sideways (long values
// wrap, short ones such as a role or a status badge stay whole), and below
// the sm breakpoint (48em, where the sections fold behind the menu) one card per row, each value under its column's label.
// The table and the list of cards carry the same test id and label.
import { Card, Stack, Table, Text } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import type { Column } from "./table";

export interface CardColumn<T> extends Column<T> {
  // nowrap keeps the cell on one line (a role, a badge, the row menu)
  nowrap?: boolean;
  // wrap lets a long value (an e-mail address) break anywhere
  wrap?: boolean;
  // title is the card's heading at narrow widths (the first such column)
  title?: boolean;
}

export const NARROW = "(max-width: 48em)";

export function CardTable<T>({ rows, columns, label, rowKey }: {
  rows: T[];
  columns: CardColumn<T>[];
  label: string;
  rowKey: (row: T) => string;
}) {
  const narrow = useMediaQuery(NARROW);
  const testId = label.toLowerCase().replace(/\s+/g, "-") + "-table";
  if (narrow) {
    const title = columns.find((c) => c.title);
    const rest = columns.filter((c) => c !== title);
    return (
      <Stack component="ul" gap="sm" aria-label={label} data-testid={testId} p={0} m={0} style={{ listStyle: "none" }}>
        {rows.map((r) => (
          <Card component="li" key={rowKey(r)} withBorder padding="sm" data-testid="card-row" style={{ overflow: "visible" }}>
            {title && <Text fw={700} mb={4} style={{ overflowWrap: "anywhere" }}>{title.cell(r)}</Text>}
            <dl style={{ margin: 0, display: "grid", gridTemplateColumns: "max-content minmax(0, 1fr)", columnGap: "0.75rem", rowGap: "0.25rem", alignItems: "center" }}>
              {rest.map((c) => (
                <div key={c.label} style={{ display: "contents" }}>
                  <Text component="dt" size="sm" c="dimmed">{c.label}</Text>
                  <Text component="dd" size="sm" m={0} style={{ overflowWrap: "anywhere" }}>{c.cell(r)}</Text>
                </div>
              ))}
            </dl>
          </Card>
        ))}
      </Stack>
    );
  }
  return (
    <Table striped highlightOnHover aria-label={label} data-testid={testId} layout="auto">
      <Table.Thead>
        <Table.Tr>
          {columns.map((c) => (
            <Table.Th key={c.label} ta={c.numeric ? "right" : undefined} style={c.nowrap ? { whiteSpace: "nowrap" } : undefined}>
              {c.label}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((r) => (
          <Table.Tr key={rowKey(r)}>
            {columns.map((c) => (
              <Table.Td key={c.label} ta={c.numeric ? "right" : undefined}
                style={c.nowrap ? { whiteSpace: "nowrap" } : c.wrap ? { overflowWrap: "anywhere" } : undefined}>
                {c.cell(r)}
              </Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
