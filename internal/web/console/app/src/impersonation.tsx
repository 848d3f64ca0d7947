// The impersonation parts of the console app (D-impersonation): the banner
// that says who acts with "End", the support user's "Act as this user",
// and the customer's "Support access" page (its decision, every
// impersonation, End).
import { useEffect, useState } from "react";
import { Alert, Anchor, Button, Group, Select, Switch, Text, TextInput } from "@mantine/core";
import { useClient, useMutation, useQuery } from "urql";
import { graphql } from "./gql";
import { lists } from "./cache";
import { useCaller } from "./me";
import { messages } from "./forms";
import { ModalForm } from "./modalform";
import { DataTable } from "./table";
import { Empty, FormErrors, Loading, PageError, PageTitle, Pager, formatTime } from "./ui";
import { useRoute } from "./router";
import { actAsURL, endImpersonation, exchangeImpersonation, fetchActor, fetchActorInstances, type Actor, type ActorInstance } from "./actas";
import { useTranslation } from "react-i18next";

const ImpersonateUser = graphql(`
  mutation ImpersonateUser($id: ID!, $reason: String!) {
    impersonateUser(id: $id, reason: $reason) { id subjectToken subjectTokenType expiresIn approval approverEmail }
  }
`);
const ImpersonationStateQuery = graphql(`
  query ImpersonationState($id: ID!) { impersonation(id: $id) { id state approverEmail } }
`);
const CollectSubjectToken = graphql(`
  mutation CollectSubjectToken($id: ID!) { impersonationSubjectToken(id: $id) { id subjectToken subjectTokenType expiresIn } }
`);
const ApproveImpersonation = graphql(`
  mutation ApproveImpersonation($id: ID!) { approveImpersonation(id: $id) { id state approval decidedAt } }
`);
const DenyImpersonation = graphql(`
  mutation DenyImpersonation($id: ID!) { denyImpersonation(id: $id) { id state approval decidedAt endedAt } }
`);
const ApproverCandidates = graphql(`
  query ImpersonationApprovers($customerId: ID!) { users(customerId: $customerId, first: 100) { items { id email role status } } }
`);
const ImpersonationsQuery = graphql(`
  query Impersonations($customerId: ID!, $first: Int, $after: String) {
    impersonations(customerId: $customerId, first: $first, after: $after) {
      items { id userEmail actorEmail reason state approverId approverEmail createdAt expiresAt endedAt }
      nextCursor
    }
  }
`);
const ImpersonationPolicyQuery = graphql(`
  query ImpersonationPolicy($customerId: ID!) { impersonationPolicy(customerId: $customerId) { allowed approverId approvalRequired } }
`);
const SetImpersonationPolicy = graphql(`
  mutation SetImpersonationPolicy($customerId: ID!, $allowed: Boolean!, $approverId: String) {
    setImpersonationPolicy(customerId: $customerId, allowed: $allowed, approverId: $approverId) { allowed approverId approvalRequired }
  }
`);
const EndImpersonation = graphql(`
  mutation EndImpersonation($id: ID!) { endImpersonation(id: $id) { id state endedAt } }
`);

// ImpersonationBanner says, on every page, that a support user acts as the
// signed-in user, with End, and offers to open the customer's instances'
// tenant web apps as the user ("Open in", with the impersonation's id).
export function ImpersonationBanner() {
  const { t } = useTranslation();
  const caller = useCaller();
  const [actor, setActor] = useState<Actor | null>(null);
  const [ending, setEnding] = useState(false);
  const [instances, setInstances] = useState<ActorInstance[]>([]);
  const customerId = caller.me.customerId ?? "";
  useEffect(() => {
    let live = true;
    void fetchActor().then((a) => {
      if (!live) return;
      setActor(a);
      if (a?.impersonationId) void fetchActorInstances(customerId).then((l) => live && setInstances(l));
    });
    return () => {
      live = false;
    };
  }, [customerId]);
  if (!actor) return null;
  return (
    <Alert color="yellow" variant="filled" radius={0} role="status" data-testid="impersonation-banner" c="black"
      title={t("impersonation.actingAs", { actor: actor.email || t("impersonation.support"), email: caller.me.email })}>
      <Group justify="space-between" wrap="wrap">
        <Text size="sm" c="black">
          {actor.expiresAt
            ? t("impersonation.doneAsUntil", { email: caller.me.email, actor: actor.email || t("impersonation.theSupportUser"),
              time: formatTime(actor.expiresAt) })
            : t("impersonation.doneAs", { email: caller.me.email, actor: actor.email || t("impersonation.theSupportUser") })}
        </Text>
        {actor.impersonationId && instances.length > 0 && (
          <Group gap="sm" wrap="wrap" role="group" aria-label={t("impersonation.openInTitle")}>
            {instances.map((i) => (
              <Anchor key={i.id} href={actAsURL(i.url, actor.impersonationId)} c="black" fw={600} underline="always"
                data-testid="impersonation-open-in">{t("impersonation.openIn", { name: i.name })}</Anchor>
            ))}
          </Group>
        )}
        {actor.impersonationId && (
          <Button size="compact-sm" color="dark" loading={ending} data-testid="impersonation-end"
            onClick={() => {
              setEnding(true);
              void endImpersonation();
            }}>{t("impersonation.end")}</Button>
        )}
      </Group>
    </Alert>
  );
}

