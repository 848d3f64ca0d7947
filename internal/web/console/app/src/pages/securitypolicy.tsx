import { useState } from "react";
import { Button, Checkbox, Group, NumberInput, Stack, Text, Title } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import { useProblems } from "../forms";
import { FormErrors, Loading, PageError } from "../ui";
import { useTranslation } from "react-i18next";

// A customer organization's security policy (D-org-policy): session
// lifetimes, the minimum password length, and which second factors
// satisfy two-step verification. The identity provider enforces it on the
// organization's accounts.

const SecurityPolicyQuery = graphql(`
  query CustomerSecurityPolicy($id: ID!) {
    customer(id: $id) {
      id
      securityPolicy { sessionIdleSeconds sessionMaxSeconds passwordMinLength platformPasswordMinLength mfaForced mfaByTotp mfaByPasskey mfaBySso }
    }
  }
`);
const PutSecurityPolicy = graphql(`
  mutation PutSecurityPolicy($customerId: ID!, $input: SecurityPolicyInput!) {
    putSecurityPolicy(customerId: $customerId, input: $input) {
      sessionIdleSeconds sessionMaxSeconds passwordMinLength platformPasswordMinLength mfaForced mfaByTotp mfaByPasskey mfaBySso
    }
  }
`);

type Policy = {
  sessionIdleSeconds: number; sessionMaxSeconds: number; passwordMinLength: number; platformPasswordMinLength: number;
  mfaForced: boolean; mfaByTotp: boolean; mfaByPasskey: boolean; mfaBySso: boolean;
};

const MFA: { key: "mfaByTotp" | "mfaByPasskey" | "mfaBySso"; label: string }[] = [
  { key: "mfaByTotp", label: "securityPolicy.byTotp" },
  { key: "mfaByPasskey", label: "securityPolicy.byPasskey" },
  { key: "mfaBySso", label: "securityPolicy.bySso" },
];

export function SecurityPolicy({ customerId, write }: { customerId: string; write: boolean }) {
  const { t } = useTranslation();
  const [{ data, fetching, error }] = useQuery({ query: SecurityPolicyQuery, variables: { id: customerId } });
  const [saved, setSaved] = useState(false);
  if (fetching && !data) return <Loading />;
  const policy = data?.customer?.securityPolicy;
  return (
    <>
      <PageError error={error} what={t("securityPolicy.thePolicy")} />
      {policy && <PolicyForm key={JSON.stringify(policy)} customerId={customerId} policy={policy} write={write} saved={saved} setSaved={setSaved} />}
    </>
  );
}

function PolicyForm({ customerId, policy, write, saved, setSaved }: {
  customerId: string; policy: Policy; write: boolean; saved: boolean; setSaved: (b: boolean) => void;
}) {
  const { t } = useTranslation();
  // lifetimes are edited in minutes, stored in seconds
  const [idle, setIdle] = useState<number | string>(policy.sessionIdleSeconds / 60);
  const [max, setMax] = useState<number | string>(policy.sessionMaxSeconds / 60);
  const [minLength, setMinLength] = useState<number | string>(policy.passwordMinLength);
  const [mfa, setMfa] = useState({ mfaByTotp: policy.mfaByTotp, mfaByPasskey: policy.mfaByPasskey, mfaBySso: policy.mfaBySso });
  const { problems, check } = useProblems(["sessionIdleSeconds", "sessionMaxSeconds", "passwordMinLength"]);
  const [{ fetching }, put] = useMutation(PutSecurityPolicy);
  const edit = () => setSaved(false);
  return (
    <form
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        const input = {
          sessionIdleSeconds: Math.round(Number(idle) * 60), sessionMaxSeconds: Math.round(Number(max) * 60),
          passwordMinLength: Math.round(Number(minLength)), ...mfa,
        };
        setSaved(check((await put({ customerId, input }, { additionalTypenames: ["Customer"] })).error));
      }}
    >
      <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
        <Title order={2} size="h3" mt="xl" mb="xs" component="legend">{t("securityPolicy.title")}</Title>
        <Stack gap="xs">
          <NumberInput label={t("securityPolicy.idle")} description={t("securityPolicy.idleHint")} min={0} allowDecimal={false}
            value={idle} onChange={(v) => { edit(); setIdle(v); }} disabled={!write} error={problems.fields.sessionIdleSeconds} />
          <NumberInput label={t("securityPolicy.lifetime")} description={t("securityPolicy.lifetimeHint")} min={0} allowDecimal={false}
            value={max} onChange={(v) => { edit(); setMax(v); }} disabled={!write} error={problems.fields.sessionMaxSeconds} />
          <NumberInput label={t("securityPolicy.minLength")} description={t("securityPolicy.minLengthHint", { min: policy.platformPasswordMinLength })}
            min={policy.platformPasswordMinLength} max={128} allowDecimal={false}
            value={minLength} onChange={(v) => { edit(); setMinLength(v); }} disabled={!write} error={problems.fields.passwordMinLength} />
          <Text size="sm" fw={500} mt="xs">{t(policy.mfaForced ? "securityPolicy.secondSteps" : "securityPolicy.secondStepsWhenRequired")}</Text>
          {MFA.map((f) => (
            <Checkbox key={f.key} label={t(f.label)} checked={mfa[f.key]} disabled={!write}
              onChange={(e) => { const v = e.currentTarget.checked; edit(); setMfa((x) => ({ ...x, [f.key]: v })); }} />
          ))}
        </Stack>
      </fieldset>
      <FormErrors messages={problems.general} />
      {write && (
        <Group mt="sm">
          <Button type="submit" loading={fetching}>{t("securityPolicy.save")}</Button>
          {saved && <Text size="sm" role="status" data-testid="policy-saved">{t("securityPolicy.saved")}</Text>}
        </Group>
      )}
    </form>
  );
}
