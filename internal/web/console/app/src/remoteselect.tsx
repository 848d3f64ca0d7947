// A select whose options the server searches: for lists that can outgrow
// one page (customers, instances). Typing asks the API for the first 50
// names containing the text (debounced); the chosen option stays among the
// options, and a value that arrives from the URL is named by the same
// query (selected), so the field shows a name, never an id. Nothing is
// asked before the list first opens or while no value needs naming, so a
// page costs no query for a filter nobody touches.
import { useState } from "react";
import { Select, type SelectProps } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { useQuery } from "urql";
import { useTranslation } from "react-i18next";

export type Option = { value: string; label: string };

// SEARCH_PAGE is how many options one search shows.
export const SEARCH_PAGE = 50;

type SearchVars = { search?: string | null; selected: string; withSelected: boolean };

// withChosen puts the chosen option first unless the answer holds it, so
// its label shows whatever was searched last.
export function withChosen(options: Option[], chosen: Option | null): Option[] {
  if (!chosen || options.some((o) => o.value === chosen.value)) return options;
  return [chosen, ...options];
}

// searchVars are the query's variables for a typed text and the value.
export function searchVars(search: string, value: string | null): SearchVars {
  return { search: search.trim() || null, selected: value ?? "", withSelected: !!value };
}

type Props<D, V extends object> = Omit<SelectProps, "data" | "value" | "onChange" | "searchable" | "filter" | "searchValue" | "onSearchChange"> & {
  query: TypedDocumentNode<D, SearchVars & V>;
  // more of the query's variables (an instance's customer)
  variables?: V;
  options: (data: D) => Option[];
  value: string | null;
  onChange: (value: string | null) => void;
};

export function RemoteSelect<D, V extends object = object>({ query, variables, options, value, onChange, ...props }: Props<D, V>) {
  const { t } = useTranslation();
  const [search, setSearch] = useState("");
  const [debounced] = useDebouncedValue(search, 250);
  const [chosen, setChosen] = useState<Option | null>(null);
  // nothing is asked until the list opens or a value needs its name
  const [opened, setOpened] = useState(false);
  const [{ data, fetching, error }] = useQuery({ query, variables: { ...searchVars(debounced, value), ...variables } as SearchVars & V, pause: !opened && !value });
  const shown = withChosen(data ? options(data) : [], value && chosen?.value === value ? chosen : null);
  return (
    <Select
      {...props}
      searchable
      data={shown}
      value={value}
      searchValue={search}
      onSearchChange={setSearch}
      onDropdownOpen={() => setOpened(true)}
      filter={({ options: o }) => o}
      nothingFoundMessage={fetching ? t("common.searching") : error ? t("common.searchFailed") : t("common.nothingMatches")}
      onChange={(v, option) => {
        setChosen(v && option ? { value: v, label: option.label } : null);
        onChange(v);
      }}
    />
  );
}
