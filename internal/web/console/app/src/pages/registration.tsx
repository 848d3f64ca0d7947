import { useState } from "react";
import { Badge, Button, Checkbox, Code, Group, Modal, NumberInput, Stack, Text, TextInput, Textarea, Title } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import { lists } from "../cache";
import { useCaller } from "../me";
import { messages, useProblems } from "../forms";
import { DataTable } from "../table";
import { ConfirmDelete, Empty, FormErrors, Loading, PageError, SecretOnce, formatTime } from "../ui";
import { useTranslation } from "react-i18next";

// A customer's applications that registered themselves (dynamic client
// registration, RFC 7591; docs/idp.md), each marked "registered", and the
// initial access tokens they register with: what each allows, its uses,
// a new token shown once, revoking.

const RegistrationQuery = graphql(`
  query Registration($id: ID!) {
    customer(id: $id) {
      id
      registeredClients { clientId name kind redirectUris registered createdAt }
      registrationTokens { id name kinds redirectHosts maxUses uses createdAt expiresAt revokedAt }
    }
  }
`);
const CreateRegistrationToken = graphql(`
  mutation CreateRegistrationToken($customerId: ID!, $input: CreateRegistrationTokenInput!) {
    createRegistrationToken(customerId: $customerId, input: $input) { token registrationToken { id name } }
  }
`);
const RevokeRegistrationToken = graphql(`
  mutation RevokeRegistrationToken($id: ID!) { revokeRegistrationToken(id: $id) }
`);

const TOKEN = { additionalTypenames: ["RegistrationToken"] };

export function Registration({ customerId }: { customerId: string }) {
  const { t: tr } = useTranslation();
  const caller = useCaller();
  const write = caller.canWrite("MANAGE_CUSTOMER_CONFIG");
  const [{ data, fetching, error }] = useQuery({ query: RegistrationQuery, variables: { id: customerId },
    context: lists("RegistrationToken", "RegisteredClient") });
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<{ id: string; name: string } | null>(null);
  const [, revoke] = useMutation(RevokeRegistrationToken);
  if (fetching && !data) return <Loading />;
  const clients = data?.customer?.registeredClients ?? [];
  const tokens = data?.customer?.registrationTokens ?? [];
  return (
    <>
      <PageError error={error} what={tr("registration.theApplications")} />
      <Title order={2} size="h3" mt="md" mb="xs">{tr("registration.applications")}</Title>
      {data && clients.length === 0 && <Empty>{tr("registration.noApplications")}</Empty>}
      {clients.length > 0 && (
        <DataTable
          label={tr("registration.registeredApplications")}
          rows={clients}
          rowKey={(c) => c.clientId}
          columns={[
            { label: tr("registration.name"), cell: (c) => <>{c.name} {c.registered && <Badge variant="light" ml="xs">{tr("registration.registeredBadge")}</Badge>}</> },
            { label: tr("registration.clientId"), cell: (c) => <Code>{c.clientId}</Code> },
            { label: tr("registration.type"), cell: (c) => (c.kind === "public" ? tr("registration.public") : tr("registration.confidential")) },
            { label: tr("registration.redirectUris"), cell: (c) => c.redirectUris.join(", ") },
            { label: tr("registration.registered"), cell: (c) => formatTime(c.createdAt) },
          ]}
        />
      )}
      <Group justify="space-between" mt="md" mb="xs">
        <Title order={3} size="h4">{tr("registration.tokens")}</Title>
        {write && <Button onClick={() => setCreating(true)}>{tr("registration.newToken")}</Button>}
      </Group>
      <Text mb="xs">
        {tr("registration.registersAt")} <Code>/oauth/v2/register</Code> {tr("registration.withOneOfThese")}
      </Text>
      {data && tokens.length === 0 && <Empty>{tr("registration.noTokens")}</Empty>}
      {tokens.length > 0 && (
        <DataTable
          label={tr("registration.tokens")}
          rows={tokens}
          rowKey={(t) => t.id}
          columns={[
            { label: tr("registration.name"), cell: (t) => t.name },
            { label: tr("registration.registers"), cell: (t) => t.kinds.map((k) => (k === "public" ? tr("registration.public") : tr("registration.confidential"))).join(", ") },
            { label: tr("registration.redirectHosts"), cell: (t) => t.redirectHosts.join(", ") },
            { label: tr("registration.uses"), cell: (t) => tr("registration.usesOf", { uses: t.uses, max: t.maxUses }) },
            { label: tr("registration.expires"), cell: (t) => formatTime(t.expiresAt) },
            { label: tr("registration.status"), cell: (t) => (t.revokedAt ? tr("registration.revokedAt", { time: formatTime(t.revokedAt) }) : tr("registration.live")) },
            ...(write ? [{ label: tr("registration.actions"), cell: (t: (typeof tokens)[number]) => !t.revokedAt && (
              <Button size="xs" variant="default" color="red" aria-label={tr("registration.revokeOf", { name: t.name })}
                onClick={() => setRevoking({ id: t.id, name: t.name })}>{tr("registration.revoke")}</Button>
            ) }] : []),
          ]}
        />
      )}
      {creating && <RegistrationTokenModal customerId={customerId} onClose={() => setCreating(false)} />}
      <ConfirmDelete
        opened={!!revoking}
        onClose={() => setRevoking(null)}
        verb={tr("registration.revoke")}
        kind={tr("registration.token")}
        name={revoking?.name ?? ""}
        consequence={tr("registration.revokeConsequence")}
        onConfirm={async () => messages((await revoke({ id: revoking!.id }, TOKEN)).error)}
      />
    </>
  );
}

