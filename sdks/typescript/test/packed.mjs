// The packed TypeScript SDK as an application installs it (tests/sdks.sh: `npm pack`, then
// `npm install` of the tarball into an empty project, imported from this plain `.mjs` file): a
// person imported and read back, every person paged through, a person's results, an error thrown
// as a typed error, a 429 retried, and a real webhook delivery verified with the Web Crypto
// verifiers. Environment: TALENT_URL, TALENT_KEY, TALENT_ADMIN.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import {
  createTalentClient,
  NotFound,
  paginate,
  unwrap,
  verify,
  verifyStandard,
  TOLERANCE_SECONDS,
} from "@talent/api-client";

const api = createTalentClient(process.env.TALENT_URL, process.env.TALENT_KEY);
assert.equal(TOLERANCE_SECONDS, 300);
const me = await api.GET("/api/v1/me");
assert.equal(me.response.status, 200, JSON.stringify(me.error));
const created = await api.POST("/api/v1/persons", { body: { email: "packed.sdk@example.com" } });
assert.ok(created.data, JSON.stringify(created.error));
const read = await api.GET("/api/v1/persons/{id}", { params: { path: { id: created.data.id } } });
assert.equal(read.data?.email, "packed.sdk@example.com");
const refused = await api.POST("/api/v1/persons", { body: { email: "not an address" } });
assert.equal(refused.response.status, 400);
assert.equal(refused.error?.code, "validation_error");

// Every person, page after page, and the results of one who completed the assessment.
const walk = async (limit) => {
  const ids = [];
  for await (const p of paginate((cursor) => api.GET("/api/v1/persons", { params: { query: { limit, cursor } } }))) {
    ids.push(p.id);
  }
  return ids;
};
const [small, large] = [await walk(5), await walk(100)];
assert.ok(small.length > 5, "more than one page");
assert.equal(new Set(small).size, small.length, "each person once");
assert.deepEqual([...small].sort(), [...large].sort(), "the same persons in pages of 5 as of 100");
const done = unwrap(await api.GET("/api/v1/persons", { params: { query: { assessmentStatus: "completed", limit: 1 } } }));
const results = unwrap(await api.GET("/api/v1/persons/{id}/results", { params: { path: { id: done.data[0].id } } }));
assert.equal(results.hasResults, true);
// An error answer thrown as a typed error.
const missing = await api.GET("/api/v1/persons/{id}", { params: { path: { id: "00000000-0000-0000-0000-000000000000" } } });
assert.throws(() => unwrap(missing), (e) => e instanceof NotFound && e.code === "not_found");
// A key of the professional plan (60 requests a minute) spends its budget: the 429s are retried.
const admin = async (path, body) => {
  const r = await fetch(process.env.TALENT_URL + path, {
    method: "POST",
    headers: { Authorization: `Bearer ${process.env.TALENT_ADMIN}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  assert.ok(r.ok, await r.clone().text());
  return r.json();
};
const tenant = await admin("/admin/v1/organizations", { companyName: "Packed", email: "hr@packed.example", plan: "professional", subscriptionStatus: "active" });
const owner = await admin(`/admin/v1/organizations/${tenant.id}/users`, { email: "a@packed.example", role: "admin" });
const { key } = await admin(`/admin/v1/users/${owner.id}/api-keys`, { scopes: ["persons:read"] });
let retries = 0;
const limited = createTalentClient(process.env.TALENT_URL, key, { maxRetries: 5, onRetry: () => retries++ });
for (let i = 0; i < 63; i++) unwrap(await limited.GET("/api/v1/me"));
assert.ok(retries > 0, "429s retried");

let got;
const server = createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    got = { body: Buffer.concat(chunks), signature: String(req.headers["talent-signature"]), headers: req.headers };
    res.writeHead(200).end();
  });
});
await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
try {
  const url = `http://127.0.0.1:${server.address().port}/packed`;
  const hook = await api.POST("/api/v1/webhooks", { body: { url, events: ["*"] } });
  assert.ok(hook.data, JSON.stringify(hook.error));
  const ping = await api.POST("/api/v1/webhooks/{id}/test", { params: { path: { id: hook.data.id } } });
  assert.equal(ping.data?.success, true);
  const { body, signature, headers } = got;
  assert.equal(await verify(hook.data.secret, signature, body), true, "the bytes received");
  assert.equal(await verify(hook.data.secret, signature, new TextDecoder().decode(body)), true, "their text");
  assert.equal(await verify(hook.data.secret, signature, Buffer.concat([body, Buffer.from(" ")])), false);
  assert.equal(await verify("whsec_other", signature, body), false);
  assert.equal(await verify(hook.data.secret, signature, body, 0), false, "too old");
  // The Standard Webhooks headers, named by the event's id.
  assert.equal(headers["webhook-id"], JSON.parse(body.toString())["eventId"]);
  assert.equal(await verifyStandard(hook.data.secret, headers, body), true, "webhook-signature");
  assert.equal(await verifyStandard(hook.data.secret, new Headers(headers), body), true, "from a Headers object");
  assert.equal(await verifyStandard(hook.data.secret, headers, Buffer.concat([body, Buffer.from(" ")])), false);
  assert.equal(await verifyStandard(hook.data.secret, headers, body, 0), false, "too old");
  const gone = await api.DELETE("/api/v1/webhooks/{id}", { params: { path: { id: hook.data.id } } });
  assert.ok(gone.response.ok, String(gone.response.status));
} finally {
  server.close();
}
console.log("packed: plain Node imports the package; a real delivery verified");
