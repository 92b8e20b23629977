import { and, eq } from 'drizzle-orm';
import type { SessionModerator } from '../../../domain/chat.js';
import { recordAudit } from '../../audit.js';
import type { Db, Tx } from '../../db/connect.js';
import { sessionModerators } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import type { Acting } from '../../http/request-context.js';
import { messages } from '../../messages.js';
import type { ScopedActor } from '../../policies/scope.js';
import { listModerators } from './moderation-lists.js';
import { mayManageModerators, moderatorPower } from './policies.js';
import { type ChatSession, readChatSession, readPerson, userIdByEmail } from './queries.js';

/**
 * Appointing and removing a session's moderators, by its editors (the seller, the company's admins,
 * platform admins), who read the list with e-mails. The owners moderate without a row; an appointed
 * moderator's power ends with the show (policies.ts).
 */

type Managing = Acting<ScopedActor> & { sessionId: string };

async function managed(tx: Tx, opts: Managing): Promise<ChatSession> {
  const session = await readChatSession(tx, opts.sessionId, { lock: true });
  if (!mayManageModerators(opts.actor, session)) throw new AppError('FORBIDDEN', messages.chat.editorsOnly);
  return session;
}

/**
 * POST .../moderators {email}: the person must have signed in to Martillo once (their account
 * exists). Appointing an owner or someone already appointed changes nothing (`created: false`).
 */
export async function appointModerator(db: Db, opts: Managing & { email: string }): Promise<{ created: boolean; items: SessionModerator[] }> {
  return db.transaction(async (tx) => {
    const session = await managed(tx, opts);
    const userId = await userIdByEmail(tx, opts.email);
    const person = userId ? await readPerson(tx, userId) : null;
    if (!person) throw new AppError('NOT_FOUND', messages.chat.moderatorUnknown);
    let created = false;
    if (moderatorPower(person, session, { isAppointed: false }) !== 'owner') {
      const inserted = await tx
        .insert(sessionModerators)
        .values({ sessionId: session.id, userId: person.id, appointedBy: opts.actor.id })
        .onConflictDoNothing()
        .returning({ userId: sessionModerators.userId });
      created = inserted.length > 0;
    }
    if (created)
      await recordAudit(tx, { by: opts, action: 'live_session.moderator_add', entityType: 'live_session', entityId: session.id, after: { userId: person.id } });
    return { created, ...(await listModerators(tx, session, { withEmail: true })) };
  });
}

/** DELETE .../moderators/{userId}: an appointed moderator only (the owners cannot be removed). */
export async function removeModerator(db: Db, opts: Managing & { userId: string }): Promise<{ items: SessionModerator[] }> {
  return db.transaction(async (tx) => {
    const session = await managed(tx, opts);
    const person = await readPerson(tx, opts.userId);
    if (!person) throw new AppError('NOT_FOUND', messages.chat.moderatorNotFound);
    if (moderatorPower(person, session, { isAppointed: false }) === 'owner') throw new AppError('CONFLICT', messages.chat.moderatorIsOwner);
    const removed = await tx
      .delete(sessionModerators)
      .where(and(eq(sessionModerators.sessionId, session.id), eq(sessionModerators.userId, person.id)))
      .returning({ userId: sessionModerators.userId });
    if (removed.length === 0) throw new AppError('NOT_FOUND', messages.chat.moderatorNotFound);
    await recordAudit(tx, {
      by: opts,
      action: 'live_session.moderator_remove',
      entityType: 'live_session',
      entityId: session.id,
      before: { userId: person.id },
    });
    return listModerators(tx, session, { withEmail: true });
  });
}
