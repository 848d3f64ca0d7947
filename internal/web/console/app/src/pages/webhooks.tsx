import { useState } from "react";
import { Button, Checkbox, Group, Modal, Stack, Text, TextInput, Title } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import { useProblems } from "../forms";
import { words } from "../jsondoc";
import { navigate, useQueryParam, withQuery } from "../router";
import { DataTable } from "../table";
import { Empty, FormErrors, Loading, PageError, formatTime } from "../ui";
import { RowMenu } from "../rowmenu";
import { RotateSecret } from "./secret";
import { useTranslation } from "react-i18next";
import { tr } from "../i18n";

export const CreateWebhook = graphql(`
  mutation CreateWebhook($customerId: ID!, $input: WebhookInput!) {
    createWebhook(customerId: $customerId, input: $input) { secret webhook { id url } }
  }
`);
const UpdateWebhook = graphql(`
  mutation UpdateWebhook($id: ID!, $input: WebhookPatch!) {
    updateWebhook(id: $id, input: $input) { id url description events active updatedAt }
  }
`);
const RotateWebhookSecret = graphql(`
  mutation RotateWebhookSecret($id: ID!) { rotateWebhookSecret(id: $id) { secret webhook { id updatedAt } } }
`);
const DeliveriesQuery = graphql(`
  query WebhookDeliveries($id: ID!, $first: Int) {
    webhook(id: $id) {
      id
      url
      deliveries(first: $first) { id eventType status attempts lastStatusCode lastError createdAt deliveredAt }
    }
  }
`);

// DELIVERIES is how many of the latest deliveries are shown (the API
// answers the newest, without cursors).
export const DELIVERIES = 50;

export type Webhook = { id: string; url: string; description: string; events: string[]; active: boolean; createdAt: string };

const WEBHOOK = { additionalTypenames: ["Webhook"] };

// WebhookRowActions are a webhook's actions in its row menu (D-row-menu):
// its deliveries (in the URL), edit, rotate the secret and delete.
export function WebhookRowActions({ w, write, onDelete }: { w: Webhook; write: boolean; onDelete: () => void }) {
  const [editing, setEditing] = useState(false);
  const [rotating, setRotating] = useState(false);
  const here = window.location.pathname + window.location.search;
  return (
    <>
      <RowMenu name={w.url} actions={[
        { label: tr("webhooks.deliveries"), onClick: () => navigate(withQuery(here, { webhook: w.id })) },
        write && { label: tr("webhooks.edit"), onClick: () => setEditing(true) },
        write && { label: tr("webhooks.rotateSecret"), onClick: () => setRotating(true) },
        write && { label: tr("common.delete"), danger: true, onClick: onDelete },
      ]} />
      {editing && <EditWebhook w={w} onClose={() => setEditing(false)} />}
      {rotating && <RotateWebhook w={w} onClose={() => setRotating(false)} />}
    </>
  );
}

function RotateWebhook({ w, onClose }: { w: Webhook; onClose: () => void }) {
  const [, rotate] = useMutation(RotateWebhookSecret);
  return (
    <RotateSecret kind={tr("webhooks.webhook")} name={w.url} label={tr("webhooks.signingSecret")} onClose={onClose}
      consequence={tr("webhooks.deliveriesAreSignedWithANew")}
      rotate={async () => {
        const res = await rotate({ id: w.id }, WEBHOOK);
        return { secret: res.data?.rotateWebhookSecret?.secret, error: res.error };
      }} />
  );
}

