/**
 * A chat line's text before any rule sees it. Two forms come out of what was typed:
 *
 * - the clean text (`cleanChatText`): what is stored and shown. The text as typed, minus the
 *   characters nobody sees and only someone dodging a rule types: zero-width characters, the soft
 *   hyphen, the word joiner, the BOM, direction controls and isolates, the other format
 *   characters, blank fillers, variation selectors beyond one per character, and combining marks
 *   beyond a few per letter ("Zalgo"). Accents, ñ, ¿¡ and emoji (their joiners, skin tones and
 *   flags included) stay exactly as typed.
 * - the canonical text (`canonicalChatText`): for comparing only, never shown. Compatibility
 *   forms folded (NFKC: fullwidth and mathematical letters, ligatures), case folded, accents
 *   removed (as the muted words always did), Cyrillic and Greek look-alikes and small capitals
 *   read as the Latin letters they imitate, spaces collapsed.
 *
 * Pure: the server's rules (muted words, a repeated line) and the composer use the same functions.
 */

/** Combining marks kept after one character: Spanish needs one (á, ñ, ü), Vietnamese two, Thai and Devanagari up to three. */
export const CHAT_MARKS_PER_LETTER = 3;

const MARK = /\p{M}/u;
const FORMAT = /\p{Cf}/u;
const PICTOGRAPHIC = /\p{Extended_Pictographic}/u;
const EMOJI_MODIFIER = /\p{Emoji_Modifier}/u;
const ZWJ = 0x200d;
const BLACK_FLAG = 0x1f3f4;
const CANCEL_TAG = 0xe007f;
const KEYCAP = 0x20e3;

/** Characters that draw nothing though they are not format characters: Hangul fillers, the Braille blank, the grapheme joiner, Khmer's and Mongolian's invisible ones. */
const BLANKS = new Set([0x034f, 0x115f, 0x1160, 0x17b4, 0x17b5, 0x180b, 0x180c, 0x180d, 0x180f, 0x2800, 0x3164, 0xffa0]);

function isVariationSelector(code: number): boolean {
  return (code >= 0xfe00 && code <= 0xfe0f) || (code >= 0xe0100 && code <= 0xe01ef);
}

function isTag(code: number): boolean {
  return code >= 0xe0020 && code <= 0xe007f;
}

/**
 * The text as typed minus its invisible and abusive characters (see the top of this file). Never
 * adds, replaces or reorders a character: what stays is exactly what was typed.
 */
export function cleanChatText(text: string): string {
  const chars = [...text];
  let out = '';
  /** Marks kept since the last character that was not one. */
  let marks = 0;
  let hasSelector = false;
  /** The last kept character was an emoji (or its skin tone, its selector): a joiner may follow it. */
  let afterEmoji = false;
  /** Inside a flag's tag sequence (🏴 then tag letters up to the cancel tag). */
  let inFlagTags = false;
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] as string;
    const code = ch.codePointAt(0) ?? 0;
    if (isTag(code)) {
      if (!inFlagTags) continue;
      out += ch;
      if (code === CANCEL_TAG) inFlagTags = false;
      continue;
    }
    inFlagTags = false;
    if (code === ZWJ) {
      // A joiner between two emoji makes one (👨‍👩‍👧, 🏳️‍🌈); anywhere else it only hides a word.
      const next = chars[i + 1];
      if (afterEmoji && next !== undefined && PICTOGRAPHIC.test(next)) {
        out += ch;
        marks = 0;
        hasSelector = false;
        afterEmoji = false;
      }
      continue;
    }
    if (FORMAT.test(ch) || BLANKS.has(code)) continue;
    if (isVariationSelector(code)) {
      // One selector says how the character before it looks (❤️); more of them carry hidden data.
      if (hasSelector || out === '') continue;
      hasSelector = true;
      out += ch;
      continue;
    }
    if (MARK.test(ch)) {
      if (marks >= CHAT_MARKS_PER_LETTER) continue;
      marks++;
      out += ch;
      continue;
    }
    if (EMOJI_MODIFIER.test(ch)) {
      out += ch;
      continue;
    }
    marks = 0;
    hasSelector = false;
    afterEmoji = PICTOGRAPHIC.test(ch);
    if (code === BLACK_FLAG) inFlagTags = true;
    out += ch;
  }
  return out;
}

