// One instance: its details and connection to the identity provider, and
// for full access edit, delete (typed name), connection repair and
// rotation, and a confidential application's client secret replaced (typed
// name, the new secret shown once; a public application's refusal is the
// server's sentence, as the page cannot tell the two apart); the database URI, opened on request, for roles holding
// RESOLVE_DATABASE_URI (each opening is audited); the tenants running on
// it, each a link to its page (where infra_ops triggers migrations).
import { useState } from "react";
import { Alert, Button, Checkbox, Code, CopyButton, Group, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import { lists } from "../cache";
import { readsTenants, useCaller } from "../me";
import { messages, useProblems } from "../forms";
import { ModalForm, optional } from "../modalform";
import { navigate, useRoute } from "../router";
import { DataTable } from "../table";
import { ConfirmDelete, Empty, FormErrors, Link, Loading, PageError, PageTitle, formatTime } from "../ui";
import { RotateSecret } from "./secret";
import { useTranslation } from "react-i18next";
import { tr } from "../i18n";

const InstanceQuery = graphql(`
  query Instance($id: ID!, $tenants: Boolean!) {
    instance(id: $id) {
      id name url createdAt
      customer { id name }
      connection { oidcClientId oidcRedirectUri idpAppId updatedAt requireDpop }
      tenants @include(if: $tenants) { id name createdAt }
    }
  }
`);
const UpdateInstance = graphql(`
  mutation UpdateInstance($id: ID!, $input: UpdateInstanceInput!) {
    updateInstance(id: $id, input: $input) { id name url connection { oidcClientId oidcRedirectUri idpAppId updatedAt requireDpop } }
  }
`);
const DeleteInstance = graphql(`mutation DeleteInstance($id: ID!) { deleteInstance(id: $id) }`);
const RepairConnection = graphql(`
  mutation RepairConnection($id: ID!) { repairConnection(id: $id) { oidcClientId oidcRedirectUri idpAppId updatedAt requireDpop } }
`);
const RotateConnection = graphql(`
  mutation RotateConnection($id: ID!) { rotateConnection(id: $id) { oidcClientId oidcRedirectUri idpAppId updatedAt requireDpop } }
`);
const RotateInstanceSecret = graphql(`
  mutation RotateInstanceSecret($id: ID!) { rotateInstanceSecret(id: $id) { instanceId clientId clientSecret } }
`);
const ResolveDatabaseUri = graphql(`mutation ResolveDatabaseUri($id: ID!) { resolveDatabaseUri(id: $id) }`);

// Long ids and addresses wrap inside the cell on narrow screens.
const WRAP = { overflowWrap: "anywhere" as const };

type Inst = { id: string; name: string; url: string; connection?: { requireDpop: boolean } | null };

export function InstancePage({ id }: { id: string }) {
  const { t: tr } = useTranslation();
  const caller = useCaller();
  const route = useRoute();
  const write = caller.canWrite("MANAGE_INSTANCES");
  const tenants = readsTenants(caller);
  const [{ data, fetching, error }] = useQuery({ query: InstanceQuery, variables: { id, tenants }, context: lists("Instance", "Tenant") });
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [rotating, setRotating] = useState(false);
  const [rotatingSecret, setRotatingSecret] = useState(false);
  const [errs, setErrs] = useState<string[]>([]);
  const [done, setDone] = useState("");
  const [, del] = useMutation(DeleteInstance);
  const [{ fetching: repairing }, repair] = useMutation(RepairConnection);
  const [, rotate] = useMutation(RotateConnection);
  const [, rotateSecret] = useMutation(RotateInstanceSecret);
  const inst = data?.instance;
  if (fetching && !data) return <Loading />;
  if (!inst) {
    return (
      <>
        <PageTitle>{tr("instance.instance")}</PageTitle>
        <PageError error={error} what={tr("instance.thisInstance")} />
        {!error && <Text>{tr("instance.weCouldNotFindThisInstance")}</Text>}
      </>
    );
  }
  const conn = inst.connection;
  const after = async (r: { error?: Parameters<typeof messages>[0] }, what: string) => {
    const m = messages(r.error);
    setErrs(m);
    setDone(m.length ? "" : what);
    return m;
  };
  return (
    <>
      <PageTitle actions={write && (
        <Group gap="xs">
          <Button variant="default" onClick={() => setEditing(true)}>{tr("instance.editInstance")}</Button>
          <Button variant="outline" color="var(--app-danger)" onClick={() => setDeleting(true)}>{tr("instance.deleteThisInstance")}</Button>
        </Group>
      )}>{inst.name}</PageTitle>
      <Text mb="md"><Link href={`${route.base}/instances`}>{tr("instance.allInstances")}</Link></Text>
      <Table variant="vertical" withTableBorder maw={720} mb="lg" style={WRAP} data-testid="instance-details">
        <Table.Tbody>
          <Table.Tr><Table.Th w={180}>{tr("instance.customer")}</Table.Th><Table.Td>{inst.customer ? <Link href={`${route.base}/customers/${inst.customer.id}`}>{inst.customer.name}</Link> : "—"}</Table.Td></Table.Tr>
          <Table.Tr><Table.Th>{tr("instance.url")}</Table.Th><Table.Td>{inst.url}</Table.Td></Table.Tr>
          <Table.Tr><Table.Th>{tr("instance.created")}</Table.Th><Table.Td>{formatTime(inst.createdAt)}</Table.Td></Table.Tr>
        </Table.Tbody>
      </Table>
      <Title order={2} size="h3" mb="xs">{tr("instance.connectionToTheIdentityProvider")}</Title>
      <Table variant="vertical" withTableBorder maw={720} mb="sm" style={WRAP} data-testid="connection">
        <Table.Tbody>
          <Table.Tr><Table.Th w={180}>{tr("instance.clientId")}</Table.Th><Table.Td><Code>{conn?.oidcClientId || "—"}</Code></Table.Td></Table.Tr>
          <Table.Tr><Table.Th>{tr("instance.redirectUri")}</Table.Th><Table.Td>{conn?.oidcRedirectUri || "none registered: repair the connection"}</Table.Td></Table.Tr>
          <Table.Tr><Table.Th>{tr("instance.applicationId")}</Table.Th><Table.Td><Code>{conn?.idpAppId || "—"}</Code></Table.Td></Table.Tr>
          <Table.Tr><Table.Th>{tr("instance.dpop")}</Table.Th><Table.Td data-testid="require-dpop">{conn?.requireDpop ? tr("instance.dpopRequired") : tr("instance.dpopOptional")}</Table.Td></Table.Tr>
          <Table.Tr><Table.Th>{tr("instance.updated")}</Table.Th><Table.Td>{formatTime(conn?.updatedAt)}</Table.Td></Table.Tr>
        </Table.Tbody>
      </Table>
      {write && (
        <Group mb="sm">
          <Button variant="default" loading={repairing} onClick={async () => after(await repair({ id }), tr("instance.theConnectionWasRegisteredAgain"))}>
            {tr("instance.repairConnection")}
          </Button>
          <Button variant="default" onClick={() => setRotating(true)}>{tr("instance.rotateClientId")}</Button>
          <Button variant="default" onClick={() => { setDone(""); setErrs([]); setRotatingSecret(true); }}>{tr("instance.rotateClientSecret")}</Button>
        </Group>
      )}
      {done && <Text role="status" data-testid="done">{done}</Text>}
      <FormErrors messages={errs} />
      {caller.canWrite("RESOLVE_DATABASE_URI") && <DatabaseUri id={id} />}
      {tenants && <InstanceTenants rows={inst.tenants ?? []} base={route.base} />}
      {editing && <EditInstance instance={inst} onClose={() => setEditing(false)} />}
      <ConfirmDelete opened={deleting} onClose={() => setDeleting(false)} kind={tr("instance.instance2")} name={inst.name}
        consequence={tr("instance.itsApplicationAtTheIdentityProvider")}
        onConfirm={async () => {
          const m = messages((await del({ id }, { additionalTypenames: ["Instance", "Tenant", "Grant"] })).error);
          if (m.length === 0) navigate(`${route.base}/instances`);
          return m;
        }} />
      <ConfirmDelete opened={rotating} onClose={() => setRotating(false)} kind={tr("instance.clientIdOf")} verb={tr("instance.rotate")} name={inst.name}
        consequence={tr("instance.theInstanceSApplicationGetsA")}
        onConfirm={async () => after(await rotate({ id }), tr("instance.theClientIdWasRotated"))} />
      {rotatingSecret && (
        <RotateSecret kind={tr("instance.instance2")} name={inst.name} label={tr("instance.clientSecret")} onClose={() => setRotatingSecret(false)}
          consequence={tr("instance.aConfidentialApplicationGetsANew")}
          rotate={async () => {
            const res = await rotateSecret({ id });
            return { secret: res.data?.rotateInstanceSecret?.clientSecret, error: res.error };
          }} />
      )}
    </>
  );
}

// InstanceTenants lists the tenants running on the instance (at most 100).
function InstanceTenants({ rows, base }: { rows: { id: string; name: string; createdAt: string }[]; base: string }) {
  const { t: tr } = useTranslation();
  return (
    <Stack mt="lg" maw={720} gap="xs">
      <Title order={2} size="h3">{tr("instance.tenantsOnThisInstance")}</Title>
      {rows.length === 0 ? <Empty>{tr("instance.noTenantRunsOnThisInstance")}</Empty> : (
        <DataTable label={tr("instance.tenantsOnThisInstance")} rows={rows} rowKey={(t) => t.id} columns={[
          { label: tr("instance.tenant"), cell: (t) => <Link href={`${base}/tenants/${t.id}`}>{t.name}</Link> },
          { label: tr("instance.created"), cell: (t) => formatTime(t.createdAt) },
        ]} />
      )}
    </Stack>
  );
}

// DatabaseUri opens the instance database's URI on request; it is not kept
// after the page is left.
function DatabaseUri({ id }: { id: string }) {
  const { t: tr } = useTranslation();
  const [uri, setUri] = useState<string | null | undefined>(undefined);
  const [errs, setErrs] = useState<string[]>([]);
  const [{ fetching }, resolve] = useMutation(ResolveDatabaseUri);
  return (
    <Stack mt="lg" maw={720}>
      <Title order={2} size="h3">{tr("instance.database")}</Title>
      {uri === undefined ? (
        <Group>
          <Button variant="default" loading={fetching} onClick={async () => {
            const r = await resolve({ id });
            setErrs(messages(r.error));
            if (!r.error) setUri(r.data?.resolveDatabaseUri ?? null);
          }}>{tr("instance.showDatabaseUri")}</Button>
          <Text size="sm" c="dimmed">{tr("instance.openingItIsRecordedInThe")}</Text>
        </Group>
      ) : uri ? (
        <Alert color="dark" variant="outline" title={tr("instance.databaseUri")}>
          <Code block data-testid="database-uri" tabIndex={0} aria-label={tr("instance.databaseUri2")}>{uri}</Code>
          <Group mt="xs">
            <CopyButton value={uri}>{({ copied, copy }) => <Button size="xs" variant="default" onClick={copy}>{copied ? "Copied" : "Copy"}</Button>}</CopyButton>
            <Button size="xs" variant="default" onClick={() => setUri(undefined)}>{tr("instance.hide")}</Button>
          </Group>
        </Alert>
      ) : (
        <Text data-testid="database-uri">{tr("instance.noDatabaseUriIsSetFor")}</Text>
      )}
      <FormErrors messages={errs} />
    </Stack>
  );
}

function EditInstance({ instance, onClose }: { instance: Inst; onClose: () => void }) {
  const [name, setName] = useState(instance.name);
  const [url, setUrl] = useState(instance.url);
  const [databaseUri, setDatabaseUri] = useState("");
  const [requireDpop, setRequireDpop] = useState(instance.connection?.requireDpop ?? false);
  const { problems, check } = useProblems(["name", "url", "databaseUri", "requireDpop"]);
  const [{ fetching }, update] = useMutation(UpdateInstance);
  return (
    <ModalForm title={tr("instance.editInstance2", { name: instance.name })} submit={tr("instance.saveInstance")} busy={fetching} errors={problems.general} onClose={onClose}
      onSubmit={async () => {
        const res = await update({ id: instance.id, input: { name, url, databaseUri: optional(databaseUri), requireDpop } });
        if (check(res.error)) onClose();
      }}>
      <TextInput label={tr("instance.name")} required value={name} onChange={(e) => setName(e.currentTarget.value)} error={problems.fields.name} data-autofocus />
      <TextInput label={tr("instance.url")} required value={url} onChange={(e) => setUrl(e.currentTarget.value)} error={problems.fields.url}
        description={tr("instance.aNewUrlRegistersTheCallbacks")} />
      <TextInput label={tr("instance.databaseUri")} value={databaseUri} onChange={(e) => setDatabaseUri(e.currentTarget.value)} error={problems.fields.databaseUri}
        description={tr("instance.leaveEmptyToKeepTheCurrent")} type="password" autoComplete="off" />
      <Checkbox label={tr("instance.requireDpop")} checked={requireDpop} onChange={(e) => setRequireDpop(e.currentTarget.checked)}
        description={tr("instance.requireDpopHint")} error={problems.fields.requireDpop} />
    </ModalForm>
  );
}
