import { useState } from "react";
import { Button, Checkbox, Group, Modal, PasswordInput, Stack, Text, TextInput, Textarea, Title } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import { lists } from "../cache";
import { useCaller } from "../me";
import { messages, useProblems } from "../forms";
import { words } from "../jsondoc";
import { DataTable } from "../table";
import { ConfirmDelete, Empty, FormErrors, Loading, PageError } from "../ui";
import { SecurityPolicy } from "./securitypolicy";
import { useTranslation } from "react-i18next";
import { tr } from "../i18n";

const SignInQuery = graphql(`
  query CustomerSignIn($id: ID!) {
    customer(id: $id) {
      id
      sso { passwordAllowed ssoAllowed ssoCreateUsers mfaForced passkeyAllowed passkeyRequired identityProviders }
      identityProviders { id name issuer clientId clientSecretSet scopes enabled linkTrusted mfaEnforced groupsClaim groupMapping { value group } }
    }
  }
`);
const PutSSOSettings = graphql(`
  mutation PutSSOSettings($customerId: ID!, $input: SSOSettingsInput!) {
    putSSOSettings(customerId: $customerId, input: $input) {
      passwordAllowed ssoAllowed ssoCreateUsers mfaForced passkeyAllowed passkeyRequired identityProviders
    }
  }
`);
const CreateIdentityProvider = graphql(`
  mutation CreateIdentityProvider($customerId: ID!, $input: IdentityProviderInput!) {
    createIdentityProvider(customerId: $customerId, input: $input) { id name }
  }
`);
const UpdateIdentityProvider = graphql(`
  mutation UpdateIdentityProvider($id: ID!, $input: IdentityProviderPatch!) {
    updateIdentityProvider(id: $id, input: $input) { id name issuer clientId clientSecretSet scopes enabled linkTrusted mfaEnforced groupsClaim groupMapping { value group } }
  }
`);
const DeleteIdentityProvider = graphql(`
  mutation DeleteIdentityProvider($id: ID!) { deleteIdentityProvider(id: $id) }
`);

const CONFIG = { additionalTypenames: ["IdentityProvider", "Customer"] };

type Provider = {
  id: string; name: string; issuer: string; clientId: string; clientSecretSet: boolean;
  scopes: string[]; enabled: boolean; linkTrusted: boolean; mfaEnforced: boolean;
  groupsClaim: string; groupMapping: { value: string; group: string }[];
};

// A provider's just-in-time groups (docs/scim.md) are edited as lines
// "claim value = group name or id", split at the last "=": a directory's
// values are often distinguished names (CN=Eng,OU=Groups); a group whose
// name holds "=" is named by its id.
export function mappingText(m: { value: string; group: string }[]): string {
  return m.map((e) => `${e.value} = ${e.group}`).join("\n");
}

export function parseMapping(text: string): { entries: { value: string; group: string }[]; bad: string[] } {
  const entries: { value: string; group: string }[] = [];
  const bad: string[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    const at = line.lastIndexOf("=");
    const value = at < 0 ? "" : line.slice(0, at).trim();
    const group = at < 0 ? "" : line.slice(at + 1).trim();
    if (!value || !group) bad.push(line.trim());
    else entries.push({ value, group });
  }
  return { entries, bad };
}
type Policy = {
  passwordAllowed: boolean; ssoAllowed: boolean; ssoCreateUsers: boolean; mfaForced: boolean; passkeyAllowed: boolean; passkeyRequired: boolean;
};

