import type { VideoProviderName } from '../../domain/video.js';
import type { VideoClient } from './types';

/** The configured provider's browser module. */
export async function loadVideoClient(provider: VideoProviderName): Promise<VideoClient> {
  switch (provider) {
    case 'embedded':
      return (await import('./embedded')).embeddedClient;
    case 'janus':
      return (await import('./janus')).janusClient;
    case 'agora':
      return (await import('./agora')).agoraClient;
  }
}
