/**
 * The video tests' and bench's network (shared/video-poc/README.md): a network namespace of
 * their own with only loopback addresses, so no media ever leaves 127.0.0.0/8. Janus (libnice) and
 * Chromium skip interfaces flagged loopback when they gather ICE candidates, so the namespace also
 * has a veth pair carrying 127.0.0.2 (`vlo0`).
 *
 *   tsx scripts/video-netns.ts -- <command…>   runs the command inside a fresh namespace, then removes it
 *
 * Needs root (CAP_NET_ADMIN) and the `ip` tool. `canMakeVideoNetns()` says why not, when it cannot.
 */
import { spawnSync } from 'node:child_process';

export const VETH_ADDRESS = '127.0.0.2';

function ip(args: string[]): { ok: boolean; err: string } {
  const res = spawnSync('ip', args, { encoding: 'utf8' });
  if (res.error) return { ok: false, err: res.error.message };
  return { ok: res.status === 0, err: (res.stderr || '').trim() };
}

/** Makes the namespace; returns its name, or throws with the reason it cannot be made here. */
export function createVideoNetns(name = `martillo-video-${process.pid}`): string {
  const steps: string[][] = [
    ['netns', 'add', name],
    ['netns', 'exec', name, 'ip', 'link', 'set', 'lo', 'up'],
    ['netns', 'exec', name, 'ip', 'link', 'add', 'vlo0', 'type', 'veth', 'peer', 'name', 'vlo1'],
    ['netns', 'exec', name, 'ip', 'addr', 'add', `${VETH_ADDRESS}/32`, 'dev', 'vlo0'],
    ['netns', 'exec', name, 'ip', 'link', 'set', 'vlo0', 'up'],
    ['netns', 'exec', name, 'ip', 'link', 'set', 'vlo1', 'up'],
  ];
  for (const step of steps) {
    const res = ip(step);
    if (!res.ok) {
      if (step[1] !== 'add') removeVideoNetns(name);
      throw new Error(`ip ${step.join(' ')}: ${res.err || 'failed'}`);
    }
  }
  // IPv6 off on the veth pair: its link-local addresses would be gathered as candidates too.
  spawnSync('ip', ['netns', 'exec', name, 'sysctl', '-qw', 'net.ipv6.conf.vlo0.disable_ipv6=1', 'net.ipv6.conf.vlo1.disable_ipv6=1']);
  return name;
}

export function removeVideoNetns(name: string): void {
  ip(['netns', 'delete', name]);
}

/** Null when a namespace can be made here, otherwise the reason (printed where the tests are skipped). */
export function canMakeVideoNetns(): string | null {
  if (process.platform !== 'linux') return `network namespaces need Linux (this is ${process.platform})`;
  if (typeof process.getuid === 'function' && process.getuid() !== 0) return 'network namespaces need root (CAP_NET_ADMIN)';
  try {
    const name = createVideoNetns(`martillo-probe-${process.pid}`);
    removeVideoNetns(name);
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/** `tsx scripts/video-netns.ts -- cmd args…`: runs cmd inside a fresh namespace; exits with its status. */
function main(): void {
  const sep = process.argv.indexOf('--');
  const command = sep >= 0 ? process.argv.slice(sep + 1) : [];
  if (command.length === 0) {
    console.error('usage: tsx scripts/video-netns.ts -- <command> [args…]');
    process.exit(2);
  }
  const name = createVideoNetns();
  const cleanup = () => removeVideoNetns(name);
  process.on('SIGINT', () => {
    cleanup();
    process.exit(130);
  });
  process.on('SIGTERM', () => {
    cleanup();
    process.exit(143);
  });
  const res = spawnSync('ip', ['netns', 'exec', name, ...command], { stdio: 'inherit', env: { ...process.env, MARTILLO_VIDEO_NETNS: name } });
  cleanup();
  process.exit(res.status ?? 1);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
