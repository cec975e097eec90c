// Verifies Talent's webhook deliveries, by hand (not generated): the `Talent-Signature` header
// (`verify`) or the Standard Webhooks headers (`verifyStandard`).
// It uses the Web Crypto API only, so it runs unchanged on Node 20+, Deno, Bun, browsers and edge
// runtimes.
//
// `v1` is the lowercase hex HMAC-SHA256, keyed with the whole signing secret (`whsec_...`), of
// `"{t}.{raw body}"`; during a secret rotation the header carries one `v1` per valid secret, and
// any one matching is enough. A `t` more than 300 seconds from the receiver's clock is refused
// (replay protection). The comparison is Web Crypto's `verify` (constant time), on the raw body
// bytes, before parsing them.
//
// `webhook-signature` is `v1,` and the base64 HMAC-SHA256, keyed with the base64-decoded part of
// the secret after `whsec_`, of `"{webhook-id}.{webhook-timestamp}.{raw body}"`, one entry per
// valid secret separated by spaces. Deliveries are at least once: deduplicate on the envelope's
// `eventId` (also `webhook-id`).

export const TOLERANCE_SECONDS = 300;

const encoder = new TextEncoder();

/**
 * Resolves to true when `header` signs `rawBody` (the bytes received, or their text exactly as
 * received) with `secret`, and its `t` is within 300 s of `nowSeconds` (default: the clock).
 */
export async function verify(
  secret: string,
  header: string,
  rawBody: Uint8Array | string,
  nowSeconds: number = Date.now() / 1000,
): Promise<boolean> {
  let t: number | undefined;
  const signatures: Uint8Array<ArrayBuffer>[] = [];
  for (const part of header.split(",")) {
    const [key, value = ""] = part.trim().split("=", 2);
    if (key === "t") {
      if (!/^\d+$/.test(value)) return false;
      t = Number(value);
    } else if (key === "v1") {
      const bytes = fromHex(value);
      if (bytes) signatures.push(bytes);
    }
  }
  if (t === undefined || signatures.length === 0) return false;
  if (Math.abs(nowSeconds - t) > TOLERANCE_SECONDS) return false;
  const body = typeof rawBody === "string" ? encoder.encode(rawBody) : rawBody;
  const prefix = encoder.encode(`${t}.`);
  const signed = new Uint8Array(prefix.length + body.length);
  signed.set(prefix);
  signed.set(body, prefix.length);
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "verify",
  ]);
  for (const s of signatures) {
    if (await crypto.subtle.verify("HMAC", key, s, signed)) return true;
  }
  return false;
}

/** The Standard Webhooks headers of a delivery (names in lower case, as `Headers` gives them). */
export interface StandardHeaders {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
}

/**
 * Resolves to true when the Standard Webhooks headers sign `rawBody` with `secret` (`whsec_` and
 * standard base64) and `webhook-timestamp` is within 300 s of `nowSeconds`. `headers` may be a
 * `Headers` object (fetch, Deno, edge runtimes) or a plain object with lower-case names.
 */
export async function verifyStandard(
  secret: string,
  headers: Headers | StandardHeaders,
  rawBody: Uint8Array | string,
  nowSeconds: number = Date.now() / 1000,
): Promise<boolean> {
  const get = (name: keyof StandardHeaders): string | undefined =>
    headers instanceof Headers ? (headers.get(name) ?? undefined) : headers[name];
  const id = get("webhook-id");
  const timestamp = get("webhook-timestamp") ?? "";
  const signature = get("webhook-signature");
  if (!id || !signature || !secret.startsWith("whsec_") || !/^\d+$/.test(timestamp)) return false;
  const keyBytes = fromBase64(secret.slice("whsec_".length));
  if (!keyBytes) return false;
  const t = Number(timestamp);
  if (Math.abs(nowSeconds - t) > TOLERANCE_SECONDS) return false;
  const body = typeof rawBody === "string" ? encoder.encode(rawBody) : rawBody;
  const prefix = encoder.encode(`${id}.${t}.`);
  const signed = new Uint8Array(prefix.length + body.length);
  signed.set(prefix);
  signed.set(body, prefix.length);
  const key = await crypto.subtle.importKey("raw", keyBytes, { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
  for (const entry of signature.split(" ")) {
    const [version, value = ""] = entry.split(",", 2);
    const bytes = version === "v1" ? fromBase64(value) : undefined;
    if (bytes && (await crypto.subtle.verify("HMAC", key, bytes, signed))) return true;
  }
  return false;
}

/** The bytes of a standard base64 string, or `undefined`. */
function fromBase64(s: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(s) || s.length % 4 !== 0) return undefined;
  const text = atob(s);
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

/** The 32 bytes of a 64-digit hex string, or `undefined`. */
function fromHex(s: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[0-9a-fA-F]{64}$/.test(s)) return undefined;
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = parseInt(s.slice(2 * i, 2 * i + 2), 16);
  return out;
}
