import { useState } from "react";
import { Alert, Badge, Button, Group, Modal, NativeSelect, Stack, TextInput } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import { lists } from "../cache";
import { useCaller } from "../me";
import { messages, useProblems } from "../forms";
import { useRoute } from "../router";
import { DataTable } from "../table";
import { ConfirmDelete, Empty, FormErrors, Link, Loading, PageError, PageTitle, Pager, formatTime } from "../ui";
import { PAGE_SIZE } from "./customers";
import { ConfirmedForm } from "./confirm";
import { CustomerChoices } from "./tenants";

const UsersQuery = graphql(`
  query Users($customerId: ID, $first: Int, $after: String) {
    users(customerId: $customerId, first: $first, after: $after) {
      items { id customerId email name role status suspendedAt lockedUntil createdAt }
      nextCursor
    }
  }
`);

const InviteUser = graphql(`
  mutation InviteUser($customerId: ID!, $input: InviteUserInput!) {
    inviteUser(customerId: $customerId, input: $input) { id customerId email name role status warning }
  }
`);

const SuspendUser = graphql(`
  mutation SuspendUser($id: ID!) { suspendUser(id: $id) { id status suspendedAt } }
`);

const ReactivateUser = graphql(`
  mutation ReactivateUser($id: ID!) { reactivateUser(id: $id) { id status suspendedAt } }
`);

const UpdateUser = graphql(`
  mutation UpdateUserRole($id: ID!, $input: UpdateUserInput!) { updateUser(id: $id, input: $input) { id role } }
`);
const DeleteUser = graphql(`
  mutation DeleteUser($id: ID!) { deleteUser(id: $id) }
`);
const TransferHomeOrg = graphql(`
  mutation TransferHomeOrg($id: ID!, $customerId: ID!) { transferHomeOrg(id: $id, customerId: $customerId) { id customerId } }
`);
const TransferOwnership = graphql(`
  mutation TransferOwnership($id: ID!, $userId: ID!) { transferOwnership(id: $id, userId: $userId) { id role } }
`);

export const PORTAL_ROLES = ["admin", "billing", "viewer", "member"];

const STATUS_COLORS: Record<string, string> = { active: "teal.9", suspended: "red.9", locked: "grape.9", invited: "gray.7" };

// StatusBadge shows a user's status (D-support-tools): invited, active,
// locked or suspended.
export function StatusBadge({ status, lockedUntil }: { status: string; lockedUntil?: string | null }) {
  return (
    <Badge color={STATUS_COLORS[status] ?? "gray.7"} variant="filled" autoContrast
      title={status === "locked" && lockedUntil ? `locked until ${formatTime(lockedUntil)}` : undefined}>
      {status}
    </Badge>
  );
}

export function UsersPage() {
  const caller = useCaller();
  return (
    <>
      <PageTitle>Users</PageTitle>
      <UserList customerId={caller.me.customerId ?? undefined} />
    </>
  );
}

type User = { id: string; email: string; name: string; role: string; status: string; lockedUntil?: string | null };

