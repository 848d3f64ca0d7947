import { useState } from "react";
import { Alert, Badge, Button, Code, Group, Modal, Stack, Text, TextInput, Title } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import { lists } from "../cache";
import { useCaller } from "../me";
import { messages, useProblems } from "../forms";
import { DataTable } from "../table";
import { ConfirmDelete, Empty, FormErrors, Loading, PageError, formatTime } from "../ui";
import { useTranslation } from "react-i18next";

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
  const { t } = useTranslation();
  const caller = useCaller();
  const status: Record<string, string> = { verified: t("domains.verified"), failing: t("domains.failing"), pending: t("domains.pending") };
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
      <PageError error={error} what={t("domains.theDomains")} />
      <Group justify="space-between" mt="md" mb="xs">
        <Title order={2} size="h3">{t("domains.title")}</Title>
        {write && <Button onClick={() => setClaiming(true)}>{t("domains.add")}</Button>}
      </Group>
      <Text mb="xs">{t("domains.intro")}</Text>
      {verifyResult && (
        <Alert color={verifyResult.ok ? "dark" : "red"} variant="outline" role="status" data-testid="verify-result" mb="xs" closeButtonLabel={t("domains.dismiss")}
          title={t(verifyResult.ok ? "domains.isVerified" : "domains.notVerifiedYet", { domain: verifyResult.domain })}
          withCloseButton onClose={() => setVerifyResult(null)}>
          {verifyResult.text}
        </Alert>
      )}
      {data && rows.length === 0 && <Empty>{t("domains.none")}</Empty>}
      {rows.length > 0 && (
        <DataTable
          label={t("domains.domains")}
          rows={rows}
          rowKey={(d) => d.id}
          columns={[
            { label: t("domains.domain"), cell: (d) => d.displayName === d.domain ? d.domain : `${d.displayName} (${d.domain})` },
            { label: t("domains.status"), cell: (d) => (
              <Badge color={STATUS_COLOR[d.status] ?? "gray"} variant="light" data-testid={`domain-status-${d.domain}`}>
                {status[d.status] ?? d.status}{d.method ? ` (${d.method})` : ""}
              </Badge>
            ) },
            { label: t("domains.record"), cell: (d) => d.recordName ? (
              <Stack gap={2}>
                <Text size="sm">TXT <Code>{d.recordName}</Code></Text>
                <Code data-testid={`domain-value-${d.domain}`}>{d.recordValue}</Code>
                <Text size="xs" c="dimmed">{t("domains.orIn", { url: d.wellKnownUrl })}</Text>
              </Stack>
            ) : t("domains.recorded") },
            { label: t("domains.checked"), cell: (d) => d.failingSince ? t("domains.missingSince", { time: formatTime(d.failingSince) }) : formatTime(d.checkedAt ?? d.verifiedAt) },
            ...(write ? [{ label: t("domains.actions"), cell: (d: (typeof rows)[number]) => (
              <Group gap="xs" wrap="nowrap">
                {d.method !== "recorded" && (
                  <Button size="xs" variant="default" loading={verifying} aria-label={t("domains.verifyOf", { domain: d.domain })}
                    onClick={async () => {
                      const res = await verify({ customerId, id: d.id }, DOMAIN);
                      const problems = messages(res.error);
                      setVerifyResult(problems.length > 0
                        ? { domain: d.domain, ok: false, text: problems.join(" ") }
                        : { domain: d.domain, ok: true, text: t("domains.provenBy", { method: res.data?.verifyDomain?.method ?? t("domains.itsRecord") }) });
                    }}>{t("domains.verify")}</Button>
                )}
                <Button size="xs" variant="default" color="red" aria-label={t("domains.deleteOf", { domain: d.domain })}
                  onClick={() => setDeleting({ id: d.id, name: d.domain })}>{t("domains.delete")}</Button>
              </Group>
            ) }] : []),
          ]}
        />
      )}
      {claiming && <ClaimModal customerId={customerId} onClose={() => setClaiming(false)} />}
      <ConfirmDelete
        opened={!!deleting}
        onClose={() => setDeleting(null)}
        kind={t("domains.kind")}
        name={deleting?.name ?? ""}
        consequence={t("domains.deleteConsequence")}
        onConfirm={async () => messages((await remove({ customerId, id: deleting!.id }, DOMAIN)).error)}
      />
    </>
  );
}

function ClaimModal({ customerId, onClose }: { customerId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const [domain, setDomain] = useState("");
  const { problems, check } = useProblems(["domain"]);
  const [{ fetching }, claim] = useMutation(ClaimDomain);
  return (
    <Modal opened onClose={onClose} title={t("domains.add")} centered>
      <form
        noValidate
        onSubmit={async (e) => {
          e.preventDefault();
          const res = await claim({ customerId, domain }, DOMAIN);
          if (check(res.error)) onClose();
        }}
      >
        <Stack>
          <TextInput label={t("domains.domain")} description={t("domains.domainHint")} required
            value={domain} onChange={(e) => setDomain(e.currentTarget.value)} error={problems.fields.domain} data-autofocus />
          <FormErrors messages={problems.general} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>{t("domains.cancel")}</Button>
            <Button type="submit" loading={fetching}>{t("domains.add")}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
