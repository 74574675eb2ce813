/** A real HTTP server serving only the JSON API, for the HTTP API's tests. */
import type { Logger } from 'pino';
import { toGrpcStatus } from '../src/server/grpc-status.js';
import { type HttpServerHandle, startHttpServer } from '../src/server/http.js';
import { createHttpApi, type HttpApiOptions } from '../src/server/http-api.js';
import { BrokerMetrics } from '../src/server/metrics.js';

export const MIB = 1024 * 1024;

/** Starts an HTTP server on a free loopback port whose `/v1` is `createHttpApi(options)`. */
export function startApiServer(
  options: Pick<HttpApiOptions, 'caller'> & Partial<HttpApiOptions>,
  logger?: Logger,
): Promise<HttpServerHandle> {
  return startHttpServer({
    listenAddress: '127.0.0.1:0',
    status: () => ({
      nodeId: 'n1',
      role: 'leader',
      term: 1,
      leaderId: 'n1',
      leaderAddress: '',
      commit: 1,
      applied: 1,
      stopping: false,
    }),
    registry: new BrokerMetrics().registry,
    readyMaxLagEntries: 100,
    ...(logger ? { logger } : {}),
    routes: [
      createHttpApi({
        limits: { maxPayloadBytes: MIB, maxBatchPayloadBytes: 4 * MIB, maxHttpBodyBytes: 16 * MIB },
        toGrpc: (err) => toGrpcStatus(err),
        ...options,
      }),
    ],
  });
}
