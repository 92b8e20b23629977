import { api, apiRequest } from './client';

/** GET /api/push/public-key: the server's VAPID public key, base64url. */
export interface PushPublicKey {
  publicKey: string;
}

export function fetchPushPublicKey(): Promise<PushPublicKey> {
  return api.get<PushPublicKey>('/api/push/public-key');
}

/** POST /api/push/subscriptions with the browser's PushSubscription JSON (endpoint, keys): 201. */
export function saveSubscription(subscription: PushSubscriptionJSON): Promise<unknown> {
  return api.post<unknown>('/api/push/subscriptions', subscription);
}

/** DELETE /api/push/subscriptions { endpoint }: this browser stops receiving alerts. */
export function deleteSubscription(endpoint: string): Promise<unknown> {
  return apiRequest<unknown>('/api/push/subscriptions', { method: 'DELETE', body: { endpoint } });
}
