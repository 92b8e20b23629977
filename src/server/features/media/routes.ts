import { mkdir } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MAX_UPLOAD_BYTES } from '../../../domain/uploads.js';
import type { AppContext } from '../../context.js';
import { UPLOAD_KINDS } from '../../db/schema.js';
import { currentUser, requireRole } from '../../http/auth-hooks.js';
import { closeAfterReply } from '../../http/close.js';
import { AppError } from '../../http/errors.js';
import { messages } from '../../messages.js';
import { SERVABLE_KEY, type Storage } from '../../providers/storage/types.js';
import { ImageError, type ImageErrorCode } from './images.js';
import { saveUploadedImage, type UploadKind } from './service.js';

/** Per signed-in user (by IP before sign-in): generous for a 6-photo form, tight for a script. */
const uploadLimit = {
  max: 60,
  timeWindow: '1 minute',
  keyGenerator: (req: FastifyRequest) => req.user?.id ?? req.ip,
};

export const UPLOADS_PATH = '/api/uploads';

/** The whole multipart request: the image plus room for part headers and the `kind` field. */
const MAX_UPLOAD_REQUEST_BYTES = MAX_UPLOAD_BYTES + 64 * 1024;

const imageErrorMessages: Record<ImageErrorCode, string> = {
  NOT_AN_IMAGE: messages.uploads.notAnImage,
  UNREADABLE: messages.uploads.unreadable,
  TOO_MANY_PIXELS: messages.uploads.tooManyPixels,
  HEIC_UNSUPPORTED: messages.uploads.heicUnsupported,
};

const UPLOADS_PREFIX = '/uploads/';

/** An error with its own status and Spanish message, for the statuses AppError has no code for (413, 415). */
function sendError(reply: FastifyReply, status: number, code: string, message: string): FastifyReply {
  return reply.code(status).send({ error: { code, message } });
}

async function discard(stream: Readable): Promise<void> {
  for await (const _chunk of stream) {
    // A part we do not want still has to be read, or the parser stalls.
  }
}

/** The `file` part went past MAX_UPLOAD_BYTES: refused at once, the rest is never read. */
class UploadTooLarge extends Error {}

/** Reads a file part into memory, failing as soon as busboy reports it passed the limit. */
function readFilePart(file: Readable & { truncated?: boolean }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const tooLarge = () => {
      chunks.length = 0;
      // Destroying the part stops busboy, so the rest of the request stays unread.
      file.destroy();
      reject(new UploadTooLarge());
    };
    // A body that arrived at once may have passed the limit before this function saw the part.
    if (file.truncated) return tooLarge();
    file.on('data', (chunk: Buffer) => chunks.push(chunk));
    file.once('limit', tooLarge);
    file.once('end', () => (file.truncated ? tooLarge() : resolve(Buffer.concat(chunks))));
    file.once('error', reject);
  });
}

/** Reads the form: the `file` part into memory (at most MAX_UPLOAD_BYTES) and the optional `kind`. */
async function readUploadForm(req: FastifyRequest): Promise<{ bytes: Buffer | null; kind: string | undefined }> {
  let bytes: Buffer | null = null;
  let kind: string | undefined;
  for await (const part of req.parts()) {
    if (part.type === 'file') {
      if (part.fieldname === 'file' && !bytes) bytes = await readFilePart(part.file);
      else await discard(part.file);
    } else if (part.fieldname === 'kind') {
      kind = typeof part.value === 'string' ? part.value : '';
    }
  }
  return { bytes, kind };
}

/** 413 without reading the rest of the body: the connection closes after the answer instead of draining gigabytes. */
function refuseTooLarge(req: FastifyRequest, reply: FastifyReply): FastifyReply {
  closeAfterReply(req, reply);
  return sendError(reply, 413, 'PAYLOAD_TOO_LARGE', messages.uploads.tooLarge);
}

