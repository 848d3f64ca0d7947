// User attribute definitions (MANAGE_USER_ATTRIBUTES): the fields every
// user may carry; create, edit and delete (typed key).
import { useState } from "react";
import { Button, Checkbox, NativeSelect, TextInput, Textarea } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import { lists } from "../cache";
import { useCaller } from "../me";
import { messages, useProblems } from "../forms";
import { ModalForm, splitList } from "../modalform";
import { editColumn } from "../rowactions";
import { DataTable } from "../table";
import { ConfirmDelete, Empty, Loading, PageError, PageTitle } from "../ui";
import { useTranslation } from "react-i18next";
import { tr } from "../i18n";

const AttributesQuery = graphql(`
  query UserAttributes { userAttributes { id key label type options required } }
`);
const CreateAttribute = graphql(`
  mutation CreateUserAttribute($input: UserAttributeInput!) { createUserAttribute(input: $input) { id } }
`);
const UpdateAttribute = graphql(`
  mutation UpdateUserAttribute($id: ID!, $input: UserAttributePatch!) {
    updateUserAttribute(id: $id, input: $input) { id label type options required }
  }
`);
const DeleteAttribute = graphql(`mutation DeleteUserAttribute($id: ID!) { deleteUserAttribute(id: $id) }`);

const TYPES = ["string", "number", "boolean", "date", "enum"];

type Attribute = { id: string; key: string; label: string; type: string; options: string[]; required: boolean };

export function AttributesPage() {
  const { t: tr } = useTranslation();
  const write = useCaller().canWrite("MANAGE_USER_ATTRIBUTES");
  const [{ data, fetching, error }] = useQuery({ query: AttributesQuery, context: lists("UserAttribute") });
  const [editing, setEditing] = useState<Attribute | "new" | null>(null);
  const [deleting, setDeleting] = useState<Attribute | null>(null);
  const [, del] = useMutation(DeleteAttribute);
  const items = data?.userAttributes ?? [];
  return (
    <>
      <PageTitle actions={write && <Button onClick={() => setEditing("new")}>{tr("attributes.newAttribute")}</Button>}>{tr("attributes.userAttributes")}</PageTitle>
      <PageError error={error} what={tr("attributes.theUserAttributes")} />
      {fetching && !data && <Loading />}
      {data && items.length === 0 && <Empty>{tr("attributes.noUserAttributesAreDefined")}</Empty>}
      {items.length > 0 && (
        <DataTable label={tr("attributes.userAttributes")} rows={items} rowKey={(a) => a.id} columns={[
          { label: tr("attributes.key"), cell: (a) => a.key },
          { label: tr("attributes.label"), cell: (a) => a.label },
          { label: tr("attributes.type"), cell: (a) => a.type + (a.options.length ? ` (${a.options.join(", ")})` : "") },
          { label: tr("attributes.required"), cell: (a) => (a.required ? "yes" : "no") },
          ...editColumn<Attribute>(write, (a) => a.key, setEditing, setDeleting),
        ]} />
      )}
      {editing && <AttributeForm attribute={editing === "new" ? null : editing} onClose={() => setEditing(null)} />}
      <ConfirmDelete opened={!!deleting} onClose={() => setDeleting(null)} kind={tr("attributes.attribute")} name={deleting?.key ?? ""}
        consequence={tr("attributes.usersNoLongerCarryThisAttribute")}
        onConfirm={async () => messages((await del({ id: deleting!.id }, { additionalTypenames: ["UserAttribute"] })).error)} />
    </>
  );
}

function AttributeForm({ attribute, onClose }: { attribute: Attribute | null; onClose: () => void }) {
  const [key, setKey] = useState("");
  const [label, setLabel] = useState(attribute?.label ?? "");
  const [type, setType] = useState(attribute?.type ?? "string");
  const [options, setOptions] = useState((attribute?.options ?? []).join("\n"));
  const [required, setRequired] = useState(attribute?.required ?? false);
  const { problems, check } = useProblems(["key", "label", "type", "options", "option", "required"]);
  const [{ fetching: creating }, create] = useMutation(CreateAttribute);
  const [{ fetching: updating }, update] = useMutation(UpdateAttribute);
  const opts = type === "enum" ? splitList(options) : [];
  return (
    <ModalForm title={attribute ? tr("attributes.editAttribute", { key: attribute.key }) : tr("attributes.newAttribute")} submit={attribute ? tr("attributes.saveAttribute") : tr("attributes.createAttribute")}
      busy={creating || updating} errors={problems.general} onClose={onClose}
      onSubmit={async () => {
        const res = attribute
          ? await update({ id: attribute.id, input: { label, type, options: opts, required } })
          : await create({ input: { key, label, type, options: opts, required } }, { additionalTypenames: ["UserAttribute"] });
        if (check(res.error)) onClose();
      }}>
      {!attribute && <TextInput label={tr("attributes.key")} description={tr("attributes.aZ09AndIt")} required value={key}
        onChange={(e) => setKey(e.currentTarget.value.trim())} error={problems.fields.key} data-autofocus />}
      <TextInput label={tr("attributes.label")} required value={label} onChange={(e) => setLabel(e.currentTarget.value)} error={problems.fields.label} />
      <NativeSelect label={tr("attributes.type")} value={type} onChange={(e) => setType(e.currentTarget.value)} data={TYPES} error={problems.fields.type} />
      {type === "enum" && <Textarea label={tr("attributes.options")} description={tr("attributes.onePerLine")} required value={options}
        onChange={(e) => setOptions(e.currentTarget.value)} error={problems.fields.options ?? problems.fields.option} />}
      <Checkbox label={tr("attributes.required")} checked={required} onChange={(e) => setRequired(e.currentTarget.checked)} />
    </ModalForm>
  );
}
