import type { ChildProcess } from 'node:child_process';

/** Stops a service a test started (SIGKILL unless told) and resolves once it is gone; nothing to do when it already exited. */
export async function killAndWait(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await gone;
}
