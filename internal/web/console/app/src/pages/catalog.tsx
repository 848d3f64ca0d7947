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
      <PageTitle>Plans and meters</PageTitle>
      <PageError error={error} what="the catalog" />
      {fetching && !data && <Loading />}
      <SectionHead first title="Plans" action={write && <Button onClick={() => setPlan("new")}>New plan</Button>} />
      {data && data.plans.length === 0 && <Empty>No plans yet.</Empty>}
      {data && data.plans.length > 0 && (
        <DataTable label="Plans" rows={data.plans} rowKey={(p) => p.id} columns={[
          { label: "Code", cell: (p) => p.code },
          { label: "Name", cell: (p) => p.name },
          { label: "Monthly fee", numeric: true, cell: (p) => billed(p.monthlyFee, p.currency) },
          { label: "Active", cell: (p) => (p.active ? "yes" : "no") },
          ...editColumn<Plan>(write, (p) => `plan ${p.name}`, setPlan, setDelPlan),
        ]} />
      )}
      <SectionHead title="Meters" action={write && <Button onClick={() => setMeter("new")}>New meter</Button>} />
      {data && data.meters.length === 0 && <Empty>No meters yet.</Empty>}
      {data && data.meters.length > 0 && (
        <DataTable label="Meters" rows={data.meters} rowKey={(m) => m.id} columns={[
          { label: "Key", cell: (m) => m.key },
          { label: "Name", cell: (m) => m.name },
          { label: "Unit", cell: (m) => m.unit },
          { label: "Aggregation", cell: (m) => m.aggregation },
          ...editColumn<Meter>(write, (m) => `meter ${m.name}`, setMeter, setDelMeter),
        ]} />
      )}
      {plan && <PlanForm plan={plan === "new" ? null : plan} onClose={() => setPlan(null)} />}
      {meter && <MeterForm meter={meter === "new" ? null : meter} onClose={() => setMeter(null)} />}
      <ConfirmDelete opened={!!delPlan} onClose={() => setDelPlan(null)} kind="plan" name={delPlan?.name ?? ""}
        consequence="The plan is removed from the catalog; customers billed on it keep their billing setup without a plan. To stop offering it, make it inactive instead."
        onConfirm={async () => messages((await deletePlan({ id: delPlan!.id }, { additionalTypenames: ["Plan"] })).error)} />
      <ConfirmDelete opened={!!delMeter} onClose={() => setDelMeter(null)} kind="meter" name={delMeter?.name ?? ""}
        consequence="The meter is removed from the catalog. A meter with recorded usage cannot be deleted."
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
    <ModalForm title={plan ? `Edit plan ${plan.name}` : "New plan"} submit={plan ? "Save plan" : "Create plan"} busy={creating || updating}
      errors={problems.general} onClose={onClose}
      onSubmit={async () => {
        setFeeError(fee.trim() === "" || isNaN(monthlyFee) ? "Monthly fee must be a number, such as 49.00" : "");
        if (fee.trim() === "" || isNaN(monthlyFee)) return;
        const res = plan
          ? await update({ id: plan.id, input: { name, description, currency, monthlyFee, active } })
          : await create({ input: { code, name, description, currency, monthlyFee, active } }, { additionalTypenames: ["Plan"] });
        if (check(res.error)) onClose();
      }}>
      {!plan && <TextInput label="Code" description="Lower-case key: a-z, 0-9 and _; it never changes." required value={code}
        onChange={(e) => setCode(e.currentTarget.value)} error={problems.fields.code} data-autofocus />}
      <TextInput label="Name" required value={name} onChange={(e) => setName(e.currentTarget.value)} error={problems.fields.name} />
      <Textarea label="Description" value={description} onChange={(e) => setDescription(e.currentTarget.value)} error={problems.fields.description} />
      <TextInput label="Currency" description="ISO 4217, such as EUR." required value={currency} onChange={(e) => setCurrency(e.currentTarget.value.toUpperCase())} error={problems.fields.currency} />
      <TextInput label="Monthly fee" required inputMode="decimal" value={fee} onChange={(e) => setFee(e.currentTarget.value)} error={feeError || problems.fields.monthlyFee} />
      <Checkbox label="Active (offered to customers)" checked={active} onChange={(e) => setActive(e.currentTarget.checked)} />
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
    <ModalForm title={meter ? `Edit meter ${meter.name}` : "New meter"} submit={meter ? "Save meter" : "Create meter"} busy={creating || updating}
      errors={problems.general} onClose={onClose}
      onSubmit={async () => {
        const res = meter
          ? await update({ id: meter.id, input: { name, unit, aggregation, description } })
          : await create({ input: { key, name, unit, aggregation, description } }, { additionalTypenames: ["Meter"] });
        if (check(res.error)) onClose();
      }}>
      {!meter && <TextInput label="Key" description="The key usage is recorded under: a-z, 0-9 and _." required value={key}
        onChange={(e) => setKey(e.currentTarget.value)} error={problems.fields.key} data-autofocus />}
      <TextInput label="Name" required value={name} onChange={(e) => setName(e.currentTarget.value)} error={problems.fields.name} />
      <TextInput label="Unit" required value={unit} onChange={(e) => setUnit(e.currentTarget.value)} error={problems.fields.unit} />
      <NativeSelect label="Aggregation" value={aggregation} onChange={(e) => setAggregation(e.currentTarget.value)} data={AGGREGATIONS} error={problems.fields.aggregation} />
      <Textarea label="Description" value={description} onChange={(e) => setDescription(e.currentTarget.value)} error={problems.fields.description} />
    </ModalForm>
  );
}
