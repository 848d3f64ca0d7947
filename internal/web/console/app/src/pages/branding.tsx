import { useEffect, useState } from "react";
import { Button, Group, Image, Stack, Text, TextInput, Title } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import { accessToken } from "../auth";
import { useCaller } from "../me";
import { messages, useProblems } from "../forms";
import { checkColor, MIN_CONTRAST } from "../contrast";
import { FormErrors, Loading, PageError, formatTime } from "../ui";

// A customer's branding (D-branding) and e-mail sender (D-org-mail): the
// name, colour and logo its sign-in pages, the console gateway and its
// e-mails show, with a preview and the colour's contrast while it is
// chosen; the logo is uploaded as the raw image through REST.

const BrandingQuery = graphql(`
  query CustomerBranding($id: ID!) {
    customer(id: $id) {
      id
      branding { displayName primaryColor textColor contrast logoUrl mailFromName mailReplyTo updatedAt }
    }
  }
`);
const PutBranding = graphql(`
  mutation PutBranding($customerId: ID!, $input: BrandingInput!) {
    putBranding(customerId: $customerId, input: $input) {
      displayName primaryColor textColor contrast logoUrl mailFromName mailReplyTo updatedAt
    }
  }
`);
const DeleteBrandingLogo = graphql(`
  mutation DeleteBrandingLogo($customerId: ID!) {
    deleteBrandingLogo(customerId: $customerId) { logoUrl updatedAt }
  }
`);

const DEFAULT_COLOR = "#1d4ed8";
const LOGO_TYPES = ["image/png", "image/jpeg", "image/gif"];
const MAX_LOGO_BYTES = 1 << 20;

type Saved = {
  displayName: string; primaryColor: string; logoUrl: string; mailFromName: string; mailReplyTo: string; updatedAt?: string | null;
};

export function BrandingPage({ customerId }: { customerId: string }) {
  const caller = useCaller();
  const write = caller.canWrite("MANAGE_CUSTOMER_CONFIG");
  const [{ data, fetching, error }, refetch] = useQuery({ query: BrandingQuery, variables: { id: customerId } });
  // kept here, as the form starts again from the server's answer
  const [done, setDone] = useState(false);
  if (fetching && !data) return <Loading />;
  const b = data?.customer?.branding;
  return (
    <>
      <PageError error={error} what="this branding" />
      {b && (
        <>
          <BrandForm key={JSON.stringify(b)} customerId={customerId} saved={b} write={write} done={done} setDone={setDone} />
          <LogoForm customerId={customerId} saved={b} write={write} onChange={() => refetch({ requestPolicy: "network-only" })} />
        </>
      )}
    </>
  );
}

function BrandForm({ customerId, saved, write, done, setDone }: {
  customerId: string; saved: Saved; write: boolean; done: boolean; setDone: (b: boolean) => void;
}) {
  const [displayName, setName] = useState(saved.displayName);
  const [color, setColor] = useState(saved.primaryColor);
  const [mailFromName, setFrom] = useState(saved.mailFromName);
  const [mailReplyTo, setReplyTo] = useState(saved.mailReplyTo);
  const { problems, check } = useProblems(["displayName", "primaryColor", "mailFromName", "mailReplyTo"]);
  const [{ fetching }, put] = useMutation(PutBranding);
  const c = checkColor(color);
  const shown = c.valid ? color.toLowerCase() : DEFAULT_COLOR;
  const text = c.valid ? c.text : "#ffffff";
  return (
    <form
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        const input = { displayName, primaryColor: color, mailFromName, mailReplyTo };
        setDone(check((await put({ customerId, input })).error));
      }}
    >
      <Title order={2} size="h3" mt="md" mb="xs">Look</Title>
      <Stack gap="sm" maw={520}>
        <TextInput label="Display name" description="Shown on the sign-in pages and in e-mails; empty: the organization's name"
          value={displayName} disabled={!write} maxLength={100}
          onChange={(e) => { setDone(false); setName(e.currentTarget.value); }} error={problems.fields.displayName} />
        <Group align="flex-end" gap="sm">
          <TextInput label="Primary colour" description="#rrggbb; empty: the platform's colour" value={color} disabled={!write}
            maxLength={7} placeholder={DEFAULT_COLOR} data-testid="brand-color"
            onChange={(e) => { setDone(false); setColor(e.currentTarget.value.trim()); }} error={problems.fields.primaryColor} />
          <input type="color" aria-label="Pick the primary colour" value={shown} disabled={!write}
            onChange={(e) => { setDone(false); setColor(e.currentTarget.value); }} style={{ height: 36, width: 48 }} />
        </Group>
        <Text size="sm" role="status" data-testid="contrast-result">
          {color === "" ? "The platform's colour is used."
            : !c.valid ? "Not a colour yet: write # and six hexadecimal digits."
            : `${c.text === "#ffffff" ? "White" : "Dark"} text on this colour: ${c.ratio.toFixed(2)}:1 — ` +
              (c.ok ? `readable (at least ${MIN_CONTRAST}:1).` : `too little (at least ${MIN_CONTRAST}:1 is needed); choose a darker or lighter colour.`)}
        </Text>
        <div aria-label="Preview" role="group" data-testid="brand-preview"
          style={{ border: "1px solid var(--mantine-color-default-border)", borderRadius: 8, padding: 16 }}>
          {saved.logoUrl ? <Image src={saved.logoUrl} alt={displayName || "Logo"} h={48} w="auto" fit="contain" mb="sm" />
            : displayName && <Text fw={700} mb="sm">{displayName}</Text>}
          <div style={{ height: 4, background: shown, marginBottom: 12 }} />
          <span style={{ display: "inline-block", background: shown, color: text, padding: "8px 16px", borderRadius: 6 }}>Sign in</span>
        </div>
        <Title order={2} size="h3" mt="md">E-mail</Title>
        <TextInput label="Sender name" description="The name e-mails to your users come from; the address stays the platform's"
          value={mailFromName} disabled={!write} maxLength={100}
          onChange={(e) => { setDone(false); setFrom(e.currentTarget.value); }} error={problems.fields.mailFromName} />
        <TextInput label="Reply-To" description="Where replies to those e-mails go; one address" type="email"
          value={mailReplyTo} disabled={!write}
          onChange={(e) => { setDone(false); setReplyTo(e.currentTarget.value.trim()); }} error={problems.fields.mailReplyTo} />
        <FormErrors messages={problems.general} />
        {write && (
          <Group>
            <Button type="submit" loading={fetching} disabled={color !== "" && !c.ok}>Save branding</Button>
            {done && <Text size="sm" role="status" data-testid="saved">Saved.</Text>}
          </Group>
        )}
        {saved.updatedAt && <Text size="sm" c="dimmed">Last changed {formatTime(saved.updatedAt)}</Text>}
      </Stack>
    </form>
  );
}

