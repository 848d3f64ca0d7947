// A list's search box: the text is the server's `search` argument, kept in
// the URL (?q=…) so a reload, Back and a shared link keep it. The URL (and
// with it the query) changes once typing pauses, and by replacing the
// history entry, so typing neither asks the server per key nor fills the
// history; a change of the URL from elsewhere (Back, a link) puts its text
// back into the box.
import { useEffect, useRef, useState } from "react";
import { TextInput, type TextInputProps } from "@mantine/core";
import { useQueryParam } from "./router";

// SEARCH_DELAY is how long typing pauses before the list is asked again.
export const SEARCH_DELAY = 300;

// A new search starts on the first page.
export const FIRST_PAGE = { after: null, prev: null };

// useSearchParam answers the box's text, its setter, and the search as the
// URL holds it (what the list's query asks for).
export function useSearchParam(key = "q", wait = SEARCH_DELAY): [string, (v: string) => void, string] {
  const [value, setValue] = useQueryParam(key);
  const [text, setText] = useState(value);
  const sent = useRef(value);
  useEffect(() => {
    if (value === sent.current) return;
    sent.current = value;
    setText(value);
  }, [value]);
  useEffect(() => {
    const v = text.trim();
    if (v === sent.current) return;
    const timer = setTimeout(() => {
      sent.current = v;
      setValue(v, FIRST_PAGE);
    }, wait);
    return () => clearTimeout(timer);
    // setValue reads the URL when called; only the text starts a wait
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [text, wait]);
  return [text, setText, value];
}

type Props = Omit<TextInputProps, "value" | "onChange" | "type"> & { param?: string; label: string };

// SearchBox is the search field of a list; the list reads the search with
// useQueryParam(param) (or the third value of useSearchParam).
export function SearchBox({ param = "q", ...props }: Props) {
  const [text, setText] = useSearchParam(param);
  return (
    <TextInput type="search" mb="md" maw={360} {...props} value={text}
      onChange={(e) => setText(e.currentTarget.value)} data-testid={`search-${param}`} />
  );
}
