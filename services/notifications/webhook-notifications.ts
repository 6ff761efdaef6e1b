import type { Subscription } from '../../lib/bus/event-bus';
import { AppError } from '../../lib/errors';
import { createPeriodicTask } from '../../lib/runtime/periodic-task';
import { portOf, replicaGroup } from '../../lib/runtime/replica-group';
import { observeGauge } from '../../lib/metrics';
import type { ServiceEnvironment } from '../../lib/runtime/service-module';
import { createWebhookHttpSender } from './adapters/webhook-http-sender';
import { loadWebhookSigningKey, SIGNING_KEY_VARIABLE } from './adapters/webhook-signing-key';
import { createDeliverWebhook } from './app/deliver-webhook';
import { createAccountsWebhookResources } from './adapters/accounts-webhook-resources';
import { createRecordWebhookNotification } from './app/record-webhook-notification';
import { createReportApprovalAnswer } from './app/report-approval-answer';
import { createWebhookPayloads } from './app/webhook-payloads';
import { createSendTestWebhook } from './app/send-test-webhook';
import { createWebhookDeliveryLog } from './app/webhook-delivery-log';
import { createResendWebhook } from './app/resend-webhook';
import { createWebhookDeliveryWorker } from './app/webhook-delivery-worker';
import type { WebhookEndpointDirectory } from './app/webhook-endpoint-directory';
import { noEndpointAttempt } from './domain/webhook-delivery';
import { signWebhookBody } from './domain/webhook-signature';
import { standardWebhooksHeaders, standardWebhooksSecret } from './domain/standard-webhooks';
import { bindWebhookService } from './grpc/webhook-handlers';
import { createWebhookDeliveryDocumentStore } from './store/webhook-delivery-document-store';
import { readWebhookSettings } from './webhook-settings';
import { readTrustedWebhookEndpoints } from '../../lib/net/trusted-webhook-endpoints';

/** Every topic whose events become webhooks. */
export const WEBHOOK_SOURCE_TOPICS = ['accounts.events.v1', 'auth.events.v1', 'payments.events.v1'] as const;
export const WEBHOOK_CONSUMER_GROUP = 'notifications-webhooks';
/** The accounts service announces a platform's configuration change (the webhook endpoint among it) here. */
const CONFIG_CHANGES_TOPIC = 'accounts.events.v1';
const CONFIG_CHANGED_EVENT = 'PLATFORM.CONFIG_UPDATED';
/** Each replica's endpoint cache is told of every change: the base of its own group (replicaGroup). */
export const ENDPOINT_CACHE_GROUP = 'notifications-endpoint-cache';

