import { useState, type ReactNode } from "react";
import { Button, Group, Modal, Stack, Text, TextInput } from "@mantine/core";
import type { CombinedError } from "@urql/core";
import type { Problems } from "../errors";
import { useProblems } from "../forms";
import { FormErrors } from "../ui";
import { useTranslation } from "react-i18next";

// ConfirmedForm is a consequential action with choices of its own (a
// transfer, a rotation): the object's name must be typed before it is
// sent, and the server's problems are shown at the fields they name.
export function ConfirmedForm(props: {
  kind: string;
  name: string;
  verb: string;
  consequence: ReactNode;
  fields?: string[];
  children?: (p: Problems) => ReactNode;
  // submit answers the mutation's error, or false when a field's own check
  // kept it from being sent
  submit: () => Promise<CombinedError | undefined | false>;
  onClose: () => void;
  // onDone runs after success instead of closing (to show a secret once)
  onDone?: () => void;
}) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState("");
  const [busy, setBusy] = useState(false);
  const { problems, check } = useProblems(props.fields ?? []);
  return (
    <Modal opened onClose={props.onClose} title={t("common.confirmTitle", { verb: props.verb, kind: props.kind, name: props.name })} centered>
      <form
        noValidate
        onSubmit={async (e) => {
          e.preventDefault();
          if (typed !== props.name) return;
          setBusy(true);
          const res = await props.submit();
          setBusy(false);
          if (res !== false && check(res)) (props.onDone ?? props.onClose)();
        }}
      >
        <Stack>
          <Text>{props.consequence}</Text>
          {props.children?.(problems)}
          <TextInput
            label={t("common.typeToConfirm", { kind: props.kind, name: props.name })}
            value={typed}
            onChange={(e) => setTyped(e.currentTarget.value)}
            autoComplete="off"
          />
          <FormErrors messages={problems.general} />
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>{t("common.cancel")}</Button>
            <Button type="submit" color="red" disabled={typed !== props.name} loading={busy}>
              {t("common.confirmButton", { verb: props.verb, kind: props.kind })}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