/**
 * How many of the text's characters (spaces aside) are combining marks, from 0 to 1. An emoji's
 * own (its variation selector, the keycap of 1️⃣) are part of it, not marks stacked on a letter.
 */
export function markShare(text: string): number {
  let marks = 0;
  let others = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (/\s/u.test(ch) || isVariationSelector(code) || code === KEYCAP) continue;
    if (MARK.test(ch)) marks++;
    else others++;
  }
  return marks + others === 0 ? 0 : marks / (marks + others);
}

/** A line whose characters are more than this share of combining marks is refused ("Zalgo"), not trimmed. */
export const CHAT_MARK_SHARE_MAX = 0.5;

// ── The canonical form ────────────────────────────────────────────────────────

/**
 * Look-alikes of Latin letters from other scripts, and small capitals, as the Latin letter they
 * imitate. Capitals are read before case folding: Greek Η looks like H, its lower case η like n.
 */
const LOOK_ALIKES: Record<string, string> = {
  // Cyrillic capitals and small letters.
  А: 'A',
  В: 'B',
  Е: 'E',
  Ѕ: 'S',
  І: 'I',
  Ј: 'J',
  К: 'K',
  М: 'M',
  Н: 'H',
  О: 'O',
  Р: 'P',
  С: 'C',
  Т: 'T',
  У: 'Y',
  Х: 'X',
  Ү: 'Y',
  Ԁ: 'D',
  Ԛ: 'Q',
  Ԝ: 'W',
  Ӏ: 'I',
  а: 'a',
  в: 'b',
  е: 'e',
  ѕ: 's',
  і: 'i',
  ј: 'j',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  ү: 'y',
  һ: 'h',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  ӏ: 'l',
  ь: 'b',
  // Greek capitals and small letters.
  Α: 'A',
  Β: 'B',
  Ε: 'E',
  Ζ: 'Z',
  Η: 'H',
  Ι: 'I',
  Κ: 'K',
  Μ: 'M',
  Ν: 'N',
  Ο: 'O',
  Ρ: 'P',
  Τ: 'T',
  Υ: 'Y',
  Χ: 'X',
  α: 'a',
  β: 'b',
  γ: 'y',
  ε: 'e',
  η: 'n',
  ι: 'i',
  κ: 'k',
  μ: 'u',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  ω: 'w',
  ϲ: 'c',
  ϳ: 'j',
  // Latin small capitals and other Latin look-alikes (IPA, dotless letters).
  ᴀ: 'a',
  ʙ: 'b',
  ᴄ: 'c',
  ᴅ: 'd',
  ᴇ: 'e',
  ꜰ: 'f',
  ɢ: 'g',
  ʜ: 'h',
  ɪ: 'i',
  ᴊ: 'j',
  ᴋ: 'k',
  ʟ: 'l',
  ᴍ: 'm',
  ɴ: 'n',
  ᴏ: 'o',
  ᴘ: 'p',
  ʀ: 'r',
  ꜱ: 's',
  ᴛ: 't',
  ᴜ: 'u',
  ᴠ: 'v',
  ᴡ: 'w',
  ʏ: 'y',
  ᴢ: 'z',
  ɑ: 'a',
  ɡ: 'g',
  ɩ: 'i',
  ı: 'i',
  ȷ: 'j',
};

const LOOK_ALIKE_PATTERN = new RegExp(`[${Object.keys(LOOK_ALIKES).join('')}]`, 'gu');

function foldLookAlikes(text: string): string {
  return text.replace(LOOK_ALIKE_PATTERN, (ch) => LOOK_ALIKES[ch] ?? ch);
}

const MARKS = /\p{M}/gu;

/**
 * The form two texts are compared in (never shown): cleaned, compatibility forms folded, case
 * folded (ß as ss), accents removed, look-alikes read as Latin letters, spaces collapsed.
 * Idempotent: the canonical text of a canonical text is itself.
 */
