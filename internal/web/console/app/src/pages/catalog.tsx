// Plans and meters (MANAGE_CATALOG): lists, and for full access create,
// edit and delete (typed name).
import { useState } from "react";
import { Button, Checkbox, NativeSelect, TextInput, Textarea } from "@mantine/core";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import { lists } from "../cache";
import { useCaller } from "../me";
import { messages, useProblems } from "../forms";
import { ModalForm } from "../modalform";
import { SectionHead, editColumn } from "../rowactions";
import { DataTable } from "../table";
import { ConfirmDelete, Empty, Loading, PageError, PageTitle } from "../ui";
import { billed } from "./usage";
import { useTranslation } from "react-i18next";
import { tr } from "../i18n";

const CatalogQuery = graphql(`
  query Catalog {
    plans { id code name description currency monthlyFee active }
    meters { id key name unit aggregation description }
  }
`);
const CreatePlan = graphql(`mutation CreatePlan($input: PlanInput!) { createPlan(input: $input) { id } }`);
const UpdatePlan = graphql(`
  mutation UpdatePlan($id: ID!, $input: PlanPatch!) { updatePlan(id: $id, input: $input) { id name description currency monthlyFee active } }
`);
const DeletePlan = graphql(`mutation DeletePlan($id: ID!) { deletePlan(id: $id) }`);
const CreateMeter = graphql(`mutation CreateMeter($input: MeterInput!) { createMeter(input: $input) { id } }`);
const UpdateMeter = graphql(`
  mutation UpdateMeter($id: ID!, $input: MeterPatch!) { updateMeter(id: $id, input: $input) { id name unit aggregation description } }
`);
const DeleteMeter = graphql(`mutation DeleteMeter($id: ID!) { deleteMeter(id: $id) }`);

type Plan = { id: string; code: string; name: string; description: string; currency: string; monthlyFee: number; active: boolean };
type Meter = { id: string; key: string; name: string; unit: string; aggregation: string; description: string };

const AGGREGATIONS = ["sum", "max"];

export function CatalogPage() {
  const { t: tr } = useTranslation();
  const write = useCaller().canWrite("MANAGE_CATALOG");
  const [{ data, fetching, error }] = useQuery({ query: CatalogQuery, context: lists("Plan", "Meter") });
  const [plan, setPlan] = useState<Plan | "new" | null>(null);
  const [meter, setMeter] = useState<Meter | "new" | null>(null);
  const [delPlan, setDelPlan] = useState<Plan | null>(null);
  const [delMeter, setDelMeter] = useState<Meter | null>(null);
  const [, deletePlan] = useMutation(DeletePlan);
  const [, deleteMeter] = useMutation(DeleteMeter);
  return (
    <>
      <PageTitle>{tr("catalog.plansAndMeters")}</PageTitle>
      <PageError error={error} what={tr("catalog.theCatalog")} />
      {fetching && !data && <Loading />}
      <SectionHead first title={tr("catalog.plans")} action={write && <Button onClick={() => setPlan("new")}>{tr("catalog.newPlan")}</Button>} />
      {data && data.plans.length === 0 && <Empty>{tr("catalog.noPlansYet")}</Empty>}
      {data && data.plans.length > 0 && (
        <DataTable label={tr("catalog.plans")} rows={data.plans} rowKey={(p) => p.id} columns={[
          { label: tr("catalog.code"), cell: (p) => p.code },
          { label: tr("catalog.name"), cell: (p) => p.name },
          { label: tr("catalog.monthlyFee"), numeric: true, cell: (p) => billed(p.monthlyFee, p.currency) },
          { label: tr("catalog.active"), cell: (p) => (p.active ? "yes" : "no") },
          ...editColumn<Plan>(write, (p) => tr("catalog.plan2", { name: p.name }), setPlan, setDelPlan),
        ]} />
      )}
      <SectionHead title={tr("catalog.meters")} action={write && <Button onClick={() => setMeter("new")}>{tr("catalog.newMeter")}</Button>} />
      {data && data.meters.length === 0 && <Empty>{tr("catalog.noMetersYet")}</Empty>}
      {data && data.meters.length > 0 && (
        <DataTable label={tr("catalog.meters")} rows={data.meters} rowKey={(m) => m.id} columns={[
          { label: tr("catalog.key"), cell: (m) => m.key },
          { label: tr("catalog.name"), cell: (m) => m.name },
          { label: tr("catalog.unit"), cell: (m) => m.unit },
          { label: tr("catalog.aggregation"), cell: (m) => m.aggregation },
          ...editColumn<Meter>(write, (m) => tr("catalog.meter2", { name: m.name }), setMeter, setDelMeter),
        ]} />
      )}
      {plan && <PlanForm plan={plan === "new" ? null : plan} onClose={() => setPlan(null)} />}
      {meter && <MeterForm meter={meter === "new" ? null : meter} onClose={() => setMeter(null)} />}
      <ConfirmDelete opened={!!delPlan} onClose={() => setDelPlan(null)} kind={tr("catalog.plan")} name={delPlan?.name ?? ""}
        consequence={tr("catalog.thePlanIsRemovedFromThe")}
        onConfirm={async () => messages((await deletePlan({ id: delPlan!.id }, { additionalTypenames: ["Plan"] })).error)} />
      <ConfirmDelete opened={!!delMeter} onClose={() => setDelMeter(null)} kind={tr("catalog.meter")} name={delMeter?.name ?? ""}
        consequence={tr("catalog.theMeterIsRemovedFromThe")}
        onConfirm={async () => messages((await deleteMeter({ id: delMeter!.id }, { additionalTypenames: ["Meter"] })).error)} />
    </>
  );
}

