/** The time stamp of the command being applied (its `now_ms`), shared by the stores of one batch. */
export interface CommandTime {
  nowMs: number;
}
