// The platform's internal sections: lists over the GraphQL API, with the
// worker controls; each is offered when the role holds its action.
import { useState } from "react";
import { Badge, Button, Group, Title } from "@mantine/core";
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

const InternalUsersQuery = graphql(`
  query InternalUsers($first: Int, $after: String) {
    internalUsers(first: $first, after: $after) { items { id email name role suspendedAt createdAt } nextCursor }
  }
`);

export function InternalUsersPage() {
  const after = useRoute().query.get("after") || null;
  const [{ data, fetching, error }] = useQuery({ query: InternalUsersQuery, variables: { first: PAGE_SIZE, after }, context: lists("InternalUser") });
  const items = data?.internalUsers.items ?? [];
  return (
    <>
      <PageTitle>Internal users</PageTitle>
      <PageError error={error} what="the internal users" />
      {fetching && !data && <Loading />}
      {data && items.length === 0 && <Empty>No internal users.</Empty>}
      {items.length > 0 && (
        <DataTable label="Internal users" rows={items} rowKey={(u) => u.id} columns={[
          { label: "Name", cell: (u) => u.name },
          { label: "E-mail", cell: (u) => u.email },
          { label: "Role", cell: (u) => u.role },
          { label: "User id", cell: (u) => u.id },
          { label: "Status", cell: (u) => (u.suspendedAt ? "suspended" : "active") },
        ]} />
      )}
      <Pager next={data?.internalUsers.nextCursor} />
    </>
  );
}

const CatalogQuery = graphql(`
  query Catalog {
    plans { id code name currency monthlyFee active }
    meters { id key name unit aggregation }
  }
`);

export function CatalogPage() {
  const [{ data, fetching, error }] = useQuery({ query: CatalogQuery, context: lists("Plan", "Meter") });
  return (
    <>
      <PageTitle>Plans and meters</PageTitle>
      <PageError error={error} what="the catalog" />
      {fetching && !data && <Loading />}
      <Title order={2} size="h3" mb="xs">Plans</Title>
      {data && data.plans.length === 0 && <Empty>No plans.</Empty>}
      {data && data.plans.length > 0 && (
        <DataTable label="Plans" rows={data.plans} rowKey={(p) => p.id} columns={[
          { label: "Code", cell: (p) => p.code },
          { label: "Name", cell: (p) => p.name },
          { label: "Monthly fee", numeric: true, cell: (p) => billed(p.monthlyFee, p.currency) },
          { label: "Active", cell: (p) => (p.active ? "yes" : "no") },
        ]} />
      )}
      <Title order={2} size="h3" mt="xl" mb="xs">Meters</Title>
      {data && data.meters.length === 0 && <Empty>No meters.</Empty>}
      {data && data.meters.length > 0 && (
        <DataTable label="Meters" rows={data.meters} rowKey={(m) => m.id} columns={[
          { label: "Key", cell: (m) => m.key },
          { label: "Name", cell: (m) => m.name },
          { label: "Unit", cell: (m) => m.unit },
          { label: "Aggregation", cell: (m) => m.aggregation },
        ]} />
      )}
    </>
  );
}

const ReleasesQuery = graphql(`
  query Releases {
    releases(first: 100) { id version channel status createdAt publishedAt }
    environment { id name secret value description updatedAt }
  }
`);

export function ReleasesPage() {
  const [{ data, fetching, error }] = useQuery({ query: ReleasesQuery, context: lists("Release", "EnvVar") });
  return (
    <>
      <PageTitle>Releases and environment</PageTitle>
      <PageError error={error} what="the releases" />
      {fetching && !data && <Loading />}
      <Title order={2} size="h3" mb="xs">Releases</Title>
      {data && data.releases.length === 0 && <Empty>No releases.</Empty>}
      {data && data.releases.length > 0 && (
        <DataTable label="Releases" rows={data.releases} rowKey={(r) => r.id} columns={[
          { label: "Version", cell: (r) => r.version },
          { label: "Channel", cell: (r) => r.channel },
          { label: "Status", cell: (r) => r.status },
          { label: "Published", cell: (r) => formatTime(r.publishedAt) },
        ]} />
      )}
      <Title order={2} size="h3" mt="xl" mb="xs">Environment variables</Title>
      {data && data.environment.length === 0 && <Empty>No variables.</Empty>}
      {data && data.environment.length > 0 && (
        <DataTable label="Environment variables" rows={data.environment} rowKey={(v) => v.id} columns={[
          { label: "Name", cell: (v) => v.name },
          { label: "Value", cell: (v) => (v.secret ? "(secret)" : v.value) },
          { label: "Description", cell: (v) => v.description },
          { label: "Updated", cell: (v) => formatTime(v.updatedAt) },
        ]} />
      )}
    </>
  );
}

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

const AttributesQuery = graphql(`
  query UserAttributes { userAttributes { id key label type options required } }
`);

export function AttributesPage() {
  const [{ data, fetching, error }] = useQuery({ query: AttributesQuery, context: lists("UserAttribute") });
  const items = data?.userAttributes ?? [];
  return (
    <>
      <PageTitle>User attributes</PageTitle>
      <PageError error={error} what="the user attributes" />
      {fetching && !data && <Loading />}
      {data && items.length === 0 && <Empty>No user attributes are defined.</Empty>}
      {items.length > 0 && (
        <DataTable label="User attributes" rows={items} rowKey={(a) => a.id} columns={[
          { label: "Key", cell: (a) => a.key },
          { label: "Label", cell: (a) => a.label },
          { label: "Type", cell: (a) => a.type + (a.options.length ? ` (${a.options.join(", ")})` : "") },
          { label: "Required", cell: (a) => (a.required ? "yes" : "no") },
        ]} />
      )}
    </>
  );
}

const DiscrepanciesQuery = graphql(`
  query Discrepancies($status: String) { discrepancies(status: $status, first: 100) { id kind customerId resource summary status detectedAt } }
`);

export function DiscrepanciesPage() {
  const [status, setStatus] = useQueryParam("status");
  const [{ data, fetching, error }] = useQuery({ query: DiscrepanciesQuery, variables: { status: status || null }, context: lists("Discrepancy") });
  const items = data?.discrepancies ?? [];
  return (
    <>
      <PageTitle>Discrepancies</PageTitle>
      <TextInput label="Status" placeholder="open or resolved" value={status} onChange={(e) => setStatus(e.currentTarget.value.trim())} w={200} mb="md" />
      <PageError error={error} what="the discrepancies" />
      {fetching && !data && <Loading />}
      {data && items.length === 0 && <Empty>The inbox is empty.</Empty>}
      {items.length > 0 && (
        <DataTable label="Discrepancies" rows={items} rowKey={(d) => d.id} columns={[
          { label: "Detected", cell: (d) => formatTime(d.detectedAt) },
          { label: "Kind", cell: (d) => d.kind },
          { label: "Summary", cell: (d) => d.summary },
          { label: "Status", cell: (d) => <Badge color={d.status === "open" ? "red.9" : "gray.7"} variant="filled" autoContrast>{d.status}</Badge> },
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
