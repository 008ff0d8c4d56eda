/**
 * The rules for text the API accepts (docs/reference/api.md, "Text"), the same on every read-store engine:
 * stored in NFC; refused with U+0000 (PostgreSQL jsonb, FerretDB's backend, refuses it) or a
 * lone surrogate (no character: SQLite kept it, MongoDB wrote U+FFFD); blank when nothing is
 * left without whitespace, format characters (zero-width space, joiners, BOM: \p{Cf}), the
 * characters Unicode says to show as nothing (\p{Default_Ignorable_Code_Point}: the Hangul
 * fillers U+3164 and U+115F, variation selectors) and the blank Braille pattern U+2800, which
 * render as an empty message (an attacker's trial posted messages of each).
 */
export const unfitText = (s: string): string | null => (/\0|\p{Cs}/u.test(s) ? 'must not contain U+0000 or a lone surrogate' : null);

export const isBlank = (s: string): boolean => s.replace(/[\s\p{Cf}\p{Default_Ignorable_Code_Point}\u2800]/gu, '') === '';

/** Tags as kept: trimmed, the empty ones dropped, each once, in the order first given. */
export const uniqueTags = (tags: readonly string[]): string[] => [...new Set(tags.map((tag) => tag.trim()).filter(Boolean))];

/** NFC: a composed and a decomposed "café" are one text. */
export const normalText = (s: string): string => s.normalize('NFC');
