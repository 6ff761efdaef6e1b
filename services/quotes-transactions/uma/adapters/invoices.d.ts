/** The part of the `invoices` package (BOLT-11 encoding, no types of its own) this service uses. */
declare module 'invoices' {
  /** Decodes a BOLT-11 payment request; throws on a malformed one. `id` is the hex payment hash. */
  export function parsePaymentRequest(input: { request: string }): { id: string; mtokens?: string };
}