/** Domain events in, signed webhooks out: the consumer, the delivery worker and the gRPC binding. */
export function createWebhookNotifications(
  environment: ServiceEnvironment,
  directory: WebhookEndpointDirectory & { forget?(platformId: string): void },
  options: { clock?: () => Date } = {},
) {
  const clock = options.clock ?? (() => new Date());
  const { store, bus, env } = environment;
  const logger = environment.logger.child({ component: 'webhooks' });
  const settings = readWebhookSettings(env);
  const key = loadWebhookSigningKey(settings.WEBHOOK_SIGNING_PRIVATE_KEY);
  const trusted = readTrustedWebhookEndpoints(env);
  const deliveries = createWebhookDeliveryDocumentStore(store);
  const policy = {
    baseDelayMs: settings.WEBHOOK_RETRY_BASE_MS,
    maxDelayMs: settings.WEBHOOK_RETRY_MAX_DELAY_MS,
    retryWindowMs: settings.WEBHOOK_RETRY_WINDOW_MS,
    maxAttempts: settings.WEBHOOK_MAX_ATTEMPTS,
  };
  const { deliver, deliverTo } = createDeliverWebhook({
    directory,
    sender: createWebhookHttpSender({
      allowLocal: settings.WEBHOOK_ALLOW_LOCAL_ENDPOINTS,
      trusted: trusted.origins,
      trustedCa: trusted.ca,
    }),
    sign: (body) => signWebhookBody(body, key.privateKey),
    standardHeaders: ({ platformId, url, id, sentAt, body }) =>
      standardWebhooksHeaders(standardWebhooksSecret(key.secretSeed, platformId, url), id, sentAt, body),
    timeoutMs: settings.WEBHOOK_TIMEOUT_MS,
    logger,
  });
  const reportApprovalAnswer = createReportApprovalAnswer({ bus, logger });
  const worker = createWebhookDeliveryWorker({
    deliveries,
    deliver,
    policy,
    logger,
    attempted: reportApprovalAnswer,
    claimMs: 2 * settings.WEBHOOK_TIMEOUT_MS + 30_000,
    pollIntervalMs: settings.WEBHOOK_POLL_INTERVAL_MS,
    concurrency: settings.WEBHOOK_DELIVERY_CONCURRENCY,
  });
  // Idempotent without an inbox: a redelivered event maps to the same delivery id, which is stored once.
  const payloads = createWebhookPayloads({
    resources: createAccountsWebhookResources(() => environment.peers), // resolved per call: peers bind later
    subscriptions: {
      extensionTypesOf: (platformId) => directory.extensionTypesOf?.(platformId) ?? Promise.resolve([]),
    },
  });
  const handler = createRecordWebhookNotification({
    deliveries,
    directory,
    payloads,
    maxAttempts: policy.maxAttempts,
    logger,
    clock,
    recorded: () => worker.nudge(),
    handOff: () => worker.reserve(),
    skippedApproval: (notification) => reportApprovalAnswer(notification, noEndpointAttempt(1, clock())),
  });
  const subscriptions: Subscription[] = [];
  let stopGauge: (() => void) | undefined;
  const retention = createPeriodicTask({
    name: 'webhook log retention',
    intervalMs: settings.WEBHOOK_LOG_PURGE_INTERVAL_MS,
    logger,
    run: () =>
      deliveries.forgetFinished(new Date(clock().getTime() - settings.WEBHOOK_LOG_RETENTION_DAYS * 86_400_000)),
  });

  return {
    publicKeyPem: key.publicKeyPem,
    /**
     * Purges the delivery records past their retention now (the periodic task does it every
     * WEBHOOK_LOG_PURGE_INTERVAL_MS).
     */
    purgeExpiredDeliveries: () => retention.runNow(),
    binding: bindWebhookService({
      publicKey: { pem: key.publicKeyPem, hex: key.publicKeyHex },
      sendTestWebhook: createSendTestWebhook({
        deliveries,
        directory,
        deliverTo,
        timeoutMs: settings.WEBHOOK_TIMEOUT_MS,
      }),
      deliveryLog: createWebhookDeliveryLog({ deliveries }),
      resendWebhook: createResendWebhook({ deliveries, now: clock, resent: () => worker.nudge() }),
      signingSecret: async (platformId) => {
        const url = await directory.endpointOf(platformId);
        if (!url) throw new AppError('WEBHOOK_ENDPOINT_NOT_SET', 'No webhook endpoint is configured for this platform');
        return { url, secret: standardWebhooksSecret(key.secretSeed, platformId, url) };
      },
    }),
    async start() {
      await deliveries.prepare();
      if (key.generated) {
        logger.warn(`${SIGNING_KEY_VARIABLE} is unset: webhooks are signed with a key generated for this process`, {
          publicKeyPem: key.publicKeyPem,
        });
      }
      // A group per topic: Kafka's assignors expect every member of a group to subscribe to the same topics.
      // From the beginning for a new group: events published before this service first ran still become webhooks.
      for (const topic of WEBHOOK_SOURCE_TOPICS) {
        subscriptions.push(
          await bus.subscribe({ topic, group: `${WEBHOOK_CONSUMER_GROUP}.${topic}`, handler, fromBeginning: true }),
        );
      }
      // Every process hears every configuration change (a group of its own) and forgets that platform's endpoint.
      if (directory.forget) {
        const forget = directory.forget.bind(directory);
        subscriptions.push(
          await bus.subscribe({
            topic: CONFIG_CHANGES_TOPIC,
            group: replicaGroup(ENDPOINT_CACHE_GROUP, env, portOf(env.GRPC_ADDRESS, 50051)),
            transient: true,
            handler: async (event) => {
              if (event.type === CONFIG_CHANGED_EVENT) forget(event.platformId);
            },
          }),
        );
      }
      worker.start();
      retention.start();
      const unfinished = observeGauge('webhook.deliveries.unfinished', {
        description: 'Webhook deliveries not yet ended (PENDING or DELIVERING)',
      }, async (observe) => {
        observe((await deliveries.unfinished()).count);
      });
      const oldest = observeGauge('webhook.deliveries.oldest_unfinished_age.seconds', {
        description: 'Age of the oldest webhook delivery not yet ended; 0 when none waits',
      }, async (observe) => {
        const { oldestCreatedAt } = await deliveries.unfinished();
        observe(oldestCreatedAt ? Math.max(0, (clock().getTime() - Date.parse(oldestCreatedAt)) / 1000) : 0);
      });
      stopGauge = () => {
        unfinished();
        oldest();
      };
    },
    async stop() {
      stopGauge?.();
      await Promise.all(subscriptions.splice(0).map((s) => s.close()));
      await worker.stop();
      await retention.stop();
    },
  };
}
