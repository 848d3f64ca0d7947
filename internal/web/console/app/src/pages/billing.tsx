import { useState } from "react";
import { Button, Group, Modal, NativeSelect, NumberInput, Stack, Tabs, Text, TextInput, Textarea, Title } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import { lists } from "../cache";
import { useCaller } from "../me";
import { useProblems } from "../forms";
import { codeOf, graphErrors } from "../errors";
import { navigate, useRoute, withQuery } from "../router";
import { chooseTab } from "../tabs";
import { DataTable } from "../table";
import { Empty, FormErrors, Loading, PageError, Pager, formatTime } from "../ui";
import { InvoiceList } from "./platform";
import { PAGE_SIZE } from "./customers";
import { REDACTED, billed } from "./usage";
import { useTranslation } from "react-i18next";
import { tr } from "../i18n";

const BillingQuery = graphql(`
  query CustomerBilling($id: ID!, $payments: Boolean!, $credits: Boolean!, $setup: Boolean!, $plans: Boolean!, $first: Int, $after: String) {
    customer(id: $id) {
      id
      payments(first: $first, after: $after) @include(if: $payments) {
        items { id invoiceId amount currency method status receivedAt }
        nextCursor
      }
      credits(first: $first, after: $after) @include(if: $credits) {
        items { id amount currency reason issuedAt }
        nextCursor
      }
      billingSetup @include(if: $setup) {
        planId billingEmail companyName address country taxId currency paymentMethod updatedAt
      }
    }
    plans @include(if: $plans) { id name currency active }
  }
`);
const IssueCredit = graphql(`
  mutation IssueCredit($customerId: ID!, $input: CreditInput!) {
    issueCredit(customerId: $customerId, input: $input) { id amount currency reason issuedAt }
  }
`);
const PutBillingSetup = graphql(`
  mutation PutBillingSetup($customerId: ID!, $input: BillingSetupInput!) {
    putBillingSetup(customerId: $customerId, input: $input) {
      customerId planId billingEmail companyName address country taxId currency paymentMethod updatedAt
    }
  }
`);

export const BILLING_VIEWS = ["invoices", "payments", "credits", "setup"] as const;
export const PAYMENT_METHODS = ["invoice", "card", "sepa_debit"];
const BILLING = { additionalTypenames: ["Credit", "BillingSetup", "Customer"] };

