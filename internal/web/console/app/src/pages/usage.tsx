import { Group, TextInput, Text, Tooltip } from "@mantine/core";
import { useQuery } from "urql";
import { graphql } from "../gql";
import { lists } from "../cache";
import { useCaller } from "../me";
import { useQueryParam, useRoute } from "../router";
import { DataTable } from "../table";
import { Empty, Loading, PageError, PageTitle, Pager } from "../ui";
import { PAGE_SIZE } from "./customers";

const UsageQuery = graphql(`
  query Usage($customerId: ID, $meter: String, $from: String, $to: String, $first: Int, $after: String) {
    usage(customerId: $customerId, meter: $meter, from: $from, to: $to, first: $first, after: $after) {
      items { id customerId meter unit period units billedAmount currency }
      nextCursor
    }
  }
`);

export const REDACTED = "Hidden for your role";

export function billed(amount: number | null | undefined, currency: string): string | null {
  if (amount == null) return null;
  try {
    return amount.toLocaleString("en", { style: "currency", currency });
  } catch {
    return `${amount} ${currency}`;
  }
}

export function UsagePage() {
  return (
    <>
      <PageTitle>Usage</PageTitle>
      <UsageList />
    </>
  );
}

export function UsageList({ customerId }: { customerId?: string }) {
  const caller = useCaller();
  const route = useRoute();
  const [meter, setMeter] = useQueryParam("meter");
  const [from, setFrom] = useQueryParam("from");
  const [to, setTo] = useQueryParam("to");
  const after = route.query.get("after") || null;
  const [{ data, fetching, error }] = useQuery({
    query: UsageQuery,
    context: lists("Usage"),
    variables: { customerId: customerId ?? null, meter: meter || null, from: from || null, to: to || null, first: PAGE_SIZE, after },
  });
  const items = data?.usage.items ?? [];
  const redacted = !caller.can("VIEW_BILLED_UNITS");
  const reset = { after: null, prev: null };
  return (
    <>
      <Group mb="md" align="flex-end" wrap="wrap">
        <TextInput label="Meter" value={meter} onChange={(e) => setMeter(e.currentTarget.value, reset)} w={160} />
        <TextInput label="From period" placeholder="YYYY-MM" value={from} onChange={(e) => setFrom(e.currentTarget.value, reset)} w={130} />
        <TextInput label="To period" placeholder="YYYY-MM" value={to} onChange={(e) => setTo(e.currentTarget.value, reset)} w={130} />
      </Group>
      {redacted && (
        <Text size="sm" c="gray.7" mb="sm" data-testid="redaction-note">
          Billed amounts are hidden: your role sees usage units only. An owner, admin or billing user of the customer can see them.
        </Text>
      )}
      <PageError error={error} what="this usage" />
      {fetching && !data && <Loading />}
      {data && items.length === 0 && <Empty>No usage recorded for these filters.</Empty>}
      {items.length > 0 && (
        <DataTable
          label="Usage"
          rows={items}
          rowKey={(u) => u.id}
          columns={[
            { label: "Period", cell: (u) => u.period },
            { label: "Meter", cell: (u) => u.meter },
            { label: "Units", numeric: true, cell: (u) => `${u.units.toLocaleString("en")} ${u.unit}` },
            {
              label: "Billed",
              numeric: true,
              cell: (u) =>
                billed(u.billedAmount, u.currency) ?? (
                  <Tooltip label="Your role sees usage units only">
                    <Text span c="gray.7" size="sm" tabIndex={0}>{REDACTED}</Text>
                  </Tooltip>
                ),
            },
          ]}
        />
      )}
      <Pager next={data?.usage.nextCursor} />
    </>
  );
}
