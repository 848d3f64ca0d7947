import { useState } from "react";
import { Button, Group, Modal, Stack, Text, TextInput } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import { lists } from "../cache";
import { useCaller } from "../me";
import { graphErrors, problems } from "../errors";
import { navigate, useQueryParam, useRoute } from "../router";
import { SearchBox } from "../search";
import { DataTable } from "../table";
import { Empty, FormErrors, Link, Loading, PageError, PageTitle, Pager, formatTime } from "../ui";
import { useTranslation } from "react-i18next";
import { tr } from "../i18n";

const CustomersQuery = graphql(`
  query Customers($first: Int, $after: String, $search: String) {
    customers(first: $first, after: $after, search: $search) {
      items { id name orgId createdAt }
      nextCursor
    }
  }
`);

const CreateCustomer = graphql(`
  mutation CreateCustomer($input: CreateCustomerInput!) {
    createCustomer(input: $input) { id name orgId createdAt }
  }
`);

export const PAGE_SIZE = 25;

export function CustomersPage() {
  const { t: tr } = useTranslation();
  const caller = useCaller();
  const route = useRoute();
  const after = route.query.get("after") || null;
  const [q] = useQueryParam("q");
  const [{ data, fetching, error }] = useQuery({ query: CustomersQuery, variables: { first: PAGE_SIZE, after, search: q || null }, context: lists("Customer") });
  const [creating, setCreating] = useState(route.query.get("new") === "1");
  const items = data?.customers.items ?? [];
  return (
    <>
      <PageTitle
        actions={
          caller.canWrite("CREATE_CUSTOMER") && (
            <Button onClick={() => setCreating(true)}>{tr("customers.newCustomer")}</Button>
          )
        }
      >
        {tr("customers.customers")}
      </PageTitle>
      <SearchBox label={tr("customers.searchCustomers")} />
      <PageError error={error} what={tr("customers.theCustomers")} />
      {fetching && !data && <Loading />}
      {data && items.length === 0 && (
        <Empty>{q ? tr("customers.noCustomerMatches", { q: q }) : tr("customers.thereAreNoCustomersYet")}</Empty>
      )}
      {items.length > 0 && (
        <DataTable
          label={tr("customers.customers")}
          rows={items}
          rowKey={(c) => c.id}
          columns={[
            { label: tr("customers.name"), cell: (c) => <Link href={`${route.base}/customers/${c.id}`}>{c.name}</Link> },
            { label: tr("customers.created"), cell: (c) => formatTime(c.createdAt) },
          ]}
        />
      )}
      <Pager next={data?.customers.nextCursor} />
      {caller.canWrite("CREATE_CUSTOMER") && (
        <CreateCustomerModal opened={creating} onClose={() => setCreating(false)} base={route.base} />
      )}
    </>
  );
}

function CreateCustomerModal({ opened, onClose, base }: { opened: boolean; onClose: () => void; base: string }) {
  const [name, setName] = useState("");
  const [errs, setErrs] = useState<ReturnType<typeof problems>>({ fields: {}, general: [] });
  const [{ fetching }, create] = useMutation(CreateCustomer);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    // e-mail domains are claimed and verified on the customer's Domains
    // tab (D-verified-domains), where the new customer opens
    const res = await create({ input: { name } });
    const p = problems(graphErrors(res.error), ["name"]);
    setErrs(p);
    if (!res.error && res.data?.createCustomer) {
      onClose();
      navigate(`${base}/customers/${res.data.createCustomer.id}?tab=domains`);
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title={tr("customers.newCustomer")} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput label={tr("customers.name")} required value={name} onChange={(e) => setName(e.currentTarget.value)} error={errs.fields.name} data-autofocus />
          <Text size="sm" c="dimmed" data-testid="domains-later">{tr("customers.domainsLater")}</Text>
          <FormErrors messages={errs.general} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>{tr("customers.cancel")}</Button>
            <Button type="submit" loading={fetching}>{tr("customers.createCustomer")}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
