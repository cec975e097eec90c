// The packed TypeScript SDK as an application installs it (tests/sdks.sh: `npm pack`, then
// `npm install` of the tarball into an empty project, imported from this plain `.mjs` file): a
// person imported and read back, and a real webhook delivery verified with the Web Crypto
// verifier. Environment: TALENT_URL, TALENT_KEY.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { createTalentClient, verify, verifyStandard, TOLERANCE_SECONDS } from "@talent/api-client";

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
