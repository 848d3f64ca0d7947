// Releases and environment variables (MANAGE_RELEASES): lists, and for full
// access create, publish and withdraw releases, set and remove variables.
// A secret variable's value is never shown back: the form leaves it empty,
// and an empty value keeps it.
import { useState } from "react";
import { Button, Checkbox, Group, Text, TextInput, Textarea } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import { lists } from "../cache";
import { useCaller } from "../me";
import { messages, useProblems } from "../forms";
import { ModalForm, optional } from "../modalform";
import { SectionHead, editColumn } from "../rowactions";
import { DataTable } from "../table";
import { ConfirmDelete, Empty, FormErrors, Loading, PageError, PageTitle, formatTime } from "../ui";
import { useTranslation } from "react-i18next";
import { tr } from "../i18n";

const ReleasesQuery = graphql(`
  query Releases {
    releases(first: 100) { id version channel notes status createdAt publishedAt }
    environment { id name secret value description updatedAt }
  }
`);
const CreateRelease = graphql(`mutation CreateRelease($input: ReleaseInput!) { createRelease(input: $input) { id } }`);
const PublishRelease = graphql(`mutation PublishRelease($id: ID!) { publishRelease(id: $id) { id status publishedAt } }`);
const WithdrawRelease = graphql(`mutation WithdrawRelease($id: ID!) { withdrawRelease(id: $id) { id status } }`);
const CreateEnvVar = graphql(`mutation CreateEnvVar($input: EnvVarInput!) { createEnvVar(input: $input) { id } }`);
const UpdateEnvVar = graphql(`
  mutation UpdateEnvVar($id: ID!, $input: EnvVarPatch!) { updateEnvVar(id: $id, input: $input) { id secret value description updatedAt } }
`);
const DeleteEnvVar = graphql(`mutation DeleteEnvVar($id: ID!) { deleteEnvVar(id: $id) }`);

type Release = { id: string; version: string; status: string };
type EnvVar = { id: string; name: string; secret: boolean; value: string; description: string };

const STATUS_COLOR: Record<string, string> = { draft: "gray.7", published: "teal.9", withdrawn: "red.9" };

export function ReleasesPage() {
  const { t: tr } = useTranslation();
  const write = useCaller().canWrite("MANAGE_RELEASES");
  const [{ data, fetching, error }] = useQuery({ query: ReleasesQuery, context: lists("Release", "EnvVar") });
  const [creating, setCreating] = useState(false);
  const [withdrawing, setWithdrawing] = useState<Release | null>(null);
  const [variable, setVariable] = useState<EnvVar | "new" | null>(null);
  const [removing, setRemoving] = useState<EnvVar | null>(null);
  const [errs, setErrs] = useState<string[]>([]);
  const [, publish] = useMutation(PublishRelease);
  const [, withdraw] = useMutation(WithdrawRelease);
  const [, remove] = useMutation(DeleteEnvVar);
  return (
    <>
      <PageTitle>{tr("releases.releasesAndEnvironment")}</PageTitle>
      <PageError error={error} what={tr("releases.theReleases")} />
      {fetching && !data && <Loading />}
      <SectionHead first title={tr("releases.releases")} action={write && <Button onClick={() => setCreating(true)}>{tr("releases.newRelease")}</Button>} />
      <FormErrors messages={errs} />
      {data && data.releases.length === 0 && <Empty>{tr("releases.noReleasesYet")}</Empty>}
      {data && data.releases.length > 0 && (
        <DataTable label={tr("releases.releases")} rows={data.releases} rowKey={(r) => r.id} columns={[
          { label: tr("releases.version"), cell: (r) => r.version },
          { label: tr("releases.channel"), cell: (r) => r.channel },
          { label: tr("releases.status"), cell: (r) => <Text span fw={600} c={STATUS_COLOR[r.status] ?? "gray.7"}>{r.status}</Text> },
          { label: tr("releases.notes"), cell: (r) => r.notes },
          { label: tr("releases.published"), cell: (r) => formatTime(r.publishedAt) },
          ...(write ? [{ label: tr("releases.actions"), cell: (r: Release) => (
            <Group gap="xs" wrap="nowrap">
              {r.status === "draft" && (
                <Button size="xs" variant="default" aria-label={tr("releases.publish2", { version: r.version })}
                  onClick={async () => setErrs(messages((await publish({ id: r.id })).error))}>{tr("releases.publish")}</Button>
              )}
              {r.status === "published" && (
                <Button size="xs" variant="outline" color="var(--app-danger)" aria-label={tr("releases.withdraw2", { version: r.version })} onClick={() => setWithdrawing(r)}>{tr("releases.withdraw")}</Button>
              )}
            </Group>
          ) }] : []),
        ]} />
      )}
      <SectionHead title={tr("releases.environmentVariables")} action={write && <Button onClick={() => setVariable("new")}>{tr("releases.setVariable")}</Button>} />
      {data && data.environment.length === 0 && <Empty>{tr("releases.noVariablesYet")}</Empty>}
      {data && data.environment.length > 0 && (
        <DataTable label={tr("releases.environmentVariables")} rows={data.environment} rowKey={(v) => v.id} columns={[
          { label: tr("releases.name"), cell: (v) => v.name },
          { label: tr("releases.value"), cell: (v) => (v.secret ? <i>{tr("releases.secretNotShown")}</i> : v.value) },
          { label: tr("releases.description"), cell: (v) => v.description },
          { label: tr("releases.updated"), cell: (v) => formatTime(v.updatedAt) },
          ...editColumn<EnvVar>(write, (v) => v.name, setVariable, setRemoving, "Remove"),
        ]} />
      )}
      {creating && <ReleaseForm onClose={() => setCreating(false)} />}
      {variable && <EnvVarForm variable={variable === "new" ? null : variable} onClose={() => setVariable(null)} />}
      <ConfirmDelete opened={!!withdrawing} onClose={() => setWithdrawing(null)} kind={tr("releases.release")} verb={tr("releases.withdraw")} name={withdrawing?.version ?? ""}
        consequence={tr("releases.instancesStopBeingOfferedThisRelease")}
        onConfirm={async () => messages((await withdraw({ id: withdrawing!.id })).error)} />
      <ConfirmDelete opened={!!removing} onClose={() => setRemoving(null)} kind={tr("releases.variable")} verb={tr("releases.remove")} name={removing?.name ?? ""}
        consequence={tr("releases.deploymentsNoLongerReceiveThisVariable")}
        onConfirm={async () => messages((await remove({ id: removing!.id }, { additionalTypenames: ["EnvVar"] })).error)} />
    </>
  );
}

