// Internal users (MANAGE_INTERNAL_USERS): the administrator organization's
// users with their roles and status, each a link to its page (the support
// tools); for full access invite, change role and remove (typed e-mail).
import { useState } from "react";
import { Button, NativeSelect, Text, TextInput } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import { lists } from "../cache";
import { useCaller } from "../me";
import { messages, useProblems } from "../forms";
import { ModalForm } from "../modalform";
import { useQueryParam, useRoute } from "../router";
import { SearchBox } from "../search";
import { CardTable } from "../cardtable";
import { RoleSelect } from "../rolechange";
import { RowMenu } from "../rowmenu";
import { ConfirmDelete, Empty, FormErrors, Link, Loading, PageError, PageTitle, Pager } from "../ui";
import { PAGE_SIZE } from "./customers";
import { StatusBadge } from "./users";
import { ScimTokens } from "./scim";
import { useTranslation } from "react-i18next";
import { tr } from "../i18n";

const InternalUsersQuery = graphql(`
  query InternalUsers($first: Int, $after: String, $search: String) {
    internalUsers(first: $first, after: $after, search: $search) { items { id email name role status lockedUntil createdAt } nextCursor }
  }
`);
const CreateInternalUser = graphql(`
  mutation CreateInternalUser($input: CreateInternalUserInput!) { createInternalUser(input: $input) { id email role } }
`);
const UpdateInternalUser = graphql(`
  mutation UpdateInternalUserRole($id: ID!, $input: UpdateInternalUserInput!) { updateInternalUser(id: $id, input: $input) { id name role } }
`);
const RemoveInternalUser = graphql(`mutation RemoveInternalUser($id: ID!) { removeInternalUser(id: $id) }`);

// A user provisioned by the administrator organization's directory holds
// no role of its own: its groups give it one.

export const INTERNAL_ROLES = ["platform_admin", "account_manager", "qa_admin", "infra_ops", "finance_admin", "compliance_admin", "reader"];

type InternalUser = { id: string; email: string; name: string; role: string; status: string; lockedUntil?: string | null };

export function InternalUsersPage() {
  const { t: tr } = useTranslation();
  const caller = useCaller();
  const write = caller.canWrite("MANAGE_INTERNAL_USERS");
  const after = useRoute().query.get("after") || null;
  const [q] = useQueryParam("q");
  const [{ data, fetching, error }] = useQuery({ query: InternalUsersQuery, variables: { first: PAGE_SIZE, after, search: q || null }, context: lists("InternalUser") });
  const [inviting, setInviting] = useState(false);
  const [removing, setRemoving] = useState<InternalUser | null>(null);
  const [errs, setErrs] = useState<string[]>([]);
  const [done, setDone] = useState("");
  const [, update] = useMutation(UpdateInternalUser);
  const [, remove] = useMutation(RemoveInternalUser);
  const items = data?.internalUsers.items ?? [];
  const self = (u: InternalUser) => u.id === caller.me.userId;
  return (
    <>
      <PageTitle actions={write && <Button onClick={() => setInviting(true)}>{tr("internalusers.inviteInternalUser")}</Button>}>{tr("internalusers.internalUsers")}</PageTitle>
      <SearchBox label={tr("lists.searchInternalUsers")} />
      <PageError error={error} what={tr("internalusers.theInternalUsers")} />
      <FormErrors messages={errs} />
      {done && <Text role="status" mb="sm" data-testid="done">{done}</Text>}
      {fetching && !data && <Loading />}
      {data && items.length === 0 && <Empty>{q ? tr("lists.noUserMatches", { q }) : tr("internalusers.noInternalUsers")}</Empty>}
      {items.length > 0 && (
        <CardTable label={tr("internalusers.internalUsers")} rows={items} rowKey={(u) => u.id} columns={[
          { label: tr("internalusers.name"), title: true, cell: (u) => <Link href={`/dashboard/internal-users/${u.id}`}>{u.name || u.email}</Link> },
          { label: tr("internalusers.eMail"), wrap: true, cell: (u) => u.email },
          { label: tr("internalusers.role"), nowrap: true, cell: (u) => (write && !self(u) ? (
            <RoleSelect email={u.email} role={u.role} roles={INTERNAL_ROLES} kind={tr("internalusers.internalUser")}
              label={tr("internalusers.roleOf", { email: u.email })} noRole={tr("internalusers.noRole")}
              onSave={async (role) => {
                const m = messages((await update({ id: u.id, input: { role } })).error);
                setErrs([]);
                setDone(m.length ? "" : tr("internalusers.isNow", { email: u.email, role: role }));
                return m;
              }} />
          ) : u.role || tr("internalusers.noRole")) },
          { label: tr("internalusers.status"), nowrap: true, cell: (u) => <StatusBadge status={u.status} lockedUntil={u.lockedUntil} /> },
          ...(write ? [{ label: tr("internalusers.actions"), nowrap: true, cell: (u: InternalUser) => (self(u) ? tr("internalusers.you") : (
            <RowMenu name={u.email} actions={[{ label: tr("internalusers.remove"), danger: true, onClick: () => setRemoving(u) }]} />
          )) }] : []),
        ]} />
      )}
      <Pager next={data?.internalUsers.nextCursor} />
      <ScimTokens />
      {inviting && <InviteForm onClose={() => setInviting(false)} />}
      <ConfirmDelete opened={!!removing} onClose={() => setRemoving(null)} kind={tr("internalusers.internalUser")} verb={tr("internalusers.remove")} name={removing?.email ?? ""}
        consequence={tr("internalusers.theUserLosesTheRoleEvery")}
        onConfirm={async () => messages((await remove({ id: removing!.id }, { additionalTypenames: ["InternalUser", "Grant"] })).error)} />
    </>
  );
}

function InviteForm({ onClose }: { onClose: () => void }) {
  const [email, setEmail] = useState("");
  const [name, setName] = useState("");
  const [role, setRole] = useState("reader");
  const { problems, check } = useProblems(["email", "name", "role"]);
  const [{ fetching }, create] = useMutation(CreateInternalUser);
  return (
    <ModalForm title={tr("internalusers.inviteInternalUser")} submit={tr("internalusers.sendInvitation")} busy={fetching} errors={problems.general} onClose={onClose}
      onSubmit={async () => {
        const res = await create({ input: { email, name, role } }, { additionalTypenames: ["InternalUser"] });
        if (check(res.error)) onClose();
      }}>
      <TextInput label={tr("internalusers.eMail")} type="email" required value={email} onChange={(e) => setEmail(e.currentTarget.value.trim())} error={problems.fields.email} data-autofocus />
      <TextInput label={tr("internalusers.name")} required value={name} onChange={(e) => setName(e.currentTarget.value)} error={problems.fields.name} />
      <NativeSelect label={tr("internalusers.role")} value={role} onChange={(e) => setRole(e.currentTarget.value)} data={INTERNAL_ROLES} error={problems.fields.role} />
    </ModalForm>
  );
}
