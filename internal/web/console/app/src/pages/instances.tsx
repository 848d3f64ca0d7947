// Instances (MANAGE_INSTANCES): the list, an instance's page with its
// connection, and for full access create (a confidential application's
// client secret shown once), edit, delete (typed name), connection repair
// and rotation; the database URI for roles holding RESOLVE_DATABASE_URI.
import { useState } from "react";
import { Button, Checkbox, Code, Group, Modal, NativeSelect, TextInput } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import { lists } from "../cache";
import { useCaller } from "../me";
import { useProblems } from "../forms";
import { ModalForm, optional } from "../modalform";
import { useQueryParam, useRoute } from "../router";
import { FIRST_PAGE, SearchBox } from "../search";
import { CustomerPicker } from "../pickers";
import { DataTable } from "../table";
import { Empty, Link, Loading, PageError, PageTitle, Pager, SecretOnce, formatTime } from "../ui";
import { PAGE_SIZE } from "./customers";
import { useTranslation } from "react-i18next";
import { tr } from "../i18n";

const InstancesQuery = graphql(`
  query Instances($customerId: ID, $first: Int, $after: String, $search: String) {
    instances(customerId: $customerId, first: $first, after: $after, search: $search) {
      items { id name url createdAt customer { id name } connection { oidcClientId oidcRedirectUri idpAppId updatedAt } }
      nextCursor
    }
  }
`);

const CreateInstance = graphql(`
  mutation CreateInstance($input: CreateInstanceInput!) {
    createInstance(input: $input) { id name url customerId createdAt clientSecret }
  }
`);

// The application types createInstance accepts (appAuthMethod).
export const APP_TYPES = [
  { value: "none", label: tr("instances.publicTheTenantWebAppPkce") },
  { value: "client_secret_basic", label: tr("instances.confidentialServerSideAppSecretIn") },
  { value: "client_secret_post", label: tr("instances.confidentialServerSideAppSecretIn2") },
];

export function InstancesPage() {
  const { t: tr } = useTranslation();
  return (
    <>
      <PageTitle>{tr("instances.instances")}</PageTitle>
      <InstanceList />
    </>
  );
}

export function InstanceList({ customerId }: { customerId?: string }) {
  const { t: tr } = useTranslation();
  const caller = useCaller();
  const route = useRoute();
  const after = route.query.get("after") || null;
  const [q] = useQueryParam("q");
  const [customer, setCustomer] = useQueryParam("customer");
  const [{ data, fetching, error }] = useQuery({
    query: InstancesQuery,
    context: lists("Instance"),
    variables: { customerId: customerId ?? (customer || null), first: PAGE_SIZE, after, search: q || null },
  });
  const [creating, setCreating] = useState(false);
  const items = data?.instances.items ?? [];
  return (
    <>
      {caller.canWrite("MANAGE_INSTANCES") && (
        <Group justify="flex-end" mb="sm">
          <Button onClick={() => setCreating(true)}>{tr("instances.newInstance")}</Button>
        </Group>
      )}
      <Group align="flex-end" wrap="wrap" mb="md" gap="md">
        <SearchBox label={tr("lists.searchInstances")} mb={0} w={280} />
        {!customerId && caller.internal && (
          <CustomerPicker label={tr("lists.customer")} placeholder={tr("lists.allCustomers")} clearable w={260}
            value={customer || null} onChange={(v) => setCustomer(v ?? "", FIRST_PAGE)} />
        )}
      </Group>
      <PageError error={error} what={tr("instances.theseInstances")} />
      {fetching && !data && <Loading />}
      {data && items.length === 0 && <Empty>{q || customer ? tr("lists.noInstanceMatches") : tr("instances.thereAreNoInstancesHereYet")}</Empty>}
      {items.length > 0 && (
        <DataTable
          label={tr("instances.instances")}
          rows={items}
          rowKey={(i) => i.id}
          columns={[
            { label: tr("instances.instance"), cell: (i) => <Link href={`${route.base}/instances/${i.id}`}>{i.name}</Link> },
            { label: tr("instances.customer"), cell: (i) => (i.customer ? <Link href={`${route.base}/customers/${i.customer.id}`}>{i.customer.name}</Link> : "—") },
            { label: tr("instances.url"), cell: (i) => i.url },
            { label: tr("instances.clientId"), cell: (i) => (i.connection ? <Code>{i.connection.oidcClientId}</Code> : "—") },
            { label: tr("instances.created"), cell: (i) => formatTime(i.createdAt) },
          ]}
        />
      )}
      <Pager next={data?.instances.nextCursor} />
      {creating && <CreateInstanceModal customerId={customerId} onClose={() => setCreating(false)} />}
    </>
  );
}

function CreateInstanceModal({ customerId, onClose }: { customerId?: string; onClose: () => void }) {
  const [customer, setCustomer] = useState(customerId ?? "");
  const [name, setName] = useState("");
  const [url, setUrl] = useState("https://");
  const [databaseUri, setDatabaseUri] = useState("");
  const [method, setMethod] = useState("none");
  const [requireDpop, setRequireDpop] = useState(false);
  const [secret, setSecret] = useState("");
  const { problems, check } = useProblems(["name", "url", "customerId", "databaseUri", "appAuthMethod", "requireDpop"]);
  const [{ fetching }, create] = useMutation(CreateInstance);
  if (secret) {
    return (
      <Modal opened onClose={onClose} title={tr("instances.instanceCreated")} centered>
        <SecretOnce label={tr("instances.clientSecret")} secret={secret} onDone={onClose} rotate={tr("instances.theConsoleCannotShowItAgain")} />
      </Modal>
    );
  }
  return (
    <ModalForm title={tr("instances.newInstance")} submit={tr("instances.createInstance")} busy={fetching} errors={problems.general} onClose={onClose}
      onSubmit={async () => {
        const input = { customerId: customer, name, url, databaseUri: optional(databaseUri), appAuthMethod: method, requireDpop };
        const res = await create({ input }, { additionalTypenames: ["Instance"] });
        if (!check(res.error)) return;
        if (res.data?.createInstance?.clientSecret) setSecret(res.data.createInstance.clientSecret);
        else onClose();
      }}>
      {!customerId && (
        <CustomerPicker label={tr("instances.customer")} required placeholder={tr("instances.chooseACustomer")}
          value={customer || null} onChange={(v) => setCustomer(v ?? "")} error={problems.fields.customerId} />
      )}
      <TextInput label={tr("instances.name")} required value={name} onChange={(e) => setName(e.currentTarget.value)} error={problems.fields.name} data-autofocus />
      <TextInput label={tr("instances.url")} required value={url} onChange={(e) => setUrl(e.currentTarget.value)} error={problems.fields.url}
        description={tr("instances.whereTheTenantWebAppOf")} />
      <NativeSelect label={tr("instances.applicationType")} value={method} onChange={(e) => setMethod(e.currentTarget.value)} data={APP_TYPES}
        error={problems.fields.appAuthMethod} />
      <Checkbox label={tr("instance.requireDpop")} checked={requireDpop} onChange={(e) => setRequireDpop(e.currentTarget.checked)}
        description={tr("instance.requireDpopHint")} error={problems.fields.requireDpop} />
      <TextInput label={tr("instances.databaseUri")} value={databaseUri} onChange={(e) => setDatabaseUri(e.currentTarget.value)} error={problems.fields.databaseUri}
        description={tr("instances.optionalKeptSealed")} type="password" autoComplete="off" />
    </ModalForm>
  );
}
