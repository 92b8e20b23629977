import { and, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { CHAT_PAGE_SIZE, type ChatMe, type ChatPage, type ChatSettings, chatPublicName } from '../../../domain/chat.js';
import { isUuid } from '../../../domain/ids.js';
import { effectiveCompanyId, type Role } from '../../../domain/role-rules.js';
import { type Db, rows, type Tx } from '../../db/connect.js';
import { chatMessages, companyBlocks, companyMutedWords, liveSessions, sessionModerators, sessionMutes, userProfiles, users } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { messages } from '../../messages.js';
import type { ScopedActor } from '../../policies/scope.js';
import { sessionNotFound } from '../../reads/sessions.js';
import { type ChatSessionFacts, isChatOpen, type ModeratorPower, moderatorPower } from './policies.js';
import type { ChatPresenter, ChatRow } from './presenters.js';

/** Reads of a show's chat: the session, who moderates it, a page of lines, the settings, a reader's standing. */

export interface ChatSession extends ChatSessionFacts {
  chatSlowModeSeconds: number;
  chatPinnedMessageId: string | null;
}

export const lineNotFound = () => new AppError('NOT_FOUND', messages.chat.messageNotFound);

/** The session (any: the chat is public), locked for the transaction when asked; 'Sesión no encontrada' otherwise. */
export async function readChatSession(db: Db | Tx, id: string, opts: { lock?: boolean } = {}): Promise<ChatSession> {
  if (!isUuid(id)) throw sessionNotFound();
  const query = db
    .select({
      id: liveSessions.id,
      status: liveSessions.status,
      companyId: liveSessions.companyId,
      sellerId: liveSessions.sellerId,
      chatSlowModeSeconds: liveSessions.chatSlowModeSeconds,
      chatPinnedMessageId: liveSessions.chatPinnedMessageId,
    })
    .from(liveSessions)
    .where(eq(liveSessions.id, id.toLowerCase()));
  const [row] = opts.lock ? await query.for('update') : await query;
  if (!row) throw sessionNotFound();
  return row;
}

/** What `actor` may do as a moderator of the session (policies.ts decides from the facts read here). */
export async function powerOf(db: Db | Tx, actor: ScopedActor | null, session: ChatSessionFacts): Promise<ModeratorPower> {
  if (!actor) return null;
  const [appointed] = await db
    .select({ userId: sessionModerators.userId })
    .from(sessionModerators)
    .where(and(eq(sessionModerators.sessionId, session.id), eq(sessionModerators.userId, actor.id)));
  return moderatorPower(actor, session, { isAppointed: Boolean(appointed) });
}

/** The actor's power, or 403 'only moderators'. */
export async function requireModerator(db: Db | Tx, actor: ScopedActor, session: ChatSessionFacts): Promise<Exclude<ModeratorPower, null>> {
  const power = await powerOf(db, actor, session);
  if (!power) throw new AppError('FORBIDDEN', messages.chat.moderatorsOnly);
  return power;
}

/** A person as the chat needs them: the policy facts, the public and full names, and whether their profile lets them write. */
export interface Person extends ScopedActor {
  email: string;
  publicName: string;
  fullName: string;
  isComplete: boolean;
}

export async function readPerson(db: Db | Tx, userId: string): Promise<Person | null> {
  if (!isUuid(userId)) return null;
  const [row] = rows<{
    id: string;
    email: string;
    roles: Role[] | null;
    company_id: string | null;
    first_name: string | null;
    last_name: string | null;
    display_name: string | null;
    complete: boolean;
  }>(
    await db.execute(sql`
      select u.id, u.email, p.roles, p.company_id, p.first_name, p.last_name, p.display_name,
             coalesce((select f.o_complete from bidder_facts(u.id) f), false) as complete
        from ${users} u left join ${userProfiles} p on p.user_id = u.id
       where u.id = ${userId.toLowerCase()}::uuid`),
  );
  if (!row) return null;
  const names = { firstName: row.first_name, lastName: row.last_name, displayName: row.display_name };
  const profileCompanyId = row.company_id?.trim() ? row.company_id.trim() : null;
  return {
    id: row.id,
    email: row.email,
    roles: row.roles ?? ['buyer'],
    profileCompanyId,
    companyId: effectiveCompanyId(row.id, profileCompanyId),
    publicName: chatPublicName(names),
    fullName: row.display_name?.trim() || [row.first_name, row.last_name].filter(Boolean).join(' ').trim() || row.email.split('@')[0] || row.email,
    isComplete: row.complete === true,
  };
}

/** The user's id by the e-mail they sign in with, or null. */
export async function userIdByEmail(db: Db | Tx, email: string): Promise<string | null> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email.toLowerCase()));
  return row?.id ?? null;
}

/** Whether the company blocked the user, and their mute in this session while it holds (undefined: not muted; null: until the end). */
export interface Standing {
  isBlocked: boolean;
  mutedUntil: Date | null | undefined;
}

export async function readStanding(db: Db | Tx, opts: { sessionId: string; companyId: string; userId: string }): Promise<Standing> {
  const [blocked] = await db
    .select({ userId: companyBlocks.userId })
    .from(companyBlocks)
    .where(and(eq(companyBlocks.companyId, opts.companyId), eq(companyBlocks.userId, opts.userId)));
  // Compared with the database's clock, as the mute was set with it.
  const [mute] = await db
    .select({ until: sessionMutes.until })
    .from(sessionMutes)
    .where(
      and(
        eq(sessionMutes.sessionId, opts.sessionId),
        eq(sessionMutes.userId, opts.userId),
        sql`(${sessionMutes.until} is null or ${sessionMutes.until} > now())`,
      ),
    );
  return { isBlocked: Boolean(blocked), mutedUntil: mute ? mute.until : undefined };
}