// Billing is a customer's invoices, payments, credits and billing setup,
// one at a time (?view=…, each with its own paging); amounts are hidden
// for roles without billed units, with the reason.
export function Billing({ customerId }: { customerId: string }) {
  const { t: tr } = useTranslation();
  const caller = useCaller();
  const route = useRoute();
  const view = chooseTab(BILLING_VIEWS, route.query.get("view"));
  const after = route.query.get("after") || null;
  const here = window.location.pathname + window.location.search;
  const [{ data, fetching, error }] = useQuery({
    query: BillingQuery,
    variables: {
      id: customerId, payments: view === "payments", credits: view === "credits", setup: view === "setup",
      plans: view === "setup" && caller.can("MANAGE_CATALOG"), first: PAGE_SIZE, after,
    },
    pause: view === "invoices",
    context: lists("Credit", "Payment", "BillingSetup"),
  });
  const [issuing, setIssuing] = useState(false);
  // kept here, as the form starts again from the server's answer
  const [saved, setSaved] = useState(false);
  const redacted = !caller.can("VIEW_BILLED_UNITS");
  // a customer without a billing setup answers NOT_FOUND for that field
  const errs = graphErrors(error);
  const noSetup = view === "setup" && errs.length > 0 && errs.every((e) => codeOf(e) === "NOT_FOUND") && !!data?.customer;
  const c = data?.customer;
  const amount = (a: number | null | undefined, cur: string) => billed(a, cur) ?? REDACTED;
  return (
    <Tabs variant="pills" value={view} keepMounted={false}
      onChange={(v) => navigate(withQuery(here, { view: v === "invoices" ? null : v, after: null, prev: null, status: null }))}>
      <Tabs.List aria-label={tr("billing.billing")} mb="md">
        <Tabs.Tab value="invoices">{tr("billing.invoices")}</Tabs.Tab>
        <Tabs.Tab value="payments">{tr("billing.payments")}</Tabs.Tab>
        <Tabs.Tab value="credits">{tr("billing.credits")}</Tabs.Tab>
        <Tabs.Tab value="setup">{tr("billing.billingSetup")}</Tabs.Tab>
      </Tabs.List>
      {redacted && view !== "setup" && view !== "invoices" && (
        <Text size="sm" c="dimmed" mb="sm" data-testid="redaction-note">
          {tr("billing.amountsAreHiddenYourRoleDoes")}
        </Text>
      )}
      {!noSetup && view !== "invoices" && <PageError error={error} what={tr("billing.thisBillingInformation")} />}
      {fetching && !data && view !== "invoices" && <Loading />}
      <Tabs.Panel value="invoices"><InvoiceList customerId={customerId} /></Tabs.Panel>
      <Tabs.Panel value="payments">
        {c?.payments && c.payments.items.length === 0 && <Empty>{tr("billing.noPaymentsReceived")}</Empty>}
        {c?.payments && c.payments.items.length > 0 && (
          <DataTable label={tr("billing.payments")} rows={c.payments.items} rowKey={(p) => p.id} columns={[
            { label: tr("billing.received"), cell: (p) => formatTime(p.receivedAt) },
            { label: tr("billing.amount"), numeric: true, cell: (p) => amount(p.amount, p.currency) },
            { label: tr("billing.method"), cell: (p) => p.method },
            { label: tr("billing.status"), cell: (p) => p.status },
          ]} />
        )}
        <Pager next={c?.payments?.nextCursor} />
      </Tabs.Panel>
      <Tabs.Panel value="credits">
        {caller.canWrite("MANAGE_BILLING") && (
          <Group justify="flex-end" mb="sm"><Button onClick={() => setIssuing(true)}>{tr("billing.newCredit")}</Button></Group>
        )}
        {c?.credits && c.credits.items.length === 0 && <Empty>{tr("billing.noCreditsIssued")}</Empty>}
        {c?.credits && c.credits.items.length > 0 && (
          <DataTable label={tr("billing.credits")} rows={c.credits.items} rowKey={(x) => x.id} columns={[
            { label: tr("billing.issued"), cell: (x) => formatTime(x.issuedAt) },
            { label: tr("billing.amount"), numeric: true, cell: (x) => amount(x.amount, x.currency) },
            { label: tr("billing.reason"), cell: (x) => x.reason },
          ]} />
        )}
        <Pager next={c?.credits?.nextCursor} />
        {issuing && <CreditModal customerId={customerId} onClose={() => setIssuing(false)} />}
      </Tabs.Panel>
      <Tabs.Panel value="setup">
        {c && c.billingSetup !== undefined && (
          // undefined while another view's answer is still shown; a new key when the server's setup changes starts the form again from it
          <SetupForm key={c.billingSetup?.updatedAt ?? "none"} customerId={customerId} setup={c.billingSetup ?? null} plans={data?.plans ?? null}
            write={caller.canWrite("MANAGE_BILLING")} saved={saved} setSaved={setSaved} />
        )}
      </Tabs.Panel>
    </Tabs>
  );
}

