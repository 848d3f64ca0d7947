import { Badge, Group, TextInput } from "@mantine/core";
import { useQuery } from "urql";
import { graphql } from "../gql";
import { lists } from "../cache";
import { useQueryParam, useRoute } from "../router";
import { DataTable } from "../table";
import { Empty, Loading, PageError, PageTitle, Pager, formatTime } from "../ui";
import { PAGE_SIZE } from "./customers";

const AuditQuery = graphql(`
  query AuditLog($actorId: ID, $first: Int, $after: String) {
    auditLog(actorId: $actorId, first: $first, after: $after) {
      items { id at actorId customerId action resource decision reason status requestId }
      nextCursor
    }
  }
`);

export function AuditPage() {
  const route = useRoute();
  const [actor, setActor] = useQueryParam("actor");
  const after = route.query.get("after") || null;
  const [{ data, fetching, error }] = useQuery({
    query: AuditQuery,
    context: lists("AuditEvent"),
    variables: { actorId: actor || null, first: PAGE_SIZE, after },
  });
  const items = data?.auditLog.items ?? [];
  return (
    <>
      <PageTitle>Audit log</PageTitle>
      <Group mb="md">
        <TextInput label="Actor (user id)" value={actor} onChange={(e) => setActor(e.currentTarget.value.trim(), { after: null, prev: null })} w={320} />
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
            { label: "When", cell: (a) => formatTime(a.at) },
            { label: "Actor", cell: (a) => a.actorId },
            { label: "Action", cell: (a) => a.action },
            { label: "Resource", cell: (a) => a.resource },
            { label: "Decision", cell: (a) => <Badge color={a.decision === "allowed" ? "teal.9" : "red.9"} variant="filled" autoContrast>{a.decision}</Badge> },
            { label: "Reason", cell: (a) => a.reason },
          ]}
        />
      )}
      <Pager next={data?.auditLog.nextCursor} />
    </>
  );
}
