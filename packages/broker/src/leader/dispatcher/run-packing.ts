/**
 * How the runs of one dispatch round fill lease commands: in order, as few
 * commands as hold them within `maxTags` tags each, a run that does not fit
 * in what is left of a command split between it and the next (each part a
 * run of its own). Pure: the dispatcher says how a run splits.
 */

/**
 * Packs `runs` (each of `sizeOf(run)` >= 1 tags) into commands of at most
 * `maxTags` tags; `split(run, n)` returns the run's first `n` tags and the
 * rest as two runs.
 */
export function packRuns<R>(
  runs: readonly R[],
  maxTags: number,
  sizeOf: (run: R) => number,
  split: (run: R, n: number) => readonly [R, R],
): R[][] {
  if (!Number.isInteger(maxTags) || maxTags < 1) throw new RangeError(`maxTags must be >= 1, got ${maxTags}`);
  const commands: R[][] = [];
  let current: R[] = [];
  let room = maxTags;
  for (let run of runs) {
    for (;;) {
      const size = sizeOf(run);
      if (size <= room) {
        current.push(run);
        room -= size;
        break;
      }
      const [head, tail] = split(run, room);
      current.push(head);
      commands.push(current);
      current = [];
      room = maxTags;
      run = tail;
    }
    if (room === 0) {
      commands.push(current);
      current = [];
      room = maxTags;
    }
  }
  if (current.length > 0) commands.push(current);
  return commands;
}
