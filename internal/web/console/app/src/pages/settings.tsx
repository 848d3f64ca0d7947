import { useState } from "react";
import { ActionIcon, Alert, Button, Code, CopyButton, Group, Modal, NativeSelect, Stack, Text, TextInput, Title } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import { lists } from "../cache";
import { useCaller } from "../me";
import { messages, useProblems } from "../forms";
import { DataTable } from "../table";
import { ConfirmDelete, Empty, FormErrors, Loading, PageError, formatTime } from "../ui";
import { PORTAL_ROLES } from "./users";

const ConfigQuery = graphql(`
  query CustomerConfig($id: ID!) {
    customer(id: $id) {
      id
      webhooks { id url description events active createdAt }
      serviceAccounts { id name role clientId authMethod createdAt }
    }
  }
`);

const CreateWebhook = graphql(`
  mutation CreateWebhook($customerId: ID!, $input: WebhookInput!) {
    createWebhook(customerId: $customerId, input: $input) { secret webhook { id url } }
  }
`);
const DeleteWebhook = graphql(`
  mutation DeleteWebhook($id: ID!) { deleteWebhook(id: $id) }
`);
const CreateServiceAccount = graphql(`
  mutation CreateServiceAccount($customerId: ID!, $input: ServiceAccountInput!) {
    createServiceAccount(customerId: $customerId, input: $input) { clientSecret serviceAccount { id name clientId } }
  }
`);
const DeleteServiceAccount = graphql(`
  mutation DeleteServiceAccount($id: ID!) { deleteServiceAccount(id: $id) }
`);

// SecretOnce shows a secret the server answers only once, with a copy button.
function SecretOnce({ label, secret, onDone }: { label: string; secret: string; onDone: () => void }) {
  return (
    <Stack>
      <Alert color="dark" variant="outline" title="Copy it now">
        <Text>This {label} is shown only once. Store it where your system reads it; you can rotate it later.</Text>
      </Alert>
      <Code block data-testid="secret" tabIndex={0} aria-label={label}>{secret}</Code>
      <Group justify="flex-end">
        <CopyButton value={secret}>{({ copied, copy }) => <Button variant="default" onClick={copy}>{copied ? "Copied" : "Copy"}</Button>}</CopyButton>
        <Button onClick={onDone}>Done</Button>
      </Group>
    </Stack>
  );
}

export function CustomerSettings({ customerId }: { customerId: string }) {
  const caller = useCaller();
  const write = caller.canWrite("MANAGE_CUSTOMER_CONFIG");
  const [{ data, fetching, error }] = useQuery({ query: ConfigQuery, variables: { id: customerId }, context: lists("Webhook", "ServiceAccount") });
  const [creating, setCreating] = useState<"" | "webhook" | "account">("");
  const [deleting, setDeleting] = useState<{ kind: "webhook" | "service account"; id: string; name: string } | null>(null);
  const [, delWebhook] = useMutation(DeleteWebhook);
  const [, delAccount] = useMutation(DeleteServiceAccount);
  if (fetching && !data) return <Loading />;
  const c = data?.customer;
  return (
    <>
      <PageError error={error} what="these settings" />
      <Group justify="space-between" mt="md" mb="xs">
        <Title order={2} size="h3">Webhooks</Title>
        {write && <Button onClick={() => setCreating("webhook")}>New webhook</Button>}
      </Group>
      {c && (c.webhooks ?? []).length === 0 && <Empty>No webhooks.</Empty>}
      {c && (c.webhooks ?? []).length > 0 && (
        <DataTable
          label="Webhooks"
          rows={c.webhooks ?? []}
          rowKey={(w) => w.id}
          columns={[
            { label: "URL", cell: (w) => w.url },
            { label: "Events", cell: (w) => (w.events.length ? w.events.join(", ") : "all") },
            { label: "Active", cell: (w) => (w.active ? "yes" : "no") },
            { label: "Created", cell: (w) => formatTime(w.createdAt) },
            ...(write ? [{ label: "Actions", cell: (w: { id: string; url: string }) => (
              <ActionIcon variant="subtle" color="red" aria-label={`Delete webhook ${w.url}`} onClick={() => setDeleting({ kind: "webhook", id: w.id, name: w.url })}>✕</ActionIcon>
            ) }] : []),
          ]}
        />
      )}
      <Group justify="space-between" mt="xl" mb="xs">
        <Title order={2} size="h3">Service accounts</Title>
        {write && <Button onClick={() => setCreating("account")}>New service account</Button>}
      </Group>
      {c && (c.serviceAccounts ?? []).length === 0 && <Empty>No service accounts.</Empty>}
      {c && (c.serviceAccounts ?? []).length > 0 && (
        <DataTable
          label="Service accounts"
          rows={c.serviceAccounts ?? []}
          rowKey={(a) => a.id}
          columns={[
            { label: "Name", cell: (a) => a.name },
            { label: "Role", cell: (a) => a.role },
            { label: "Client id", cell: (a) => <Code>{a.clientId}</Code> },
            { label: "Created", cell: (a) => formatTime(a.createdAt) },
            ...(write ? [{ label: "Actions", cell: (a: { id: string; name: string }) => (
              <ActionIcon variant="subtle" color="red" aria-label={`Delete service account ${a.name}`} onClick={() => setDeleting({ kind: "service account", id: a.id, name: a.name })}>✕</ActionIcon>
            ) }] : []),
          ]}
        />
      )}
      {creating === "webhook" && <WebhookModal customerId={customerId} onClose={() => setCreating("")} />}
      {creating === "account" && <AccountModal customerId={customerId} onClose={() => setCreating("")} />}
      <ConfirmDelete
        opened={!!deleting}
        onClose={() => setDeleting(null)}
        kind={deleting?.kind ?? ""}
        name={deleting?.name ?? ""}
        consequence={deleting?.kind === "webhook" ? "No more events are sent to this URL." : "Its tokens stop working at once."}
        onConfirm={async () =>
          messages(
            deleting!.kind === "webhook"
              ? (await delWebhook({ id: deleting!.id }, { additionalTypenames: ["Webhook"] })).error
              : (await delAccount({ id: deleting!.id }, { additionalTypenames: ["ServiceAccount"] })).error,
          )
        }
      />
    </>
  );
}

