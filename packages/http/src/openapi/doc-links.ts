import type { RouteDef } from '../route';
import { errorsOf } from './document';

/** Where in the reference page (GET /v1/docs) an error is documented, as a fragment. */
export type DocAnchor = (method: string, path: string, status: number) => string;

/** The reference page's section on the error envelope and its codes (a heading of the document's description). */
export const ERRORS_ANCHOR = 'description/errors';

const pattern = (prefix: string, path: string) => new RegExp(`^${prefix}${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/:[A-Za-z_]+/g, '[^/]+')}/?$`, 'i');

/**
 * An error's place in the reference page (its renderer, Scalar, names sections
 * `tag/<tag>/<METHOD><path>` and an operation's answers `….responses.<status>`): the
 * operation's answer with that status when the operation documents it, else the operation,
 * else the errors section. Routes are matched here rather than taken from the router, because
 * errors raised before routing (a key, a rate limit, a body that does not parse) belong to the
 * operation too. Only errors pay for the lookup.
 */
export const docAnchors = (routes: readonly RouteDef[], prefix = '/v1'): DocAnchor => {
  const table = routes.map((r) => ({
    method: r.method.toUpperCase(),
    test: pattern(prefix, r.path),
    // `{id}` percent-encoded, as a URL's fragment must be (the page decodes it).
    section: `tag/${r.tag}/${r.method.toUpperCase()}${r.path.replace(/:([A-Za-z_]+)/g, '%7B$1%7D')}`,
    statuses: new Set(errorsOf(r)),
  }));
  return (method, path, status) => {
    const verb = method === 'HEAD' ? 'GET' : method;
    const route = table.find((r) => r.method === verb && r.test.test(path));
    if (!route) return ERRORS_ANCHOR;
    return route.statuses.has(String(status)) ? `${route.section}.responses.${status}` : route.section;
  };
};
