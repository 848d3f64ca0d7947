// Grants of account managers and QA administrators (MANAGE_INTERNAL_USERS):
// the list with its filters in the URL; full access creates a grant,
// picking the user and the customer or instance from searchable lists, and
// removes one (typed name).
import { useState } from "react";
import { ActionIcon, Button, Group, Select } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import { lists } from "../cache";
import { useCaller } from "../me";
import { messages, useProblems } from "../forms";
import { ModalForm } from "../modalform";
import { CustomerPicker, INLINE, InstancePicker } from "../pickers";
import { useQueryParam } from "../router";
import { DataTable } from "../table";
import { ConfirmDelete, Empty, Loading, PageError, PageTitle, formatTime } from "../ui";
import { useTranslation } from "react-i18next";
import { tr } from "../i18n";

const GrantsQuery = graphql(`
  query Grants($userId: ID, $customerId: ID) {
    grants(userId: $userId, customerId: $customerId) {
      granteeType granteeId customerId instanceId grantedBy grantedAt
      user { id email name role }
      customer { id name }
      instance { id name }
    }
  }
`);

const CreateGrant = graphql(`
  mutation CreateGrant($input: GrantInput!) {
    createGrant(input: $input) { granteeType granteeId customerId instanceId grantedAt }
  }
`);

const DeleteGrant = graphql(`
  mutation DeleteGrant($userId: ID!, $customerId: ID, $instanceId: ID) {
    deleteGrant(userId: $userId, customerId: $customerId, instanceId: $instanceId)
  }
`);

// The users a grant may name, for the filter and the form: the API's largest
// page (1000); the platform's staff stays far below (D-console-grantee-select).
// Customers and instances can outgrow any page: their selects ask the server
// as the user types (RemoteSelect).
const Choices = graphql(`
  query GrantChoices {
    internalUsers(first: 1000) { items { id email name role suspendedAt } }
  }
`);
// GRANTEE_ROLES are the scoped internal roles grants are for (R5.7-strict).
export const GRANTEE_ROLES = ["account_manager", "qa_admin"];

type GrantRow = {
  granteeId: string;
  customerId?: string | null;
  instanceId?: string | null;
  grantedAt: string;
  user?: { email: string; name: string; role: string } | null;
  customer?: { name: string } | null;
  instance?: { name: string } | null;
};

// granteeChoices lists the users a grant may be given to, as a search
// select shows them: active account managers and QA administrators.
export function granteeChoices(users: { id: string; email: string; name: string; role: string; suspendedAt?: string | null }[]) {
  return users
    .filter((u) => GRANTEE_ROLES.includes(u.role) && !u.suspendedAt)
    .map((u) => ({ value: u.id, label: `${u.name} <${u.email}> · ${u.role.replace("_", " ")}` }))
    .sort((a, b) => a.label.localeCompare(b.label));
}


