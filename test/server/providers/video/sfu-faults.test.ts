import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The SFU worker's defences against its own bugs (sfu/faults.ts), in real child processes: a throw
 * in a node-datachannel callback aborts the whole process unless guarded; a stray rejection or
 * one uncaught exception is logged and survived; a burst of exceptions ends the process so the
 * supervisor can start a clean one.
 */

const CHILD = fileURLToPath(new URL('./fixtures/fault-child.ts', import.meta.url));
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

function run(mode: string) {
  const child = spawnSync(process.execPath, ['--import', TSX, CHILD, mode], { encoding: 'utf8', timeout: 60_000 });
  return { status: child.status, signal: child.signal, stdout: child.stdout, stderr: child.stderr };
}

describe('the SFU worker’s fault handling', () => {
  it('survives a throw in a native callback only when the callback is guarded', () => {
    const bare = run('bare-callback');
    // node-datachannel turns it into a C++ exception: std::terminate, past every JavaScript handler.
    expect(bare.stdout).not.toContain('alive');
    expect(bare.signal ?? bare.status).not.toBe(0);
    const guarded = run('guarded-callback');
    expect(guarded).toMatchObject({ status: 0, stdout: 'alive\n' });
    expect(guarded.stderr).toContain('sfu: gathering failed: Error: thrown in a native callback');
  }, 60_000);

  it('logs a stray rejection and an uncaught exception, and keeps serving', () => {
    const stray = run('stray');
    expect(stray).toMatchObject({ status: 0, stdout: 'alive\n' });
    expect(stray.stderr).toContain('sfu: unhandled rejection (still serving): Error: nobody waits for this');
    expect(stray.stderr).toContain('sfu: uncaught exception (still serving): Error: thrown in a timer');
  }, 60_000);

  it('exits on a burst of uncaught exceptions, for a clean restart', () => {
    const burst = run('burst');
    expect(burst.status).toBe(70);
    expect(burst.stdout).not.toContain('alive');
    expect(burst.stderr).toMatch(/uncaught exception, 6 within 60 s: exiting/);
  }, 60_000);
});
