/**
 * janode 1.8.0 ships JavaScript without declarations: this is the part Martillo uses (the Janus
 * provider and its tests). Plugin errors reject with an Error whose message starts with Janus's
 * code ("427 Room 1 already exists") and whose `_code` holds it.
 */
declare module 'janode' {
  import type { EventEmitter } from 'node:events';

  export interface JanodeHandle extends EventEmitter {
    readonly id: number;
    /** A raw plugin request: resolves with Janus's answer, rejects on a plugin error. */
    message(
      body: Record<string, unknown>,
      jsep?: { type: string; sdp: string },
    ): Promise<{ plugindata?: { data?: Record<string, unknown> }; jsep?: { type: string; sdp: string } }>;
    detach(): Promise<void>;
  }
  export interface JanodeSession extends EventEmitter {
    readonly id: number;
    attach<H extends JanodeHandle>(plugin: { id: string; Handle: new (...args: never[]) => H }): Promise<H>;
    destroy(): Promise<void>;
  }
  export interface JanodeConnection extends EventEmitter {
    create(kaIntervalSeconds?: number): Promise<JanodeSession>;
    close(): Promise<void>;
  }
  export interface JanodeConfig {
    address: { url: string; apisecret?: string } | { url: string; apisecret?: string }[];
    retry_time_secs?: number;
    max_retries?: number;
  }
  const Janode: {
    connect(config: JanodeConfig): Promise<JanodeConnection>;
    Logger: { setLevel(level: 'debug' | 'verb' | 'info' | 'warn' | 'error' | 'none'): string };
    EVENT: {
      CONNECTION_CLOSED: 'connection_closed';
      CONNECTION_ERROR: 'connection_error';
      SESSION_DESTROYED: 'session_destroyed';
      HANDLE_DETACHED: 'handle_detached';
    };
  };
  export default Janode;
}

declare module 'janode/plugins/videoroom' {
  import type { JanodeHandle } from 'janode';

  export interface VideoRoomHandle extends JanodeHandle {
    joinPublisher(params: { room: number; feed?: number; display?: string; token?: string }): Promise<{ room: number; feed: number }>;
    joinSubscriber(params: { room: number; feed: number; token?: string }): Promise<{ room: number; feed: number; jsep?: { type: string; sdp: string } }>;
    listParticipants(params: {
      room: number;
      secret?: string;
    }): Promise<{ room: number; participants: { feed: number; display?: string; publisher: boolean }[] }>;
    exists(params: { room: number }): Promise<{ room: number; exists: boolean }>;
    list(params?: { admin_key?: string }): Promise<{ list: { room: number; description?: string }[] }>;
    destroy(params: { room: number; secret?: string; permanent?: boolean }): Promise<{ room: number }>;
    leave(): Promise<unknown>;
  }
  const VideoRoomPlugin: {
    id: 'janus.plugin.videoroom';
    Handle: new (...args: never[]) => VideoRoomHandle;
    EVENT: Record<string, string>;
  };
  export default VideoRoomPlugin;
}

declare module 'janode/plugins/streaming' {
  import type { JanodeHandle } from 'janode';

  const StreamingPlugin: {
    id: 'janus.plugin.streaming';
    Handle: new (...args: never[]) => JanodeHandle;
    EVENT: Record<string, string>;
  };
  export default StreamingPlugin;
}
