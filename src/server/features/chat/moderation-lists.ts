import { and, desc, eq, isNull, or, sql } from 'drizzle-orm';
import type { SessionModerator, SessionMute } from '../../../domain/chat.js';
import type { Db, Tx } from '../../db/connect.js';
import { chatMessages, chatReports, sessionModerators, sessionMutes, userProfiles } from '../../db/schema.js';
import type { ScopedActor } from '../../policies/scope.js';
import { moderatorPower } from './policies.js';
import { type ChatPresenter, presentModerator, presentMute } from './presenters.js';
import { type ChatSession, lineNotFound, type Person, readChatSession, readLine, readPerson, requireModerator } from './queries.js';

/** The full name, unless the profile has none and it would be read from the e-mail: then the chat's public name ('Participante'). */
function nameWithoutEmail(person: Person): string {
  const local = person.email.split('@')[0];
  return person.fullName === person.email || person.fullName === local ? person.publicName : person.fullName;
}

/**
 * What moderators list: the reported lines, the session's moderators, the mutes that hold, and a
 * line's author. Each read checks first that the actor moderates the session (403 otherwise).
 */

type Reading = { actor: ScopedActor; sessionId: string };

/** GET .../chat/reports: the reported lines not deleted, most reported first, then the latest reported. */
export async function readReports(db: Db, opts: Reading & { present: ChatPresenter }) {
  const session = await readChatSession(db, opts.sessionId);
  await requireModerator(db, opts.actor, session);
  return listReports(db, opts.present, session);
}

async function listReports(db: Db, present: ChatPresenter, session: ChatSession) {
  const reports = sql<number>`count(*)::int`;
  // Epoch ms, a number on both engines (a bare timestamp aggregate comes back as a Date or a string).
  const last = sql<number>`(extract(epoch from max(${chatReports.createdAt})) * 1000)::float8`;
  const found = await db
    .select({ line: chatMessages, reports, last })
    .from(chatReports)
    .innerJoin(chatMessages, eq(chatMessages.id, chatReports.messageId))
    .where(and(eq(chatReports.sessionId, session.id), isNull(chatMessages.deletedAt)))
    .groupBy(chatMessages.id)
    .orderBy(desc(reports), desc(last));
  return { items: found.map((r) => present.report(r.line, { reports: Number(r.reports), lastReportedAt: Number(r.last) })) };
}

/** GET .../moderators: the list, with e-mails for the show's owners only (an appointed moderator may be a buyer). */
export async function readModerators(db: Db, opts: Reading): Promise<{ items: SessionModerator[] }> {
  const session = await readChatSession(db, opts.sessionId);
  const power = await requireModerator(db, opts.actor, session);
  return listModerators(db, session, { withEmail: power === 'owner' });
}

/**
 * The session's moderators: its owners first (the seller and the company's admins, each only while
 * the policy still makes them an editor of it), then the appointed ones, by when they were appointed.
 * Every moderator reads their names; only an owner (`withEmail`) reads their e-mails: an appointed
 * moderator may be a buyer.
 */
export async function listModerators(db: Db | Tx, session: ChatSession, opts: { withEmail: boolean }): Promise<{ items: SessionModerator[] }> {
  const present = (person: Person, isOwner: boolean) =>
    presentModerator({ userId: person.id, name: opts.withEmail ? person.fullName : nameWithoutEmail(person), email: person.email }, isOwner, opts);
  const companyAdmins = and(eq(userProfiles.companyId, session.companyId), sql`'admin' = any(${userProfiles.roles})`);
  const candidates = await db
    .select({ userId: userProfiles.userId })
    .from(userProfiles)
    .where(session.sellerId ? or(eq(userProfiles.userId, session.sellerId), companyAdmins) : companyAdmins)
    .orderBy(userProfiles.createdAt);
  const owners: SessionModerator[] = [];
  for (const c of candidates) {
    const person = await readPerson(db, c.userId);
    if (person && moderatorPower(person, session, { isAppointed: false }) === 'owner') owners.push(present(person, true));
  }
  // The seller first among the owners.
  owners.sort((a, b) => Number(b.userId === session.sellerId) - Number(a.userId === session.sellerId));
  const appointed = await db
    .select({ userId: sessionModerators.userId })
    .from(sessionModerators)
    .where(eq(sessionModerators.sessionId, session.id))
    .orderBy(sessionModerators.createdAt);
  const others: SessionModerator[] = [];
  for (const a of appointed) {
    if (owners.some((o) => o.userId === a.userId)) continue;
    const person = await readPerson(db, a.userId);
    if (person) others.push(present(person, false));
  }
  return { items: [...owners, ...others] };
}

/** GET .../mutes: the mutes that hold now, with public names. */
export async function readMutes(db: Db, opts: Reading): Promise<{ items: SessionMute[] }> {
  const session = await readChatSession(db, opts.sessionId);
  await requireModerator(db, opts.actor, session);
  const found = await db
    .select({ userId: sessionMutes.userId, until: sessionMutes.until })
    .from(sessionMutes)
    .where(and(eq(sessionMutes.sessionId, session.id), sql`(${sessionMutes.until} is null or ${sessionMutes.until} > now())`))
    .orderBy(sessionMutes.createdAt);
  const items: SessionMute[] = [];
  for (const m of found) {
    const person = await readPerson(db, m.userId);
    if (person) items.push(presentMute({ userId: m.userId, name: person.publicName, until: m.until }));
  }
  return { items };
}

/**
 * GET .../chat/{messageId}/author: who wrote a line, for a moderator's menu (public lines carry no
 * user id). The show's company too: an appointed moderator blocks from it and has no other way to know it.
 */
export async function readLineAuthor(db: Db, opts: Reading & { messageId: string }): Promise<{ userId: string; name: string; companyId: string }> {
  const session = await readChatSession(db, opts.sessionId);
  await requireModerator(db, opts.actor, session);
  const line = await readLine(db, session.id, opts.messageId);
  const author = line?.authorId ? await readPerson(db, line.authorId) : null;
  if (!author) throw lineNotFound();
  return { userId: author.id, name: author.publicName, companyId: session.companyId };
}
