import { useState } from "react";
import { Button, Checkbox, Group, NumberInput, Stack, Text, Title } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import { useProblems } from "../forms";
import { FormErrors, Loading, PageError } from "../ui";

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
  { key: "mfaByTotp", label: "An authenticator app's code" },
  { key: "mfaByPasskey", label: "A passkey" },
  { key: "mfaBySso", label: "An identity provider that enforces two-step verification" },
];

export function SecurityPolicy({ customerId, write }: { customerId: string; write: boolean }) {
  const [{ data, fetching, error }] = useQuery({ query: SecurityPolicyQuery, variables: { id: customerId } });
  const [saved, setSaved] = useState(false);
  if (fetching && !data) return <Loading />;
  const policy = data?.customer?.securityPolicy;
  return (
    <>
      <PageError error={error} what="the security policy" />
      {policy && <PolicyForm key={JSON.stringify(policy)} customerId={customerId} policy={policy} write={write} saved={saved} setSaved={setSaved} />}
    </>
  );
}

function PolicyForm({ customerId, policy, write, saved, setSaved }: {
  customerId: string; policy: Policy; write: boolean; saved: boolean; setSaved: (b: boolean) => void;
}) {
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
        <Title order={2} size="h3" mt="xl" mb="xs" component="legend">Security policy</Title>
        <Stack gap="xs">
          <NumberInput label="Idle timeout (minutes)" description="A session unused this long ends; 0: no idle limit." min={0} allowDecimal={false}
            value={idle} onChange={(v) => { edit(); setIdle(v); }} disabled={!write} error={problems.fields.sessionIdleSeconds} />
          <NumberInput label="Session lifetime (minutes)" description="A session ends this long after the sign-in; 0: the platform's 12 hours." min={0} allowDecimal={false}
            value={max} onChange={(v) => { edit(); setMax(v); }} disabled={!write} error={problems.fields.sessionMaxSeconds} />
          <NumberInput label="Minimum password length" description={`At least ${policy.platformPasswordMinLength}, the platform's; common and breached passwords are always refused.`}
            min={policy.platformPasswordMinLength} max={128} allowDecimal={false}
            value={minLength} onChange={(v) => { edit(); setMinLength(v); }} disabled={!write} error={problems.fields.passwordMinLength} />
          <Text size="sm" fw={500} mt="xs">Second steps that satisfy two-step verification{policy.mfaForced ? "" : " (when it is required)"}</Text>
          {MFA.map((f) => (
            <Checkbox key={f.key} label={f.label} checked={mfa[f.key]} disabled={!write}
              onChange={(e) => { const v = e.currentTarget.checked; edit(); setMfa((x) => ({ ...x, [f.key]: v })); }} />
          ))}
        </Stack>
      </fieldset>
      <FormErrors messages={problems.general} />
      {write && (
        <Group mt="sm">
          <Button type="submit" loading={fetching}>Save security policy</Button>
          {saved && <Text size="sm" role="status" data-testid="policy-saved">Saved.</Text>}
        </Group>
      )}
    </form>
  );
}
