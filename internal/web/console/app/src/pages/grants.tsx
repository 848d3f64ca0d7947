// Grants of account managers and QA administrators (MANAGE_INTERNAL_USERS):
// the list with its filters in the URL; full access creates a grant,
// picking the user and the customer or instance from searchable lists, and
// removes one (typed name).
import { useState } from "react";
import { ActionIcon, Button, Group, NativeSelect, Select } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import { lists } from "../cache";
import { useCaller } from "../me";
import { messages, useProblems } from "../forms";
import { ModalForm } from "../modalform";
import { useQueryParam } from "../router";
import { DataTable } from "../table";
import { ConfirmDelete, Empty, Loading, PageError, PageTitle, formatTime } from "../ui";

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

// The customers and users a grant may name, for the filters and the form,
// and the instances it may cover (asked when the form opens): the API's
// largest page (1000); the platform's staff and instances stay far below
// (D-console-grantee-select).
const Choices = graphql(`
  query GrantChoices {
    customers(first: 1000) { items { id name } }
    internalUsers(first: 1000) { items { id email name role suspendedAt } }
  }
`);
const GrantInstances = graphql(`
  query GrantInstances { instances(first: 1000) { items { id name customer { name } } } }
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

// The selects' option lists open in place (not in a portal at the page's
// end), so they stay within the page's or dialog's landmark.
const INLINE = { withinPortal: false };

export function GrantsPage() {
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
      <PageTitle actions={write && <Button onClick={() => setCreating(true)}>New grant</Button>}>Grants</PageTitle>
      <Group mb="md" wrap="wrap">
        <Select comboboxProps={INLINE} label="User" placeholder="All users" searchable clearable w={320}
          data={granteeChoices(choices?.internalUsers.items ?? [])} value={user || null} onChange={(v) => setUser(v ?? "")} />
        <NativeSelect
          label="Customer"
          value={customer}
          onChange={(e) => setCustomer(e.currentTarget.value)}
          data={[{ value: "", label: "All customers" }, ...(choices?.customers.items ?? []).map((c) => ({ value: c.id, label: c.name }))]}
        />
      </Group>
      <PageError error={error} what="the grants" />
      {fetching && !data && <Loading />}
      {data && items.length === 0 && <Empty>No grants for these filters.</Empty>}
      {items.length > 0 && (
        <DataTable
          label="Grants"
          rows={items}
          rowKey={(g) => g.granteeId + (g.customerId ?? "") + (g.instanceId ?? "")}
          columns={[
            { label: "User", cell: (g) => (g.user ? `${g.user.name} (${g.user.email})` : g.granteeId) },
            { label: "Role", cell: (g) => g.user?.role ?? "—" },
            { label: "Granted on", cell: (g) => target(g) },
            { label: "Since", cell: (g) => formatTime(g.grantedAt) },
            ...(write
              ? [{
                  label: "Actions",
                  cell: (g: GrantRow) => (
                    <ActionIcon variant="subtle" color="red" aria-label={`Remove grant of ${who(g)} on ${target(g)}`} onClick={() => setDeleting(g)}>
                      ✕
                    </ActionIcon>
                  ),
                }]
              : []),
          ]}
        />
      )}
      {creating && <CreateGrantModal customers={choices?.customers.items ?? []} users={granteeChoices(choices?.internalUsers.items ?? [])}
        onClose={() => setCreating(false)} />}
      <ConfirmDelete
        opened={!!deleting}
        onClose={() => setDeleting(null)}
        kind="grant on"
        verb="Remove"
        name={deleting ? target(deleting) : ""}
        consequence="The user loses access to it at once."
        onConfirm={async () =>
          messages((await del({ userId: deleting!.granteeId, customerId: deleting!.customerId ?? null, instanceId: deleting!.instanceId ?? null }, { additionalTypenames: ["Grant"] })).error)
        }
      />
    </>
  );
}

function CreateGrantModal({ customers, users, onClose }: {
  customers: { id: string; name: string }[];
  users: { value: string; label: string }[];
  onClose: () => void;
}) {
  const [userId, setUserId] = useState<string | null>(null);
  const [customerId, setCustomerId] = useState<string | null>(null);
  const [instanceId, setInstanceId] = useState<string | null>(null);
  const [{ data: targets, error }] = useQuery({ query: GrantInstances });
  const { problems, check } = useProblems(["userId", "customerId", "instanceId"]);
  const [{ fetching }, create] = useMutation(CreateGrant);
  const instances = (targets?.instances.items ?? []).map((i) => ({ value: i.id, label: i.customer ? `${i.name} (${i.customer.name})` : i.name }));
  return (
    <ModalForm title="New grant" submit="Grant" busy={fetching} errors={[...messages(error), ...problems.general]} onClose={onClose}
      onSubmit={async () => {
        const res = await create({ input: { userId: userId ?? "", customerId, instanceId } }, { additionalTypenames: ["Grant"] });
        if (check(res.error)) onClose();
      }}>
      <Select comboboxProps={INLINE} label="User" description="An account manager or QA administrator; type to search." required searchable
        data={users} value={userId} onChange={setUserId} nothingFoundMessage="No account manager or QA administrator matches"
        error={problems.fields.userId} data-autofocus />
      <Select comboboxProps={INLINE} label="Customer" description="The customer the user may act on." searchable clearable
        data={customers.map((c) => ({ value: c.id, label: c.name }))} value={customerId}
        onChange={(v) => { setCustomerId(v); if (v) setInstanceId(null); }} error={problems.fields.customerId} />
      <Select comboboxProps={INLINE} label="Instance" description="Or, for a QA administrator, one instance instead of a customer." searchable clearable
        data={instances} value={instanceId} onChange={(v) => { setInstanceId(v); if (v) setCustomerId(null); }} error={problems.fields.instanceId} />
    </ModalForm>
  );
}
