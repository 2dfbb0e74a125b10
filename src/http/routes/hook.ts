/** The validation hook type every OpenAPIHono router of the sandbox uses. */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../env.js';

export type Hook = NonNullable<ConstructorParameters<typeof OpenAPIHono<AppEnv>>[0]>['defaultHook'];
