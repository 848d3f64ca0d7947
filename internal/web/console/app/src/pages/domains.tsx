import { useState } from "react";
import { Alert, Badge, Button, Code, Group, Modal, Stack, Text, TextInput, Title } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import { lists } from "../cache";
import { useCaller } from "../me";
import { messages, useProblems } from "../forms";
import { DataTable } from "../table";
import { ConfirmDelete, Empty, FormErrors, Loading, PageError, formatTime } from "../ui";

// The customer's e-mail domains (D-verified-domains): claim one, publish
// the TXT record (or the well-known file) it answers, verify it; the
// status of each, and why a verification did not succeed.

const DomainsQuery = graphql(`
  query CustomerDomains($id: ID!) {
    customer(id: $id) {
      id
      claimedDomains { id domain displayName status method recordName recordValue wellKnownUrl verifiedAt checkedAt failingSince }
    }
  }
`);
const ClaimDomain = graphql(`
  mutation ClaimDomain($customerId: ID!, $domain: String!) {
    claimDomain(customerId: $customerId, domain: $domain) { id domain status recordName recordValue }
  }
`);
const VerifyDomain = graphql(`
  mutation VerifyDomain($customerId: ID!, $id: ID!) {
    verifyDomain(customerId: $customerId, id: $id) { id status method verifiedAt checkedAt failingSince }
  }
`);
const DeleteDomain = graphql(`
  mutation DeleteDomain($customerId: ID!, $id: ID!) { deleteDomain(customerId: $customerId, id: $id) }
`);

const DOMAIN = { additionalTypenames: ["CustomerDomain"] };

const STATUS_COLOR: Record<string, string> = { verified: "green", failing: "orange", pending: "gray" };

export function Domains({ customerId }: { customerId: string }) {
  const caller = useCaller();
  const write = caller.canWrite("MANAGE_CUSTOMER_CONFIG");
  const [{ data, fetching, error }] = useQuery({ query: DomainsQuery, variables: { id: customerId }, context: lists("CustomerDomain") });
  const [claiming, setClaiming] = useState(false);
  const [deleting, setDeleting] = useState<{ id: string; name: string } | null>(null);
  const [verifyResult, setVerifyResult] = useState<{ domain: string; ok: boolean; text: string } | null>(null);
  const [{ fetching: verifying }, verify] = useMutation(VerifyDomain);
  const [, remove] = useMutation(DeleteDomain);
  if (fetching && !data) return <Loading />;
  const rows = data?.customer?.claimedDomains ?? [];
  return (
    <>
      <PageError error={error} what="the domains" />
      <Group justify="space-between" mt="md" mb="xs">
        <Title order={2} size="h3">E-mail domains</Title>
        {write && <Button onClick={() => setClaiming(true)}>Add domain</Button>}
      </Group>
      <Text mb="xs">
        A verified domain sends its addresses to your sign-in, lets your identity provider create their accounts, and is
        checked again every day. Publish the TXT record shown (or the same value in the file at the well-known address),
        then verify.
      </Text>
      {verifyResult && (
        <Alert color={verifyResult.ok ? "dark" : "red"} variant="outline" role="status" data-testid="verify-result" mb="xs" closeButtonLabel="Dismiss"
          title={verifyResult.ok ? `${verifyResult.domain} is verified` : `${verifyResult.domain} is not verified yet`}
          withCloseButton onClose={() => setVerifyResult(null)}>
          {verifyResult.text}
        </Alert>
      )}
      {data && rows.length === 0 && <Empty>No domains.</Empty>}
      {rows.length > 0 && (
        <DataTable
          label="Domains"
          rows={rows}
          rowKey={(d) => d.id}
          columns={[
            { label: "Domain", cell: (d) => d.displayName === d.domain ? d.domain : `${d.displayName} (${d.domain})` },
            { label: "Status", cell: (d) => (
              <Badge color={STATUS_COLOR[d.status] ?? "gray"} variant="light" data-testid={`domain-status-${d.domain}`}>
                {d.status}{d.method ? ` (${d.method})` : ""}
              </Badge>
            ) },
            { label: "Record to publish", cell: (d) => d.recordName ? (
              <Stack gap={2}>
                <Text size="sm">TXT <Code>{d.recordName}</Code></Text>
                <Code data-testid={`domain-value-${d.domain}`}>{d.recordValue}</Code>
                <Text size="xs" c="dimmed">or in {d.wellKnownUrl}</Text>
              </Stack>
            ) : "recorded by the platform" },
            { label: "Checked", cell: (d) => d.failingSince ? `missing since ${formatTime(d.failingSince)}` : formatTime(d.checkedAt ?? d.verifiedAt) },
            ...(write ? [{ label: "Actions", cell: (d: (typeof rows)[number]) => (
              <Group gap="xs" wrap="nowrap">
                {d.method !== "recorded" && (
                  <Button size="xs" variant="default" loading={verifying} aria-label={`Verify ${d.domain}`}
                    onClick={async () => {
                      const res = await verify({ customerId, id: d.id }, DOMAIN);
                      const problems = messages(res.error);
                      setVerifyResult(problems.length > 0
                        ? { domain: d.domain, ok: false, text: problems.join(" ") }
                        : { domain: d.domain, ok: true, text: `Proven by ${res.data?.verifyDomain?.method ?? "its record"}.` });
                    }}>Verify</Button>
                )}
                <Button size="xs" variant="default" color="red" aria-label={`Delete ${d.domain}`}
                  onClick={() => setDeleting({ id: d.id, name: d.domain })}>Delete</Button>
              </Group>
            ) }] : []),
          ]}
        />
      )}
      {claiming && <ClaimModal customerId={customerId} onClose={() => setClaiming(false)} />}
      <ConfirmDelete
        opened={!!deleting}
        onClose={() => setDeleting(null)}
        kind="domain"
        name={deleting?.name ?? ""}
        consequence="Its addresses no longer find your sign-in, and your identity provider no longer creates their accounts."
        onConfirm={async () => messages((await remove({ customerId, id: deleting!.id }, DOMAIN)).error)}
      />
    </>
  );
}

function ClaimModal({ customerId, onClose }: { customerId: string; onClose: () => void }) {
  const [domain, setDomain] = useState("");
  const { problems, check } = useProblems(["domain"]);
  const [{ fetching }, claim] = useMutation(ClaimDomain);
  return (
    <Modal opened onClose={onClose} title="Add domain" centered>
      <form
        noValidate
        onSubmit={async (e) => {
          e.preventDefault();
          const res = await claim({ customerId, domain }, DOMAIN);
          if (check(res.error)) onClose();
        }}
      >
        <Stack>
          <TextInput label="Domain" description="The part of your addresses after the @, such as example.com" required
            value={domain} onChange={(e) => setDomain(e.currentTarget.value)} error={problems.fields.domain} data-autofocus />
          <FormErrors messages={problems.general} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={fetching}>Add domain</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
