/**
 * The reschedule form shared by one message and a selection: to a time
 * (a local date and time) or by a shift of the current due time
 * (`+10m`, `-1h30m`: the API's durations with a sign).
 */
import { parseDurationMs } from '@fermata/base/duration';
import { h } from '../dom.js';

export interface RescheduleInput {
  readonly element: HTMLElement;
  /** The new due time for a message now due at `dueAtMs`; throws naming the field on bad input. */
  target(dueAtMs: number): number;
  /** How the change reads in a confirmation. */
  describe(): string;
}

export function rescheduleInput(idPrefix: string): RescheduleInput {
  const at = h('input', { type: 'datetime-local', step: '1', id: `${idPrefix}-at`, name: 'at' });
  const shift = h('input', {
    type: 'text',
    id: `${idPrefix}-shift`,
    name: 'shift',
    placeholder: '+10m',
    size: 8,
  });
  const element = h(
    'span',
    { class: 'reschedule' },
    h('label', { for: at.id }, 'to '),
    at,
    h('label', { for: shift.id }, ' or by '),
    shift,
  );
  const read = (): { atMs: number } | { shiftMs: number } => {
    if (shift.value.trim() !== '') {
      const text = shift.value.trim();
      const sign = text.startsWith('-') ? -1 : 1;
      try {
        return { shiftMs: sign * parseDurationMs(text.replace(/^[+-]/, '')) };
      } catch (err) {
        throw new Error(`shift: ${(err as Error).message}`);
      }
    }
    if (at.value === '') throw new Error('reschedule: give a time, or a shift such as +10m');
    const atMs = new Date(at.value).getTime();
    if (!Number.isFinite(atMs)) throw new Error(`time: "${at.value}" is not a date and time`);
    return { atMs };
  };
  return {
    element,
    target: (dueAtMs) => {
      const r = read();
      return 'atMs' in r ? r.atMs : Math.max(0, dueAtMs + r.shiftMs);
    },
    describe: () => {
      const r = read();
      return 'atMs' in r ? `to ${new Date(r.atMs).toLocaleString()}` : `by ${shift.value.trim()}`;
    },
  };
}
