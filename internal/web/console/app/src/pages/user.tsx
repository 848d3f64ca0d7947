// A user's page with the support tools (D-support-tools): the account as it
// is (status, lockout, second factors), its browser sessions at the
// identity provider with sign-out of one or all, unlock, the second factor
// reset (typed e-mail) and, while the invitation is pending, resend and
// revoke (typed e-mail). Customer users under /users/{id}, internal users
// under /internal-users/{id}; each action only where supportActions offers it.
import { useState } from "react";
import { Button, Group, NativeSelect, Table, Text, Title } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import type { CombinedError } from "@urql/core";
import { graphql } from "../gql";
import { lists } from "../cache";
import { useCaller } from "../me";
import { messages } from "../forms";
import { navigate, useRoute } from "../router";
import { DataTable } from "../table";
import { describeAgent, secondFactors, signInMethods, supportActions, type Supported } from "../support";
import { ConfirmDelete, Empty, FormErrors, Link, Loading, PageError, PageTitle, Pager, formatTime } from "../ui";
import { StatusBadge } from "./users";
import { useTranslation } from "react-i18next";
import { ActAsButton } from "../impersonation";
import { LANGUAGES, tr } from "../i18n";

const CustomerUserQuery = graphql(`
  query SupportUser($id: ID!) {
    user(id: $id) {
      id email name role language status suspendedAt lockedUntil failedSignIns authenticatorApp passkeys createdAt
      customer { id name }
    }
  }
`);
const InternalUserQuery = graphql(`
  query SupportInternalUser($id: ID!) {
    internalUser(id: $id) { id email name role status suspendedAt lockedUntil failedSignIns authenticatorApp passkeys createdAt }
  }
`);
const UserSessionsQuery = graphql(`
  query UserSessions($id: ID!, $first: Int, $after: String) {
    userSessions(id: $id, first: $first, after: $after) {
      items { id userAgent address signedInAt lastSeenAt expiresAt methods }
      nextCursor
    }
  }
`);
const InternalUserSessionsQuery = graphql(`
  query InternalUserSessions($id: ID!, $first: Int, $after: String) {
    internalUserSessions(id: $id, first: $first, after: $after) {
      items { id userAgent address signedInAt lastSeenAt expiresAt methods }
      nextCursor
    }
  }
`);
const UpdateUserLanguage = graphql(`
  mutation UpdateUserLanguage($id: ID!, $input: UpdateUserInput!) { updateUser(id: $id, input: $input) { id language } }
`);
const UnlockUser = graphql(`mutation UnlockUser($id: ID!) { unlockUser(id: $id) { id status lockedUntil failedSignIns } }`);
const UnlockInternalUser = graphql(`mutation UnlockInternalUser($id: ID!) { unlockInternalUser(id: $id) { id status lockedUntil failedSignIns } }`);
const ResetSecondFactor = graphql(`mutation ResetSecondFactor($id: ID!) { resetSecondFactor(id: $id) { id authenticatorApp passkeys } }`);
const ResetInternalSecondFactor = graphql(`
  mutation ResetInternalSecondFactor($id: ID!) { resetInternalSecondFactor(id: $id) { id authenticatorApp passkeys } }
`);
const ResendInvitation = graphql(`mutation ResendInvitation($id: ID!) { resendInvitation(id: $id) { id status } }`);
const ResendInternalInvitation = graphql(`mutation ResendInternalInvitation($id: ID!) { resendInternalInvitation(id: $id) { id status } }`);
const RevokeInvitation = graphql(`mutation RevokeInvitation($id: ID!) { revokeInvitation(id: $id) }`);
const RevokeInternalInvitation = graphql(`mutation RevokeInternalInvitation($id: ID!) { revokeInternalInvitation(id: $id) }`);
const EndUserSession = graphql(`mutation EndUserSession($id: ID!, $sessionId: ID!) { endUserSession(id: $id, sessionId: $sessionId) }`);
const EndInternalUserSession = graphql(`
  mutation EndInternalUserSession($id: ID!, $sessionId: ID!) { endInternalUserSession(id: $id, sessionId: $sessionId) }
`);
const EndUserSessions = graphql(`mutation EndUserSessions($id: ID!) { endUserSessions(id: $id) }`);
const EndInternalUserSessions = graphql(`mutation EndInternalUserSessions($id: ID!) { endInternalUserSessions(id: $id) }`);

// SESSIONS_PAGE is how many sessions a page of the user's shows.
const SESSIONS_PAGE = 20;

type Result = Promise<{ error?: CombinedError }>;

