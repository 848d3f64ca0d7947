import { useState } from "react";
import { Button, Group, NativeSelect, Tabs, Text, TextInput, Title } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import { lists } from "../cache";
import { useCaller } from "../me";
import { messages, useProblems } from "../forms";
import { navigate, useRoute, withQuery } from "../router";
import { chooseTab } from "../tabs";
import { DataTable } from "../table";
import { ConfirmDelete, Empty, Fact, FormErrors, Link, Loading, Missing, PageError, PageTitle, formatTime } from "../ui";
import { ConfirmedForm } from "./confirm";
import { SettingsDocument } from "./jsondoc";
import { CustomerChoices, InstanceChoices } from "./tenants";

const TenantQuery = graphql(`
  query TenantDetail($id: ID!, $manage: Boolean!, $users: Boolean!, $migrations: Boolean!) {
    tenant(id: $id) {
      id
      name
      customerId
      instanceId
      createdAt
      settings @include(if: $manage)
      customer { id name users @include(if: $users) { id email name status } }
      members @include(if: $manage) { userId email name role addedAt }
      migrations @include(if: $migrations) { id targetVersion status requestedAt }
    }
  }
`);

const PutTenantSettings = graphql(`
  mutation PutTenantSettings($id: ID!, $settings: JSON!) { putTenantSettings(id: $id, settings: $settings) }
`);
const PutTenantMember = graphql(`
  mutation PutTenantMember($id: ID!, $userId: ID!, $role: String!) {
    putTenantMember(id: $id, userId: $userId, role: $role) { userId role }
  }
`);
const RemoveTenantMember = graphql(`
  mutation RemoveTenantMember($id: ID!, $userId: ID!) { removeTenantMember(id: $id, userId: $userId) }
`);
const TransferTenant = graphql(`
  mutation TransferTenant($id: ID!, $input: TransferTenantInput!) {
    transferTenant(id: $id, input: $input) { id customerId instanceId }
  }
`);
const TriggerMigration = graphql(`
  mutation TriggerMigration($id: ID!, $targetVersion: String!) {
    triggerMigration(id: $id, targetVersion: $targetVersion) { id targetVersion status requestedAt }
  }
`);

export const TENANT_ROLES = ["admin", "member", "viewer"];
const TENANT = { additionalTypenames: ["Tenant"] };

// TenantPage is one tenant: its customer, members, settings document and
// schema migrations, with the actions the caller's role holds. A role that
// only triggers migrations (infra_ops) sees the tenant and its migrations.
export function TenantPage({ id }: { id: string }) {
  const caller = useCaller();
  const route = useRoute();
  const manage = caller.can("MANAGE_TENANT");
  const migrations = caller.can("TRIGGER_MIGRATION");
  const [{ data, fetching, error }] = useQuery({
    query: TenantQuery,
    variables: { id, manage, users: manage && caller.can("MANAGE_CUSTOMER_USER"), migrations },
    context: lists("Tenant"),
  });
  const [transferring, setTransferring] = useState(false);
  const [, putSettings] = useMutation(PutTenantSettings);
  const write = caller.canWrite("MANAGE_TENANT");
  const tab = chooseTab([...(manage ? ["members", "settings"] : []), ...(migrations ? ["migrations"] : [])], route.query.get("tab"));
  if (fetching && !data) return <Loading />;
  const t = data?.tenant;
  if (!t) return <Missing kind="tenant" error={error} />;
  const here = window.location.pathname + window.location.search;
  return (
    <>
      <PageTitle
        actions={caller.canWrite("TRANSFER_TENANT") && (
          <Button variant="outline" color="red" onClick={() => setTransferring(true)}>Transfer to another customer</Button>
        )}
      >
        {t.name}
      </PageTitle>
      <PageError error={error} what="part of this tenant" />
      <Group gap="xl" mb="md" wrap="wrap">
        <Fact label="Customer" testId="tenant-customer">
          {t.customer ? <Link href={`${route.base}/customers/${t.customer.id}`}>{t.customer.name}</Link> : t.customerId}
        </Fact>
        <Fact label="Instance" mono>{t.instanceId ?? "none"}</Fact>
        <Fact label="Created">{formatTime(t.createdAt)}</Fact>
      </Group>
      <Tabs value={tab} onChange={(v) => navigate(withQuery(here, { tab: v }), { replace: true })} keepMounted={false}>
        <Tabs.List>
          {manage && <Tabs.Tab value="members">Members</Tabs.Tab>}
          {manage && <Tabs.Tab value="settings">Settings</Tabs.Tab>}
          {migrations && <Tabs.Tab value="migrations">Migrations</Tabs.Tab>}
        </Tabs.List>
        <Tabs.Panel value="members" pt="md">
          <Members tenantId={t.id} members={t.members ?? []} users={t.customer?.users ?? null} write={write} />
        </Tabs.Panel>
        <Tabs.Panel value="settings" pt="md">
          <SettingsDocument label="Tenant settings" value={t.settings} write={write}
            save={async (doc) => (await putSettings({ id: t.id, settings: doc }, TENANT)).error} />
        </Tabs.Panel>
        <Tabs.Panel value="migrations" pt="md">
          <Migrations tenantId={t.id} rows={t.migrations ?? []} write={caller.canWrite("TRIGGER_MIGRATION")} />
        </Tabs.Panel>
      </Tabs>
      {transferring && <TransferModal tenant={t} onClose={() => setTransferring(false)} />}
    </>
  );
}

