import type { Logger } from '../log';

/**
 * Node's process warnings (deprecations, experimental features) as JSON log lines instead of
 * Node's own plain-text lines on stderr, so that a component's log stays JSON only. DEP0123 (TLS
 * `servername` set to an IP address) comes from grpc-js dialling `GRPC_TLS_*` peers by IP: the
 * certificate is still verified against the address (its IP subject alternative name), so it is
 * logged at debug only. Run once per thread, after the logger exists.
 */
export function logProcessWarnings(logger: Logger): void {
  process.removeAllListeners('warning');
  process.on('warning', (warning: Error & { code?: string }) => {
    const entry = { name: warning.name, code: warning.code, warning: warning.message };
    if (warning.code === 'DEP0123') {
      logger.debug('node warning: TLS to an IP address sends it as the server name', entry);
    } else logger.warn('node warning', entry);
  });
}
