import { useState } from "react";
import { ActionIcon, Button, Group, Modal, NativeSelect, Stack, TextInput } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import { lists } from "../cache";
import { useCaller } from "../me";
import { messages, useProblems } from "../forms";
import { useRoute } from "../router";
import { DataTable } from "../table";
import { ConfirmDelete, Empty, FormErrors, Link, Loading, PageError, PageTitle, Pager, formatTime } from "../ui";
import { PAGE_SIZE } from "./customers";

const TenantsQuery = graphql(`
  query Tenants($customerId: ID, $instanceId: ID, $first: Int, $after: String) {
    tenants(customerId: $customerId, instanceId: $instanceId, first: $first, after: $after) {
      items { id name customerId instanceId createdAt customer { id name } }
      nextCursor
    }
  }
`);

const CreateTenant = graphql(`
  mutation CreateTenant($input: CreateTenantInput!) {
    createTenant(input: $input) { id name customerId instanceId createdAt }
  }
`);

const DeleteTenant = graphql(`
  mutation DeleteTenant($id: ID!) { deleteTenant(id: $id) }
`);

export const CustomerChoices = graphql(`
  query CustomerChoices { customers(first: 100) { items { id name } } }
`);

export const InstanceChoices = graphql(`
  query InstanceChoices($customerId: ID) { instances(customerId: $customerId, first: 100) { items { id name } } }
`);

export function TenantsPage() {
  return (
    <>
      <PageTitle>Tenants</PageTitle>
      <TenantList />
    </>
  );
}

// TenantList lists tenants, of one customer when customerId is set, with
// the create and delete actions the caller's role holds.
export function TenantList({ customerId }: { customerId?: string }) {
  const caller = useCaller();
  const route = useRoute();
  const after = route.query.get("after") || null;
  const [{ data, fetching, error }] = useQuery({
    query: TenantsQuery,
    context: lists("Tenant"),
    variables: { customerId: customerId ?? null, first: PAGE_SIZE, after },
  });
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<{ id: string; name: string } | null>(null);
  const [, del] = useMutation(DeleteTenant);
  const items = data?.tenants.items ?? [];
  return (
    <>
      {caller.canWrite("CREATE_TENANT") && (
        <Group justify="flex-end" mb="sm">
          <Button onClick={() => setCreating(true)}>New tenant</Button>
        </Group>
      )}
      <PageError error={error} what="these tenants" />
      {fetching && !data && <Loading />}
      {data && items.length === 0 && <Empty>There are no tenants here yet.</Empty>}
      {items.length > 0 && (
        <DataTable
          label="Tenants"
          rows={items}
          rowKey={(t) => t.id}
          columns={[
            { label: "Tenant", cell: (t) => <Link href={`${route.base}/tenants/${t.id}`}>{t.name}</Link> },
            {
              label: "Customer",
              cell: (t) => (t.customer ? <Link href={`${route.base}/customers/${t.customer.id}`}>{t.customer.name}</Link> : "—"),
            },
            { label: "Created", cell: (t) => formatTime(t.createdAt) },
            ...(caller.canWrite("DELETE_TENANT")
              ? [{
                  label: "Actions",
                  cell: (t: (typeof items)[number]) => (
                    <ActionIcon variant="subtle" color="red" aria-label={`Delete tenant ${t.name}`} onClick={() => setDeleting(t)}>
                      ✕
                    </ActionIcon>
                  ),
                }]
              : []),
          ]}
        />
      )}
      <Pager next={data?.tenants.nextCursor} />
      {creating && <CreateTenantModal customerId={customerId} onClose={() => setCreating(false)} />}
      <ConfirmDelete
        opened={!!deleting}
        onClose={() => setDeleting(null)}
        kind="tenant"
        name={deleting?.name ?? ""}
        consequence="The tenant and its data are deleted. This cannot be undone."
        onConfirm={async () => messages((await del({ id: deleting!.id }, { additionalTypenames: ["Tenant"] })).error)}
      />
    </>
  );
}

function CreateTenantModal({ customerId, onClose }: { customerId?: string; onClose: () => void }) {
  const [name, setName] = useState("");
  const [customer, setCustomer] = useState(customerId ?? "");
  const [instance, setInstance] = useState("");
  const caller = useCaller();
  const [{ data: customers }] = useQuery({ query: CustomerChoices, pause: !!customerId });
  const [{ data: instances }] = useQuery({
    query: InstanceChoices,
    variables: { customerId: customer || null },
    pause: !customer || !caller.can("MANAGE_INSTANCES"),
  });
  const { problems, check } = useProblems(["name", "customerId", "instanceId"]);
  const [{ fetching }, create] = useMutation(CreateTenant);
  return (
    <Modal opened onClose={onClose} title="New tenant" centered>
      <form
        noValidate
        onSubmit={async (e) => {
          e.preventDefault();
          const res = await create({ input: { name, customerId: customer, ...(instance ? { instanceId: instance } : {}) } }, { additionalTypenames: ["Tenant"] });
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
          {instances && (
            <NativeSelect
              label="Instance"
              value={instance}
              onChange={(e) => setInstance(e.currentTarget.value)}
              data={[{ value: "", label: "None" }, ...instances.instances.items.map((i) => ({ value: i.id, label: i.name }))]}
              error={problems.fields.instanceId}
            />
          )}
          <FormErrors messages={problems.general} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={fetching}>Create tenant</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
