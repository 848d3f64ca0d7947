import { useState } from "react";
import { ActionIcon, Button, Code, Group, Modal, NativeSelect, Stack, TextInput, Textarea, Title } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import type { CombinedError } from "@urql/core";
import { graphql } from "../gql";
import { lists } from "../cache";
import { useCaller } from "../me";
import { messages, useProblems } from "../forms";
import { parseObject } from "../jsondoc";
import { DataTable } from "../table";
import { CardTable } from "../cardtable";
import { ConfirmDelete, Empty, FormErrors, Loading, PageError, SecretOnce, formatTime } from "../ui";
import { PORTAL_ROLES } from "./users";
import { ConfirmedForm } from "./confirm";
import { RotateSecret } from "./secret";
import { SettingsDocument } from "./jsondoc";
import { CreateWebhook, Deliveries, WebhookForm, WebhookRowActions } from "./webhooks";
import { useTranslation } from "react-i18next";
import { tr } from "../i18n";

const ConfigQuery = graphql(`
  query CustomerConfig($id: ID!) {
    customer(id: $id) {
      id
      settings
      webhooks { id url description events active createdAt }
      serviceAccounts { id name role clientId authMethod keyIds createdAt secretRotatedAt }
    }
  }
`);

const PutCustomerSettings = graphql(`
  mutation PutCustomerSettings($id: ID!, $settings: JSON!) { putCustomerSettings(id: $id, settings: $settings) }
`);
const DeleteWebhook = graphql(`
  mutation DeleteWebhook($id: ID!) { deleteWebhook(id: $id) }
`);
const CreateServiceAccount = graphql(`
  mutation CreateServiceAccount($customerId: ID!, $input: ServiceAccountInput!) {
    createServiceAccount(customerId: $customerId, input: $input) { clientSecret serviceAccount { id name clientId } }
  }
`);
const RotateServiceAccountSecret = graphql(`
  mutation RotateServiceAccountSecret($id: ID!) {
    rotateServiceAccountSecret(id: $id) { clientSecret serviceAccount { id secretRotatedAt } }
  }
`);
const SetServiceAccountKeys = graphql(`
  mutation SetServiceAccountKeys($id: ID!, $jwks: JSON!) { setServiceAccountKeys(id: $id, jwks: $jwks) { id authMethod keyIds } }
`);
const SetServiceAccountRole = graphql(`
  mutation SetServiceAccountRole($id: ID!, $role: String!) { setServiceAccountRole(id: $id, role: $role) { id role } }
`);
const DeleteServiceAccount = graphql(`
  mutation DeleteServiceAccount($id: ID!) { deleteServiceAccount(id: $id) }
`);

const ACCOUNT = { additionalTypenames: ["ServiceAccount"] };
const AUTH_METHODS = ["client_secret_basic", "client_secret_post", "private_key_jwt"];

type Account = { id: string; name: string; role: string; clientId: string; authMethod: string; keyIds: string[]; createdAt: string; secretRotatedAt: string };

