import { Badge, Group, NativeSelect, Stack, Text, TextInput } from "@mantine/core";
import { useQuery } from "urql";
import { graphql } from "../gql";
import { lists } from "../cache";
import { useQueryParam, useRoute } from "../router";
import { DataTable } from "../table";
import { timeBound } from "../timebound";
import { Empty, Loading, PageError, PageTitle, Pager, formatTime } from "../ui";
import { PAGE_SIZE } from "./customers";

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
  { value: "", label: "Any outcome" },
  { value: "success", label: "Success" },
  { value: "failure", label: "Failure" },
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
  const route = useRoute();
  const [actor, setActor] = useQueryParam("actor");
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
  const kinds = [{ value: "", label: "Any kind" }, ...(data?.auditKinds ?? (kind ? [kind] : [])).map((k) => ({ value: k, label: k }))];
  const reset = { after: null, prev: null };
  return (
    <>
      <PageTitle>Audit log</PageTitle>
      <Group mb="md" align="flex-end" wrap="wrap">
        <TextInput label="Actor e-mail" description="Any part of the address" value={actor}
          onChange={(e) => setActor(e.currentTarget.value, reset)} w={240} />
        <NativeSelect label="Kind" data={kinds} value={kind} onChange={(e) => setKind(e.currentTarget.value, reset)} w={220} />
        <NativeSelect label="Outcome" data={OUTCOMES} value={outcome} onChange={(e) => setOutcome(e.currentTarget.value, reset)} w={150} />
        <TextInput label="From" description="UTC, YYYY-MM-DD [HH:MM]" value={from}
          onChange={(e) => setFrom(e.currentTarget.value, reset)} w={170} />
        <TextInput label="To" description="UTC, the day included" value={to}
          onChange={(e) => setTo(e.currentTarget.value, reset)} w={170} />
      </Group>
      <PageError error={error} what="the audit log" />
      {fetching && !data && <Loading />}
      {data && items.length === 0 && <Empty>No audit events for these filters.</Empty>}
      {items.length > 0 && (
        <DataTable
          label="Audit events"
          rows={items}
          rowKey={(a) => a.id}
          columns={[
            { label: "When", cell: (a) => formatTime(a.time) },
            { label: "What", cell: (a) => what(a) },
            {
              label: "Outcome",
              cell: (a) => (
                <Badge color={a.outcome === "success" ? "teal.9" : "red.9"} variant="filled" autoContrast>{a.outcome}</Badge>
              ),
            },
            {
              label: "Actor",
              cell: (a) => (
                <Stack gap={0}>
                  <Text size="sm">{a.actor.email || a.actor.userId || "—"}</Text>
                  {a.actor.role && <Text size="xs" c="gray.7">{a.actor.role}</Text>}
                </Stack>
              ),
            },
            { label: "Target", cell: (a) => target(a) },
            {
              label: "From",
              cell: (a) => (
                <Stack gap={0}>
                  <Text size="sm">{a.sourceAddress || "—"}</Text>
                  {a.userAgent && <Text size="xs" c="gray.7" lineClamp={1} title={a.userAgent}>{a.userAgent}</Text>}
                </Stack>
              ),
            },
            { label: "Reason", cell: (a) => a.reason },
          ]}
        />
      )}
      <Pager next={data?.auditLog.nextCursor} />
    </>
  );
}
