// The impersonation parts of the console app (D-impersonation): the banner
// that says who acts with "End", the support user's "Act as this user",
// and the customer's "Support access" page (its decision, every
// impersonation, End).
import { useEffect, useState } from "react";
import { Alert, Button, Group, Switch, Text, TextInput } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "./gql";
import { lists } from "./cache";
import { useCaller } from "./me";
import { messages } from "./forms";
import { ModalForm } from "./modalform";
import { DataTable } from "./table";
import { Empty, FormErrors, Loading, PageError, PageTitle, Pager, formatTime } from "./ui";
import { useRoute } from "./router";
import { endImpersonation, exchangeImpersonation, fetchActor, type Actor } from "./actas";

const ImpersonateUser = graphql(`
  mutation ImpersonateUser($id: ID!, $reason: String!) {
    impersonateUser(id: $id, reason: $reason) { id subjectToken subjectTokenType expiresIn }
  }
`);
const ImpersonationsQuery = graphql(`
  query Impersonations($customerId: ID!, $first: Int, $after: String) {
    impersonations(customerId: $customerId, first: $first, after: $after) {
      items { id userEmail actorEmail reason state createdAt expiresAt endedAt }
      nextCursor
    }
  }
`);
const ImpersonationPolicyQuery = graphql(`
  query ImpersonationPolicy($customerId: ID!) { impersonationPolicy(customerId: $customerId) { allowed } }
`);
const SetImpersonationPolicy = graphql(`
  mutation SetImpersonationPolicy($customerId: ID!, $allowed: Boolean!) {
    setImpersonationPolicy(customerId: $customerId, allowed: $allowed) { allowed }
  }
`);
const EndImpersonation = graphql(`
  mutation EndImpersonation($id: ID!) { endImpersonation(id: $id) { id state endedAt } }
`);

// ImpersonationBanner says, on every page, that a support user acts as the
// signed-in user, with End.
export function ImpersonationBanner() {
  const caller = useCaller();
  const [actor, setActor] = useState<Actor | null>(null);
  const [ending, setEnding] = useState(false);
  useEffect(() => {
    let live = true;
    void fetchActor().then((a) => live && setActor(a));
    return () => {
      live = false;
    };
  }, []);
  if (!actor) return null;
  return (
    <Alert color="yellow" variant="filled" radius={0} role="status" data-testid="impersonation-banner" c="black"
      title={`${actor.email || "Support"} is acting as ${caller.me.email}`}>
      <Group justify="space-between" wrap="wrap">
        <Text size="sm" c="black">
          Everything done here is done as {caller.me.email}, with that user's role, and recorded with {actor.email || "the support user"}
          {actor.expiresAt ? `; it ends by itself at ${formatTime(actor.expiresAt)}` : ""}.
        </Text>
        {actor.impersonationId && (
          <Button size="compact-sm" color="dark" loading={ending} data-testid="impersonation-end"
            onClick={() => {
              setEnding(true);
              void endImpersonation();
            }}>End</Button>
        )}
      </Group>
    </Alert>
  );
}

// ActAsButton starts an impersonation of a customer's user, for a reason.
export function ActAsButton({ userId, email }: { userId: string; email: string }) {
  const caller = useCaller();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [errs, setErrs] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [, impersonate] = useMutation(ImpersonateUser);
  if (!caller.canWrite("IMPERSONATE_USER")) return null;
  return (
    <>
      <Button variant="outline" onClick={() => setOpen(true)} data-testid="act-as">Act as this user</Button>
      {open && (
        <ModalForm title={`Act as ${email}`} submit="Start" busy={busy} errors={errs} onClose={() => setOpen(false)}
          onSubmit={async () => {
            setBusy(true);
            const r = await impersonate({ id: userId, reason });
            const m = messages(r.error);
            const start = r.data?.impersonateUser;
            if (m.length > 0 || !start) {
              setErrs(m.length > 0 ? m : ["The impersonation did not start."]);
              setBusy(false);
              return;
            }
            const e = await exchangeImpersonation(start.subjectToken, start.subjectTokenType);
            if (e) {
              setErrs([e]);
              setBusy(false);
            }
          }}>
          <Text size="sm">
            You will work as {email}, with that user's role, for at most an hour. The customer sees the reason and can end it.
          </Text>
          <TextInput label="Reason" required value={reason} maxLength={500} data-autofocus
            onChange={(e) => setReason(e.currentTarget.value)} />
        </ModalForm>
      )}
    </>
  );
}

const PAGE = 25;

// SupportAccessPage is the customer's decision on support impersonation
// and the list of every impersonation of its users, each running one with End.
export function SupportAccessPage({ customerId }: { customerId: string }) {
  const caller = useCaller();
  const route = useRoute();
  const after = route.query.get("after") || null;
  const [policy] = useQuery({ query: ImpersonationPolicyQuery, variables: { customerId }, context: lists("ImpersonationPolicy") });
  const [list] = useQuery({ query: ImpersonationsQuery, variables: { customerId, first: PAGE, after }, context: lists("Impersonation") });
  const [setState, setPolicy] = useMutation(SetImpersonationPolicy);
  const [, end] = useMutation(EndImpersonation);
  const [errs, setErrs] = useState<string[]>([]);
  const allowed = policy.data?.impersonationPolicy?.allowed ?? false;
  const items = list.data?.impersonations.items ?? [];
  return (
    <>
      <PageTitle>Support access</PageTitle>
      <Text mb="sm">
        When you allow it, support staff may act as one of your users for a stated reason, for at most an hour. Every
        impersonation is listed here and in your audit log; end any of them at once.
      </Text>
      <PageError error={policy.error} what="the support access setting" />
      {policy.fetching && !policy.data ? <Loading /> : (
        <Switch mb="md" label="Allow support to act as our users" checked={allowed} data-testid="allow-impersonation"
          disabled={!caller.canWrite("ALLOW_IMPERSONATION") || setState.fetching}
          onChange={async (e) => {
            const r = await setPolicy({ customerId, allowed: e.currentTarget.checked },
              { additionalTypenames: ["ImpersonationPolicy", "Impersonation"] });
            setErrs(messages(r.error));
          }} />
      )}
      <FormErrors messages={errs} />
      <PageError error={list.error} what="the impersonations" />
      {list.data && items.length === 0 && <Empty>Support has not acted as any of your users.</Empty>}
      {items.length > 0 && (
        <DataTable label="Impersonations" rows={items} rowKey={(m) => m.id} columns={[
          { label: "User", cell: (m) => m.userEmail },
          { label: "Support", cell: (m) => m.actorEmail },
          { label: "Reason", cell: (m) => m.reason },
          { label: "State", cell: (m) => <span data-testid="impersonation-state">{m.state}</span> },
          { label: "Started", cell: (m) => formatTime(m.createdAt) },
          { label: "Ends", cell: (m) => formatTime(m.endedAt ?? m.expiresAt) },
          {
            label: "Actions",
            cell: (m) => (m.state === "active" || m.state === "pending") && caller.canWrite("MANAGE_CUSTOMER_USER") ? (
              <Button size="xs" variant="outline" color="var(--app-danger)" aria-label={`End the impersonation of ${m.userEmail} by ${m.actorEmail}`}
                onClick={async () => setErrs(messages((await end({ id: m.id }, { additionalTypenames: ["Impersonation"] })).error))}>
                End
              </Button>
            ) : "—",
          },
        ]} />
      )}
      <Pager next={list.data?.impersonations.nextCursor} />
    </>
  );
}
