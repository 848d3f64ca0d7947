import { Button, Group, Tabs } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import { readsTenants, useCaller, type Caller } from "../me";
import { messages } from "../forms";
import { navigate, useRoute, withQuery } from "../router";
import { chooseTab } from "../tabs";
import { ConfirmDelete, Fact, FormErrors, Loading, Missing, PageTitle, formatTime } from "../ui";
import { CustomerSettings } from "./settings";
import { ScimTokens } from "./scim";
import { Domains } from "./domains";
import { Registration } from "./registration";
import { MetadataClients } from "./metadataclients";
import { Billing } from "./billing";
import { SignIn } from "./sso";
import { BrandingPage } from "./branding";
import { TenantList } from "./tenants";
import { UserList } from "./users";
import { UsageList } from "./usage";
import { InstanceList } from "./instances";
import { useEffect, useState, type ReactNode } from "react";
import { Overview } from "../overview";
import { useTranslation } from "react-i18next";

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

// CUSTOMER_TABS are a customer's tabs, each shown when the caller's role
// may read it.
const CUSTOMER_TABS: { value: string; label: string /* a catalog key */; show: (c: Caller) => boolean; panel: (id: string) => ReactNode }[] = [
  { value: "tenants", label: "customer.tabTenants", show: readsTenants, panel: (id) => <TenantList customerId={id} /> },
  { value: "users", label: "customer.tabUsers", show: (c) => c.can("MANAGE_CUSTOMER_USER"), panel: (id) => <UserList customerId={id} /> },
  { value: "instances", label: "customer.tabInstances", show: (c) => c.can("MANAGE_INSTANCES"), panel: (id) => <InstanceList customerId={id} /> },
  { value: "usage", label: "customer.tabUsage", show: () => true, panel: (id) => <UsageList customerId={id} /> },
  { value: "billing", label: "customer.tabBilling", show: (c) => c.can("VIEW_BILLING"), panel: (id) => <Billing customerId={id} /> },
  { value: "sso", label: "customer.tabSignIn", show: (c) => c.can("MANAGE_CUSTOMER_CONFIG"), panel: (id) => <SignIn customerId={id} /> },
  { value: "branding", label: "customer.tabBranding", show: (c) => c.can("MANAGE_CUSTOMER_CONFIG"), panel: (id) => <BrandingPage customerId={id} /> },
  { value: "settings", label: "customer.tabSettings", show: (c) => c.can("MANAGE_CUSTOMER_CONFIG"), panel: (id) => <CustomerSettings customerId={id} /> },
  { value: "domains", label: "customer.tabDomains", show: (c) => c.can("MANAGE_CUSTOMER_CONFIG"), panel: (id) => <Domains customerId={id} /> },
  { value: "directory", label: "customer.tabDirectory", show: (c) => c.can("MANAGE_CUSTOMER_CONFIG"), panel: (id) => <ScimTokens customerId={id} /> },
  { value: "applications", label: "customer.tabApplications", show: (c) => c.can("MANAGE_CUSTOMER_CONFIG"), panel: (id) => <><Registration customerId={id} /><MetadataClients customerId={id} /></> },
];

// CustomerPage is a customer's page; in the portal it is the home (with the
// overview), and sections names the sidebar's sections: a tab that repeats
// one is left out, and a link to it opens the section (one navigation per
// audience, D-console-overview).
export function CustomerPage({ id, sections }: { id: string; sections?: string[] }) {
  const { t: tr } = useTranslation();
  const caller = useCaller();
  const route = useRoute();
  const [{ data, fetching, error }] = useQuery({ query: CustomerQuery, variables: { id } });
  const [focusErrors, setFocusErrors] = useState<string[]>([]);
  const [, enterFocus] = useMutation(EnterFocus);
  const [, deleteCustomer] = useMutation(DeleteCustomer);
  const [deleting, setDeleting] = useState(false);
  const tabs = CUSTOMER_TABS.filter((t) => t.show(caller) && !sections?.includes(t.value));
  const asked = route.query.get("tab");
  // the invoices are part of billing now; links to the old tab still work
  const tab = chooseTab(tabs.map((t) => t.value), asked ?? (readsTenants(caller) ? "tenants" : "usage"),
    { invoices: "billing" });
  const section = asked && sections?.includes(asked) ? `${route.base}/${asked}` : null;
  useEffect(() => {
    if (section) navigate(section, { replace: true });
  }, [section]);
  if (section) return null;
  if (fetching && !data) return <Loading />;
  const c = data?.customer;
  if (!c) return <Missing kind={tr("customer.kind")} error={error} />;
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
                {tr("customer.focus")}
              </Button>
            )}
            {caller.canWrite("DELETE_CUSTOMER") && (
              <Button variant="outline" color="red" onClick={() => setDeleting(true)}>
                {tr("customer.delete")}
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
        kind={tr("customer.kind")}
        name={c.name}
        consequence={tr("customer.deleteConsequence")}
        onConfirm={async () => {
          const errs = messages((await deleteCustomer({ id: c.id }, { additionalTypenames: ["Customer"] })).error);
          if (errs.length === 0) navigate(caller.internal ? `${route.base}/customers` : "/", { replace: true });
          return errs;
        }}
      />
      <Group gap="xl" mb="md" wrap="wrap">
        <Fact label={tr("customer.organization")} mono>{c.orgId}</Fact>
        <Fact label={tr("customer.created")}>{formatTime(c.createdAt)}</Fact>
      </Group>
      {sections && <Overview base={route.base} />}
      {/* a tab is a history entry: Back returns to the tab before; the lists' search and filters stay with their tab */}
      {tabs.length > 0 && <Tabs value={tab} onChange={(v) => navigate(withQuery(here, { tab: v, after: null, prev: null, view: null, webhook: null, status: null, q: null, customer: null, instance: null }))} keepMounted={false}>
        <Tabs.List>
          {tabs.map((t) => <Tabs.Tab key={t.value} value={t.value}>{tr(t.label)}</Tabs.Tab>)}
        </Tabs.List>
        {tabs.map((t) => <Tabs.Panel key={t.value} value={t.value} pt="md">{t.panel(c.id)}</Tabs.Panel>)}
      </Tabs>}
    </>
  );
}
