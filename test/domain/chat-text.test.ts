import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { CHAT_TEXT_MAX, chatTextProblem, containsMutedWord, mutedWordsIssues } from '../../src/domain/chat.js';
import { CHAT_MARKS_PER_LETTER, canonicalChatText, chatRepeatKey, chatTextReadings, cleanChatText, markShare } from '../../src/domain/chat-text.js';

/**
 * A chat line's text before the rules see it: what is stored (the text as typed minus invisible
 * and abusive characters) and what is compared (the canonical form), so that neither a muted word
 * nor a repeated line hides behind characters nobody sees or letters that only look Latin.
 */

// fast-check's first string of any code point takes about 2 s to set up (its tables of every code
// point), which a busy machine stretched past a test's 5 s: it is set up once here, with room for that.
beforeAll(() => {
  fc.sample(fc.string({ unit: 'binary', maxLength: 1 }), 1);
}, 60_000);

/** Each invisible character a line could hide a word with, by name. */
const INVISIBLES: [string, string][] = [
  ['zero-width space', '\u200B'],
  ['zero-width non-joiner', '\u200C'],
  ['zero-width joiner', '\u200D'],
  ['soft hyphen', '\u00AD'],
  ['word joiner', '\u2060'],
  ['byte order mark', '\uFEFF'],
  ['left-to-right mark', '\u200E'],
  ['right-to-left mark', '\u200F'],
  ['right-to-left override', '\u202E'],
  ['left-to-right embedding', '\u202A'],
  ['pop directional formatting', '\u202C'],
  ['first strong isolate', '\u2068'],
  ['pop directional isolate', '\u2069'],
  ['Arabic letter mark', '\u061C'],
  ['invisible times', '\u2062'],
  ['Mongolian vowel separator', '\u180E'],
  ['combining grapheme joiner', '\u034F'],
  ['Hangul filler', '\u3164'],
  ['halfwidth Hangul filler', '\uFFA0'],
  ['Braille blank', '\u2800'],
  ['tag letter', '\u{E0061}'],
  ['interlinear annotation anchor', '\uFFF9'],
];

/** Legitimate Spanish (and a little more) that must come out exactly as typed. */
const LEGIT = [
  '¿Cuánto cuesta el envío a Guadalajara?',
  '¡Qué bonito! Me encanta 😍🔥',
  'Señora Muñoz, ¿tiene más pingüinos de cerámica?',
  'ÁÉÍÓÚ áéíóú Üü Ññ ¿¡',
  'Te doy $1,200 por el lote 4 👍🏽',
  'Familia 👨‍👩‍👧‍👦 y bandera 🏳️‍🌈 y 🇲🇽',
  'Escocia 🏴󠁧󠁢󠁳󠁣󠁴󠁿 y corazón ❤️ y 1️⃣2️⃣3️⃣',
  'Cafe\u0301 con leche', // an accent typed as a combining mark
  'Việt Nam, नमस्ते, สวัสดีครับ, Ελλάδα, Москва',
  '  espacios   alrededor  ',
  '<b>HTML</b> https://ejemplo.mx',
];

