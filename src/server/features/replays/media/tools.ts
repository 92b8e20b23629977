import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import path from 'node:path';

/** The ffmpeg and ffprobe binaries the replays jobs run, found once at start-up. */
export interface FfmpegTools {
  ffmpeg: string;
  ffprobe: string;
  /** ffmpeg's own version string, e.g. '5.1.9-0+deb12u1' (for the start-up line and logs). */
  version: string;
}

/** Why replays are off when ffmpeg or ffprobe is missing; the server prints `replays  off (<reason>)`. */
export const REPLAYS_OFF_REASON = 'ffmpeg not found: apt-get install ffmpeg';

/** The start-up line for a server without ffmpeg. */
export const replaysOffLine = (reason: string = REPLAYS_OFF_REASON) => `replays  off (${reason})`;

/** Why replays are off with Janus, whose recordings janus-pp-rec reads. */
export const JANUS_PP_REC_OFF_REASON = 'janus-pp-rec not found: apt-get install janus-tools';

/**
 * The start-up line: which ffmpeg makes the replays, or why there are none. With Janus (`janus`
 * says whether janus-pp-rec was found), its recordings need janus-pp-rec too.
 */
export const replaysLine = (tools: FfmpegTools | null, janus?: { ppRec: string | null }) => {
  if (!tools) return replaysOffLine();
  if (janus && !janus.ppRec) return replaysOffLine(JANUS_PP_REC_OFF_REASON);
  return `replays  on (ffmpeg ${tools.version})`;
};

/**
 * Finds ffmpeg and ffprobe: FFMPEG_PATH and FFPROBE_PATH when set (a set one that is not an
 * executable file counts as missing: the operator asked for that binary), else the first on PATH.
 * Null when either is missing or ffmpeg does not answer `-version`.
 */
export async function findFfmpeg(env: NodeJS.ProcessEnv = process.env): Promise<FfmpegTools | null> {
  const [ffmpeg, ffprobe] = await Promise.all([locate('ffmpeg', env.FFMPEG_PATH, env), locate('ffprobe', env.FFPROBE_PATH, env)]);
  if (!ffmpeg || !ffprobe) return null;
  const version = await readVersion(ffmpeg);
  return version === null ? null : { ffmpeg, ffprobe, version };
}

async function locate(name: string, explicit: string | undefined, env: NodeJS.ProcessEnv): Promise<string | null> {
  if (explicit) return (await isExecutableFile(explicit)) ? path.resolve(explicit) : null;
  return findOnPath(name, env);
}

/** The first executable file called `name` in the folders of env.PATH (absolute folders only). */
export async function findOnPath(name: string, env: NodeJS.ProcessEnv = process.env): Promise<string | null> {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir || !path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, name);
    if (await isExecutableFile(candidate)) return candidate;
  }
  return null;
}

async function isExecutableFile(file: string): Promise<boolean> {
  try {
    await access(file, constants.X_OK);
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

function readVersion(ffmpeg: string): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(ffmpeg, ['-hide_banner', '-version'], { timeout: 10_000 }, (err, stdout) => {
      if (err) return resolve(null);
      const match = /^ffmpeg version (\S+)/m.exec(stdout);
      resolve(match?.[1] ?? null);
    });
  });
}