function RegistrationTokenModal({ customerId, onClose }: { customerId: string; onClose: () => void }) {
  const { t: tr } = useTranslation();
  const [name, setName] = useState("");
  const [pub, setPub] = useState(true);
  const [conf, setConf] = useState(false);
  const [hosts, setHosts] = useState("");
  const [days, setDays] = useState<number | string>(30);
  const [maxUses, setMaxUses] = useState<number | string>(10);
  const [token, setToken] = useState("");
  const { problems, check } = useProblems(["name", "kinds", "redirectHosts", "expiresAt", "maxUses"]);
  const [{ fetching }, create] = useMutation(CreateRegistrationToken);
  return (
    <Modal opened onClose={onClose} title={tr("registration.newToken")} centered>
      {token ? (
        <SecretOnce label={tr("registration.token")} secret={token} onDone={onClose} rotate={tr("registration.rotate")} />
      ) : (
        <form
          noValidate
          onSubmit={async (e) => {
            e.preventDefault();
            const kinds = [...(pub ? ["public"] : []), ...(conf ? ["confidential"] : [])];
            const expiresAt = new Date(Date.now() + Number(days) * 86400_000).toISOString();
            const input = { name, kinds, redirectHosts: hosts.split(/[\s,]+/).filter(Boolean), expiresAt, maxUses: Number(maxUses) };
            const res = await create({ customerId, input }, TOKEN);
            if (!check(res.error) || !res.data?.createRegistrationToken) return;
            setToken(res.data.createRegistrationToken.token);
          }}
        >
          <Stack>
            <TextInput label={tr("registration.name")} required value={name} onChange={(e) => setName(e.currentTarget.value)} error={problems.fields.name} data-autofocus />
            <Checkbox label={tr("registration.registersPublic")} checked={pub} onChange={(e) => setPub(e.currentTarget.checked)} />
            <Checkbox label={tr("registration.registersConfidential")} checked={conf} onChange={(e) => setConf(e.currentTarget.checked)}
              error={problems.fields.kinds} />
            <Textarea label={tr("registration.redirectHosts")} required value={hosts} onChange={(e) => setHosts(e.currentTarget.value)} error={problems.fields.redirectHosts}
              description={tr("registration.hostsHint")} autosize minRows={2} />
            <NumberInput label={tr("registration.expiresAfter")} required min={1} max={365} value={days} onChange={setDays} error={problems.fields.expiresAt} />
            <NumberInput label={tr("registration.maxUses")} required min={1} max={1000} value={maxUses} onChange={setMaxUses} error={problems.fields.maxUses} />
            <FormErrors messages={problems.general} />
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>{tr("registration.cancel")}</Button>
              <Button type="submit" loading={fetching}>{tr("registration.create")}</Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
