/**
 * Test-only entry of a node: `fermata` (packages/cli/src/main.ts) with a
 * steppable wall clock (FERMATA_TEST_CLOCK_FILE, see clock-offset.ts) and,
 * for runs that must fail, an injected bug (FERMATA_TEST_BUG, see
 * injected-bugs.ts), and a disk that fails on command
 * (FERMATA_TEST_DISK_FAULT_FILE, see disk-faults.ts). The nemesis and the clock tests start their nodes with
 *
 *   node --conditions=fermata-source --import tsx test-cluster/src/nemesis/node/test-node.ts serve
 *
 * The server's configuration loader leaves FERMATA_TEST_* variables alone;
 * this file is not part of any build, so production never runs it.
 */
import { installClockOffset } from './clock-offset.js';
import { installDiskFaults } from './disk-faults.js';

const clockFile = process.env['FERMATA_TEST_CLOCK_FILE'];
if (clockFile) installClockOffset(clockFile);
const diskFaultFile = process.env['FERMATA_TEST_DISK_FAULT_FILE'];
if (diskFaultFile) installDiskFaults(diskFaultFile, process.env['FERMATA_DATA_DIR'] ?? '.');
const bug = process.env['FERMATA_TEST_BUG'];
if (bug) {
  // Imported here, not above: it loads the server, which must come after the disk faults.
  const { installBug } = await import('./injected-bugs.js');
  installBug(bug);
  process.stderr.write(`test node: running with injected bug ${bug}\n`);
}
await import('../../../../packages/cli/src/main.js');
