import { messages } from '../../messages.js';

const t = messages.signIn;

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

/** A small server-rendered page in the site's look (sign-in, provider connection). `body` is trusted HTML. */
export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="es-MX">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Martillo</title>
<style>
  body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: #f4f5f7; color: #1a1b1e; margin: 0; }
  main { max-width: 440px; margin: 8vh auto; background: #fff; border-radius: 12px; padding: 28px; box-shadow: 0 2px 12px rgba(0,0,0,.08); }
  h1 { font-size: 1.35rem; margin: 0 0 12px; }
  p { line-height: 1.5; }
  .banner { background: #fff4e6; border: 1px solid #ffc078; color: #7c3a00; padding: 10px 12px; border-radius: 8px; font-size: .9rem; }
  label { display: block; font-weight: 600; margin: 16px 0 6px; }
  input { width: 100%; box-sizing: border-box; padding: 10px; border: 1px solid #ced4da; border-radius: 8px; font-size: 1rem; }
  input[aria-invalid="true"] { border-color: #e03131; }
  .field-error { color: #c92a2a; font-size: .85rem; margin: 6px 0 0; }
  button, .button { display: inline-block; margin-top: 20px; padding: 10px 18px; border: 0; border-radius: 8px; background: #c2410c; color: #fff; font-size: 1rem; text-decoration: none; cursor: pointer; }
  .secondary { background: #e9ecef; color: #1a1b1e; margin-left: 8px; }
  ul { padding: 0; list-style: none; }
  li form { display: inline; }
  li button { margin: 6px 0 0; background: #fff; color: #1a1b1e; border: 1px solid #ced4da; width: 100%; text-align: left; }
  small { color: #495057; }
</style>
</head>
<body><main>${body}</main></body>
</html>`;
}

/** The failure page of a sign-in: what happened in Spanish, and a way back. Never a stack trace. */
export function signInErrorPage(message: string, retryHref: string): string {
  return page(
    t.errorTitle,
    `<h1>${escapeHtml(t.errorTitle)}</h1>
<p role="alert">${escapeHtml(message)}</p>
<a class="button" href="${escapeHtml(retryHref)}">${escapeHtml(t.back)}</a>
<a class="button secondary" href="/admin">${escapeHtml(t.home)}</a>`,
  );
}

export interface DevAccount {
  email: string;
  name: string;
  roles: string[];
  companyName: string | null;
}

/** The development sign-in form: clearly marked, only served outside production without Google. */
export function devSignInPage(opts: {
  returnTo: string;
  email?: string;
  name?: string;
  errors?: Record<string, string>;
  accounts: DevAccount[];
  emptyDatabase: boolean;
}): string {
  const err = opts.errors ?? {};
  const field = (name: 'email' | 'name', label: string, type: string, autocomplete: string) => `
<label for="${name}">${escapeHtml(label)}</label>
<input id="${name}" name="${name}" type="${type}" autocomplete="${autocomplete}" required value="${escapeHtml(opts[name] ?? '')}"${err[name] ? ` aria-invalid="true" aria-describedby="${name}-error"` : ''}>
${err[name] ? `<p class="field-error" id="${name}-error">${escapeHtml(err[name])}</p>` : ''}`;
  const roleNames: Record<string, string> = t.devRoles;
  const accounts = opts.accounts.length
    ? `<h2>${escapeHtml(t.devExisting)}</h2><small>${escapeHtml(t.devExistingHint)}</small><ul>${opts.accounts
        .map(
          (a) => `<li><form method="post" action="/auth/dev">
<input type="hidden" name="email" value="${escapeHtml(a.email)}"><input type="hidden" name="name" value="${escapeHtml(a.name)}">
<input type="hidden" name="returnTo" value="${escapeHtml(opts.returnTo)}">
<button type="submit">${escapeHtml(a.name)} · ${escapeHtml(a.email)} <small>(${escapeHtml([a.roles.map((r) => roleNames[r] ?? r).join(', '), a.companyName].filter(Boolean).join(' · '))})</small></button>
</form></li>`,
        )
        .join('')}</ul>`
    : '';
  return page(
    t.devTitle,
    `<h1>${escapeHtml(t.devTitle)}</h1>
<p class="banner" role="note">${escapeHtml(t.devBanner)}${opts.emptyDatabase ? ` ${escapeHtml(t.devFirstAdmin)}` : ''}</p>
<form method="post" action="/auth/dev" novalidate>
<input type="hidden" name="returnTo" value="${escapeHtml(opts.returnTo)}">
${field('email', t.devEmail, 'email', 'email')}
${field('name', t.devName, 'text', 'name')}
<button type="submit">${escapeHtml(t.devSubmit)}</button>
</form>
${accounts}`,
  );
}