function WebhookModal({ customerId, onClose }: { customerId: string; onClose: () => void }) {
  const [url, setUrl] = useState("https://");
  const [description, setDescription] = useState("");
  const [secret, setSecret] = useState("");
  const { problems, check } = useProblems(["url", "description", "events"]);
  const [{ fetching }, create] = useMutation(CreateWebhook);
  return (
    <Modal opened onClose={onClose} title="New webhook" centered>
      {secret ? (
        <SecretOnce label="signing secret" secret={secret} onDone={onClose} />
      ) : (
        <form
          noValidate
          onSubmit={async (e) => {
            e.preventDefault();
            const res = await create({ customerId, input: { url, description } }, { additionalTypenames: ["Webhook"] });
            if (check(res.error) && res.data?.createWebhook) setSecret(res.data.createWebhook.secret);
          }}
        >
          <Stack>
            <TextInput label="URL" required value={url} onChange={(e) => setUrl(e.currentTarget.value)} error={problems.fields.url} data-autofocus />
            <TextInput label="Description" value={description} onChange={(e) => setDescription(e.currentTarget.value)} error={problems.fields.description} />
            <FormErrors messages={problems.general} />
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>Cancel</Button>
              <Button type="submit" loading={fetching}>Create webhook</Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}

function AccountModal({ customerId, onClose }: { customerId: string; onClose: () => void }) {
  const [name, setName] = useState("");
  const [role, setRole] = useState("viewer");
  const [secret, setSecret] = useState("");
  const { problems, check } = useProblems(["name", "role", "description"]);
  const [{ fetching }, create] = useMutation(CreateServiceAccount);
  return (
    <Modal opened onClose={onClose} title="New service account" centered>
      {secret ? (
        <SecretOnce label="client secret" secret={secret} onDone={onClose} />
      ) : (
        <form
          noValidate
          onSubmit={async (e) => {
            e.preventDefault();
            const res = await create({ customerId, input: { name, role } }, { additionalTypenames: ["ServiceAccount"] });
            if (check(res.error) && res.data?.createServiceAccount) setSecret(res.data.createServiceAccount.clientSecret);
          }}
        >
          <Stack>
            <TextInput label="Name" required value={name} onChange={(e) => setName(e.currentTarget.value)} error={problems.fields.name} data-autofocus />
            <NativeSelect label="Role" value={role} onChange={(e) => setRole(e.currentTarget.value)} data={PORTAL_ROLES} error={problems.fields.role} />
            <FormErrors messages={problems.general} />
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>Cancel</Button>
              <Button type="submit" loading={fetching}>Create service account</Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
