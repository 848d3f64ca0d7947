import { useState } from "react";
import { Alert, Button, Code, CopyButton, Group, Modal, Stack, Text } from "@mantine/core";
import type { CombinedError } from "@urql/core";
import { ConfirmedForm } from "./confirm";

// SecretOnce shows a secret the server answers only once, with a copy button.
export function SecretOnce({ label, secret, onDone }: { label: string; secret: string; onDone: () => void }) {
  return (
    <Stack>
      <Alert color="dark" variant="outline" title="Copy it now">
        <Text>This {label} is shown only once. Store it where your system reads it; you can rotate it later.</Text>
      </Alert>
      <Code block data-testid="secret" tabIndex={0} aria-label={label}>{secret}</Code>
      <Group justify="flex-end">
        <CopyButton value={secret}>{({ copied, copy }) => <Button variant="default" onClick={copy}>{copied ? "Copied" : "Copy"}</Button>}</CopyButton>
        <Button onClick={onDone}>Done</Button>
      </Group>
    </Stack>
  );
}

// RotateSecret rotates a webhook's or service account's secret once its
// name is typed, and shows the new secret once.
export function RotateSecret({ kind, name, label, consequence, rotate, onClose }: {
  kind: string;
  name: string;
  label: string;
  consequence: string;
  rotate: () => Promise<{ secret?: string; error?: CombinedError }>;
  onClose: () => void;
}) {
  const [secret, setSecret] = useState("");
  if (secret) {
    return (
      <Modal opened onClose={onClose} title={`New ${label}`} centered>
        <SecretOnce label={label} secret={secret} onDone={onClose} />
      </Modal>
    );
  }
  return (
    <ConfirmedForm
      kind={kind}
      verb="Rotate the secret of"
      name={name}
      consequence={consequence}
      submit={async () => {
        const res = await rotate();
        if (res.secret) setSecret(res.secret);
        return res.error;
      }}
      onClose={onClose}
      onDone={() => {}}
    />
  );
}
