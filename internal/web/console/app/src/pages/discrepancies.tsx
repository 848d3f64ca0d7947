// The discrepancies inbox (MANAGE_DISCREPANCIES): open, resolved or all
// items, the status filter in the URL; full access resolves (with a resolution)
// and reopens.
import { useState } from "react";
import { Button, NativeSelect, Text, Textarea } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import { lists } from "../cache";
import { useCaller } from "../me";
import { messages, useProblems } from "../forms";
import { ModalForm } from "../modalform";
import { useQueryParam } from "../router";
import { DataTable } from "../table";
import { Empty, FormErrors, Loading, PageError, PageTitle, formatTime } from "../ui";
import { useTranslation } from "react-i18next";
import { tr } from "../i18n";

const DiscrepanciesQuery = graphql(`
  query Discrepancies($status: String) {
    discrepancies(status: $status, first: 100) { id kind customerId resource summary status detectedAt resolvedAt resolution }
  }
`);
const ResolveDiscrepancy = graphql(`
  mutation ResolveDiscrepancy($id: ID!, $resolution: String!) { resolveDiscrepancy(id: $id, resolution: $resolution) { id status resolvedAt resolution } }
`);
const ReopenDiscrepancy = graphql(`
  mutation ReopenDiscrepancy($id: ID!) { reopenDiscrepancy(id: $id) { id status resolvedAt resolution } }
`);

// statusFilter turns the URL's status (none for the inbox's open items,
// resolved, or all) into the API's (empty lists every status).
export function statusFilter(status: string): string | null {
  return status === "all" ? null : status || "open";
}

type Item = { id: string; kind: string; summary: string; status: string; detectedAt: string; resolution: string };

export function DiscrepanciesPage() {
  const { t: tr } = useTranslation();
  const write = useCaller().canWrite("MANAGE_DISCREPANCIES");
  const [status, setStatus] = useQueryParam("status");
  const [{ data, fetching, error }] = useQuery({ query: DiscrepanciesQuery, variables: { status: statusFilter(status) }, context: lists("Discrepancy") });
  const [resolving, setResolving] = useState<Item | null>(null);
  const [errs, setErrs] = useState<string[]>([]);
  const [, reopen] = useMutation(ReopenDiscrepancy);
  const items = data?.discrepancies ?? [];
  return (
    <>
      <PageTitle>{tr("discrepancies.discrepancies")}</PageTitle>
      <NativeSelect label={tr("discrepancies.status")} value={status || "open"} onChange={(e) => setStatus(e.currentTarget.value === "open" ? "" : e.currentTarget.value)}
        data={[{ value: "open", label: tr("discrepancies.open") }, { value: "resolved", label: tr("discrepancies.resolved") }, { value: "all", label: tr("discrepancies.all") }]} w={200} mb="md" />
      <PageError error={error} what={tr("discrepancies.theDiscrepancies")} />
      <FormErrors messages={errs} />
      {fetching && !data && <Loading />}
      {data && items.length === 0 && <Empty>{status === "resolved" ? tr("discrepancies.noneResolved") : status === "all" ? tr("discrepancies.noneReported") : tr("discrepancies.inboxEmpty")}</Empty>}
      {items.length > 0 && (
        <DataTable label={tr("discrepancies.discrepancies")} rows={items} rowKey={(d) => d.id} columns={[
          { label: tr("discrepancies.detected"), cell: (d) => formatTime(d.detectedAt) },
          { label: tr("discrepancies.kind"), cell: (d) => d.kind },
          { label: tr("discrepancies.summary"), cell: (d) => d.summary },
          { label: tr("discrepancies.status"), cell: (d) => <Text span fw={600} c={d.status === "open" ? "var(--app-danger)" : "dimmed"}>{d.status}</Text> },
          { label: tr("discrepancies.resolution"), cell: (d) => d.resolution || "—" },
          ...(write ? [{ label: tr("discrepancies.actions"), cell: (d: Item) => (d.status === "open" ? (
            <Button size="xs" variant="default" aria-label={tr("discrepancies.resolve2", { summary: d.summary })} onClick={() => setResolving(d)}>{tr("discrepancies.resolve")}</Button>
          ) : (
            <Button size="xs" variant="default" aria-label={tr("discrepancies.reopen2", { summary: d.summary })}
              onClick={async () => setErrs(messages((await reopen({ id: d.id }, { additionalTypenames: ["Discrepancy"] })).error))}>{tr("discrepancies.reopen")}</Button>
          )) }] : []),
        ]} />
      )}
      {resolving && <ResolveForm item={resolving} onClose={() => setResolving(null)} />}
    </>
  );
}

function ResolveForm({ item, onClose }: { item: Item; onClose: () => void }) {
  const [resolution, setResolution] = useState("");
  const { problems, check } = useProblems(["resolution"]);
  const [{ fetching }, resolve] = useMutation(ResolveDiscrepancy);
  return (
    <ModalForm title={tr("discrepancies.resolve3", { summary: item.summary })} submit={tr("discrepancies.markResolved")} busy={fetching} errors={problems.general} onClose={onClose}
      onSubmit={async () => {
        const res = await resolve({ id: item.id, resolution }, { additionalTypenames: ["Discrepancy"] });
        if (check(res.error)) onClose();
      }}>
      <Textarea label={tr("discrepancies.resolution")} description={tr("discrepancies.whatWasFoundAndDoneKept")} required value={resolution}
        onChange={(e) => setResolution(e.currentTarget.value)} error={problems.fields.resolution} data-autofocus />
    </ModalForm>
  );
}
