/**
 * What the stores of one batch share about the command being applied: its
 * time stamp (`now_ms`) and whether the messages it makes carry their body in
 * their entry (`inline_bodies`).
 */
export interface CommandTime {
  nowMs: number;
  inlineBodies: boolean;
}
