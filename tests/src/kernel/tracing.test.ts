import t, { type Test } from 'tap';
import { workspacesOf } from '@support/workspaces';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { Application, inSpan, loadConfig, silentLogger, stopTracing, tracingEnabled } from '@support/application';
import { startTracing } from '@support/kernel/tracing-sdk';
import { CATALOG } from '@support/catalog';
import { removeDir, tempDir } from '../support/service';

/**
 * Tracing with the SDK's in-memory exporter, in this process: off, events carry no trace
 * context and nothing is made; on, a command's span is a child of the caller's, its events carry
 * its `traceparent`, and the projector's span for each event continues it.
 */
const appIn = async (t: Test) => {
  const dir = tempDir('tracing-');
  const app = new Application({ catalog: CATALOG, config: loadConfig({ DATA_DIR: dir }), log: silentLogger, projector: true });
  await app.start();
  t.teardown(async () => {
    await app.stop();
    removeDir(dir);
  });
  return app;
};
const ctx = { workspaceId: null, actor: 'test', requestId: 'req_1' };

t.test('off: no span, no trace context in the events', async (t) => {
  t.equal(tracingEnabled(), false);
  const app = await appIn(t);
  const { workspace } = await workspacesOf(app).commands.create(ctx, { name: 'Untraced' });
  const [event] = await app.engines.events.readStream(`workspace-${workspace.id}`);
  t.equal(event.metadata.traceparent, undefined);
});

t.test('on: the command is a child of its caller, its events carry it, the projection continues it', async (t) => {
  const exporter = new InMemorySpanExporter();
  t.ok(startTracing({ service: 'test', exporter, processor: (e) => new SimpleSpanProcessor({ exporter: e }) }));
  t.teardown(stopTracing);
  const app = await appIn(t);
  const { workspace, position } = await inSpan('caller', {}, () => workspacesOf(app).commands.create(ctx, { name: 'Traced' }));
  await app.settle(position);
  const [event] = await app.engines.events.readStream(`workspace-${workspace.id}`);
  const spans = exporter.getFinishedSpans();
  const named = (name: string) => spans.find((s) => s.name === name)!;
  const caller = named('caller');
  const append = named('append workspace');
  const project = named('project workspace.created');
  t.ok(caller && append && project, spans.map((s) => s.name).join(', '));
  const ids = (s: typeof caller) => s.spanContext();
  t.equal(append.parentSpanContext?.spanId, ids(caller).spanId, 'append is the caller’s child');
  t.equal(event.metadata.traceparent, `00-${ids(append).traceId}-${ids(append).spanId}-01`, "the event carries the append's context");
  t.equal(project.parentSpanContext?.spanId, ids(append).spanId, "the projection continues the append's trace");
  t.strictSame(new Set(spans.map((s) => ids(s).traceId)).size, 1, 'one trace');

  // Outside any span (the admin CLI, a catch-up of events written while tracing was off): the
  // command makes its own span, but a consumer makes none for an event that carries no trace.
  exporter.reset();
  const untraced = await app.engines.events.append(
    'workspace-ws_untraced',
    [
      {
        id: crypto.randomUUID(),
        type: 'workspace.created',
        data: { id: 'ws_untraced', name: 'Old', slug: 'old' },
        metadata: { workspace_id: null, actor: 'admin', request_id: null, occurred_at: new Date().toISOString() },
      },
    ],
    'no_stream',
  );
  await app.settle(untraced.position);
  t.strictSame(
    exporter.getFinishedSpans().map((s) => s.name),
    [],
    'no projection span for an event without a trace',
  );
});
