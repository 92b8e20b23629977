import { type QueryClient, replaceEqualDeep, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { BlockAnswer, ChatMessage, ChatPage, ChatReport, ChatSettings, SessionModerator, SessionMute, SlowModeSeconds } from '../../domain/chat.js';
import { CHAT_MESSAGE_EVENT, CHAT_MESSAGES_EVENT, CHAT_REMOVED_EVENT, CHAT_SETTINGS_EVENT, CHAT_STANDING_EVENT } from '../../domain/realtime.js';
import { addLine, applySettings, applyStanding, type ChatData, flattenChat, reconcileChat, removeLine } from './chat-cache';
import { api } from './client';
import { liveSessionPath } from './live';
import { useResync, useRoomJoined, useSocketEvent } from './socket';

/**
 * A show's chat and its moderation. The latest page is fetched once and kept current by the
 * session room's events (`chatMessage`, a large room's `chatMessages`, `chatRemoved`, `chatSettings`, and `chatStanding` in the
 * reader's own room); scrolling up pages back; a reconnection refetches what events were missed.
 * The page joins the room itself (useLiveSession): this only listens.
 */
export const chatKeys = {
  all: ['chat'] as const,
  session: (sessionId: string) => [...chatKeys.all, sessionId] as const,
  lines: (sessionId: string) => [...chatKeys.session(sessionId), 'lines'] as const,
  reports: (sessionId: string) => [...chatKeys.session(sessionId), 'reports'] as const,
  mutes: (sessionId: string) => [...chatKeys.session(sessionId), 'mutes'] as const,
  moderators: (sessionId: string) => [...chatKeys.session(sessionId), 'moderators'] as const,
};

/** How long the chat waits for the room before reading its first page anyway. */
const CHAT_ROOM_WAIT_MS = 3000;

const chatPath = (sessionId: string) => `${liveSessionPath(sessionId)}/chat`;
const linePath = (sessionId: string, messageId: string) => `${chatPath(sessionId)}/${encodeURIComponent(messageId)}`;

/** Who wrote a line (moderators only): what a mute or a block needs. */
export interface ChatAuthor {
  userId: string;
  name: string;
  /** The show's company, where the server tells it: what 'Bloquear de mis shows' applies to. */
  companyId?: string;
}

function update(queryClient: QueryClient, sessionId: string, fn: (data: ChatData | undefined) => ChatData | undefined): void {
  queryClient.setQueryData<ChatData>(chatKeys.lines(sessionId), (data) => fn(data) ?? data);
}

/** The chat of one show: its lines oldest first, its settings, what the reader may do, and 'load earlier'. */
export function useChat(sessionId: string) {
  const queryClient = useQueryClient();
  // The first page is read once the page is in the session's room, so no line falls between the
  // read and the room's events; a socket that cannot join does not keep the chat away for long.
  const isJoined = useRoomJoined('session', sessionId);
  const [waitedForRoom, setWaitedForRoom] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setWaitedForRoom(true), CHAT_ROOM_WAIT_MS);
    return () => clearTimeout(timer);
  }, []);
  const query = useInfiniteQuery<ChatPage, Error, ChatData, ReturnType<typeof chatKeys.lines>, string | null>({
    queryKey: chatKeys.lines(sessionId),
    queryFn: ({ pageParam, signal }) =>
      api.get<ChatPage>(pageParam === null ? chatPath(sessionId) : `${chatPath(sessionId)}?before=${encodeURIComponent(pageParam)}`, signal),
    initialPageParam: null,
    getNextPageParam: (last) => last.nextBefore,
    enabled: isJoined || waitedForRoom,
    // The room keeps it current: no refetch on focus, only after a reconnection.
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
    // A refetch that an event overtook must not drop the line the event brought.
    structuralSharing: (old, fetched) => replaceEqualDeep(old, reconcileChat(old as ChatData | undefined, fetched as ChatData)),
  });

  // A first page read before the join (the room answered after CHAT_ROOM_WAIT_MS, as on a slow phone):
  // read it again once the page is in the room, or a line written between that read and the join, which
  // the room sent before this page was in it, would never show.
  const joinedOnce = useRef(false);
  const readWithoutRoom = useRef(false);
  useEffect(() => {
    if (!isJoined) {
      if (waitedForRoom && !joinedOnce.current) readWithoutRoom.current = true;
      return;
    }
    joinedOnce.current = true;
    if (!readWithoutRoom.current) return;
    readWithoutRoom.current = false;
    void queryClient.invalidateQueries({ queryKey: chatKeys.lines(sessionId), exact: true });
  }, [isJoined, waitedForRoom, queryClient, sessionId]);

  useSocketEvent(CHAT_MESSAGE_EVENT, (line) => {
    if (line?.sessionId === sessionId) update(queryClient, sessionId, (d) => addLine(d, line));
  });
  useSocketEvent(CHAT_MESSAGES_EVENT, (event) => {
    if (event?.sessionId === sessionId) update(queryClient, sessionId, (d) => event.lines.reduce<ChatData | undefined>((acc, line) => addLine(acc, line), d));
  });
  useSocketEvent(CHAT_REMOVED_EVENT, (event) => {
    if (event?.sessionId === sessionId) update(queryClient, sessionId, (d) => removeLine(d, event.messageId));
  });
  useSocketEvent(CHAT_SETTINGS_EVENT, (event) => {
    if (event?.sessionId === sessionId) update(queryClient, sessionId, (d) => applySettings(d, event));
  });
  useSocketEvent(CHAT_STANDING_EVENT, (event) => {
    if (event?.sessionId === sessionId) update(queryClient, sessionId, (d) => applyStanding(d, event));
    // A block (or unblock) across the company's shows: the server knows whether this show is one.
    else if (event && event.sessionId === null) void queryClient.invalidateQueries({ queryKey: chatKeys.lines(sessionId) });
  });
  useResync(() => void queryClient.invalidateQueries({ queryKey: chatKeys.session(sessionId) }));

  const first = query.data?.pages[0];
  return {
    query,
    lines: flattenChat(query.data),
    settings: first?.settings ?? null,
    me: first?.me ?? null,
    hasEarlier: query.hasNextPage,
    isLoadingEarlier: query.isFetchingNextPage,
    loadEarlier: () => {
      if (query.hasNextPage && !query.isFetchingNextPage) void query.fetchNextPage();
    },
  };
}

