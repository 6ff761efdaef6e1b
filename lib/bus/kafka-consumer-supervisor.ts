import type { Consumer, ConsumerConfig, ConsumerRunConfig, Kafka } from 'kafkajs';
import type { Logger } from '../log';
import { backoffDelay, type RetryBackoff } from './retry-backoff';

export interface SupervisedConsumerOptions {
  kafka: Kafka;
  topic: string;
  fromBeginning: boolean;
  config: ConsumerConfig;
  /** The run configuration for one consumer instance (a restart builds a new one). */
  runConfig: (consumer: Consumer) => ConsumerRunConfig;
  /** Backoff between restarts this supervisor makes itself. */
  restartBackoff: Required<RetryBackoff>;
  /** A joined consumer that neither fetched nor heartbeated for this long is stalled. */
  stallMs: number;
  /**
   * How long a (re)started consumer may take to join its group before it counts as not running:
   * a join waits for the members of a previous generation to leave or time out.
   */
  joinGraceMs: number;
  log: Logger;
}

export interface SupervisedConsumer {
  /** False while the consumer cannot run: crashed and not back in its group yet, or stalled. */
  isRunning(): boolean;
  close(): Promise<void>;
}

type State = 'starting' | 'running' | 'down';

/**
 * One consumer group member that keeps itself running. kafkajs restarts a consumer after a
 * retriable crash (`retry.restartOnFailure`); after a crash it will not restart (for example
 * "The coordinator is not aware of this member" once the broker stalled past the session
 * timeout), or when connecting fails, this supervisor builds a new consumer, with backoff, until
 * it is back in its group. Starting does not wait for the group join.
 */
export function superviseConsumer(options: SupervisedConsumerOptions): SupervisedConsumer {
  const { log } = options;
  let consumer: Consumer | undefined;
  let state: State = 'starting';
  let lastAlive = Date.now();
  let launchedAt = Date.now();
  let failures = 0;
  let closed = false;
  let relaunch: NodeJS.Timeout | undefined;

  const alive = () => void (lastAlive = Date.now());
  const markDown = (why: string, err: unknown) => {
    if (state !== 'down') log.error(`event consumer ${why}`, { err });
    state = 'down';
  };

  const scheduleRelaunch = (err: unknown) => {
    if (closed || relaunch) return;
    failures++;
    const delayMs = backoffDelay(failures, options.restartBackoff);
    log.warn('event consumer will be rebuilt', { attempt: failures, delayMs, err });
    relaunch = setTimeout(() => {
      relaunch = undefined;
      const previous = consumer;
      void (async () => {
        await previous?.disconnect().catch(() => undefined);
        await launch();
      })();
    }, delayMs);
  };

  const launch = async () => {
    if (closed) return;
    const instance = options.kafka.consumer({
      ...options.config,
      retry: {
        ...options.config.retry,
        // Retriable crashes: kafkajs restarts this instance itself, unless we are closing.
        restartOnFailure: async () => !closed,
      },
    });
    consumer = instance;
    launchedAt = Date.now();
    instance.on(instance.events.GROUP_JOIN, () => {
      if (consumer !== instance) return;
      if (state === 'down') log.info('event consumer is back in its group');
      state = 'running';
      failures = 0;
      alive();
    });
    instance.on(instance.events.FETCH, alive);
    instance.on(instance.events.HEARTBEAT, alive);
    instance.on(instance.events.CRASH, ({ payload }) => {
      if (consumer !== instance || closed) return;
      markDown('crashed', payload.error);
      if (!payload.restart) scheduleRelaunch(payload.error);
    });
    const abandoned = () => consumer !== instance || closed;
    try {
      await instance.connect();
      if (!abandoned()) await instance.subscribe({ topics: [options.topic], fromBeginning: options.fromBeginning });
      if (!abandoned()) await instance.run(options.runConfig(instance));
      if (abandoned()) await instance.disconnect().catch(() => undefined); // closed while starting
    } catch (err) {
      if (consumer !== instance || closed) return;
      markDown('cannot start', err);
      scheduleRelaunch(err);
    }
  };

  void launch();

  return {
    isRunning() {
      if (state === 'down') return false;
      if (state === 'starting') return Date.now() - launchedAt <= options.joinGraceMs;
      return Date.now() - lastAlive <= options.stallMs;
    },
    async close() {
      closed = true;
      clearTimeout(relaunch);
      await consumer?.disconnect().catch(() => undefined);
    },
  };
}
