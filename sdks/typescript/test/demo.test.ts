// The TypeScript SDK against a running `talent demo` (tests/sdks.sh starts it): an import, a list
// walked page by page, a person's results, and a real webhook delivery verified with `verify`.
// Environment: TALENT_URL, TALENT_KEY.

import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "node:test";
import { createTalentClient, verify, verifyStandard, type StandardHeaders } from "../src/index.ts";

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
