import type { RouteDef } from '@support/http';
import { conversationRoutes } from './conversations';
import { customerRoutes } from './customers';
import { messageRoutes } from './messages';
import { metaRoutes } from './meta';
import { tagRoutes } from './tags';

/** Every authenticated endpoint, in the order the OpenAPI document lists them. */
export const ROUTES: readonly RouteDef[] = [...metaRoutes, ...customerRoutes, ...tagRoutes, ...conversationRoutes, ...messageRoutes] as RouteDef[];
