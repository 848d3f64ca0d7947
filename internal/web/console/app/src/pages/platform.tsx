// The platform's system workers and logs, and the invoices list; the other
// internal sections have their own files.
import { useState } from "react";
import { Button, Group } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import { lists } from "../cache";
import { useCaller } from "../me";
import { messages } from "../forms";
import { useQueryParam, useRoute } from "../router";
import { DataTable } from "../table";
import { Empty, FormErrors, Loading, PageError, PageTitle, Pager, formatTime } from "../ui";
import { PAGE_SIZE } from "./customers";
import { billed, REDACTED } from "./usage";
import { TextInput } from "@mantine/core";

const WorkersQuery = graphql(`
  query Workers { systemWorkers { id name description intervalSeconds paused lastRunAt lastError failures } }
`);
const RunWorker = graphql(`mutation RunWorker($id: ID!) { runSystemWorker(id: $id) { id runRequestedAt } }`);
const PauseWorker = graphql(`mutation PauseWorker($id: ID!) { pauseSystemWorker(id: $id) { id paused } }`);
const ResumeWorker = graphql(`mutation ResumeWorker($id: ID!) { resumeSystemWorker(id: $id) { id paused } }`);

export function WorkersPage() {
  const caller = useCaller();
  const write = caller.canWrite("MANAGE_SYSTEM_WORKERS");
  const [{ data, fetching, error }] = useQuery({ query: WorkersQuery, context: lists("SystemWorker") });
  const [, run] = useMutation(RunWorker);
  const [, pause] = useMutation(PauseWorker);
  const [, resume] = useMutation(ResumeWorker);
  const [errs, setErrs] = useState<string[]>([]);
  const items = data?.systemWorkers ?? [];
  return (
    <>
      <PageTitle>System workers</PageTitle>
      <PageError error={error} what="the workers" />
      <FormErrors messages={errs} />
      {fetching && !data && <Loading />}
      {data && items.length === 0 && <Empty>No workers.</Empty>}
      {items.length > 0 && (
        <DataTable label="Workers" rows={items} rowKey={(w) => w.id} columns={[
          { label: "Worker", cell: (w) => w.name },
          { label: "Every", cell: (w) => `${w.intervalSeconds} s` },
          { label: "Last run", cell: (w) => formatTime(w.lastRunAt) },
          { label: "State", cell: (w) => (w.paused ? "paused" : w.lastError ? `failing (${w.failures}): ${w.lastError}` : "running") },
          ...(write ? [{ label: "Actions", cell: (w: { id: string; name: string; paused: boolean }) => (
            <Group gap="xs" wrap="nowrap">
              <Button size="xs" variant="default" onClick={async () => setErrs(messages((await run({ id: w.id })).error))}>Run {w.name} now</Button>
              {w.paused
                ? <Button size="xs" variant="default" onClick={async () => setErrs(messages((await resume({ id: w.id })).error))}>Resume {w.name}</Button>
                : <Button size="xs" variant="default" onClick={async () => setErrs(messages((await pause({ id: w.id })).error))}>Pause {w.name}</Button>}
            </Group>
          ) }] : []),
        ]} />
      )}
    </>
  );
}

const EmailsQuery = graphql(`
  query EmailLog($actorId: ID, $first: Int, $after: String) {
    emailLog(actorId: $actorId, first: $first, after: $after) { items { id at recipient kind subject status } nextCursor }
  }
`);

export function EmailsPage() {
  const route = useRoute();
  const [actor, setActor] = useQueryParam("actor");
  const after = route.query.get("after") || null;
  const [{ data, fetching, error }] = useQuery({ query: EmailsQuery, variables: { actorId: actor || null, first: PAGE_SIZE, after }, context: lists("Email") });
  const items = data?.emailLog.items ?? [];
  return (
    <>
      <PageTitle>E-mail log</PageTitle>
      <TextInput label="User id" value={actor} onChange={(e) => setActor(e.currentTarget.value.trim(), { after: null, prev: null })} w={320} mb="md" />
      <PageError error={error} what="the e-mail log" />
      {fetching && !data && <Loading />}
      {data && items.length === 0 && <Empty>No e-mails for these filters.</Empty>}
      {items.length > 0 && (
        <DataTable label="E-mails" rows={items} rowKey={(m) => m.id} columns={[
          { label: "When", cell: (m) => formatTime(m.at) },
          { label: "To", cell: (m) => m.recipient },
          { label: "Kind", cell: (m) => m.kind },
          { label: "Subject", cell: (m) => m.subject },
          { label: "Status", cell: (m) => m.status },
        ]} />
      )}
      <Pager next={data?.emailLog.nextCursor} />
    </>
  );
}

const InvoicesQuery = graphql(`
  query Invoices($customerId: ID, $status: String, $first: Int, $after: String) {
    invoices(customerId: $customerId, status: $status, first: $first, after: $after) {
      items { id customerId number period currency total status issuedAt dueAt }
      nextCursor
    }
  }
`);

export function InvoicesPage() {
  return (
    <>
      <PageTitle>Invoices</PageTitle>
      <InvoiceList />
    </>
  );
}

export function InvoiceList({ customerId }: { customerId?: string }) {
  const caller = useCaller();
  const route = useRoute();
  const [status, setStatus] = useQueryParam("status");
  const after = route.query.get("after") || null;
  const [{ data, fetching, error }] = useQuery({
    query: InvoicesQuery,
    variables: { customerId: customerId ?? null, status: status || null, first: PAGE_SIZE, after },
    context: lists("Invoice"),
  });
  const items = data?.invoices.items ?? [];
  return (
    <>
      <TextInput label="Invoice status" placeholder="open, paid, …" value={status} onChange={(e) => setStatus(e.currentTarget.value.trim(), { after: null, prev: null })} w={200} mb="md" />
      {!caller.can("VIEW_BILLED_UNITS") && <p>Amounts are hidden: your role does not include billed amounts.</p>}
      <PageError error={error} what="the invoices" />
      {fetching && !data && <Loading />}
      {data && items.length === 0 && <Empty>No invoices for these filters.</Empty>}
      {items.length > 0 && (
        <DataTable label="Invoices" rows={items} rowKey={(i) => i.id} columns={[
          { label: "Number", cell: (i) => i.number },
          { label: "Period", cell: (i) => i.period },
          { label: "Total", numeric: true, cell: (i) => billed(i.total, i.currency) ?? REDACTED },
          { label: "Status", cell: (i) => i.status },
          { label: "Due", cell: (i) => formatTime(i.dueAt) },
        ]} />
      )}
      <Pager next={data?.invoices.nextCursor} />
    </>
  );
}
