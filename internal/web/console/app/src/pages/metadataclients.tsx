import { useState } from "react";
import { Badge, Button, Code, Switch, Text, Title } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import { lists } from "../cache";
import { useCaller } from "../me";
import { messages } from "../forms";
import { DataTable } from "../table";
import { Empty, FormErrors, Loading, PageError, formatTime } from "../ui";
import { useTranslation } from "react-i18next";

// A customer's clients described by a client ID metadata document
// (D-client-metadata-documents; docs/idp.md): whether the customer accepts
// them, each client by its document's URL, name and last fetch, blocking
// and unblocking one.

const MetadataClientsQuery = graphql(`
  query MetadataClients($id: ID!) {
    customer(id: $id) {
      id
      clientMetadata { enabled }
      metadataClients { clientId name firstUsedAt lastFetchedAt blockedAt }
    }
  }
`);
const SetClientMetadata = graphql(`
  mutation SetClientMetadata($customerId: ID!, $enabled: Boolean!) {
    setClientMetadata(customerId: $customerId, enabled: $enabled) { enabled }
  }
`);
const BlockMetadataClient = graphql(`
  mutation BlockMetadataClient($customerId: ID!, $clientId: String!, $blocked: Boolean!) {
    blockMetadataClient(customerId: $customerId, clientId: $clientId, blocked: $blocked) { clientId blockedAt }
  }
`);

const CLIENTS = { additionalTypenames: ["MetadataClient", "ClientMetadataSetting"] };

export function MetadataClients({ customerId }: { customerId: string }) {
  const { t: tr } = useTranslation();
  const caller = useCaller();
  const write = caller.canWrite("MANAGE_CUSTOMER_CONFIG");
  const [{ data, fetching, error }] = useQuery({ query: MetadataClientsQuery, variables: { id: customerId },
    context: lists("MetadataClient", "ClientMetadataSetting") });
  const [setState, setEnabled] = useMutation(SetClientMetadata);
  const [, block] = useMutation(BlockMetadataClient);
  const [errors, setErrors] = useState<string[]>([]);
  if (fetching && !data) return <Loading />;
  const enabled = data?.customer?.clientMetadata?.enabled ?? false;
  const clients = data?.customer?.metadataClients ?? [];
  return (
    <>
      <PageError error={error} what={tr("metadataClients.theClients")} />
      <Title order={3} size="h4" mt="md" mb="xs">{tr("metadataClients.title")}</Title>
      <Text mb="xs">{tr("metadataClients.hint")}</Text>
      {data && (
        <Switch mb="md" label={tr("metadataClients.accept")} checked={enabled} data-testid="accept-metadata-documents"
          disabled={!write || setState.fetching}
          onChange={async (e) => setErrors(messages((await setEnabled({ customerId, enabled: e.currentTarget.checked }, CLIENTS)).error))} />
      )}
      <FormErrors messages={errors} />
      {data && clients.length === 0 && <Empty>{tr("metadataClients.none")}</Empty>}
      {clients.length > 0 && (
        <DataTable
          label={tr("metadataClients.title")}
          rows={clients}
          rowKey={(c) => c.clientId}
          columns={[
            { label: tr("metadataClients.name"), cell: (c) => <>{c.name} {c.blockedAt && <Badge color="red" variant="light" ml="xs">{tr("metadataClients.blocked")}</Badge>}</> },
            { label: tr("metadataClients.clientId"), cell: (c) => <Code>{c.clientId}</Code> },
            { label: tr("metadataClients.firstUsed"), cell: (c) => formatTime(c.firstUsedAt) },
            { label: tr("metadataClients.lastFetched"), cell: (c) => formatTime(c.lastFetchedAt) },
            ...(write ? [{ label: tr("metadataClients.actions"), cell: (c: (typeof clients)[number]) => (
              <Button size="xs" variant="default" color={c.blockedAt ? undefined : "red"}
                aria-label={tr(c.blockedAt ? "metadataClients.unblockOf" : "metadataClients.blockOf", { name: c.name })}
                onClick={async () => setErrors(messages((await block({ customerId, clientId: c.clientId, blocked: !c.blockedAt }, CLIENTS)).error))}>
                {c.blockedAt ? tr("metadataClients.unblock") : tr("metadataClients.block")}
              </Button>
            ) }] : []),
          ]}
        />
      )}
    </>
  );
}
