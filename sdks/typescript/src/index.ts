// The TypeScript client of Talent's public API: `paths` and `components` are generated from
// docs/openapi.json by openapi-typescript (src/schema.ts, never edited by hand); openapi-fetch
// turns them into a typed `fetch` client. `verify` and `verifyStandard` (src/webhooks.ts) check webhook signatures
// with the Web Crypto API; src/helpers.ts retries, throws typed errors (`unwrap`) and pages
// (`paginate`). `npm pack` builds dist/ (JavaScript and type declarations).
//
//   import { createTalentClient } from "@talent/api-client";
//   const api = createTalentClient("http://127.0.0.1:8080", process.env.TALENT_KEY!);
//   const { data, error } = await api.GET("/api/v1/persons", { params: { query: { limit: 10 } } });

import createClient from "openapi-fetch";
import type { components, paths } from "./schema.ts";

export type { components, paths } from "./schema.ts";
import { retryingFetch, type RetryOptions } from "./helpers.ts";

export { verify, verifyStandard, TOLERANCE_SECONDS } from "./webhooks.ts";
export {
  Conflict,
  Forbidden,
  NotFound,
  paginate,
  RateLimited,
  retryingFetch,
  ServiceUnavailable,
  TalentError,
  Unauthorized,
  unwrap,
  ValidationError,
} from "./helpers.ts";
export type { ErrorEnvelope, FetchResult, Paged, RetryOptions } from "./helpers.ts";
export type { StandardHeaders } from "./webhooks.ts";

/** One of the API's schemas by name, e.g. `Schema<"Person">`. */
export type Schema<Name extends keyof components["schemas"]> = components["schemas"][Name];

/**
 * A client of `baseUrl` (scheme, host and port) that sends `Authorization: Bearer <apiKey>`,
 * retries 429 and 503 after `Retry-After` and gives every POST an `Idempotency-Key`
 * (`retryingFetch`; `retry` tunes it).
 */
export function createTalentClient(baseUrl: string, apiKey: string, retry: RetryOptions = {}) {
  return createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${apiKey}` }, fetch: retryingFetch(retry) });
}
