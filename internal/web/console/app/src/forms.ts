import { useState } from "react";
import type { CombinedError } from "@urql/core";
import { graphErrors, problems, type Problems } from "./errors";

// useProblems keeps a form's server-side problems: check(error) sorts a
// mutation's errors onto the named fields and answers whether it succeeded.
export function useProblems(fields: string[]) {
  const [p, setP] = useState<Problems>({ fields: {}, general: [] });
  const check = (error: CombinedError | undefined) => {
    const next = problems(graphErrors(error), fields);
    setP(next);
    return !error;
  };
  const reset = () => setP({ fields: {}, general: [] });
  return { problems: p, check, reset };
}

// messages lists a mutation's errors as sentences (for confirmations).
export function messages(error: CombinedError | undefined): string[] {
  const p = problems(graphErrors(error), []);
  return p.general;
}
