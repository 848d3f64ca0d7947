import { useEffect, useState } from "react";
import { NativeSelect } from "@mantine/core";
import { identity, startSignIn } from "./auth";
import { useQuery } from "urql";
import { graphql } from "./gql";
import { useCaller } from "./me";
import { useTranslation } from "react-i18next";

const OwnOrg = graphql(`
  query OwnOrg($id: ID!) { customer(id: $id) { id orgId } }
`);

interface Org { id: string; name: string }
interface Methods { orgId: string; methods: { type: string; idpId?: string }[] }

// OrgSwitch lets a user of several organizations sign in to another one: it
// asks the gateway's resolve-org (the same step the sign-in page takes) for
// the caller's organizations and signs in again with the one picked.
export function OrgSwitch() {
  const { t } = useTranslation();
  const caller = useCaller();
  const [orgs, setOrgs] = useState<Org[]>([]);
  const [methods, setMethods] = useState<Methods[]>([]);
  const [{ data }] = useQuery({ query: OwnOrg, variables: { id: caller.me.customerId ?? "" }, pause: caller.internal });
  const current = data?.customer?.orgId ?? "";
  useEffect(() => {
    if (caller.internal) return;
    const email = identity().email;
    if (!email) return;
    void fetch("/api/v1/login/resolve-org", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email }),
    })
      .then((r) => (r.ok ? r.json() : { orgs: [] }))
      .then((d: { orgs?: Org[]; authMethods?: Methods[] }) => {
        setOrgs(d.orgs ?? []);
        setMethods(d.authMethods ?? []);
      });
  }, [caller.internal]);
  if (orgs.length < 2) return null;
  return (
    <NativeSelect
      aria-label={t("shell.organization")}
      size="xs"
      value={orgs.some((o) => o.id === current) ? current : ""}
      data={[...(orgs.some((o) => o.id === current) ? [] : [{ value: "", label: t("shell.organization") }]), ...orgs.map((o) => ({ value: o.id, label: o.name }))]}
      onChange={(e) => {
        const orgId = e.currentTarget.value;
        const m = methods.find((x) => x.orgId === orgId)?.methods[0];
        void startSignIn({ orgId, method: m?.type ?? "password", idpId: m?.idpId ?? "" });
      }}
      data-testid="org-switch"
    />
  );
}
