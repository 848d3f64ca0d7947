// The console's home (D-console-overview): how many customers, tenants and
// users the caller's scope holds, with the invitations still pending and
// the users locked out now, each linked to its list where the app has one,
// and the newest events of the audit log the role may read; a count the
// role may not read (null) is left out.
import { Paper, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { useQuery } from "urql";
import { useTranslation } from "react-i18next";
import { graphql } from "./gql";
import { lists } from "./cache";
import { useCaller, type Caller } from "./me";
import { DataTable } from "./table";
import { Link, PageError, formatTime } from "./ui";

const OverviewQuery = graphql(`
  query Overview { overview { customers tenants users pendingInvitations lockedUsers } }
`);
const RecentQuery = graphql(`
  query RecentActivity {
    auditLog(first: 5) { items { id time kind outcome action operation actor { email userId } target { type name id } } }
  }
`);

type Counts = { customers?: number | null; tenants?: number | null; users?: number | null; pendingInvitations?: number | null; lockedUsers?: number | null };

export type Tile = { key: keyof Counts; label: string; value: number; href?: string };

// tiles are the counts shown: those the role may read (not null), each
// with the list it opens when the caller is offered that list.
export function tiles(c: Counts, caller: Pick<Caller, "internal" | "can">, base: string): Tile[] {
  const users = !caller.internal && caller.can("MANAGE_CUSTOMER_USER") ? `${base}/users` : undefined;
  const all: (Tile | null)[] = [
    caller.internal && c.customers != null ? { key: "customers", label: "overview.customers", value: c.customers, href: `${base}/customers` } : null,
    c.tenants != null ? { key: "tenants", label: "overview.tenants", value: c.tenants, href: caller.can("MANAGE_TENANT") || caller.can("TRIGGER_MIGRATION") ? `${base}/tenants` : undefined } : null,
    c.users != null ? { key: "users", label: "overview.users", value: c.users, href: users } : null,
    c.pendingInvitations != null ? { key: "pendingInvitations", label: "overview.pendingInvitations", value: c.pendingInvitations, href: users } : null,
    c.lockedUsers != null ? { key: "lockedUsers", label: "overview.lockedUsers", value: c.lockedUsers, href: users } : null,
  ];
  return all.filter((t): t is Tile => t !== null);
}

// what names an audit event as the audit log does
function what(a: { kind: string; operation: string; action: string }): string {
  if (a.kind === "admin.write") return a.operation || a.action;
  if (a.kind === "access.denied") return `refused: ${a.action}`;
  return a.kind;
}

export function Overview({ base }: { base: string }) {
  const { t } = useTranslation();
  const caller = useCaller();
  const [{ data, error }] = useQuery({ query: OverviewQuery, context: lists("Customer", "Tenant", "CustomerUser") });
  const audit = caller.can("VIEW_AUDIT_LOG");
  const [{ data: recent, error: recentError }] = useQuery({ query: RecentQuery, pause: !audit, context: lists("AuditEvent") });
  const shown = data ? tiles(data.overview, caller, base) : [];
  const events = recent?.auditLog.items ?? [];
  return (
    <Stack gap="lg" mb="lg">
      <PageError error={error} what={t("overview.theOverview")} />
      {shown.length > 0 && (
        <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} data-testid="overview">
          {shown.map((tile) => (
            <Paper key={tile.key} withBorder p="md" data-testid={`count-${tile.key}`}>
              <Text size="sm" c="dimmed">{t(tile.label)}</Text>
              <Text fz={28} fw={700}>{tile.href ? <Link href={tile.href}>{tile.value.toLocaleString()}</Link> : tile.value.toLocaleString()}</Text>
            </Paper>
          ))}
        </SimpleGrid>
      )}
      {audit && (
        <div>
          <Title order={2} size="h3" mb="xs">{t("overview.recentActivity")}</Title>
          <PageError error={recentError} what={t("overview.theRecentActivity")} />
          {recent && events.length === 0 && <Text>{t("overview.noActivityYet")}</Text>}
          {events.length > 0 && (
            <DataTable label={t("overview.recentActivity")} rows={events} rowKey={(a) => a.id} columns={[
              { label: t("overview.when"), cell: (a) => formatTime(a.time) },
              { label: t("overview.what"), cell: (a) => what(a) },
              { label: t("overview.who"), cell: (a) => a.actor.email || "—" },
              { label: t("overview.outcome"), cell: (a) => a.outcome },
            ]} />
          )}
          <Text mt="xs"><Link href={`${base}/audit`}>{t("overview.theWholeAuditLog")}</Link></Text>
        </div>
      )}
    </Stack>
  );
}