/** POST …/chat: the stored line goes into the cache at once (the room's copy is then ignored). */
export function usePostChatLine(sessionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { text: string; announcement?: boolean }) => api.post<ChatMessage>(chatPath(sessionId), input),
    onSuccess: (line) => update(queryClient, sessionId, (d) => addLine(d, line)),
  });
}

/** POST …/chat/{messageId}/report. */
export function useReportChatLine(sessionId: string) {
  return useMutation({ mutationFn: (messageId: string) => api.post<unknown>(`${linePath(sessionId, messageId)}/report`, {}) });
}

/** GET …/chat/{messageId}/author (moderators): the user a mute or a block is about, asked when a line's menu opens. */
export function useChatAuthor(sessionId: string, messageId: string, enabled: boolean) {
  return useQuery({
    queryKey: [...chatKeys.session(sessionId), 'author', messageId] as const,
    queryFn: ({ signal }) => api.get<ChatAuthor>(`${linePath(sessionId, messageId)}/author`, signal),
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

function isSettings(value: unknown): value is ChatSettings {
  return typeof value === 'object' && value !== null && 'slowModeSeconds' in value && 'pinned' in value;
}

/** The moderators' actions on the chat; each updates this tab's cache at once, the room tells the others. */
export function useChatModeration(sessionId: string) {
  const queryClient = useQueryClient();
  const settled = (answer: unknown) => {
    if (isSettings(answer)) update(queryClient, sessionId, (d) => applySettings(d, answer));
    else void queryClient.invalidateQueries({ queryKey: chatKeys.lines(sessionId) });
  };
  const refreshReports = () => void queryClient.invalidateQueries({ queryKey: chatKeys.reports(sessionId) });
  const refreshMutes = () => void queryClient.invalidateQueries({ queryKey: chatKeys.mutes(sessionId) });
  return {
    remove: useMutation({
      mutationFn: (messageId: string) => api.del<unknown>(linePath(sessionId, messageId)),
      onSuccess: (_answer, messageId) => {
        update(queryClient, sessionId, (d) => removeLine(d, messageId));
        refreshReports();
      },
    }),
    pin: useMutation({
      mutationFn: (messageId: string | null) => api.post<unknown>(`${chatPath(sessionId)}/pin`, { messageId }),
      onSuccess: settled,
    }),
    slowMode: useMutation({
      mutationFn: (slowModeSeconds: SlowModeSeconds) => api.put<unknown>(`${liveSessionPath(sessionId)}/chat-settings`, { slowModeSeconds }),
      onSuccess: settled,
    }),
    mute: useMutation({
      mutationFn: (input: { userId: string; minutes: number | null }) => api.post<unknown>(`${liveSessionPath(sessionId)}/mutes`, input),
      onSuccess: refreshMutes,
    }),
    unmute: useMutation({
      mutationFn: (userId: string) => api.del<unknown>(`${liveSessionPath(sessionId)}/mutes/${encodeURIComponent(userId)}`),
      onSuccess: refreshMutes,
    }),
    block: useMutation({
      mutationFn: (input: { companyId: string; userId: string }) =>
        api.post<BlockAnswer>(`/api/companies/${encodeURIComponent(input.companyId)}/blocks`, { userId: input.userId }),
      onSuccess: refreshMutes,
    }),
  };
}

/** GET …/chat/reports (moderators): the reported lines; asked again every few seconds while shown. */
export function useChatReports(sessionId: string, enabled = true) {
  return useQuery({
    queryKey: chatKeys.reports(sessionId),
    queryFn: ({ signal }) => api.get<{ items: ChatReport[] }>(`${chatPath(sessionId)}/reports`, signal),
    enabled,
    refetchInterval: 10_000,
  });
}

/** GET …/mutes (moderators). */
export function useChatMutes(sessionId: string, enabled = true) {
  return useQuery({
    queryKey: chatKeys.mutes(sessionId),
    queryFn: ({ signal }) => api.get<{ items: SessionMute[] }>(`${liveSessionPath(sessionId)}/mutes`, signal),
    enabled,
  });
}

/** GET|POST|DELETE …/moderators: the session's moderators (owners included, marked). */
export function useSessionModerators(sessionId: string, enabled = true) {
  const queryClient = useQueryClient();
  const key = chatKeys.moderators(sessionId);
  const path = `${liveSessionPath(sessionId)}/moderators`;
  const store = (answer: unknown) => {
    if (typeof answer === 'object' && answer !== null && Array.isArray((answer as { items?: unknown }).items)) queryClient.setQueryData(key, answer);
    else void queryClient.invalidateQueries({ queryKey: key });
  };
  return {
    list: useQuery({ queryKey: key, queryFn: ({ signal }) => api.get<{ items: SessionModerator[] }>(path, signal), enabled }),
    add: useMutation({ mutationFn: (email: string) => api.post<unknown>(path, { email }), onSuccess: store }),
    remove: useMutation({ mutationFn: (userId: string) => api.del<unknown>(`${path}/${encodeURIComponent(userId)}`), onSuccess: store }),
  };
}
