import type { ChildProcess } from 'node:child_process';

/** Kills a service a test started (SIGKILL) and resolves once it is gone; nothing to do when it already exited. */
export async function killAndWait(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await gone;
}
