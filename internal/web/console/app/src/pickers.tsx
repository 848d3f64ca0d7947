// The pickers of a customer and of an instance wherever a form names one
// (a new tenant or instance, a transfer, a user's move, a grant): selects
// the server searches as one types (RemoteSelect), so every customer can be
// picked however many there are, not the first page of them.
import type { SelectProps } from "@mantine/core";
import { graphql } from "./gql";
import { RemoteSelect, type Option } from "./remoteselect";

export const CustomerOptions = graphql(`
  query CustomerOptions($search: String, $selected: ID!, $withSelected: Boolean!) {
    customers(first: 50, search: $search) { items { id name } }
    selected: customer(id: $selected) @include(if: $withSelected) { id name }
  }
`);
export const InstanceOptions = graphql(`
  query InstanceOptions($customerId: ID, $search: String, $selected: ID!, $withSelected: Boolean!) {
    instances(customerId: $customerId, first: 50, search: $search) { items { id name customer { name } } }
    selected: instance(id: $selected) @include(if: $withSelected) { id name customer { name } }
  }
`);

type Named = { id: string; name: string; customer?: { name: string } | null };

// namedOptions lists the selected object (when asked) and the search's
// answer as options, each once, leaving out the ids in except (a transfer's
// own customer); an instance is named with its customer unless withCustomer
// is false.
export function namedOptions(items: Named[], selected?: Named | null, except: string[] = [], withCustomer = true): Option[] {
  const seen = new Set<string>(except);
  return [...(selected ? [selected] : []), ...items].flatMap((o) => {
    if (seen.has(o.id)) return [];
    seen.add(o.id);
    return [{ value: o.id, label: withCustomer && o.customer ? `${o.name} (${o.customer.name})` : o.name }];
  });
}

// The options open in place (not in a portal at the page's end), so they
// stay within the page's or dialog's landmark.
export const INLINE = { withinPortal: false };

type PickerProps = Omit<SelectProps, "data" | "value" | "onChange" | "searchable" | "filter" | "searchValue" | "onSearchChange"> & {
  value: string | null;
  onChange: (value: string | null) => void;
};

// CustomerPicker picks any customer the caller may read; except leaves
// some out (the one a tenant or user is moved away from).
export function CustomerPicker({ except, ...props }: PickerProps & { except?: string[] }) {
  return <RemoteSelect comboboxProps={INLINE} {...props} query={CustomerOptions}
    options={(d) => namedOptions(d.customers.items, d.selected, except)} />;
}

// InstancePicker picks an instance, of one customer when customerId is
// set (named without it then).
export function InstancePicker({ customerId, ...props }: PickerProps & { customerId?: string | null }) {
  return <RemoteSelect comboboxProps={INLINE} {...props} query={InstanceOptions} variables={{ customerId: customerId ?? null }}
    options={(d) => namedOptions(d.instances.items, d.selected, [], !customerId)} />;
}