function ReleaseForm({ onClose }: { onClose: () => void }) {
  const [version, setVersion] = useState("");
  const [channel, setChannel] = useState("");
  const [notes, setNotes] = useState("");
  const { problems, check } = useProblems(["version", "channel", "notes"]);
  const [{ fetching }, create] = useMutation(CreateRelease);
  return (
    <ModalForm title={tr("releases.newRelease")} submit={tr("releases.createRelease")} busy={fetching} errors={problems.general} onClose={onClose}
      onSubmit={async () => {
        const res = await create({ input: { version, channel: optional(channel), notes: optional(notes) } }, { additionalTypenames: ["Release"] });
        if (check(res.error)) onClose();
      }}>
      <TextInput label={tr("releases.version")} description={tr("releases.aSemanticVersionSuchAs1")} required value={version}
        onChange={(e) => setVersion(e.currentTarget.value.trim())} error={problems.fields.version} data-autofocus />
      <TextInput label={tr("releases.channel")} description={tr("releases.emptyForStable")} value={channel} onChange={(e) => setChannel(e.currentTarget.value)} error={problems.fields.channel} />
      <Textarea label={tr("releases.notes")} value={notes} onChange={(e) => setNotes(e.currentTarget.value)} error={problems.fields.notes} />
    </ModalForm>
  );
}

function EnvVarForm({ variable, onClose }: { variable: EnvVar | null; onClose: () => void }) {
  const [name, setName] = useState("");
  const [value, setValue] = useState(variable && !variable.secret ? variable.value : "");
  const [secret, setSecret] = useState(variable?.secret ?? false);
  const [description, setDescription] = useState(variable?.description ?? "");
  const { problems, check } = useProblems(["name", "value", "secret", "description"]);
  const [{ fetching: creating }, create] = useMutation(CreateEnvVar);
  const [{ fetching: updating }, update] = useMutation(UpdateEnvVar);
  const keep = !!variable?.secret && value === "";
  return (
    <ModalForm title={variable ? tr("releases.edit", { name: variable.name }) : tr("releases.setVariable")} submit={tr("releases.saveVariable")}
      busy={creating || updating} errors={problems.general} onClose={onClose}
      onSubmit={async () => {
        const res = variable
          ? await update({ id: variable.id, input: { value: keep ? null : value, secret, description } })
          : await create({ input: { name, value, secret, description } }, { additionalTypenames: ["EnvVar"] });
        if (check(res.error)) onClose();
      }}>
      {!variable && <TextInput label={tr("releases.name")} description={tr("releases.aZ09AndStarting")} required value={name}
        onChange={(e) => setName(e.currentTarget.value.trim())} error={problems.fields.name} data-autofocus />}
      <TextInput label={tr("releases.value")} value={value} onChange={(e) => setValue(e.currentTarget.value)} error={problems.fields.value}
        type={secret ? "password" : "text"} autoComplete="off"
        description={variable?.secret ? tr("releases.theSecretValueIsNotShown") : undefined} />
      <Checkbox label={tr("releases.secretSealedItsValueIsNever")} checked={secret} onChange={(e) => setSecret(e.currentTarget.checked)}
        error={problems.fields.secret} />
      <Textarea label={tr("releases.description")} value={description} onChange={(e) => setDescription(e.currentTarget.value)} error={problems.fields.description} />
    </ModalForm>
  );
}