describe('the stored text', () => {
  it.each(INVISIBLES)('drops a %s', (_name, ch) => {
    expect(cleanChatText(`es${ch}ta${ch}fa`)).toBe('estafa');
    expect(cleanChatText(`${ch}hola${ch}`)).toBe('hola');
  });

  it.each(LEGIT)('keeps legitimate text exactly as typed: %s', (text) => {
    expect(cleanChatText(text)).toBe(text);
    expect(chatTextProblem(text)).toBeNull();
  });

  it('keeps a joiner only inside an emoji sequence, and tags only inside a flag', () => {
    expect(cleanChatText('👩\u200D💻')).toBe('👩\u200D💻');
    expect(cleanChatText('👍🏽\u200D👍')).toBe('👍🏽\u200D👍');
    expect(cleanChatText('a\u200D💻')).toBe('a💻');
    expect(cleanChatText('👩\u200Dx')).toBe('👩x');
    expect(cleanChatText('👩\u200D')).toBe('👩');
    expect(cleanChatText('hola\u{E0068}\u{E0069}')).toBe('hola');
    expect(cleanChatText('🏴\u{E0067}\u{E0062}\u{E007F}')).toBe('🏴\u{E0067}\u{E0062}\u{E007F}');
    // A flag's tags end at its cancel tag: more after it are hidden data.
    expect(cleanChatText('🏴\u{E0067}\u{E007F}\u{E0068}x')).toBe('🏴\u{E0067}\u{E007F}x');
  });

  it('keeps one variation selector per character, dropping the rest (data hidden in emoji)', () => {
    expect(cleanChatText('❤\uFE0F')).toBe('❤\uFE0F');
    expect(cleanChatText(`😀${'\u{E0100}\u{E0142}\uFE01'.repeat(20)}`)).toBe('😀\u{E0100}');
    expect(cleanChatText('\uFE0Fhola')).toBe('hola');
  });

  it(`caps combining marks at ${CHAT_MARKS_PER_LETTER} per letter ("Zalgo"), keeping the letter and its first marks`, () => {
    const zalgo = `Z${'\u0301\u0302\u0303\u0304\u0305\u0306'}ona norte`;
    expect(cleanChatText(zalgo)).toBe('Z\u0301\u0302\u0303ona norte');
    expect(chatTextProblem(zalgo)).toBeNull();
    // Vietnamese's two marks on a letter, decomposed, stay.
    expect(cleanChatText('Vie\u0323\u0302t')).toBe('Vie\u0323\u0302t');
  });

  it('never adds, changes or reorders a character: it only leaves some out, once and for all', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (text) => {
        const clean = cleanChatText(text);
        // A subsequence of the code points typed.
        const typed = [...text];
        let at = 0;
        for (const ch of clean) {
          while (at < typed.length && typed[at] !== ch) at++;
          expect(at).toBeLessThan(typed.length);
          at++;
        }
        expect(cleanChatText(clean)).toBe(clean);
      }),
      { numRuns: 500 },
    );
  });

  it('leaves text without invisible characters or stacked marks as it is', () => {
    const visible = fc.constantFrom(...[...'abcdefghijklmnñopqrstuvwxyzÁÉÍÓÚáéíóúüÜ¿¡?!.,$0123456789 '], '😍', '🔥', '👍🏽', '🇲🇽');
    fc.assert(
      fc.property(fc.array(visible, { maxLength: 50 }), (chars) => {
        const text = chars.join('');
        expect(cleanChatText(text)).toBe(text);
      }),
    );
  });
});

describe('the canonical form (for comparing only)', () => {
  it('folds case, accents, compatibility forms and spaces', () => {
    expect(canonicalChatText('  ESTAFA   Pésima ')).toBe('estafa pesima');
    expect(canonicalChatText('ＥＳＴＡＦＡ')).toBe('estafa'); // fullwidth
    expect(canonicalChatText('𝐞𝐬𝐭𝐚𝐟𝐚 𝖊𝖘𝖙𝖆𝖋𝖆 𝓮𝓼𝓽𝓪𝓯𝓪')).toBe('estafa estafa estafa'); // mathematical letters
    expect(canonicalChatText('ⓔⓢⓣⓐⓕⓐ')).toBe('estafa'); // circled letters
    expect(canonicalChatText('ﬁesta')).toBe('fiesta'); // a ligature
    expect(canonicalChatText('straße İstanbul')).toBe('strasse istanbul');
    expect(canonicalChatText('Cafe\u0301')).toBe(canonicalChatText('Café'));
  });

  it('reads Cyrillic and Greek look-alikes and small capitals as the Latin letters they imitate', () => {
    expect(canonicalChatText('еstаfа')).toBe('estafa'); // Cyrillic е and а
    expect(canonicalChatText('ЕЅТАҒА'.replace('Ғ', 'F'))).toBe('estafa'); // Cyrillic capitals
    expect(canonicalChatText('ΕΣΤΑFΑ'.replace('Σ', 'S'))).toBe('estafa'); // Greek capitals
    expect(canonicalChatText('ρеѕо')).toBe('peso');
    expect(canonicalChatText('ᴇsᴛᴀꜰᴀ')).toBe('estafa'); // small capitals
    expect(canonicalChatText('Η')).toBe('h'); // Greek capital eta looks like H...
    expect(canonicalChatText('η')).toBe('n'); // ...its small letter like n
  });

  it('does not see a word hidden by invisible characters', () => {
    for (const [, ch] of INVISIBLES) expect(canonicalChatText(`es${ch}ta${ch}fa`)).toBe('estafa');
  });

  it('is its own canonical form', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (text) => {
        const canonical = canonicalChatText(text);
        expect(canonicalChatText(canonical)).toBe(canonical);
      }),
      { numRuns: 500 },
    );
  });

  it('is the same whatever invisible characters are slipped into a text', () => {
    const word = fc.constantFrom('estafa', 'fraude', 'Pésimo servicio', '¿Cuánto?', 'hola a todos 🔥');
    const invisible = fc.constantFrom(...INVISIBLES.map(([, ch]) => ch).filter((ch) => ch !== '\u034F'));
    fc.assert(
      fc.property(word, fc.array(fc.tuple(fc.nat(), invisible), { maxLength: 6 }), (text, inserts) => {
        const chars = [...text];
        for (const [at, ch] of inserts) chars.splice(at % (chars.length + 1), 0, ch);
        expect(canonicalChatText(chars.join(''))).toBe(canonicalChatText(text));
      }),
    );
  });
});

