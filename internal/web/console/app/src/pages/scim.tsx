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
  const { t: tr } = useTranslation();
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
      <PageError error={error} what={tr("scim.theDirectoryTokens")} />
      <Title order={2} size="h3" mt="md" mb="xs">{tr("scim.directoryProvisioningScim")}</Title>
      <Text mb="xs">
        Your directory (Entra ID, Okta, …) creates, changes and removes users and groups here. Tenant URL:{" "}
        <Code data-testid="scim-url">{window.location.origin + "/scim/v2"}</Code>
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
    <Modal opened onClose={onClose} title={tr("scim.newScimToken")} centered>
      {token ? (
        <SecretOnce label={tr("scim.token")} secret={token} onDone={onClose} rotate={tr("scim.makeANewOneAndRevoke")} />
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
