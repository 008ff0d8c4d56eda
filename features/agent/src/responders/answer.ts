/** Caps on an answer's lists, whoever writes it (the grounded responder or the model). */
export const ANSWER_LIMITS = { quickReplies: 3, buttons: 5, images: 5 } as const;

/** Items in order, each key kept once (the first). */
export const distinctBy = <A>(items: readonly A[], key: (a: A) => string): A[] => {
  const seen = new Set<string>();
  return items.filter((a) => {
    const k = key(a);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
};
