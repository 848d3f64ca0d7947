import { useState } from "react";
import { ActionIcon, Button, Group, Modal, Stack, TextInput } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import { lists } from "../cache";
import { useCaller } from "../me";
import { messages, useProblems } from "../forms";
import { useQueryParam, useRoute } from "../router";
import { FIRST_PAGE, SearchBox } from "../search";
import { CustomerPicker, InstancePicker } from "../pickers";
import { DataTable } from "../table";
import { ConfirmDelete, Empty, FormErrors, Link, Loading, PageError, PageTitle, Pager, formatTime } from "../ui";
import { PAGE_SIZE } from "./customers";
import { useTranslation } from "react-i18next";
import { tr } from "../i18n";

const TenantsQuery = graphql(`
  query Tenants($customerId: ID, $instanceId: ID, $first: Int, $after: String, $search: String) {
    tenants(customerId: $customerId, instanceId: $instanceId, first: $first, after: $after, search: $search) {
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
  const [q] = useQueryParam("q");
  // the whole list filters by customer and instance; a customer's tab is one
  const [customer, setCustomer] = useQueryParam("customer");
  const [instance, setInstance] = useQueryParam("instance");
  const [{ data, fetching, error }] = useQuery({
    query: TenantsQuery,
    context: lists("Tenant"),
    variables: { customerId: customerId ?? (customer || null), instanceId: instance || null, first: PAGE_SIZE, after, search: q || null },
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
      <Group align="flex-end" wrap="wrap" mb="md" gap="md">
        <SearchBox label={tr("lists.searchTenants")} mb={0} w={280} />
        {!customerId && caller.internal && (
          <CustomerPicker label={tr("lists.customer")} placeholder={tr("lists.allCustomers")} clearable w={260}
            value={customer || null} onChange={(v) => setCustomer(v ?? "", FIRST_PAGE)} />
        )}
        {caller.can("MANAGE_INSTANCES") && (
          <InstancePicker label={tr("lists.instance")} placeholder={tr("lists.allInstances")} clearable w={260}
            customerId={customerId ?? (customer || null)} value={instance || null} onChange={(v) => setInstance(v ?? "", FIRST_PAGE)} />
        )}
      </Group>
      <PageError error={error} what={tr("tenants.theseTenants")} />
      {fetching && !data && <Loading />}
      {data && items.length === 0 && <Empty>{q || customer || instance ? tr("lists.noTenantMatches") : tr("tenants.thereAreNoTenantsHereYet")}</Empty>}
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
            <CustomerPicker label={tr("tenants.customer")} required placeholder={tr("tenants.chooseACustomer")}
              value={customer || null} onChange={(v) => { setCustomer(v ?? ""); setInstance(""); }} error={problems.fields.customerId} />
          )}
          <TextInput label={tr("tenants.name")} required value={name} onChange={(e) => setName(e.currentTarget.value)} error={problems.fields.name} data-autofocus />
          {customer && caller.can("MANAGE_INSTANCES") && (
            <InstancePicker key={customer} customerId={customer} label={tr("tenants.instance")} placeholder={tr("tenants.none")} clearable
              value={instance || null} onChange={(v) => setInstance(v ?? "")} error={problems.fields.instanceId} />
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
