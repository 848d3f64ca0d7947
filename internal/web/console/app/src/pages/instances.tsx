import { useState } from "react";
import { Button, Group, Modal, NativeSelect, Stack, TextInput, Code } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import { lists } from "../cache";
import { useCaller } from "../me";
import { useProblems } from "../forms";
import { useRoute } from "../router";
import { DataTable } from "../table";
import { Empty, FormErrors, Link, Loading, PageError, PageTitle, Pager, formatTime } from "../ui";
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
    createInstance(input: $input) { id name url customerId createdAt }
  }
`);

const Customers = graphql(`
  query InstanceCustomers { customers(first: 100) { items { id name } } }
`);

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
            { label: "Instance", cell: (i) => i.name },
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
  const [{ data: customers }] = useQuery({ query: Customers, pause: !!customerId });
  const { problems, check } = useProblems(["name", "url", "customerId"]);
  const [{ fetching }, create] = useMutation(CreateInstance);
  return (
    <Modal opened onClose={onClose} title="New instance" centered>
      <form
        noValidate
        onSubmit={async (e) => {
          e.preventDefault();
          const res = await create({ input: { customerId: customer, name, url } }, { additionalTypenames: ["Instance"] });
          if (check(res.error)) onClose();
        }}
      >
        <Stack>
          {!customerId && (
            <NativeSelect
              label="Customer"
              required
              value={customer}
              onChange={(e) => setCustomer(e.currentTarget.value)}
              data={[{ value: "", label: "Choose a customer" }, ...(customers?.customers.items ?? []).map((c) => ({ value: c.id, label: c.name }))]}
              error={problems.fields.customerId}
            />
          )}
          <TextInput label="Name" required value={name} onChange={(e) => setName(e.currentTarget.value)} error={problems.fields.name} data-autofocus />
          <TextInput label="URL" required value={url} onChange={(e) => setUrl(e.currentTarget.value)} error={problems.fields.url} description="Where the tenant web app of this instance runs." />
          <FormErrors messages={problems.general} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={fetching}>Create instance</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
