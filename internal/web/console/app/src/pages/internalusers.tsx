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
import { useRoute } from "../router";
import { DataTable } from "../table";
import { ConfirmDelete, Empty, FormErrors, Link, Loading, PageError, PageTitle, Pager } from "../ui";
import { PAGE_SIZE } from "./customers";
import { StatusBadge } from "./users";
import { ScimTokens } from "./scim";

const InternalUsersQuery = graphql(`
  query InternalUsers($first: Int, $after: String) {
    internalUsers(first: $first, after: $after) { items { id email name role status lockedUntil createdAt } nextCursor }
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
const NO_ROLE = "none (its groups' roles)";

export const INTERNAL_ROLES = ["platform_admin", "account_manager", "qa_admin", "infra_ops", "finance_admin", "compliance_admin", "reader"];

type InternalUser = { id: string; email: string; name: string; role: string; status: string; lockedUntil?: string | null };

export function InternalUsersPage() {
  const caller = useCaller();
  const write = caller.canWrite("MANAGE_INTERNAL_USERS");
  const after = useRoute().query.get("after") || null;
  const [{ data, fetching, error }] = useQuery({ query: InternalUsersQuery, variables: { first: PAGE_SIZE, after }, context: lists("InternalUser") });
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
      <PageTitle actions={write && <Button onClick={() => setInviting(true)}>Invite internal user</Button>}>Internal users</PageTitle>
      <PageError error={error} what="the internal users" />
      <FormErrors messages={errs} />
      {done && <Text role="status" mb="sm" data-testid="done">{done}</Text>}
      {fetching && !data && <Loading />}
      {data && items.length === 0 && <Empty>No internal users.</Empty>}
      {items.length > 0 && (
        <DataTable label="Internal users" rows={items} rowKey={(u) => u.id} columns={[
          { label: "Name", cell: (u) => <Link href={`/dashboard/internal-users/${u.id}`}>{u.name || u.email}</Link> },
          { label: "E-mail", cell: (u) => u.email },
          { label: "Role", cell: (u) => (write && !self(u) ? (
            <NativeSelect size="xs" aria-label={`Role of ${u.email}`} value={u.role}
              data={u.role ? INTERNAL_ROLES : [{ value: "", label: NO_ROLE }, ...INTERNAL_ROLES]}
              onChange={async (e) => {
                const role = e.currentTarget.value;
                const m = messages((await update({ id: u.id, input: { role } })).error);
                setErrs(m);
                setDone(m.length ? "" : `${u.email} is now ${role}.`);
              }} />
          ) : u.role || NO_ROLE) },
          { label: "Status", cell: (u) => <StatusBadge status={u.status} lockedUntil={u.lockedUntil} /> },
          ...(write ? [{ label: "Actions", cell: (u: InternalUser) => (self(u) ? "you" : (
            <Button size="xs" variant="outline" color="red.9" aria-label={`Remove ${u.email}`} onClick={() => setRemoving(u)}>Remove</Button>
          )) }] : []),
        ]} />
      )}
      <Pager next={data?.internalUsers.nextCursor} />
      <ScimTokens />
      {inviting && <InviteForm onClose={() => setInviting(false)} />}
      <ConfirmDelete opened={!!removing} onClose={() => setRemoving(null)} kind="internal user" verb="Remove" name={removing?.email ?? ""}
        consequence="The user loses the role, every grant and focus mode, and the account is suspended."
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
    <ModalForm title="Invite internal user" submit="Send invitation" busy={fetching} errors={problems.general} onClose={onClose}
      onSubmit={async () => {
        const res = await create({ input: { email, name, role } }, { additionalTypenames: ["InternalUser"] });
        if (check(res.error)) onClose();
      }}>
      <TextInput label="E-mail" type="email" required value={email} onChange={(e) => setEmail(e.currentTarget.value.trim())} error={problems.fields.email} data-autofocus />
      <TextInput label="Name" required value={name} onChange={(e) => setName(e.currentTarget.value)} error={problems.fields.name} />
      <NativeSelect label="Role" value={role} onChange={(e) => setRole(e.currentTarget.value)} data={INTERNAL_ROLES} error={problems.fields.role} />
    </ModalForm>
  );
}
