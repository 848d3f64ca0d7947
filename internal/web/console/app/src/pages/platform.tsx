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
import { useTranslation } from "react-i18next";

const WorkersQuery = graphql(`
  query Workers { systemWorkers { id name description intervalSeconds paused lastRunAt lastError failures } }
`);
const RunWorker = graphql(`mutation RunWorker($id: ID!) { runSystemWorker(id: $id) { id runRequestedAt } }`);
const PauseWorker = graphql(`mutation PauseWorker($id: ID!) { pauseSystemWorker(id: $id) { id paused } }`);
const ResumeWorker = graphql(`mutation ResumeWorker($id: ID!) { resumeSystemWorker(id: $id) { id paused } }`);

export function WorkersPage() {
  const { t: tr } = useTranslation();
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
      <PageTitle>{tr("platform.systemWorkers")}</PageTitle>
      <PageError error={error} what={tr("platform.theWorkers")} />
      <FormErrors messages={errs} />
      {fetching && !data && <Loading />}
      {data && items.length === 0 && <Empty>{tr("platform.noWorkers")}</Empty>}
      {items.length > 0 && (
        <DataTable label={tr("platform.workers")} rows={items} rowKey={(w) => w.id} columns={[
          { label: tr("platform.worker"), cell: (w) => w.name },
          { label: tr("platform.every"), cell: (w) => `${w.intervalSeconds} s` },
          { label: tr("platform.lastRun"), cell: (w) => formatTime(w.lastRunAt) },
          { label: tr("platform.state"), cell: (w) => (w.paused ? tr("platform.paused") : w.lastError ? tr("platform.failing", { failures: w.failures, lastError: w.lastError }) : tr("platform.running")) },
          ...(write ? [{ label: tr("platform.actions"), cell: (w: { id: string; name: string; paused: boolean }) => (
            <Group gap="xs" wrap="nowrap">
              <Button size="xs" variant="default" onClick={async () => setErrs(messages((await run({ id: w.id })).error))}>{tr("platform.runNow", { name: w.name })}</Button>
              {w.paused
                ? <Button size="xs" variant="default" onClick={async () => setErrs(messages((await resume({ id: w.id })).error))}>{tr("platform.resume", { name: w.name })}</Button>
                : <Button size="xs" variant="default" onClick={async () => setErrs(messages((await pause({ id: w.id })).error))}>{tr("platform.pause", { name: w.name })}</Button>}
            </Group>
          ) }] : []),
        ]} />
      )}
    </>
  );
}

const EmailsQuery = graphql(`
  query EmailLog($recipient: String, $first: Int, $after: String) {
    emailLog(recipient: $recipient, first: $first, after: $after) { items { id at recipient kind subject status } nextCursor }
  }
`);

export function EmailsPage() {
  const { t: tr } = useTranslation();
  const route = useRoute();
  const [recipient, setRecipient] = useQueryParam("recipient");
  const after = route.query.get("after") || null;
  const [{ data, fetching, error }] = useQuery({ query: EmailsQuery, variables: { recipient: recipient || null, first: PAGE_SIZE, after }, context: lists("Email") });
  const items = data?.emailLog.items ?? [];
  return (
    <>
      <PageTitle>{tr("platform.eMailLog")}</PageTitle>
      <TextInput type="search" label={tr("platform.recipientContains")} value={recipient} onChange={(e) => setRecipient(e.currentTarget.value, { after: null, prev: null })} w={320} mb="md" />
      <PageError error={error} what={tr("platform.theEMailLog")} />
      {fetching && !data && <Loading />}
      {data && items.length === 0 && <Empty>{tr("platform.noEMailsForTheseFilters")}</Empty>}
      {items.length > 0 && (
        <DataTable label={tr("platform.eMails")} rows={items} rowKey={(m) => m.id} columns={[
          { label: tr("platform.when"), cell: (m) => formatTime(m.at) },
          { label: tr("platform.to"), cell: (m) => m.recipient },
          { label: tr("platform.kind"), cell: (m) => m.kind },
          { label: tr("platform.subject"), cell: (m) => m.subject },
          { label: tr("platform.status"), cell: (m) => m.status },
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
  const { t: tr } = useTranslation();
  return (
    <>
      <PageTitle>{tr("platform.invoices")}</PageTitle>
      <InvoiceList />
    </>
  );
}

export function InvoiceList({ customerId }: { customerId?: string }) {
  const { t: tr } = useTranslation();
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
      <TextInput label={tr("platform.invoiceStatus")} placeholder={tr("platform.openPaid")} value={status} onChange={(e) => setStatus(e.currentTarget.value.trim(), { after: null, prev: null })} w={200} mb="md" />
      {!caller.can("VIEW_BILLED_UNITS") && <p>{tr("platform.amountsAreHiddenYourRoleDoes")}</p>}
      <PageError error={error} what={tr("platform.theInvoices")} />
      {fetching && !data && <Loading />}
      {data && items.length === 0 && <Empty>{tr("platform.noInvoicesForTheseFilters")}</Empty>}
      {items.length > 0 && (
        <DataTable label={tr("platform.invoices")} rows={items} rowKey={(i) => i.id} columns={[
          { label: tr("platform.number"), cell: (i) => i.number },
          { label: tr("platform.period"), cell: (i) => i.period },
          { label: tr("platform.total"), numeric: true, cell: (i) => billed(i.total, i.currency) ?? REDACTED },
          { label: tr("platform.status"), cell: (i) => i.status },
          { label: tr("platform.due"), cell: (i) => formatTime(i.dueAt) },
        ]} />
      )}
      <Pager next={data?.invoices.nextCursor} />
    </>
  );
}
