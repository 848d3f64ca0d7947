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
import { useTranslation } from "react-i18next";
import { tr } from "../i18n";

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
  const { t: tr } = useTranslation();
  return (
    <>
      <PageTitle>{tr("tenants.tenants")}</PageTitle>
      <TenantList />
    </>
  );
}

// TenantList lists tenants, of one customer when customerId is set, with
// the create and delete actions the caller's role holds.
export function TenantList({ customerId }: { customerId?: string }) {
  const { t: tr } = useTranslation();
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
          <Button onClick={() => setCreating(true)}>{tr("tenants.newTenant")}</Button>
        </Group>
      )}
      <PageError error={error} what={tr("tenants.theseTenants")} />
      {fetching && !data && <Loading />}
      {data && items.length === 0 && <Empty>{tr("tenants.thereAreNoTenantsHereYet")}</Empty>}
      {items.length > 0 && (
        <DataTable
          label={tr("tenants.tenants")}
          rows={items}
          rowKey={(t) => t.id}
          columns={[
            { label: tr("tenants.tenant2"), cell: (t) => <Link href={`${route.base}/tenants/${t.id}`}>{t.name}</Link> },
            {
              label: tr("tenants.customer"),
              cell: (t) => (t.customer ? <Link href={`${route.base}/customers/${t.customer.id}`}>{t.customer.name}</Link> : "—"),
            },
            { label: tr("tenants.created"), cell: (t) => formatTime(t.createdAt) },
            ...(caller.canWrite("DELETE_TENANT")
              ? [{
                  label: tr("tenants.actions"),
                  cell: (t: (typeof items)[number]) => (
                    <ActionIcon variant="subtle" color="red" aria-label={tr("tenants.deleteTenant", { name: t.name })} onClick={() => setDeleting(t)}>
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
        kind={tr("tenants.tenant")}
        name={deleting?.name ?? ""}
        consequence={tr("tenants.theTenantAndItsDataAre")}
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
    <Modal opened onClose={onClose} title={tr("tenants.newTenant")} centered>
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
              label={tr("tenants.customer")}
              required
              value={customer}
              onChange={(e) => setCustomer(e.currentTarget.value)}
              data={[{ value: "", label: tr("tenants.chooseACustomer") }, ...(customers?.customers.items ?? []).map((c) => ({ value: c.id, label: c.name }))]}
              error={problems.fields.customerId}
            />
          )}
          <TextInput label={tr("tenants.name")} required value={name} onChange={(e) => setName(e.currentTarget.value)} error={problems.fields.name} data-autofocus />
          {instances && (
            <NativeSelect
              label={tr("tenants.instance")}
              value={instance}
              onChange={(e) => setInstance(e.currentTarget.value)}
              data={[{ value: "", label: tr("tenants.none") }, ...instances.instances.items.map((i) => ({ value: i.id, label: i.name }))]}
              error={problems.fields.instanceId}
            />
          )}
          <FormErrors messages={problems.general} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>{tr("tenants.cancel")}</Button>
            <Button type="submit" loading={fetching}>{tr("tenants.createTenant")}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
