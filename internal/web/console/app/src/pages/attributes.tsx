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
  const write = useCaller().canWrite("MANAGE_USER_ATTRIBUTES");
  const [{ data, fetching, error }] = useQuery({ query: AttributesQuery, context: lists("UserAttribute") });
  const [editing, setEditing] = useState<Attribute | "new" | null>(null);
  const [deleting, setDeleting] = useState<Attribute | null>(null);
  const [, del] = useMutation(DeleteAttribute);
  const items = data?.userAttributes ?? [];
  return (
    <>
      <PageTitle actions={write && <Button onClick={() => setEditing("new")}>New attribute</Button>}>User attributes</PageTitle>
      <PageError error={error} what="the user attributes" />
      {fetching && !data && <Loading />}
      {data && items.length === 0 && <Empty>No user attributes are defined.</Empty>}
      {items.length > 0 && (
        <DataTable label="User attributes" rows={items} rowKey={(a) => a.id} columns={[
          { label: "Key", cell: (a) => a.key },
          { label: "Label", cell: (a) => a.label },
          { label: "Type", cell: (a) => a.type + (a.options.length ? ` (${a.options.join(", ")})` : "") },
          { label: "Required", cell: (a) => (a.required ? "yes" : "no") },
          ...editColumn<Attribute>(write, (a) => a.key, setEditing, setDeleting),
        ]} />
      )}
      {editing && <AttributeForm attribute={editing === "new" ? null : editing} onClose={() => setEditing(null)} />}
      <ConfirmDelete opened={!!deleting} onClose={() => setDeleting(null)} kind="attribute" name={deleting?.key ?? ""}
        consequence="Users no longer carry this attribute; values already given are dropped."
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
    <ModalForm title={attribute ? `Edit attribute ${attribute.key}` : "New attribute"} submit={attribute ? "Save attribute" : "Create attribute"}
      busy={creating || updating} errors={problems.general} onClose={onClose}
      onSubmit={async () => {
        const res = attribute
          ? await update({ id: attribute.id, input: { label, type, options: opts, required } })
          : await create({ input: { key, label, type, options: opts, required } }, { additionalTypenames: ["UserAttribute"] });
        if (check(res.error)) onClose();
      }}>
      {!attribute && <TextInput label="Key" description="a-z, 0-9 and _; it never changes." required value={key}
        onChange={(e) => setKey(e.currentTarget.value.trim())} error={problems.fields.key} data-autofocus />}
      <TextInput label="Label" required value={label} onChange={(e) => setLabel(e.currentTarget.value)} error={problems.fields.label} />
      <NativeSelect label="Type" value={type} onChange={(e) => setType(e.currentTarget.value)} data={TYPES} error={problems.fields.type} />
      {type === "enum" && <Textarea label="Options" description="One per line." required value={options}
        onChange={(e) => setOptions(e.currentTarget.value)} error={problems.fields.options ?? problems.fields.option} />}
      <Checkbox label="Required" checked={required} onChange={(e) => setRequired(e.currentTarget.checked)} />
    </ModalForm>
  );
}