function PlanForm({ plan, onClose }: { plan: Plan | null; onClose: () => void }) {
  const [code, setCode] = useState("");
  const [name, setName] = useState(plan?.name ?? "");
  const [description, setDescription] = useState(plan?.description ?? "");
  const [currency, setCurrency] = useState(plan?.currency ?? "EUR");
  const [fee, setFee] = useState(String(plan?.monthlyFee ?? 0));
  const [active, setActive] = useState(plan?.active ?? true);
  const { problems, check } = useProblems(["code", "name", "description", "currency", "monthlyFee"]);
  const [{ fetching: creating }, create] = useMutation(CreatePlan);
  const [{ fetching: updating }, update] = useMutation(UpdatePlan);
  const monthlyFee = Number(fee.replace(",", "."));
  const [feeError, setFeeError] = useState("");
  return (
    <ModalForm title={plan ? tr("catalog.editPlan", { name: plan.name }) : tr("catalog.newPlan")} submit={plan ? tr("catalog.savePlan") : tr("catalog.createPlan")} busy={creating || updating}
      errors={problems.general} onClose={onClose}
      onSubmit={async () => {
        setFeeError(fee.trim() === "" || isNaN(monthlyFee) ? tr("catalog.feeNotANumber") : "");
        if (fee.trim() === "" || isNaN(monthlyFee)) return;
        const res = plan
          ? await update({ id: plan.id, input: { name, description, currency, monthlyFee, active } })
          : await create({ input: { code, name, description, currency, monthlyFee, active } }, { additionalTypenames: ["Plan"] });
        if (check(res.error)) onClose();
      }}>
      {!plan && <TextInput label={tr("catalog.code")} description={tr("catalog.lowerCaseKeyAZ0")} required value={code}
        onChange={(e) => setCode(e.currentTarget.value)} error={problems.fields.code} data-autofocus />}
      <TextInput label={tr("catalog.name")} required value={name} onChange={(e) => setName(e.currentTarget.value)} error={problems.fields.name} />
      <Textarea label={tr("catalog.description")} value={description} onChange={(e) => setDescription(e.currentTarget.value)} error={problems.fields.description} />
      <TextInput label={tr("catalog.currency")} description={tr("catalog.iso4217SuchAsEur")} required value={currency} onChange={(e) => setCurrency(e.currentTarget.value.toUpperCase())} error={problems.fields.currency} />
      <TextInput label={tr("catalog.monthlyFee")} required inputMode="decimal" value={fee} onChange={(e) => setFee(e.currentTarget.value)} error={feeError || problems.fields.monthlyFee} />
      <Checkbox label={tr("catalog.activeOfferedToCustomers")} checked={active} onChange={(e) => setActive(e.currentTarget.checked)} />
    </ModalForm>
  );
}

function MeterForm({ meter, onClose }: { meter: Meter | null; onClose: () => void }) {
  const [key, setKey] = useState("");
  const [name, setName] = useState(meter?.name ?? "");
  const [unit, setUnit] = useState(meter?.unit ?? "");
  const [aggregation, setAggregation] = useState(meter?.aggregation ?? "sum");
  const [description, setDescription] = useState(meter?.description ?? "");
  const { problems, check } = useProblems(["key", "name", "unit", "aggregation", "description"]);
  const [{ fetching: creating }, create] = useMutation(CreateMeter);
  const [{ fetching: updating }, update] = useMutation(UpdateMeter);
  return (
    <ModalForm title={meter ? tr("catalog.editMeter", { name: meter.name }) : tr("catalog.newMeter")} submit={meter ? tr("catalog.saveMeter") : tr("catalog.createMeter")} busy={creating || updating}
      errors={problems.general} onClose={onClose}
      onSubmit={async () => {
        const res = meter
          ? await update({ id: meter.id, input: { name, unit, aggregation, description } })
          : await create({ input: { key, name, unit, aggregation, description } }, { additionalTypenames: ["Meter"] });
        if (check(res.error)) onClose();
      }}>
      {!meter && <TextInput label={tr("catalog.key")} description={tr("catalog.theKeyUsageIsRecordedUnder")} required value={key}
        onChange={(e) => setKey(e.currentTarget.value)} error={problems.fields.key} data-autofocus />}
      <TextInput label={tr("catalog.name")} required value={name} onChange={(e) => setName(e.currentTarget.value)} error={problems.fields.name} />
      <TextInput label={tr("catalog.unit")} required value={unit} onChange={(e) => setUnit(e.currentTarget.value)} error={problems.fields.unit} />
      <NativeSelect label={tr("catalog.aggregation")} value={aggregation} onChange={(e) => setAggregation(e.currentTarget.value)} data={AGGREGATIONS} error={problems.fields.aggregation} />
      <Textarea label={tr("catalog.description")} value={description} onChange={(e) => setDescription(e.currentTarget.value)} error={problems.fields.description} />
    </ModalForm>
  );
}
