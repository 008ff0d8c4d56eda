/**
 * Markdown as the grounded responder reads it: links and images out (as buttons and images),
 * readable sentences in (a lead-in keeps its list, a table row becomes a sentence).
 */

/** List items glued to the sentence that introduces them (`…these steps:`). */
const LIST_ITEMS_PER_LEAD = 6;

const IMAGE_FILE = /\.(?:png|jpe?g|gif|webp|svg)(?:[?#][^\s]*)?$/i;
/** `![alt](url "title")`, `[label](url "title")`, `<https://…>` and bare URLs, in text order. */
const LINKISH = /(!?)\[([^\]\n]*)\]\(\s*<?([^\s)>]+)>?(?:\s+["'][^"'\n]*["'])?\s*\)|<(https?:\/\/[^\s>]+)>|(https?:\/\/[^\s<>()[\]"'`]+)/gi;

const isHttpUrl = (url: string): boolean => /^https?:\/\/[^\s/]+/i.test(url);
const trimUrl = (url: string): string => url.replace(/[.,;:!?'"*_]+$/, '');
/** A bare link's button label: `Open` and the address without scheme (`Open example.com/help/billing`), kept short. */
const labelFor = (url: string): string => {
  let address = url;
  try {
    const u = new URL(url);
    address = `${u.hostname.replace(/^www\./, '')}${u.pathname === '/' ? '' : u.pathname.replace(/\/+$/, '')}`;
  } catch {
    // keep the raw URL
  }
  return `Open ${address.length > 48 ? `${address.slice(0, 47)}…` : address}`;
};

interface Links {
  buttons: { text: string; url: string }[];
  images: string[];
}

/** The buttons (links) and images of a markdown text, in order; images are never buttons. */
export const extractLinks = (text: string): Links => {
  const found: Links = { buttons: [], images: [] };
  for (const m of text.matchAll(LINKISH)) {
    const [, bang, label, mdUrl, autoUrl, bareUrl] = m;
    const url = trimUrl(mdUrl ?? autoUrl ?? bareUrl ?? '');
    if (!isHttpUrl(url)) continue;
    if (bang === '!' || IMAGE_FILE.test(url)) found.images.push(url);
    else found.buttons.push({ text: (mdUrl !== undefined ? plain(label) : '') || labelFor(url), url });
  }
  return found;
};

/** Inline markdown to plain text: images dropped, links to their label, emphasis and code marks off. */
export const plain = (text: string): string =>
  text
    .replace(/!\[[^\]\n]*\]\([^)\n]*\)/g, ' ')
    .replace(/\[([^\]\n]*)\]\([^)\n]*\)/g, '$1')
    .replace(/<(https?:\/\/[^\s>]+)>/gi, '$1')
    .replace(/https?:\/\/[^\s<>()[\]"'`]+\.(?:png|jpe?g|gif|webp|svg)(?:[?#][^\s]*)?/gi, ' ')
    .replace(/<\/?[a-z][^>]*>/gi, ' ')
    .replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, '$2')
    .replace(/(^|[^\w*])\*(?=\S)([^*\n]+?)(?<=\S)\*(?!\w)/g, '$1$2')
    .replace(/(^|[^\w])_(?=\S)([^_\n]+?)(?<=\S)_(?!\w)/g, '$1$2')
    .replace(/`+/g, '')
    .replace(/\s+/g, ' ')
    .trim();

const END = /[.!?…]["')\]]*$/;
export const sentenceEnd = (s: string): string => {
  // A list item ending with the comma or semicolon that ran it into the next ("lost keys,") ends with a full stop instead.
  const bare = s.replace(/\s*[,;]$/, '');
  return END.test(bare) || bare.endsWith(':') ? bare : `${bare}.`;
};

const cellsOf = (row: string): string[] =>
  row
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((c) => plain(c.trim()));

/** Whether `cell` already says its column's name ("Full refund" under "Refund"): naming it again reads "Refund Full refund". */
const saysItsName = (name: string, cell: string): boolean => new RegExp(`(?<!\\p{L})${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?!\\p{L})`, 'iu').test(cell);

/** A table row as a sentence, its cells named by the header's: `Plus: UK £4.49 per month; Canada CA$6.49 per month.` */
const rowSentence = (header: string[], cells: string[]): string => {
  const [first, ...rest] = cells;
  const named = rest
    .map((c, i) => {
      const name = header[i + 1];
      return name && !saysItsName(name, c) ? `${name} ${c}` : c;
    })
    .filter((c) => c.trim() !== '');
  return sentenceEnd(`${first}: ${named.join('; ')}`);
};

/** The readable sentences of a passage in order (a table's rows as sentences); headings, code blocks and rules left out. */
export const sentencesOf = (text: string): string[] => {
  const units: string[] = [];
  let lead: { text: string; items: string[] } | null = null;
  let table: string[] | null = null;
  const flush = () => {
    if (lead) {
      units.push(lead.items.length > 0 ? `${lead.text} ${lead.items.join(' ')}` : lead.text.replace(/:$/, '.'));
      lead = null;
    }
  };
  let inFence = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (/^(```|~~~)/.test(line)) inFence = !inFence;
    if (inFence) {
      flush();
      continue;
    }
    if (/^\|/.test(line)) {
      flush();
      if (/^\|[\s:|-]+\|?$/.test(line)) continue;
      const cells = cellsOf(line);
      if (table === null) table = cells;
      else if (cells.length > 1 && cells[0] !== '') units.push(rowSentence(table, cells));
      continue;
    }
    table = null;
    if (line === '' || /^#{1,6}(\s|$)/.test(line) || /^(```|~~~)/.test(line) || /^([-*_]\s*){3,}$/.test(line)) {
      if (line !== '') flush();
      continue;
    }
    const isItem = /^([-*+]|\d+[.)])\s+/.test(line);
    const content = plain(line.replace(/^>\s?/, '').replace(/^([-*+]|\d+[.)])\s+/, ''));
    // Nothing left, or only a bare link (it becomes a button): no sentence.
    if (content === '' || /^https?:\/\/\S+$/i.test(content)) continue;
    const sentences = content
      .split(/(?<=[.!?…]["')\]]*)\s+(?=["'([]?[A-Z0-9])/)
      .map((s) => s.trim())
      .filter((s) => s !== '');
    const current = lead;
    if (isItem && current && current.items.length < LIST_ITEMS_PER_LEAD) {
      current.items.push(...sentences.map(sentenceEnd).map((s) => s.replace(/:$/, '.')));
      continue;
    }
    flush();
    for (const [i, s] of sentences.entries()) {
      const last = i === sentences.length - 1;
      if (last && s.endsWith(':')) lead = { text: s, items: [] };
      else units.push(sentenceEnd(s).replace(/:$/, '.'));
    }
  }
  flush();
  return units;
};