export async function readMutedWords(db: Db | Tx, companyId: string): Promise<string[]> {
  const [row] = await db.select({ words: companyMutedWords.words }).from(companyMutedWords).where(eq(companyMutedWords.companyId, companyId));
  return row?.words ?? [];
}

/** A line of the session (deleted ones included: the caller decides), or null; a non-UUID id is no line. */
export async function readLine(db: Db | Tx, sessionId: string, messageId: string): Promise<ChatRow | null> {
  if (!isUuid(messageId)) return null;
  const [row] = await db
    .select()
    .from(chatMessages)
    .where(and(eq(chatMessages.id, messageId.toLowerCase()), eq(chatMessages.sessionId, sessionId)));
  return row ?? null;
}

/** Whether `viewerId` sees the line: not deleted, and a line with a muted word only by its author (and the show's moderators, who read pages with `readChatPage`). */
export function isVisibleTo(row: ChatRow, viewerId: string | null): boolean {
  return row.deletedAt === null && (!row.onlyAuthor || (viewerId !== null && row.authorId === viewerId));
}

/**
 * Who moderates the show now, by user id: its seller, its company's admins and the platform's,
 * and its appointed moderators, each checked with the policy (moderatorPower). A line with a
 * muted word goes to them as well as to its author, so they can act on it.
 */
export async function readModeratorIds(db: Db | Tx, session: ChatSessionFacts): Promise<string[]> {
  const candidates = rows<{ id: string }>(
    await db.execute(sql`
      select ${session.sellerId}::uuid as id
      union select user_id from ${sessionModerators} where session_id = ${session.id}::uuid
      union select user_id from ${userProfiles}
       where 'admin' = any(roles) and (company_id = ${session.companyId} or coalesce(trim(company_id), '') = '')`),
  );
  const ids: string[] = [];
  for (const { id } of candidates) {
    const person = await readPerson(db, id);
    if (person && (await powerOf(db, person, session))) ids.push(person.id);
  }
  return ids;
}

/** The slow mode and the pinned line (a pinned line since deleted is no longer shown). */
export async function readSettings(db: Db | Tx, present: ChatPresenter, session: ChatSession): Promise<ChatSettings> {
  const pinnedRow = session.chatPinnedMessageId ? await readLine(db, session.id, session.chatPinnedMessageId) : null;
  const pinned = pinnedRow && isVisibleTo(pinnedRow, null) ? present.message(pinnedRow) : null;
  return { slowModeSeconds: session.chatSlowModeSeconds as ChatSettings['slowModeSeconds'], pinned };
}

/**
 * GET .../chat: the latest page of lines the viewer sees (newest last), or the page before the
 * line `before`. The replay of an ended show reads the same rows.
 */
export async function readChatPage(
  db: Db,
  present: ChatPresenter,
  opts: { sessionId: string; viewer: ScopedActor | null; before: string | null },
): Promise<ChatPage> {
  const session = await readChatSession(db, opts.sessionId);
  const viewerId = opts.viewer?.id ?? null;
  const power = await powerOf(db, opts.viewer, session);
  let beforeSeq: number | null = null;
  if (opts.before !== null) {
    const anchor = await readLine(db, session.id, opts.before);
    if (!anchor) throw lineNotFound();
    beforeSeq = anchor.seq;
  }
  // The show's moderators see the lines kept to their authors too (marked), to act on them.
  const seen = power ? undefined : viewerId ? or(eq(chatMessages.onlyAuthor, false), eq(chatMessages.authorId, viewerId)) : eq(chatMessages.onlyAuthor, false);
  const found = await db
    .select()
    .from(chatMessages)
    .where(and(eq(chatMessages.sessionId, session.id), isNull(chatMessages.deletedAt), seen, beforeSeq !== null ? lt(chatMessages.seq, beforeSeq) : undefined))
    .orderBy(desc(chatMessages.seq))
    .limit(CHAT_PAGE_SIZE + 1);
  const page = found.slice(0, CHAT_PAGE_SIZE).reverse();
  const nextBefore = found.length > CHAT_PAGE_SIZE ? (page[0]?.id ?? null) : null;
  return {
    items: page.map(present.message),
    nextBefore,
    settings: await readSettings(db, present, session),
    me: await readMe(db, present, session, opts.viewer, power),
  };
}

async function readMe(db: Db, present: ChatPresenter, session: ChatSession, viewer: ScopedActor | null, power: ModeratorPower): Promise<ChatMe | null> {
  if (!viewer) return null;
  const [person, standing] = await Promise.all([
    readPerson(db, viewer.id),
    readStanding(db, { sessionId: session.id, companyId: session.companyId, userId: viewer.id }),
  ]);
  const muted = standing.mutedUntil !== undefined;
  return {
    tag: present.tag(session.id, viewer.id),
    canWrite: isChatOpen(session) && Boolean(person && (power || person.isComplete)) && !muted && !standing.isBlocked,
    isModerator: power !== null,
    ...(muted ? { mutedUntil: standing.mutedUntil ? standing.mutedUntil.getTime() : null } : {}),
    isBlocked: standing.isBlocked,
  };
}

/**
 * Numbers a session's lines in the order they commit: a line's `seq` comes from a sequence when it
 * is inserted, and two lines inserted together could otherwise commit (and reach the room) in the
 * other order. Held from just before the insert to the commit, so it costs a line one insert's time.
 */
export async function holdLineOrder(tx: Tx, sessionId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`chat:${sessionId}`}))`);
}
