// The restart policy for a crashing server: restart at most `maxRestarts` times within `windowMs`,
// then stop and say so once. Pure (a clock is injected) so the tests can replay crash storms.

export type CrashDecision =
  | { action: "restart" }
  | { action: "stop"; message: string };

export class RestartGuard {
  private crashes: number[] = [];
  private reported = false;

  constructor(
    private readonly maxRestarts = 3,
    private readonly windowMs = 3 * 60 * 1000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Called when the server connection closed unexpectedly. */
  closed(serverDescription: string): CrashDecision {
    const t = this.now();
    this.crashes = this.crashes.filter((c) => t - c < this.windowMs);
    this.crashes.push(t);
    if (this.crashes.length <= this.maxRestarts) {
      return { action: "restart" };
    }
    return {
      action: "stop",
      message:
        `The admission-ls server (${serverDescription}) crashed ${this.crashes.length} times ` +
        `in ${Math.round(this.windowMs / 60000)} minutes and will not be restarted automatically.`,
    };
  }

  /** True the first time only: the user hears about a stopped server once, not on every crash. */
  shouldReport(): boolean {
    if (this.reported) {
      return false;
    }
    this.reported = true;
    return true;
  }

  /** After a manual restart the count starts over. */
  reset(): void {
    this.crashes = [];
    this.reported = false;
  }
}