export function CustomerSettings({ customerId }: { customerId: string }) {
  const { t: tr } = useTranslation();
  const caller = useCaller();
  const write = caller.canWrite("MANAGE_CUSTOMER_CONFIG");
  const [{ data, fetching, error }] = useQuery({ query: ConfigQuery, variables: { id: customerId }, context: lists("Webhook", "ServiceAccount") });
  const [creating, setCreating] = useState<"" | "webhook" | "account">("");
  const [deleting, setDeleting] = useState<{ kind: "webhook" | "service account"; id: string; name: string } | null>(null);
  const [rotating, setRotating] = useState<Account | null>(null);
  const [keying, setKeying] = useState<Account | null>(null);
  const [, delWebhook] = useMutation(DeleteWebhook);
  const [, delAccount] = useMutation(DeleteServiceAccount);
  const [, putSettings] = useMutation(PutCustomerSettings);
  const [, setRole] = useMutation(SetServiceAccountRole);
  const [roleErrors, setRoleErrors] = useState<string[]>([]);
  if (fetching && !data) return <Loading />;
  const c = data?.customer;
  return (
    <>
      <PageError error={error} what={tr("settings.theseSettings")} />
      <Group justify="space-between" mt="md" mb="xs">
        <Title order={2} size="h3">{tr("settings.webhooks")}</Title>
        {write && <Button onClick={() => setCreating("webhook")}>{tr("settings.newWebhook")}</Button>}
      </Group>
      {c && (c.webhooks ?? []).length === 0 && <Empty>{tr("settings.noWebhooks")}</Empty>}
      {c && (c.webhooks ?? []).length > 0 && (
        <CardTable
          label={tr("settings.webhooks")}
          rows={c.webhooks ?? []}
          rowKey={(w) => w.id}
          columns={[
            { label: tr("settings.url"), title: true, wrap: true, cell: (w) => w.url },
            { label: tr("settings.events"), wrap: true, cell: (w) => (w.events.length ? w.events.join(", ") : "all") },
            { label: tr("settings.active"), cell: (w) => (w.active ? "yes" : "no") },
            { label: tr("settings.created"), nowrap: true, cell: (w) => formatTime(w.createdAt) },
            { label: tr("settings.actions"), nowrap: true, cell: (w) => (
              <WebhookRowActions w={w} write={write} onDelete={() => setDeleting({ kind: "webhook", id: w.id, name: w.url })} />
            ) },
          ]}
        />
      )}
      <Deliveries />
      <Group justify="space-between" mt="xl" mb="xs">
        <Title order={2} size="h3">{tr("settings.serviceAccounts")}</Title>
        {write && <Button onClick={() => setCreating("account")}>{tr("settings.newServiceAccount")}</Button>}
      </Group>
      <FormErrors messages={roleErrors} />
      {c && (c.serviceAccounts ?? []).length === 0 && <Empty>{tr("settings.noServiceAccounts")}</Empty>}
      {c && (c.serviceAccounts ?? []).length > 0 && (
        <DataTable
          label={tr("settings.serviceAccounts")}
          rows={c.serviceAccounts ?? []}
          rowKey={(a) => a.id}
          columns={[
            { label: tr("settings.name"), cell: (a) => a.name },
            { label: tr("settings.role"), cell: (a) => write ? (
              <NativeSelect size="xs" w={110} aria-label={tr("settings.roleOf", { name: a.name })} value={a.role} data={PORTAL_ROLES}
                onChange={async (e) => setRoleErrors(messages((await setRole({ id: a.id, role: e.currentTarget.value }, ACCOUNT)).error))} />
            ) : a.role },
            { label: tr("settings.clientId"), cell: (a) => <Code>{a.clientId}</Code> },
            { label: tr("settings.signsInWith"), cell: (a) => a.authMethod === "private_key_jwt"
              ? tr("settings.keys", { join: a.keyIds.length ? a.keyIds.join(", ") : "(none)" })
              : tr("settings.secretRotated", { secretRotatedAt: formatTime(a.secretRotatedAt) }) },
            { label: tr("settings.created"), cell: (a) => formatTime(a.createdAt) },
            ...(write ? [{ label: tr("settings.actions"), cell: (a: Account) => (
              <Group gap="xs" wrap="nowrap">
                {a.authMethod !== "private_key_jwt" && (
                  <Button size="xs" variant="default" aria-label={tr("settings.rotateSecretOf", { name: a.name })} onClick={() => setRotating(a)}>{tr("settings.rotateSecret")}</Button>
                )}
                <Button size="xs" variant="default" aria-label={tr("settings.publicKeysOf", { name: a.name })} onClick={() => setKeying(a)}>{tr("settings.publicKeys")}</Button>
                <ActionIcon variant="subtle" color="red" aria-label={tr("settings.deleteServiceAccount", { name: a.name })} onClick={() => setDeleting({ kind: "service account", id: a.id, name: a.name })}>✕</ActionIcon>
              </Group>
            ) }] : []),
          ]}
        />
      )}
      {c && (
        <>
          <Title order={2} size="h3" mt="xl" mb="xs">{tr("settings.customerSettings")}</Title>
          <SettingsDocument label={tr("settings.settingsDocument")} value={c.settings} write={write}
            save={async (doc) => (await putSettings({ id: customerId, settings: doc }, { additionalTypenames: ["Customer"] })).error} />
        </>
      )}
      {creating === "webhook" && <WebhookModal customerId={customerId} onClose={() => setCreating("")} />}
      {creating === "account" && <AccountModal customerId={customerId} onClose={() => setCreating("")} />}
      {rotating && <RotateAccount a={rotating} onClose={() => setRotating(null)} />}
      {keying && <KeysModal a={keying} onClose={() => setKeying(null)} />}
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
              : (await delAccount({ id: deleting!.id }, ACCOUNT)).error,
          )
        }
      />
    </>
  );
}

function WebhookModal({ customerId, onClose }: { customerId: string; onClose: () => void }) {
  const [secret, setSecret] = useState("");
  const [, create] = useMutation(CreateWebhook);
  return (
    <Modal opened onClose={onClose} title={tr("settings.newWebhook")} centered>
      {secret ? (
        <SecretOnce label={tr("settings.signingSecret")} secret={secret} onDone={onClose} />
      ) : (
        <WebhookForm submitLabel={tr("settings.createWebhook")} onClose={() => {}} onSubmit={async (input) => {
          const res = await create({ customerId, input }, { additionalTypenames: ["Webhook"] });
          if (res.data?.createWebhook) setSecret(res.data.createWebhook.secret);
          return res.error;
        }} />
      )}
    </Modal>
  );
}

