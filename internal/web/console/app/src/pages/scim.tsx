import { useState } from "react";
import { Button, Code, Group, Modal, Stack, Text, TextInput, Title } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import { lists } from "../cache";
import { useCaller } from "../me";
import { messages, useProblems } from "../forms";
import { DataTable } from "../table";
import { ConfirmDelete, Empty, FormErrors, Loading, PageError, SecretOnce, formatTime } from "../ui";

// A directory's connection (SCIM, docs/scim.md): the tenant URL, the
// tokens with their last use, a new token shown once, revoking. A
// customer's, or, without a customer, the administrator organization's,
// which provisions internal users and internal groups.

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

const InternalScimTokensQuery = graphql(`
  query InternalScimTokens {
    internalScimTokens { id name createdAt lastUsedAt revokedAt }
  }
`);
const CreateInternalScimToken = graphql(`
  mutation CreateInternalScimToken($name: String!) {
    createInternalScimToken(name: $name) { token scimToken { id name } }
  }
`);
const RevokeInternalScimToken = graphql(`
  mutation RevokeInternalScimToken($id: ID!) { revokeInternalScimToken(id: $id) }
`);

const TOKEN = { additionalTypenames: ["ScimToken"] };

export function ScimTokens({ customerId }: { customerId?: string }) {
  const caller = useCaller();
  const internal = !customerId;
  const write = caller.canWrite(internal ? "MANAGE_INTERNAL_USERS" : "MANAGE_CUSTOMER_CONFIG");
  const [customer] = useQuery({ query: ScimTokensQuery, variables: { id: customerId ?? "" }, pause: internal, context: lists("ScimToken") });
  const [admin] = useQuery({ query: InternalScimTokensQuery, pause: !internal, context: lists("ScimToken") });
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<{ id: string; name: string } | null>(null);
  const [, revokeCustomer] = useMutation(RevokeScimToken);
  const [, revokeInternal] = useMutation(RevokeInternalScimToken);
  const { data, fetching, error } = internal ? admin : customer;
  if (fetching && !data) return <Loading />;
  const tokens = (internal ? admin.data?.internalScimTokens : customer.data?.customer?.scimTokens) ?? [];
  const revoke = (id: string) => (internal ? revokeInternal({ id }, TOKEN) : revokeCustomer({ id }, TOKEN));
  return (
    <>
      <PageError error={error} what="the directory tokens" />
      <Title order={2} size="h3" mt="md" mb="xs">Directory provisioning (SCIM)</Title>
      <Text mb="xs">
        {internal
          ? "Your directory creates, changes and removes internal users and internal groups here. A provisioned user holds no role of its own: bind roles and grants to its groups."
          : "Your directory (Entra ID, Okta, …) creates, changes and removes users and groups here."}{" "}
        Tenant URL: <Code data-testid="scim-url">{window.location.origin + "/scim/v2"}</Code>
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
        onConfirm={async () => messages((await revoke(revoking!.id)).error)}
      />
    </>
  );
}

function TokenModal({ customerId, onClose }: { customerId?: string; onClose: () => void }) {
  const [name, setName] = useState("");
  const [token, setToken] = useState("");
  const { problems, check } = useProblems(["name"]);
  const [{ fetching: creatingCustomer }, createCustomer] = useMutation(CreateScimToken);
  const [{ fetching: creatingInternal }, createInternal] = useMutation(CreateInternalScimToken);
  const fetching = creatingCustomer || creatingInternal;
  return (
    <Modal opened onClose={onClose} title="New SCIM token" centered>
      {token ? (
        <SecretOnce label="token" secret={token} onDone={onClose} rotate="make a new one and revoke this one to replace it" />
      ) : (
        <form
          noValidate
          onSubmit={async (e) => {
            e.preventDefault();
            if (customerId) {
              const res = await createCustomer({ customerId, name }, TOKEN);
              if (!check(res.error) || !res.data?.createScimToken) return;
              setToken(res.data.createScimToken.token);
              return;
            }
            const res = await createInternal({ name }, TOKEN);
            if (!check(res.error) || !res.data?.createInternalScimToken) return;
            setToken(res.data.createInternalScimToken.token);
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