function LogoForm({ customerId, saved, write, onChange }: { customerId: string; saved: Saved; write: boolean; onChange: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState("");
  const [errors, setErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [inputKey, setInputKey] = useState(0); // a new file input once a logo is uploaded
  const [, del] = useMutation(DeleteBrandingLogo);
  useEffect(() => {
    if (!file) { setPreview(""); return; }
    const u = URL.createObjectURL(file);
    setPreview(u);
    return () => URL.revokeObjectURL(u);
  }, [file]);
  const choose = (f: File | null) => {
    setErrors([]);
    if (f && !LOGO_TYPES.includes(f.type)) { setErrors(["The logo must be a PNG, JPEG or GIF image (SVG is not accepted)."]); f = null; }
    else if (f && f.size > MAX_LOGO_BYTES) { setErrors([`The logo must be at most ${MAX_LOGO_BYTES} bytes.`]); f = null; }
    setFile(f);
  };
  const upload = async () => {
    if (!file) return;
    setBusy(true);
    try {
      const resp = await fetch(`/api/v1/customers/${encodeURIComponent(customerId)}/branding/logo`, {
        method: "PUT", body: file, headers: { "Content-Type": file.type, Authorization: "Bearer " + (accessToken() ?? "") },
      });
      if (!resp.ok) {
        const body = await resp.json().catch(() => null) as { message?: string } | null;
        setErrors([body?.message ? body.message[0].toUpperCase() + body.message.slice(1) + "." : `The upload failed (${resp.status}).`]);
        return;
      }
      setFile(null);
      setInputKey((k) => k + 1);
      onChange();
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="h-logo">
      <Title order={2} size="h3" mt="xl" mb="xs" id="h-logo">Logo</Title>
      <Text size="sm" mb="xs">PNG, JPEG or GIF, at most 1 MiB and 4096 pixels a side; it is scaled to at most 512 pixels and kept as PNG.</Text>
      <Group align="flex-start" gap="xl">
        {saved.logoUrl ? <Image src={saved.logoUrl} alt="Current logo" h={64} w="auto" fit="contain" data-testid="logo-current" />
          : <Text size="sm" c="dimmed">No logo: the display name is shown.</Text>}
        {preview && <Image src={preview} alt="New logo, not uploaded yet" h={64} w="auto" fit="contain" data-testid="logo-preview" />}
      </Group>
      {write && (
        <Group mt="sm">
          <input key={inputKey} type="file" accept={LOGO_TYPES.join(",")} aria-label="Choose a logo" data-testid="logo-file"
            onChange={(e) => choose(e.currentTarget.files?.[0] ?? null)} />
          <Button onClick={upload} disabled={!file} loading={busy}>Upload logo</Button>
          {saved.logoUrl && (
            <Button variant="default" color="red" onClick={async () => {
              const errs = messages((await del({ customerId })).error);
              setErrors(errs);
              if (errs.length === 0) onChange();
            }}>Remove logo</Button>
          )}
        </Group>
      )}
      <FormErrors messages={errors} />
    </section>
  );
}