describe('what the rules refuse', () => {
  it('refuses a line with nothing visible once its invisible characters are gone', () => {
    expect(chatTextProblem('\u200B\u200B\u200B')).toBe('blank');
    expect(chatTextProblem(' \u2060 \u00AD ')).toBe('blank');
    expect(chatTextProblem('\u3164\u3164')).toBe('blank');
    expect(chatTextProblem('\u2800')).toBe('blank');
    expect(chatTextProblem('\u202E\u2066\u2069')).toBe('blank');
    // Spaces only were already 'empty'.
    expect(chatTextProblem('   ')).toBe('empty');
  });

  it('refuses a line that is mostly combining marks', () => {
    const zalgo = 'h̸̡̪̯ͨ͊̽̅̾̎e̷̢̛̱̞l̶̨̛̖l̵̢̛o̴̧̢̕';
    expect(markShare(zalgo)).toBeGreaterThan(0.5);
    expect(chatTextProblem(zalgo)).toBe('tooManyMarks');
    expect(chatTextProblem('\u0301\u0301\u0301')).toBe('tooManyMarks');
    // Emoji keycaps and selectors are not marks stacked on letters.
    expect(chatTextProblem('1️⃣2️⃣3️⃣ ❤️❤️')).toBeNull();
  });

  it('counts the length of the text as stored', () => {
    expect(chatTextProblem(`${'a'.repeat(CHAT_TEXT_MAX)}\u200B\u200B`)).toBeNull();
    expect(chatTextProblem('a'.repeat(CHAT_TEXT_MAX + 1))).toBe('tooLong');
  });

  it('refuses new lines of any kind', () => {
    expect(chatTextProblem('uno\u2028dos')).toBe('invalidCharacters');
    expect(chatTextProblem('uno\u2029dos')).toBe('invalidCharacters');
  });
});

describe('muted words', () => {
  const words = ['estafa', 'ladrón', 'muy malo'];

  it('are found through invisible characters, look-alikes, fullwidth and mathematical letters', () => {
    for (const line of [
      'Esto es una es\u200Btafa',
      'Esto es una e\u00ADs\u2060t\uFEFFa\u200Cf\u200Da',
      'Esto es una \u202Eestafa',
      'Esto es una еstаfа', // Cyrillic
      'Esto es una ЕЅТАFА', // Cyrillic capitals
      'Esto es una ＥＳＴＡＦＡ',
      'Esto es una 𝐞𝐬𝐭𝐚𝐟𝐚',
      'Esto es una ᴇꜱᴛᴀꜰᴀ',
      'Es un LADRON',
      'es un ladr\u200Bón',
      'MUY  MALO el servicio',
    ])
      expect(containsMutedWord(line, words), line).toBe(true);
  });

  it('are found with digits written for letters, and with letters written apart', () => {
    for (const line of ['una 3st4f4', 'un l4dr0n', 'un 1adron', 'una e$tafa', 'una e s t a f a', 'una e.s.t.a.f.a', 'una e-s-t-a-f-a'])
      expect(containsMutedWord(line, words), line).toBe(true);
  });

  it('do not catch innocent lines: prices, lot numbers, words that merely contain them', () => {
    for (const line of ['Te doy $500 por el lote 3', 'Lote 4 a $1,200', '¿Es estafador o no?', 'muy malon', 'Hola a todos', 'Tengo 3 y 4 más'])
      expect(containsMutedWord(line, words), line).toBe(false);
    expect(containsMutedWord('cualquier cosa', [])).toBe(false);
  });

  it('are matched in their own canonical form, and a look-alike of a saved word is a repeat of it', () => {
    expect(containsMutedWord('una estafa', ['ЕSTAFA'])).toBe(true);
    expect(mutedWordsIssues(['estafa', 'еstafa'])).toEqual([{ index: 1, problem: 'duplicate', duplicateOf: 0 }]);
  });

  it('are read in each of a line’s readings, and only a word with letters is read with digits as letters', () => {
    expect(chatTextReadings('3st4f4 $500')).toContain('estafa $500');
    expect(chatTextReadings('lote 4')).toEqual(['lote 4']);
  });
});

describe('the repeated-line key', () => {
  it('sees through invisible characters, look-alikes, case, accents and punctuation', () => {
    const key = chatRepeatKey('¿Cuánto cuesta?');
    for (const line of ['cuanto cuesta', '¿¿CUÁNTO CUESTA??', '¿Cuánto\u200B cuesta?', '¿Cuántо cuеsta?', 'Cuánto  cuesta!!!'])
      expect(chatRepeatKey(line), line).toBe(key);
    expect(chatRepeatKey('¿Cuánto cuesta el envío?')).not.toBe(key);
  });
});
