import { describe, expect, it } from 'vitest';
import { CHAT_TEXT_MAX, chatPublicName, chatTextProblem, containsMutedWord } from '../../src/domain/chat.js';
import { ZChatSettingsInput, ZMuteInput } from '../../src/domain/chat-inputs.js';

describe('a chat line as typed', () => {
  it('takes plain text up to the limit, emoji counted as one character each', () => {
    expect(chatTextProblem('¿Cuánto mide la mesa?')).toBeNull();
    expect(chatTextProblem('🔥'.repeat(CHAT_TEXT_MAX))).toBeNull();
    expect(chatTextProblem('<b>hola</b> https://ejemplo.mx')).toBeNull();
  });

  it('refuses a line over the limit, and one of spaces only', () => {
    expect(chatTextProblem('a'.repeat(CHAT_TEXT_MAX + 1))).toBe('tooLong');
    expect(chatTextProblem('x'.repeat(10_000))).toBe('tooLong');
    expect(chatTextProblem('   ')).toBe('empty');
    expect(chatTextProblem('')).toBe('empty');
  });

  it.each([
    ['NUL', 'hola\u0000'],
    ['a new line', 'hola\nadiós'],
    ['a C1 control', 'hola\u0085'],
    ['a lone high surrogate', 'hola\uD83D'],
    ['a lone low surrogate', '\uDE00hola'],
  ])('refuses %s', (_label, text) => {
    expect(chatTextProblem(text)).toBe('invalidCharacters');
  });
});

describe('the public name in the chat', () => {
  it('is the first name and the initial of the last name', () => {
    expect(chatPublicName({ firstName: 'Sofía', lastName: 'Ramírez', displayName: null })).toBe('Sofía R.');
    expect(chatPublicName({ firstName: 'Ana María', lastName: 'Óñate López', displayName: 'Anita' })).toBe('Ana Ó.');
  });

  it('falls back to the display name, shortened the same way, and never to nothing', () => {
    expect(chatPublicName({ firstName: null, lastName: null, displayName: 'Tienda Luna' })).toBe('Tienda L.');
    expect(chatPublicName({ firstName: '  ', lastName: null, displayName: null })).toBe('Participante');
  });
});

describe('muted words', () => {
  const words = ['estafa', 'pésimo'];

  it('match a whole word, whatever its case and accents', () => {
    expect(containsMutedWord('Esto es una ESTAFA!', words)).toBe(true);
    expect(containsMutedWord('servicio pesimo', words)).toBe(true);
  });

  it('do not match inside another word, nor when the list is empty', () => {
    expect(containsMutedWord('estafadores no', ['estafa'])).toBe(false);
    expect(containsMutedWord('cualquier cosa', [])).toBe(false);
  });

  it('are matched literally, not as patterns', () => {
    expect(containsMutedWord('precio a.b', ['a.b'])).toBe(true);
    expect(containsMutedWord('precio axb', ['a.b'])).toBe(false);
  });
});

describe('moderation inputs', () => {
  it('slow mode takes only the offered steps', () => {
    expect(ZChatSettingsInput.safeParse({ slowModeSeconds: 10 }).success).toBe(true);
    expect(ZChatSettingsInput.safeParse({ slowModeSeconds: 7 }).success).toBe(false);
  });

  it('a mute is minutes or null for the whole show', () => {
    const userId = '6f1c2d3e-4a5b-4c6d-8e7f-8091a2b3c4d5';
    expect(ZMuteInput.safeParse({ userId, minutes: 5 }).success).toBe(true);
    expect(ZMuteInput.safeParse({ userId, minutes: null }).success).toBe(true);
    expect(ZMuteInput.safeParse({ userId, minutes: 0 }).success).toBe(false);
    expect(ZMuteInput.safeParse({ userId }).success).toBe(false);
  });
});
