/** Where a platform wants its webhooks: its platform configuration's `webhookEndpoint`. */
export interface WebhookEndpointDirectory {
  /**
   * `fresh`: read from the source now, never from a copy (the caller just changed it, perhaps). Undefined when the
   * platform has none; rejects when the configuration cannot be read.
   */
  endpointOf(platformId: string, options?: { fresh?: boolean }): Promise<string | undefined>;
  /** The extension types (not in the reference) the platform opted into; none when absent. */
  extensionTypesOf?(platformId: string): Promise<readonly string[]>;
}
