// The TypeScript SDK against a running `talent demo` (tests/sdks.sh starts it): an import, a list
// walked page by page, a person's results, a real webhook delivery verified with `verify` and
// `verifyStandard`, and the helpers: paging, typed errors, a 429 retried after Retry-After, an
// Idempotency-Key on every POST. Environment: TALENT_URL, TALENT_KEY, TALENT_ADMIN.

import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "node:test";
import {
  createTalentClient,
  NotFound,
  paginate,
  TalentError,
  unwrap,
  ValidationError,
  verify,
  verifyStandard,
  type StandardHeaders,
} from "../src/index.ts";

const api = createTalentClient(process.env.TALENT_URL!, process.env.TALENT_KEY!);

test("me, an import, and the same import again", async () => {
  const me = await api.GET("/api/v1/me");
  assert.equal(me.data?.plan, "business");
  const body = { email: "ts.sdk@example.com", firstName: "Ts", tags: ["sdk"] };
  const params = { header: { "Idempotency-Key": "ts-sdk-1" } };
  const first = await api.POST("/api/v1/persons", { body, params });
  assert.equal(first.response.status, 201, JSON.stringify(first.error));
  assert.equal(first.data?.email, "ts.sdk@example.com");
  const again = await api.POST("/api/v1/persons", { body, params });
  assert.equal(again.response.headers.get("idempotency-replayed"), "true");
  assert.equal(again.data?.id, first.data?.id);
});

test("a batch and a list walked page by page", async () => {
  const persons = Array.from({ length: 7 }, (_, i) => ({ email: `ts.page${i}@example.com`, tags: ["ts-paging"] }));
  const batch = await api.POST("/api/v1/persons/batch", { body: { persons } });
  assert.deepEqual(batch.data?.results.map((r) => r.status), Array(7).fill(201));
  const seen: string[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await api.GET("/api/v1/persons", { params: { query: { tag: "ts-paging", limit: 3, cursor } } });
    assert.ok(page.data, JSON.stringify(page.error));
    seen.push(...page.data.data.map((p) => p.email));
    if (!page.data.pagination.hasMore) break;
    cursor = page.data.pagination.nextCursor ?? undefined;
  }
  assert.deepEqual(seen.sort(), persons.map((p) => p.email).sort());
});

test("results of a demo person", async () => {
  const page = await api.GET("/api/v1/persons", { params: { query: { assessmentStatus: "completed", limit: 1 } } });
  const id = page.data!.data[0].id;
  const results = await api.GET("/api/v1/persons/{id}/results", { params: { path: { id } } });
  assert.equal(results.data?.hasResults, true);
});

test("a real delivery is verified and a tampered one is not", async () => {
  const got: { body?: Buffer; signature?: string; headers?: StandardHeaders } = {};
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      got.body = Buffer.concat(chunks);
      got.signature = String(req.headers["talent-signature"]);
      got.headers = {
        "webhook-id": String(req.headers["webhook-id"]),
        "webhook-timestamp": String(req.headers["webhook-timestamp"]),
        "webhook-signature": String(req.headers["webhook-signature"]),
      };
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
    const hook = await api.POST("/api/v1/webhooks", { body: { url, events: ["*"] } });
    assert.ok(hook.data, JSON.stringify(hook.error));
    const ping = await api.POST("/api/v1/webhooks/{id}/test", { params: { path: { id: hook.data.id } } });
    assert.equal(ping.data?.success, true);
    const { body, signature, headers } = got as { body: Buffer; signature: string; headers: StandardHeaders };
    assert.equal(await verify(hook.data.secret, signature, body), true);
    assert.equal(JSON.parse(body.toString()).type, "ping");
    assert.equal(await verify(hook.data.secret, signature, Buffer.concat([body, Buffer.from(" ")])), false);
    assert.equal(await verify("whsec_other", signature, body), false);
    assert.equal(await verify(hook.data.secret, signature, body, 0), false);
    assert.equal(await verifyStandard(hook.data.secret, headers, body), true);
    assert.equal(await verifyStandard(hook.data.secret, headers, Buffer.concat([body, Buffer.from(" ")])), false);
  } finally {
    server.close();
  }
});

test("paginate walks every page and unwrap returns the data", async () => {
  const persons = Array.from({ length: 5 }, (_, i) => ({ email: `ts.helpers${i}@example.com`, tags: ["ts-helpers"] }));
  unwrap(await api.POST("/api/v1/persons/batch", { body: { persons } }));
  const seen: string[] = [];
  for await (const p of paginate((cursor) =>
    api.GET("/api/v1/persons", { params: { query: { tag: "ts-helpers", limit: 2, cursor } } }),
  )) {
    seen.push(p.email);
  }
  assert.deepEqual(seen.sort(), persons.map((p) => p.email).sort());
});

test("errors throw typed errors with the envelope", async () => {
  const missing = api.GET("/api/v1/persons/{id}", { params: { path: { id: "00000000-0000-0000-0000-000000000000" } } });
  await assert.rejects(async () => unwrap(await missing), (e: unknown) => {
    assert.ok(e instanceof NotFound && e instanceof TalentError);
    assert.equal(e.code, "not_found");
    assert.ok(e.requestId);
    return true;
  });
  const invalid = api.POST("/api/v1/persons", { body: { email: "not an address" } });
  await assert.rejects(async () => unwrap(await invalid), (e: unknown) => {
    assert.ok(e instanceof ValidationError);
    const fields = (e.details as { fields: { field: string }[] }).fields.map((f) => f.field);
    assert.ok(fields.includes("email"), JSON.stringify(e.details));
    return true;
  });
});

test("a 429 is retried after Retry-After and POSTs carry one Idempotency-Key", async () => {
  // A key of a new organization on the professional plan: 60 requests a minute.
  const admin = async (path: string, body: object) => {
    const r = await fetch(process.env.TALENT_URL + path, {
      method: "POST",
      headers: { Authorization: `Bearer ${process.env.TALENT_ADMIN}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    assert.ok(r.ok, await r.clone().text());
    return (await r.json()) as { id: string; key: string };
  };
  const org = await admin("/admin/v1/organizations", {
    companyName: "Retry",
    email: "hr@retry-ts.example",
    plan: "professional",
    subscriptionStatus: "active",
  });
  const user = await admin(`/admin/v1/organizations/${org.id}/users`, { email: "a@retry-ts.example", role: "admin" });
  const { key } = await admin(`/admin/v1/users/${user.id}/api-keys`, { scopes: ["persons:write"] });
  const sent: [string, string | null][] = [];
  let retries = 0;
  const limited = createTalentClient(process.env.TALENT_URL!, key, {
    maxRetries: 5,
    onRetry: () => retries++,
    fetch: (r) => {
      sent.push([r.method, r.headers.get("idempotency-key")]);
      return fetch(r);
    },
  });
  for (let i = 0; i < 64; i++) assert.equal(unwrap(await limited.GET("/api/v1/me")).plan, "professional");
  assert.ok(retries > 0, "the budget of 60 was spent and the 429s retried");
  const imported = unwrap(await limited.POST("/api/v1/persons", { body: { email: "retried.ts@example.com" } }));
  assert.equal(imported.email, "retried.ts@example.com");
  const posts = sent.filter(([m]) => m === "POST").map(([, k]) => k);
  assert.ok(posts.length > 0 && posts.every((k) => k && k === posts[0]), JSON.stringify(posts));
});