type Member = { userId: string; email: string; name: string; role: string; addedAt: string };

function Members({ tenantId, members, users, write }: {
  tenantId: string;
  members: Member[];
  users: { id: string; email: string; name: string; status: string }[] | null;
  write: boolean;
}) {
  const [, put] = useMutation(PutTenantMember);
  const [, remove] = useMutation(RemoveTenantMember);
  const [removing, setRemoving] = useState<Member | null>(null);
  const [rowErrors, setRowErrors] = useState<string[]>([]);
  return (
    <>
      <Title order={2} size="h3" mb="xs">Members</Title>
      <FormErrors messages={rowErrors} />
      {members.length === 0 && <Empty>No members yet: the tenant's users reach it through their customer role only.</Empty>}
      {members.length > 0 && (
        <DataTable
          label="Members"
          rows={members}
          rowKey={(m) => m.userId}
          columns={[
            { label: "Name", cell: (m) => m.name },
            { label: "E-mail", cell: (m) => m.email },
            {
              label: "Tenant role",
              cell: (m) => write ? (
                <NativeSelect size="xs" w={110} aria-label={`Tenant role of ${m.email}`} value={m.role} data={TENANT_ROLES}
                  onChange={async (e) => setRowErrors(messages((await put({ id: tenantId, userId: m.userId, role: e.currentTarget.value }, TENANT)).error))} />
              ) : m.role,
            },
            { label: "Added", cell: (m) => formatTime(m.addedAt) },
            ...(write ? [{
              label: "Actions",
              cell: (m: Member) => <Button size="xs" variant="default" color="red" aria-label={`Remove ${m.email}`} onClick={() => setRemoving(m)}>Remove</Button>,
            }] : []),
          ]}
        />
      )}
      {write && users && <AddMember tenantId={tenantId} candidates={users.filter((u) => !members.some((m) => m.userId === u.id))} />}
      <ConfirmDelete
        opened={!!removing}
        onClose={() => setRemoving(null)}
        kind="member"
        verb="Remove"
        name={removing?.email ?? ""}
        consequence="The user loses the tenant role; their customer role stays."
        onConfirm={async () => messages((await remove({ id: tenantId, userId: removing!.userId }, TENANT)).error)}
      />
    </>
  );
}

function AddMember({ tenantId, candidates }: { tenantId: string; candidates: { id: string; email: string }[] }) {
  const [userId, setUserId] = useState("");
  const [role, setRole] = useState("member");
  const { problems, check } = useProblems(["userId", "role", "the user"]);
  const [{ fetching }, put] = useMutation(PutTenantMember);
  if (candidates.length === 0) return <Text size="sm" c="gray.7" mt="sm">Every user of the customer is a member.</Text>;
  return (
    <form
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        if (check((await put({ id: tenantId, userId, role }, TENANT)).error)) setUserId("");
      }}
    >
      <Group align="flex-end" mt="md" wrap="wrap">
        <NativeSelect label="User" value={userId} onChange={(e) => setUserId(e.currentTarget.value)} w={260}
          data={[{ value: "", label: "Choose a user" }, ...candidates.map((u) => ({ value: u.id, label: u.email }))]}
          error={problems.fields.userId ?? problems.fields["the user"]} />
        <NativeSelect label="Tenant role" value={role} onChange={(e) => setRole(e.currentTarget.value)} data={TENANT_ROLES} w={140}
          error={problems.fields.role} />
        <Button type="submit" loading={fetching}>Add member</Button>
      </Group>
      <FormErrors messages={problems.general} />
    </form>
  );
}

