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
import { CustomerPicker, InstancePicker } from "../pickers";
import { useTranslation } from "react-i18next";
import { tr } from "../i18n";

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
  const { t: tr } = useTranslation();
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
  if (!t) return <Missing kind={tr("tenant.tenant")} error={error} />;
  const here = window.location.pathname + window.location.search;
  return (
    <>
      <PageTitle
        actions={caller.canWrite("TRANSFER_TENANT") && (
          <Button variant="outline" color="red" onClick={() => setTransferring(true)}>{tr("tenant.transferToAnotherCustomer")}</Button>
        )}
      >
        {t.name}
      </PageTitle>
      <PageError error={error} what={tr("tenant.partOfThisTenant")} />
      <Group gap="xl" mb="md" wrap="wrap">
        <Fact label={tr("tenant.customer")} testId="tenant-customer">
          {t.customer ? <Link href={`${route.base}/customers/${t.customer.id}`}>{t.customer.name}</Link> : t.customerId}
        </Fact>
        <Fact label={tr("tenant.instance")} mono>{t.instanceId ?? "none"}</Fact>
        <Fact label={tr("tenant.created")}>{formatTime(t.createdAt)}</Fact>
      </Group>
      <Tabs value={tab} onChange={(v) => navigate(withQuery(here, { tab: v }))} keepMounted={false}>
        <Tabs.List>
          {manage && <Tabs.Tab value="members">{tr("tenant.members")}</Tabs.Tab>}
          {manage && <Tabs.Tab value="settings">{tr("tenant.settings")}</Tabs.Tab>}
          {migrations && <Tabs.Tab value="migrations">{tr("tenant.migrations")}</Tabs.Tab>}
        </Tabs.List>
        <Tabs.Panel value="members" pt="md">
          <Members tenantId={t.id} members={t.members ?? []} users={t.customer?.users ?? null} write={write} />
        </Tabs.Panel>
        <Tabs.Panel value="settings" pt="md">
          <SettingsDocument label={tr("tenant.tenantSettings")} value={t.settings} write={write}
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
  const { t: tr } = useTranslation();
  const [, put] = useMutation(PutTenantMember);
  const [, remove] = useMutation(RemoveTenantMember);
  const [removing, setRemoving] = useState<Member | null>(null);
  const [rowErrors, setRowErrors] = useState<string[]>([]);
  return (
    <>
      <Title order={2} size="h3" mb="xs">{tr("tenant.members")}</Title>
      <FormErrors messages={rowErrors} />
      {members.length === 0 && <Empty>{tr("tenant.noMembersYetTheTenantS")}</Empty>}
      {members.length > 0 && (
        <DataTable
          label={tr("tenant.members")}
          rows={members}
          rowKey={(m) => m.userId}
          columns={[
            { label: tr("tenant.name"), cell: (m) => m.name },
            { label: tr("tenant.eMail"), cell: (m) => m.email },
            {
              label: tr("tenant.tenantRole"),
              cell: (m) => write ? (
                <NativeSelect size="xs" w={110} aria-label={tr("tenant.tenantRoleOf", { email: m.email })} value={m.role} data={TENANT_ROLES}
                  onChange={async (e) => setRowErrors(messages((await put({ id: tenantId, userId: m.userId, role: e.currentTarget.value }, TENANT)).error))} />
              ) : m.role,
            },
            { label: tr("tenant.added"), cell: (m) => formatTime(m.addedAt) },
            ...(write ? [{
              label: tr("tenant.actions"),
              cell: (m: Member) => <Button size="xs" variant="default" color="red" aria-label={tr("tenant.remove2", { email: m.email })} onClick={() => setRemoving(m)}>{tr("tenant.remove")}</Button>,
            }] : []),
          ]}
        />
      )}
      {write && users && <AddMember tenantId={tenantId} candidates={users.filter((u) => !members.some((m) => m.userId === u.id))} />}
      <ConfirmDelete
        opened={!!removing}
        onClose={() => setRemoving(null)}
        kind={tr("tenant.member")}
        verb={tr("tenant.remove")}
        name={removing?.email ?? ""}
        consequence={tr("tenant.theUserLosesTheTenantRole")}
        onConfirm={async () => messages((await remove({ id: tenantId, userId: removing!.userId }, TENANT)).error)}
      />
    </>
  );
}