export function canonicalChatText(text: string): string {
  let out = cleanChatText(text).normalize('NFKD');
  out = foldLookAlikes(out.replace(MARKS, ''));
  // Upper then lower case folds ß to ss; lower casing can bring marks back (İ → i̇), so they go again.
  out = out.toUpperCase().toLowerCase().normalize('NFKD').replace(MARKS, '');
  out = foldLookAlikes(out);
  // What cleaning keeps inside emoji sequences (the joiner, a flag's tags) compares as nothing; their selectors went with the marks.
  out = out.replace(/\u200d|[\u{e0020}-\u{e007f}]/gu, '');
  return out.replace(/\s+/gu, ' ').trim();
}

// ── What the rules compare ────────────────────────────────────────────────────

/** Digits and signs written for letters inside a word ("3st4f4", "e$tafa"); `1` is read both as i and as l. */
const LEET: Record<string, string> = { '0': 'o', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', $: 's' };
const LEET_WORD = /[\p{L}\p{N}@$]+/gu;

/**
 * A word mixing letters with digits or signs written for letters, read as letters. Only such
 * words change: a price ("500", "$1,200") or a lot number has no letter and stays as it is.
 */
function foldLeet(canonical: string, one: 'i' | 'l'): string {
  return canonical.replace(LEET_WORD, (word) => {
    if (!/\p{L}/u.test(word) || !/[0-9@$]/.test(word)) return word;
    return word.replace(/[0134579@$]/g, (ch) => (ch === '1' ? one : (LEET[ch] ?? ch)));
  });
}

/** Letters written apart to split a word ("e s t a f a", "e.s.t.a.f.a"): three or more single letters in a row, joined. */
function joinSpacedLetters(canonical: string): string {
  return canonical.replace(/(?<![\p{L}\p{N}])\p{L}(?:[^\p{L}\p{N}]{1,3}\p{L}(?![\p{L}\p{N}])){2,}/gu, (run) => run.replace(/[^\p{L}]/gu, ''));
}

/**
 * The readings of a line a muted word is looked for in: its canonical text, and that text with
 * digits written for letters read as letters, and with letters written apart joined.
 */
export function chatTextReadings(text: string): string[] {
  const canonical = canonicalChatText(text);
  const readings = new Set([canonical, foldLeet(canonical, 'i'), foldLeet(canonical, 'l')]);
  for (const reading of [...readings]) readings.add(joinSpacedLetters(reading));
  return [...readings];
}

/**
 * How a line is compared with its writer's previous one (the repeated-line rule): its canonical
 * text without punctuation or symbols, so "¡Hola!!" repeats "hola"; a line of only those (emoji,
 * "???") keeps them, so it still compares with something.
 */
export function chatRepeatKey(text: string): string {
  const canonical = canonicalChatText(text);
  const words = canonical
    .replace(/[^\p{L}\p{N}\s]/gu, '')
    .replace(/\s+/gu, ' ')
    .trim();
  return words || canonical;
}

const ESCAPE = /[.*+?^${}()|[\]\\]/g;
const matchers = new Map<string, (readings: string[]) => boolean>();
const MATCHERS_KEPT = 64;

/** One compiled matcher per list of words (a company's list changes rarely; a busy show asks for it per line). */
function matcherFor(words: readonly string[]): (readings: string[]) => boolean {
  const key = words.join('\u0000');
  const known = matchers.get(key);
  if (known) return known;
  const patterns = [...new Set(words.map((w) => canonicalChatText(w)).filter(Boolean))].map(
    (word) => new RegExp(`(^|[^\\p{L}\\p{N}])${word.replace(ESCAPE, '\\$&')}($|[^\\p{L}\\p{N}])`, 'u'),
  );
  const matcher = (readings: string[]) => patterns.some((pattern) => readings.some((reading) => pattern.test(reading)));
  if (matchers.size >= MATCHERS_KEPT) matchers.delete(matchers.keys().next().value as string);
  matchers.set(key, matcher);
  return matcher;
}

/**
 * Whether a line holds one of the muted words, as a whole word, in any of its readings: case,
 * accents, invisible characters, look-alike letters, digits for letters and letters written apart
 * do not hide it.
 */
export function holdsMutedWord(text: string, words: readonly string[]): boolean {
  if (words.length === 0) return false;
  return matcherFor(words)(chatTextReadings(text));
}
