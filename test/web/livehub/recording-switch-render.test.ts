import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PublicConfig } from '../../../src/domain/api-types';
import type { VideoProviderName } from '../../../src/domain/video';
import { configKeys } from '../../../src/web/api/config';
import { createQueryClient } from '../../../src/web/api/query-client';
import { loadPanelStrings } from '../../../src/web/i18n';
import es from '../../../src/web/i18n/es-MX.json';
import { RecordingSwitch } from '../../../src/web/livehub/session-fields';
import { EMPTY_CREATE_VALUES, editValuesFrom, parseCreateSession, parseEditSession } from '../../../src/web/livehub/session-form';
import { theme } from '../../../src/web/theme';
import { session } from '../../support/live-hub-fixtures';

/** 'Grabar el show' rendered by the real component for each video provider, and how the forms send it. */

const rec = es.livehub.recording;

function render(provider: VideoProviderName, checked: boolean): string {
  const queryClient = createQueryClient();
  const config: PublicConfig = { signIn: 'development', payments: 'sandbox', video: { provider, iceServers: [] } };
  queryClient.setQueryData(configKeys.all, config);
  return renderToStaticMarkup(
    createElement(
      MantineProvider,
      { theme },
      createElement(QueryClientProvider, { client: queryClient }, createElement(RecordingSwitch, { checked, onChange: () => undefined })),
    ),
  );
}

const inputOf = (html: string) => html.match(/<input[^>]*data-testid="session-recording"[^>]*>|<input[^>]*type="checkbox"[^>]*>/)?.[0] ?? '';

beforeAll(async () => {
  await loadPanelStrings();
});

describe("'Grabar el show'", () => {
  it('with Agora, is off and disabled, and says recording needs the built-in SFU or Janus', () => {
    const html = render('agora', true);
    const input = inputOf(html);
    expect(html).toContain(rec.label);
    expect(html).toContain(rec.needsRecorder);
    expect(rec.needsRecorder).toBe('La grabación necesita el SFU integrado o Janus.');
    expect(input).toContain('disabled');
    expect(input).not.toMatch(/\schecked/);
  });

  it('with the embedded SFU or Janus, follows the session and can be turned', () => {
    for (const provider of ['embedded', 'janus'] as const) {
      const on = inputOf(render(provider, true));
      expect(on).not.toContain('disabled');
      expect(on).toMatch(/\schecked/);
      const off = render(provider, false);
      expect(inputOf(off)).not.toMatch(/\schecked/);
      expect(off).toContain(rec.hint);
      expect(off).not.toContain(rec.needsRecorder);
    }
  });
});

describe('how the forms send it', () => {
  const AT = Date.UTC(2030, 0, 2, 18);
  const created = { ...EMPTY_CREATE_VALUES, title: 'Relojes', scheduledAt: AT };

  it("'Crear Sesión' leaves it out until the seller turns it, so the company's default applies", () => {
    const untouched = parseCreateSession(created);
    expect(untouched.ok && 'recording' in untouched.value).toBe(false);
    expect(parseCreateSession({ ...created, recording: false })).toEqual({ ok: true, value: expect.objectContaining({ recording: false }) });
    expect(parseCreateSession({ ...created, recording: true })).toEqual({ ok: true, value: expect.objectContaining({ recording: true }) });
  });

  it("'Editar Sesión' starts from the session and saves it with the other fields", () => {
    const values = editValuesFrom(session({ recording: false }));
    expect(values.recording).toBe(false);
    expect(parseEditSession(values)).toEqual({ ok: true, value: expect.objectContaining({ recording: false }) });
    expect(parseEditSession({ ...values, recording: true })).toEqual({ ok: true, value: expect.objectContaining({ recording: true }) });
  });
});