// SignIn is a customer's sign-in configuration: which methods its users
// have (R4.1-ro-types) and its OpenID Connect identity providers.
export function SignIn({ customerId }: { customerId: string }) {
  const { t: tr } = useTranslation();
  const caller = useCaller();
  const write = caller.canWrite("MANAGE_CUSTOMER_CONFIG");
  const [{ data, fetching, error }] = useQuery({ query: SignInQuery, variables: { id: customerId }, context: lists("IdentityProvider") });
  const [editing, setEditing] = useState<Provider | "new" | null>(null);
  const [deleting, setDeleting] = useState<Provider | null>(null);
  // kept here, as the form starts again from the server's answer
  const [saved, setSaved] = useState(false);
  const [, del] = useMutation(DeleteIdentityProvider);
  if (fetching && !data) return <Loading />;
  const c = data?.customer;
  const idps = c?.identityProviders ?? [];
  return (
    <>
      <PageError error={error} what={tr("sso.thisSignInConfiguration")} />
      {c?.sso && <PolicyForm key={JSON.stringify(c.sso)} customerId={customerId} policy={c.sso} write={write} saved={saved} setSaved={setSaved} />}
      <SecurityPolicy customerId={customerId} write={write} />
      <Group justify="space-between" mt="xl" mb="xs">
        <Title order={2} size="h3">{tr("sso.identityProviders")}</Title>
        {write && <Button onClick={() => setEditing("new")}>{tr("sso.newIdentityProvider")}</Button>}
      </Group>
      {c && idps.length === 0 && <Empty>{tr("sso.noIdentityProvidersTheCustomerS")}</Empty>}
      {idps.length > 0 && (
        <DataTable
          label={tr("sso.identityProviders")}
          rows={idps}
          rowKey={(p) => p.id}
          columns={[
            { label: tr("sso.name"), cell: (p) => p.name },
            { label: tr("sso.issuer"), cell: (p) => p.issuer },
            { label: tr("sso.clientId"), cell: (p) => p.clientId },
            { label: tr("sso.scopes"), cell: (p) => p.scopes.join(" ") },
            {
              label: tr("sso.state"),
              cell: (p) => [p.enabled ? "enabled" : "disabled", p.linkTrusted && "links accounts", p.mfaEnforced && "MFA at the provider"]
                .filter(Boolean).join(", "),
            },
            ...(write ? [{
              label: tr("sso.actions"),
              cell: (p: Provider) => (
                <Group gap="xs" wrap="nowrap">
                  <Button size="xs" variant="default" aria-label={tr("sso.edit2", { name: p.name })} onClick={() => setEditing(p)}>{tr("sso.edit")}</Button>
                  <Button size="xs" variant="default" color="red" aria-label={tr("sso.delete2", { name: p.name })} onClick={() => setDeleting(p)}>{tr("sso.delete")}</Button>
                </Group>
              ),
            }] : []),
          ]}
        />
      )}
      {editing && <ProviderModal customerId={customerId} provider={editing === "new" ? null : editing} onClose={() => setEditing(null)} />}
      <ConfirmDelete
        opened={!!deleting}
        onClose={() => setDeleting(null)}
        kind={tr("sso.identityProvider")}
        name={deleting?.name ?? ""}
        consequence={tr("sso.usersCanNoLongerSignIn")}
        onConfirm={async () => messages((await del({ id: deleting!.id }, CONFIG)).error)}
      />
    </>
  );
}

const POLICY: { key: keyof Policy; label: string; description: string }[] = [
  { key: "passwordAllowed", label: tr("sso.passwords"), description: tr("sso.usersMaySignInWithA") },
  { key: "ssoAllowed", label: tr("sso.singleSignOn"), description: tr("sso.usersMaySignInThroughAn") },
  { key: "ssoCreateUsers", label: tr("sso.createUsersAtFirstSsoSign"), description: tr("sso.aPersonTheProviderVouchesFor") },
  { key: "mfaForced", label: tr("sso.twoStepVerificationForEveryone"), description: tr("sso.usersEnrolAtTheirNextSign") },
  { key: "passkeyAllowed", label: tr("sso.passkeys"), description: tr("sso.usersMaySignInWithA2") },
  { key: "passkeyRequired", label: tr("sso.passkeysOnly"), description: tr("sso.passwordSignInIsRefusedNeeds") },
];

function PolicyForm({ customerId, policy, write, saved, setSaved }: {
  customerId: string; policy: Policy; write: boolean; saved: boolean; setSaved: (b: boolean) => void;
}) {
  const [p, setP] = useState<Policy>(policy);
  const { problems, check } = useProblems([]);
  const [{ fetching }, put] = useMutation(PutSSOSettings);
  const changed = POLICY.some((f) => p[f.key] !== policy[f.key]);
  return (
    <form
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        const { passwordAllowed, ssoAllowed, ssoCreateUsers, mfaForced, passkeyAllowed, passkeyRequired } = p;
        const input = { passwordAllowed, ssoAllowed, ssoCreateUsers, mfaForced, passkeyAllowed, passkeyRequired };
        setSaved(check((await put({ customerId, input }, CONFIG)).error));
      }}
    >
      <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
        <Title order={2} size="h3" mb="xs" component="legend">{tr("sso.howUsersSignIn")}</Title>
        <Stack gap="xs">
          {POLICY.map((f) => (
            <Checkbox key={f.key} label={f.label} description={f.description} checked={p[f.key]} disabled={!write}
              onChange={(e) => { const v = e.currentTarget.checked; setSaved(false); setP((x) => ({ ...x, [f.key]: v })); }} />
          ))}
        </Stack>
      </fieldset>
      <FormErrors messages={problems.general} />
      {write && (
        <Group mt="sm">
          <Button type="submit" loading={fetching} disabled={!changed}>{tr("sso.saveSignInMethods")}</Button>
          {saved && <Text size="sm" role="status" data-testid="saved">{tr("sso.saved")}</Text>}
        </Group>
      )}
    </form>
  );
}

