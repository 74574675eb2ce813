/** A leader asked for ids before it has applied an entry of its own term (so it may not know every earlier id). */
export class LeaderNotReadyError extends Error {
  override readonly name = 'LeaderNotReadyError';
  constructor() {
    super('leader is not ready yet; retry');
  }
}
