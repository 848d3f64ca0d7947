// Groups (D-groups): a customer's groups in the portal (MANAGE_CUSTOMER_USER)
// and the internal groups in the dashboard (MANAGE_INTERNAL_USERS), each a
// link to its page: the bound role, the members and managers and, for an
// internal group, its customer grants. Full access creates groups, changes
// their role, adds and removes members and managers and grants.
import { useState } from "react";
import { Button, Group as Row, NativeSelect, Text, TextInput, Title } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import { lists } from "../cache";
import { useCaller } from "../me";
import { messages, useProblems } from "../forms";
import { ModalForm } from "../modalform";
import { useRoute } from "../router";
import { DataTable } from "../table";
import { Empty, FormErrors, Link, Loading, PageError, PageTitle, Pager } from "../ui";
import { PAGE_SIZE } from "./customers";
import { INTERNAL_ROLES } from "./internalusers";
import { useTranslation } from "react-i18next";
import { tr } from "../i18n";

const PORTAL_ROLES = ["admin", "billing", "viewer", "member"];

const GroupsQuery = graphql(`
  query Groups($customerId: ID!, $first: Int, $after: String) {
    groups(customerId: $customerId, first: $first, after: $after) { items { id name role } nextCursor }
  }
`);
const InternalGroupsQuery = graphql(`
  query InternalGroups($first: Int, $after: String) {
    internalGroups(first: $first, after: $after) { items { id name role } nextCursor }
  }
`);
const CreateGroup = graphql(`
  mutation CreateGroup($customerId: ID!, $input: GroupInput!) { createGroup(customerId: $customerId, input: $input) { id name role } }
`);
const CreateInternalGroup = graphql(`
  mutation CreateInternalGroup($input: GroupInput!) { createInternalGroup(input: $input) { id name role } }
`);

// GroupsPage lists a customer's groups (the caller's own customer in the
// portal) or, internal, the internal groups.
export function GroupsPage({ internal }: { internal: boolean }) {
  const { t: tr } = useTranslation();
  const caller = useCaller();
  const action = internal ? "MANAGE_INTERNAL_USERS" : "MANAGE_CUSTOMER_USER";
  const write = caller.canWrite(action);
  const customerId = caller.me.customerId ?? "";
  const route = useRoute();
  const after = route.query.get("after") || null;
  const [cust] = useQuery({ query: GroupsQuery, variables: { customerId, first: PAGE_SIZE, after }, context: lists("Group"), pause: internal });
  const [int] = useQuery({ query: InternalGroupsQuery, variables: { first: PAGE_SIZE, after }, context: lists("Group"), pause: !internal });
  const res = { error: internal ? int.error : cust.error, fetching: internal ? int.fetching : cust.fetching };
  const page = internal ? int.data?.internalGroups : cust.data?.groups;
  const [creating, setCreating] = useState(false);
  const base = internal ? "internal-groups" : "groups";
  const items = page?.items ?? [];
  return (
    <>
      <PageTitle actions={write && <Button onClick={() => setCreating(true)}>{tr("groups.newGroup")}</Button>}>{internal ? tr("groups.internalGroups") : "Groups"}</PageTitle>
      <PageError error={res.error} what={tr("groups.theGroups")} />
      {res.fetching && !page && <Loading />}
      {page && items.length === 0 && <Empty>{tr("groups.noGroups")}</Empty>}
      {items.length > 0 && (
        <DataTable label={tr("groups.groups")} rows={items} rowKey={(g) => g.id} columns={[
          { label: tr("groups.name"), cell: (g) => <Link href={`${route.base}/${base}/${g.id}`}>{g.name}</Link> },
          { label: tr("groups.role"), cell: (g) => g.role || "none" },
        ]} />
      )}
      <Pager next={page?.nextCursor} />
      {creating && <CreateForm internal={internal} customerId={customerId} onClose={() => setCreating(false)} />}
    </>
  );
}

function CreateForm({ internal, customerId, onClose }: { internal: boolean; customerId: string; onClose: () => void }) {
  const [name, setName] = useState("");
  const [role, setRole] = useState("");
  const { problems, check } = useProblems(["name", "role"]);
  const [{ fetching: f1 }, create] = useMutation(CreateGroup);
  const [{ fetching: f2 }, createInternal] = useMutation(CreateInternalGroup);
  const roles = ["", ...(internal ? INTERNAL_ROLES : PORTAL_ROLES)];
  return (
    <ModalForm title={tr("groups.newGroup")} submit={tr("groups.createGroup")} busy={f1 || f2} errors={problems.general} onClose={onClose}
      onSubmit={async () => {
        const input = { name, role };
        const res = internal
          ? await createInternal({ input }, { additionalTypenames: ["Group"] })
          : await create({ customerId, input }, { additionalTypenames: ["Group"] });
        if (check(res.error)) onClose();
      }}>
      <TextInput label={tr("groups.name")} required value={name} onChange={(e) => setName(e.currentTarget.value)} error={problems.fields.name} data-autofocus />
      <NativeSelect label={tr("groups.role")} value={role} onChange={(e) => setRole(e.currentTarget.value)}
        data={roles.map((r) => ({ value: r, label: r || "none" }))} error={problems.fields.role} />
    </ModalForm>
  );
}

