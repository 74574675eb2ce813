import { closestNames } from '@fermata/protocol';

/**
 * Option names checked at run time: plain JavaScript does not see the
 * TypeScript types, and an option with another broker's name (BullMQ's
 * `delay`) would otherwise be ignored without a word. Every SDK call that
 * takes an options object checks it here, in the ES module and the CommonJS
 * build alike.
 */

/** Another library's option name (BullMQ's, mostly): the option meant here, or what to say instead. */
const FOREIGN_NAMES: Readonly<Record<string, { option?: string; note?: string }>> = {
  delay: { option: 'delayMs' },
  jobId: { option: 'key' },
  ttl: { option: 'ttlMs' },
  timeout: { option: 'deadlineMs' },
  backoff: { option: 'retryBackoff' },
  attempts: { note: 'attempts are a topic setting: createTopic(topic, { maxAttempts })' },
  priority: { note: 'Fermata has no priorities: a message is delivered at its due time' },
};

/**
 * Throws a TypeError naming the first option of `value` that is not one of
 * `known` (with the known name closest to it, or what it means in Fermata),
 * or when `value` is not an object. `undefined` and `null` pass.
 */
export function checkOptions(where: string, value: unknown, known: readonly string[]): void {
  if (value === undefined || value === null) return;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new TypeError(`${where} must be an object of options, got ${describe(value)}`);
  }
  for (const name in value) {
    if (!Object.hasOwn(value, name) || known.includes(name)) continue;
    const foreign = Object.hasOwn(FOREIGN_NAMES, name) ? FOREIGN_NAMES[name] : undefined;
    const meant =
      foreign?.option !== undefined && known.includes(foreign.option)
        ? foreign.option
        : (closestNames(name, known, 1)[0] ??
          known.find((k) => k.toLowerCase().startsWith(name.toLowerCase())));
    const hint = meant !== undefined ? `did you mean "${meant}"?` : foreign?.note;
    throw new TypeError(
      `${where}: unknown option "${name}"; ${hint ?? `the options are ${known.map((k) => `"${k}"`).join(', ')}`}`,
    );
  }
}

function describe(v: unknown): string {
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `the string ${JSON.stringify(v)}`;
  return `${typeof v} ${String(v)}`;
}
