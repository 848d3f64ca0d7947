// ModalForm is the dialog every create and edit form of the app uses: the
// fields, the server's general errors above the buttons, Cancel and the
// submit button. Field errors are the fields' own (useProblems).
import type { ReactNode } from "react";
import { Button, Group, Modal, Stack } from "@mantine/core";
import { FormErrors } from "./ui";
import { useTranslation } from "react-i18next";

export function ModalForm(props: {
  title: string;
  submit: string;
  busy?: boolean;
  errors: string[];
  onSubmit: () => void | Promise<void>;
  onClose: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Modal opened onClose={props.onClose} title={props.title} centered>
      <form
        noValidate
        onSubmit={async (e) => {
          e.preventDefault();
          await props.onSubmit();
        }}
      >
        <Stack>
          {props.children}
          <FormErrors messages={props.errors} />
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>{t("common.cancel")}</Button>
            <Button type="submit" loading={props.busy}>{props.submit}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

// optional turns an empty text into null, as the API's optional inputs want.
export function optional(s: string): string | null {
  const t = s.trim();
  return t === "" ? null : t;
}

// splitList reads a comma- or line-separated list, without blanks.
export function splitList(s: string): string[] {
  return s.split(/[,\n]/).map((x) => x.trim()).filter(Boolean);
}
