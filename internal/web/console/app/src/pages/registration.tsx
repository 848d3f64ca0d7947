import { useState } from "react";
import { Badge, Button, Checkbox, Code, Group, Modal, NumberInput, Stack, Text, TextInput, Textarea, Title } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import { lists } from "../cache";
import { useCaller } from "../me";
import { messages, useProblems } from "../forms";
import { DataTable } from "../table";
import { ConfirmDelete, Empty, FormErrors, Loading, PageError, SecretOnce, formatTime } from "../ui";

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
      <PageError error={error} what="the applications" />
      <Title order={2} size="h3" mt="md" mb="xs">Applications</Title>
      {data && clients.length === 0 && <Empty>No application registered itself yet.</Empty>}
      {clients.length > 0 && (
        <DataTable
          label="Registered applications"
          rows={clients}
          rowKey={(c) => c.clientId}
          columns={[
            { label: "Name", cell: (c) => <>{c.name} {c.registered && <Badge variant="light" ml="xs">registered</Badge>}</> },
            { label: "Client id", cell: (c) => <Code>{c.clientId}</Code> },
            { label: "Type", cell: (c) => (c.kind === "public" ? "public" : "confidential") },
            { label: "Redirect URIs", cell: (c) => c.redirectUris.join(", ") },
            { label: "Registered", cell: (c) => formatTime(c.createdAt) },
          ]}
        />
      )}
      <Group justify="space-between" mt="md" mb="xs">
        <Title order={3} size="h4">Registration tokens</Title>
        {write && <Button onClick={() => setCreating(true)}>New registration token</Button>}
      </Group>
      <Text mb="xs">
        An application registers itself at <Code>/oauth/v2/register</Code> of the identity provider with one of these tokens.
      </Text>
      {data && tokens.length === 0 && <Empty>No registration tokens.</Empty>}
      {tokens.length > 0 && (
        <DataTable
          label="Registration tokens"
          rows={tokens}
          rowKey={(t) => t.id}
          columns={[
            { label: "Name", cell: (t) => t.name },
            { label: "Registers", cell: (t) => t.kinds.join(", ") },
            { label: "Redirect hosts", cell: (t) => t.redirectHosts.join(", ") },
            { label: "Uses", cell: (t) => `${t.uses} of ${t.maxUses}` },
            { label: "Expires", cell: (t) => formatTime(t.expiresAt) },
            { label: "Status", cell: (t) => (t.revokedAt ? `revoked ${formatTime(t.revokedAt)}` : "live") },
            ...(write ? [{ label: "Actions", cell: (t: (typeof tokens)[number]) => !t.revokedAt && (
              <Button size="xs" variant="default" color="red" aria-label={`Revoke registration token ${t.name}`}
                onClick={() => setRevoking({ id: t.id, name: t.name })}>Revoke</Button>
            ) }] : []),
          ]}
        />
      )}
      {creating && <RegistrationTokenModal customerId={customerId} onClose={() => setCreating(false)} />}
      <ConfirmDelete
        opened={!!revoking}
        onClose={() => setRevoking(null)}
        verb="Revoke"
        kind="registration token"
        name={revoking?.name ?? ""}
        consequence="Registrations with this token are refused at once; the applications it registered stay."
        onConfirm={async () => messages((await revoke({ id: revoking!.id }, TOKEN)).error)}
      />
    </>
  );
}

function RegistrationTokenModal({ customerId, onClose }: { customerId: string; onClose: () => void }) {
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
    <Modal opened onClose={onClose} title="New registration token" centered>
      {token ? (
        <SecretOnce label="registration token" secret={token} onDone={onClose} rotate="make a new one and revoke this one to replace it" />
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
            <TextInput label="Name" required value={name} onChange={(e) => setName(e.currentTarget.value)} error={problems.fields.name} data-autofocus />
            <Checkbox label="Registers public applications (PKCE, no secret)" checked={pub} onChange={(e) => setPub(e.currentTarget.checked)} />
            <Checkbox label="Registers confidential applications (a secret or keys)" checked={conf} onChange={(e) => setConf(e.currentTarget.checked)}
              error={problems.fields.kinds} />
            <Textarea label="Redirect hosts" required value={hosts} onChange={(e) => setHosts(e.currentTarget.value)} error={problems.fields.redirectHosts}
              description="One per line; *.example.com allows its subdomains." autosize minRows={2} />
            <NumberInput label="Expires after (days)" required min={1} max={365} value={days} onChange={setDays} error={problems.fields.expiresAt} />
            <NumberInput label="Registrations at most" required min={1} max={1000} value={maxUses} onChange={setMaxUses} error={problems.fields.maxUses} />
            <FormErrors messages={problems.general} />
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>Cancel</Button>
              <Button type="submit" loading={fetching}>Create token</Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
