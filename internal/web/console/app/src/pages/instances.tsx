// Instances (MANAGE_INSTANCES): the list, an instance's page with its
// connection, and for full access create (a confidential application's
// client secret shown once), edit, delete (typed name), connection repair
// and rotation; the database URI for roles holding RESOLVE_DATABASE_URI.
import { useState } from "react";
import { Button, Checkbox, Code, Group, Modal, NativeSelect, TextInput } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import { lists } from "../cache";
import { useCaller } from "../me";
import { useProblems } from "../forms";
import { ModalForm, optional } from "../modalform";
import { useRoute } from "../router";
import { DataTable } from "../table";
import { Empty, Link, Loading, PageError, PageTitle, Pager, SecretOnce, formatTime } from "../ui";
import { PAGE_SIZE } from "./customers";

const InstancesQuery = graphql(`
  query Instances($customerId: ID, $first: Int, $after: String) {
    instances(customerId: $customerId, first: $first, after: $after) {
      items { id name url createdAt customer { id name } connection { oidcClientId oidcRedirectUri idpAppId updatedAt } }
      nextCursor
    }
  }
`);

const CreateInstance = graphql(`
  mutation CreateInstance($input: CreateInstanceInput!) {
    createInstance(input: $input) { id name url customerId createdAt clientSecret }
  }
`);

const Customers = graphql(`
  query InstanceCustomers { customers(first: 100) { items { id name } } }
`);

// The application types createInstance accepts (appAuthMethod).
export const APP_TYPES = [
  { value: "none", label: "Public: the tenant web app, PKCE in the browser" },
  { value: "client_secret_basic", label: "Confidential: server-side app, secret in HTTP Basic" },
  { value: "client_secret_post", label: "Confidential: server-side app, secret in the form body" },
];

export function InstancesPage() {
  return (
    <>
      <PageTitle>Instances</PageTitle>
      <InstanceList />
    </>
  );
}

export function InstanceList({ customerId }: { customerId?: string }) {
  const caller = useCaller();
  const route = useRoute();
  const after = route.query.get("after") || null;
  const [{ data, fetching, error }] = useQuery({
    query: InstancesQuery,
    context: lists("Instance"),
    variables: { customerId: customerId ?? null, first: PAGE_SIZE, after },
  });
  const [creating, setCreating] = useState(false);
  const items = data?.instances.items ?? [];
  return (
    <>
      {caller.canWrite("MANAGE_INSTANCES") && (
        <Group justify="flex-end" mb="sm">
          <Button onClick={() => setCreating(true)}>New instance</Button>
        </Group>
      )}
      <PageError error={error} what="these instances" />
      {fetching && !data && <Loading />}
      {data && items.length === 0 && <Empty>There are no instances here yet.</Empty>}
      {items.length > 0 && (
        <DataTable
          label="Instances"
          rows={items}
          rowKey={(i) => i.id}
          columns={[
            { label: "Instance", cell: (i) => <Link href={`${route.base}/instances/${i.id}`}>{i.name}</Link> },
            { label: "Customer", cell: (i) => (i.customer ? <Link href={`${route.base}/customers/${i.customer.id}`}>{i.customer.name}</Link> : "—") },
            { label: "URL", cell: (i) => i.url },
            { label: "Client id", cell: (i) => (i.connection ? <Code>{i.connection.oidcClientId}</Code> : "—") },
            { label: "Created", cell: (i) => formatTime(i.createdAt) },
          ]}
        />
      )}
      <Pager next={data?.instances.nextCursor} />
      {creating && <CreateInstanceModal customerId={customerId} onClose={() => setCreating(false)} />}
    </>
  );
}

function CreateInstanceModal({ customerId, onClose }: { customerId?: string; onClose: () => void }) {
  const [customer, setCustomer] = useState(customerId ?? "");
  const [name, setName] = useState("");
  const [url, setUrl] = useState("https://");
  const [databaseUri, setDatabaseUri] = useState("");
  const [method, setMethod] = useState("none");
  const [requireDpop, setRequireDpop] = useState(false);
  const [secret, setSecret] = useState("");
  const [{ data: customers }] = useQuery({ query: Customers, pause: !!customerId });
  const { problems, check } = useProblems(["name", "url", "customerId", "databaseUri", "appAuthMethod", "requireDpop"]);
  const [{ fetching }, create] = useMutation(CreateInstance);
  if (secret) {
    return (
      <Modal opened onClose={onClose} title="Instance created" centered>
        <SecretOnce label="client secret" secret={secret} onDone={onClose} rotate="the console cannot show it again, but you can rotate it on the instance's page" />
      </Modal>
    );
  }
  return (
    <ModalForm title="New instance" submit="Create instance" busy={fetching} errors={problems.general} onClose={onClose}
      onSubmit={async () => {
        const input = { customerId: customer, name, url, databaseUri: optional(databaseUri), appAuthMethod: method, requireDpop };
        const res = await create({ input }, { additionalTypenames: ["Instance"] });
        if (!check(res.error)) return;
        if (res.data?.createInstance?.clientSecret) setSecret(res.data.createInstance.clientSecret);
        else onClose();
      }}>
      {!customerId && (
        <NativeSelect label="Customer" required value={customer} onChange={(e) => setCustomer(e.currentTarget.value)}
          data={[{ value: "", label: "Choose a customer" }, ...(customers?.customers.items ?? []).map((c) => ({ value: c.id, label: c.name }))]}
          error={problems.fields.customerId} />
      )}
      <TextInput label="Name" required value={name} onChange={(e) => setName(e.currentTarget.value)} error={problems.fields.name} data-autofocus />
      <TextInput label="URL" required value={url} onChange={(e) => setUrl(e.currentTarget.value)} error={problems.fields.url}
        description="Where the tenant web app of this instance runs." />
      <NativeSelect label="Application type" value={method} onChange={(e) => setMethod(e.currentTarget.value)} data={APP_TYPES}
        error={problems.fields.appAuthMethod} />
      <Checkbox label="Require DPoP" checked={requireDpop} onChange={(e) => setRequireDpop(e.currentTarget.checked)}
        description="Tokens only with a DPoP proof, bound to the client's key (RFC 9449)." error={problems.fields.requireDpop} />
      <TextInput label="Database URI" value={databaseUri} onChange={(e) => setDatabaseUri(e.currentTarget.value)} error={problems.fields.databaseUri}
        description="Optional; kept sealed." type="password" autoComplete="off" />
    </ModalForm>
  );
}
