import { useState } from "react";
import { Button, Code, Group, Modal, Stack, Text, TextInput, Title } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import { lists } from "../cache";
import { useCaller } from "../me";
import { messages, useProblems } from "../forms";
import { DataTable } from "../table";
import { ConfirmDelete, Empty, FormErrors, Loading, PageError, SecretOnce, formatTime } from "../ui";

// The customer's directory connection (SCIM, docs/scim.md): the tenant
// URL, the tokens with their last use, a new token shown once, revoking.

const ScimTokensQuery = graphql(`
  query ScimTokens($id: ID!) {
    customer(id: $id) { id scimTokens { id name createdAt lastUsedAt revokedAt } }
  }
`);
const CreateScimToken = graphql(`
  mutation CreateScimToken($customerId: ID!, $name: String!) {
    createScimToken(customerId: $customerId, name: $name) { token scimToken { id name } }
  }
`);
const RevokeScimToken = graphql(`
  mutation RevokeScimToken($id: ID!) { revokeScimToken(id: $id) }
`);

const TOKEN = { additionalTypenames: ["ScimToken"] };

export function ScimTokens({ customerId }: { customerId: string }) {
  const caller = useCaller();
  const write = caller.canWrite("MANAGE_CUSTOMER_CONFIG");
  const [{ data, fetching, error }] = useQuery({ query: ScimTokensQuery, variables: { id: customerId }, context: lists("ScimToken") });
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<{ id: string; name: string } | null>(null);
  const [, revoke] = useMutation(RevokeScimToken);
  if (fetching && !data) return <Loading />;
  const tokens = data?.customer?.scimTokens ?? [];
  return (
    <>
      <PageError error={error} what="the directory tokens" />
      <Title order={2} size="h3" mt="md" mb="xs">Directory provisioning (SCIM)</Title>
      <Text mb="xs">
        Your directory (Entra ID, Okta, …) creates, changes and removes users and groups here. Tenant URL:{" "}
        <Code data-testid="scim-url">{window.location.origin + "/scim/v2"}</Code>
      </Text>
      <Group justify="space-between" mt="md" mb="xs">
        <Title order={3} size="h4">Tokens</Title>
        {write && <Button onClick={() => setCreating(true)}>New token</Button>}
      </Group>
      {data && tokens.length === 0 && <Empty>No tokens.</Empty>}
      {tokens.length > 0 && (
        <DataTable
          label="SCIM tokens"
          rows={tokens}
          rowKey={(t) => t.id}
          columns={[
            { label: "Name", cell: (t) => t.name },
            { label: "Created", cell: (t) => formatTime(t.createdAt) },
            { label: "Last used", cell: (t) => formatTime(t.lastUsedAt) },
            { label: "Status", cell: (t) => (t.revokedAt ? `revoked ${formatTime(t.revokedAt)}` : "live") },
            ...(write ? [{ label: "Actions", cell: (t: (typeof tokens)[number]) => !t.revokedAt && (
              <Button size="xs" variant="default" color="red" aria-label={`Revoke token ${t.name}`}
                onClick={() => setRevoking({ id: t.id, name: t.name })}>Revoke</Button>
            ) }] : []),
          ]}
        />
      )}
      {creating && <TokenModal customerId={customerId} onClose={() => setCreating(false)} />}
      <ConfirmDelete
        opened={!!revoking}
        onClose={() => setRevoking(null)}
        verb="Revoke"
        kind="token"
        name={revoking?.name ?? ""}
        consequence="The directory's next request with this token is refused."
        onConfirm={async () => messages((await revoke({ id: revoking!.id }, TOKEN)).error)}
      />
    </>
  );
}

function TokenModal({ customerId, onClose }: { customerId: string; onClose: () => void }) {
  const [name, setName] = useState("");
  const [token, setToken] = useState("");
  const { problems, check } = useProblems(["name"]);
  const [{ fetching }, create] = useMutation(CreateScimToken);
  return (
    <Modal opened onClose={onClose} title="New SCIM token" centered>
      {token ? (
        <SecretOnce label="token" secret={token} onDone={onClose} rotate="make a new one and revoke this one to replace it" />
      ) : (
        <form
          noValidate
          onSubmit={async (e) => {
            e.preventDefault();
            const res = await create({ customerId, name }, TOKEN);
            if (!check(res.error) || !res.data?.createScimToken) return;
            setToken(res.data.createScimToken.token);
          }}
        >
          <Stack>
            <TextInput label="Name" required value={name} onChange={(e) => setName(e.currentTarget.value)} error={problems.fields.name} data-autofocus />
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
