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
      <PageError error={error} what="this sign-in configuration" />
      {c?.sso && <PolicyForm key={JSON.stringify(c.sso)} customerId={customerId} policy={c.sso} write={write} saved={saved} setSaved={setSaved} />}
      <Group justify="space-between" mt="xl" mb="xs">
        <Title order={2} size="h3">Identity providers</Title>
        {write && <Button onClick={() => setEditing("new")}>New identity provider</Button>}
      </Group>
      {c && idps.length === 0 && <Empty>No identity providers: the customer's users sign in with their passwords.</Empty>}
      {idps.length > 0 && (
        <DataTable
          label="Identity providers"
          rows={idps}
          rowKey={(p) => p.id}
          columns={[
            { label: "Name", cell: (p) => p.name },
            { label: "Issuer", cell: (p) => p.issuer },
            { label: "Client id", cell: (p) => p.clientId },
            { label: "Scopes", cell: (p) => p.scopes.join(" ") },
            {
              label: "State",
              cell: (p) => [p.enabled ? "enabled" : "disabled", p.linkTrusted && "links accounts", p.mfaEnforced && "MFA at the provider"]
                .filter(Boolean).join(", "),
            },
            ...(write ? [{
              label: "Actions",
              cell: (p: Provider) => (
                <Group gap="xs" wrap="nowrap">
                  <Button size="xs" variant="default" aria-label={`Edit ${p.name}`} onClick={() => setEditing(p)}>Edit</Button>
                  <Button size="xs" variant="default" color="red" aria-label={`Delete ${p.name}`} onClick={() => setDeleting(p)}>Delete</Button>
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
        kind="identity provider"
        name={deleting?.name ?? ""}
        consequence="Users can no longer sign in through it, and the identities linked to it are unlinked."
        onConfirm={async () => messages((await del({ id: deleting!.id }, CONFIG)).error)}
      />
    </>
  );
}

const POLICY: { key: keyof Policy; label: string; description: string }[] = [
  { key: "passwordAllowed", label: "Passwords", description: "Users may sign in with a password." },
  { key: "ssoAllowed", label: "Single sign-on", description: "Users may sign in through an identity provider below." },
  { key: "ssoCreateUsers", label: "Create users at first SSO sign-in", description: "A person the provider vouches for gets an account." },
  { key: "mfaForced", label: "Two-step verification for everyone", description: "Users enrol at their next sign-in." },
  { key: "passkeyAllowed", label: "Passkeys", description: "Users may sign in with a passkey." },
  { key: "passkeyRequired", label: "Passkeys only", description: "Password sign-in is refused; needs passkeys allowed." },
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
        <Title order={2} size="h3" mb="xs" component="legend">How users sign in</Title>
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
          <Button type="submit" loading={fetching} disabled={!changed}>Save sign-in methods</Button>
          {saved && <Text size="sm" role="status" data-testid="saved">Saved.</Text>}
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
    <Modal opened onClose={onClose} title={provider ? `Edit ${provider.name}` : "New identity provider"} centered>
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
          <TextInput label="Name" required value={name} onChange={(e) => setName(e.currentTarget.value)} error={problems.fields.name} data-autofocus />
          <TextInput label="Issuer" description="The provider's OpenID Connect issuer URL" required value={issuer}
            onChange={(e) => setIssuer(e.currentTarget.value)} error={problems.fields.issuer} />
          <TextInput label="Client id" required value={clientId} onChange={(e) => setClientId(e.currentTarget.value)} error={problems.fields.clientId} />
          <PasswordInput label="Client secret" required={!provider} autoComplete="off"
            description={provider ? (provider.clientSecretSet ? "Set; leave empty to keep it." : "Not set.") : "Never shown again after saving."}
            value={clientSecret} onChange={(e) => setClientSecret(e.currentTarget.value)} error={problems.fields.clientSecret} />
          <TextInput label="Scopes" description="Separated by spaces; openid is required" value={scopes}
            onChange={(e) => setScopes(e.currentTarget.value)} error={problems.fields.scopes ?? problems.fields.scope} />
          <Checkbox label="Enabled" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
          <Checkbox label="The provider verifies a second factor" checked={mfaEnforced} onChange={(e) => setMfa(e.currentTarget.checked)} />
          {trust && (
            <Checkbox label="Trust its e-mail addresses to link existing accounts" checked={linkTrusted}
              onChange={(e) => setTrusted(e.currentTarget.checked)} />
          )}
          <TextInput label="Groups claim" description="The ID token's claim listing the user's groups (dotted for a nested claim); empty turns just-in-time groups off"
            value={groupsClaim} onChange={(e) => setGroupsClaim(e.currentTarget.value)} error={problems.fields.groupsClaim} />
          <Textarea label="Group mapping" autosize minRows={2}
            description="One line per claim value: value = group name or id (split at the last =). At each sign-in the user's memberships of these groups follow the claim."
            value={mapping} onChange={(e) => setMapping(e.currentTarget.value)} error={mappingError || problems.fields.groupMapping} />
          <FormErrors messages={problems.general} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={creating || updating}>{provider ? "Save identity provider" : "Create identity provider"}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
