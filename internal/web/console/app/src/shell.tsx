import { useEffect, useState } from "react";
import { AppShell, Badge, Burger, Button, Group, NativeSelect, NavLink, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { LANGUAGES, switchLanguage, type Language } from "./i18n";
import { useDisclosure } from "@mantine/hooks";
import { useMutation, useQuery } from "urql";
import { graphql } from "./gql";
import { lists } from "./cache";
import { readsTenants, useCaller, type Caller } from "./me";
import { settings, signOut } from "./auth";
import { linkProps, useRoute } from "./router";
import { OrgSwitch } from "./orgswitch";
import { ImpersonationBanner, SupportAccessPage } from "./impersonation";
import { stepUpOutcome } from "./stepup";
import { CustomersPage } from "./pages/customers";
import { CustomerPage } from "./pages/customer";
import { TenantsPage } from "./pages/tenants";
import { TenantPage } from "./pages/tenant";
import { UsersPage } from "./pages/users";
import { InstancesPage } from "./pages/instances";
import { GrantsPage } from "./pages/grants";
import { AuditPage } from "./pages/audit";
import { UsagePage } from "./pages/usage";
import { PageTitle } from "./ui";
import { EmailsPage, InvoicesPage, WorkersPage } from "./pages/platform";
import { InstancePage } from "./pages/instance";
import { InternalUsersPage } from "./pages/internalusers";
import { CustomerUserPage, InternalUserPage } from "./pages/user";
import { CatalogPage } from "./pages/catalog";
import { ReleasesPage } from "./pages/releases";
import { AttributesPage } from "./pages/attributes";
import { DiscrepanciesPage } from "./pages/discrepancies";
import { GroupPage, GroupsPage } from "./pages/groups";
import { Overview } from "./overview";
import { accountURL } from "./account";

const FocusQuery = graphql(`
  query Focus { focus { active customerId expiresAt } }
`);
const FocusCustomer = graphql(`
  query FocusCustomer($id: ID!) { customer(id: $id) { id name } }
`);
const LeaveFocus = graphql(`
  mutation LeaveFocus { leaveFocus { active customerId expiresAt } }
`);

interface Section {
  path: string;
  label: string; // a catalog key (sections.*)
  show: (c: Caller) => boolean;
}

// The sections of the app, each shown when the caller's role may read it.
export const SECTIONS: Section[] = [
  { path: "customers", label: "sections.customers", show: (c) => c.internal && c.can("VIEW_USAGE_UNITS") },
  { path: "tenants", label: "sections.tenants", show: readsTenants },
  { path: "users", label: "sections.users", show: (c) => !c.internal && c.can("MANAGE_CUSTOMER_USER") },
  { path: "groups", label: "sections.groups", show: (c) => !c.internal && c.can("MANAGE_CUSTOMER_USER") },
  { path: "support-access", label: "sections.supportAccess", show: (c) => !c.internal && c.can("MANAGE_CUSTOMER_USER") },
  { path: "instances", label: "sections.instances", show: (c) => c.can("MANAGE_INSTANCES") },
  { path: "grants", label: "sections.grants", show: (c) => c.can("MANAGE_INTERNAL_USERS") },
  { path: "usage", label: "sections.usage", show: (c) => c.can("VIEW_USAGE_UNITS") },
  { path: "invoices", label: "sections.invoices", show: (c) => c.can("VIEW_BILLING") },
  { path: "audit", label: "sections.audit", show: (c) => c.can("VIEW_AUDIT_LOG") },
  { path: "emails", label: "sections.emails", show: (c) => c.can("VIEW_AUDIT_LOG") },
  { path: "internal-users", label: "sections.internalUsers", show: (c) => c.can("MANAGE_INTERNAL_USERS") },
  { path: "internal-groups", label: "sections.internalGroups", show: (c) => c.can("MANAGE_INTERNAL_USERS") },
  { path: "catalog", label: "sections.catalog", show: (c) => c.can("MANAGE_CATALOG") },
  { path: "releases", label: "sections.releases", show: (c) => c.can("MANAGE_RELEASES") },
  { path: "workers", label: "sections.workers", show: (c) => c.can("MANAGE_SYSTEM_WORKERS") },
  { path: "attributes", label: "sections.attributes", show: (c) => c.can("MANAGE_USER_ATTRIBUTES") },
  { path: "discrepancies", label: "sections.discrepancies", show: (c) => c.can("MANAGE_DISCREPANCIES") },
];

function FocusBadge() {
  const { t } = useTranslation();
  const route = useRoute();
  const [{ data }] = useQuery({ query: FocusQuery, context: lists("Focus") });
  const id = data?.focus.active ? data.focus.customerId : null;
  const [{ data: cust }] = useQuery({ query: FocusCustomer, variables: { id: id ?? "" }, pause: !id });
  const [, leave] = useMutation(LeaveFocus);
  if (!id) return null;
  return (
    <Group gap={6} data-testid="focus">
      <Badge color="yellow.4" variant="filled" autoContrast component="a" {...linkProps(`${route.base}/customers/${id}`)}>
        {t("shell.focusedOn", { name: cust?.customer?.name ?? t("shell.aCustomer") })}
      </Badge>
      <Button size="compact-xs" variant="white" onClick={() => leave({}, { additionalTypenames: ["Focus", "Customer", "Tenant"] })}>
        {t("shell.leaveFocus")}
      </Button>
    </Group>
  );
}

// LanguageSwitch changes the app's language (kept in this browser; the
// language of e-mails and sign-in pages is saved on the account page).
function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  return (
    <NativeSelect size="xs" aria-label={t("shell.language")} data-testid="language" value={i18n.language}
      onChange={(e) => switchLanguage(e.currentTarget.value as Language)}
      data={LANGUAGES.map((l) => ({ value: l.code, label: l.name }))} />
  );
}