// ActAsButton starts an impersonation of a customer's user, for a reason.
// When the customer names an approver, the start waits for the approval
// (D-impersonation-approval): Continue collects the subject token once the
// approver has approved, and says where the request stands otherwise.
export function ActAsButton({ userId, email }: { userId: string; email: string }) {
  const { t } = useTranslation();
  const caller = useCaller();
  const client = useClient();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [errs, setErrs] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [waiting, setWaiting] = useState<{ id: string; approver: string } | null>(null);
  const [note, setNote] = useState("");
  const [, impersonate] = useMutation(ImpersonateUser);
  const [, collect] = useMutation(CollectSubjectToken);
  if (!caller.canWrite("IMPERSONATE_USER")) return null;
  const exchange = async (subjectToken: string, subjectTokenType: string) => {
    const e = await exchangeImpersonation(subjectToken, subjectTokenType);
    if (e) {
      setErrs([e]);
      setBusy(false);
    }
  };
  const proceed = async (w: { id: string; approver: string }) => {
    setBusy(true);
    setErrs([]);
    const r = await client.query(ImpersonationStateQuery, { id: w.id }, { requestPolicy: "network-only" }).toPromise();
    const state = r.data?.impersonation?.state;
    if (state !== "approved") {
      setBusy(false);
      const m = messages(r.error);
      if (m.length > 0) setErrs(m);
      else if (state === "denied") setNote(t("impersonation.denied", { approver: w.approver }));
      else if (state === "awaiting_approval") setNote(t("impersonation.stillAwaiting", { approver: w.approver }));
      else setNote(t("impersonation.lapsed"));
      return;
    }
    const c = await collect({ id: w.id });
    const token = c.data?.impersonationSubjectToken;
    if (!token) {
      setErrs(messages(c.error));
      setBusy(false);
      return;
    }
    await exchange(token.subjectToken, token.subjectTokenType);
  };
  return (
    <>
      <Button variant="outline" onClick={() => setOpen(true)} data-testid="act-as">{t("impersonation.actAsThisUser")}</Button>
      {open && (
        <ModalForm title={t("impersonation.actAs", { email })} submit={waiting ? t("impersonation.continue") : t("impersonation.start")}
          busy={busy} errors={errs} onClose={() => setOpen(false)}
          onSubmit={async () => {
            if (waiting) {
              await proceed(waiting);
              return;
            }
            setBusy(true);
            const r = await impersonate({ id: userId, reason });
            const m = messages(r.error);
            const start = r.data?.impersonateUser;
            if (m.length > 0 || !start) {
              setErrs(m.length > 0 ? m : [t("impersonation.didNotStart")]);
              setBusy(false);
              return;
            }
            if (start.approval === "pending") {
              setWaiting({ id: start.id, approver: start.approverEmail });
              setNote(t("impersonation.awaiting", { approver: start.approverEmail }));
              setBusy(false);
              return;
            }
            await exchange(start.subjectToken, start.subjectTokenType);
          }}>
          {waiting ? (
            <Text size="sm" role="status" data-testid="impersonation-waiting">{note}</Text>
          ) : (
            <>
              <Text size="sm">
                {t("impersonation.youWillWorkAs", { email })}
              </Text>
              <TextInput label={t("impersonation.reason")} required value={reason} maxLength={500} data-autofocus
                onChange={(e) => setReason(e.currentTarget.value)} />
            </>
          )}
        </ModalForm>
      )}
    </>
  );
}

const PAGE = 25;

