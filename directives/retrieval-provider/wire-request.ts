/**
 * The wire-request assertions (conformance-adapter §5.16) for retrieval-provider cases: the same
 * directives as llm-provider's, reading the requests the retrieval mocks captured (every embed /
 * rerank request of the case, in call order and chunk order).
 */
import { directive } from "../../src/conformance/registry.ts";
import {
  ExpectedWireHeaders,
  ExpectedWireRequest,
  ExpectedWireRequestAbsentKeys,
  ExpectedWireRequestCount,
  ExpectedWireRequestIncludes,
  ExpectedWireUrl,
} from "../llm-provider/wire-request.ts";

const HOME = "retrieval-provider";

@directive({ name: "expected_wire_request", at: "case", home: HOME, summary: "the exact wire request bodies" })
export class RetrievalExpectedWireRequest extends ExpectedWireRequest {}
@directive({ name: "expected_wire_request_includes", at: "case", home: HOME, summary: "the one wire request, by named keys" })
export class RetrievalExpectedWireRequestIncludes extends ExpectedWireRequestIncludes {}
@directive({ name: "expected_wire_request_absent_keys", at: "case", home: HOME, summary: "top-level members no request carries" })
export class RetrievalExpectedWireRequestAbsentKeys extends ExpectedWireRequestAbsentKeys {}
@directive({ name: "expected_wire_headers", at: "case", home: HOME, summary: "headers every request carries once" })
export class RetrievalExpectedWireHeaders extends ExpectedWireHeaders {}
@directive({ name: "expected_wire_request_count", at: "case", home: HOME, summary: "how many requests were sent" })
export class RetrievalExpectedWireRequestCount extends ExpectedWireRequestCount {}
@directive({ name: "expected_wire_url", at: "case", home: HOME, summary: "the resolved URL of every request" })
export class RetrievalExpectedWireUrl extends ExpectedWireUrl {}