function Migrations({ tenantId, rows, write }: {
  tenantId: string;
  rows: { id: string; targetVersion: string; status: string; requestedAt: string }[];
  write: boolean;
}) {
  const [version, setVersion] = useState("latest");
  const { problems, check } = useProblems(["targetVersion"]);
  const [{ fetching }, trigger] = useMutation(TriggerMigration);
  const [done, setDone] = useState("");
  return (
    <>
      {write && (
        <form
          noValidate
          onSubmit={async (e) => {
            e.preventDefault();
            const res = await trigger({ id: tenantId, targetVersion: version }, TENANT);
            setDone(check(res.error) ? `Migration to ${res.data?.triggerMigration?.targetVersion} requested.` : "");
          }}
        >
          <Group align="flex-end" mb="md" wrap="wrap">
            <TextInput label="Target version" description="A release version, or latest" value={version}
              onChange={(e) => setVersion(e.currentTarget.value)} error={problems.fields.targetVersion} w={220} />
            <Button type="submit" loading={fetching}>Trigger migration</Button>
          </Group>
          <FormErrors messages={problems.general} />
          {done && <Text size="sm" role="status" mb="sm">{done}</Text>}
        </form>
      )}
      {rows.length === 0 && <Empty>No migrations requested for this tenant.</Empty>}
      {rows.length > 0 && (
        <DataTable
          label="Migrations"
          rows={rows}
          rowKey={(m) => m.id}
          columns={[
            { label: "Target version", cell: (m) => m.targetVersion },
            { label: "Status", cell: (m) => m.status },
            { label: "Requested", cell: (m) => formatTime(m.requestedAt) },
          ]}
        />
      )}
    </>
  );
}

function TransferModal({ tenant, onClose }: { tenant: { id: string; name: string; customerId: string }; onClose: () => void }) {
  const caller = useCaller();
  const [customer, setCustomer] = useState("");
  const [instance, setInstance] = useState("");
  const [{ data: customers }] = useQuery({ query: CustomerChoices });
  const [{ data: instances }] = useQuery({
    query: InstanceChoices,
    variables: { customerId: customer || null },
    pause: !customer || !caller.can("MANAGE_INSTANCES"),
  });
  const [, transfer] = useMutation(TransferTenant);
  return (
    <ConfirmedForm
      kind="tenant"
      verb="Transfer"
      name={tenant.name}
      consequence="The tenant, its data and members move to the destination customer; its present customer loses access at once."
      fields={["customerId", "instanceId"]}
      submit={async () => (await transfer({ id: tenant.id, input: { customerId: customer, ...(instance ? { instanceId: instance } : {}) } }, TENANT)).error}
      onClose={onClose}
    >
      {(p) => (
        <>
          <NativeSelect label="Destination customer" value={customer} error={p.fields.customerId}
            onChange={(e) => { setCustomer(e.currentTarget.value); setInstance(""); }}
            data={[{ value: "", label: "Choose a customer" },
              ...(customers?.customers.items ?? []).filter((c) => c.id !== tenant.customerId).map((c) => ({ value: c.id, label: c.name }))]} />
          {instances && (
            <NativeSelect label="Destination instance" value={instance} error={p.fields.instanceId}
              onChange={(e) => setInstance(e.currentTarget.value)}
              data={[{ value: "", label: "None" }, ...instances.instances.items.map((i) => ({ value: i.id, label: i.name }))]} />
          )}
        </>
      )}
    </ConfirmedForm>
  );
}
