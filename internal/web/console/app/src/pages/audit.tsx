import { Badge, Group, NativeSelect, Stack, Text, TextInput } from "@mantine/core";
import { useQuery } from "urql";
import { graphql } from "../gql";
import { lists } from "../cache";
import { useQueryParam, useRoute } from "../router";
import { useSearchParam } from "../search";
import { DataTable } from "../table";
import { timeBound } from "../timebound";
import { Empty, Loading, PageError, PageTitle, Pager, formatTime } from "../ui";
import { PAGE_SIZE } from "./customers";
import { useTranslation } from "react-i18next";
import { tr } from "../i18n";

// The audit log (D-audit-trail): security events, administration writes
// and refusals in one schema, filtered by the actor's address, kind,
// outcome and time, every filter in the URL.
const AuditQuery = graphql(`
  query AuditLog($actor: String, $actorId: ID, $kind: String, $outcome: String, $from: Time, $to: Time, $first: Int, $after: String) {
    auditLog(actor: $actor, actorId: $actorId, kind: $kind, outcome: $outcome, from: $from, to: $to, first: $first, after: $after) {
      items {
        id time kind outcome reason sourceAddress userAgent action operation
        actor { userId email role }
        target { type id name }
        details { method }
      }
      nextCursor
    }
    auditKinds
  }
`);

const OUTCOMES = [
  { value: "", label: tr("audit.anyOutcome") },
  { value: "success", label: tr("audit.success") },
  { value: "failure", label: tr("audit.failure") },
];

type AuditItem = {
  kind: string;
  operation: string;
  action: string;
  target: { type: string; id: string; name: string };
  details: { method: string };
};

// what names what happened: a security event's kind (with the method), an
// administration write's operation, a refusal's action
function what(a: AuditItem): string {
  if (a.kind === "admin.write") return a.operation || a.action;
  if (a.kind === "access.denied") return `refused: ${a.action}`;
  return a.details.method ? `${a.kind} (${a.details.method})` : a.kind;
}

function target(a: AuditItem): string {
  const t = a.target;
  if (!t.type) return "—";
  return `${t.type} ${t.name || t.id}`;
}

export function AuditPage() {
  const { t: tr } = useTranslation();
  const route = useRoute();
  // the actor's address is typed: the URL (and the query) follow once typing pauses
  const [actorText, setActorText, actor] = useSearchParam("actor");
  const [kind, setKind] = useQueryParam("kind");
  const [outcome, setOutcome] = useQueryParam("outcome");
  const [from, setFrom] = useQueryParam("from");
  const [to, setTo] = useQueryParam("to");
  const actorId = route.query.get("actorId") || null;
  const after = route.query.get("after") || null;
  const [{ data, fetching, error }] = useQuery({
    query: AuditQuery,
    context: lists("AuditEvent"),
    variables: {
      actor: actor.trim() || null, actorId, kind: kind || null, outcome: outcome || null,
      from: timeBound(from), to: timeBound(to, true), first: PAGE_SIZE, after,
    },
  });
  const items = data?.auditLog.items ?? [];
  const kinds = [{ value: "", label: tr("audit.anyKind") }, ...(data?.auditKinds ?? (kind ? [kind] : [])).map((k) => ({ value: k, label: k }))];
  const reset = { after: null, prev: null };
  return (
    <>
      <PageTitle>{tr("audit.auditLog")}</PageTitle>
      <Group mb="md" align="flex-end" wrap="wrap">
        <TextInput label={tr("audit.actorEMail")} description={tr("audit.anyPartOfTheAddress")} value={actorText} type="search"
          onChange={(e) => setActorText(e.currentTarget.value)} w={240} />
        <NativeSelect label={tr("audit.kind")} data={kinds} value={kind} onChange={(e) => setKind(e.currentTarget.value, reset)} w={220} />
        <NativeSelect label={tr("audit.outcome")} data={OUTCOMES} value={outcome} onChange={(e) => setOutcome(e.currentTarget.value, reset)} w={150} />
        <TextInput label={tr("audit.from")} description={tr("audit.utcYyyyMmDdHhMm")} value={from}
          onChange={(e) => setFrom(e.currentTarget.value, reset)} w={170} />
        <TextInput label={tr("audit.to")} description={tr("audit.utcTheDayIncluded")} value={to}
          onChange={(e) => setTo(e.currentTarget.value, reset)} w={170} />
      </Group>
      <PageError error={error} what={tr("audit.theAuditLog")} />
      {fetching && !data && <Loading />}
      {data && items.length === 0 && <Empty>{tr("audit.noAuditEventsForTheseFilters")}</Empty>}
      {items.length > 0 && (
        <DataTable
          label={tr("audit.auditEvents")}
          rows={items}
          rowKey={(a) => a.id}
          columns={[
            { label: tr("audit.when"), cell: (a) => formatTime(a.time) },
            { label: tr("audit.what"), cell: (a) => what(a) },
            {
              label: tr("audit.outcome"),
              cell: (a) => (
                <Badge color={a.outcome === "success" ? "teal.9" : "red.9"} variant="filled" autoContrast>{a.outcome}</Badge>
              ),
            },
            {
              label: tr("audit.actor"),
              cell: (a) => (
                <Stack gap={0}>
                  <Text size="sm">{a.actor.email || a.actor.userId || "—"}</Text>
                  {a.actor.role && <Text size="xs" c="dimmed">{a.actor.role}</Text>}
                </Stack>
              ),
            },
            { label: tr("audit.target"), cell: (a) => target(a) },
            {
              label: tr("audit.from"),
              cell: (a) => (
                <Stack gap={0}>
                  <Text size="sm">{a.sourceAddress || "—"}</Text>
                  {a.userAgent && <Text size="xs" c="dimmed" lineClamp={1} title={a.userAgent}>{a.userAgent}</Text>}
                </Stack>
              ),
            },
            { label: tr("audit.reason"), cell: (a) => a.reason },
          ]}
        />
      )}
      <Pager next={data?.auditLog.nextCursor} />
    </>
  );
}