// SupportAccessPage is the customer's decision on support impersonation
// and the list of every impersonation of its users, each running one with End.
export function SupportAccessPage({ customerId }: { customerId: string }) {
  const { t } = useTranslation();
  const caller = useCaller();
  const route = useRoute();
  const after = route.query.get("after") || null;
  const [policy] = useQuery({ query: ImpersonationPolicyQuery, variables: { customerId }, context: lists("ImpersonationPolicy") });
  const [list] = useQuery({ query: ImpersonationsQuery, variables: { customerId, first: PAGE, after }, context: lists("Impersonation") });
  const [setState, setPolicy] = useMutation(SetImpersonationPolicy);
  const [, end] = useMutation(EndImpersonation);
  const [, approve] = useMutation(ApproveImpersonation);
  const [, deny] = useMutation(DenyImpersonation);
  const decides = caller.canWrite("ALLOW_IMPERSONATION");
  const [candidates] = useQuery({ query: ApproverCandidates, variables: { customerId }, pause: !decides });
  const approverId = policy.data?.impersonationPolicy?.approverId ?? "";
  const approvers = (candidates.data?.users.items ?? [])
    .filter((u) => (u.role === "owner" || u.role === "admin") && u.status === "active")
    .map((u) => ({ value: u.id, label: u.email }));
  const savePolicy = async (next: { allowed: boolean; approverId: string }) => {
    const r = await setPolicy({ customerId, ...next }, { additionalTypenames: ["ImpersonationPolicy", "Impersonation"] });
    setErrs(messages(r.error));
  };
  const decide = async (act: typeof approve | typeof deny, id: string) =>
    setErrs(messages((await act({ id }, { additionalTypenames: ["Impersonation"] })).error));
  const [errs, setErrs] = useState<string[]>([]);
  const allowed = policy.data?.impersonationPolicy?.allowed ?? false;
  const items = list.data?.impersonations.items ?? [];
  return (
    <>
      <PageTitle>{t("impersonation.supportAccess")}</PageTitle>
      <Text mb="sm">{t("impersonation.supportAccessIntro")}</Text>
      <PageError error={policy.error} what={t("impersonation.theSetting")} />
      {policy.fetching && !policy.data ? <Loading /> : (
        <Switch mb="md" label={t("impersonation.allow")} checked={allowed} data-testid="allow-impersonation"
          disabled={!caller.canWrite("ALLOW_IMPERSONATION") || setState.fetching}
          onChange={(e) => void savePolicy({ allowed: e.currentTarget.checked, approverId })} />
      )}
      {policy.data && allowed && (
        <Select mb="md" maw={420} label={t("impersonation.approver")} description={t("impersonation.approverHelp")}
          data-testid="impersonation-approver" clearable searchable placeholder={t("impersonation.approverNone")}
          data={approverId && !approvers.some((a) => a.value === approverId) ? [...approvers, { value: approverId, label: approverId }] : approvers}
          value={approverId || null} disabled={!decides || setState.fetching}
          onChange={(v) => void savePolicy({ allowed, approverId: v ?? "" })} />
      )}
      <FormErrors messages={errs} />
      <PageError error={list.error} what={t("impersonation.theImpersonations")} />
      {list.data && items.length === 0 && <Empty>{t("impersonation.none")}</Empty>}
      {items.length > 0 && (
        <DataTable label={t("impersonation.impersonations")} rows={items} rowKey={(m) => m.id} columns={[
          { label: t("impersonation.user"), cell: (m) => m.userEmail },
          { label: t("impersonation.support"), cell: (m) => m.actorEmail },
          { label: t("impersonation.reason"), cell: (m) => m.reason },
          { label: t("impersonation.state"), cell: (m) => <span data-testid="impersonation-state">{m.state}</span> },
          { label: t("impersonation.approverColumn"), cell: (m) => m.approverEmail || "—" },
          { label: t("impersonation.started"), cell: (m) => formatTime(m.createdAt) },
          { label: t("impersonation.ends"), cell: (m) => formatTime(m.endedAt ?? m.expiresAt) },
          {
            label: t("impersonation.actions"),
            cell: (m) => m.state === "awaiting_approval" && m.approverId === caller.me.userId && decides ? (
              <Group gap="xs" wrap="nowrap">
                <Button size="xs" data-testid="impersonation-approve"
                  aria-label={t("impersonation.approveWhat", { user: m.userEmail, actor: m.actorEmail })}
                  onClick={() => void decide(approve, m.id)}>{t("impersonation.approve")}</Button>
                <Button size="xs" variant="outline" color="var(--app-danger)" data-testid="impersonation-deny"
                  aria-label={t("impersonation.denyWhat", { user: m.userEmail, actor: m.actorEmail })}
                  onClick={() => void decide(deny, m.id)}>{t("impersonation.deny")}</Button>
              </Group>
            ) : (m.state === "active" || m.state === "pending" || m.state === "approved") && caller.canWrite("MANAGE_CUSTOMER_USER") ? (
              <Button size="xs" variant="outline" color="var(--app-danger)" aria-label={t("impersonation.endOf", { email: m.userEmail, actor: m.actorEmail })}
                onClick={async () => setErrs(messages((await end({ id: m.id }, { additionalTypenames: ["Impersonation"] })).error))}>
                {t("impersonation.end")}
              </Button>
            ) : "—",
          },
        ]} />
      )}
      <Pager next={list.data?.impersonations.nextCursor} />
    </>
  );
}
