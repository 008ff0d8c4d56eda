import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Application, DomainFailure, EMBEDDED_FILES, fileInUse, jsonLogger, loadConfigOrExit } from '@support/application';
import { adminLogLevel, adminRun, output, Refused, UsageError } from './cli';
import { eventsCommand } from './commands/events';
import { importCommand } from './commands/import';
import { keyCommand } from './commands/key';
import { projectionsCommand } from './commands/projections';
import { workspaceCommand } from './commands/workspace';
import { backupCommand, backupTarget, restoreCommand } from './commands/backup';
import { CATALOG } from '@support/catalog';

const USAGE = `usage: npm run --silent admin -- <command> [flags] [--json]
  workspace create --name NAME [--slug SLUG] [--plan PLAN] [--credits N] [--sla-tracking on|off] [--email EMAIL]
  workspace set --id ID [--plan PLAN] [--credits N] [--sla-tracking on|off] [--email EMAIL]
  workspace get --id ID
  key create --workspace ID --name NAME [--environment live|test] [--access full|read_only|chat_only] [--scopes a,b] [--expires-at ISO]
  key revoke --id KEY_ID
  import --workspace ID --file PATH
  events replay [--workspace ID] [--from POSITION]
  projections rebuild [--name NAME] [--workers N]
  projections set-aside [--all]
  projections retry --id ID
  projections skip --id ID
  backup --to DIR
  restore --from DIR [--replace]`;

const COMMANDS = {
  workspace: workspaceCommand,
  key: keyCommand,
  events: eventsCommand,
  projections: projectionsCommand,
  import: importCommand,
  backup: backupCommand,
};

const HELP = new Set(['help', '--help', '-h']);

/** Commands that only read an existing log (the others may start a new one: the first workspace). */
const READS_THE_LOG = new Set(['backup', 'events', 'projections']);

const main = async (argv: string[]): Promise<number> => {
  const [group, ...rest] = argv;
  const command = COMMANDS[group as keyof typeof COMMANDS];
  // Help, asked for anywhere: the usage of the command named (or all of them) on stdout, exit 0.
  if (group === undefined || HELP.has(group) || rest.some((a) => HELP.has(a))) {
    const lines = USAGE.split('\n');
    const own = lines.filter((l) => group !== undefined && l.trimStart().startsWith(`${group} `));
    process.stdout.write(`${own.length > 0 ? [lines[0], ...own].join('\n') : USAGE}\n`);
    return 0;
  }
  // Restore runs on files alone: opening the engines would create the files it replaces.
  if (group === 'restore') return runRestore(rest);
  if (!command) {
    process.stderr.write(`error: unknown command '${group}'\n${USAGE}\n`);
    return 2;
  }
  const config = loadConfigOrExit(process.env, process.stderr);
  // Logs go to stderr: stdout carries only the command's result.
  const run = adminRun();
  const log = jsonLogger(adminLogLevel(), { service: 'admin', request_id: run.requestId }, (line) => process.stderr.write(line + '\n'));
  let app: Application | null = null;
  try {
    if (group === 'backup') backupTarget(rest);
    // Reading a log that is not there would make an empty one (a mistyped DATA_DIR backed up as
    // "0 events"): a backup needs the log, a command that reads one needs the folder at least.
    const dataDir = resolve(config.dataDir);
    const needed = group === 'backup' ? join(dataDir, EMBEDDED_FILES.events) : dataDir;
    if (READS_THE_LOG.has(group) && !config.eventstoreUrl && !existsSync(needed))
      throw new DomainFailure({
        kind: 'not_found',
        message: `${needed} does not exist: DATA_DIR holds no log to ${group === 'backup' ? 'back up' : 'read'} (is DATA_DIR right?)`,
      });
    // A rebuild beside a running service loses what the service writes meanwhile (and its clients
    // get answers from emptied read models): on the embedded default that is known, and refused.
    const readStore = join(dataDir, EMBEDDED_FILES.reads);
    if (group === 'projections' && rest[0] === 'rebuild' && !config.mongodbUrl && fileInUse(readStore))
      throw new Refused(`${readStore} is open in another process (the service): stop it before rebuilding; nothing was rebuilt`);
    app = new Application({ catalog: CATALOG, config, log, projector: false });
    await command(app, output(rest.includes('--json')), rest, run);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`error: ${err.message}\n${USAGE}\n`);
      return 2;
    }
    if (err instanceof DomainFailure || err instanceof Refused) {
      process.stderr.write(`error: ${err.message}\n`);
      return 1;
    }
    process.stderr.write(`error: ${err instanceof Error ? err.stack : String(err)}\n`);
    return 1;
  } finally {
    await app?.stop();
  }
};

const runRestore = async (args: string[]): Promise<number> => {
  const config = loadConfigOrExit(process.env, process.stderr);
  try {
    await restoreCommand(config, output(args.includes('--json')), args);
    return 0;
  } catch (err) {
    process.stderr.write(err instanceof UsageError ? `error: ${err.message}\n${USAGE}\n` : `error: ${err instanceof Error ? err.message : String(err)}\n`);
    return err instanceof UsageError ? 2 : 1;
  }
};

// A reader that stopped early (`events replay | head`) is a normal end for a command-line tool.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') throw err;
  process.exit(0);
});

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
