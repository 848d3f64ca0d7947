import { useState } from "react";
import { Modal } from "@mantine/core";
import type { CombinedError } from "@urql/core";
import { SecretOnce } from "../ui";
import { ConfirmedForm } from "./confirm";
import { tr } from "../i18n";

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
      <Modal opened onClose={onClose} title={tr("secret.new", { label: label })} centered>
        <SecretOnce label={label} secret={secret} onDone={onClose} />
      </Modal>
    );
  }
  return (
    <ConfirmedForm
      kind={kind}
      verb={tr("secret.rotateTheSecretOf")}
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