function ProviderModal({ customerId, provider, onClose }: { customerId: string; provider: Provider | null; onClose: () => void }) {
  const caller = useCaller();
  const [name, setName] = useState(provider?.name ?? "");
  const [issuer, setIssuer] = useState(provider?.issuer ?? "https://");
  const [clientId, setClientId] = useState(provider?.clientId ?? "");
  const [clientSecret, setClientSecret] = useState("");
  const [scopes, setScopes] = useState((provider?.scopes ?? ["openid", "profile", "email"]).join(" "));
  const [enabled, setEnabled] = useState(provider?.enabled ?? true);
  const [mfaEnforced, setMfa] = useState(provider?.mfaEnforced ?? false);
  const [linkTrusted, setTrusted] = useState(provider?.linkTrusted ?? false);
  const [groupsClaim, setGroupsClaim] = useState(provider?.groupsClaim ?? "");
  const [mapping, setMapping] = useState(mappingText(provider?.groupMapping ?? []));
  const [mappingError, setMappingError] = useState("");
  const { problems, check } = useProblems(["name", "issuer", "clientId", "clientSecret", "scopes", "scope", "groupsClaim", "groupMapping"]);
  const [{ fetching: creating }, create] = useMutation(CreateIdentityProvider);
  const [{ fetching: updating }, update] = useMutation(UpdateIdentityProvider);
  const trust = caller.canWrite("TRUST_IDENTITY_PROVIDER");
  return (
    <Modal opened onClose={onClose} title={provider ? tr("sso.edit2", { name: provider.name }) : tr("sso.newIdentityProvider")} centered>
      <form
        noValidate
        onSubmit={async (e) => {
          e.preventDefault();
          const { entries, bad } = parseMapping(mapping);
          setMappingError(bad.length ? `Write each line as "value = group": ${bad.join(", ")}` : "");
          if (bad.length) return;
          const common = {
            name, issuer, clientId, scopes: words(scopes), enabled, mfaEnforced, ...(trust ? { linkTrusted } : {}),
            groupsClaim: groupsClaim.trim(), groupMapping: entries,
          };
          const res = provider
            ? await update({ id: provider.id, input: { ...common, ...(clientSecret ? { clientSecret } : {}) } }, CONFIG)
            : await create({ customerId, input: { ...common, clientSecret } }, CONFIG);
          if (check(res.error)) onClose();
        }}
      >
        <Stack>
          <TextInput label={tr("sso.name")} required value={name} onChange={(e) => setName(e.currentTarget.value)} error={problems.fields.name} data-autofocus />
          <TextInput label={tr("sso.issuer")} description={tr("sso.theProviderSOpenidConnectIssuer")} required value={issuer}
            onChange={(e) => setIssuer(e.currentTarget.value)} error={problems.fields.issuer} />
          <TextInput label={tr("sso.clientId")} required value={clientId} onChange={(e) => setClientId(e.currentTarget.value)} error={problems.fields.clientId} />
          <PasswordInput label={tr("sso.clientSecret")} required={!provider} autoComplete="off"
            description={provider ? (provider.clientSecretSet ? tr("sso.setLeaveEmptyToKeepIt") : tr("sso.notSet")) : tr("sso.neverShownAgainAfterSaving")}
            value={clientSecret} onChange={(e) => setClientSecret(e.currentTarget.value)} error={problems.fields.clientSecret} />
          <TextInput label={tr("sso.scopes")} description={tr("sso.separatedBySpacesOpenidIsRequired")} value={scopes}
            onChange={(e) => setScopes(e.currentTarget.value)} error={problems.fields.scopes ?? problems.fields.scope} />
          <Checkbox label={tr("sso.enabled")} checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
          <Checkbox label={tr("sso.theProviderVerifiesASecondFactor")} checked={mfaEnforced} onChange={(e) => setMfa(e.currentTarget.checked)} />
          {trust && (
            <Checkbox label={tr("sso.trustItsEMailAddressesTo")} checked={linkTrusted}
              onChange={(e) => setTrusted(e.currentTarget.checked)} />
          )}
          <TextInput label={tr("sso.groupsClaim")} description={tr("sso.groupsClaimHint")}
            value={groupsClaim} onChange={(e) => setGroupsClaim(e.currentTarget.value)} error={problems.fields.groupsClaim} />
          <Textarea label={tr("sso.groupMapping")} autosize minRows={2}
            description={tr("sso.groupMappingHint")}
            value={mapping} onChange={(e) => setMapping(e.currentTarget.value)} error={mappingError || problems.fields.groupMapping} />
          <FormErrors messages={problems.general} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>{tr("sso.cancel")}</Button>
            <Button type="submit" loading={creating || updating}>{provider ? tr("sso.saveIdentityProvider") : tr("sso.createIdentityProvider")}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
