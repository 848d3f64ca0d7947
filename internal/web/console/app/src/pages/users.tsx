import { useState } from "react";
import { Alert, Badge, Button, Group, Modal, NativeSelect, Stack, TextInput } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { useTranslation } from "react-i18next";
import { graphql } from "../gql";
import { lists } from "../cache";
import { useCaller } from "../me";
import { messages, useProblems } from "../forms";
import { useQueryParam, useRoute } from "../router";
import { SearchBox } from "../search";
import { CardTable } from "../cardtable";
import { RoleSelect } from "../rolechange";
import { RowMenu } from "../rowmenu";
import { ConfirmDelete, Empty, FormErrors, Link, Loading, PageError, PageTitle, Pager, formatTime } from "../ui";
import { PAGE_SIZE } from "./customers";
import { ConfirmedForm } from "./confirm";
import { CustomerPicker } from "../pickers";

const UsersQuery = graphql(`
  query Users($customerId: ID, $first: Int, $after: String, $search: String) {
    users(customerId: $customerId, first: $first, after: $after, search: $search) {
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
  const { t } = useTranslation();
  const label: Record<string, string> = { active: t("users.statusActive"), suspended: t("users.statusSuspended"),
    locked: t("users.statusLocked"), invited: t("users.statusInvited") };
  return (
    <Badge color={STATUS_COLORS[status] ?? "gray.7"} variant="filled" autoContrast
      title={status === "locked" && lockedUntil ? t("users.lockedUntil", { time: formatTime(lockedUntil) }) : undefined}>
      {label[status] ?? status}
    </Badge>
  );
}

export function UsersPage() {
  const { t } = useTranslation();
  const caller = useCaller();
  return (
    <>
      <PageTitle>{t("users.title")}</PageTitle>
      <UserList customerId={caller.me.customerId ?? undefined} />
    </>
  );
}

type User = { id: string; email: string; name: string; role: string; status: string; lockedUntil?: string | null };

export function UserList({ customerId }: { customerId?: string }) {
  const { t } = useTranslation();
  const caller = useCaller();
  const route = useRoute();
  const after = route.query.get("after") || null;
  const [q] = useQueryParam("q");
  const [{ data, fetching, error }] = useQuery({
    query: UsersQuery,
    context: lists("CustomerUser"),
    variables: { customerId: customerId ?? null, first: PAGE_SIZE, after, search: q || null },
  });
  const [inviting, setInviting] = useState(false);
  const [suspending, setSuspending] = useState<User | null>(null);
  const [, suspend] = useMutation(SuspendUser);
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
          <Button onClick={() => setInviting(true)}>{t("users.invite")}</Button>
        </Group>
      )}
      <SearchBox label={t("lists.searchUsers")} />
      <PageError error={error} what={t("users.these")} />
      <FormErrors messages={reactivateErrors} />
      {fetching && !data && <Loading />}
      {data && items.length === 0 && <Empty>{q ? t("lists.noUserMatches", { q }) : t("users.none")}</Empty>}
      {items.length > 0 && (
        <CardTable
          label={t("users.title")}
          rows={items}
          rowKey={(u) => u.id}
          columns={[
            { label: t("users.name"), title: true, cell: (u) => <Link href={`${route.base}/users/${u.id}`}>{u.name || u.email}</Link> },
            { label: t("users.email"), wrap: true, cell: (u) => u.email },
            {
              label: t("users.role"),
              nowrap: true,
              cell: (u) =>
                manage && u.role !== "owner" ? (
                  <RoleSelect email={u.email} role={u.role} roles={PORTAL_ROLES} kind={t("users.kindUser")}
                    label={t("users.roleOf", { email: u.email })}
                    onSave={async (role) => {
                      const m = messages((await updateUser({ id: u.id, input: { role } })).error);
                      setReactivateErrors([]);
                      return m;
                    }} />
                ) : (
                  u.role
                ),
            },
            { label: t("users.status"), nowrap: true, cell: (u) => <StatusBadge status={u.status} lockedUntil={u.lockedUntil} /> },
            ...(canSuspend || manage || homeOrg
              ? [{
                  label: t("users.actions"),
                  nowrap: true,
                  cell: (u: User) => {
                    // the owner is suspended, reactivated or deleted by platform_admin only (D-owner-protect)
                    const ownerOK = u.role !== "owner" || caller.me.role === "platform_admin";
                    return (
                      <RowMenu name={u.email} actions={[
                        canSuspend && ownerOK && u.status === "suspended" && { label: t("tables.reactivate"), onClick: async () => {
                          setReactivateErrors(messages((await reactivate({ id: u.id })).error));
                        } },
                        canSuspend && ownerOK && u.status !== "suspended" && { label: t("tables.suspend"), danger: true, onClick: () => setSuspending(u) },
                        owner && !!customerId && u.role !== "owner" && u.status === "active" && { label: t("tables.makeOwner"), onClick: () => setOwning(u) },
                        homeOrg && !!customerId && { label: t("tables.move"), onClick: () => setMoving(u) },
                        manage && u.role !== "owner" && { label: t("tables.delete"), danger: true, onClick: () => setDeleting(u) },
                      ]} />
                    );
                  },
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
        kind={t("users.kindUser")}
        name={deleting?.email ?? ""}
        consequence={t("users.deleteConsequence")}
        onConfirm={async () => messages((await deleteUser({ id: deleting!.id }, { additionalTypenames: ["CustomerUser"] })).error)}
      />
      <ConfirmDelete
        opened={!!owning}
        onClose={() => setOwning(null)}
        kind={t("users.kindOwner")}
        verb={t("users.transferVerb")}
        name={owning?.email ?? ""}
        consequence={t("users.ownerConsequence")}
        onConfirm={async () => messages((await transferOwnership({ id: customerId!, userId: owning!.id }, { additionalTypenames: ["CustomerUser"] })).error)}
      />
      <ConfirmDelete
        opened={!!suspending}
        onClose={() => setSuspending(null)}
        kind={t("users.kindUser")}
        verb={t("users.suspendVerb")}
        name={suspending?.email ?? ""}
        consequence={t("users.suspendConsequence")}
        onConfirm={async () => messages((await suspend({ id: suspending!.id })).error)}
      />
    </>
  );
}

function InviteModal({ customerId, onClose }: { customerId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const [email, setEmail] = useState("");
  const [name, setName] = useState("");
  const [role, setRole] = useState("member");
  const [warning, setWarning] = useState("");
  const { problems, check } = useProblems(["email", "name", "role"]);
  const [{ fetching }, invite] = useMutation(InviteUser);
  return (
    <Modal opened onClose={onClose} title={t("users.invite")} centered>
      {warning ? (
        // the invitation went out; the address is outside the verified domains
        <Stack>
          <Alert color="dark" variant="outline" title={t("users.inviteWarningTitle")} role="status" data-testid="invite-warning">{warning}</Alert>
          <Group justify="flex-end"><Button onClick={onClose} data-autofocus>{t("users.close")}</Button></Group>
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
          <TextInput label={t("users.email")} type="email" required value={email} onChange={(e) => setEmail(e.currentTarget.value)} error={problems.fields.email} data-autofocus />
          <TextInput label={t("users.name")} required value={name} onChange={(e) => setName(e.currentTarget.value)} error={problems.fields.name} />
          <NativeSelect label={t("users.role")} value={role} onChange={(e) => setRole(e.currentTarget.value)} data={PORTAL_ROLES} error={problems.fields.role} />
          <FormErrors messages={problems.general} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>{t("common.cancel")}</Button>
            <Button type="submit" loading={fetching}>{t("users.sendInvitation")}</Button>
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
  const { t } = useTranslation();
  const [dest, setDest] = useState("");
  const [, move] = useMutation(TransferHomeOrg);
  return (
    <ConfirmedForm
      kind={t("users.kindUser")}
      verb={t("users.moveVerb")}
      name={user.email}
      consequence={t("users.moveConsequence")}
      fields={["customerId"]}
      submit={async () => (await move({ id: user.id, customerId: dest }, { additionalTypenames: ["CustomerUser"] })).error}
      onClose={onClose}
    >
      {(p) => (
        <CustomerPicker label={t("users.destination")} placeholder={t("users.chooseCustomer")} except={[customerId]}
          value={dest || null} error={p.fields.customerId} onChange={(v) => setDest(v ?? "")} />
      )}
    </ConfirmedForm>
  );
}
