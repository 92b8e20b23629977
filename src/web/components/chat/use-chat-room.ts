import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { CHAT_MIN_INTERVAL_SECONDS, CHAT_TEXT_MAX, chatTextProblem } from '../../../domain/chat.js';
import { cleanChatText } from '../../../domain/chat-text.js';
import { startSignIn } from '../../api/auth';
import { chatKeys, useChat, usePostChatLine } from '../../api/chat';
import { isMutedNow } from '../../api/chat-cache';
import { isApiError, NETWORK_ERROR_STATUS } from '../../api/client';
import { type LiveSessionData, liveKeys } from '../../api/live';
import { useMe } from '../../api/me';

/** The codes of a refused line that say how long to wait. */
const WAIT_CODES = new Set(['CHAT_SLOW_MODE', 'CHAT_RATE_LIMITED', 'CHAT_ADDRESS_LIMITED']);

/** Why the composer cannot send what is typed, before asking the server. */
export type TextProblem = NonNullable<ReturnType<typeof chatTextProblem>>;

/** What the server said when it refused a line: its Spanish message, shown as given. */
export interface ChatRefusal {
  code: string;
  message: string;
  /** Device time when the wait it asks for is over (then it leaves by itself). */
  until?: number;
}

/** Seconds to wait from a refusal's details, when the server sent them (`retryAfter…`), else null. */
function waitFromRefusal(details: Record<string, unknown>): number | null {
  for (const key of ['retryAfterSeconds', 'retryAfter', 'waitSeconds']) {
    const value = details[key];
    if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value;
  }
  return null;
}

/** Code points of the text as it will be stored (invisible characters aside), as the server counts a line's length. */
export const textLength = (text: string) => [...cleanChatText(text)].length;

/**
 * Everything behind one show's chat, shared by the overlay, the panel and the Live Hub: the lines,
 * what the reader may do (signed out, profile, muted, blocked, slow mode, ended), and the composer
 * from typing to the server's answer. A refused line keeps what was typed.
 */
export function useChatRoom(sessionId: string, isEnded: boolean) {
  const queryClient = useQueryClient();
  const chat = useChat(sessionId);
  const meQuery = useMe();
  const post = usePostChatLine(sessionId);
  const [text, setText] = useState('');
  const [isAnnouncement, setAnnouncement] = useState(false);
  const [problem, setProblem] = useState<TextProblem | null>(null);
  const [isProfileOpen, setProfileOpen] = useState(false);
  /** Device time before which slow mode holds the next line (from our last line or a refusal). */
  const [waitUntil, setWaitUntil] = useState<number | null>(null);
  const inFlight = useRef(false);
  const [refusal, setRefusal] = useState<ChatRefusal | null>(null);
  const now = useNow(waitUntil !== null || refusal?.until !== undefined || chat.me?.mutedUntil != null);

  const user = meQuery.isPending ? undefined : (meQuery.data ?? null);
  const { me, settings } = chat;
  const isMuted = isMutedNow(me, now);
  const isBlocked = me?.isBlocked ?? false;
  const waitSeconds = waitUntil !== null && waitUntil > now ? Math.ceil((waitUntil - now) / 1000) : 0;
  const slowModeSeconds = settings?.slowModeSeconds ?? 0;

  /** Who is reading: decides what takes the composer's place. */
  const access: 'loading' | 'ended' | 'signedOut' | 'profile' | 'write' =
    user === undefined || chat.query.isPending ? 'loading' : isEnded ? 'ended' : user === null ? 'signedOut' : !user.profileComplete ? 'profile' : 'write';

  useEffect(() => {
    if (waitUntil !== null && waitUntil <= now) setWaitUntil(null);
  }, [waitUntil, now]);
  // The wait a refusal asked for is over: the refusal leaves, and the composer says what holds now.
  useEffect(() => {
    if (refusal?.until !== undefined && refusal.until <= now) setRefusal(null);
  }, [refusal, now]);

  const changeText = useCallback((value: string) => {
    setText(value);
    setProblem((current) => (current === null ? null : chatTextProblem(value)));
    setRefusal(null);
  }, []);

  const send = useCallback(() => {
    // Set in the press that sends: a mutation's isPending reaches the page a moment later.
    if (inFlight.current) return;
    const found = chatTextProblem(text);
    setProblem(found);
    if (found) return;
    inFlight.current = true;
    setRefusal(null);
    const announcement = isAnnouncement && Boolean(me?.isModerator);
    post.mutate(announcement ? { text, announcement: true } : { text }, {
      onSettled: () => {
        inFlight.current = false;
      },
      onSuccess: () => {
        setText('');
        setAnnouncement(false);
        const pace = Math.max(slowModeSeconds, CHAT_MIN_INTERVAL_SECONDS);
        setWaitUntil(slowModeSeconds > 0 && !me?.isModerator ? Date.now() + pace * 1000 : null);
      },
      onError: (error) => {
        if (isApiError(error) && error.status === 401) {
          startSignIn();
          return;
        }
        if (isApiError(error) && error.code === 'PROFILE_INCOMPLETE') {
          setProfileOpen(true);
          return;
        }
        if (isApiError(error) && error.status !== NETWORK_ERROR_STATUS && !error.code.startsWith('HTTP_')) {
          const wait = WAIT_CODES.has(error.code) ? waitFromRefusal(error.details) : null;
          const until = wait === null ? undefined : Date.now() + wait * 1000;
          // A refused text (VALIDATION) says why in its field; every other refusal in its message.
          setRefusal({ code: error.code, message: error.fields.text || error.message, until });
          if (until !== undefined) setWaitUntil((current) => Math.max(current ?? 0, until));
          // The server knows better than the page: muted or blocked meanwhile, refetch `me`.
          if (error.code === 'CHAT_MUTED' || error.code === 'BUYER_BLOCKED') void queryClient.invalidateQueries({ queryKey: chatKeys.lines(sessionId) });
          return;
        }
        setRefusal({ code: 'NETWORK', message: '' });
      },
    });
  }, [post, text, isAnnouncement, me, slowModeSeconds, queryClient, sessionId]);

  /** The show's company, known to its editors from the session (a block applies to it). */
  const session = queryClient.getQueryData<LiveSessionData | null>(liveKeys.detail(sessionId))?.session;
  const companyId = session && 'companyId' in session ? session.companyId : null;

  return {
    sessionId,
    companyId,
    chat,
    user,
    me,
    settings,
    access,
    isModerator: Boolean(me?.isModerator) && !isEnded,
    isMuted,
    mutedUntil: isMuted ? (me?.mutedUntil ?? null) : undefined,
    isBlocked,
    slowModeSeconds,
    waitSeconds,
    composer: {
      text,
      setText: changeText,
      length: textLength(text),
      max: CHAT_TEXT_MAX,
      problem,
      refusal,
      dismissRefusal: () => setRefusal(null),
      isSending: post.isPending,
      send,
      isAnnouncement,
      setAnnouncement,
    },
    signIn: startSignIn,
    profile: { opened: isProfileOpen, open: () => setProfileOpen(true), close: () => setProfileOpen(false), me: user ?? null },
  };
}

export type ChatRoom = ReturnType<typeof useChatRoom>;

/** The device clock, ticking each second while `isTicking` (a countdown on screen). */
function useNow(isTicking: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!isTicking) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [isTicking]);
  return now;
}
