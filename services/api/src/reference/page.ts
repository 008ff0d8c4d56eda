import { createReadStream, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type Router from '@koa/router';

/**
 * GET /v1/docs: the API reference, rendered in the browser by Scalar from the live
 * /v1/openapi.json. Scalar's standalone bundle comes from the npm package and is served here,
 * so the page works offline.
 */
const SCALAR = join(dirname(require.resolve('@scalar/api-reference')), 'browser', 'standalone.js');

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Support platform API reference</title>
    <link rel="icon" href="data:," />
  </head>
  <body>
    <div id="reference"></div>
    <script src="docs/scalar.js"></script>
    <script>
      // Offline and self-contained: no web fonts, and none of Scalar's hosted features (its AI
      // agent, MCP generator, request proxy, developer toolbar).
      Scalar.createApiReference('#reference', {
        url: 'openapi.json',
        withDefaultFonts: false,
        hideClientButton: true,
        hideTestRequestButton: true,
        showDeveloperTools: 'never',
        agent: { disabled: true },
        mcp: { disabled: true },
        telemetry: false,
      });
    </script>
  </body>
</html>
`;

export const mountReferencePage = (router: Router): void => {
  const size = statSync(SCALAR).size;
  router.get('/docs', (ctx) => {
    // Relative URLs above resolve against /v1/: /v1/docs/ (which the router matches too) would
    // load /v1/docs/docs/scalar.js, so it is sent to /v1/docs (relative: right behind a proxy's prefix).
    if (ctx.path.endsWith('/')) {
      ctx.status = 301;
      ctx.redirect('../docs');
      return;
    }
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = PAGE;
  });
  router.get('/docs/scalar.js', (ctx) => {
    ctx.type = 'application/javascript; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.length = size;
    ctx.body = createReadStream(SCALAR);
  });
};