export function UserList({ customerId }: { customerId?: string }) {
  const caller = useCaller();
  const route = useRoute();
  const after = route.query.get("after") || null;
  const [{ data, fetching, error }] = useQuery({
    query: UsersQuery,
    context: lists("CustomerUser"),
    variables: { customerId: customerId ?? null, first: PAGE_SIZE, after },
  });
  const [inviting, setInviting] = useState(false);
  const [suspending, setSuspending] = useState<User | null>(null);
  const [, suspend] = useMutation(SuspendUser);
  const [reactivating, setReactivating] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<User | null>(null);
  const [owning, setOwning] = useState<User | null>(null);
  const [moving, setMoving] = useState<User | null>(null);
  const homeOrg = caller.canWrite("TRANSFER_HOME_ORG");
  const [, updateUser] = useMutation(UpdateUser);
  const [, deleteUser] = useMutation(DeleteUser);
  const [, transferOwnership] = useMutation(TransferOwnership);
  const manage = caller.canWrite("MANAGE_CUSTOMER_USER");
  const owner = caller.canWrite("TRANSFER_OWNERSHIP");
  const [reactivateErrors, setReactivateErrors] = useState<string[]>([]);
  const [, reactivate] = useMutation(ReactivateUser);
  const items = data?.users.items ?? [];
  const canSuspend = caller.canWrite("SUSPEND_USER");
  return (
    <>
      {customerId && caller.canWrite("MANAGE_CUSTOMER_USER") && (
        <Group justify="flex-end" mb="sm">
          <Button onClick={() => setInviting(true)}>Invite user</Button>
        </Group>
      )}
      <PageError error={error} what="these users" />
      <FormErrors messages={reactivateErrors} />
      {fetching && !data && <Loading />}
      {data && items.length === 0 && <Empty>No users yet.</Empty>}
      {items.length > 0 && (
        <DataTable
          label="Users"
          rows={items}
          rowKey={(u) => u.id}
          columns={[
            { label: "Name", cell: (u) => <Link href={`${route.base}/users/${u.id}`}>{u.name || u.email}</Link> },
            { label: "E-mail", cell: (u) => u.email },
            {
              label: "Role",
              cell: (u) =>
                manage && u.role !== "owner" ? (
                  <NativeSelect
                    size="xs"
                    aria-label={`Role of ${u.email}`}
                    value={u.role}
                    data={PORTAL_ROLES}
                    onChange={async (e) =>
                      setReactivateErrors(messages((await updateUser({ id: u.id, input: { role: e.currentTarget.value } })).error))
                    }
                  />
                ) : (
                  u.role
                ),
            },
            { label: "Status", cell: (u) => <StatusBadge status={u.status} lockedUntil={u.lockedUntil} /> },
            ...(canSuspend || manage || homeOrg
              ? [{
                  label: "Actions",
                  cell: (u: User) =>
                    <Group gap="xs" wrap="nowrap">
                    {!canSuspend ? null : u.status === "suspended" ? (
                      <Button
                        size="xs"
                        variant="default"
                        loading={reactivating === u.id}
                        onClick={async () => {
                          setReactivating(u.id);
                          setReactivateErrors(messages((await reactivate({ id: u.id })).error));
                          setReactivating(null);
                        }}
                      >
                        Reactivate {u.email}
                      </Button>
                    ) : (
                      <Button size="xs" variant="default" color="red" onClick={() => setSuspending(u)}>
                        Suspend {u.email}
                      </Button>
                    )}
                    {owner && customerId && u.role !== "owner" && u.status === "active" && (
                      <Button size="xs" variant="default" onClick={() => setOwning(u)}>Make {u.email} owner</Button>
                    )}
                    {manage && u.role !== "owner" && (
                      <Button size="xs" variant="default" color="red" onClick={() => setDeleting(u)}>Delete {u.email}</Button>
                    )}
                    {homeOrg && customerId && (
                      <Button size="xs" variant="default" onClick={() => setMoving(u)}>Move {u.email}</Button>
                    )}
                    </Group>,
                }]
              : []),
          ]}
        />
      )}
      <Pager next={data?.users.nextCursor} />
      {moving && customerId && <MoveModal user={moving} customerId={customerId} onClose={() => setMoving(null)} />}
      {inviting && customerId && <InviteModal customerId={customerId} onClose={() => setInviting(false)} />}
      <ConfirmDelete
        opened={!!deleting}
        onClose={() => setDeleting(null)}
        kind="user"
        name={deleting?.email ?? ""}
        consequence="The user's account and sessions are removed. This cannot be undone."
        onConfirm={async () => messages((await deleteUser({ id: deleting!.id }, { additionalTypenames: ["CustomerUser"] })).error)}
      />
      <ConfirmDelete
        opened={!!owning}
        onClose={() => setOwning(null)}
        kind="owner"
        verb="Transfer ownership to"
        name={owning?.email ?? ""}
        consequence="This user becomes the customer's owner; the present owner becomes an admin."
        onConfirm={async () => messages((await transferOwnership({ id: customerId!, userId: owning!.id }, { additionalTypenames: ["CustomerUser"] })).error)}
      />
      <ConfirmDelete
        opened={!!suspending}
        onClose={() => setSuspending(null)}
        kind="user"
        verb="Suspend"
        name={suspending?.email ?? ""}
        consequence="The user can no longer sign in and their sessions end. You can reactivate them later."
        onConfirm={async () => messages((await suspend({ id: suspending!.id })).error)}
      />
    </>
  );
}

function InviteModal({ customerId, onClose }: { customerId: string; onClose: () => void }) {
  const [email, setEmail] = useState("");
  const [name, setName] = useState("");
  const [role, setRole] = useState("member");
  const [warning, setWarning] = useState("");
  const { problems, check } = useProblems(["email", "name", "role"]);
  const [{ fetching }, invite] = useMutation(InviteUser);
  return (
    <Modal opened onClose={onClose} title="Invite user" centered>
      {warning ? (
        // the invitation went out; the address is outside the verified domains
        <Stack>
          <Alert color="dark" variant="outline" title="Invitation sent, with a warning" role="status" data-testid="invite-warning">{warning}</Alert>
          <Group justify="flex-end"><Button onClick={onClose} data-autofocus>Close</Button></Group>
        </Stack>
      ) : (
      <form
        noValidate
        onSubmit={async (e) => {
          e.preventDefault();
          const res = await invite({ customerId, input: { email, name, role } }, { additionalTypenames: ["CustomerUser"] });
          if (!check(res.error)) return;
          if (res.data?.inviteUser?.warning) setWarning(res.data.inviteUser.warning);
          else onClose();
        }}
      >
        <Stack>
          <TextInput label="E-mail" type="email" required value={email} onChange={(e) => setEmail(e.currentTarget.value)} error={problems.fields.email} data-autofocus />
          <TextInput label="Name" required value={name} onChange={(e) => setName(e.currentTarget.value)} error={problems.fields.name} />
          <NativeSelect label="Role" value={role} onChange={(e) => setRole(e.currentTarget.value)} data={PORTAL_ROLES} error={problems.fields.role} />
          <FormErrors messages={problems.general} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={fetching}>Send invitation</Button>
          </Group>
        </Stack>
      </form>
      )}
    </Modal>
  );
}

// MoveModal moves a user's home organization to another customer
// (platform_admin); the user keeps the account and its sign-in methods.
function MoveModal({ user, customerId, onClose }: { user: User; customerId: string; onClose: () => void }) {
  const [dest, setDest] = useState("");
  const [{ data }] = useQuery({ query: CustomerChoices });
  const [, move] = useMutation(TransferHomeOrg);
  return (
    <ConfirmedForm
      kind="user"
      verb="Move"
      name={user.email}
      consequence="The user leaves this customer for the destination's organization, keeping their account and role (an owner arrives as admin)."
      fields={["customerId"]}
      submit={async () => (await move({ id: user.id, customerId: dest }, { additionalTypenames: ["CustomerUser"] })).error}
      onClose={onClose}
    >
      {(p) => (
        <NativeSelect label="Destination customer" value={dest} error={p.fields.customerId}
          onChange={(e) => setDest(e.currentTarget.value)}
          data={[{ value: "", label: "Choose a customer" },
            ...(data?.customers.items ?? []).filter((c) => c.id !== customerId).map((c) => ({ value: c.id, label: c.name }))]} />
      )}
    </ConfirmedForm>
  );
}
