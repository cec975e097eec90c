// The hand-written layer over the generated types and openapi-fetch (not generated): a `fetch`
// that retries and gives every POST an Idempotency-Key, typed errors, and paging.
//
//   const api = createTalentClient(url, key);             // retries 429 and 503 (see below)
//   for await (const p of paginate((cursor) => api.GET("/api/v1/persons", { params: { query: { cursor } } })))
//     console.log(p.email);
//   const person = unwrap(await api.GET("/api/v1/persons/{id}", { params: { path: { id } } }));
//   // a 404 throws NotFound, a 400 ValidationError …: all are TalentError.

/** How `retryingFetch` retries. */
export interface RetryOptions {
  /** Retries after a 429 or 503 (default 3). */
  maxRetries?: number;
  /** The longest wait before a retry, in seconds (default 60); `Retry-After` is honoured below it. */
  maxWaitSeconds?: number;
  /** Called before each retry, with the answer that caused it and the wait in seconds. */
  onRetry?: (response: Response, waitSeconds: number) => void;
  /** The `fetch` underneath (default: the global one). */
  fetch?: (request: Request) => Promise<Response>;
}

const RETRIED = new Set([429, 503]);

/**
 * A `fetch` for openapi-fetch's `fetch` option: a 429 or 503 is retried after `Retry-After`
 * seconds (else 1, 2, 4 … seconds), at most `maxWaitSeconds` each, up to `maxRetries` times;
 * every POST without an `Idempotency-Key` gets a new one, the same on its retries, so a retried
 * import or invitation is never made twice.
 */
export function retryingFetch(options: RetryOptions = {}): (request: Request) => Promise<Response> {
  const { maxRetries = 3, maxWaitSeconds = 60, onRetry } = options;
  const send = options.fetch ?? ((r: Request) => globalThis.fetch(r));
  return async (request: Request) => {
    if (request.method === "POST" && !request.headers.has("idempotency-key")) {
      request.headers.set("Idempotency-Key", crypto.randomUUID());
    }
    for (let attempt = 0; ; attempt++) {
      const response = await send(request.clone());
      if (!RETRIED.has(response.status) || attempt >= maxRetries) return response;
      const header = response.headers.get("retry-after");
      const wait = Math.min(header !== null && /^\d+$/.test(header) ? Number(header) : 2 ** attempt, maxWaitSeconds);
      await response.body?.cancel();
      onRetry?.(response, wait);
      await new Promise((ok) => setTimeout(ok, wait * 1000));
    }
  };
}

/** The API's error envelope. */
export interface ErrorEnvelope {
  error: string;
  code: string;
  details?: unknown;
}

/**
 * An error answer of the API: its HTTP `status`, the envelope's `code` and `details` (field errors
 * under `details.fields` as `{ field, message }`), and the `X-Request-Id` to quote to support.
 */
export class TalentError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: unknown,
    readonly requestId: string | null,
  ) {
    super(`${status} ${code}: ${message}`);
    this.name = new.target.name;
  }
}
/** 400 `validation_error`. */
export class ValidationError extends TalentError {}
/** 401: the key is missing, malformed, unknown, revoked or expired. */
export class Unauthorized extends TalentError {}
/** 403: `insufficient_scope`, `plan_upgrade_required` or `subscription_inactive`. */
export class Forbidden extends TalentError {}
/** 404: no such resource in the key's organization. */
export class NotFound extends TalentError {}
/** 409: the API's conflicts (`conflict`, `person_limit_reached`, `idempotency_key_reused` …). */
export class Conflict extends TalentError {}
/** 429 after the retries. */
export class RateLimited extends TalentError {}
/** 503 after the retries: the service cannot reach its database. */
export class ServiceUnavailable extends TalentError {}

const BY_STATUS: Record<number, typeof TalentError> = {
  400: ValidationError,
  401: Unauthorized,
  403: Forbidden,
  404: NotFound,
  409: Conflict,
  429: RateLimited,
  503: ServiceUnavailable,
};

/** The result of an openapi-fetch call. */
export interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The data of a successful call; an error answer throws the `TalentError` of its status. */
export function unwrap<T>(result: FetchResult<T>): T {
  const { response } = result;
  if (response.ok && result.error === undefined) return result.data as T;
  const envelope = (typeof result.error === "object" && result.error !== null ? result.error : {}) as Partial<ErrorEnvelope>;
  const Kind = BY_STATUS[response.status] ?? TalentError;
  throw new Kind(
    response.status,
    envelope.code ?? "unknown",
    envelope.error ?? response.statusText,
    envelope.details,
    response.headers.get("x-request-id"),
  );
}

/** A page of a list operation. */
export interface Paged<Item> {
  data: Item[];
  pagination: { nextCursor?: string | null };
}

/**
 * Every item of a paged list, page after page: `page(cursor)` asks for one page (the first with
 * `cursor` undefined) with the same filters each time. Errors throw as in `unwrap`.
 */
export async function* paginate<Item>(
  page: (cursor: string | undefined) => Promise<FetchResult<Paged<Item>>>,
): AsyncGenerator<Item> {
  let cursor: string | undefined;
  do {
    const body = unwrap(await page(cursor));
    yield* body.data;
    cursor = body.pagination.nextCursor ?? undefined;
  } while (cursor);
}
