import { describe, expect, it } from "vitest";
import { makeOperation, type Operation } from "@urql/core";
import { makeFetchBody } from "@urql/core/internal";
import { MeDocument } from "./gql/graphql";
import { withHash } from "./trusted";

const context = { url: "/graphql", requestPolicy: "network-only" } as Operation["context"];

describe("withHash", () => {
  it("sends a registered operation as its hash alone", () => {
    const op = makeOperation("query", { key: 1, query: MeDocument, variables: {} }, context);
    const body = makeFetchBody(withHash(op));
    expect(body.extensions?.persistedQuery).toEqual({
      version: 1,
      sha256Hash: (MeDocument as unknown as { __meta__: { hash: string } }).__meta__.hash,
    });
    expect(body.query).toBeUndefined();
    expect(body.operationName).toBe("Me");
  });
  it("leaves a teardown as it is", () => {
    const op = makeOperation("teardown", { key: 1, query: MeDocument, variables: {} }, context);
    expect(withHash(op)).toBe(op);
  });
});
