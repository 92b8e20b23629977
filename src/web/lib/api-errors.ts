import { isApiError, NETWORK_ERROR_STATUS } from '../api/client';

/**
 * The server's own explanation of a failed call, to show after SPEC's fixed message
 * ('No se pudo añadir la categoría.' + 'Ya existe una categoría con ese nombre.'). The API's
 * messages are Spanish and meant for the UI; a 5xx or an unknown failure has no useful reason.
 */
export function failureReason(error: unknown, opts: { field?: string; networkMessage: string }): string | null {
  if (!isApiError(error)) return null;
  if (error.status === NETWORK_ERROR_STATUS) return opts.networkMessage;
  if (error.status >= 500) return null;
  const fieldMessage = (opts.field && error.fields[opts.field]) || Object.values(error.fields)[0];
  return fieldMessage || error.message || null;
}

/**
 * What to tell the user about a failed call: the server's Spanish message when it sent one, the
 * network text when nothing answered, and `fallback` for anything else.
 */
export function apiErrorText(error: unknown, opts: { networkMessage: string; fallback: string }): string {
  if (!isApiError(error)) return opts.fallback;
  if (error.status === NETWORK_ERROR_STATUS) return opts.networkMessage;
  // An answer without our JSON error body (a proxy's 502 page, say) has no message worth showing.
  return error.code.startsWith('HTTP_') ? opts.fallback : error.message;
}
