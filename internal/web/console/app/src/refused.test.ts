import { describe, expect, it } from "vitest";
import { CombinedError, makeOperation, type Operation, type OperationResult } from "@urql/core";
import { changedNothing } from "./refused";

const op = (kind: "mutation" | "query") =>
  makeOperation(kind, { key: 1, kind, query: {} as Operation["query"], variables: {}, context: { url: "/graphql", requestPolicy: "network-only", additionalTypenames: ["Tenant"] } } as Operation);
const error = new CombinedError({ graphQLErrors: [{ message: "targetVersion must be at most 64 characters" }] });

describe("changedNothing", () => {
  it("is true for a refused mutation", () => {
    expect(changedNothing({ operation: op("mutation"), data: { triggerMigration: null }, error, stale: false, hasNext: false } as OperationResult)).toBe(true);
    expect(changedNothing({ operation: op("mutation"), data: null, error, stale: false, hasNext: false } as OperationResult)).toBe(true);
  });
  it("is false for an accepted mutation, also with an error beside its data", () => {
    expect(changedNothing({ operation: op("mutation"), data: { triggerMigration: { id: "m1" } }, stale: false, hasNext: false } as OperationResult)).toBe(false);
    expect(changedNothing({ operation: op("mutation"), data: { triggerMigration: { id: "m1" } }, error, stale: false, hasNext: false } as OperationResult)).toBe(false);
  });
  it("is false for a query", () => {
    expect(changedNothing({ operation: op("query"), data: null, error, stale: false, hasNext: false } as OperationResult)).toBe(false);
  });
});
