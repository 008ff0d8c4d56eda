import { input } from '@support/domain';
import type { AnyImportSpec } from './import-kinds';

/**
 * The import file of these kinds (operator interface): a JSON object with any of the kinds'
 * keys, each an array of items shaped like the resource. Every problem is named by kind, item
 * index and field.
 */
export const importFileOf = (kinds: readonly AnyImportSpec[]) =>
  input.closed('import file', {}, Object.fromEntries(kinds.map((k) => [k.key, input.listOf(k.input)])));
