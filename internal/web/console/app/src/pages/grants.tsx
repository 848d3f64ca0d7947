import { useState } from "react";
import { ActionIcon, Button, Group, Modal, NativeSelect, Stack, TextInput } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import { lists } from "../cache";
import { useCaller } from "../me";
import { messages, useProblems } from "../forms";
import { useQueryParam } from "../router";
import { DataTable } from "../table";
import { ConfirmDelete, Empty, FormErrors, Loading, PageError, PageTitle, formatTime } from "../ui";

const GrantsQuery = graphql(`
  query Grants($userId: ID, $customerId: ID) {
    grants(userId: $userId, customerId: $customerId) { granteeType granteeId customerId instanceId grantedBy grantedAt }
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

const Choices = graphql(`
  query GrantChoices { customers(first: 100) { items { id name } } }
`);

type GrantRow = { granteeId: string; customerId?: string | null; instanceId?: string | null; grantedAt: string };

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
  const names = new Map((choices?.customers.items ?? []).map((c) => [c.id, c.name]));
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<GrantRow | null>(null);
  const [, del] = useMutation(DeleteGrant);
  const items = data?.grants ?? [];
  const write = caller.canWrite("MANAGE_INTERNAL_USERS");
  const target = (g: GrantRow) => (g.customerId ? names.get(g.customerId) ?? g.customerId : "instance " + g.instanceId);
  return (
    <>
      <PageTitle actions={write && <Button onClick={() => setCreating(true)}>New grant</Button>}>Grants</PageTitle>
      <Group mb="md" wrap="wrap">
        <TextInput label="User id" value={user} onChange={(e) => setUser(e.currentTarget.value.trim())} w={300} />
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
            { label: "User", cell: (g) => g.granteeId },
            { label: "Granted on", cell: (g) => target(g) },
            { label: "Since", cell: (g) => formatTime(g.grantedAt) },
            ...(write
              ? [{
                  label: "Actions",
                  cell: (g: GrantRow) => (
                    <ActionIcon variant="subtle" color="red" aria-label={`Remove grant of ${g.granteeId} on ${target(g)}`} onClick={() => setDeleting(g)}>
                      ✕
                    </ActionIcon>
                  ),
                }]
              : []),
          ]}
        />
      )}
      {creating && <CreateGrantModal customers={choices?.customers.items ?? []} onClose={() => setCreating(false)} />}
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

function CreateGrantModal({ customers, onClose }: { customers: { id: string; name: string }[]; onClose: () => void }) {
  const [userId, setUserId] = useState("");
  const [customerId, setCustomerId] = useState("");
  const [instanceId, setInstanceId] = useState("");
  const { problems, check } = useProblems(["userId", "customerId", "instanceId"]);
  const [{ fetching }, create] = useMutation(CreateGrant);
  return (
    <Modal opened onClose={onClose} title="New grant" centered>
      <form
        noValidate
        onSubmit={async (e) => {
          e.preventDefault();
          const res = await create({ input: { userId, customerId: customerId || null, instanceId: instanceId || null } }, { additionalTypenames: ["Grant"] });
          if (check(res.error)) onClose();
        }}
      >
        <Stack>
          <TextInput label="User id" description="An account manager or QA administrator." required value={userId} onChange={(e) => setUserId(e.currentTarget.value.trim())} error={problems.fields.userId} data-autofocus />
          <NativeSelect
            label="Customer"
            value={customerId}
            onChange={(e) => setCustomerId(e.currentTarget.value)}
            data={[{ value: "", label: "None (an instance grant)" }, ...customers.map((c) => ({ value: c.id, label: c.name }))]}
            error={problems.fields.customerId}
          />
          <TextInput label="Instance id" description="For a QA administrator's instance grant, instead of a customer." value={instanceId} onChange={(e) => setInstanceId(e.currentTarget.value.trim())} error={problems.fields.instanceId} />
          <FormErrors messages={problems.general} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={fetching}>Grant</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
