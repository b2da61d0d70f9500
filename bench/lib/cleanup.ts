/**
 * A stack of undo steps (stop a server, drop the database...) run in reverse order exactly once:
 * at the end of the run, on an error, or on SIGINT/SIGTERM.
 */
type Step = { label: string; run: () => Promise<void> | void };

const steps: Step[] = [];
let running: Promise<void> | undefined;

export function onCleanup(label: string, run: Step['run']): void {
  steps.push({ label, run });
}

export function cleanup(): Promise<void> {
  running ??= (async () => {
    for (let step = steps.pop(); step; step = steps.pop()) {
      try {
        await step.run();
      } catch (err) {
        console.error(`cleanup: ${step.label} failed:`, err);
      }
    }
  })();
  return running;
}

/**
 * On Ctrl+C or SIGTERM: undo everything, then exit with the conventional 128 + signal code.
 * The listeners stay registered (`on`, not `once`): under `npm run` the signal arrives more than
 * once, and with no listener left tsx's own handler would exit before the database is dropped.
 * Each cleanup step is bounded in time, so ignoring the repeats cannot hang.
 */
export function cleanupOnSignals(): void {
  let received: NodeJS.Signals | undefined;
  const handle = (signal: NodeJS.Signals, code: number) => {
    if (received) return;
    received = signal;
    console.error(`\n${signal}: stopping servers and dropping the bench database...`);
    void cleanup().finally(() => process.exit(code));
  };
  process.on('SIGINT', () => handle('SIGINT', 130));
  process.on('SIGTERM', () => handle('SIGTERM', 143));
}
