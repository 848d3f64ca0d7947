import { useEffect, useState } from "react";
import { Button, Group, Image, Stack, Text, TextInput, Title } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import { accessToken } from "../auth";
import { useCaller } from "../me";
import { messages, useProblems } from "../forms";
import { checkColor, MIN_CONTRAST } from "../contrast";
import { FormErrors, Loading, PageError, formatTime } from "../ui";
import { useTranslation } from "react-i18next";

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
  const { t } = useTranslation();
  const caller = useCaller();
  const write = caller.canWrite("MANAGE_CUSTOMER_CONFIG");
  const [{ data, fetching, error }, refetch] = useQuery({ query: BrandingQuery, variables: { id: customerId } });
  // kept here, as the form starts again from the server's answer
  const [done, setDone] = useState(false);
  if (fetching && !data) return <Loading />;
  const b = data?.customer?.branding;
  return (
    <>
      <PageError error={error} what={t("branding.thisBranding")} />
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
  const { t } = useTranslation();
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
      <Title order={2} size="h3" mt="md" mb="xs">{t("branding.look")}</Title>
      <Stack gap="sm" maw={520}>
        <TextInput label={t("branding.displayName")} description={t("branding.displayNameHint")}
          value={displayName} disabled={!write} maxLength={100}
          onChange={(e) => { setDone(false); setName(e.currentTarget.value); }} error={problems.fields.displayName} />
        <Group align="flex-end" gap="sm">
          <TextInput label={t("branding.primaryColour")} description={t("branding.primaryColourHint")} value={color} disabled={!write}
            maxLength={7} placeholder={DEFAULT_COLOR} data-testid="brand-color"
            onChange={(e) => { setDone(false); setColor(e.currentTarget.value.trim()); }} error={problems.fields.primaryColor} />
          <input type="color" aria-label={t("branding.pickColour")} value={shown} disabled={!write}
            onChange={(e) => { setDone(false); setColor(e.currentTarget.value); }} style={{ height: 36, width: 48 }} />
        </Group>
        <Text size="sm" role="status" data-testid="contrast-result">
          {color === "" ? t("branding.platformColour")
            : !c.valid ? t("branding.notAColour")
            : t(c.text === "#ffffff" ? "branding.whiteText" : "branding.darkText", { ratio: c.ratio.toFixed(2) }) + " — " +
              t(c.ok ? "branding.readable" : "branding.tooLittle", { min: MIN_CONTRAST })}
        </Text>
        <div aria-label={t("branding.preview")} role="group" data-testid="brand-preview"
          style={{ border: "1px solid var(--mantine-color-default-border)", borderRadius: 8, padding: 16 }}>
          {saved.logoUrl ? <Image src={saved.logoUrl} alt={displayName || t("branding.logo")} h={48} w="auto" fit="contain" mb="sm" />
            : displayName && <Text fw={700} mb="sm">{displayName}</Text>}
          <div style={{ height: 4, background: shown, marginBottom: 12 }} />
          <span style={{ display: "inline-block", background: shown, color: text, padding: "8px 16px", borderRadius: 6 }}>{t("branding.signIn")}</span>
        </div>
        <Title order={2} size="h3" mt="md">{t("branding.email")}</Title>
        <TextInput label={t("branding.senderName")} description={t("branding.senderNameHint")}
          value={mailFromName} disabled={!write} maxLength={100}
          onChange={(e) => { setDone(false); setFrom(e.currentTarget.value); }} error={problems.fields.mailFromName} />
        <TextInput label={t("branding.replyTo")} description={t("branding.replyToHint")} type="email"
          value={mailReplyTo} disabled={!write}
          onChange={(e) => { setDone(false); setReplyTo(e.currentTarget.value.trim()); }} error={problems.fields.mailReplyTo} />
        <FormErrors messages={problems.general} />
        {write && (
          <Group>
            <Button type="submit" loading={fetching} disabled={color !== "" && !c.ok}>{t("branding.save")}</Button>
            {done && <Text size="sm" role="status" data-testid="saved">{t("branding.saved")}</Text>}
          </Group>
        )}
        {saved.updatedAt && <Text size="sm" c="dimmed">{t("branding.lastChanged", { time: formatTime(saved.updatedAt) })}</Text>}
      </Stack>
    </form>
  );
}

function LogoForm({ customerId, saved, write, onChange }: { customerId: string; saved: Saved; write: boolean; onChange: () => void }) {
  const { t } = useTranslation();
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
    if (f && !LOGO_TYPES.includes(f.type)) { setErrors([t("branding.logoType")]); f = null; }
    else if (f && f.size > MAX_LOGO_BYTES) { setErrors([t("branding.logoSize", { bytes: MAX_LOGO_BYTES })]); f = null; }
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
        setErrors([body?.message ? body.message[0].toUpperCase() + body.message.slice(1) + "." : t("branding.uploadFailed", { status: resp.status })]);
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
      <Title order={2} size="h3" mt="xl" mb="xs" id="h-logo">{t("branding.logo")}</Title>
      <Text size="sm" mb="xs">{t("branding.logoHint")}</Text>
      <Group align="flex-start" gap="xl">
        {saved.logoUrl ? <Image src={saved.logoUrl} alt={t("branding.currentLogo")} h={64} w="auto" fit="contain" data-testid="logo-current" />
          : <Text size="sm" c="dimmed">{t("branding.noLogo")}</Text>}
        {preview && <Image src={preview} alt={t("branding.newLogo")} h={64} w="auto" fit="contain" data-testid="logo-preview" />}
      </Group>
      {write && (
        <Group mt="sm">
          <input key={inputKey} type="file" accept={LOGO_TYPES.join(",")} aria-label={t("branding.chooseLogo")} data-testid="logo-file"
            onChange={(e) => choose(e.currentTarget.files?.[0] ?? null)} />
          <Button onClick={upload} disabled={!file} loading={busy}>{t("branding.upload")}</Button>
          {saved.logoUrl && (
            <Button variant="default" color="red" onClick={async () => {
              const errs = messages((await del({ customerId })).error);
              setErrors(errs);
              if (errs.length === 0) onChange();
            }}>{t("branding.remove")}</Button>
          )}
        </Group>
      )}
      <FormErrors messages={errors} />
    </section>
  );
}