// Tools are a user page's queries and mutations, of a customer user or of
// an internal user.
interface Tools {
  internal: boolean;
  unlock: () => Result;
  reset: () => Result;
  resend: () => Result;
  revoke: () => Result;
  endSession: (sessionId: string) => Result;
  endSessions: () => Result;
}

interface Account extends Supported {
  email: string;
  name: string;
  suspendedAt?: string | null;
  lockedUntil?: string | null;
  failedSignIns: number;
  createdAt: string;
}

interface Session {
  id: string;
  userAgent: string;
  address: string;
  signedInAt: string;
  lastSeenAt: string;
  methods: string[];
}

// refreshed is the context of a support mutation: the user's lists and page
// are read again.
const refreshed = { additionalTypenames: ["CustomerUser", "InternalUser", "UserSession", "UserSessionPage"] };

type Exec<V> = (variables: V, context: typeof refreshed) => Result;

// toolsOf binds a user page's mutations to the user id.
function toolsOf(internal: boolean, id: string, m: {
  unlock: Exec<{ id: string }>;
  reset: Exec<{ id: string }>;
  resend: Exec<{ id: string }>;
  revoke: Exec<{ id: string }>;
  endSession: Exec<{ id: string; sessionId: string }>;
  endSessions: Exec<{ id: string }>;
}): Tools {
  return {
    internal,
    unlock: () => m.unlock({ id }, refreshed),
    reset: () => m.reset({ id }, refreshed),
    resend: () => m.resend({ id }, refreshed),
    revoke: () => m.revoke({ id }, refreshed),
    endSession: (sessionId) => m.endSession({ id, sessionId }, refreshed),
    endSessions: () => m.endSessions({ id }, refreshed),
  };
}

export function CustomerUserPage({ id }: { id: string }) {
  const caller = useCaller();
  const route = useRoute();
  const [{ data, fetching, error }] = useQuery({ query: CustomerUserQuery, variables: { id }, context: lists("CustomerUser") });
  const offered = data?.user ? supportActions(caller, data.user, false) : null;
  const after = route.query.get("after") || null;
  const [sessions] = useQuery({ query: UserSessionsQuery, variables: { id, first: SESSIONS_PAGE, after }, pause: !offered?.sessions,
    context: lists("UserSession") });
  const [, unlock] = useMutation(UnlockUser);
  const [, reset] = useMutation(ResetSecondFactor);
  const [, resend] = useMutation(ResendInvitation);
  const [, revoke] = useMutation(RevokeInvitation);
  const [, endSession] = useMutation(EndUserSession);
  const [, endSessions] = useMutation(EndUserSessions);
  const [, setLanguage] = useMutation(UpdateUserLanguage);
  if (fetching && !data) return <Loading />;
  const u = data?.user;
  if (!u) return <Gone error={error} />;
  const back = u.customer
    ? caller.internal ? `${route.base}/customers/${u.customer.id}?tab=users` : `${route.base}/users`
    : `${route.base}`;
  const tools = toolsOf(false, id, { unlock, reset, resend, revoke, endSession, endSessions });
  return (
    <UserSupport user={u} tools={tools} back={back} backLabel={u.customer ? tr("user.allUsersOf", { name: u.customer.name }) : tr("user.home")}
      language={{ value: u.language, editable: caller.canWrite("MANAGE_CUSTOMER_USER"),
        save: (language) => setLanguage({ id, input: { language } }, refreshed) }}
      customer={caller.internal && u.customer ? { href: `${route.base}/customers/${u.customer.id}`, name: u.customer.name } : undefined}
      sessions={sessions.data?.userSessions} sessionsError={sessions.error} />
  );
}

export function InternalUserPage({ id }: { id: string }) {
  const caller = useCaller();
  const route = useRoute();
  const [{ data, fetching, error }] = useQuery({ query: InternalUserQuery, variables: { id }, context: lists("InternalUser") });
  const offered = data?.internalUser ? supportActions(caller, data.internalUser, true) : null;
  const after = route.query.get("after") || null;
  const [sessions] = useQuery({ query: InternalUserSessionsQuery, variables: { id, first: SESSIONS_PAGE, after },
    pause: !offered?.sessions, context: lists("UserSession") });
  const [, unlock] = useMutation(UnlockInternalUser);
  const [, reset] = useMutation(ResetInternalSecondFactor);
  const [, resend] = useMutation(ResendInternalInvitation);
  const [, revoke] = useMutation(RevokeInternalInvitation);
  const [, endSession] = useMutation(EndInternalUserSession);
  const [, endSessions] = useMutation(EndInternalUserSessions);
  if (fetching && !data) return <Loading />;
  const u = data?.internalUser;
  if (!u) return <Gone error={error} />;
  const tools = toolsOf(true, id, { unlock, reset, resend, revoke, endSession, endSessions });
  return (
    <UserSupport user={u} tools={tools} back={`${route.base}/internal-users`} backLabel={tr("user.allInternalUsers")}
      sessions={sessions.data?.internalUserSessions} sessionsError={sessions.error} />
  );
}