// jwksField reads the JWK Set typed into a form: undefined when empty,
// an error for the field when it is not a JSON object.
function jwksField(text: string): { jwks?: Record<string, unknown>; error?: string } {
  if (!text.trim()) return {};
  const p = parseObject("jwks", text);
  return p.error ? { error: p.error[0].toUpperCase() + p.error.slice(1) + "." } : { jwks: p.value };
}

function AccountModal({ customerId, onClose }: { customerId: string; onClose: () => void }) {
  const [name, setName] = useState("");
  const [role, setRole] = useState("viewer");
  const [method, setMethod] = useState("client_secret_basic");
  const [keys, setKeys] = useState("");
  const [keysError, setKeysError] = useState("");
  const [secret, setSecret] = useState("");
  const { problems, check } = useProblems(["name", "role", "description", "authMethod", "jwks", "private_key_jwt"]);
  const [{ fetching }, create] = useMutation(CreateServiceAccount);
  const pkj = method === "private_key_jwt";
  return (
    <Modal opened onClose={onClose} title={tr("settings.newServiceAccount")} centered>
      {secret ? (
        <SecretOnce label={tr("settings.clientSecret")} secret={secret} onDone={onClose} />
      ) : (
        <form
          noValidate
          onSubmit={async (e) => {
            e.preventDefault();
            const k = pkj ? jwksField(keys) : {};
            setKeysError(k.error ?? "");
            if (k.error) return;
            const res = await create({ customerId, input: { name, role, authMethod: method, jwks: k.jwks } }, ACCOUNT);
            if (!check(res.error) || !res.data?.createServiceAccount) return;
            if (res.data.createServiceAccount.clientSecret) setSecret(res.data.createServiceAccount.clientSecret);
            else onClose();
          }}
        >
          <Stack>
            <TextInput label={tr("settings.name")} required value={name} onChange={(e) => setName(e.currentTarget.value)} error={problems.fields.name} data-autofocus />
            <NativeSelect label={tr("settings.role")} value={role} onChange={(e) => setRole(e.currentTarget.value)} data={PORTAL_ROLES} error={problems.fields.role} />
            <NativeSelect label={tr("settings.signsInWith")} value={method} onChange={(e) => setMethod(e.currentTarget.value)} data={AUTH_METHODS} error={problems.fields.authMethod} />
            {pkj && (
              <Textarea label={tr("settings.publicKeysJwkSet")} autosize minRows={4} value={keys} onChange={(e) => setKeys(e.currentTarget.value)}
                error={keysError || problems.fields.jwks || problems.fields.private_key_jwt} spellCheck={false} />
            )}
            <FormErrors messages={problems.general} />
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>{tr("settings.cancel")}</Button>
              <Button type="submit" loading={fetching}>{tr("settings.createServiceAccount")}</Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}

function RotateAccount({ a, onClose }: { a: Account; onClose: () => void }) {
  const [, rotate] = useMutation(RotateServiceAccountSecret);
  return (
    <RotateSecret kind={tr("settings.serviceAccount")} name={a.name} label={tr("settings.clientSecret")} onClose={onClose}
      consequence={tr("settings.thePresentSecretStopsWorkingAt")}
      rotate={async () => {
        const res = await rotate({ id: a.id }, ACCOUNT);
        return { secret: res.data?.rotateServiceAccountSecret?.clientSecret, error: res.error };
      }} />
  );
}

// KeysModal replaces an account's public keys (the API takes the whole
// JWK Set): keys left out are removed, and the account signs in with
// private_key_jwt from then on.
function KeysModal({ a, onClose }: { a: Account; onClose: () => void }) {
  const [keys, setKeys] = useState("");
  const [local, setLocal] = useState("");
  const [, setKeysOf] = useMutation(SetServiceAccountKeys);
  const submit = async (): Promise<CombinedError | undefined | false> => {
    const k = jwksField(keys);
    setLocal(k.error ?? (k.jwks ? "" : tr("settings.jwksIsRequired")));
    if (!k.jwks) return false;
    return (await setKeysOf({ id: a.id, jwks: k.jwks }, ACCOUNT)).error;
  };
  return (
    <ConfirmedForm
      kind={tr("settings.serviceAccount")}
      verb={tr("settings.setTheKeysOf")}
      name={a.name}
      consequence={tr("settings.presentKeysTheSetBelowReplaces", { join: a.keyIds.length ? a.keyIds.join(", ") : "none" })}
      fields={["jwks"]}
      submit={submit}
      onClose={onClose}
    >
      {(p) => (
        <Textarea label={tr("settings.publicKeysJwkSet")} autosize minRows={4} value={keys} spellCheck={false}
          onChange={(e) => setKeys(e.currentTarget.value)} error={local || p.fields.jwks} />
      )}
    </ConfirmedForm>
  );
}
