import { Client, credentials } from '@grpc/grpc-js';

const SERVING = 1;

/**
 * Asks a server's standard grpc.health.v1.Health/Check for the overall status. The request
 * (empty service name) encodes to zero bytes and the reply is one enum field, so no stubs needed.
 */
export function createHealthProbe(address: string) {
  const client = new Client(address, credentials.createInsecure());
  return {
    isServing(timeoutMs = 1000): Promise<boolean> {
      return new Promise((resolve) => {
        client.makeUnaryRequest(
          '/grpc.health.v1.Health/Check',
          () => Buffer.alloc(0),
          (buf: Buffer) => (buf.length >= 2 && buf[0] === 0x08 ? buf[1] : 0),
          {},
          { deadline: Date.now() + timeoutMs },
          (err, status) => resolve(!err && status === SERVING),
        );
      });
    },
    close: () => client.close(),
  };
}