function CreditModal({ customerId, onClose }: { customerId: string; onClose: () => void }) {
  const [amount, setAmount] = useState<string | number>("");
  const [currency, setCurrency] = useState("EUR");
  const [reason, setReason] = useState("");
  const { problems, check } = useProblems(["amount", "currency", "reason"]);
  const [{ fetching }, issue] = useMutation(IssueCredit);
  return (
    <Modal opened onClose={onClose} title={tr("billing.issueCredit")} centered>
      <form
        noValidate
        onSubmit={async (e) => {
          e.preventDefault();
          const res = await issue({ customerId, input: { amount: Number(amount) || 0, currency, reason } }, BILLING);
          if (check(res.error)) onClose();
        }}
      >
        <Stack>
          <NumberInput label={tr("billing.amount")} required min={0} decimalScale={2} value={amount} onChange={setAmount} error={problems.fields.amount} data-autofocus />
          <TextInput label={tr("billing.currency")} required value={currency} onChange={(e) => setCurrency(e.currentTarget.value.toUpperCase())} error={problems.fields.currency} />
          <Textarea label={tr("billing.reason")} required value={reason} onChange={(e) => setReason(e.currentTarget.value)} error={problems.fields.reason} />
          <FormErrors messages={problems.general} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>{tr("billing.cancel")}</Button>
            <Button type="submit" loading={fetching}>{tr("billing.issueCredit")}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

type Setup = {
  planId?: string | null; billingEmail: string; companyName: string; address: string; country: string;
  taxId: string; currency: string; paymentMethod: string; updatedAt?: string;
};

const EMPTY_SETUP: Setup = { planId: null, billingEmail: "", companyName: "", address: "", country: "", taxId: "", currency: "EUR", paymentMethod: "invoice" };

function SetupForm({ customerId, setup, plans, write, saved, setSaved }: {
  customerId: string;
  saved: boolean;
  setSaved: (b: boolean) => void;
  setup: Setup | null;
  plans: { id: string; name: string }[] | null;
  write: boolean;
}) {
  const [s, setS] = useState<Setup>(setup ?? EMPTY_SETUP);
  const { problems, check } = useProblems(["planId", "billingEmail", "companyName", "address", "country", "taxId", "currency", "paymentMethod"]);
  const [{ fetching }, put] = useMutation(PutBillingSetup);
  const field = (k: keyof Setup) => ({
    value: (s[k] as string) ?? "",
    readOnly: !write,
    error: problems.fields[k],
    onChange: (e: { currentTarget: { value: string } }) => { const v = e.currentTarget.value; setSaved(false); setS((x) => ({ ...x, [k]: v })); },
  });
  return (
    <form
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        const { planId, billingEmail, companyName, address, country, taxId, currency, paymentMethod } = s;
        const res = await put({ customerId, input: { planId: planId || null, billingEmail, companyName, address, country, taxId, currency, paymentMethod } }, BILLING);
        setSaved(check(res.error));
      }}
    >
      <Title order={2} size="h3" mb="xs">{tr("billing.billingSetup")}</Title>
      {!setup && <Empty>{write ? tr("billing.noSetupFill") : tr("billing.noSetup")}</Empty>}
      <Stack maw={520}>
        <TextInput label={tr("billing.billingEMail")} type="email" required {...field("billingEmail")} />
        <TextInput label={tr("billing.companyName")} {...field("companyName")} />
        <Textarea label={tr("billing.address")} autosize minRows={2} {...field("address")} />
        <Group grow wrap="wrap">
          <TextInput label={tr("billing.country")} description={tr("billing.isoCodeSuchAsDe")} {...field("country")} />
          <TextInput label={tr("billing.taxId")} {...field("taxId")} />
        </Group>
        <Group grow wrap="wrap">
          <TextInput label={tr("billing.currency")} required {...field("currency")} />
          <NativeSelect label={tr("billing.paymentMethod")} data={PAYMENT_METHODS} disabled={!write} {...field("paymentMethod")} />
        </Group>
        {plans ? (
          <NativeSelect label={tr("billing.plan")} disabled={!write} {...field("planId")}
            data={[{ value: "", label: tr("billing.noPlan") }, ...plans.map((p) => ({ value: p.id, label: p.name }))]} />
        ) : (
          <TextInput label={tr("billing.plan")} description={tr("billing.setByThePlatformSFinance")} value={s.planId ?? "none"} readOnly />
        )}
        {setup?.updatedAt && <Text size="sm" c="dimmed">{tr("billing.lastChanged", { time: formatTime(setup.updatedAt) })}</Text>}
        <FormErrors messages={problems.general} />
        {write && (
          <Group>
            <Button type="submit" loading={fetching}>{tr("billing.saveBillingSetup")}</Button>
            {saved && <Text size="sm" role="status" data-testid="saved">{tr("billing.saved")}</Text>}
          </Group>
        )}
      </Stack>
    </form>
  );
}
