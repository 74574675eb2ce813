// Logical backups: the Backup API's handler, the backup file, and the restore
// that seeds a new cluster's data directories from one (docs/operations.md, "Backups").
export {
  BACKUP_FORMAT_VERSION,
  BackupFileError,
  type BackupInfo,
  type BackupReader,
  type BackupTotals,
  BackupWriter,
  openBackup,
} from './backup-file.js';
export { FrameCounter } from './frame-counter.js';
export { backupHandlers } from './grpc-backup.js';
export {
  RESTORE_TERM,
  RESTORED_MARKER_FILE,
  RestoreError,
  type RestoreOptions,
  type RestoreResult,
  restoreDataDir,
} from './restore.js';
