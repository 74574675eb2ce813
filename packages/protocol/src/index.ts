import * as grpc from '@grpc/grpc-js';
import { fermata } from '../pb/fermata.js';
import {
  type AdminClient,
  AdminService,
  type BackupClient,
  BackupService,
  type BrokerClient,
  BrokerService,
  type ClusterClient,
  ClusterService,
  type SchedulesClient,
  SchedulesService,
} from './generated/services.js';

export { fermata };
/** The messages and enums of `fermata.v1` (protobufjs static classes). */
export const v1 = fermata.v1;
export import pb = fermata.v1;
export * from './flow-control.js';
export * from './generated/services.js';
export * from './headers.js';
export * from './int64.js';
export * from './names.js';

const definitions = {
  Broker: BrokerService,
  Admin: AdminService,
  Cluster: ClusterService,
  Schedules: SchedulesService,
  Backup: BackupService,
} as const;

interface Clients {
  Broker: BrokerClient;
  Admin: AdminClient;
  Cluster: ClusterClient;
  Schedules: SchedulesClient;
  Backup: BackupClient;
}

/** A typed grpc-js client for one of the client-facing services. */
export function makeClient<S extends keyof Clients>(
  service: S,
  address: string,
  credentials: grpc.ChannelCredentials = grpc.credentials.createInsecure(),
  options: grpc.ChannelOptions = {},
): Clients[S] {
  const Ctor = grpc.makeGenericClientConstructor(
    definitions[service] as unknown as grpc.ServiceDefinition,
    `fermata.v1.${service}`,
  );
  return new Ctor(address, credentials, options) as unknown as Clients[S];
}
