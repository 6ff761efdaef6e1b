/** Where a platform wants its webhooks: its platform configuration's `webhookEndpoint`. */
export interface WebhookEndpointDirectory {
  /** Undefined when the platform has none; rejects when the configuration cannot be read. */
  endpointOf(platformId: string): Promise<string | undefined>;
  /** The extension types (not in the reference) the platform opted into; none when absent. */
  extensionTypesOf?(platformId: string): Promise<readonly string[]>;
}
