import { useState } from "react";
import { Button, Code, Group, Modal, Stack, Text, TextInput, Title } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import { lists } from "../cache";
import { useCaller } from "../me";
import { messages, useProblems } from "../forms";
import { DataTable } from "../table";
import { ConfirmDelete, Empty, FormErrors, Loading, PageError, SecretOnce, formatTime } from "../ui";
import { useTranslation } from "react-i18next";
import { tr } from "../i18n";

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
  const { t: tr } = useTranslation();
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
      <PageError error={error} what={tr("scim.theDirectoryTokens")} />
      <Title order={2} size="h3" mt="md" mb="xs">{tr("scim.directoryProvisioningScim")}</Title>
      <Text mb="xs">
        {internal
          ? tr("scim.yourDirectoryCreatesChangesAndRemoves")
          : tr("scim.yourDirectoryEntraIdOktaCreates")}{" "}
        Tenant URL: <Code data-testid="scim-url">{window.location.origin + "/scim/v2"}</Code>
      </Text>
      <Group justify="space-between" mt="md" mb="xs">
        <Title order={3} size="h4">{tr("scim.tokens")}</Title>
        {write && <Button onClick={() => setCreating(true)}>{tr("scim.newToken")}</Button>}
      </Group>
      {data && tokens.length === 0 && <Empty>{tr("scim.noTokens")}</Empty>}
      {tokens.length > 0 && (
        <DataTable
          label={tr("scim.scimTokens")}
          rows={tokens}
          rowKey={(t) => t.id}
          columns={[
            { label: tr("scim.name"), cell: (t) => t.name },
            { label: tr("scim.created"), cell: (t) => formatTime(t.createdAt) },
            { label: tr("scim.lastUsed"), cell: (t) => formatTime(t.lastUsedAt) },
            { label: tr("scim.status"), cell: (t) => (t.revokedAt ? tr("scim.revoked", { revokedAt: formatTime(t.revokedAt) }) : "live") },
            ...(write ? [{ label: tr("scim.actions"), cell: (t: (typeof tokens)[number]) => !t.revokedAt && (
              <Button size="xs" variant="default" color="red" aria-label={tr("scim.revokeToken", { name: t.name })}
                onClick={() => setRevoking({ id: t.id, name: t.name })}>{tr("scim.revoke")}</Button>
            ) }] : []),
          ]}
        />
      )}
      {creating && <TokenModal customerId={customerId} onClose={() => setCreating(false)} />}
      <ConfirmDelete
        opened={!!revoking}
        onClose={() => setRevoking(null)}
        verb={tr("scim.revoke")}
        kind={tr("scim.token")}
        name={revoking?.name ?? ""}
        consequence={tr("scim.theDirectorySNextRequestWith")}
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
    <Modal opened onClose={onClose} title={tr("scim.newScimToken")} centered>
      {token ? (
        <SecretOnce label={tr("scim.token")} secret={token} onDone={onClose} rotate={tr("scim.makeANewOneAndRevoke")} />
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
            <TextInput label={tr("scim.name")} required value={name} onChange={(e) => setName(e.currentTarget.value)} error={problems.fields.name} data-autofocus />
            <FormErrors messages={problems.general} />
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>{tr("scim.cancel")}</Button>
              <Button type="submit" loading={fetching}>{tr("scim.createToken")}</Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
