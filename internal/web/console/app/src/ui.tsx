// Shared pieces of the pages: headings, errors, empty states, paging and
// the typed confirmation of destructive actions.
import { useEffect, useRef, useState, type ReactNode } from "react";
import { Alert, Anchor, Button, Code, CopyButton, Group, Modal, Stack, Text, TextInput, Title } from "@mantine/core";
import type { CombinedError } from "@urql/core";
import { graphErrors, sentence } from "./errors";
import { linkProps, navigate, useRoute, withQuery } from "./router";
import { useTranslation } from "react-i18next";
import i18n from "./i18n";

export function PageTitle({ children, actions }: { children: ReactNode; actions?: ReactNode }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLHeadingElement>(null);
  const app = t("common.console");
  useEffect(() => {
    document.title = (typeof children === "string" ? children + " · " : "") + app;
  }, [children, app]);
  return (
    <Group justify="space-between" mb="md" wrap="wrap">
      <Title order={1} size="h2" ref={ref} tabIndex={-1} id="page-title">
        {children}
      </Title>
      {actions}
    </Group>
  );
}

// PageError shows why a page could not load, as one plain sentence.
export function PageError({ error, what }: { error?: CombinedError; what?: string }) {
  const { t } = useTranslation();
  const errs = graphErrors(error);
  if (errs.length === 0) return null;
  return (
    <Alert color="red" role="alert" title={t("shell.notAvailable")} data-testid="page-error">
      {errs.map((e, i) => (
        <Text key={i}>{sentence(e, what)}</Text>
      ))}
    </Alert>
  );
}

export function FormErrors({ messages }: { messages: string[] }) {
  if (messages.length === 0) return null;
  return (
    <Alert color="red" role="alert" data-testid="form-error">
      {messages.map((m, i) => (
        <Text key={i}>{m}</Text>
      ))}
    </Alert>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return (
    <Text c="dimmed" py="lg" data-testid="empty">
      {children}
    </Text>
  );
}

export function Loading() {
  const { t } = useTranslation();
  return (
    <Text c="dimmed" aria-live="polite">
      {t("common.loading")}
    </Text>
  );
}

export function Link({ href, children }: { href: string; children: ReactNode }) {
  return <Anchor {...linkProps(href)}>{children}</Anchor>;
}

// Pager moves through cursor pages; the cursors of the pages before are
// kept in the URL ("after" and "prev") so reload and Back keep the page.
export function Pager({ next }: { next?: string | null }) {
  const { t } = useTranslation();
  const route = useRoute();
  const after = route.query.get("after") ?? "";
  const prev = route.query.get("prev") ?? "";
  const here = window.location.pathname + window.location.search;
  if (!after && !next) return null;
  const stack = prev ? prev.split(",") : [];
  return (
    <Group mt="md" aria-label={t("common.pages")}>
      <Button
        variant="default"
        disabled={!after}
        onClick={() => {
          const back = stack.slice(0, -1);
          navigate(withQuery(here, { after: stack[stack.length - 1] === "_" ? "" : stack[stack.length - 1] ?? "", prev: back.join(",") }));
        }}
      >
        {t("common.previousPage")}
      </Button>
      <Button
        variant="default"
        disabled={!next}
        onClick={() => navigate(withQuery(here, { after: next ?? "", prev: [...stack, after || "_"].join(",") }))}
      >
        {t("common.nextPage")}
      </Button>
    </Group>
  );
}

// ConfirmDelete asks for the object's name before a destructive action.
// typed={false} makes it a plain confirmation (a role change that raises no
// privilege, D-role-change-confirm); button names the confirming button
// when "{verb} {kind}" would not read well.
export function ConfirmDelete(props: {
  opened: boolean;
  onClose: () => void;
  kind: string;
  name: string;
  consequence: string;
  onConfirm: () => Promise<string[]>;
  verb?: string;
  typed?: boolean;
  button?: string;
}) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState("");
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  const verb = props.verb ?? t("common.delete");
  const askName = props.typed ?? true;
  const ready = !askName || typed === props.name;
  const close = () => {
    setTyped("");
    setErrors([]);
    props.onClose();
  };
  return (
    <Modal opened={props.opened} onClose={close} title={t("common.confirmTitle", { verb, kind: props.kind, name: props.name })} centered>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          if (!ready) return;
          setBusy(true);
          const errs = await props.onConfirm();
          setBusy(false);
          if (errs.length > 0) setErrors(errs);
          else close();
        }}
      >
        <Stack>
          <Text>{props.consequence}</Text>
          {askName && (
            <TextInput
              label={t("common.typeToConfirm", { kind: props.kind, name: props.name })}
              value={typed}
              onChange={(e) => setTyped(e.currentTarget.value)}
              autoComplete="off"
              data-autofocus
            />
          )}
          <FormErrors messages={errors} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close} data-autofocus={askName ? undefined : true}>
              {t("common.cancel")}
            </Button>
            <Button type="submit" color="red" disabled={!ready} loading={busy}>
              {props.button ?? t("common.confirmButton", { verb, kind: props.kind })}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

// SecretOnce shows a secret the server answers only once, with a copy button.
export function SecretOnce({ label, secret, onDone, rotate }: {
  label: string;
  secret: string;
  onDone: () => void;
  rotate?: string;
}) {
  const { t } = useTranslation();
  return (
    <Stack>
      <Alert color="dark" variant="outline" title={t("common.copyItNow")}>
        <Text>{t("common.shownOnce", { label, rotate: rotate ?? t("common.rotateLater") })}</Text>
      </Alert>
      <Code block data-testid="secret" tabIndex={0} aria-label={label}>{secret}</Code>
      <Group justify="flex-end">
        <CopyButton value={secret}>{({ copied, copy }) => <Button variant="default" onClick={copy}>{copied ? t("common.copied") : t("common.copy")}</Button>}</CopyButton>
        <Button onClick={onDone}>{t("common.done")}</Button>
      </Group>
    </Stack>
  );
}

// formatTime writes a moment in UTC the way the app's language writes
// dates (English keeps the sortable "2026-03-07 14:05 UTC").
export function formatTime(t?: string | null): string {
  if (!t) return "—";
  const d = new Date(t);
  if (isNaN(d.getTime())) return t;
  if (i18n.language === "en" || !i18n.language) return d.toISOString().slice(0, 16).replace("T", " ") + " UTC";
  return new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(d) + " UTC";
}

// Missing is a detail page whose object did not load: why, as a sentence.
export function Missing({ kind, error }: { kind: string; error?: CombinedError }) {
  const { t } = useTranslation();
  return (
    <>
      <PageTitle>{kind[0].toUpperCase() + kind.slice(1)}</PageTitle>
      <PageError error={error} what={t("common.thisKind", { kind })} />
      {!error && <Text>{t("common.notFoundKind", { kind })}</Text>}
    </>
  );
}

// Fact is one labelled value at the top of a detail page.
export function Fact({ label, children, mono, testId }: { label: string; children: ReactNode; mono?: boolean; testId?: string }) {
  return (
    <Stack gap={0}>
      <Text size="sm" c="dimmed">{label}</Text>
      <Text size="sm" ff={mono ? "monospace" : undefined} data-testid={testId}>{children}</Text>
    </Stack>
  );
}