// WebhookForm creates or edits a webhook; events are action names, kinds
// of audit event (sign_in, account.locked, admin.write, …) or *.
export function WebhookForm({ w, submitLabel, onSubmit, onClose }: {
  w?: Webhook;
  submitLabel: string;
  onSubmit: (input: { url: string; description: string; events: string[]; active: boolean }) => Promise<import("@urql/core").CombinedError | undefined>;
  onClose: () => void;
}) {
  const [url, setUrl] = useState(w?.url ?? "https://");
  const [description, setDescription] = useState(w?.description ?? "");
  const [events, setEvents] = useState((w?.events ?? ["*"]).join(" "));
  const [active, setActive] = useState(w?.active ?? true);
  const [busy, setBusy] = useState(false);
  const { problems, check } = useProblems(["url", "description", "events", "event"]);
  return (
    <form
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        const ok = check(await onSubmit({ url, description, events: words(events), active }));
        setBusy(false);
        if (ok) onClose();
      }}
    >
      <Stack>
        <TextInput label={tr("webhooks.url")} required value={url} onChange={(e) => setUrl(e.currentTarget.value)} error={problems.fields.url} data-autofocus />
        <TextInput label={tr("webhooks.description")} value={description} onChange={(e) => setDescription(e.currentTarget.value)} error={problems.fields.description} />
        <TextInput label={tr("webhooks.events")} description={tr("webhooks.actionNamesSuchAsManageTenant")}
          value={events} onChange={(e) => setEvents(e.currentTarget.value)} error={problems.fields.events ?? problems.fields.event} />
        <Checkbox label={tr("webhooks.active")} checked={active} onChange={(e) => setActive(e.currentTarget.checked)} />
        <FormErrors messages={problems.general} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>{tr("webhooks.cancel")}</Button>
          <Button type="submit" loading={busy}>{submitLabel}</Button>
        </Group>
      </Stack>
    </form>
  );
}

function EditWebhook({ w, onClose }: { w: Webhook; onClose: () => void }) {
  const [, update] = useMutation(UpdateWebhook);
  return (
    <Modal opened onClose={onClose} title={tr("webhooks.editWebhook")} centered>
      <WebhookForm w={w} submitLabel={tr("webhooks.saveWebhook")} onClose={onClose}
        onSubmit={async (input) => (await update({ id: w.id, input }, WEBHOOK)).error} />
    </Modal>
  );
}

// Deliveries lists the latest deliveries of the webhook named in the URL
// (?webhook=…), newest first.
export function Deliveries() {
  const { t: tr } = useTranslation();
  const [id, setId] = useQueryParam("webhook");
  const [{ data, fetching, error }] = useQuery({ query: DeliveriesQuery, variables: { id, first: DELIVERIES }, pause: !id });
  if (!id) return null;
  const rows = data?.webhook?.deliveries ?? [];
  return (
    <section aria-labelledby="deliveries-title">
      <Group justify="space-between" mt="xl" mb="xs">
        <Title order={2} size="h3" id="deliveries-title">{data?.webhook ? tr("webhooks.deliveriesOf", { url: data.webhook.url }) : tr("webhooks.deliveries")}</Title>
        <Button variant="default" size="xs" onClick={() => setId("")}>{tr("webhooks.closeDeliveries")}</Button>
      </Group>
      <PageError error={error} what={tr("webhooks.thisWebhook")} />
      {fetching && !data && <Loading />}
      {data?.webhook && rows.length === 0 && <Empty>{tr("webhooks.noDeliveriesYetEventsAreSent")}</Empty>}
      {rows.length > 0 && (
        <>
          <DataTable
            label={tr("webhooks.deliveries")}
            rows={rows}
            rowKey={(d) => d.id}
            columns={[
              { label: tr("webhooks.event"), cell: (d) => d.eventType },
              { label: tr("webhooks.status"), cell: (d) => d.status },
              { label: tr("webhooks.attempts"), numeric: true, cell: (d) => d.attempts },
              { label: tr("webhooks.lastAnswer"), cell: (d) => (d.lastStatusCode ? tr("webhooks.http", { lastStatusCode: d.lastStatusCode }) : "—") + (d.lastError ? ` · ${d.lastError}` : "") },
              { label: tr("webhooks.created"), cell: (d) => formatTime(d.createdAt) },
              { label: tr("webhooks.delivered"), cell: (d) => formatTime(d.deliveredAt) },
            ]}
          />
          {rows.length >= DELIVERIES && <Text size="sm" c="dimmed" mt="xs">{tr("webhooks.latestShown", { n: DELIVERIES })}</Text>}
        </>
      )}
    </section>
  );
}