export function GrantsPage() {
  const { t: tr } = useTranslation();
  const caller = useCaller();
  const [user, setUser] = useQueryParam("user");
  const [customer, setCustomer] = useQueryParam("customer");
  const [{ data, fetching, error }] = useQuery({
    query: GrantsQuery,
    context: lists("Grant"),
    variables: { userId: user || null, customerId: customer || null },
  });
  const [{ data: choices }] = useQuery({ query: Choices });
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<GrantRow | null>(null);
  const [, del] = useMutation(DeleteGrant);
  const items = data?.grants ?? [];
  const write = caller.canWrite("MANAGE_INTERNAL_USERS");
  const target = (g: GrantRow) => (g.customerId ? g.customer?.name ?? g.customerId : "instance " + (g.instance?.name ?? g.instanceId));
  const who = (g: GrantRow) => g.user?.email ?? g.granteeId;
  return (
    <>
      <PageTitle actions={write && <Button onClick={() => setCreating(true)}>{tr("grants.newGrant")}</Button>}>{tr("grants.grants")}</PageTitle>
      <Group mb="md" wrap="wrap">
        <Select comboboxProps={INLINE} label={tr("grants.user")} placeholder={tr("grants.allUsers")} searchable clearable w={320}
          data={granteeChoices(choices?.internalUsers.items ?? [])} value={user || null} onChange={(v) => setUser(v ?? "")} />
        <CustomerPicker label={tr("grants.customer")} placeholder={tr("grants.allCustomers")} clearable w={320}
          value={customer || null} onChange={(v) => setCustomer(v ?? "")} />
      </Group>
      <PageError error={error} what={tr("grants.theGrants")} />
      {fetching && !data && <Loading />}
      {data && items.length === 0 && <Empty>{tr("grants.noGrantsForTheseFilters")}</Empty>}
      {items.length > 0 && (
        <DataTable
          label={tr("grants.grants")}
          rows={items}
          rowKey={(g) => g.granteeId + (g.customerId ?? "") + (g.instanceId ?? "")}
          columns={[
            { label: tr("grants.user"), cell: (g) => (g.user ? `${g.user.name} (${g.user.email})` : g.granteeId) },
            { label: tr("grants.role"), cell: (g) => g.user?.role ?? "—" },
            { label: tr("grants.grantedOn"), cell: (g) => target(g) },
            { label: tr("grants.since"), cell: (g) => formatTime(g.grantedAt) },
            ...(write
              ? [{
                  label: tr("grants.actions"),
                  cell: (g: GrantRow) => (
                    <ActionIcon variant="subtle" color="red" aria-label={tr("grants.removeGrantOfOn", { who: who(g), target: target(g) })} onClick={() => setDeleting(g)}>
                      ✕
                    </ActionIcon>
                  ),
                }]
              : []),
          ]}
        />
      )}
      {creating && <CreateGrantModal users={granteeChoices(choices?.internalUsers.items ?? [])} onClose={() => setCreating(false)} />}
      <ConfirmDelete
        opened={!!deleting}
        onClose={() => setDeleting(null)}
        kind={tr("grants.grantOn")}
        verb={tr("grants.remove")}
        name={deleting ? target(deleting) : ""}
        consequence={tr("grants.theUserLosesAccessToIt")}
        onConfirm={async () =>
          messages((await del({ userId: deleting!.granteeId, customerId: deleting!.customerId ?? null, instanceId: deleting!.instanceId ?? null }, { additionalTypenames: ["Grant"] })).error)
        }
      />
    </>
  );
}

function CreateGrantModal({ users, onClose }: { users: { value: string; label: string }[]; onClose: () => void }) {
  const [userId, setUserId] = useState<string | null>(null);
  const [customerId, setCustomerId] = useState<string | null>(null);
  const [instanceId, setInstanceId] = useState<string | null>(null);
  const { problems, check } = useProblems(["userId", "customerId", "instanceId"]);
  const [{ fetching }, create] = useMutation(CreateGrant);
  return (
    <ModalForm title={tr("grants.newGrant")} submit={tr("grants.grant")} busy={fetching} errors={problems.general} onClose={onClose}
      onSubmit={async () => {
        const res = await create({ input: { userId: userId ?? "", customerId, instanceId } }, { additionalTypenames: ["Grant"] });
        if (check(res.error)) onClose();
      }}>
      <Select comboboxProps={INLINE} label={tr("grants.user")} description={tr("grants.anAccountManagerOrQaAdministrator")} required searchable
        data={users} value={userId} onChange={setUserId} nothingFoundMessage={tr("grants.noAccountManagerOrQaAdministrator")}
        error={problems.fields.userId} data-autofocus />
      <CustomerPicker label={tr("grants.customer")} description={tr("grants.theCustomerTheUserMayAct")} clearable
        value={customerId}
        onChange={(v) => { setCustomerId(v); if (v) setInstanceId(null); }} error={problems.fields.customerId} />
      <InstancePicker label={tr("grants.instance")} description={tr("grants.orForAQaAdministratorOne")} clearable
        value={instanceId}
        onChange={(v) => { setInstanceId(v); if (v) setCustomerId(null); }} error={problems.fields.instanceId} />
    </ModalForm>
  );
}
