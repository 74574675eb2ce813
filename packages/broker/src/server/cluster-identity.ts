/**
 * The cluster id is fixed when a node's data directory is first used: it is
 * recorded there, and a later start with another `clusterId` is refused (the
 * node's log and state belong to the cluster that wrote them). Every peer
 * batch carries the id, so peers of another cluster are turned away too.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '@fermata/raft';

export const CLUSTER_ID_FILE = 'cluster-id';

export class ClusterIdentityError extends Error {
  override readonly name = 'ClusterIdentityError';
}

/** Records `clusterId` in `dataDir` on first use; throws when the directory belongs to another cluster. */
export async function ensureClusterIdentity(
  dataDir: string,
  clusterId: string,
): Promise<'recorded' | 'matches'> {
  const path = join(dataDir, CLUSTER_ID_FILE);
  if (existsSync(path)) {
    const recorded = readFileSync(path, 'utf8').trim();
    if (recorded !== clusterId) {
      throw new ClusterIdentityError(
        `data directory ${dataDir} belongs to cluster "${recorded}" (recorded in ${path}), but clusterId is "${clusterId}"; start with clusterId "${recorded}" or an empty data directory`,
      );
    }
    return 'matches';
  }
  await writeFileAtomic(path, Buffer.from(`${clusterId}\n`));
  return 'recorded';
}
