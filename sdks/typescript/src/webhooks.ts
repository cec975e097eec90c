// Verifies Talent's webhook deliveries (the `Talent-Signature` header), by hand (not generated).
//
// `v1` is the lowercase hex HMAC-SHA256, keyed with the whole signing secret (`whsec_...`), of
// `"{t}.{raw body}"`; during a secret rotation the header carries one `v1` per valid secret, and
// any one matching is enough. A `t` more than 300 seconds from the receiver's clock is refused
// (replay protection). Compare in constant time, on the raw body bytes, before parsing them.

import { createHmac, timingSafeEqual } from "node:crypto";

export const TOLERANCE_SECONDS = 300;

/** True when `header` signs `rawBody` with `secret` and its `t` is within 300 s of `nowSeconds`. */
export function verify(secret: string, header: string, rawBody: Buffer, nowSeconds = Date.now() / 1000): boolean {
  let t: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(",")) {
    const [key, value = ""] = part.trim().split("=", 2);
    if (key === "t") {
      if (!/^\d+$/.test(value)) return false;
      t = Number(value);
    } else if (key === "v1") {
      signatures.push(value);
    }
  }
  if (t === undefined || signatures.length === 0) return false;
  if (Math.abs(nowSeconds - t) > TOLERANCE_SECONDS) return false;
  const expected = createHmac("sha256", secret).update(`${t}.`).update(rawBody).digest();
  return signatures.some((s) => {
    const given = Buffer.from(s, "hex");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
