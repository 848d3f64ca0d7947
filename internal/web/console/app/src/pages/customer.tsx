import { Button, Group, Stack, Tabs, Text } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import { useCaller } from "../me";
import { messages } from "../forms";
import { navigate, useRoute, withQuery } from "../router";
import { ConfirmDelete, FormErrors, Loading, PageError, PageTitle, formatTime } from "../ui";
import { CustomerSettings } from "./settings";
import { Billing } from "./billing";
import { SignIn } from "./sso";
import { TenantList } from "./tenants";
import { UserList } from "./users";
import { UsageList } from "./usage";
import { InstanceList } from "./instances";
import { useState } from "react";

const CustomerQuery = graphql(`
  query Customer($id: ID!) {
    customer(id: $id) { id name orgId createdAt updatedAt }
  }
`);

const DeleteCustomer = graphql(`
  mutation DeleteCustomer($id: ID!) { deleteCustomer(id: $id) }
`);

export const EnterFocus = graphql(`
  mutation EnterFocus($input: FocusInput!) {
    enterFocus(input: $input) { active customerId expiresAt }
  }
`);

export function CustomerPage({ id }: { id: string }) {
  const caller = useCaller();
  const route = useRoute();
  const [{ data, fetching, error }] = useQuery({ query: CustomerQuery, variables: { id } });
  const [focusErrors, setFocusErrors] = useState<string[]>([]);
  const [, enterFocus] = useMutation(EnterFocus);
  const [, deleteCustomer] = useMutation(DeleteCustomer);
  const [deleting, setDeleting] = useState(false);
  // the invoices are part of billing now; links to the old tab still work
  const asked = route.query.get("tab");
  const tab = (asked === "invoices" ? "billing" : asked) || (caller.can("MANAGE_TENANT") ? "tenants" : "usage");
  if (fetching && !data) return <Loading />;
  const c = data?.customer;
  if (!c) {
    return (
      <>
        <PageTitle>Customer</PageTitle>
        <PageError error={error} what="this customer" />
        {!error && <Text>We could not find this customer.</Text>}
      </>
    );
  }
  const here = window.location.pathname + window.location.search;
  return (
    <>
      <PageTitle
        actions={
          <Group>
            {caller.internal && (
              <Button
                variant="default"
                onClick={async () => setFocusErrors(messages((await enterFocus({ input: { customerId: c.id } }, { additionalTypenames: ["Focus"] })).error))}
              >
                Focus on this customer
              </Button>
            )}
            {caller.canWrite("DELETE_CUSTOMER") && (
              <Button variant="outline" color="red" onClick={() => setDeleting(true)}>
                Delete customer
              </Button>
            )}
          </Group>
        }
      >
        {c.name}
      </PageTitle>
      <FormErrors messages={focusErrors} />
      <ConfirmDelete
        opened={deleting}
        onClose={() => setDeleting(false)}
        kind="customer"
        name={c.name}
        consequence="The customer, its organization, tenants, instances and users are deleted. This cannot be undone."
        onConfirm={async () => {
          const errs = messages((await deleteCustomer({ id: c.id }, { additionalTypenames: ["Customer"] })).error);
          if (errs.length === 0) navigate(caller.internal ? `${route.base}/customers` : "/", { replace: true });
          return errs;
        }}
      />
      <Group gap="xl" mb="md" wrap="wrap">
        <Stack gap={0}>
          <Text size="sm" c="gray.7">Organization</Text>
          <Text ff="monospace" size="sm">{c.orgId}</Text>
        </Stack>
        <Stack gap={0}>
          <Text size="sm" c="gray.7">Created</Text>
          <Text size="sm">{formatTime(c.createdAt)}</Text>
        </Stack>
      </Group>
      <Tabs value={tab} onChange={(v) => navigate(withQuery(here, { tab: v, after: null, prev: null, view: null, webhook: null, status: null }), { replace: true })} keepMounted={false}>
        <Tabs.List>
          {caller.can("MANAGE_TENANT") && <Tabs.Tab value="tenants">Tenants</Tabs.Tab>}
          {caller.can("MANAGE_CUSTOMER_USER") && <Tabs.Tab value="users">Users</Tabs.Tab>}
          {caller.can("MANAGE_INSTANCES") && <Tabs.Tab value="instances">Instances</Tabs.Tab>}
          <Tabs.Tab value="usage">Usage</Tabs.Tab>
          {caller.can("VIEW_BILLING") && <Tabs.Tab value="billing">Billing</Tabs.Tab>}
          {caller.can("MANAGE_CUSTOMER_CONFIG") && <Tabs.Tab value="sso">Sign-in</Tabs.Tab>}
          {caller.can("MANAGE_CUSTOMER_CONFIG") && <Tabs.Tab value="settings">Settings</Tabs.Tab>}
        </Tabs.List>
        <Tabs.Panel value="tenants" pt="md"><TenantList customerId={c.id} /></Tabs.Panel>
        <Tabs.Panel value="users" pt="md"><UserList customerId={c.id} /></Tabs.Panel>
        <Tabs.Panel value="instances" pt="md"><InstanceList customerId={c.id} /></Tabs.Panel>
        <Tabs.Panel value="usage" pt="md"><UsageList customerId={c.id} /></Tabs.Panel>
        <Tabs.Panel value="billing" pt="md"><Billing customerId={c.id} /></Tabs.Panel>
        <Tabs.Panel value="sso" pt="md"><SignIn customerId={c.id} /></Tabs.Panel>
        <Tabs.Panel value="settings" pt="md"><CustomerSettings customerId={c.id} /></Tabs.Panel>
      </Tabs>
    </>
  );
}
