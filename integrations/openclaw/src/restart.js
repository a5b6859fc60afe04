// When to start the engine child again after it died or hung: at once the first time, then with a
// doubling wait, and not at all after too many failures in a row (until a cool-down has passed), so
// a child that crashes on start cannot turn the gateway into a spawn loop. Pure bookkeeping: the
// clock and the sleep are injected, so the node tests drive it without waiting.

export const RESTART_LIMIT = 5; // failures in a row before the plugin stops restarting
export const FIRST_WAIT_MS = 250; // the wait before the second start; doubled each time
export const MAX_WAIT_MS = 8_000;
export const COOL_DOWN_MS = 60_000; // after the limit: no start until this long after the last failure

/** The decision for the next start: wait this long, or refuse with the reason. */
export class RestartPolicy {
  /** @param {{now?: () => number, sleep?: (ms: number) => Promise<void>, limit?: number, firstWaitMs?: number, coolDownMs?: number}} [opts] */
  constructor(opts = {}) {
    this.now = opts.now ?? Date.now;
    this.sleep = opts.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms).unref?.()));
    this.limit = opts.limit ?? RESTART_LIMIT;
    this.firstWaitMs = opts.firstWaitMs ?? FIRST_WAIT_MS;
    this.coolDownMs = opts.coolDownMs ?? COOL_DOWN_MS;
    this.failures = 0;
    this.lastFailureAt = 0;
    this.lastReason = "";
  }

  /** The wait before the next start (0 when the last run was healthy). */
  waitMs() {
    return this.failures === 0 ? 0 : Math.min(MAX_WAIT_MS, this.firstWaitMs * 2 ** (this.failures - 1));
  }

  /**
   * null when a start may go ahead (after waitMs), else the one-line reason it may not.
   * @returns {string | null}
   */
  refusal() {
    if (this.failures < this.limit) return null;
    const left = this.lastFailureAt + this.coolDownMs - this.now();
    if (left <= 0) {
      this.failures = this.limit - 1; // one more try after the cool-down; a failure refuses again
      return null;
    }
    return `workspace-memory: the engine failed ${this.failures} times in a row (last: ${this.lastReason}); `
      + `not restarting for ${Math.ceil(left / 1000)} s; run: openclaw memory doctor`;
  }

  /** Wait as the policy says before a start; throws the refusal. */
  async admit() {
    const refused = this.refusal();
    if (refused) throw Object.assign(new Error(refused), { code: "gave-up" });
    const wait = this.waitMs();
    if (wait > 0) await this.sleep(wait);
  }

  /** The child died, hung or could not start. @param {string} reason */
  failed(reason) {
    this.failures += 1;
    this.lastFailureAt = this.now();
    this.lastReason = reason;
  }

  /** The child answered a call: the next failure starts counting again. */
  succeeded() {
    this.failures = 0;
  }
}
