import { Group, TextInput, Text, Tooltip } from "@mantine/core";
import { useQuery } from "urql";
import { graphql } from "../gql";
import { lists } from "../cache";
import { useCaller } from "../me";
import { useQueryParam, useRoute } from "../router";
import { DataTable } from "../table";
import { Empty, Link, Loading, PageError, PageTitle, Pager } from "../ui";
import { PAGE_SIZE } from "./customers";
import { useTranslation } from "react-i18next";
import { tr } from "../i18n";

const UsageQuery = graphql(`
  query Usage($customerId: ID, $meter: String, $from: String, $to: String, $first: Int, $after: String) {
    usage(customerId: $customerId, meter: $meter, from: $from, to: $to, first: $first, after: $after) {
      items { id customerId meter unit period units billedAmount currency customer { id name } }
      nextCursor
    }
  }
`);

export const REDACTED = tr("usage.hiddenForYourRole");

export function billed(amount: number | null | undefined, currency: string): string | null {
  if (amount == null) return null;
  try {
    return amount.toLocaleString("en", { style: "currency", currency });
  } catch {
    return `${amount} ${currency}`;
  }
}

export function UsagePage() {
  const { t: tr } = useTranslation();
  return (
    <>
      <PageTitle>{tr("usage.usage")}</PageTitle>
      <UsageList />
    </>
  );
}

export function UsageList({ customerId }: { customerId?: string }) {
  const { t: tr } = useTranslation();
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
        <TextInput label={tr("usage.meter")} value={meter} onChange={(e) => setMeter(e.currentTarget.value, reset)} w={160} />
        <TextInput label={tr("usage.fromPeriod")} placeholder={tr("usage.yyyyMm")} value={from} onChange={(e) => setFrom(e.currentTarget.value, reset)} w={130} />
        <TextInput label={tr("usage.toPeriod")} placeholder={tr("usage.yyyyMm")} value={to} onChange={(e) => setTo(e.currentTarget.value, reset)} w={130} />
      </Group>
      {redacted && (
        <Text size="sm" c="dimmed" mb="sm" data-testid="redaction-note">
          {tr("usage.billedAmountsAreHiddenYourRole")}
        </Text>
      )}
      <PageError error={error} what={tr("usage.thisUsage")} />
      {fetching && !data && <Loading />}
      {data && items.length === 0 && <Empty>{tr("usage.noUsageRecordedForTheseFilters")}</Empty>}
      {items.length > 0 && (
        <DataTable
          label={tr("usage.usage")}
          rows={items}
          rowKey={(u) => u.id}
          columns={[
            // platform-wide usage names each row's customer
            ...(customerId || !caller.internal ? [] : [{
              label: tr("lists.customer"),
              cell: (u: (typeof items)[number]) => (u.customer ? <Link href={`${route.base}/customers/${u.customer.id}`}>{u.customer.name}</Link> : "—"),
            }]),
            { label: tr("usage.period"), cell: (u) => u.period },
            { label: tr("usage.meter"), cell: (u) => u.meter },
            { label: tr("usage.units"), numeric: true, cell: (u) => `${u.units.toLocaleString("en")} ${u.unit}` },
            {
              label: tr("usage.billed"),
              numeric: true,
              cell: (u) =>
                billed(u.billedAmount, u.currency) ?? (
                  <Tooltip label={tr("usage.yourRoleSeesUsageUnitsOnly")}>
                    <Text span c="dimmed" size="sm" tabIndex={0}>{REDACTED}</Text>
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