const GroupQuery = graphql(`
  query GroupPage($id: ID!, $first: Int) {
    group(id: $id) { id name role customerId }
    groupMembers(groupId: $id, first: $first) { items { userId email name } nextCursor }
    groupManagers(groupId: $id, first: $first) { items { userId email name } nextCursor }
  }
`);
const InternalGroupQuery = graphql(`
  query InternalGroupPage($id: ID!, $first: Int) {
    internalGroup(id: $id) { id name role customerId }
    internalGroupMembers(groupId: $id, first: $first) { items { userId email name } nextCursor }
    internalGroupManagers(groupId: $id, first: $first) { items { userId email name } nextCursor }
    internalGroupGrants(groupId: $id) { customerId instanceId }
  }
`);
const UpdateGroup = graphql(`mutation UpdateGroupRole($id: ID!, $input: UpdateGroupInput!) { updateGroup(id: $id, input: $input) { id role } }`);
const UpdateInternalGroup = graphql(`mutation UpdateInternalGroupRole($id: ID!, $input: UpdateGroupInput!) { updateInternalGroup(id: $id, input: $input) { id role } }`);
const AddMember = graphql(`mutation AddGroupMember($g: ID!, $u: ID!) { addGroupMember(groupId: $g, userId: $u) { userId } }`);
const RemoveMember = graphql(`mutation RemoveGroupMember($g: ID!, $u: ID!) { removeGroupMember(groupId: $g, userId: $u) }`);
const AddManager = graphql(`mutation AddGroupManager($g: ID!, $u: ID!) { addGroupManager(groupId: $g, userId: $u) { userId } }`);
const RemoveManager = graphql(`mutation RemoveGroupManager($g: ID!, $u: ID!) { removeGroupManager(groupId: $g, userId: $u) }`);
const AddInternalMember = graphql(`mutation AddInternalGroupMember($g: ID!, $u: ID!) { addInternalGroupMember(groupId: $g, userId: $u) { userId } }`);
const RemoveInternalMember = graphql(`mutation RemoveInternalGroupMember($g: ID!, $u: ID!) { removeInternalGroupMember(groupId: $g, userId: $u) }`);
const AddInternalManager = graphql(`mutation AddInternalGroupManager($g: ID!, $u: ID!) { addInternalGroupManager(groupId: $g, userId: $u) { userId } }`);
const RemoveInternalManager = graphql(`mutation RemoveInternalGroupManager($g: ID!, $u: ID!) { removeInternalGroupManager(groupId: $g, userId: $u) }`);
const CreateGroupGrant = graphql(`mutation CreateGroupGrant($g: ID!, $c: ID) { createGroupGrant(groupId: $g, customerId: $c) { customerId } }`);
const DeleteGroupGrant = graphql(`mutation DeleteGroupGrant($g: ID!, $c: ID) { deleteGroupGrant(groupId: $g, customerId: $c) }`);

type Person = { userId: string; email: string; name: string };

// GroupPage shows one group: its role (changeable with full access), its
// members and managers and, internal, its customer grants.
export function GroupPage({ id, internal }: { id: string; internal: boolean }) {
  const { t: tr } = useTranslation();
  const caller = useCaller();
  const write = caller.canWrite(internal ? "MANAGE_INTERNAL_USERS" : "MANAGE_CUSTOMER_USER");
  const [cust] = useQuery({ query: GroupQuery, variables: { id, first: 100 }, context: lists("Group", "GroupMember"), pause: internal });
  const [int] = useQuery({ query: InternalGroupQuery, variables: { id, first: 100 }, context: lists("Group", "GroupMember", "Grant"), pause: !internal });
  const res = { error: internal ? int.error : cust.error, fetching: internal ? int.fetching : cust.fetching };
  const [errs, setErrs] = useState<string[]>([]);
  const [, update] = useMutation(UpdateGroup);
  const [, updateInternal] = useMutation(UpdateInternalGroup);
  const group = internal ? int.data?.internalGroup : cust.data?.group;
  const members = (internal ? int.data?.internalGroupMembers.items : cust.data?.groupMembers.items) ?? [];
  const managers = (internal ? int.data?.internalGroupManagers.items : cust.data?.groupManagers.items) ?? [];
  const grants = int.data?.internalGroupGrants ?? [];
  const loaded = internal ? int.data : cust.data;
  const roles = ["", ...(internal ? INTERNAL_ROLES : PORTAL_ROLES)];
  return (
    <>
      <PageTitle>{group?.name ?? "Group"}</PageTitle>
      <PageError error={res.error} what={tr("groups.theGroup")} />
      <FormErrors messages={errs} />
      {res.fetching && !loaded && <Loading />}
      {group && (
        <Row mb="md">
          {write ? (
            <NativeSelect label={tr("groups.role")} aria-label={tr("groups.groupRole")} value={group.role} data={roles.map((r) => ({ value: r, label: r || "none" }))}
              onChange={async (e) => {
                const input = { role: e.currentTarget.value };
                setErrs(messages((internal ? await updateInternal({ id, input }) : await update({ id, input })).error));
              }} />
          ) : <Text>{tr("groups.roleIs", { role: group.role || tr("groups.roleNone") })}</Text>}
        </Row>
      )}
      {group && <People title={tr("groups.members")} id={id} internal={internal} manager={false} people={members} write={write} onErrors={setErrs} />}
      {group && <People title={tr("groups.managers")} id={id} internal={internal} manager={true} people={managers} write={write} onErrors={setErrs} />}
      {group && internal && <Grants id={id} grants={grants} write={write} onErrors={setErrs} />}
    </>
  );
}