function AddMember({ tenantId, candidates }: { tenantId: string; candidates: { id: string; email: string }[] }) {
  const { t: tr } = useTranslation();
  const [userId, setUserId] = useState("");
  const [role, setRole] = useState("member");
  const { problems, check } = useProblems(["userId", "role", "the user"]);
  const [{ fetching }, put] = useMutation(PutTenantMember);
  if (candidates.length === 0) return <Text size="sm" c="dimmed" mt="sm">{tr("tenant.everyUserOfTheCustomerIs")}</Text>;
  return (
    <form
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        if (check((await put({ id: tenantId, userId, role }, TENANT)).error)) setUserId("");
      }}
    >
      <Group align="flex-end" mt="md" wrap="wrap">
        <NativeSelect label={tr("tenant.user")} value={userId} onChange={(e) => setUserId(e.currentTarget.value)} w={260}
          data={[{ value: "", label: tr("tenant.chooseAUser") }, ...candidates.map((u) => ({ value: u.id, label: u.email }))]}
          error={problems.fields.userId ?? problems.fields["the user"]} />
        <NativeSelect label={tr("tenant.tenantRole")} value={role} onChange={(e) => setRole(e.currentTarget.value)} data={TENANT_ROLES} w={140}
          error={problems.fields.role} />
        <Button type="submit" loading={fetching}>{tr("tenant.addMember")}</Button>
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
  const { t: tr } = useTranslation();
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
            setDone(check(res.error) ? tr("tenant.migrationToRequested", { targetVersion: res.data?.triggerMigration?.targetVersion }) : "");
          }}
        >
          <Group align="flex-end" mb="md" wrap="wrap">
            <TextInput label={tr("tenant.targetVersion")} description={tr("tenant.aReleaseVersionOrLatest")} value={version}
              onChange={(e) => setVersion(e.currentTarget.value)} error={problems.fields.targetVersion} w={220} />
            <Button type="submit" loading={fetching}>{tr("tenant.triggerMigration")}</Button>
          </Group>
          <FormErrors messages={problems.general} />
          {done && <Text size="sm" role="status" mb="sm">{done}</Text>}
        </form>
      )}
      {rows.length === 0 && <Empty>{tr("tenant.noMigrationsRequestedForThisTenant")}</Empty>}
      {rows.length > 0 && (
        <DataTable
          label={tr("tenant.migrations")}
          rows={rows}
          rowKey={(m) => m.id}
          columns={[
            { label: tr("tenant.targetVersion"), cell: (m) => m.targetVersion },
            { label: tr("tenant.status"), cell: (m) => m.status },
            { label: tr("tenant.requested"), cell: (m) => formatTime(m.requestedAt) },
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
  const [, transfer] = useMutation(TransferTenant);
  return (
    <ConfirmedForm
      kind={tr("tenant.tenant")}
      verb={tr("tenant.transfer")}
      name={tenant.name}
      consequence={tr("tenant.theTenantItsDataAndMembers")}
      fields={["customerId", "instanceId"]}
      submit={async () => (await transfer({ id: tenant.id, input: { customerId: customer, ...(instance ? { instanceId: instance } : {}) } }, TENANT)).error}
      onClose={onClose}
    >
      {(p) => (
        <>
          <CustomerPicker label={tr("tenant.destinationCustomer")} placeholder={tr("tenant.chooseACustomer")} except={[tenant.customerId]}
            value={customer || null} error={p.fields.customerId} onChange={(v) => { setCustomer(v ?? ""); setInstance(""); }} />
          {customer && caller.can("MANAGE_INSTANCES") && (
            <InstancePicker key={customer} customerId={customer} label={tr("tenant.destinationInstance")} placeholder={tr("tenant.none")} clearable
              value={instance || null} error={p.fields.instanceId} onChange={(v) => setInstance(v ?? "")} />
          )}
        </>
      )}
    </ConfirmedForm>
  );
}