export function Shell() {
  const { t } = useTranslation();
  const caller = useCaller();
  const route = useRoute();
  const [opened, { toggle, close }] = useDisclosure(false);
  const sections = SECTIONS.filter((s) => s.show(caller));
  const current = route.segments[0] ?? "";
  useEffect(() => {
    close();
    document.getElementById("page-title")?.focus();
  }, [current, close]);
  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 220, breakpoint: "sm", collapsed: { mobile: !opened } }} padding="md">
      <AppShell.Header bg="indigo.9" c="white">
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" color="white" aria-label={t("shell.menu")} />
            <Text fw={700} visibleFrom="xs">{caller.internal ? t("shell.platformConsole") : t("shell.customerPortal")}</Text>
            {caller.internal && <FocusBadge />}
          </Group>
          <Group gap="sm" wrap="nowrap">
            <LanguageSwitch />
            <OrgSwitch />
            <Text size="sm" visibleFrom="sm" data-testid="who">
              {caller.email} · <span data-testid="role">{caller.me.role}</span>
            </Text>
            <Button component="a" size="compact-sm" variant="subtle" c="white" href={accountURL(settings().issuer, window.location)}
              data-testid="account-link">{t("shell.yourAccount")}</Button>
            <Button size="compact-sm" variant="white" onClick={() => void signOut()}>{t("shell.signOut")}</Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label={t("shell.sections")}>
        {sections.map((s) => (
          <NavLink key={s.path} label={t(s.label)} active={current === s.path} {...linkProps(`${route.base}/${s.path}`)} aria-current={current === s.path ? "page" : undefined} />
        ))}
      </AppShell.Navbar>
      <AppShell.Main>
        <ImpersonationBanner />
        <StepUpNotice />
        <Page sections={sections} />
      </AppShell.Main>
    </AppShell>
  );
}

function Page({ sections }: { sections: Section[] }) {
  const caller = useCaller();
  const route = useRoute();
  const [section, id] = route.segments;
  if (!section) {
    if (!caller.internal && caller.me.customerId) return <CustomerPage id={caller.me.customerId} sections={sections.map((s) => s.path)} />;
    return <Home />;
  }
  // a user's page: internal roles reach customers' users from a customer's
  // Users tab, so the page is theirs without the portal's Users section
  if (section === "users" && id && caller.can("MANAGE_CUSTOMER_USER")) return <CustomerUserPage id={id} />;
  if (!sections.some((s) => s.path === section)) return <NotOffered />;
  switch (section) {
    case "customers":
      return id ? <CustomerPage id={id} /> : <CustomersPage />;
    case "tenants":
      return id ? <TenantPage id={id} /> : <TenantsPage />;
    case "users":
      return <UsersPage />;
    case "instances":
      return id ? <InstancePage id={id} /> : <InstancesPage />;
    case "grants":
      return <GrantsPage />;
    case "usage":
      return <UsagePage />;
    case "audit":
      return <AuditPage />;
    case "invoices":
      return <InvoicesPage />;
    case "emails":
      return <EmailsPage />;
    case "internal-users":
      return id ? <InternalUserPage id={id} /> : <InternalUsersPage />;
    case "groups":
      return id ? <GroupPage id={id} internal={false} /> : <GroupsPage internal={false} />;
    case "support-access":
      return caller.me.customerId ? <SupportAccessPage customerId={caller.me.customerId} /> : <NotOffered />;
    case "internal-groups":
      return id ? <GroupPage id={id} internal={true} /> : <GroupsPage internal={true} />;
    case "catalog":
      return <CatalogPage />;
    case "releases":
      return <ReleasesPage />;
    case "workers":
      return <WorkersPage />;
    case "attributes":
      return <AttributesPage />;
    case "discrepancies":
      return <DiscrepanciesPage />;
  }
  return <NotOffered />;
}

// Home is the dashboard's overview (D-console-overview): counts and recent
// activity, not a copy of the sidebar.
function Home() {
  const { t } = useTranslation();
  const caller = useCaller();
  const route = useRoute();
  return (
    <>
      <PageTitle>{caller.name ? t("shell.welcomeName", { name: caller.name }) : t("shell.welcome")}</PageTitle>
      <Text mb="md">{t("overview.signedInAs", { role: caller.me.role.replace(/_/g, " ") })}</Text>
      <Overview base={route.base} />
    </>
  );
}

function NotOffered() {
  const { t } = useTranslation();
  return (
    <>
      <PageTitle>{t("shell.notAvailable")}</PageTitle>
      <Text>{t("shell.notOffered")}</Text>
    </>
  );
}

// StepUpNotice says how the action retried after a step-up went.
function StepUpNotice() {
  const [text] = useState(stepUpOutcome);
  if (!text) return null;
  return <Text role="status" mb="sm" data-testid="step-up-outcome">{text}</Text>;
}