function People({ title, id, internal, manager, people, write, onErrors }: {
  title: string; id: string; internal: boolean; manager: boolean; people: Person[]; write: boolean; onErrors: (m: string[]) => void;
}) {
  const [userId, setUserId] = useState("");
  const [, add] = useMutation(internal ? (manager ? AddInternalManager : AddInternalMember) : (manager ? AddManager : AddMember));
  const [, remove] = useMutation(internal ? (manager ? RemoveInternalManager : RemoveInternalMember) : (manager ? RemoveManager : RemoveMember));
  const ctx = { additionalTypenames: ["GroupMember"] };
  return (
    <>
      <Title order={2} size="h3" mt="md" mb="xs">{title}</Title>
      {people.length === 0 && <Empty>{tr("groups.nobody", { what: title.toLowerCase() })}</Empty>}
      {people.length > 0 && (
        <DataTable label={title} rows={people} rowKey={(p) => p.userId} columns={[
          { label: tr("groups.name"), cell: (p) => p.name || p.email },
          { label: tr("groups.eMail"), cell: (p) => p.email },
          ...(write ? [{ label: tr("groups.actions"), cell: (p: Person) => (
            <Button size="xs" variant="outline" color="var(--app-danger)" aria-label={tr("groups.removeFrom", { email: p.email, toLowerCase: title.toLowerCase() })}
              onClick={async () => onErrors(messages((await remove({ g: id, u: p.userId }, ctx)).error))}>{tr("groups.remove")}</Button>
          ) }] : []),
        ]} />
      )}
      {write && (
        <Row align="end" mt="xs">
          <TextInput label={tr("groups.userIdToAddTo", { toLowerCase: title.toLowerCase() })} value={userId} onChange={(e) => setUserId(e.currentTarget.value.trim())} />
          <Button aria-label={tr("groups.addTo", { toLowerCase: title.toLowerCase() })} onClick={async () => {
            const m = messages((await add({ g: id, u: userId }, ctx)).error);
            onErrors(m);
            if (!m.length) setUserId("");
          }}>{tr("groups.add")}</Button>
        </Row>
      )}
    </>
  );
}

function Grants({ id, grants, write, onErrors }: {
  id: string; grants: { customerId?: string | null; instanceId?: string | null }[]; write: boolean; onErrors: (m: string[]) => void;
}) {
  const [customerId, setCustomerId] = useState("");
  const [, create] = useMutation(CreateGroupGrant);
  const [, del] = useMutation(DeleteGroupGrant);
  const ctx = { additionalTypenames: ["Grant"] };
  const rows = grants.filter((g) => g.customerId);
  return (
    <>
      <Title order={2} size="h3" mt="md" mb="xs">{tr("groups.customersGranted")}</Title>
      {rows.length === 0 && <Empty>{tr("groups.noCustomersGranted")}</Empty>}
      {rows.length > 0 && (
        <DataTable label={tr("groups.customersGranted")} rows={rows} rowKey={(g) => g.customerId!} columns={[
          { label: tr("groups.customer"), cell: (g) => <Link href={`/dashboard/customers/${g.customerId}`}>{g.customerId}</Link> },
          ...(write ? [{ label: tr("groups.actions"), cell: (g: { customerId?: string | null }) => (
            <Button size="xs" variant="outline" color="var(--app-danger)" aria-label={tr("groups.revoke2", { customerId: g.customerId ?? "" })}
              onClick={async () => onErrors(messages((await del({ g: id, c: g.customerId }, ctx)).error))}>{tr("groups.revoke")}</Button>
          ) }] : []),
        ]} />
      )}
      {write && (
        <Row align="end" mt="xs">
          <TextInput label={tr("groups.customerIdToGrant")} value={customerId} onChange={(e) => setCustomerId(e.currentTarget.value.trim())} />
          <Button aria-label={tr("groups.grantTheCustomer")} onClick={async () => {
            const m = messages((await create({ g: id, c: customerId }, ctx)).error);
            onErrors(m);
            if (!m.length) setCustomerId("");
          }}>{tr("groups.grant")}</Button>
        </Row>
      )}
    </>
  );
}