export async function mediaRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // Multipart is parsed only in this plugin's scope; everywhere else it stays a 415.
  await app.register(fastifyMultipart, {
    // throwFileSizeLimit off: readFilePart answers 413 on busboy's 'limit' itself, without reading the rest.
    throwFileSizeLimit: false,
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 4, parts: 6, fieldSize: 200, fieldNameSize: 100, headerPairs: 20 },
  });

  const tooLongByHeader = async (req: FastifyRequest, reply: FastifyReply) => {
    if (Number(req.headers['content-length'] ?? 0) > MAX_UPLOAD_REQUEST_BYTES) return refuseTooLarge(req, reply);
  };

  app.post(UPLOADS_PATH, { config: { rateLimit: uploadLimit }, preValidation: [requireRole('admin', 'seller'), tooLongByHeader] }, async (req, reply) => {
    if (!req.isMultipart()) return sendError(reply, 415, 'UNSUPPORTED_MEDIA', messages.uploads.notMultipart);

    let form: Awaited<ReturnType<typeof readUploadForm>>;
    try {
      form = await readUploadForm(req);
    } catch (err) {
      if (err instanceof UploadTooLarge) return refuseTooLarge(req, reply);
      const code = (err as { code?: string }).code;
      if (code === 'FST_REQ_FILE_TOO_LARGE') return refuseTooLarge(req, reply);
      if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
        return sendError(reply, 400, 'VALIDATION', messages.uploads.tooManyParts);
      }
      // Busboy's own errors (no boundary, truncated body, a field named __proto__, ...).
      req.log.info({ err }, 'unreadable multipart upload');
      return sendError(reply, 400, 'BAD_MULTIPART', messages.uploads.notMultipart);
    }

    if (!form.bytes) throw new AppError('VALIDATION', messages.uploads.missingFile, { file: messages.uploads.missingFile });
    const kind = form.kind ?? 'auction_image';
    if (!(UPLOAD_KINDS as readonly string[]).includes(kind)) {
      throw new AppError('VALIDATION', messages.errors.validation, { kind: messages.fields.invalid });
    }

    const user = currentUser(req);
    try {
      const result = await saveUploadedImage(ctx.db, ctx.storage, {
        owner: { id: user.id, companyId: user.companyId },
        kind: kind as UploadKind,
        bytes: form.bytes,
      });
      return reply.code(201).send(result);
    } catch (err) {
      if (err instanceof ImageError) {
        req.log.info({ code: err.code, cause: err.cause }, 'upload refused');
        throw new AppError('VALIDATION', imageErrorMessages[err.code], { file: imageErrorMessages[err.code] }, { reason: err.code });
      }
      throw err;
    }
  });

  if (ctx.storage.localDir) await serveLocalFiles(app, ctx.storage.localDir);
  else redirectLocalUrls(app, ctx.storage);
}

/**
 * With the images in a bucket, `/uploads/<key>` answers a redirect to the object's public URL.
 * Records made on local disk keep `/uploads/...` URLs (in uploads, auctions' images and session
 * covers); `npm run storage:to-s3` copies their files under the same keys, so every old page and
 * link keeps working without rewriting a row. 302, not 301: a browser holds a permanent redirect
 * for good, and the public address may change (a CDN put in front of the bucket).
 */
function redirectLocalUrls(app: FastifyInstance, storage: Storage): void {
  app.get(`${UPLOADS_PREFIX}*`, async (req, reply) => {
    const key = (req.params as { '*': string })['*'];
    if (!SERVABLE_KEY.test(key)) throw new AppError('NOT_FOUND', messages.errors.notFound);
    // A day in caches, so a page full of old images does not ask again on every visit.
    return reply.header('Cache-Control', 'public, max-age=86400').redirect(storage.urlFor(key), 302);
  });
}

/**
 * GET /uploads/<key> from local disk. Keys are unique, so files are cached for a year. Anything that
 * is not the shape of a key we issue (`..`, escapes, dotfiles, folders) is a 404 before the disk is touched.
 */
async function serveLocalFiles(app: FastifyInstance, root: string): Promise<void> {
  await mkdir(root, { recursive: true });
  await app.register(async (files) => {
    files.addHook('onRequest', async (req) => {
      const pathname = req.raw.url?.split('?')[0] ?? '';
      if (!pathname.startsWith(UPLOADS_PREFIX) || !SERVABLE_KEY.test(pathname.slice(UPLOADS_PREFIX.length))) {
        throw new AppError('NOT_FOUND', messages.errors.notFound);
      }
    });
    await files.register(fastifyStatic, {
      root,
      prefix: UPLOADS_PREFIX,
      decorateReply: false,
      index: false,
      list: false,
      redirect: false,
      dotfiles: 'ignore',
      cacheControl: false,
      setHeaders: (res) => {
        res.header('Cache-Control', 'public, max-age=31536000, immutable');
      },
    });
  });
}
