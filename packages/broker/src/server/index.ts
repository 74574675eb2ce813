// The server's edges: configuration, logging, metrics, the operations HTTP endpoint,
// gRPC health and the error-to-status mapping.

export {
  authorizeCall,
  PERMISSIONS,
  type Permission,
  Principal,
  parseTokenFile,
  sha256Hex,
  TokenFileError,
  type TokenSpec,
  TokenTable,
} from './auth.js';
export { BrokerServer, SHUTDOWN_DRAIN_TIMEOUT_MS, SHUTDOWN_TRANSFER_TIMEOUT_MS } from './broker-server.js';
export { ClusterIdentityError, ensureClusterIdentity } from './cluster-identity.js';
export {
  advertiseAddress,
  bootstrapMembers,
  ConfigError,
  type LoadConfigOptions,
  loadConfig,
  parseAddress,
  parseMember,
  RESERVED_ENV,
  stateStoreOptions,
} from './config.js';
export {
  CONFIG_REFERENCE_BEGIN,
  CONFIG_REFERENCE_END,
  renderConfigReference,
  writeConfigReference,
} from './config-docs.js';
export {
  type ConfigOverrides,
  configSchema,
  envName,
  type FermataConfig,
  type InitialMember,
  type KeySpec,
  LOG_LEVELS,
  type LogLevel,
  type SchemaEntry,
  STORAGE_ENGINES,
  type StorageEngine,
  schemaEntries,
} from './config-schema.js';
export type { ServerContext } from './context.js';
export {
  classifyError,
  FIELD_METADATA_KEY,
  LEADER_ID_METADATA_KEY,
  LEADER_METADATA_KEY,
  LIMIT_METADATA_KEY,
  type MappedStatus,
  type StatusOptions,
  statusToError,
  toErrorStatus,
  toGrpcStatus,
  VALUE_BOUND_LIMITS,
} from './grpc-status.js';
export {
  HEALTH_SERVICES,
  type HealthCheckRequest,
  type HealthCheckResponse,
  type HealthClient,
  type HealthHandlers,
  HealthReporter,
  type HealthReporterOptions,
  HealthService,
  makeHealthClient,
  ServingStatus,
} from './health.js';
export { type HttpServerHandle, type HttpServerOptions, startHttpServer } from './http.js';
export {
  createServerLogger,
  type Logger,
  type RaftLogState,
  type ServerLogger,
  type ServerLoggerOptions,
} from './logger.js';
export {
  APPLY_BATCH_BUCKETS,
  BrokerMetrics,
  type BrokerMetricsOptions,
  FSYNC_BUCKETS_MS,
  LATENESS_BUCKETS_MS,
  type QueueGauges,
  type RaftGauges,
} from './metrics.js';
export { type NodeStatus, type Readiness, readiness, readinessOf } from './readiness.js';
export { repairResetTerm, TermRepairError } from './repair.js';
export { type Security, securityConfigProblems, setupSecurity } from './security.js';
export { TlsConfigError, TlsFiles } from './tls.js';
