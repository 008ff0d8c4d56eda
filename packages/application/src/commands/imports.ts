import * as E from 'fp-ts/Either';
import { DomainEvent, input } from '@support/domain';
import { Position } from '@support/eventstore';
import { failure } from '../errors';
import { CommandContext, Deps, execute, load, Outcome } from './execute';
import { importFileOf } from './import-file';
import { AnyImportSpec, ImportKind, PlannedItem } from './import-kinds';

/** Per kind given: how many items and their ids, in file order (created and updated alike). */
export type ImportReport = Partial<Record<ImportKind, { count: number; ids: string[] }>>;

export interface ImportOutcome {
  report: ImportReport;
  created: number;
  updated: number;
  unchanged: number;
  /** Position of the last event appended; null when the import changed nothing. */
  position: Position | null;
}

export interface ImportProgress {
  done: number;
  total: number;
}

type InputProblem = input.InputProblem;
/** What the run reads of an item, whatever its kind. */
type Item = { id?: string };

/**
 * The operator's `import`: tickets, knowledge base articles, canned responses and channels
 * enter through the same events any write appends. The whole file is checked first (schema,
 * vocabulary, ids, ownership) and refused as a whole before anything is written; then items
 * are applied per kind, in file order.
 */
export class Imports {
  private readonly specs: ReadonlyMap<ImportKind, AnyImportSpec>;
  private readonly file: ReturnType<typeof importFileOf>;

  constructor(
    private readonly deps: Deps,
    /** Whether the workspace exists (the workspaces feature's read of it). */
    private readonly workspaces: { get(id: string): Promise<object | null> },
    /** The kinds an import file may hold, in the order its keys are listed (@support/catalog). */
    kinds: readonly AnyImportSpec[],
  ) {
    this.specs = new Map(kinds.map((k) => [k.key, k]));
    this.file = importFileOf(kinds);
  }

  async run(ctx: CommandContext & { workspaceId: string }, file: unknown, onProgress: (p: ImportProgress) => void = () => {}): Promise<ImportOutcome> {
    if (!(await this.workspaces.get(ctx.workspaceId))) throw failure('not_found', `workspace ${ctx.workspaceId} not found`);
    const decoded = this.file.decode(file);
    if (E.isLeft(decoded)) throw this.refused(input.describeInput(decoded.left));
    // The file's own key order: kinds are applied and reported in the order the file gives them.
    const kinds = Object.keys(file as object).filter((k) => this.specs.has(k));

    const problems: InputProblem[] = [];
    const plans = new Map<ImportKind, PlannedItem<Item>[]>();
    for (const kind of kinds) plans.set(kind, await this.plan(ctx.workspaceId, this.specs.get(kind)!, decoded.right[kind] as Item[], problems));
    for (const kind of kinds) problems.push(...(this.specs.get(kind)!.check?.(decoded.right[kind] as Item[]) ?? []));
    if (problems.length) throw this.refused(problems);

    // What each kind needs before its items are applied (tickets: their numbers).
    const prepared = new Map<ImportKind, unknown>();
    for (const kind of kinds) prepared.set(kind, await this.specs.get(kind)!.prepare?.(this.deps, ctx, plans.get(kind)!));

    const outcome: ImportOutcome = { report: {}, created: 0, updated: 0, unchanged: 0, position: null };
    const total = [...plans.values()].reduce((n, p) => n + p.length, 0);
    let done = 0;
    for (const kind of kinds) {
      const spec = this.specs.get(kind)!;
      const planned = plans.get(kind)!;
      for (const item of planned) {
        // One instant per item: the command's `at` (default created_at) is also the event's time.
        const now = this.deps.clock.now();
        const command: unknown = spec.command(
          { type: 'import', id: item.id, workspace_id: ctx.workspaceId, at: now.toISOString(), input: item.input },
          prepared.get(kind),
        );
        const { events, position } = (await execute(
          { ...this.deps, clock: { now: () => now } },
          ctx,
          spec.aggregate,
          spec.stream(item.id),
          command,
        )) as Outcome<unknown, DomainEvent>;
        if (events.length === 0) outcome.unchanged += 1;
        else if (events[0].type.endsWith('.created')) outcome.created += 1;
        else outcome.updated += 1;
        outcome.position = position ?? outcome.position;
        onProgress({ done: ++done, total });
      }
      outcome.report[kind] = { count: planned.length, ids: planned.map((p) => p.id) };
    }
    return outcome;
  }

  /** Gives every item its id and finds which exist; an id given twice, or another workspace's, is a problem. */
  private async plan<I extends { id?: string }>(
    workspaceId: string,
    spec: AnyImportSpec,
    items: readonly I[],
    problems: InputProblem[],
  ): Promise<PlannedItem<I>[]> {
    const seen = new Map<string, number>();
    const planned: PlannedItem<I>[] = [];
    for (const [index, item] of items.entries()) {
      const field = `${spec.key}[${index}].id`;
      if (item.id === undefined) {
        planned.push({ id: this.deps.ids.next(spec.prefix), exists: false, input: item });
        continue;
      }
      const first = seen.get(item.id);
      if (first !== undefined) problems.push({ field, message: `${item.id} is also given by ${spec.key}[${first}]` });
      seen.set(item.id, first ?? index);
      const owner = spec.owner((await load(this.deps, spec.aggregate, spec.stream(item.id))).state);
      if (owner !== null && owner !== workspaceId) problems.push({ field, message: `${item.id} belongs to another workspace` });
      planned.push({ id: item.id, exists: owner !== null, input: item });
    }
    return planned;
  }

  private refused(problems: readonly InputProblem[]) {
    const topLevel = problems.some((p) => !/[.[]/.test(p.field));
    const hint = topLevel ? ` (an import file is a JSON object with any of the keys ${[...this.specs.keys()].join(', ')})` : '';
    return failure('validation', `import refused, nothing was imported: ${input.problemsText(problems)}${hint}`, { problems });
  }
}
