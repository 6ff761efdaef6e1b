import {
  type sendUnaryData,
  type ServerUnaryCall,
  type ServiceDefinition,
  type ServiceError,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { AppError } from '../errors';
import { fromServiceError } from './error-status';
import { clientOf, outgoingMetadata, type ClientOptions, type ServiceClient } from './grpc-client';

/** A service bound in this process: the implementation its gRPC server serves, while it serves. */
export interface LocalService {
  /** The proto service definition (method paths and codecs) the implementation serves. */
  definition: ServiceDefinition;
  implementation: UntypedServiceImplementation;
  isServing(): boolean;
}

type UnaryImplementation = (
  call: Pick<ServerUnaryCall<unknown, unknown>, 'request' | 'metadata'>,
  callback: sendUnaryData<unknown>,
) => void;

/**
 * A client of a service hosted in the same process, with the network client's contract: the
 * request and response cross as protobuf bytes, metadata carries the internal token, platform
 * and trace context, errors arrive as gRPC statuses, calls have a deadline, and a service that
 * stopped serving answers UNAVAILABLE. Only the HTTP/2 transport is left out.
 */
export function createInProcessClient<D extends ServiceDefinition>(
  definition: D,
  target: LocalService,
  options: ClientOptions,
): ServiceClient<D> {
  const timeoutMs = options.timeoutMs ?? 10000;
  return clientOf(definition, (method, spec, request, ctx) => {
    if (!target.isServing()) return Promise.reject(new AppError('UNAVAILABLE', 'A dependent service is unavailable'));
    const call = {
      request: spec.requestDeserialize(spec.requestSerialize(request)),
      metadata: outgoingMetadata(ctx, options.internalToken),
    };
    const handle = target.implementation[method] as unknown as UnaryImplementation;
    return new Promise((resolve, reject) => {
      const deadline = setTimeout(
        () => reject(new AppError('UNAVAILABLE', 'A dependent service is unavailable (deadline exceeded)')),
        timeoutMs,
      );
      handle(call, (err, response) => {
        clearTimeout(deadline);
        if (err) reject(fromServiceError(err as ServiceError));
        else resolve(spec.responseDeserialize(spec.responseSerialize(response)));
      });
    });
  });
}