function Gone({ error }: { error?: CombinedError }) {
  const { t: tr } = useTranslation();
  return (
    <>
      <PageTitle>{tr("user.user")}</PageTitle>
      <PageError error={error} what={tr("user.thisUser")} />
      {!error && <Text>{tr("user.weCouldNotFindThisUser")}</Text>}
    </>
  );
}

// UserLanguage is a customer user's saved language for pages and e-mails
// (D-languages), "" for the browser's; editable by who may edit the user.
interface UserLanguage {
  value: string;
  editable: boolean;
  save: (language: string) => Result;
}

function UserSupport({ user: u, tools, back, backLabel, customer, language, sessions, sessionsError }: {
  user: Account;
  tools: Tools;
  back: string;
  backLabel: string;
  customer?: { href: string; name: string };
  language?: UserLanguage;
  sessions?: { items: Session[]; nextCursor?: string | null };
  sessionsError?: CombinedError;
}) {
  const { t: tr } = useTranslation();
  const caller = useCaller();
  const offered = supportActions(caller, u, tools.internal);
  const [errs, setErrs] = useState<string[]>([]);
  const [done, setDone] = useState("");
  const [busy, setBusy] = useState("");
  const [confirming, setConfirming] = useState<"" | "reset" | "revoke" | "all">("");
  // act runs a support mutation and says how it went
  const act = async (what: string, run: () => Result, success: string) => {
    setBusy(what);
    const m = messages((await run()).error);
    setBusy("");
    setErrs(m);
    setDone(m.length ? "" : success);
    return m;
  };
  const items = sessions?.items ?? [];
  return (
    <>
      <PageTitle>{u.name || u.email}</PageTitle>
      <Text mb="md"><Link href={back}>{backLabel}</Link></Text>
      <Table variant="vertical" withTableBorder maw={720} mb="lg" style={{ overflowWrap: "anywhere" }} data-testid="user-details">
        <Table.Tbody>
          <Table.Tr><Table.Th w={180}>{tr("user.eMail")}</Table.Th><Table.Td>{u.email}</Table.Td></Table.Tr>
          {customer && <Table.Tr><Table.Th>{tr("user.customer")}</Table.Th><Table.Td><Link href={customer.href}>{customer.name}</Link></Table.Td></Table.Tr>}
          <Table.Tr><Table.Th>{tr("user.role")}</Table.Th><Table.Td>{u.role}</Table.Td></Table.Tr>
          {language && (
            <Table.Tr>
              <Table.Th>{tr("user.language")}</Table.Th>
              <Table.Td data-testid="user-language">
                {language.editable ? (
                  <NativeSelect size="xs" maw={260} aria-label={tr("user.languageOf", { email: u.email })} value={language.value}
                    data={[{ value: "", label: tr("user.browserLanguage") }, ...LANGUAGES.map((l) => ({ value: l.code, label: l.name }))]}
                    onChange={(e) => act("language", () => language.save(e.currentTarget.value), tr("user.languageSaved"))} />
                ) : (
                  LANGUAGES.find((l) => l.code === language.value)?.name ?? tr("user.browserLanguage")
                )}
              </Table.Td>
            </Table.Tr>
          )}
          <Table.Tr>
            <Table.Th>{tr("user.status")}</Table.Th>
            <Table.Td data-testid="user-status">
              <StatusBadge status={u.status} />{" "}
              {u.status === "locked" && <>{tr("user.until", { time: formatTime(u.lockedUntil) })}</>}
              {u.status === "suspended" && <>{tr("user.since", { time: formatTime(u.suspendedAt) })}</>}
              {u.status === "invited" && <>{tr("user.theInvitationIsNotAcceptedYet")}</>}
            </Table.Td>
          </Table.Tr>
          <Table.Tr><Table.Th>{tr("user.failedSignIns")}</Table.Th><Table.Td data-testid="failed-sign-ins">{u.failedSignIns}</Table.Td></Table.Tr>
          <Table.Tr><Table.Th>{tr("user.secondFactor")}</Table.Th><Table.Td data-testid="second-factor">{secondFactors(u)}</Table.Td></Table.Tr>
          <Table.Tr><Table.Th>{tr("user.created")}</Table.Th><Table.Td>{formatTime(u.createdAt)}</Table.Td></Table.Tr>
        </Table.Tbody>
      </Table>
      {(offered.unlock || offered.resetSecondFactor || offered.resendInvitation || offered.revokeInvitation) && (
        <Group mb="sm" data-testid="support-actions">
          {offered.unlock && (
            <Button variant="default" loading={busy === "unlock"}
              onClick={() => act("unlock", tools.unlock, tr("user.isUnlockedAndCanSignIn", { email: u.email }))}>{tr("user.unlock")}</Button>
          )}
          {offered.resendInvitation && (
            <Button variant="default" loading={busy === "resend"}
              onClick={() => act("resend", tools.resend, tr("user.aNewInvitationWasSentTo", { email: u.email }))}>
              {tr("user.resendInvitation")}
            </Button>
          )}
          {offered.revokeInvitation && (
            <Button variant="outline" color="var(--app-danger)" onClick={() => setConfirming("revoke")}>{tr("user.revokeInvitation")}</Button>
          )}
          {offered.resetSecondFactor && (
            <Button variant="outline" color="var(--app-danger)" onClick={() => setConfirming("reset")}>{tr("user.resetSecondFactor")}</Button>
          )}
        </Group>
      )}
      {caller.internal && u.status === "active" && (
        <Group mb="sm"><ActAsButton userId={u.id} email={u.email} /></Group>
      )}
      <FormErrors messages={errs} />
      {done && <Text role="status" mb="sm" data-testid="done">{done}</Text>}
      {offered.sessions && (
        <>
          <Group justify="space-between" mt="xl" mb="xs">
            <Title order={2} size="h3">{tr("user.sessions")}</Title>
            {offered.signOut && items.length > 0 && (
              <Button variant="outline" color="var(--app-danger)" onClick={() => setConfirming("all")}>{tr("user.signOutEverywhere")}</Button>
            )}
          </Group>
          <Text size="sm" c="dimmed" mb="xs">{tr("user.sessionsHint")}</Text>
          <PageError error={sessionsError} what={tr("user.thisUserSSessions")} />
          {sessions && items.length === 0 && <Empty>{tr("user.noBrowserIsSignedIn")}</Empty>}
          {items.length > 0 && (
            <DataTable label={tr("user.sessions")} rows={items} rowKey={(s) => s.id} columns={[
              { label: tr("user.browser"), cell: (s) => <span title={s.userAgent}>{describeAgent(s.userAgent)}</span> },
              { label: tr("user.address"), cell: (s) => s.address || "—" },
              { label: tr("user.signedIn"), cell: (s) => formatTime(s.signedInAt) },
              { label: tr("user.lastSeen"), cell: (s) => formatTime(s.lastSeenAt) },
              { label: tr("user.method"), cell: (s) => signInMethods(s.methods) },
              ...(offered.signOut ? [{
                label: tr("user.actions"),
                cell: (s: Session) => (
                  <Button size="xs" variant="default" loading={busy === s.id}
                    aria-label={tr("user.signOutSignedIn", { userAgent: describeAgent(s.userAgent), signedInAt: formatTime(s.signedInAt) })}
                    onClick={() => act(s.id, () => tools.endSession(s.id), tr("user.theSessionWasSignedOut"))}>{tr("user.signOut")}</Button>
                ),
              }] : []),
            ]} />
          )}
          <Pager next={sessions?.nextCursor} />
        </>
      )}
      <ConfirmDelete opened={confirming === "reset"} onClose={() => setConfirming("")} kind={tr("user.user2")} verb={tr("user.resetTheSecondFactorOf")}
        name={u.email}
        consequence={tr("user.theAuthenticatorAppItsRecoveryCodes")}
        onConfirm={() => act("reset", tools.reset, tr("user.theSecondFactorOfWasReset", { email: u.email }))} />
      <ConfirmDelete opened={confirming === "revoke"} onClose={() => setConfirming("")} kind={tr("user.user2")} verb={tr("user.revokeTheInvitationOf")}
        name={u.email}
        consequence={tr("user.theInvitationLinkStopsWorkingAnd")}
        onConfirm={async () => {
          const m = messages((await tools.revoke()).error);
          if (m.length === 0) navigate(back);
          return m;
        }} />
      <ConfirmDelete opened={confirming === "all"} onClose={() => setConfirming("")} kind={tr("user.user2")} verb={tr("user.endEverySessionOf")}
        name={u.email}
        consequence={tr("user.everyBrowserSessionAppSignIn")}
        onConfirm={() => act("all", tools.endSessions, tr("user.wasSignedOutEverywhere", { email: u.email }))} />
    </>
  );
}
