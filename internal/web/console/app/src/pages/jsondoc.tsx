import { useEffect, useState } from "react";
import { Button, Group, Stack, Text, Textarea } from "@mantine/core";
import type { CombinedError } from "@urql/core";
import { useProblems } from "../forms";
import { parseObject, pretty } from "../jsondoc";
import { FormErrors } from "../ui";
import { tr } from "../i18n";

// SettingsDocument edits a settings document (a JSON object) of a customer
// or tenant: a mistake in the JSON is shown at the field before anything is
// sent, the server's refusal at the same field.
export function SettingsDocument({ label, value, write, save }: {
  label: string;
  value: unknown;
  write: boolean;
  save: (doc: Record<string, unknown>) => Promise<CombinedError | undefined>;
}) {
  const initial = pretty(value);
  const [text, setText] = useState(initial);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  const [local, setLocal] = useState("");
  const { problems, check } = useProblems(["settings"]);
  useEffect(() => setText(initial), [initial]);
  return (
    <form
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        setSaved(false);
        const p = parseObject("settings", text);
        setLocal(p.error ? p.error[0].toUpperCase() + p.error.slice(1) + "." : "");
        if (!p.value) return;
        setBusy(true);
        const ok = check(await save(p.value));
        setBusy(false);
        setSaved(ok);
      }}
    >
      <Stack gap="xs">
        <Textarea
          label={label}
          description={tr("jsondoc.aJsonObjectSavingReplacesThe")}
          value={text}
          onChange={(e) => {
            setText(e.currentTarget.value);
            setSaved(false);
          }}
          readOnly={!write}
          autosize
          minRows={4}
          maxRows={20}
          styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
          error={local || problems.fields.settings}
          spellCheck={false}
        />
        <FormErrors messages={problems.general} />
        {write && (
          <Group>
            <Button type="submit" loading={busy} disabled={text === initial}>
              Save {label.toLowerCase()}
            </Button>
            {saved && <Text size="sm" role="status" data-testid="saved">{tr("jsondoc.saved")}</Text>}
          </Group>
        )}
      </Stack>
    </form>
  );
}
